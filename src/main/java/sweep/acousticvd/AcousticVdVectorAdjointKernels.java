package sweep.acousticvd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acousticvd.kernels.AcousticVdAdjointKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the kernels of {@link AcousticVdAdjointKernels} for the Java backend (the four transposed
 * sub-steps, and boundary saving's backward steps and brackets):
 * the same arguments and, per cell, exactly the same sequence of float operations, vectorised across x with the Vector
 * API. The pointwise kernels run each row in the three segments of constant x-band membership, as
 * {@link AcousticVdVectorKernels} does; the gathers run whole rows, but the rows of a free surface's transposed images
 * (z below H), which go to the portable kernel with the tails shorter than a vector. Bit-identical to
 * {@link AcousticVdAdjointKernels}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class AcousticVdVectorAdjointKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private AcousticVdVectorAdjointKernels() {
    }

    /** Same as {@link AcousticVdAdjointKernels#pressurePoint} over the rows [z0, z1), every y and x. */
    static void pressurePoint(float[] pb, float[] psib, float[] kdt, float[] prof, float[] e, float[] gk, int[] geo,
                              int z0, int z1, float[] tape, int tapeOff, float[] extra, int withExtra) {
        int ndim = geo[Layout.NDIM];
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
        int[] cuts = AcousticVdVectorKernels.cuts(prof, px, nx);
        for (int z = z0; z < z1; z++) {
            float az = prof[z];
            float bz = prof[nz + z];
            int shz = az != 0.0f ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            for (int y = 0; y < ny; y++) {
                float ay = prof[py + y];
                float by = prof[py + ny + y];
                int shy = ndim == 3 && ay != 0.0f ? Layout.auxShift(geo, 1, z, y, 0) : 0;
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int part = 0; part < 3; part++) {
                    int shx = part != 1 ? Layout.auxShift(geo, 2, z, y, cuts[part]) : 0;
                    int xa = cuts[part];
                    int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                    for (int x = xa; x < xe; x += vl) {
                        int i = row + x;
                        FloatVector a = FloatVector.fromArray(S, pb, i);
                        FloatVector q = FloatVector.fromArray(S, kdt, i).mul(a).neg();
                        if (withExtra == 1) {
                            q = q.add(FloatVector.fromArray(S, extra, crow + x));
                        }
                        if (part != 1) {
                            FloatVector r = FloatVector.fromArray(S, psib, shx + i).add(q);
                            q.add(FloatVector.fromArray(S, prof, px + nx + x).mul(r)).intoArray(e, i);
                            FloatVector.fromArray(S, prof, px + x).mul(r).intoArray(psib, shx + i);
                        } else {
                            q.intoArray(e, i);
                        }
                        if (ndim == 3) {
                            point(q, ay, by, psib, shy + i, e, len + i);
                        }
                        point(q, az, bz, psib, shz + i, e, lz + i);
                        FloatVector.fromArray(S, gk, i).sub(a.mul(FloatVector.fromArray(S, tape, tapeOff + crow + x)))
                                .intoArray(gk, i);
                    }
                    if (xe < cuts[part + 1]) {
                        AcousticVdAdjointKernels.pressurePoint(pb, psib, kdt, prof, e, gk, geo, z, z + 1, y, y + 1, xe,
                                cuts[part + 1], tape, tapeOff, extra, withExtra);
                    }
                }
            }
        }
    }

    /**
     * The pointwise transpose of one CPML term whose profile is constant over the vector ({@code pa}, {@code pbh}: 0
     * outside the band): e = Q, or in the band P = ψ̄ + Q, e = Q + b·P, ψ̄ ← a·P; ψ̄ at index jb of the CPML
     * auxiliary, e at index j of the field.
     */
    private static void point(FloatVector q, float pa, float pbh, float[] psib, int jb, float[] e, int j) {
        if (pa != 0.0f) {
            FloatVector r = FloatVector.fromArray(S, psib, jb).add(q);
            q.add(r.mul(pbh)).intoArray(e, j);
            r.mul(pa).intoArray(psib, jb);
        } else {
            q.intoArray(e, j);
        }
    }

    /** Same as {@link AcousticVdAdjointKernels#velocityPoint} over the rows [z0, z1), every y and x. */
    static void velocityPoint(float[] vb, float[] psib, float[] bv, float[] prof, float[] d, float[] gb, int[] geo,
                              int z0, int z1, float[] tape, int tapeOff) {
        int ndim = geo[Layout.NDIM];
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
        int vl = S.length();
        int[] cuts = AcousticVdVectorKernels.cuts(prof, px + 2 * nx, nx);
        for (int z = z0; z < z1; z++) {
            int shz = prof[2 * nz + z] != 0.0f ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            for (int y = 0; y < ny; y++) {
                int shy = ndim == 3 && prof[py + 2 * ny + y] != 0.0f ? Layout.auxShift(geo, 1, z, y, 0) : 0;
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int part = 0; part < 3; part++) {
                    int shx = part != 1 ? Layout.auxShift(geo, 2, z, y, cuts[part]) : 0;
                    int xa = cuts[part];
                    int xe = xa + (cuts[part + 1] - xa) / vl * vl;
                    for (int x = xa; x < xe; x += vl) {
                        int i = row + x;
                        for (int a = 0; a < ndim; a++) {
                            int j = a * len + i;
                            FloatVector w = FloatVector.fromArray(S, vb, j);
                            FloatVector q = FloatVector.fromArray(S, bv, j).mul(w).neg();
                            if (a == 0 && part != 1) {
                                FloatVector r = FloatVector.fromArray(S, psib, shx + i).add(q);
                                q.add(FloatVector.fromArray(S, prof, px + 3 * nx + x).mul(r)).intoArray(d, j);
                                FloatVector.fromArray(S, prof, px + 2 * nx + x).mul(r).intoArray(psib, shx + i);
                            } else if (a == 0) {
                                q.intoArray(d, j);
                            } else if (a == ndim - 1) {
                                point(q, prof[2 * nz + z], prof[3 * nz + z], psib, shz + i, d, j);
                            } else {
                                point(q, prof[py + 2 * ny + y], prof[py + 3 * ny + y], psib, shy + i, d, j);
                            }
                            FloatVector t = FloatVector.fromArray(S, tape, tapeOff + (1 + a) * cells + crow + x);
                            FloatVector.fromArray(S, gb, j).sub(w.mul(t)).intoArray(gb, j);
                        }
                    }
                    if (xe < cuts[part + 1]) {
                        AcousticVdAdjointKernels.velocityPoint(vb, psib, bv, prof, d, gb, geo, z, z + 1, y, y + 1, xe,
                                cuts[part + 1], tape, tapeOff);
                    }
                }
            }
        }
    }

    /**
     * s + Σ_k c_k·(f[x + b − (k−1)·st] − f[x + b + k·st]) of order 8 (k = 1..4) added in k order, the weights
     * broadcast by the caller: the transposed staggered difference gathered at x + b, as the general kernels' loops
     * over k add it. Each index is the loop's x plus one loop-invariant sum, the form in which C2 removes the vector
     * bounds checks from the loop (docs/equations.md, fast CPU kernels).
     */
    private static FloatVector gather4(FloatVector s, float[] f, int x, int b, int st, FloatVector w1, FloatVector w2,
                                       FloatVector w3, FloatVector w4) {
        s = s.add(FloatVector.fromArray(S, f, x + b).sub(FloatVector.fromArray(S, f, x + (b + st))).mul(w1));
        s = s.add(FloatVector.fromArray(S, f, x + (b - st)).sub(FloatVector.fromArray(S, f, x + (b + 2 * st))).mul(w2));
        s = s.add(FloatVector.fromArray(S, f, x + (b - 2 * st)).sub(FloatVector.fromArray(S, f, x + (b + 3 * st)))
                .mul(w3));
        return s.add(FloatVector.fromArray(S, f, x + (b - 3 * st)).sub(FloatVector.fromArray(S, f, x + (b + 4 * st)))
                .mul(w4));
    }

    /**
     * {@link #velocityGather} (which == 0) or {@link #pressureGather} (1) in 2-D at order 8, below the free surface's
     * special rows: the differences unrolled, the weights broadcast once per call (as the forward step's 2-D order-8
     * kernels; the same operations in the same order). Rows it does not take go to the portable kernel.
     */
    private static void gather2d8(float[] out, float[] in, float[] coef, int[] geo, int fs, int which, int z0,
                                  int z1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nx = geo[Layout.NX];
        int vl = S.length();
        int xe = nx / vl * vl;
        FloatVector wz1 = FloatVector.broadcast(S, coef[0]);
        FloatVector wz2 = FloatVector.broadcast(S, coef[1]);
        FloatVector wz3 = FloatVector.broadcast(S, coef[2]);
        FloatVector wz4 = FloatVector.broadcast(S, coef[3]);
        FloatVector wx1 = FloatVector.broadcast(S, coef[8]);
        FloatVector wx2 = FloatVector.broadcast(S, coef[9]);
        FloatVector wx3 = FloatVector.broadcast(S, coef[10]);
        FloatVector wx4 = FloatVector.broadcast(S, coef[11]);
        for (int z = z0; z < z1; z++) {
            boolean special = which == 0 ? fs == 1 && z < 4 : fs == 1 && z >= 1 && z < 4;
            if (special) {
                if (which == 0) {
                    AcousticVdAdjointKernels.velocityGather(out, in, coef, geo, fs, z, z + 1, 0, 1, 0, nx);
                } else {
                    AcousticVdAdjointKernels.pressureGather(out, in, coef, geo, fs, z, z + 1, 0, 1, 0, nx);
                }
                continue;
            }
            int row = off + z * sz;
            int rz = len + row;
            int bx = which == 0 ? row : row - 1;
            int bz = which == 0 ? rz : rz - sz;
            if (which == 0) {
                velocityGatherRow8(out, in, row, rz, bx, bz, sz, xe, wx1, wx2, wx3, wx4, wz1, wz2, wz3, wz4);
            } else {
                pressureGatherRow8(out, in, row, bx, bz, sz, xe, wx1, wx2, wx3, wx4, wz1, wz2, wz3, wz4);
            }
            if (xe < nx) {
                if (which == 0) {
                    AcousticVdAdjointKernels.velocityGather(out, in, coef, geo, fs, z, z + 1, 0, 1, xe, nx);
                } else {
                    AcousticVdAdjointKernels.pressureGather(out, in, coef, geo, fs, z, z + 1, 0, 1, xe, nx);
                }
            }
        }
    }

    /**
     * The x loop of {@link #gather2d8}'s velocity gather on one row, [0, xe): out[row + x] gathers D⁺ᵀ along x from
     * in at bx, out[rz + x] along z from bz. One loop method per gather keeps each compilation within the node budget
     * in which C2 still inlines {@link #gather4} (docs/equations.md, fast CPU kernels).
     */
    private static void velocityGatherRow8(float[] out, float[] in, int row, int rz, int bx, int bz, int sz, int xe,
                                           FloatVector wx1, FloatVector wx2, FloatVector wx3, FloatVector wx4,
                                           FloatVector wz1, FloatVector wz2, FloatVector wz3, FloatVector wz4) {
        FloatVector zero = FloatVector.zero(S);
        int vl = S.length();
        for (int x = 0; x < xe; x += vl) {
            FloatVector s = gather4(zero, in, x, bx, 1, wx1, wx2, wx3, wx4);
            FloatVector.fromArray(S, out, x + row).add(s).intoArray(out, x + row);
            s = gather4(zero, in, x, bz, sz, wz1, wz2, wz3, wz4);
            FloatVector.fromArray(S, out, x + rz).add(s).intoArray(out, x + rz);
        }
    }

    /** The x loop of {@link #gather2d8}'s pressure gather on one row, as {@link #velocityGatherRow8}. */
    private static void pressureGatherRow8(float[] out, float[] in, int row, int bx, int bz, int sz, int xe,
                                           FloatVector wx1, FloatVector wx2, FloatVector wx3, FloatVector wx4,
                                           FloatVector wz1, FloatVector wz2, FloatVector wz3, FloatVector wz4) {
        FloatVector zero = FloatVector.zero(S);
        int vl = S.length();
        for (int x = 0; x < xe; x += vl) {
            FloatVector s = gather4(zero, in, x, bx, 1, wx1, wx2, wx3, wx4);
            s = gather4(s, in, x, bz, sz, wz1, wz2, wz3, wz4);
            FloatVector.fromArray(S, out, x + row).add(s).intoArray(out, x + row);
        }
    }

    /** Same as {@link AcousticVdAdjointKernels#velocityGather} over the rows [z0, z1), every y and x. */
    static void velocityGather(float[] vb, float[] e, float[] coef, int[] geo, int fs, int z0, int z1) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        if (ndim == 2 && h == 4) {
            gather2d8(vb, e, coef, geo, fs, 0, z0, z1);
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int lz = (ndim - 1) * len;
        int vl = S.length();
        int xe = nx / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                if (fs == 1 && z < h) {
                    AcousticVdAdjointKernels.velocityGather(vb, e, coef, geo, fs, z, z + 1, y, y + 1, 0, nx);
                    continue;
                }
                int row = off + z * sz + y * sy;
                for (int x = 0; x < xe; x += vl) {
                    int i = row + x;
                    FloatVector s = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        FloatVector a = FloatVector.fromArray(S, e, i - k + 1);
                        FloatVector b = FloatVector.fromArray(S, e, i + k);
                        s = s.add(a.sub(b).mul(coef[2 * h + k - 1]));
                    }
                    FloatVector.fromArray(S, vb, i).add(s).intoArray(vb, i);
                    if (ndim == 3) {
                        int j = len + i;
                        s = FloatVector.zero(S);
                        for (int k = 1; k <= h; k++) {
                            FloatVector a = FloatVector.fromArray(S, e, j - (k - 1) * sy);
                            FloatVector b = FloatVector.fromArray(S, e, j + k * sy);
                            s = s.add(a.sub(b).mul(coef[h + k - 1]));
                        }
                        FloatVector.fromArray(S, vb, j).add(s).intoArray(vb, j);
                    }
                    int j = lz + i;
                    s = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        FloatVector a = FloatVector.fromArray(S, e, j - (k - 1) * sz);
                        FloatVector b = FloatVector.fromArray(S, e, j + k * sz);
                        s = s.add(a.sub(b).mul(coef[k - 1]));
                    }
                    FloatVector.fromArray(S, vb, j).add(s).intoArray(vb, j);
                }
                if (xe < nx) {
                    AcousticVdAdjointKernels.velocityGather(vb, e, coef, geo, fs, z, z + 1, y, y + 1, xe, nx);
                }
            }
        }
    }

    /** Same as {@link AcousticVdAdjointKernels#pressureGather} over the rows [z0, z1), every y and x. */
    static void pressureGather(float[] pb, float[] d, float[] coef, int[] geo, int fs, int z0, int z1) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        if (ndim == 2 && h == 4) {
            gather2d8(pb, d, coef, geo, fs, 1, z0, z1);
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int lz = (ndim - 1) * len;
        int vl = S.length();
        int xe = nx / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                if (fs == 1 && z >= 1 && z < h) {
                    AcousticVdAdjointKernels.pressureGather(pb, d, coef, geo, fs, z, z + 1, y, y + 1, 0, nx);
                    continue;
                }
                int row = off + z * sz + y * sy;
                for (int x = 0; x < xe; x += vl) {
                    int i = row + x;
                    FloatVector s = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        FloatVector a = FloatVector.fromArray(S, d, i - k);
                        FloatVector b = FloatVector.fromArray(S, d, i + k - 1);
                        s = s.add(a.sub(b).mul(coef[2 * h + k - 1]));
                    }
                    if (ndim == 3) {
                        int j = len + i;
                        for (int k = 1; k <= h; k++) {
                            FloatVector a = FloatVector.fromArray(S, d, j - k * sy);
                            FloatVector b = FloatVector.fromArray(S, d, j + (k - 1) * sy);
                            s = s.add(a.sub(b).mul(coef[h + k - 1]));
                        }
                    }
                    int j = lz + i;
                    for (int k = 1; k <= h; k++) {
                        FloatVector a = FloatVector.fromArray(S, d, j - k * sz);
                        FloatVector b = FloatVector.fromArray(S, d, j + (k - 1) * sz);
                        s = s.add(a.sub(b).mul(coef[k - 1]));
                    }
                    FloatVector.fromArray(S, pb, i).add(s).intoArray(pb, i);
                }
                if (xe < nx) {
                    AcousticVdAdjointKernels.pressureGather(pb, d, coef, geo, fs, z, z + 1, y, y + 1, xe, nx);
                }
            }
        }
    }
    /** Same as {@link AcousticVdAdjointKernels#reversePressure} on the box [z0, z1) × [y0, y1) × [x0, x1). */
    static void reversePressure(float[] p, float[] v, float[] kdt, float[] coef, int[] geo, int z0, int z1, int y0,
                                int y1, int x0, int x1) {
        if (geo[Layout.NDIM] == 2 && geo[Layout.H] == 4) {
            reverse2d8(p, v, kdt, coef, geo, 1, z0, z1, x0, x1);
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int vl = S.length();
        int xe = x0 + (x1 - x0) / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                int row = off + z * sz + y * sy;
                for (int x = x0; x < xe; x += vl) {
                    int i = row + x;
                    FloatVector dv = divergence(v, coef, geo, i);
                    FloatVector.fromArray(S, p, i).add(FloatVector.fromArray(S, kdt, i).mul(dv)).intoArray(p, i);
                }
                if (xe < x1) {
                    AcousticVdAdjointKernels.reversePressure(p, v, kdt, coef, geo, z, z + 1, y, y + 1, xe, x1);
                }
            }
        }
    }

    /** Same as {@link AcousticVdAdjointKernels#reverseVelocity} on the box [z0, z1) × [y0, y1) × [x0, x1). */
    static void reverseVelocity(float[] p, float[] v, float[] bv, float[] coef, int[] geo, int z0, int z1, int y0,
                                int y1, int x0, int x1) {
        if (geo[Layout.NDIM] == 2 && geo[Layout.H] == 4) {
            reverse2d8(p, v, bv, coef, geo, 0, z0, z1, x0, x1);
            return;
        }
        int ndim = geo[Layout.NDIM];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int vl = S.length();
        int xe = x0 + (x1 - x0) / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                int row = off + z * sz + y * sy;
                for (int x = x0; x < xe; x += vl) {
                    int i = row + x;
                    for (int a = 0; a < ndim; a++) {
                        int j = a * len + i;
                        FloatVector.fromArray(S, v, j).add(FloatVector.fromArray(S, bv, j).mul(gradient(p, coef, geo,
                                a, i))).intoArray(v, j);
                    }
                }
                if (xe < x1) {
                    AcousticVdAdjointKernels.reverseVelocity(p, v, bv, coef, geo, z, z + 1, y, y + 1, xe, x1);
                }
            }
        }
    }

    /** Same as {@link AcousticVdAdjointKernels#brackets} over the rows [z0, z1), every y and x. */
    static void brackets(float[] p, float[] v, float[] coef, int[] geo, int which, int z0, int z1, float[] tape,
                         int tapeOff) {
        if (geo[Layout.NDIM] == 2 && geo[Layout.H] == 4) {
            brackets2d8(p, v, coef, geo, which, z0, z1, tape, tapeOff);
            return;
        }
        int ndim = geo[Layout.NDIM];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int cells = nz * ny * nx;
        int vl = S.length();
        int xe = nx / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int row = off + z * sz + y * sy;
                int crow = (z * ny + y) * nx;
                for (int x = 0; x < xe; x += vl) {
                    int i = row + x;
                    if (which == 0) {
                        divergence(v, coef, geo, i).intoArray(tape, tapeOff + crow + x);
                    } else {
                        for (int a = 0; a < ndim; a++) {
                            gradient(p, coef, geo, a, i).intoArray(tape, tapeOff + (1 + a) * cells + crow + x);
                        }
                    }
                }
                if (xe < nx) {
                    AcousticVdAdjointKernels.brackets(p, v, coef, geo, which, z, z + 1, y, y + 1, xe, nx, tape,
                            tapeOff);
                }
            }
        }
    }

    /**
     * {@link #reversePressure} (which == 1: p += kdt·Σ_a D⁻_a v_a) or {@link #reverseVelocity} (0: v_a += bv_a·D⁺_a
     * p) in 2-D at order 8 on the box [z0, z1) × [x0, x1), {@code w} kdt or bv: the differences unrolled and the
     * weights broadcast once per call, every index the loop's x plus one invariant sum (the same operations in the
     * same order as the general loops, without their bounds checks in the loop).
     */
    private static void reverse2d8(float[] p, float[] v, float[] w, float[] coef, int[] geo, int which, int z0, int z1,
                                   int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int vl = S.length();
        int xe = x0 + (x1 - x0) / vl * vl;
        FloatVector wz1 = FloatVector.broadcast(S, coef[0]);
        FloatVector wz2 = FloatVector.broadcast(S, coef[1]);
        FloatVector wz3 = FloatVector.broadcast(S, coef[2]);
        FloatVector wz4 = FloatVector.broadcast(S, coef[3]);
        FloatVector wx1 = FloatVector.broadcast(S, coef[8]);
        FloatVector wx2 = FloatVector.broadcast(S, coef[9]);
        FloatVector wx3 = FloatVector.broadcast(S, coef[10]);
        FloatVector wx4 = FloatVector.broadcast(S, coef[11]);
        for (int z = z0; z < z1; z++) {
            int row = off + z * sz;
            int rz = len + row;
            if (which == 1) {
                divergenceRow8(v, p, w, row, row - 1, rz - sz, sz, x0, xe, wx1, wx2, wx3, wx4, wz1, wz2, wz3, wz4);
            } else {
                gradientRow8(p, v, w, row, row, rz, sz, x0, xe, wx1, wx2, wx3, wx4, wz1, wz2, wz3, wz4);
            }
            if (xe < x1) {
                if (which == 1) {
                    AcousticVdAdjointKernels.reversePressure(p, v, w, coef, geo, z, z + 1, 0, 1, xe, x1);
                } else {
                    AcousticVdAdjointKernels.reverseVelocity(p, v, w, coef, geo, z, z + 1, 0, 1, xe, x1);
                }
            }
        }
    }

    /** {@link #brackets} in 2-D at order 8, as {@link #reverse2d8} (the same operations in the same order). */
    private static void brackets2d8(float[] p, float[] v, float[] coef, int[] geo, int which, int z0, int z1,
                                    float[] tape, int tapeOff) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int cells = nz * nx;
        int vl = S.length();
        int xe = nx / vl * vl;
        FloatVector wz1 = FloatVector.broadcast(S, coef[0]);
        FloatVector wz2 = FloatVector.broadcast(S, coef[1]);
        FloatVector wz3 = FloatVector.broadcast(S, coef[2]);
        FloatVector wz4 = FloatVector.broadcast(S, coef[3]);
        FloatVector wx1 = FloatVector.broadcast(S, coef[8]);
        FloatVector wx2 = FloatVector.broadcast(S, coef[9]);
        FloatVector wx3 = FloatVector.broadcast(S, coef[10]);
        FloatVector wx4 = FloatVector.broadcast(S, coef[11]);
        for (int z = z0; z < z1; z++) {
            int row = off + z * sz;
            int t0 = tapeOff + z * nx;
            if (which == 0) {
                divergenceRow8(v, tape, null, t0, row - 1, len + row - sz, sz, 0, xe, wx1, wx2, wx3, wx4, wz1, wz2,
                        wz3, wz4);
            } else {
                gradientRow8(p, tape, null, t0 + cells, row, t0 + 2 * cells, sz, 0, xe, wx1, wx2, wx3, wx4, wz1, wz2,
                        wz3, wz4);
            }
            if (xe < nx) {
                AcousticVdAdjointKernels.brackets(p, v, coef, geo, which, z, z + 1, 0, 1, xe, nx, tape, tapeOff);
            }
        }
    }

    /**
     * The x loop [x0, xe) of one row of the 2-D order-8 divergence of v (D⁻ along x from bx, then along z from bz,
     * summed in that order): with {@code w}, out[o + x] += w[o + x]·div ({@link #reverse2d8}'s pressure); without,
     * out[o + x] = div ({@link #brackets2d8}). One loop method per difference pair keeps each compilation within the
     * node budget in which C2 still inlines {@code dPlus4} (docs/equations.md, fast CPU kernels).
     */
    private static void divergenceRow8(float[] v, float[] out, float[] w, int o, int bx, int bz, int sz, int x0,
                                       int xe, FloatVector wx1, FloatVector wx2, FloatVector wx3, FloatVector wx4,
                                       FloatVector wz1, FloatVector wz2, FloatVector wz3, FloatVector wz4) {
        boolean update = w != null;
        int vl = S.length();
        for (int x = x0; x < xe; x += vl) {
            FloatVector dv = AcousticVdVectorKernels.dPlus4(v, x, bx, 1, wx1, wx2, wx3, wx4)
                    .add(AcousticVdVectorKernels.dPlus4(v, x, bz, sz, wz1, wz2, wz3, wz4));
            if (update) {
                dv = FloatVector.fromArray(S, out, x + o).add(FloatVector.fromArray(S, w, x + o).mul(dv));
            }
            dv.intoArray(out, x + o);
        }
    }

    /**
     * The x loop [x0, xe) of one row of the 2-D order-8 gradient of p at the velocity nodes (D⁺ along x and z from
     * row): with {@code w}, out[ox + x] += w[ox + x]·D⁺ₓp and out[oz + x] += w[oz + x]·D⁺_z p ({@link #reverse2d8}'s
     * velocity); without, the differences themselves into out ({@link #brackets2d8}), as {@link #divergenceRow8}.
     */
    private static void gradientRow8(float[] p, float[] out, float[] w, int ox, int row, int oz, int sz, int x0,
                                     int xe, FloatVector wx1, FloatVector wx2, FloatVector wx3, FloatVector wx4,
                                     FloatVector wz1, FloatVector wz2, FloatVector wz3, FloatVector wz4) {
        boolean update = w != null;
        int vl = S.length();
        for (int x = x0; x < xe; x += vl) {
            FloatVector d = AcousticVdVectorKernels.dPlus4(p, x, row, 1, wx1, wx2, wx3, wx4);
            if (update) {
                d = FloatVector.fromArray(S, out, x + ox).add(FloatVector.fromArray(S, w, x + ox).mul(d));
            }
            d.intoArray(out, x + ox);
            d = AcousticVdVectorKernels.dPlus4(p, x, row, sz, wz1, wz2, wz3, wz4);
            if (update) {
                d = FloatVector.fromArray(S, out, x + oz).add(FloatVector.fromArray(S, w, x + oz).mul(d));
            }
            d.intoArray(out, x + oz);
        }
    }

    /** Σ_a D⁻_a v_a at the nodes i.. (a vector), summed as the forward pressure kernel sums it (x, then y, then z). */
    private static FloatVector divergence(float[] v, float[] coef, int[] geo, int i) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int len = geo[Layout.LEN];
        FloatVector div = AcousticVdVectorKernels.dPlus(v, i - 1, 1, coef, 2 * h, h);
        if (ndim == 3) {
            int j = len + i;
            div = div.add(AcousticVdVectorKernels.dPlus(v, j - sy, sy, coef, h, h));
        }
        int j = (ndim - 1) * len + i;
        return div.add(AcousticVdVectorKernels.dPlus(v, j - sz, sz, coef, 0, h));
    }

    /** D⁺_a p at the velocity nodes of component a of the cells i.. (a vector). */
    private static FloatVector gradient(float[] p, float[] coef, int[] geo, int a, int i) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int stride = a == ndim - 1 ? geo[Layout.SZ] : a == 0 ? 1 : geo[Layout.SY];
        int slot = a == ndim - 1 ? 0 : a == 0 ? 2 : 1;
        return AcousticVdVectorKernels.dPlus(p, i, stride, coef, slot * h, h);
    }
}
