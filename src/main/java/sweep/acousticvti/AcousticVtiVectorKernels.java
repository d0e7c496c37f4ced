package sweep.acousticvti;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;

/**
 * CPU-specialised variants of {@link AcousticVtiKernels#update}, {@link AcousticVtiKernels#memory} and the update's
 * two adjoint kernels for the Java backend: the same arguments and, per cell, exactly the same sequence of float
 * operations (no fused multiply-add). Every row runs in whole vectors across x with
 * the Vector API, with the row's z (and y) CPML terms (the same for the whole row): the cells without an x CPML term
 * plainly, the x bands and their near cells with the x term masked lane by lane; the h cells at each end of a row
 * and the tails shorter than a vector run the portable {@link AcousticVtiKernels#updateCell}. Bit-identical to the
 * portable kernel.
 *
 * <p>acoustic-tti's memory stage, the same compact CPML, runs {@link #memory} too.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class AcousticVtiVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private AcousticVtiVectorKernels() {
    }

    /** {@link AcousticVtiKernels#update} over the rows [z0, z1), the same bits. */
    static void update(float[] p, float[] q, float[] pp, float[] qp, float[] psix, float[] zetax, float[] psiy,
                       float[] zetay, float[] psiz, float[] zetaz, float[] ah, float[] an, float[] a0, float[] prof,
                       int[] near, float[] c, int h, int base, int sz, int sy, int nz, int ny, int nx, int three,
                       int z0, int z1, float[] tape, int taping) {
        int ox = 4 * (nz + ny);
        int nearX = nz + ny;
        int lo = 0;
        while (lo < nx && (prof[ox + lo] != 0.0f || near[nearX + lo] != 0)) {
            lo++;
        }
        int hi = lo;
        while (hi < nx && prof[ox + hi] == 0.0f && near[nearX + hi] == 0) {
            hi++;
        }
        // the masked x terms read the x profile at x ± h: their vectors stay within [h, nx - h)
        int lowEdge = Math.min(h, lo);
        int lowEnd = Math.max(lowEdge, Math.min(lo, nx - h));
        int highEdge = hi >= h ? Math.max(hi, nx - h) : hi;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                // the low band [0, lo), the cells without an x CPML term [lo, hi), the high band [hi, nx); in the
                // bands the vectors stay h cells off the ends, where the x term's profile reads end
                portable(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h, base, sz,
                        sy, nz, ny, nx, three, z, y, 0, lowEdge, tape, taping);
                int x = vectors(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h,
                        base, sz, sy, nz, ny, nx, three, z, y, lowEdge, lowEnd, true, tape, taping);
                portable(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h, base, sz,
                        sy, nz, ny, nx, three, z, y, x, lo, tape, taping);
                x = vectors(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h, base,
                        sz, sy, nz, ny, nx, three, z, y, lo, hi, false, tape, taping);
                portable(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h, base, sz,
                        sy, nz, ny, nx, three, z, y, x, hi, tape, taping);
                x = vectors(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h, base,
                        sz, sy, nz, ny, nx, three, z, y, hi, highEdge, true, tape, taping);
                portable(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h, base, sz,
                        sy, nz, ny, nx, three, z, y, x, nx, tape, taping);
            }
        }
    }

    /**
     * The update of the whole vectors of cells from x0 on within [x0, x1) of row (z, y), with the x CPML term of each
     * lane ({@code band}: its memory variables, masked where a lane's cell has none) or without it; returns the first
     * cell it left.
     */
    private static int vectors(float[] p, float[] q, float[] pp, float[] qp, float[] psix, float[] zetax,
                               float[] psiy, float[] zetay, float[] psiz, float[] zetaz, float[] ah, float[] an,
                               float[] a0, float[] prof, int[] near, float[] c, int h, int base, int sz, int sy,
                               int nz, int ny, int nx, int three, int z, int y, int x0, int x1, boolean band,
                               float[] tape, int taping) {
        int cells = nz * ny * nx;
        int o2x = 2 * (h + 1);
        int o1x = 5 * (h + 1);
        int ox = 4 * (nz + ny);
        int row = base + z * sz + y * sy;
        int tr = (z * ny + y) * nx;
        int x = x0;
        for (; x + S.length() <= x1; x += S.length()) {
            int i = row + x;
            FloatVector pc = FloatVector.fromArray(S, p, i);
            FloatVector lh = pc.mul(c[o2x]);
            for (int k = 1; k <= h; k++) {
                lh = lh.add(FloatVector.fromArray(S, p, i + k).add(FloatVector.fromArray(S, p, i - k))
                        .mul(c[o2x + k]));
            }
            if (band) {
                // AcousticVtiKernels.term along x, lane by lane: a skipped term is a lane left out of the mask
                VectorMask<Float> inBand = FloatVector.fromArray(S, prof, ox + x).compare(VectorOperators.NE, 0.0f);
                VectorMask<Float> nearBand = inBand;
                FloatVector d = FloatVector.zero(S);
                for (int k = 1; k <= h; k++) {
                    VectorMask<Float> up = FloatVector.fromArray(S, prof, ox + x + k)
                            .compare(VectorOperators.NE, 0.0f);
                    VectorMask<Float> down = FloatVector.fromArray(S, prof, ox + x - k)
                            .compare(VectorOperators.NE, 0.0f);
                    d = d.add(FloatVector.fromArray(S, psix, i + k).mul(c[o1x + k]), up);
                    d = d.sub(FloatVector.fromArray(S, psix, i - k).mul(c[o1x + k]), down);
                    nearBand = nearBand.or(up).or(down);
                }
                lh = lh.add(d, nearBand);
                FloatVector zt = FloatVector.fromArray(S, zetax, i).mul(FloatVector.fromArray(S, prof, ox + x))
                        .add(lh.mul(FloatVector.fromArray(S, prof, ox + nx + x)));
                zt.intoArray(zetax, i, inBand);
                lh = lh.add(zt, inBand);
            }
            if (three == 1) {
                lh = lh.add(term(p, psiy, zetay, i, sy, y, ny, 4 * nz, nz, 1, prof, near, c, h, pc));
            }
            FloatVector qc = FloatVector.fromArray(S, q, i);
            FloatVector lz = term(q, psiz, zetaz, i, sz, z, nz, 0, 0, 0, prof, near, c, h, qc);
            FloatVector vah = FloatVector.fromArray(S, ah, i);
            FloatVector van = FloatVector.fromArray(S, an, i);
            FloatVector va0 = FloatVector.fromArray(S, a0, i);
            FloatVector two = FloatVector.broadcast(S, 2.0f);
            two.mul(pc).sub(FloatVector.fromArray(S, pp, i)).add(vah.mul(lh)).add(van.mul(lz)).intoArray(pp, i);
            two.mul(qc).sub(FloatVector.fromArray(S, qp, i)).add(van.mul(lh)).add(va0.mul(lz)).intoArray(qp, i);
            if (taping == 1) {
                lh.intoArray(tape, tr + x);
                lz.intoArray(tape, cells + tr + x);
            }
        }
        return Math.max(x, x0);
    }

    /**
     * The CPML second derivative of u along the z or y axis (stride st, the row's position ia of n on it) for a vector
     * of cells of one row, the row's band membership and near flags being the same for all of them:
     * {@code AcousticVtiKernels.term}'s operations in its order; uc is u at the cells.
     */
    private static FloatVector term(float[] u, float[] psi, float[] zeta, int i, int st, int ia, int n, int po,
                                    int no, int s, float[] prof, int[] near, float[] c, int h, FloatVector uc) {
        int o2 = s * (h + 1);
        int o1 = (3 + s) * (h + 1);
        FloatVector w = uc.mul(c[o2]);
        for (int k = 1; k <= h; k++) {
            w = w.add(FloatVector.fromArray(S, u, i + k * st).add(FloatVector.fromArray(S, u, i - k * st))
                    .mul(c[o2 + k]));
        }
        if (near[no + ia] == 1) {
            FloatVector d = FloatVector.zero(S);
            for (int k = 1; k <= h; k++) {
                if (ia + k < n && prof[po + ia + k] != 0.0f) {
                    d = d.add(FloatVector.fromArray(S, psi, i + k * st).mul(c[o1 + k]));
                }
                if (ia - k >= 0 && prof[po + ia - k] != 0.0f) {
                    d = d.sub(FloatVector.fromArray(S, psi, i - k * st).mul(c[o1 + k]));
                }
            }
            w = w.add(d);
        }
        float a = prof[po + ia];
        if (a != 0.0f) {
            FloatVector zt = FloatVector.fromArray(S, zeta, i).mul(a).add(w.mul(prof[po + n + ia]));
            zt.intoArray(zeta, i);
            w = w.add(zt);
        }
        return w;
    }

    /**
     * {@link AcousticVtiKernels#memory} over the rows [z0, z1), the same bits: along x only the band cells of each row
     * (scalar), along z or y only the rows in the band, in whole vectors with the row's profile values.
     */
    public static void memory(float[] u, float[] psi, float[] prof, float[] c, int h, int base, int sz, int sy, int nz,
                       int ny, int nx, int s, int z0, int z1) {
        int o1 = (3 + s) * (h + 1);
        if (s == 2) {
            int po = 4 * (nz + ny);
            for (int z = z0; z < z1; z++) {
                for (int y = 0; y < ny; y++) {
                    int row = base + z * sz + y * sy;
                    for (int x = 0; x < nx; x++) {
                        float a = prof[po + x];
                        if (a == 0.0f) {
                            // the bands lie at the two ends of the axis: skip to the high one
                            int next = x;
                            while (next < nx && prof[po + next] == 0.0f) {
                                next++;
                            }
                            x = next - 1;
                            continue;
                        }
                        int i = row + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += c[o1 + k] * (u[i + k] - u[i - k]);
                        }
                        psi[i] = a * psi[i] + prof[po + nx + x] * d;
                    }
                }
            }
            return;
        }
        int st = s == 0 ? sz : sy;
        int n = s == 0 ? nz : ny;
        int po = s == 0 ? 0 : 4 * nz;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int ia = s == 0 ? z : y;
                float a = prof[po + ia];
                if (a == 0.0f) {
                    continue;
                }
                float b = prof[po + n + ia];
                int row = base + z * sz + y * sy;
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    FloatVector d = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        d = d.add(FloatVector.fromArray(S, u, i + k * st).sub(FloatVector.fromArray(S, u, i - k * st))
                                .mul(c[o1 + k]));
                    }
                    FloatVector.fromArray(S, psi, i).mul(a).add(d.mul(b)).intoArray(psi, i);
                }
                for (; x < nx; x++) {
                    int i = row + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += c[o1 + k] * (u[i + k * st] - u[i - k * st]);
                    }
                    psi[i] = a * psi[i] + b * d;
                }
            }
        }
    }

    /**
     * {@link AcousticVtiKernels#updateAdjointPoint} over the rows [z0, z1), the same bits: every row in whole vectors
     * across x (the x CPML term lane by lane, the z and y terms the row's), its tail shorter than a vector portable.
     */
    static void updateAdjointPoint(float[] pbar, float[] qbar, float[] zetaxBar, float[] zetayBar, float[] zetazBar,
                                   float[] ah, float[] an, float[] a0, float[] prof, float[] wx, float[] wy,
                                   float[] wz, float[] gh, float[] gn, float[] g0, int base, int sz, int sy, int nz,
                                   int ny, int nx, int three, int z0, int z1, float[] tape) {
        int cells = nz * ny * nx;
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int row = base + z * sz + y * sy;
                int tr = (z * ny + y) * nx;
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    FloatVector pb = FloatVector.fromArray(S, pbar, i);
                    FloatVector qb = FloatVector.fromArray(S, qbar, i);
                    FloatVector t1 = FloatVector.fromArray(S, tape, tr + x);
                    FloatVector t2 = FloatVector.fromArray(S, tape, cells + tr + x);
                    FloatVector.fromArray(S, gh, i).add(pb.mul(t1)).intoArray(gh, i);
                    FloatVector.fromArray(S, gn, i).add(pb.mul(t2).add(qb.mul(t1))).intoArray(gn, i);
                    FloatVector.fromArray(S, g0, i).add(qb.mul(t2)).intoArray(g0, i);
                    FloatVector van = FloatVector.fromArray(S, an, i);
                    FloatVector lh = FloatVector.fromArray(S, ah, i).mul(pb).add(van.mul(qb));
                    FloatVector lz = van.mul(pb).add(FloatVector.fromArray(S, a0, i).mul(qb));
                    // AcousticVtiKernels.termAdjoint along x, lane by lane
                    FloatVector ax = FloatVector.fromArray(S, prof, ox + x);
                    VectorMask<Float> inBand = ax.compare(VectorOperators.NE, 0.0f);
                    FloatVector px = FloatVector.fromArray(S, zetaxBar, i).add(lh);
                    ax.mul(px).intoArray(zetaxBar, i, inBand);
                    lh.add(FloatVector.fromArray(S, prof, ox + nx + x).mul(px), inBand).intoArray(wx, i);
                    if (three == 1) {
                        termAdjoint(lh, zetayBar, i, prof[oy + y], prof[oy + ny + y]).intoArray(wy, i);
                    }
                    termAdjoint(lz, zetazBar, i, prof[z], prof[nz + z]).intoArray(wz, i);
                }
                for (; x < nx; x++) {
                    AcousticVtiKernels.updateAdjointPointCell(pbar, qbar, zetaxBar, zetayBar, zetazBar, ah, an, a0,
                            prof, wx, wy, wz, gh, gn, g0, base, sz, sy, nz, ny, nx, three, z, y, x, tape);
                }
            }
        }
    }

    /** {@code AcousticVtiKernels.termAdjoint} for a vector of cells of one row, of decay a and update b. */
    public static FloatVector termAdjoint(FloatVector g, float[] zetaBar, int i, float a, float b) {
        if (a != 0.0f) {
            FloatVector pz = FloatVector.fromArray(S, zetaBar, i).add(g);
            pz.mul(a).intoArray(zetaBar, i);
            return g.add(pz.mul(b));
        }
        return g;
    }

    /**
     * {@link AcousticVtiKernels#updateAdjointGather} over the rows [z0, z1), the same bits: every row in whole vectors
     * across x (ψ̄x updated lane by lane in the x bands), its tail shorter than a vector portable.
     */
    static void updateAdjointGather(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar, float[] psixBar,
                                    float[] psiyBar, float[] psizBar, float[] wx, float[] wy, float[] wz,
                                    float[] prof, float[] c, int h, int base, int sz, int sy, int nz, int ny, int nx,
                                    int three, int z0, int z1) {
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int row = base + z * sz + y * sy;
                boolean bandY = three == 1 && prof[oy + y] != 0.0f;
                boolean bandZ = prof[z] != 0.0f;
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    FloatVector pb = FloatVector.fromArray(S, ppbar, i);
                    FloatVector qb = FloatVector.fromArray(S, qpbar, i);
                    FloatVector gp = pb.mul(2.0f).add(secondTransposed(wx, i, 1, 2, c, h));
                    if (three == 1) {
                        gp = gp.add(secondTransposed(wy, i, sy, 1, c, h));
                    }
                    FloatVector.fromArray(S, pbar, i).add(gp).intoArray(pbar, i);
                    FloatVector.fromArray(S, qbar, i).add(qb.mul(2.0f).add(secondTransposed(wz, i, sz, 0, c, h)))
                            .intoArray(qbar, i);
                    pb.neg().intoArray(ppbar, i);
                    qb.neg().intoArray(qpbar, i);
                    VectorMask<Float> inBand = FloatVector.fromArray(S, prof, ox + x).compare(VectorOperators.NE,
                            0.0f);
                    if (inBand.anyTrue()) {
                        FloatVector.fromArray(S, psixBar, i).add(firstTransposed(wx, i, 1, 2, c, h))
                                .intoArray(psixBar, i, inBand);
                    }
                    if (bandY) {
                        FloatVector.fromArray(S, psiyBar, i).add(firstTransposed(wy, i, sy, 1, c, h))
                                .intoArray(psiyBar, i);
                    }
                    if (bandZ) {
                        FloatVector.fromArray(S, psizBar, i).add(firstTransposed(wz, i, sz, 0, c, h))
                                .intoArray(psizBar, i);
                    }
                }
                for (; x < nx; x++) {
                    AcousticVtiKernels.updateAdjointGatherCell(pbar, qbar, ppbar, qpbar, psixBar, psiyBar, psizBar,
                            wx, wy, wz, prof, c, h, base, sz, sy, nz, ny, nx, three, z, y, x);
                }
            }
        }
    }

    /** {@code AcousticVtiKernels.secondTransposed} for a vector of cells: (D²)ᵀw along stride st, axis slot s. */
    public static FloatVector secondTransposed(float[] w, int i, int st, int s, float[] c, int h) {
        int o2 = s * (h + 1);
        FloatVector r = FloatVector.fromArray(S, w, i).mul(c[o2]);
        for (int k = 1; k <= h; k++) {
            r = r.add(FloatVector.fromArray(S, w, i + k * st).add(FloatVector.fromArray(S, w, i - k * st))
                    .mul(c[o2 + k]));
        }
        return r;
    }

    /** {@code AcousticVtiKernels.firstTransposed} for a vector of cells: Dᵀw along stride st, axis slot s. */
    public static FloatVector firstTransposed(float[] w, int i, int st, int s, float[] c, int h) {
        int o1 = (3 + s) * (h + 1);
        FloatVector r = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            r = r.add(FloatVector.fromArray(S, w, i - k * st).sub(FloatVector.fromArray(S, w, i + k * st))
                    .mul(c[o1 + k]));
        }
        return r;
    }

    /** The portable kernel on cells [x0, x1) of row (z, y). */
    private static void portable(float[] p, float[] q, float[] pp, float[] qp, float[] psix, float[] zetax,
                                 float[] psiy, float[] zetay, float[] psiz, float[] zetaz, float[] ah, float[] an,
                                 float[] a0, float[] prof, int[] near, float[] c, int h, int base, int sz, int sy,
                                 int nz, int ny, int nx, int three, int z, int y, int x0, int x1, float[] tape,
                                 int taping) {
        for (int x = x0; x < x1; x++) {
            AcousticVtiKernels.updateCell(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near,
                    c, h, base, sz, sy, nz, ny, nx, three, z, y, x, tape, taping);
        }
    }
}
