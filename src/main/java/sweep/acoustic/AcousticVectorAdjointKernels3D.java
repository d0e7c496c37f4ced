package sweep.acoustic;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustic.kernels.AcousticAdjointKernels3D;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 3-D adjoint kernels of {@link AcousticAdjointKernels3D} (and of the interior branch
 * of {@link AcousticKernels3D#laplacian}) for the Java backend, the 3-D counterparts of
 * {@link AcousticVectorAdjointKernels2D}: per cell exactly the same float operations in the same order (no fused
 * multiply-add), vectorised across x, band tests hoisted per row (z, y) and per row segment (x). Also holds the row
 * helpers both dimensions share. Bit-identical to {@link AcousticAdjointKernels3D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class AcousticVectorAdjointKernels3D {
    private AcousticVectorAdjointKernels3D() {
    }

    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    /** Same as {@link AcousticAdjointKernels3D#rebuildScale}, with a scratch row of its own. */
    public static void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad,
                                    float[] coef, int[] geo, int rev, int z0, int z1, int y0, int y1, int x0, int x1) {
        rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z0, z1, y0, y1, x0, x1, new float[scratchSize(geo)]);
    }

    /**
     * Same as {@link AcousticAdjointKernels3D#rebuildScale}, given the calling thread's {@code scratch} of
     * {@link #scratchSize} floats (at h = 4 the stencil runs in two unrolled passes,
     * {@link AcousticVectorRows3D#interiorFirst} then {@link #rebuildSecond}).
     */
    public static void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad,
                                    float[] coef, int[] geo, int rev, int z0, int z1, int y0, int y1, int x0, int x1,
                                    float[] scratch) {
        int h = geo[Layout.H];
        if (h == 4) {
            int sz = geo[Layout.SZ];
            int sy = geo[Layout.SY];
            int n = (x1 - x0) / S.length() * S.length();
            for (int z = z0; z < z1; z++) {
                for (int y = y0; y < y1; y++) {
                    int i0 = geo[Layout.OFF0] + z * sz + y * sy + x0;
                    if (n > 0) {
                        AcousticVectorRows3D.interiorFirst(u, scratch, coef, i0, n, sz, sy);
                        rebuildSecond(u, un, v2, qb, w, grad, scratch, coef, i0, n, sz, sy, rev);
                    }
                    if (x0 + n < x1) {
                        AcousticAdjointKernels3D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z, z + 1, y, y
                                + 1, x0 + n, x1);
                    }
                }
            }
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                int row = off + z * sz + y * sy;
                int x = x0;
                for (; x + vl <= x1; x += vl) {
                    int i = row + x;
                    FloatVector uc = ld(u, i);
                    FloatVector s = uc.mul(c00);
                    for (int k = 1; k <= h; k++) {
                        int oz = k * sz;
                        int oy = k * sy;
                        FloatVector tz = ld(u, i + oz).add(ld(u, i - oz)).mul(coef[k]);
                        FloatVector ty = ld(u, i + oy).add(ld(u, i - oy)).mul(coef[cy + k]);
                        FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]);
                        s = s.add(tz.add(ty).add(tx));
                    }
                    FloatVector vv = ld(v2, i);
                    if (rev != 0) {
                        uc.mul(2.0f).add(vv.mul(s)).sub(ld(un, i)).intoArray(un, i);
                    }
                    FloatVector q = ld(qb, i);
                    vv.mul(q).intoArray(w, i);
                    ld(grad, i).add(q.mul(s)).intoArray(grad, i);
                }
                if (x < x1) {
                    AcousticAdjointKernels3D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z, z + 1, y, y + 1, x,
                            x1);
                }
            }
        }
    }

    /** Same as {@link AcousticAdjointKernels3D#scale}. */
    public static void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                             int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                scaleRow(qb, v2, w, grad, d, off + z * sz + y * sy + x0, x1 - x0);
            }
        }
    }

    /**
     * {@code w = v2·qb; grad = grad + qb·d} at the n cells from i0 (the operations of
     * {@link AcousticAdjointKernels3D#scale}).
     */
    static void scaleRow(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int i0, int n) {
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = i0 + j;
            FloatVector q = ld(qb, i);
            ld(v2, i).mul(q).intoArray(w, i);
            ld(grad, i).add(q.mul(ld(d, i))).intoArray(grad, i);
        }
        for (; j < n; j++) {
            int i = i0 + j;
            w[i] = v2[i] * qb[i];
            grad[i] = grad[i] + qb[i] * d[i];
        }
    }

    /**
     * Same as {@link AcousticKernels3D#laplacian}: row segments outside every band take the vectorised interior branch,
     * the others the portable kernel.
     */
    public static void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d,
                                 int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        int xa = Math.min(x1, Math.max(x0, geo[Layout.XBL]));
        int xe = Math.max(xa, Math.min(x1, geo[Layout.XBH]));
        for (int z = z0; z < z1; z++) {
            boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
            for (int y = y0; y < y1; y++) {
                if (zb || y < geo[Layout.YBL] || y >= geo[Layout.YBH]) {
                    AcousticKernels3D.laplacian(u, psi, zeta, coef, geo, d, z, z + 1, y, y + 1, x0, x1);
                    continue;
                }
                if (x0 < xa) {
                    AcousticKernels3D.laplacian(u, psi, zeta, coef, geo, d, z, z + 1, y, y + 1, x0, xa);
                }
                int row = off + z * sz + y * sy;
                int x = xa;
                for (; x + vl <= xe; x += vl) {
                    int i = row + x;
                    FloatVector s = ld(u, i).mul(c00);
                    for (int k = 1; k <= h; k++) {
                        int oz = k * sz;
                        int oy = k * sy;
                        FloatVector tz = ld(u, i + oz).add(ld(u, i - oz)).mul(coef[k]);
                        FloatVector ty = ld(u, i + oy).add(ld(u, i - oy)).mul(coef[cy + k]);
                        FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]);
                        s = s.add(tz.add(ty).add(tx));
                    }
                    s.intoArray(d, i);
                }
                if (x < x1) {
                    AcousticKernels3D.laplacian(u, psi, zeta, coef, geo, d, z, z + 1, y, y + 1, x, x1);
                }
            }
        }
    }

    /**
     * Second half of {@link #rebuildScale} at h = 4 over n cells (a multiple of the vector length) from i0:
     * {@code s = t + Σ_{k=3,4}(...)}, then u^{n−1} rebuilt in place of un (when {@code rev} ≠ 0), {@code w = v2·qb},
     * {@code grad += qb·s}.
     */
    static void rebuildSecond(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad, float[] t,
                              float[] coef, int i0, int n, int sz, int sy, int rev) {
        FloatVector z3 = FloatVector.broadcast(S, coef[3]);
        FloatVector z4 = FloatVector.broadcast(S, coef[4]);
        FloatVector y3 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CY + 3]);
        FloatVector y4 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CY + 4]);
        FloatVector x3 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CX + 3]);
        FloatVector x4 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CX + 4]);
        int sz3 = 3 * sz;
        int sz4 = 4 * sz;
        int sy3 = 3 * sy;
        int sy4 = 4 * sy;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, t, j);
            s = s.add(FloatVector.fromArray(S, u, i + sz3).add(FloatVector.fromArray(S, u, i - sz3)).mul(z3)
                    .add(FloatVector.fromArray(S, u, i + sy3).add(FloatVector.fromArray(S, u, i - sy3)).mul(y3))
                    .add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(x3)));
            s = s.add(FloatVector.fromArray(S, u, i + sz4).add(FloatVector.fromArray(S, u, i - sz4)).mul(z4)
                    .add(FloatVector.fromArray(S, u, i + sy4).add(FloatVector.fromArray(S, u, i - sy4)).mul(y4))
                    .add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(x4)));
            FloatVector vv = FloatVector.fromArray(S, v2, i);
            if (rev != 0) {
                FloatVector.fromArray(S, u, i).mul(2.0f).add(vv.mul(s)).sub(FloatVector.fromArray(S, un, i))
                        .intoArray(un, i);
            }
            FloatVector q = FloatVector.fromArray(S, qb, i);
            vv.mul(q).intoArray(w, i);
            FloatVector.fromArray(S, grad, i).add(q.mul(s)).intoArray(grad, i);
        }
    }

    /**
     * Second half of {@link #interior} at h = 4 over n cells (a multiple of the vector length) from i0:
     * {@code s = t + Σ_{k=3,4}(...)} of w, {@code qp = (2·qb − qp) + s}.
     */
    static void lambdaSecond(float[] qp, float[] qb, float[] w, float[] t, float[] coef, int i0, int n, int sz,
                             int sy) {
        FloatVector z3 = FloatVector.broadcast(S, coef[3]);
        FloatVector z4 = FloatVector.broadcast(S, coef[4]);
        FloatVector y3 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CY + 3]);
        FloatVector y4 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CY + 4]);
        FloatVector x3 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CX + 3]);
        FloatVector x4 = FloatVector.broadcast(S, coef[AcousticVectorRows3D.CX + 4]);
        int sz3 = 3 * sz;
        int sz4 = 4 * sz;
        int sy3 = 3 * sy;
        int sy4 = 4 * sy;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, t, j);
            s = s.add(FloatVector.fromArray(S, w, i + sz3).add(FloatVector.fromArray(S, w, i - sz3)).mul(z3)
                    .add(FloatVector.fromArray(S, w, i + sy3).add(FloatVector.fromArray(S, w, i - sy3)).mul(y3))
                    .add(FloatVector.fromArray(S, w, i + 3).add(FloatVector.fromArray(S, w, i - 3)).mul(x3)));
            s = s.add(FloatVector.fromArray(S, w, i + sz4).add(FloatVector.fromArray(S, w, i - sz4)).mul(z4)
                    .add(FloatVector.fromArray(S, w, i + sy4).add(FloatVector.fromArray(S, w, i - sy4)).mul(y4))
                    .add(FloatVector.fromArray(S, w, i + 4).add(FloatVector.fromArray(S, w, i - 4)).mul(x4)));
            FloatVector.fromArray(S, qb, i).mul(2.0f).sub(FloatVector.fromArray(S, qp, i)).add(s).intoArray(qp, i);
        }
    }

    /** Same as {@link AcousticAdjointKernels3D#interior}, with a scratch row of its own. */
    public static void interior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1) {
        interior(qp, qb, w, coef, geo, z0, z1, y0, y1, x0, x1, new float[scratchSize(geo)]);
    }

    /**
     * Same as {@link AcousticAdjointKernels3D#interior}, given the calling thread's {@code scratch} of
     * {@link #scratchSize} floats (at h = 4 in two unrolled passes, {@link AcousticVectorRows3D#interiorFirst} then
     * {@link #lambdaSecond}).
     */
    public static void interior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1, float[] scratch) {
        int h = geo[Layout.H];
        if (h == 4) {
            int sz = geo[Layout.SZ];
            int sy = geo[Layout.SY];
            int n = (x1 - x0) / S.length() * S.length();
            for (int z = z0; z < z1; z++) {
                for (int y = y0; y < y1; y++) {
                    int i0 = geo[Layout.OFF0] + z * sz + y * sy + x0;
                    if (n > 0) {
                        AcousticVectorRows3D.interiorFirst(w, scratch, coef, i0, n, sz, sy);
                        lambdaSecond(qp, qb, w, scratch, coef, i0, n, sz, sy);
                    }
                    if (x0 + n < x1) {
                        AcousticAdjointKernels3D.interior(qp, qb, w, coef, geo, z, z + 1, y, y + 1, x0 + n, x1);
                    }
                }
            }
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                int row = off + z * sz + y * sy;
                int x = x0;
                for (; x + vl <= x1; x += vl) {
                    int i = row + x;
                    FloatVector s = ld(w, i).mul(c00);
                    for (int k = 1; k <= h; k++) {
                        int oz = k * sz;
                        int oy = k * sy;
                        FloatVector tz = ld(w, i + oz).add(ld(w, i - oz)).mul(coef[k]);
                        FloatVector ty = ld(w, i + oy).add(ld(w, i - oy)).mul(coef[cy + k]);
                        FloatVector tx = ld(w, i + k).add(ld(w, i - k)).mul(coef[cx + k]);
                        s = s.add(tz.add(ty).add(tx));
                    }
                    ld(qb, i).mul(2.0f).sub(ld(qp, i)).add(s).intoArray(qp, i);
                }
                if (x < x1) {
                    AcousticAdjointKernels3D.interior(qp, qb, w, coef, geo, z, z + 1, y, y + 1, x, x1);
                }
            }
        }
    }

    /**
     * Floats of per-thread scratch that {@link #general} (three rows) and {@link #pmlPsi} (one row and 2h) need for
     * grid {@code geo}.
     */
    public static int scratchSize(int[] geo) {
        return 3 * geo[Layout.NX] + 2 * geo[Layout.H] + S.length();
    }

    /**
     * Same as {@link AcousticAdjointKernels3D#general}, given {@code scratch} of at least {@link #scratchSize} floats
     * (one per thread). Each row runs in passes: per axis the term {@code t_a} into a scratch row, then the update
     * {@code qp = (2·qb − qp) + ((t_z + t_y) + t_x)}. An axis whose band the row's stencil cannot reach (cor and pb of
     * that axis are zero there, +0.0f) reads a zero vector instead of those arrays: the same additions and
     * multiplications on the same values, without the memory traffic.
     */
    public static void general(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                               int z0, int z1, int y0, int y1, int x0, int x1, float[] scratch) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int n = x1 - x0;
        int ax = Layout.aux(2);
        // x band reach: cells in [xa, xe) have their whole x stencil outside the x bands
        int xa = Math.min(x1, Math.max(x0, geo[Layout.XBL] + h));
        int xe = Math.max(xa, Math.min(x1, geo[Layout.XBH] - h));
        int ahead = AcousticVectorKernels3D.TOUCH_AHEAD;
        float acc = 0f;
        for (int z = z0; z < z1; z++) {
            boolean rz = !(z - h >= geo[Layout.ZBL] && z + h < geo[Layout.ZBH]);
            for (int y = y0; y < y1; y++) {
                boolean ry = !(y - h >= geo[Layout.YBL] && y + h < geo[Layout.YBH]);
                int i0 = off + z * sz + y * sy + x0;
                if (ahead > 0) {
                    // the x-slot cor/pb segments of a later row: short strided pieces no hardware stream fetches
                    int r = CpuKernels.rowAhead(geo[ax], geo[ax + 2], geo[ax + 3], z, y, ahead, y0, y1, z1);
                    if (r >= 0) {
                        acc += touch(cor, pb, r + x0, xa - x0, h)
                                + touch(cor, pb, r + geo[ax + 1] - geo[ax] + xe, x1 - xe, h);
                    }
                }
                int pz = rz ? Layout.auxShift(geo, 0, z, y, 0) : 0;
                int py = ry ? Layout.auxShift(geo, 1, z, y, 0) : 0;
                generalAxis(w, cor, pb, scratch, 0, i0, n, pz, sz, coef, 0, d1, h, rz);
                generalAxis(w, cor, pb, scratch, n, i0, n, py, sy, coef, cy, d1 + h, h, ry);
                generalAxis(w, cor, pb, scratch, 2 * n, i0, xa - x0, Layout.auxShift(geo, 2, z, y, x0), 1, coef, cx,
                        d1 + 2 * h, h, true);
                generalAxis(w, cor, pb, scratch, 2 * n + xa - x0, i0 + xa - x0, xe - xa, 0, 1, coef, cx,
                        d1 + 2 * h, h, false);
                generalAxis(w, cor, pb, scratch, 2 * n + xe - x0, i0 + xe - x0, x1 - xe,
                        Layout.auxShift(geo, 2, z, y, xe), 1, coef, cx, d1 + 2 * h, h, true);
                generalFinish(qp, qb, scratch, i0, n);
            }
        }
        AcousticVectorKernels3D.sink = acc;
    }

    /** Sum of one float per 16 of a and b over [i − h, i + n + h) when n > 0 (only brings their lines in). */
    private static float touch(float[] a, float[] b, int i, int n, int h) {
        float s = 0f;
        if (n > 0) {
            for (int j = -h; j < n + h; j += 16) {
                s += a[i + j] + b[i + j];
            }
            s += a[i + n + h - 1] + b[i + n + h - 1];
        }
        return s;
    }

    /**
     * One axis of {@link AcousticAdjointKernels3D#general} over m cells from i0:
     * {@code t = c0·(w + cor) + Σ_k (c_k·((w(+k) + cor(+k)) + (w(−k) + cor(−k))) + d_k·(pb(−k) − pb(+k)))} into
     * {@code t[to..]}; stride st, auxiliaries of the axis at index p + i; {@code reach} false: cor and pb read as
     * +0.0f. A row longer than a vector ends with a vector that overlaps the one before it (t is a pure function of
     * read-only inputs, so the overlapped cells are written with the same values): no scalar tail.
     */
    static void generalAxis(float[] w, float[] cor, float[] pb, float[] t, int to, int i0, int m, int p,
                                    int st, float[] coef, int cb, int db, int h, boolean reach) {
        // the unrolled passes read up to a vector past the row: only where that stays inside the arrays (a 2-D grid's
        // last rows have nothing after their halo)
        int past = i0 + m + S.length() + 4 * st;
        if (h == 4 && m >= S.length() && past <= w.length && (!reach || p + past <= cor.length)) {
            if (reach) {
                generalAxis4(w, cor, pb, t, to, i0, m, p, st, coef, cb, db);
            } else {
                generalAxis4Clear(w, t, to, i0, m, st, coef, cb, db);
            }
            return;
        }
        float c0 = coef[cb];
        int vl = S.length();
        int j = 0;
        if (reach) {
            for (; j + vl <= m; j += vl) {
                int i = i0 + j;
                FloatVector s = ld(w, i).add(ld(cor, p + i)).mul(c0);
                for (int k = 1; k <= h; k++) {
                    int o = k * st;
                    FloatVector a = ld(w, i + o).add(ld(cor, p + i + o)).add(ld(w, i - o).add(ld(cor, p + i - o)));
                    s = s.add(a.mul(coef[cb + k]).add(ld(pb, p + i - o).sub(ld(pb, p + i + o)).mul(coef[db + k - 1])));
                }
                s.intoArray(t, to + j);
                if (j + vl < m && j + 2 * vl > m) {
                    j = m - 2 * vl; // the last vector ends at m: overlapping cells get the same value again
                }
            }
        } else {
            FloatVector zero = FloatVector.zero(S);
            FloatVector dz = zero.sub(zero);
            for (; j + vl <= m; j += vl) {
                int i = i0 + j;
                FloatVector s = ld(w, i).add(zero).mul(c0);
                for (int k = 1; k <= h; k++) {
                    int o = k * st;
                    FloatVector a = ld(w, i + o).add(zero).add(ld(w, i - o).add(zero));
                    s = s.add(a.mul(coef[cb + k]).add(dz.mul(coef[db + k - 1])));
                }
                s.intoArray(t, to + j);
                if (j + vl < m && j + 2 * vl > m) {
                    j = m - 2 * vl;
                }
            }
        }
        for (; j < m; j++) {
            int i = i0 + j;
            t[to + j] = AcousticAdjointKernels3D.generalTerm(w, cor, pb, coef, h, cb, db, i, st, reach ? 1 : 0, p + i,
                    st);
        }
    }

    /**
     * {@link #generalAxis} with {@code reach} at h = 4 (m at least one vector): the sum unrolled and its weights
     * broadcast once, in whole vectors: the last one runs up to a vector past m into the scratch (the next piece of
     * {@link #general}'s scratch is written after this one; the reads stay in the halo or the next row).
     */
    static void generalAxis4(float[] w, float[] cor, float[] pb, float[] t, int to, int i0, int m, int p, int st,
                             float[] coef, int cb, int db) {
        FloatVector c0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector c1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[cb + 4]);
        FloatVector d1 = FloatVector.broadcast(S, coef[db]);
        FloatVector d2 = FloatVector.broadcast(S, coef[db + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[db + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[db + 3]);
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        int vl = S.length();
        for (int j = 0; j < m; j += vl) {
            int i = i0 + j;
            int q = p + i;
            FloatVector s = FloatVector.fromArray(S, w, i).add(FloatVector.fromArray(S, cor, q)).mul(c0);
            s = s.add(FloatVector.fromArray(S, w, i + st).add(FloatVector.fromArray(S, cor, q + st))
                    .add(FloatVector.fromArray(S, w, i - st).add(FloatVector.fromArray(S, cor, q - st))).mul(c1)
                    .add(FloatVector.fromArray(S, pb, q - st).sub(FloatVector.fromArray(S, pb, q + st)).mul(d1)));
            s = s.add(FloatVector.fromArray(S, w, i + st2).add(FloatVector.fromArray(S, cor, q + st2))
                    .add(FloatVector.fromArray(S, w, i - st2).add(FloatVector.fromArray(S, cor, q - st2))).mul(c2)
                    .add(FloatVector.fromArray(S, pb, q - st2).sub(FloatVector.fromArray(S, pb, q + st2)).mul(d2)));
            s = s.add(FloatVector.fromArray(S, w, i + st3).add(FloatVector.fromArray(S, cor, q + st3))
                    .add(FloatVector.fromArray(S, w, i - st3).add(FloatVector.fromArray(S, cor, q - st3))).mul(c3)
                    .add(FloatVector.fromArray(S, pb, q - st3).sub(FloatVector.fromArray(S, pb, q + st3)).mul(d3)));
            s = s.add(FloatVector.fromArray(S, w, i + st4).add(FloatVector.fromArray(S, cor, q + st4))
                    .add(FloatVector.fromArray(S, w, i - st4).add(FloatVector.fromArray(S, cor, q - st4))).mul(c4)
                    .add(FloatVector.fromArray(S, pb, q - st4).sub(FloatVector.fromArray(S, pb, q + st4)).mul(d4)));
            s.intoArray(t, to + j);
        }
    }

    /** {@link #generalAxis} without {@code reach} at h = 4: cor and pb read as +0.0f, as there. */
    static void generalAxis4Clear(float[] w, float[] t, int to, int i0, int m, int st, float[] coef, int cb, int db) {
        FloatVector zero = FloatVector.zero(S);
        FloatVector dz = zero.sub(zero);
        FloatVector c0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector c1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[cb + 4]);
        FloatVector e1 = dz.mul(FloatVector.broadcast(S, coef[db]));
        FloatVector e2 = dz.mul(FloatVector.broadcast(S, coef[db + 1]));
        FloatVector e3 = dz.mul(FloatVector.broadcast(S, coef[db + 2]));
        FloatVector e4 = dz.mul(FloatVector.broadcast(S, coef[db + 3]));
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        int vl = S.length();
        for (int j = 0; j < m; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, w, i).add(zero).mul(c0);
            s = s.add(FloatVector.fromArray(S, w, i + st).add(zero).add(FloatVector.fromArray(S, w, i - st).add(zero))
                    .mul(c1).add(e1));
            s = s.add(FloatVector.fromArray(S, w, i + st2).add(zero).add(FloatVector.fromArray(S, w, i - st2)
                    .add(zero)).mul(c2).add(e2));
            s = s.add(FloatVector.fromArray(S, w, i + st3).add(zero).add(FloatVector.fromArray(S, w, i - st3)
                    .add(zero)).mul(c3).add(e3));
            s = s.add(FloatVector.fromArray(S, w, i + st4).add(zero).add(FloatVector.fromArray(S, w, i - st4)
                    .add(zero)).mul(c4).add(e4));
            s.intoArray(t, to + j);
        }
    }

    /** {@code qp = (2·qb − qp) + ((t_z + t_y) + t_x)} over the n cells of a row from i0. */
    private static void generalFinish(float[] qp, float[] qb, float[] t, int i0, int n) {
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = i0 + j;
            FloatVector s = ld(t, j).add(ld(t, n + j)).add(ld(t, 2 * n + j));
            ld(qb, i).mul(2.0f).sub(ld(qp, i)).add(s).intoArray(qp, i);
        }
        for (; j < n; j++) {
            int i = i0 + j;
            qp[i] = (2.0f * qb[i] - qp[i]) + ((t[j] + t[n + j]) + t[2 * n + j]);
        }
    }

    /** Same as {@link AcousticAdjointKernels3D#pmlZeta}. */
    public static void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo,
                               int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int pay = 2 * nz;
        int pby = pay + ny;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        for (int z = z0; z < z1; z++) {
            boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
            for (int y = y0; y < y1; y++) {
                int row = off + z * sz + y * sy;
                if (zb) {
                    zetaRow(w, zetab, cor, row + x0, Layout.auxShift(geo, 0, z, y, 0), x1 - x0, prof[z], prof[nz + z]);
                }
                if (y < geo[Layout.YBL] || y >= geo[Layout.YBH]) {
                    zetaRow(w, zetab, cor, row + x0, Layout.auxShift(geo, 1, z, y, 0), x1 - x0, prof[pay + y],
                            prof[pby + y]);
                }
                for (int seg = 0; seg < 2; seg++) {
                    int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                    int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                    zetaRowX(w, zetab, cor, prof, row, Layout.auxShift(geo, 2, z, y, xa), xa, xe, pax, pbx);
                }
            }
        }
    }

    /**
     * Backward zeta recursion of one axis over n cells from i0 whose band profile is (a, b) for the whole row:
     * {@code t = zetab + w; cor = b·t; zetab = a·t}, auxiliaries of the axis at index p + i.
     */
    static void zetaRow(float[] w, float[] zetab, float[] cor, int i0, int p, int n, float a, float b) {
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = i0 + j;
            FloatVector t = ld(zetab, p + i).add(ld(w, i));
            t.mul(b).intoArray(cor, p + i);
            t.mul(a).intoArray(zetab, p + i);
        }
        for (; j < n; j++) {
            int i = i0 + j;
            float t = zetab[p + i] + w[i];
            cor[p + i] = b * t;
            zetab[p + i] = a * t;
        }
    }

    /** Backward zeta recursion of the x axis over cells x in [xa, xe) of a row (profiles per cell). */
    static void zetaRowX(float[] w, float[] zetab, float[] cor, float[] prof, int row, int p, int xa, int xe, int pax,
                         int pbx) {
        int vl = S.length();
        int x = xa;
        for (; x + vl <= xe; x += vl) {
            int i = row + x;
            FloatVector t = ld(zetab, p + i).add(ld(w, i));
            ld(prof, pbx + x).mul(t).intoArray(cor, p + i);
            ld(prof, pax + x).mul(t).intoArray(zetab, p + i);
        }
        for (; x < xe; x++) {
            int i = row + x;
            float t = zetab[p + i] + w[i];
            cor[p + i] = prof[pbx + x] * t;
            zetab[p + i] = prof[pax + x] * t;
        }
    }

    /**
     * Backward psi recursion of an axis with stride st over n cells from i0, the cells' coordinate c on that axis being
     * the same for the whole row (so are the band tests of its neighbours c±k): {@code t = psib + Σ_k d_k(lo − hi);
     * pb = b·t; psib = a·t}, auxiliaries at index p + i, weights at {@code coef[dc + k − 1]}.
     */
    static void psiRowStrided(float[] w, float[] cor, float[] psib, float[] pb, float[] coef, int dc, int i0, int p,
                              int n, int st, int h, int c, int nc, int bl, int bh, float a, float b) {
        int vl = S.length();
        FloatVector zero = FloatVector.zero(S);
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = i0 + j;
            FloatVector t = ld(psib, p + i);
            for (int k = 1; k <= h; k++) {
                int cm = c - k;
                int cp = c + k;
                int o = k * st;
                FloatVector lo = cm >= 0 && (cm < bl || cm >= bh) ? ld(w, i - o).add(ld(cor, p + i - o)) : zero;
                FloatVector hi = cp < nc && (cp < bl || cp >= bh) ? ld(w, i + o).add(ld(cor, p + i + o)) : zero;
                t = t.add(lo.sub(hi).mul(coef[dc + k - 1]));
            }
            t.mul(b).intoArray(pb, p + i);
            t.mul(a).intoArray(psib, p + i);
        }
        for (; j < n; j++) {
            int i = i0 + j;
            float t = psib[p + i];
            for (int k = 1; k <= h; k++) {
                int cm = c - k;
                int cp = c + k;
                int o = k * st;
                float lo = cm >= 0 && (cm < bl || cm >= bh) ? w[i - o] + cor[p + i - o] : 0.0f;
                float hi = cp < nc && (cp < bl || cp >= bh) ? w[i + o] + cor[p + i + o] : 0.0f;
                t += coef[dc + k - 1] * (lo - hi);
            }
            pb[p + i] = b * t;
            psib[p + i] = a * t;
        }
    }

    /**
     * Backward psi recursion of the x axis over cells x in [xa, xe) of a row, vectorised: the neighbour terms
     * {@code w + cor} of the cells [xa − h, xe + h) go first into {@code s}, as +0.0f where the portable kernel's band
     * test takes 0.0f (outside the grid or outside the x bands), so that {@code lo} and {@code hi} are plain loads of
     * the very values the scalar code forms. A segment at least a vector long ends with a vector that overlaps the one
     * before it: that last vector is computed first, from the old psib, and stored last (each cell gets the value of
     * one update); shorter segments run scalar. {@code s} holds at least {@code xe − xa + 2h} floats.
     */
    static void psiRowX(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int dc, int row,
                        int p, int xa, int xe, int h, int nx, int xbl, int xbh, int pax, int pbx, float[] s) {
        int vl = S.length();
        int m = xe - xa;
        if (m < vl) {
            psiRowXScalar(w, cor, psib, pb, prof, coef, dc, row, p, xa, xe, h, nx, xbl, xbh, pax, pbx);
            return;
        }
        // s[q] = w + cor at x = xa − h + q (a pure function of the inputs: the last vector may overlap)
        int n = m + 2 * h;
        int i0 = row + xa - h;
        for (int q = 0; q < n; q += vl) {
            int qq = Math.min(q, n - vl);
            ld(w, i0 + qq).add(ld(cor, p + i0 + qq)).intoArray(s, qq);
        }
        // +0.0f where x < 0, x ≥ nx or xbl ≤ x < xbh
        zeroRange(s, xa - h, xa - h, Math.min(0, xe + h));
        zeroRange(s, xa - h, Math.max(xbl, xa - h), Math.min(xbh, xe + h));
        zeroRange(s, xa - h, Math.max(nx, xa - h), xe + h);
        int xl = xe - vl;
        FloatVector tl = psiVecX(psib, s, coef, dc, row + p, xl, xl - xa + h, h);
        for (int x = xa; x < xl; x += vl) {
            FloatVector t = psiVecX(psib, s, coef, dc, row + p, x, x - xa + h, h);
            int j = p + row + x;
            ld(prof, pbx + x).mul(t).intoArray(pb, j);
            ld(prof, pax + x).mul(t).intoArray(psib, j);
        }
        int j = p + row + xl;
        ld(prof, pbx + xl).mul(tl).intoArray(pb, j);
        ld(prof, pax + xl).mul(tl).intoArray(psib, j);
    }

    /** Sets s[x − base] = +0.0f for x in [a, b) (nothing when a ≥ b). */
    private static void zeroRange(float[] s, int base, int a, int b) {
        for (int x = a; x < b; x++) {
            s[x - base] = 0.0f;
        }
    }

    /** {@code t = psib + Σ_k d_k·(lo − hi)} for the vector of cells from x, lo/hi read from s at q ∓ k. */
    private static FloatVector psiVecX(float[] psib, float[] s, float[] coef, int dc, int rowp, int x, int q, int h) {
        FloatVector t = ld(psib, rowp + x);
        for (int k = 1; k <= h; k++) {
            t = t.add(ld(s, q - k).sub(ld(s, q + k)).mul(coef[dc + k - 1]));
        }
        return t;
    }

    /** Backward psi recursion of the x axis over cells x in [xa, xe) of a row, scalar (band tests per cell). */
    static void psiRowXScalar(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int dc,
                              int row, int p, int xa, int xe, int h, int nx, int xbl, int xbh, int pax, int pbx) {
        for (int x = xa; x < xe; x++) {
            int i = row + x;
            int j = p + i;
            float t = psib[j];
            for (int k = 1; k <= h; k++) {
                int xm = x - k;
                int xp = x + k;
                float lo = (xm >= 0 && (xm < xbl || xm >= xbh)) ? w[i - k] + cor[j - k] : 0.0f;
                float hi = (xp < nx && (xp < xbl || xp >= xbh)) ? w[i + k] + cor[j + k] : 0.0f;
                t += coef[dc + k - 1] * (lo - hi);
            }
            pb[j] = prof[pbx + x] * t;
            psib[j] = prof[pax + x] * t;
        }
    }

    /**
     * Same as {@link AcousticAdjointKernels3D#pmlPsi}: z and y parts vectorised per row, the x part over its band
     * segments.
     */
    public static void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int y0, int y1, int x0, int x1) {
        pmlPsi(w, cor, psib, pb, prof, coef, geo, z0, z1, y0, y1, x0, x1, new float[scratchSize(geo)]);
    }

    /**
     * Same as {@link AcousticAdjointKernels3D#pmlPsi}, given {@code scratch} of at least {@link #scratchSize} floats
     * (one per thread).
     */
    public static void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int y0, int y1, int x0, int x1, float[] scratch) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int ax = Layout.aux(2);
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int pay = 2 * nz;
        int pby = pay + ny;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + nx;
        int ahead = AcousticVectorKernels3D.TOUCH_AHEAD;
        int la = x0;
        int le = Math.min(x1, xbl);
        int ha = Math.max(x0, xbh);
        float acc = 0f;
        for (int z = z0; z < z1; z++) {
            boolean zb = z < zbl || z >= zbh;
            for (int y = y0; y < y1; y++) {
                int row = off + z * sz + y * sy;
                if (ahead > 0 && !zb && y >= ybl && y < ybh) {
                    // rows of the x slab: their short strided x-slot segments, which no hardware stream fetches,
                    // are touched a few rows ahead
                    int r = CpuKernels.rowAhead(off, sz, sy, z, y, ahead, y0, y1, z1);
                    if (r >= 0) {
                        int p = CpuKernels.rowAhead(geo[ax], geo[ax + 2], geo[ax + 3], z, y, ahead, y0, y1, z1) - r;
                        acc += touchX(w, cor, psib, pb, r, p, la, le, h)
                                + touchX(w, cor, psib, pb, r, p + geo[ax + 1] - geo[ax], ha, x1, h);
                    }
                }
                if (zb) {
                    psiRowStrided(w, cor, psib, pb, coef, d1, row + x0, Layout.auxShift(geo, 0, z, y, 0), x1 - x0, sz,
                            h, z, nz, zbl, zbh, prof[z], prof[nz + z]);
                }
                if (y < ybl || y >= ybh) {
                    psiRowStrided(w, cor, psib, pb, coef, d1 + h, row + x0, Layout.auxShift(geo, 1, z, y, 0), x1 - x0,
                            sy, h, y, ny, ybl, ybh, prof[pay + y], prof[pby + y]);
                }
                for (int seg = 0; seg < 2; seg++) {
                    int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                    int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                    psiRowX(w, cor, psib, pb, prof, coef, d1 + 2 * h, row, Layout.auxShift(geo, 2, z, y, xa), xa, xe, h,
                            nx, xbl, xbh, pax, pbx, scratch);
                }
            }
        }
        AcousticVectorKernels3D.sink = acc;
    }

    /**
     * Sum of one float per 16 of w over [row + xa − h, row + xe + h) and of c, e, f at p + i over the same cells, when
     * xa &lt; xe (only brings their lines in).
     */
    static float touchX(float[] w, float[] c, float[] e, float[] f, int row, int p, int xa, int xe, int h) {
        float s = 0f;
        if (xa < xe) {
            int a = row + xa - h;
            int b = row + xe + h - 1;
            for (int i = a; i < b; i += 16) {
                s += w[i] + c[p + i] + e[p + i] + f[p + i];
            }
            s += w[b] + c[p + b] + e[p + b] + f[p + b];
        }
        return s;
    }
}
