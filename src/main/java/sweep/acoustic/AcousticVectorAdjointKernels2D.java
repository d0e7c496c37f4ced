package sweep.acoustic;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustic.kernels.AcousticAdjointKernels2D;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 2-D adjoint kernels of {@link AcousticAdjointKernels2D} (and of the interior branch
 * of {@link AcousticKernels2D#laplacian}) for the Java backend: the same arguments and, per cell, exactly the same
 * sequence of float operations (no fused multiply-add), vectorised across x with the Vector API, with the band tests
 * hoisted per row (z) and per row segment (x). Row tails shorter than a vector, and the cells whose operations depend
 * on x in a way a row cannot hoist, go to the portable kernels or to scalar loops with the portable kernels'
 * operations. Results are bit-identical to {@link AcousticAdjointKernels2D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class AcousticVectorAdjointKernels2D {
    private AcousticVectorAdjointKernels2D() {
    }

    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    /** Same as {@link AcousticAdjointKernels2D#rebuildScale}. */
    public static void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad,
                                    float[] coef, int[] geo, int rev, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            int x = x0;
            if (h == 4) {
                x = x0 + (x1 - x0) / vl * vl;
                rebuildScaleRow8(u, un, v2, qb, w, grad, coef, sz, rev, off + z * sz + x0, off + z * sz + x);
            }
            for (; x + vl <= x1; x += vl) {
                int i = off + z * sz + x;
                FloatVector uc = ld(u, i);
                FloatVector s = uc.mul(c00);
                for (int k = 1; k <= h; k++) {
                    int o = k * sz;
                    FloatVector tz = ld(u, i + o).add(ld(u, i - o)).mul(coef[k]);
                    FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]);
                    s = s.add(tz.add(tx));
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
                AcousticAdjointKernels2D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z, z + 1, x, x1);
            }
        }
    }

    /**
     * The whole vectors [i0, i1) of one row of {@link #rebuildScale} at order 8: the loop over k written out, the
     * weights broadcast once (the same operations in the same order); every index is the cell index i plus or minus one
     * loop invariant and the loads call {@code FloatVector.fromArray} directly, so that C2 takes the bounds checks out
     * of the loop and inlines every call (docs/equations.md, fast CPU kernels).
     */
    private static void rebuildScaleRow8(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad,
                                         float[] coef, int sz, int rev, int i0, int i1) {
        FloatVector w0 = FloatVector.broadcast(S, coef[Layout.c00(4)]);
        FloatVector z1 = FloatVector.broadcast(S, coef[1]);
        FloatVector z2 = FloatVector.broadcast(S, coef[2]);
        FloatVector z3 = FloatVector.broadcast(S, coef[3]);
        FloatVector z4 = FloatVector.broadcast(S, coef[4]);
        FloatVector x1 = FloatVector.broadcast(S, coef[11]);
        FloatVector x2 = FloatVector.broadcast(S, coef[12]);
        FloatVector x3 = FloatVector.broadcast(S, coef[13]);
        FloatVector x4 = FloatVector.broadcast(S, coef[14]);
        FloatVector two = FloatVector.broadcast(S, 2.0f);
        int s2 = 2 * sz;
        int s3 = 3 * sz;
        int s4 = 4 * sz;
        int vl = S.length();
        for (int i = i0; i < i1; i += vl) {
            FloatVector c = FloatVector.fromArray(S, u, i);
            FloatVector s = c.mul(w0);
            s = s.add(FloatVector.fromArray(S, u, i + sz).add(FloatVector.fromArray(S, u, i - sz)).mul(z1)
                    .add(FloatVector.fromArray(S, u, i + 1).add(FloatVector.fromArray(S, u, i - 1)).mul(x1)));
            s = s.add(FloatVector.fromArray(S, u, i + s2).add(FloatVector.fromArray(S, u, i - s2)).mul(z2)
                    .add(FloatVector.fromArray(S, u, i + 2).add(FloatVector.fromArray(S, u, i - 2)).mul(x2)));
            s = s.add(FloatVector.fromArray(S, u, i + s3).add(FloatVector.fromArray(S, u, i - s3)).mul(z3)
                    .add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(x3)));
            s = s.add(FloatVector.fromArray(S, u, i + s4).add(FloatVector.fromArray(S, u, i - s4)).mul(z4)
                    .add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(x4)));
            FloatVector vv = FloatVector.fromArray(S, v2, i);
            if (rev != 0) {
                c.mul(two).add(vv.mul(s)).sub(FloatVector.fromArray(S, un, i)).intoArray(un, i);
            }
            FloatVector q = FloatVector.fromArray(S, qb, i);
            vv.mul(q).intoArray(w, i);
            FloatVector.fromArray(S, grad, i).add(q.mul(s)).intoArray(grad, i);
        }
    }

    /** The whole vectors [i0, i1) of one row of {@link #interior} at order 8, as {@link #rebuildScaleRow8}. */
    private static void interiorRow8(float[] qp, float[] qb, float[] w, float[] coef, int sz, int i0, int i1) {
        FloatVector w0 = FloatVector.broadcast(S, coef[Layout.c00(4)]);
        FloatVector z1 = FloatVector.broadcast(S, coef[1]);
        FloatVector z2 = FloatVector.broadcast(S, coef[2]);
        FloatVector z3 = FloatVector.broadcast(S, coef[3]);
        FloatVector z4 = FloatVector.broadcast(S, coef[4]);
        FloatVector x1 = FloatVector.broadcast(S, coef[11]);
        FloatVector x2 = FloatVector.broadcast(S, coef[12]);
        FloatVector x3 = FloatVector.broadcast(S, coef[13]);
        FloatVector x4 = FloatVector.broadcast(S, coef[14]);
        FloatVector two = FloatVector.broadcast(S, 2.0f);
        int s2 = 2 * sz;
        int s3 = 3 * sz;
        int s4 = 4 * sz;
        int vl = S.length();
        for (int i = i0; i < i1; i += vl) {
            FloatVector s = FloatVector.fromArray(S, w, i).mul(w0);
            s = s.add(FloatVector.fromArray(S, w, i + sz).add(FloatVector.fromArray(S, w, i - sz)).mul(z1)
                    .add(FloatVector.fromArray(S, w, i + 1).add(FloatVector.fromArray(S, w, i - 1)).mul(x1)));
            s = s.add(FloatVector.fromArray(S, w, i + s2).add(FloatVector.fromArray(S, w, i - s2)).mul(z2)
                    .add(FloatVector.fromArray(S, w, i + 2).add(FloatVector.fromArray(S, w, i - 2)).mul(x2)));
            s = s.add(FloatVector.fromArray(S, w, i + s3).add(FloatVector.fromArray(S, w, i - s3)).mul(z3)
                    .add(FloatVector.fromArray(S, w, i + 3).add(FloatVector.fromArray(S, w, i - 3)).mul(x3)));
            s = s.add(FloatVector.fromArray(S, w, i + s4).add(FloatVector.fromArray(S, w, i - s4)).mul(z4)
                    .add(FloatVector.fromArray(S, w, i + 4).add(FloatVector.fromArray(S, w, i - 4)).mul(x4)));
            FloatVector.fromArray(S, qb, i).mul(two).sub(FloatVector.fromArray(S, qp, i)).add(s).intoArray(qp, i);
        }
    }

    /** Same as {@link AcousticAdjointKernels2D#scale}. */
    public static void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                             int z0, int z1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        for (int z = z0; z < z1; z++) {
            AcousticVectorAdjointKernels3D.scaleRow(qb, v2, w, grad, d, off + z * sz + x0, x1 - x0);
        }
    }

    /**
     * Same as {@link AcousticKernels2D#laplacian}: rows and row segments outside every band take the vectorised
     * interior branch, the others the portable kernel.
     */
    public static void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d,
                                 int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        int xa = Math.min(x1, Math.max(x0, xbl));
        int xe = Math.max(xa, Math.min(x1, xbh));
        for (int z = z0; z < z1; z++) {
            if (z < geo[Layout.ZBL] || z >= geo[Layout.ZBH]) {
                AcousticKernels2D.laplacian(u, psi, zeta, coef, geo, d, z, z + 1, x0, x1);
                continue;
            }
            if (x0 < xa) {
                AcousticKernels2D.laplacian(u, psi, zeta, coef, geo, d, z, z + 1, x0, xa);
            }
            int x = xa;
            for (; x + vl <= xe; x += vl) {
                int i = off + z * sz + x;
                FloatVector s = ld(u, i).mul(c00);
                for (int k = 1; k <= h; k++) {
                    int o = k * sz;
                    FloatVector tz = ld(u, i + o).add(ld(u, i - o)).mul(coef[k]);
                    FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]);
                    s = s.add(tz.add(tx));
                }
                s.intoArray(d, i);
            }
            if (x < x1) {
                AcousticKernels2D.laplacian(u, psi, zeta, coef, geo, d, z, z + 1, x, x1);
            }
        }
    }

    /** Same as {@link AcousticAdjointKernels2D#interior}. */
    public static void interior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
                                int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            int x = x0;
            if (h == 4) {
                x = x0 + (x1 - x0) / vl * vl;
                interiorRow8(qp, qb, w, coef, sz, off + z * sz + x0, off + z * sz + x);
            }
            for (; x + vl <= x1; x += vl) {
                int i = off + z * sz + x;
                FloatVector s = ld(w, i).mul(c00);
                for (int k = 1; k <= h; k++) {
                    int o = k * sz;
                    FloatVector tz = ld(w, i + o).add(ld(w, i - o)).mul(coef[k]);
                    FloatVector tx = ld(w, i + k).add(ld(w, i - k)).mul(coef[cx + k]);
                    s = s.add(tz.add(tx));
                }
                ld(qb, i).mul(2.0f).sub(ld(qp, i)).add(s).intoArray(qp, i);
            }
            if (x < x1) {
                AcousticAdjointKernels2D.interior(qp, qb, w, coef, geo, z, z + 1, x, x1);
            }
        }
    }

    /**
     * Same as {@link AcousticAdjointKernels2D#general}, given {@code scratch} of at least
     * {@link AcousticVectorAdjointKernels3D#scratchSize} floats (one per thread): per row the z and x terms into
     * scratch rows ({@link AcousticVectorAdjointKernels3D#generalAxis}: an axis whose band the stencil cannot reach
     * adds zero vectors instead of loading cor and pb, which are +0.0f there), then
     * {@code qp = (2·qb − qp) + (t_z + t_x)}.
     */
    public static void general(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                               int z0, int z1, int x0, int x1, float[] scratch) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int n = x1 - x0;
        int xa = Math.min(x1, Math.max(x0, geo[Layout.XBL] + h));
        int xe = Math.max(xa, Math.min(x1, geo[Layout.XBH] - h));
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            boolean rz = !(z - h >= geo[Layout.ZBL] && z + h < geo[Layout.ZBH]);
            int i0 = off + z * sz + x0;
            int pz = rz ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            int pl = Layout.auxShift(geo, 2, z, 0, x0);
            int ph = Layout.auxShift(geo, 2, z, 0, xe);
            AcousticVectorAdjointKernels3D.generalAxis(w, cor, pb, scratch, 0, i0, n, pz, sz, coef, 0, d1, h, rz);
            AcousticVectorAdjointKernels3D.generalAxis(w, cor, pb, scratch, n, i0, xa - x0, pl, 1, coef, cx, dx, h,
                    true);
            AcousticVectorAdjointKernels3D.generalAxis(w, cor, pb, scratch, n + xa - x0, i0 + xa - x0, xe - xa, 0, 1,
                    coef, cx, dx, h, false);
            AcousticVectorAdjointKernels3D.generalAxis(w, cor, pb, scratch, n + xe - x0, i0 + xe - x0, x1 - xe, ph, 1,
                    coef, cx, dx, h, true);
            int j = 0;
            for (; j + vl <= n; j += vl) {
                int i = i0 + j;
                ld(qb, i).mul(2.0f).sub(ld(qp, i)).add(ld(scratch, j).add(ld(scratch, n + j))).intoArray(qp, i);
            }
            for (; j < n; j++) {
                int i = i0 + j;
                qp[i] = (2.0f * qb[i] - qp[i]) + (scratch[j] + scratch[n + j]);
            }
        }
    }

    /** Same as {@link AcousticAdjointKernels2D#pmlZeta}. */
    public static void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo,
                               int z0, int z1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int pax = 2 * nz + 2 * geo[Layout.NY];
        int pbx = pax + geo[Layout.NX];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        for (int z = z0; z < z1; z++) {
            int row = off + z * sz;
            if (z < geo[Layout.ZBL] || z >= geo[Layout.ZBH]) {
                AcousticVectorAdjointKernels3D.zetaRow(w, zetab, cor, row + x0, Layout.auxShift(geo, 0, z, 0, 0),
                        x1 - x0, prof[z], prof[nz + z]);
            }
            for (int seg = 0; seg < 2; seg++) {
                int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                AcousticVectorAdjointKernels3D.zetaRowX(w, zetab, cor, prof, row, Layout.auxShift(geo, 2, z, 0, xa), xa,
                        xe, pax, pbx);
            }
        }
    }

    /** Same as {@link AcousticAdjointKernels2D#pmlPsi}; allocates its scratch row. */
    public static void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int x0, int x1) {
        pmlPsi(w, cor, psib, pb, prof, coef, geo, z0, z1, x0, x1,
                new float[AcousticVectorAdjointKernels3D.scratchSize(geo)]);
    }

    /**
     * Same as {@link AcousticAdjointKernels2D#pmlPsi}, given {@code scratch} of at least
     * {@link AcousticVectorAdjointKernels3D#scratchSize} floats (one per thread): the z part vectorised per row (its
     * band tests depend on z only), the x part per band segment ({@link AcousticVectorAdjointKernels3D#psiRowX}).
     */
    public static void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int x0, int x1, float[] scratch) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int pax = 2 * nz + 2 * geo[Layout.NY];
        int pbx = pax + nx;
        for (int z = z0; z < z1; z++) {
            int row = off + z * sz;
            if (z < zbl || z >= zbh) {
                AcousticVectorAdjointKernels3D.psiRowStrided(w, cor, psib, pb, coef, d1, row + x0,
                        Layout.auxShift(geo, 0, z, 0, 0), x1 - x0, sz, h, z, nz, zbl, zbh, prof[z], prof[nz + z]);
            }
            for (int seg = 0; seg < 2; seg++) {
                int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                AcousticVectorAdjointKernels3D.psiRowX(w, cor, psib, pb, prof, coef, d1 + 2 * h, row,
                        Layout.auxShift(geo, 2, z, 0, xa), xa, xe, h, nx, xbl, xbh, pax, pbx, scratch);
            }
        }
    }
}
