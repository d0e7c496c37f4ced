package sweep.acousticvd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import sweep.acousticvd.kernels.AcousticVdKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the step kernels of {@link AcousticVdKernels} for the Java backend: the same arguments
 * and, per cell, exactly the same sequence of float operations (no fused multiply-add), vectorised across x with the
 * Vector API. Each row (z, y) runs in three segments of constant x-band membership (the low band, the cells outside
 * it, the high band), each in whole vectors with the z and y CPML terms of the row (one profile value per row), then
 * its tail shorter than a vector as one more vector that ends at the segment's end and stores only the lanes not yet
 * done (a blend; a segment shorter than a vector goes to the portable kernel). Bit-identical to
 * {@link AcousticVdKernels}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class AcousticVdVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;
    private static final float[] LANES = new float[S.length()];

    static {
        for (int l = 0; l < LANES.length; l++) {
            LANES[l] = l;
        }
    }

    private AcousticVdVectorKernels() {
    }

    /**
     * The three segments of a row by x-band membership, as {0, lo, hi, nx}: [lo, hi) are the cells whose profile
     * {@code a} (from {@code base}) is 0, outside the x band. Shared with {@link AcousticVdVectorAdjointKernels}.
     */
    static int[] cuts(float[] prof, int base, int nx) {
        int lo = 0;
        while (lo < nx && prof[base + lo] != 0.0f) {
            lo++;
        }
        int hi = nx;
        while (hi > lo && prof[base + hi - 1] != 0.0f) {
            hi--;
        }
        return new int[] {0, lo, hi, nx};
    }

    /**
     * Σ_k c_k·(f[i + k·st] − f[i − (k−1)·st]) summed from 0 in k order, c_k = coef[c + k − 1] (h of them): the
     * staggered D⁺ at i, or the D⁻ at i + st, as the kernels' loops over k compute it.
     */
    static FloatVector dPlus(float[] f, int i, int st, float[] coef, int c, int h) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            d = d.add(FloatVector.fromArray(S, f, i + k * st).sub(FloatVector.fromArray(S, f, i - (k - 1) * st))
                    .mul(coef[c + k - 1]));
        }
        return d;
    }

    /**
     * Σ_k c_k·(f[x + b + k·st] − f[x + b − (k−1)·st]) of order 8 (k = 1..4) summed from 0 in k order, the weights
     * broadcast by the caller (a product by a broadcast weight is the product by the weight): the staggered D⁺ at
     * x + b, or the D⁻ at x + b + st, as the general kernels' loops over k compute it. Each index is the loop's x plus
     * one loop-invariant sum, the form in which C2 removes the vector bounds checks from the loop.
     */
    static FloatVector dPlus4(float[] f, int x, int b, int st, FloatVector w1, FloatVector w2, FloatVector w3,
                              FloatVector w4) {
        FloatVector d = FloatVector.zero(S);
        d = d.add(FloatVector.fromArray(S, f, x + (b + st)).sub(FloatVector.fromArray(S, f, x + b)).mul(w1));
        d = d.add(FloatVector.fromArray(S, f, x + (b + 2 * st)).sub(FloatVector.fromArray(S, f, x + (b - st))).mul(w2));
        d = d.add(FloatVector.fromArray(S, f, x + (b + 3 * st)).sub(FloatVector.fromArray(S, f, x + (b - 2 * st)))
                .mul(w3));
        return d.add(FloatVector.fromArray(S, f, x + (b + 4 * st)).sub(FloatVector.fromArray(S, f, x + (b - 3 * st)))
                .mul(w4));
    }

    /**
     * {@link #velocity} in 2-D at order 8, the differences unrolled and the weights broadcast once per call: 1.4–1.5×
     * the general loop on one thread (2-D 1000², 2026-12-03); the same operations in the same order. The 3-D kernels
     * keep the general loops: a second path in them costs more than it gains (C2's inlining budget).
     */
    private static void velocity2d8(float[] p, float[] v, float[] bv, float[] psi, float[] prof, float[] coef,
                                    int[] geo, int z0, int z1, float[] tape, int tapeOff, int taping) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int cells = nz * nx;
        int px = 4 * (nz + 1);
        int vl = S.length();
        int[] cuts = cuts(prof, px + 2 * nx, nx);
        FloatVector wz1 = FloatVector.broadcast(S, coef[0]);
        FloatVector wz2 = FloatVector.broadcast(S, coef[1]);
        FloatVector wz3 = FloatVector.broadcast(S, coef[2]);
        FloatVector wz4 = FloatVector.broadcast(S, coef[3]);
        FloatVector wx1 = FloatVector.broadcast(S, coef[8]);
        FloatVector wx2 = FloatVector.broadcast(S, coef[9]);
        FloatVector wx3 = FloatVector.broadcast(S, coef[10]);
        FloatVector wx4 = FloatVector.broadcast(S, coef[11]);
        for (int z = z0; z < z1; z++) {
            float az = prof[2 * nz + z];
            float bz = prof[3 * nz + z];
            boolean inZ = az != 0.0f;
            int shz = inZ ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            int row = off + z * sz;
            int crow = z * nx;
            for (int part = 0; part < 3; part++) {
                boolean inX = part != 1;
                int shx = inX ? Layout.auxShift(geo, 2, z, 0, cuts[part]) : 0;
                int xa = cuts[part];
                int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                int vz = len + row;
                int tx = tapeOff + cells + crow;
                int tz = tapeOff + 2 * cells + crow;
                int ax = px + 2 * nx;
                int bx = px + 3 * nx;
                int qx = shx + row;
                int qz = shz + row;
                for (int x = xa; x < xe; x += vl) {
                    FloatVector d = dPlus4(p, x, row, 1, wx1, wx2, wx3, wx4);
                    if (inX) {
                        FloatVector q = FloatVector.fromArray(S, psi, x + qx).mul(FloatVector.fromArray(S, prof,
                                x + ax)).add(d.mul(FloatVector.fromArray(S, prof, x + bx)));
                        q.intoArray(psi, x + qx);
                        d = d.add(q);
                    }
                    FloatVector.fromArray(S, v, x + row).sub(FloatVector.fromArray(S, bv, x + row).mul(d))
                            .intoArray(v, x + row);
                    if (taping == 1) {
                        d.intoArray(tape, x + tx);
                    }
                    d = dPlus4(p, x, row, sz, wz1, wz2, wz3, wz4);
                    if (inZ) {
                        FloatVector q = FloatVector.fromArray(S, psi, x + qz).mul(az).add(d.mul(bz));
                        q.intoArray(psi, x + qz);
                        d = d.add(q);
                    }
                    FloatVector.fromArray(S, v, x + vz).sub(FloatVector.fromArray(S, bv, x + vz).mul(d))
                            .intoArray(v, x + vz);
                    if (taping == 1) {
                        d.intoArray(tape, x + tz);
                    }
                }
                if (xe < cuts[part + 1]) {
                    velocityTail(p, v, bv, psi, prof, coef, geo, z, 0, xa, xe, cuts[part + 1], inX, tape, tapeOff,
                            taping);
                }
            }
        }
    }

    /** {@link #pressure} in 2-D at order 8, as {@link #velocity2d8} (the same operations in the same order). */
    private static void pressure2d8(float[] p, float[] v, float[] kdt, float[] psi, float[] prof, float[] coef,
                                    int[] geo, int z0, int z1, float[] tape, int tapeOff, int taping) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int px = 4 * (nz + 1);
        int vl = S.length();
        int[] cuts = cuts(prof, px, nx);
        FloatVector wz1 = FloatVector.broadcast(S, coef[0]);
        FloatVector wz2 = FloatVector.broadcast(S, coef[1]);
        FloatVector wz3 = FloatVector.broadcast(S, coef[2]);
        FloatVector wz4 = FloatVector.broadcast(S, coef[3]);
        FloatVector wx1 = FloatVector.broadcast(S, coef[8]);
        FloatVector wx2 = FloatVector.broadcast(S, coef[9]);
        FloatVector wx3 = FloatVector.broadcast(S, coef[10]);
        FloatVector wx4 = FloatVector.broadcast(S, coef[11]);
        for (int z = z0; z < z1; z++) {
            float az = prof[z];
            float bz = prof[nz + z];
            boolean inZ = az != 0.0f;
            int shz = inZ ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            int row = off + z * sz;
            int crow = z * nx;
            for (int part = 0; part < 3; part++) {
                boolean inX = part != 1;
                int shx = inX ? Layout.auxShift(geo, 2, z, 0, cuts[part]) : 0;
                int xa = cuts[part];
                int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                int vx = row - 1;
                int vz = len + row - sz;
                int tp = tapeOff + crow;
                int ax = px;
                int bx = px + nx;
                int qx = shx + row;
                int qz = shz + row;
                for (int x = xa; x < xe; x += vl) {
                    FloatVector div = dPlus4(v, x, vx, 1, wx1, wx2, wx3, wx4);
                    if (inX) {
                        FloatVector q = FloatVector.fromArray(S, psi, x + qx).mul(FloatVector.fromArray(S, prof,
                                x + ax)).add(div.mul(FloatVector.fromArray(S, prof, x + bx)));
                        q.intoArray(psi, x + qx);
                        div = div.add(q);
                    }
                    FloatVector d = dPlus4(v, x, vz, sz, wz1, wz2, wz3, wz4);
                    if (inZ) {
                        FloatVector q = FloatVector.fromArray(S, psi, x + qz).mul(az).add(d.mul(bz));
                        q.intoArray(psi, x + qz);
                        d = d.add(q);
                    }
                    div = div.add(d);
                    FloatVector.fromArray(S, p, x + row).sub(FloatVector.fromArray(S, kdt, x + row).mul(div))
                            .intoArray(p, x + row);
                    if (taping == 1) {
                        div.intoArray(tape, x + tp);
                    }
                }
                if (xe < cuts[part + 1]) {
                    pressureTail(p, v, kdt, psi, prof, coef, geo, z, 0, xa, xe, cuts[part + 1], inX, tape, tapeOff,
                            taping);
                }
            }
        }
    }

    /** Same as {@link AcousticVdKernels#velocity} over the rows [z0, z1), every y and x. */
    static void velocity(float[] p, float[] v, float[] bv, float[] psi, float[] prof, float[] coef, int[] geo, int z0,
                         int z1, float[] tape, int tapeOff, int taping) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        if (ndim == 2 && h == 4) {
            velocity2d8(p, v, bv, psi, prof, coef, geo, z0, z1, tape, tapeOff, taping);
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int cells = nz * ny * nx;
        int py = 4 * nz;
        int px = 4 * (nz + ny);
        int lz = (ndim - 1) * len;
        int vl = S.length();
        int[] cuts = cuts(prof, px + 2 * nx, nx);
        for (int z = z0; z < z1; z++) {
            float az = prof[2 * nz + z];
            float bz = prof[3 * nz + z];
            boolean inZ = az != 0.0f;
            int shz = inZ ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            for (int y = 0; y < ny; y++) {
                float ay = prof[py + 2 * ny + y];
                float by = prof[py + 3 * ny + y];
                boolean inY = ay != 0.0f;
                int shy = inY ? Layout.auxShift(geo, 1, z, y, 0) : 0;
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int part = 0; part < 3; part++) {
                    boolean inX = part != 1;
                    int shx = inX ? Layout.auxShift(geo, 2, z, y, cuts[part]) : 0;
                    int xa = cuts[part];
                    int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                    for (int x = xa; x < xe; x += vl) {
                        int i = row + x;
                        FloatVector d = FloatVector.zero(S);
                        for (int k = 1; k <= h; k++) {
                            FloatVector a = FloatVector.fromArray(S, p, i + k);
                            FloatVector b = FloatVector.fromArray(S, p, i - k + 1);
                            d = d.add(a.sub(b).mul(coef[2 * h + k - 1]));
                        }
                        if (inX) {
                            FloatVector q = FloatVector.fromArray(S, psi, shx + i).mul(FloatVector.fromArray(S, prof,
                                    px + 2 * nx + x)).add(d.mul(FloatVector.fromArray(S, prof, px + 3 * nx + x)));
                            q.intoArray(psi, shx + i);
                            d = d.add(q);
                        }
                        FloatVector.fromArray(S, v, i).sub(FloatVector.fromArray(S, bv, i).mul(d)).intoArray(v, i);
                        if (taping == 1) {
                            d.intoArray(tape, tapeOff + cells + crow + x);
                        }
                        if (ndim == 3) {
                            int j = len + i;
                            d = FloatVector.zero(S);
                            for (int k = 1; k <= h; k++) {
                                FloatVector a = FloatVector.fromArray(S, p, i + k * sy);
                                FloatVector b = FloatVector.fromArray(S, p, i - (k - 1) * sy);
                                d = d.add(a.sub(b).mul(coef[h + k - 1]));
                            }
                            if (inY) {
                                FloatVector q = FloatVector.fromArray(S, psi, shy + i).mul(ay).add(d.mul(by));
                                q.intoArray(psi, shy + i);
                                d = d.add(q);
                            }
                            FloatVector.fromArray(S, v, j).sub(FloatVector.fromArray(S, bv, j).mul(d)).intoArray(v,
                                    j);
                            if (taping == 1) {
                                d.intoArray(tape, tapeOff + 2 * cells + crow + x);
                            }
                        }
                        int j = lz + i;
                        d = FloatVector.zero(S);
                        for (int k = 1; k <= h; k++) {
                            FloatVector a = FloatVector.fromArray(S, p, i + k * sz);
                            FloatVector b = FloatVector.fromArray(S, p, i - (k - 1) * sz);
                            d = d.add(a.sub(b).mul(coef[k - 1]));
                        }
                        if (inZ) {
                            FloatVector q = FloatVector.fromArray(S, psi, shz + i).mul(az).add(d.mul(bz));
                            q.intoArray(psi, shz + i);
                            d = d.add(q);
                        }
                        FloatVector.fromArray(S, v, j).sub(FloatVector.fromArray(S, bv, j).mul(d)).intoArray(v, j);
                        if (taping == 1) {
                            d.intoArray(tape, tapeOff + ndim * cells + crow + x);
                        }
                    }
                    if (xe < cuts[part + 1]) {
                        velocityTail(p, v, bv, psi, prof, coef, geo, z, y, xa, xe, cuts[part + 1], inX, tape, tapeOff,
                                taping);
                    }
                }
            }
        }
    }

    /** Same as {@link AcousticVdKernels#pressure} over the rows [z0, z1), every y and x. */
    static void pressure(float[] p, float[] v, float[] kdt, float[] psi, float[] prof, float[] coef, int[] geo, int z0,
                         int z1, float[] tape, int tapeOff, int taping) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        if (ndim == 2 && h == 4) {
            pressure2d8(p, v, kdt, psi, prof, coef, geo, z0, z1, tape, tapeOff, taping);
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int py = 4 * nz;
        int px = 4 * (nz + ny);
        int lz = (ndim - 1) * len;
        int vl = S.length();
        int[] cuts = cuts(prof, px, nx);
        for (int z = z0; z < z1; z++) {
            float az = prof[z];
            float bz = prof[nz + z];
            boolean inZ = az != 0.0f;
            int shz = inZ ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            for (int y = 0; y < ny; y++) {
                float ay = prof[py + y];
                float by = prof[py + ny + y];
                boolean inY = ay != 0.0f;
                int shy = inY ? Layout.auxShift(geo, 1, z, y, 0) : 0;
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int part = 0; part < 3; part++) {
                    boolean inX = part != 1;
                    int shx = inX ? Layout.auxShift(geo, 2, z, y, cuts[part]) : 0;
                    int xa = cuts[part];
                    int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                    for (int x = xa; x < xe; x += vl) {
                        int i = row + x;
                        FloatVector div = FloatVector.zero(S);
                        for (int k = 1; k <= h; k++) {
                            FloatVector a = FloatVector.fromArray(S, v, i + k - 1);
                            FloatVector b = FloatVector.fromArray(S, v, i - k);
                            div = div.add(a.sub(b).mul(coef[2 * h + k - 1]));
                        }
                        if (inX) {
                            FloatVector q = FloatVector.fromArray(S, psi, shx + i).mul(FloatVector.fromArray(S, prof,
                                    px + x)).add(div.mul(FloatVector.fromArray(S, prof, px + nx + x)));
                            q.intoArray(psi, shx + i);
                            div = div.add(q);
                        }
                        if (ndim == 3) {
                            int j = len + i;
                            FloatVector d = FloatVector.zero(S);
                            for (int k = 1; k <= h; k++) {
                                FloatVector a = FloatVector.fromArray(S, v, j + (k - 1) * sy);
                                FloatVector b = FloatVector.fromArray(S, v, j - k * sy);
                                d = d.add(a.sub(b).mul(coef[h + k - 1]));
                            }
                            if (inY) {
                                FloatVector q = FloatVector.fromArray(S, psi, shy + i).mul(ay).add(d.mul(by));
                                q.intoArray(psi, shy + i);
                                d = d.add(q);
                            }
                            div = div.add(d);
                        }
                        int j = lz + i;
                        FloatVector d = FloatVector.zero(S);
                        for (int k = 1; k <= h; k++) {
                            FloatVector a = FloatVector.fromArray(S, v, j + (k - 1) * sz);
                            FloatVector b = FloatVector.fromArray(S, v, j - k * sz);
                            d = d.add(a.sub(b).mul(coef[k - 1]));
                        }
                        if (inZ) {
                            FloatVector q = FloatVector.fromArray(S, psi, shz + i).mul(az).add(d.mul(bz));
                            q.intoArray(psi, shz + i);
                            d = d.add(q);
                        }
                        div = div.add(d);
                        FloatVector.fromArray(S, p, i).sub(FloatVector.fromArray(S, kdt, i).mul(div)).intoArray(p,
                                i);
                        if (taping == 1) {
                            div.intoArray(tape, tapeOff + crow + x);
                        }
                    }
                    if (xe < cuts[part + 1]) {
                        pressureTail(p, v, kdt, psi, prof, coef, geo, z, y, xa, xe, cuts[part + 1], inX, tape,
                                tapeOff, taping);
                    }
                }
            }
        }
    }

    /** The mask of a vector's last {@code n} lanes (0 < n < the vector's length). */
    static VectorMask<Float> lastLanes(int n) {
        return FloatVector.fromArray(S, LANES, 0).compare(VectorOperators.GE, (float) (S.length() - n));
    }

    /** Stores {@code x} at a[i]; with a mask m only its lanes in m, the others keeping {@code old}, a's values there. */
    static void put(FloatVector x, FloatVector old, float[] a, int i, VectorMask<Float> m) {
        (m == null ? x : old.blend(x, m)).intoArray(a, i);
    }

    /** The CPML memory of one difference: ψ ← a·ψ + b·d at psi[j] (the lanes of m), and d + ψ returned. */
    private static FloatVector pml(FloatVector d, float[] psi, int j, FloatVector a, FloatVector b,
                                   VectorMask<Float> m) {
        FloatVector old = FloatVector.fromArray(S, psi, j);
        FloatVector q = old.mul(a).add(d.mul(b));
        put(q, old, psi, j, m);
        return d.add(q);
    }

    /** f[j] ← f[j] − w[j]·d (the lanes of m), and d into the tape at t when taping. */
    private static void update(FloatVector d, float[] f, float[] w, int j, float[] tape, int t, int taping,
                               VectorMask<Float> m) {
        FloatVector old = FloatVector.fromArray(S, f, j);
        put(old.sub(FloatVector.fromArray(S, w, j).mul(d)), old, f, j, m);
        if (taping == 1) {
            put(d, FloatVector.fromArray(S, tape, t), tape, t, m);
        }
    }

    /**
     * The tail [xe, xb) of the segment [xa, xb) of row (z, y) of {@link #velocity}, shorter than a vector: one vector
     * ending at xb that stores only the tail's lanes, or the portable kernel when the segment is shorter than a vector.
     */
    private static void velocityTail(float[] p, float[] v, float[] bv, float[] psi, float[] prof, float[] coef,
                                     int[] geo, int z, int y, int xa, int xe, int xb, boolean inX, float[] tape,
                                     int tapeOff, int taping) {
        int vl = S.length();
        if (xb - xa < vl) {
            AcousticVdKernels.velocity(p, v, bv, psi, prof, coef, geo, z, z + 1, y, y + 1, xe, xb, tape, tapeOff,
                    taping);
            return;
        }
        VectorMask<Float> m = lastLanes(xb - xe);
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int cells = nz * ny * nx;
        int py = 4 * nz;
        int pa = 4 * (nz + ny) + 2 * nx;
        int x = xb - vl;
        int i = geo[Layout.OFF0] + z * geo[Layout.SZ] + y * geo[Layout.SY] + x;
        int t = tapeOff + cells + (z * ny + y) * nx + x;
        FloatVector d = dPlus(p, i, 1, coef, 2 * h, h);
        if (inX) {
            d = pml(d, psi, Layout.auxShift(geo, 2, z, y, x) + i, FloatVector.fromArray(S, prof, pa + x),
                    FloatVector.fromArray(S, prof, pa + nx + x), m);
        }
        update(d, v, bv, i, tape, t, taping, m);
        if (ndim == 3) {
            int j = len + i;
            d = dPlus(p, i, geo[Layout.SY], coef, h, h);
            if (prof[py + 2 * ny + y] != 0.0f) {
                d = pml(d, psi, Layout.auxShift(geo, 1, z, y, x) + i, FloatVector.broadcast(S, prof[py + 2 * ny + y]),
                        FloatVector.broadcast(S, prof[py + 3 * ny + y]), m);
            }
            update(d, v, bv, j, tape, t + cells, taping, m);
        }
        int j = (ndim - 1) * len + i;
        d = dPlus(p, i, geo[Layout.SZ], coef, 0, h);
        if (prof[2 * nz + z] != 0.0f) {
            d = pml(d, psi, Layout.auxShift(geo, 0, z, y, x) + i, FloatVector.broadcast(S, prof[2 * nz + z]),
                    FloatVector.broadcast(S, prof[3 * nz + z]), m);
        }
        update(d, v, bv, j, tape, t + (ndim - 1) * cells, taping, m);
    }

    /** The tail of a segment of {@link #pressure}, as {@link #velocityTail}. */
    private static void pressureTail(float[] p, float[] v, float[] kdt, float[] psi, float[] prof, float[] coef,
                                     int[] geo, int z, int y, int xa, int xe, int xb, boolean inX, float[] tape,
                                     int tapeOff, int taping) {
        int vl = S.length();
        if (xb - xa < vl) {
            AcousticVdKernels.pressure(p, v, kdt, psi, prof, coef, geo, z, z + 1, y, y + 1, xe, xb, tape, tapeOff,
                    taping);
            return;
        }
        VectorMask<Float> m = lastLanes(xb - xe);
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int py = 4 * nz;
        int pa = 4 * (nz + ny);
        int x = xb - vl;
        int i = geo[Layout.OFF0] + z * sz + y * sy + x;
        FloatVector div = dPlus(v, i - 1, 1, coef, 2 * h, h);
        if (inX) {
            div = pml(div, psi, Layout.auxShift(geo, 2, z, y, x) + i, FloatVector.fromArray(S, prof, pa + x),
                    FloatVector.fromArray(S, prof, pa + nx + x), m);
        }
        if (ndim == 3) {
            int j = len + i;
            FloatVector d = dPlus(v, j - sy, sy, coef, h, h);
            if (prof[py + y] != 0.0f) {
                d = pml(d, psi, Layout.auxShift(geo, 1, z, y, x) + i, FloatVector.broadcast(S, prof[py + y]),
                        FloatVector.broadcast(S, prof[py + ny + y]), m);
            }
            div = div.add(d);
        }
        int j = (ndim - 1) * len + i;
        FloatVector d = dPlus(v, j - sz, sz, coef, 0, h);
        if (prof[z] != 0.0f) {
            d = pml(d, psi, Layout.auxShift(geo, 0, z, y, x) + i, FloatVector.broadcast(S, prof[z]),
                    FloatVector.broadcast(S, prof[nz + z]), m);
        }
        update(div.add(d), p, kdt, i, tape, tapeOff + (z * ny + y) * nx + x, taping, m);
    }
}
