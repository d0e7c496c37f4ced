package sweep.acousticvd;

import jdk.incubator.vector.FloatVector;
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
 * its tail shorter than a vector through the portable kernel. Bit-identical to {@link AcousticVdKernels}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class AcousticVdVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private AcousticVdVectorKernels() {
    }

    /** The cells [lo, hi) of a row whose profile {@code a} (from {@code base}) is 0: outside the x band. */
    private static int[] outsideBand(float[] prof, int base, int nx) {
        int lo = 0;
        while (lo < nx && prof[base + lo] != 0.0f) {
            lo++;
        }
        int hi = nx;
        while (hi > lo && prof[base + hi - 1] != 0.0f) {
            hi--;
        }
        return new int[] {lo, hi};
    }

    /**
     * Σ_k c_k·(f[i + k·st] − f[i − (k−1)·st]) summed from 0 in k order, the weights c_k = coef[c + k − 1] (h of
     * them): the staggered D⁺ at i, or the D⁻ at i + st.
     */
    private static FloatVector dPlus(float[] f, int i, int st, float[] coef, int c, int h) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            d = d.add(FloatVector.fromArray(S, f, i + k * st).sub(FloatVector.fromArray(S, f, i - (k - 1) * st))
                    .mul(coef[c + k - 1]));
        }
        return d;
    }

    /**
     * {@link #dPlus} of order 8 (h = 4) unrolled, with the weights broadcast once by the caller (the same operations
     * in the same order: a product by a broadcast weight is the product by the weight).
     */
    private static FloatVector dPlus4(float[] f, int i, int st, FloatVector w1, FloatVector w2, FloatVector w3,
                                      FloatVector w4) {
        FloatVector d = FloatVector.zero(S);
        d = d.add(FloatVector.fromArray(S, f, i + st).sub(FloatVector.fromArray(S, f, i)).mul(w1));
        d = d.add(FloatVector.fromArray(S, f, i + 2 * st).sub(FloatVector.fromArray(S, f, i - st)).mul(w2));
        d = d.add(FloatVector.fromArray(S, f, i + 3 * st).sub(FloatVector.fromArray(S, f, i - 2 * st)).mul(w3));
        return d.add(FloatVector.fromArray(S, f, i + 4 * st).sub(FloatVector.fromArray(S, f, i - 3 * st)).mul(w4));
    }

    /** coef[i] broadcast where {@code use} (the order-8 weights), else zero (unused). */
    private static FloatVector weight(float[] coef, int i, boolean use) {
        return use ? FloatVector.broadcast(S, coef[i]) : FloatVector.zero(S);
    }

    /** Same as {@link AcousticVdKernels#velocity} over the rows [z0, z1), every y and x. */
    static void velocity(float[] p, float[] v, float[] bv, float[] psi, float[] prof, float[] coef, int[] geo, int z0,
                         int z1, float[] tape, int tapeOff, int taping) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
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
        int[] seg = outsideBand(prof, px + 2 * nx, nx);
        int[] cuts = {0, seg[0], seg[1], nx};
        boolean h4 = h == 4;
        FloatVector wz1 = weight(coef, 0, h4);
        FloatVector wz2 = weight(coef, 1, h4);
        FloatVector wz3 = weight(coef, 2, h4);
        FloatVector wz4 = weight(coef, 3, h4);
        FloatVector wy1 = weight(coef, h, h4);
        FloatVector wy2 = weight(coef, h + 1, h4);
        FloatVector wy3 = weight(coef, h + 2, h4);
        FloatVector wy4 = weight(coef, h + 3, h4);
        FloatVector wx1 = weight(coef, 2 * h, h4);
        FloatVector wx2 = weight(coef, 2 * h + 1, h4);
        FloatVector wx3 = weight(coef, 2 * h + 2, h4);
        FloatVector wx4 = weight(coef, 2 * h + 3, h4);
        for (int z = z0; z < z1; z++) {
            float az = prof[2 * nz + z];
            float bz = prof[3 * nz + z];
            boolean inZ = az != 0.0f;
            for (int y = 0; y < ny; y++) {
                float ay = prof[py + 2 * ny + y];
                float by = prof[py + 3 * ny + y];
                boolean inY = ay != 0.0f;
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int part = 0; part < 3; part++) {
                    boolean inX = part != 1;
                    int xa = cuts[part];
                    int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                    for (int x = xa; x < xe; x += vl) {
                        int i = row + x;
                        FloatVector d = h4 ? dPlus4(p, i, 1, wx1, wx2, wx3, wx4) : dPlus(p, i, 1, coef, 2 * h, h);
                        if (inX) {
                            FloatVector q = FloatVector.fromArray(S, psi, i).mul(FloatVector.fromArray(S, prof,
                                    px + 2 * nx + x)).add(d.mul(FloatVector.fromArray(S, prof, px + 3 * nx + x)));
                            q.intoArray(psi, i);
                            d = d.add(q);
                        }
                        FloatVector.fromArray(S, v, i).sub(FloatVector.fromArray(S, bv, i).mul(d)).intoArray(v, i);
                        if (taping == 1) {
                            d.intoArray(tape, tapeOff + cells + crow + x);
                        }
                        if (ndim == 3) {
                            int j = len + i;
                            d = h4 ? dPlus4(p, i, sy, wy1, wy2, wy3, wy4) : dPlus(p, i, sy, coef, h, h);
                            if (inY) {
                                FloatVector q = FloatVector.fromArray(S, psi, j).mul(ay).add(d.mul(by));
                                q.intoArray(psi, j);
                                d = d.add(q);
                            }
                            FloatVector.fromArray(S, v, j).sub(FloatVector.fromArray(S, bv, j).mul(d)).intoArray(v,
                                    j);
                            if (taping == 1) {
                                d.intoArray(tape, tapeOff + 2 * cells + crow + x);
                            }
                        }
                        int j = lz + i;
                        d = h4 ? dPlus4(p, i, sz, wz1, wz2, wz3, wz4) : dPlus(p, i, sz, coef, 0, h);
                        if (inZ) {
                            FloatVector q = FloatVector.fromArray(S, psi, j).mul(az).add(d.mul(bz));
                            q.intoArray(psi, j);
                            d = d.add(q);
                        }
                        FloatVector.fromArray(S, v, j).sub(FloatVector.fromArray(S, bv, j).mul(d)).intoArray(v, j);
                        if (taping == 1) {
                            d.intoArray(tape, tapeOff + ndim * cells + crow + x);
                        }
                    }
                    if (xe < cuts[part + 1]) {
                        AcousticVdKernels.velocity(p, v, bv, psi, prof, coef, geo, z, z + 1, y, y + 1, xe,
                                cuts[part + 1], tape, tapeOff, taping);
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
        int[] seg = outsideBand(prof, px, nx);
        int[] cuts = {0, seg[0], seg[1], nx};
        boolean h4 = h == 4;
        FloatVector wz1 = weight(coef, 0, h4);
        FloatVector wz2 = weight(coef, 1, h4);
        FloatVector wz3 = weight(coef, 2, h4);
        FloatVector wz4 = weight(coef, 3, h4);
        FloatVector wy1 = weight(coef, h, h4);
        FloatVector wy2 = weight(coef, h + 1, h4);
        FloatVector wy3 = weight(coef, h + 2, h4);
        FloatVector wy4 = weight(coef, h + 3, h4);
        FloatVector wx1 = weight(coef, 2 * h, h4);
        FloatVector wx2 = weight(coef, 2 * h + 1, h4);
        FloatVector wx3 = weight(coef, 2 * h + 2, h4);
        FloatVector wx4 = weight(coef, 2 * h + 3, h4);
        for (int z = z0; z < z1; z++) {
            float az = prof[z];
            float bz = prof[nz + z];
            boolean inZ = az != 0.0f;
            for (int y = 0; y < ny; y++) {
                float ay = prof[py + y];
                float by = prof[py + ny + y];
                boolean inY = ay != 0.0f;
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int part = 0; part < 3; part++) {
                    boolean inX = part != 1;
                    int xa = cuts[part];
                    int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                    for (int x = xa; x < xe; x += vl) {
                        int i = row + x;
                        FloatVector div = h4 ? dPlus4(v, i - 1, 1, wx1, wx2, wx3, wx4)
                                : dPlus(v, i - 1, 1, coef, 2 * h, h);
                        if (inX) {
                            FloatVector q = FloatVector.fromArray(S, psi, i).mul(FloatVector.fromArray(S, prof,
                                    px + x)).add(div.mul(FloatVector.fromArray(S, prof, px + nx + x)));
                            q.intoArray(psi, i);
                            div = div.add(q);
                        }
                        if (ndim == 3) {
                            int j = len + i;
                            FloatVector d = h4 ? dPlus4(v, j - sy, sy, wy1, wy2, wy3, wy4)
                                    : dPlus(v, j - sy, sy, coef, h, h);
                            if (inY) {
                                FloatVector q = FloatVector.fromArray(S, psi, j).mul(ay).add(d.mul(by));
                                q.intoArray(psi, j);
                                d = d.add(q);
                            }
                            div = div.add(d);
                        }
                        int j = lz + i;
                        FloatVector d = h4 ? dPlus4(v, j - sz, sz, wz1, wz2, wz3, wz4)
                                : dPlus(v, j - sz, sz, coef, 0, h);
                        if (inZ) {
                            FloatVector q = FloatVector.fromArray(S, psi, j).mul(az).add(d.mul(bz));
                            q.intoArray(psi, j);
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
                        AcousticVdKernels.pressure(p, v, kdt, psi, prof, coef, geo, z, z + 1, y, y + 1, xe,
                                cuts[part + 1], tape, tapeOff, taping);
                    }
                }
            }
        }
    }
}
