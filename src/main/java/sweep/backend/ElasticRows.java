package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector loops of the CPU elastic kernels ({@link CpuElastic2D}, {@link CpuElastic3D}). They work on a block of
 * row segments: {@code rows} rows (at most {@link #RB}) {@code fs} floats apart, each over the same n ≥ VL cells, with
 * the same band membership, so that every cell of the block has the same CPML memory variables. A sub-step over a
 * block is a pipeline of small loops: each spatial derivative (with its memory variable where its node lies in a band)
 * into a scratch block ({@link #deriv}), then one loop per updated component ({@link #velocity}, {@link #normal2},
 * {@link #normal3}, {@link #shear}). Every loop performs, per cell, the float operations of the portable kernels in
 * their order (a float stored into the scratch and read back is the same float).
 *
 * <p>Why this shape (each measured): C2 (JDK 17) stops inlining once a compilation reaches about 18000 nodes, and the
 * Vector API calls it then leaves out box their vectors, several times slower; a loop holding two unrolled
 * derivatives and their memory variables already passes that budget, so each derivative has its own loop. Each
 * operation is one method of its own, never inlined into a caller that holds other loops (C2 then spills indices and
 * weights and keeps range checks in the loop, about 2.5× slower, depending on which method it compiled first); within
 * it every index is affine in the loop variables, so that C2 hoists the range checks. A call costs about as much as a
 * short 3-D row, hence blocks of rows. Order 8 (h = 4), the default, has unrolled loops; other orders a loop over the
 * weights.
 *
 * <p>In-place results of a row's last vector, which overlaps the one before when n is not a multiple of the vector
 * length, are computed first from the old values into parking slots and stored after the whole vectors; overlapped
 * cells receive the same values again.
 *
 * <p>Scratch ({@code t}, at least {@link #scratchSize} floats): {@link #ROWS} blocks of {@link #RB} rows of
 * {@code rl} floats (block k at k·RB·rl, row r at + r·rl), then {@link #SLOTS} parking blocks of RB vectors.
 */
final class ElasticRows {
    private ElasticRows() {
    }

    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    /** Vector length. */
    private static final int VL = S.length();
    /** Rows per block at most. */
    static final int RB = 16;
    /** Scratch blocks (derivatives held at once). */
    static final int ROWS = 3;
    /** Parking blocks (in-place results of one loop). */
    static final int SLOTS = 3;

    /** Cells of a block at most (rows·n), property {@code sweep.cpu.elblock} for experiments. */
    static final int BLOCK_CELLS = Integer.getInteger("sweep.cpu.elblock", 4096);

    /** Rows per block for segments of n cells: as many as fit {@link #BLOCK_CELLS}, 1 to {@link #RB}. */
    static int blockRows(int n) {
        return Math.max(1, Math.min(RB, BLOCK_CELLS / Math.max(1, n)));
    }

    /** Floats of scratch blocks of segments of at most {@code nx} cells need. */
    static int scratchSize(int nx) {
        return ROWS * RB * rowLength(nx) + SLOTS * RB * VL;
    }

    /** Row stride of the scratch for segments of at most {@code nx} cells. */
    static int rowLength(int nx) {
        return nx + VL;
    }

    /** Offset of scratch block k (rows of length rl). */
    static int block(int rl, int k) {
        return k * RB * rl;
    }

    /** Offset of parking block k: the last blocks of the scratch {@code t}, RB vectors each. */
    private static int slot(float[] t, int k) {
        return t.length - (SLOTS - k) * RB * VL;
    }

    /**
     * Derivative block: for rows r < rows and cells j < n, out[o + r·rl + j] = Σ_k c_k·(f[i + k·st] − f[i − (k−1)·st])
     * at i = i0 + r·fs + j (c_k = coef[c + k − 1], summed from 0 in k order: the D+ difference at i, or the D−
     * difference at i + st). Where {@code band}, first the memory variable p = psi[q + r·qs + j] ← a·p + b·d, then
     * d + p; decay and update of row r at prof[pa + r·ps] and prof[pb + r·ps] (ps = 0: one pair for the block, a z band
     * row in 3-D; ps = 1: a pair per row).
     */
    static void deriv(float[] f, int i0, int fs, int st, float[] coef, int c, int h, int n, int rows, float[] out,
                      int o, int rl, boolean band, float[] psi, int q, int qs, float[] prof, int pa, int pb, int ps,
                      float[] t) {
        if (h == 4 && !band) {
            diff4(f, i0, fs, st, coef[c], coef[c + 1], coef[c + 2], coef[c + 3], out, o, rl, n, rows);
        } else if (!band) {
            diffN(f, i0, fs, st, coef, c, h, out, o, rl, n, rows);
        } else if (h == 4) {
            diff4Row(f, i0, fs, st, coef[c], coef[c + 1], coef[c + 2], coef[c + 3], out, o, rl, n, rows, psi, q, qs,
                    prof, pa, pb, ps, t);
        } else {
            diffNRow(f, i0, fs, st, coef, c, h, out, o, rl, n, rows, psi, q, qs, prof, pa, pb, ps, t);
        }
    }

    /**
     * {@link #deriv} along x (stride 1); in an x band segment ({@code band}) the memory variable with the profile
     * vectors, p ← prof[pa + j]·p + prof[pb + j]·d (the portable kernels' order), the same for every row.
     */
    static void derivX(float[] f, int i0, int fs, float[] coef, int c, int h, int n, int rows, float[] out, int o,
                       int rl, boolean band, float[] psi, int q, int qs, float[] prof, int pa, int pb, float[] t) {
        if (h == 4 && !band) {
            diff4(f, i0, fs, 1, coef[c], coef[c + 1], coef[c + 2], coef[c + 3], out, o, rl, n, rows);
        } else if (!band) {
            diffN(f, i0, fs, 1, coef, c, h, out, o, rl, n, rows);
        } else if (h == 4) {
            diff4Cols(f, i0, fs, coef[c], coef[c + 1], coef[c + 2], coef[c + 3], out, o, rl, n, rows, psi, q, qs, prof,
                    pa, pb, t);
        } else {
            diffNCols(f, i0, fs, coef, c, h, out, o, rl, n, rows, psi, q, qs, prof, pa, pb, t);
        }
    }

    /** h = 4 difference without a memory variable (the last, overlapping vector of a row simply written twice). */
    private static void diff4(float[] f, int i, int fs, int st, float w1, float w2, float w3, float w4, float[] out,
                              int o, int os, int n, int rows) {
        FloatVector c1 = FloatVector.broadcast(S, w1);
        FloatVector c2 = FloatVector.broadcast(S, w2);
        FloatVector c3 = FloatVector.broadcast(S, w3);
        FloatVector c4 = FloatVector.broadcast(S, w4);
        int whole = n / VL * VL;
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            for (int x = 0; x < whole; x += VL) {
                d4(f, fi + x, st, c1, c2, c3, c4).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            int last = n - VL;
            for (int r = 0; r < rows; r++) {
                d4(f, i + r * fs + last, st, c1, c2, c3, c4).intoArray(out, o + r * os + last);
            }
        }
    }

    /** h = 4 difference with the memory variable of a y or z band row (decay and update scalars per row). */
    private static void diff4Row(float[] f, int i, int fs, int st, float w1, float w2, float w3, float w4,
                                 float[] out, int o, int os, int n, int rows, float[] psi, int q, int qs,
                                 float[] prof, int pa, int pb, int ps, float[] t) {
        FloatVector c1 = FloatVector.broadcast(S, w1);
        FloatVector c2 = FloatVector.broadcast(S, w2);
        FloatVector c3 = FloatVector.broadcast(S, w3);
        FloatVector c4 = FloatVector.broadcast(S, w4);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                float a = prof[pa + r * ps];
                float b = prof[pb + r * ps];
                FloatVector d = d4(f, i + r * fs + last, st, c1, c2, c3, c4);
                FloatVector p = ld(psi, q + r * qs + last).mul(a).add(d.mul(b));
                p.intoArray(t, tp + r * VL);
                d.add(p).intoArray(out, o + r * os + last);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            int qi = q + r * qs;
            float a = prof[pa + r * ps];
            float b = prof[pb + r * ps];
            for (int x = 0; x < whole; x += VL) {
                FloatVector d = d4(f, fi + x, st, c1, c2, c3, c4);
                FloatVector p = ld(psi, qi + x).mul(a).add(d.mul(b));
                p.intoArray(psi, qi + x);
                d.add(p).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, psi, q + r * qs + last, VL);
            }
        }
    }

    /** h = 4 difference along x with the memory variable of an x band segment (profile vectors at pa, pb). */
    private static void diff4Cols(float[] f, int i, int fs, float w1, float w2, float w3, float w4, float[] out,
                                  int o, int os, int n, int rows, float[] psi, int q, int qs, float[] prof, int pa,
                                  int pb, float[] t) {
        FloatVector c1 = FloatVector.broadcast(S, w1);
        FloatVector c2 = FloatVector.broadcast(S, w2);
        FloatVector c3 = FloatVector.broadcast(S, w3);
        FloatVector c4 = FloatVector.broadcast(S, w4);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            FloatVector a = ld(prof, pa + last);
            FloatVector b = ld(prof, pb + last);
            for (int r = 0; r < rows; r++) {
                FloatVector d = d4(f, i + r * fs + last, 1, c1, c2, c3, c4);
                FloatVector p = a.mul(ld(psi, q + r * qs + last)).add(b.mul(d));
                p.intoArray(t, tp + r * VL);
                d.add(p).intoArray(out, o + r * os + last);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            int qi = q + r * qs;
            for (int x = 0; x < whole; x += VL) {
                FloatVector d = d4(f, fi + x, 1, c1, c2, c3, c4);
                FloatVector p = ld(prof, pa + x).mul(ld(psi, qi + x)).add(ld(prof, pb + x).mul(d));
                p.intoArray(psi, qi + x);
                d.add(p).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, psi, q + r * qs + last, VL);
            }
        }
    }

    /** Any-order {@link #diff4}. */
    private static void diffN(float[] f, int i, int fs, int st, float[] coef, int c, int h, float[] out, int o,
                              int os, int n, int rows) {
        int whole = n / VL * VL;
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            for (int x = 0; x < whole; x += VL) {
                dN(f, fi + x, st, coef, c, h).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            int last = n - VL;
            for (int r = 0; r < rows; r++) {
                dN(f, i + r * fs + last, st, coef, c, h).intoArray(out, o + r * os + last);
            }
        }
    }

    /** Any-order {@link #diff4Row}. */
    private static void diffNRow(float[] f, int i, int fs, int st, float[] coef, int c, int h, float[] out, int o,
                                 int os, int n, int rows, float[] psi, int q, int qs, float[] prof, int pa, int pb,
                                 int ps, float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                float a = prof[pa + r * ps];
                float b = prof[pb + r * ps];
                FloatVector d = dN(f, i + r * fs + last, st, coef, c, h);
                FloatVector p = ld(psi, q + r * qs + last).mul(a).add(d.mul(b));
                p.intoArray(t, tp + r * VL);
                d.add(p).intoArray(out, o + r * os + last);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            int qi = q + r * qs;
            float a = prof[pa + r * ps];
            float b = prof[pb + r * ps];
            for (int x = 0; x < whole; x += VL) {
                FloatVector d = dN(f, fi + x, st, coef, c, h);
                FloatVector p = ld(psi, qi + x).mul(a).add(d.mul(b));
                p.intoArray(psi, qi + x);
                d.add(p).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, psi, q + r * qs + last, VL);
            }
        }
    }

    /** Any-order {@link #diff4Cols}. */
    private static void diffNCols(float[] f, int i, int fs, float[] coef, int c, int h, float[] out, int o, int os,
                                  int n, int rows, float[] psi, int q, int qs, float[] prof, int pa, int pb,
                                  float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            FloatVector a = ld(prof, pa + last);
            FloatVector b = ld(prof, pb + last);
            for (int r = 0; r < rows; r++) {
                FloatVector d = dN(f, i + r * fs + last, 1, coef, c, h);
                FloatVector p = a.mul(ld(psi, q + r * qs + last)).add(b.mul(d));
                p.intoArray(t, tp + r * VL);
                d.add(p).intoArray(out, o + r * os + last);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            int qi = q + r * qs;
            for (int x = 0; x < whole; x += VL) {
                FloatVector d = dN(f, fi + x, 1, coef, c, h);
                FloatVector p = ld(prof, pa + x).mul(ld(psi, qi + x)).add(ld(prof, pb + x).mul(d));
                p.intoArray(psi, qi + x);
                d.add(p).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, psi, q + r * qs + last, VL);
            }
        }
    }

    /** (((0 + c1·(f[i+st] − f[i])) + c2·(f[i+2st] − f[i−st])) + c3·(…)) + c4·(f[i+4st] − f[i−3st]). */
    private static FloatVector d4(float[] f, int i, int st, FloatVector c1, FloatVector c2, FloatVector c3,
                                  FloatVector c4) {
        return FloatVector.zero(S).add(ld(f, i + st).sub(ld(f, i)).mul(c1))
                .add(ld(f, i + 2 * st).sub(ld(f, i - st)).mul(c2))
                .add(ld(f, i + 3 * st).sub(ld(f, i - 2 * st)).mul(c3))
                .add(ld(f, i + 4 * st).sub(ld(f, i - 3 * st)).mul(c4));
    }

    /** Σ_k c_k·(f[i + k·st] − f[i − (k−1)·st]) from 0 in k order, any h. */
    private static FloatVector dN(float[] f, int i, int st, float[] coef, int c, int h) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            d = d.add(ld(f, i + k * st).sub(ld(f, i - (k - 1) * st)).mul(coef[c + k - 1]));
        }
        return d;
    }

    /**
     * Velocity update of a block: f[i + r·fs + j] += b[…]·Σ of the scratch blocks 0, 1 (and 2 when {@code three})
     * summed left to right ((r0 + r1) + r2), as the portable kernels sum their terms.
     */
    static void velocity(float[] f, float[] b, int i, int fs, int n, int rows, boolean three, float[] t, int rl) {
        if (three) {
            velocity3(f, b, i, fs, n, rows, t, rl);
        } else {
            velocity2(f, b, i, fs, n, rows, t, rl);
        }
    }

    /** f[i + r·fs + j] += b[…]·(t[e] + t[e + bs]), e = r·rl + j, bs the scratch block size. */
    private static void velocity2(float[] f, float[] b, int i, int fs, int n, int rows, float[] t, int rl) {
        int bs = block(rl, 1);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs + last;
                int e = r * rl + last;
                ld(f, fi).add(ld(b, fi).mul(ld(t, e).add(ld(t, e + bs)))).intoArray(t, tp + r * VL);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int e = r * rl;
            for (int x = 0; x < whole; x += VL) {
                ld(f, fi + x).add(ld(b, fi + x).mul(ld(t, e + x).add(ld(t, e + bs + x)))).intoArray(f, fi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, f, i + r * fs + last, VL);
            }
        }
    }

    /** f[i + r·fs + j] += b[…]·((t[e] + t[e + bs]) + t[e + 2·bs]). */
    private static void velocity3(float[] f, float[] b, int i, int fs, int n, int rows, float[] t, int rl) {
        int bs = block(rl, 1);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs + last;
                int e = r * rl + last;
                FloatVector sum = ld(t, e).add(ld(t, e + bs)).add(ld(t, e + 2 * bs));
                ld(f, fi).add(ld(b, fi).mul(sum)).intoArray(t, tp + r * VL);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int e = r * rl;
            for (int x = 0; x < whole; x += VL) {
                FloatVector sum = ld(t, e + x).add(ld(t, e + bs + x)).add(ld(t, e + 2 * bs + x));
                ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(f, fi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, f, i + r * fs + last, VL);
            }
        }
    }

    /**
     * 2-D normal stresses of a block from the scratch blocks exx (0) and ezz (1): σxx += (λ+2μ)·exx + λ·ezz,
     * σzz += λ·exx + (λ+2μ)·ezz; λ at m[i], λ+2μ at m[len + i], σxx at s[i], σzz at s[len + i].
     */
    static void normal2(float[] s, float[] m, int i, int fs, int len, int n, int rows, float[] t, int rl) {
        int bs = block(rl, 1);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        int tq = slot(t, 1);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs + last;
                int e = r * rl + last;
                FloatVector exx = ld(t, e);
                FloatVector ezz = ld(t, e + bs);
                FloatVector lam = ld(m, fi);
                FloatVector l2m = ld(m, len + fi);
                ld(s, fi).add(l2m.mul(exx).add(lam.mul(ezz))).intoArray(t, tp + r * VL);
                ld(s, len + fi).add(lam.mul(exx).add(l2m.mul(ezz))).intoArray(t, tq + r * VL);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int e = r * rl;
            for (int x = 0; x < whole; x += VL) {
                FloatVector exx = ld(t, e + x);
                FloatVector ezz = ld(t, e + bs + x);
                FloatVector lam = ld(m, fi + x);
                FloatVector l2m = ld(m, len + fi + x);
                ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(ezz))).intoArray(s, fi + x);
                ld(s, len + fi + x).add(lam.mul(exx).add(l2m.mul(ezz))).intoArray(s, len + fi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, s, i + r * fs + last, VL);
                System.arraycopy(t, tq + r * VL, s, len + i + r * fs + last, VL);
            }
        }
    }

    /**
     * 3-D normal stresses of a block from the scratch blocks exx, eyy, ezz (0, 1, 2): σxx += (λ+2μ)·exx +
     * λ·(eyy + ezz) and cyclically; σxx, σyy, σzz at s[i], s[len + i], s[2·len + i].
     */
    static void normal3(float[] s, float[] m, int i, int fs, int len, int n, int rows, float[] t, int rl) {
        int bs = block(rl, 1);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        int tq = slot(t, 1);
        int tr = slot(t, 2);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs + last;
                int e = r * rl + last;
                FloatVector exx = ld(t, e);
                FloatVector eyy = ld(t, e + bs);
                FloatVector ezz = ld(t, e + 2 * bs);
                FloatVector lam = ld(m, fi);
                FloatVector l2m = ld(m, len + fi);
                ld(s, fi).add(l2m.mul(exx).add(lam.mul(eyy.add(ezz)))).intoArray(t, tp + r * VL);
                ld(s, len + fi).add(l2m.mul(eyy).add(lam.mul(exx.add(ezz)))).intoArray(t, tq + r * VL);
                ld(s, 2 * len + fi).add(l2m.mul(ezz).add(lam.mul(exx.add(eyy)))).intoArray(t, tr + r * VL);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int e = r * rl;
            for (int x = 0; x < whole; x += VL) {
                FloatVector exx = ld(t, e + x);
                FloatVector eyy = ld(t, e + bs + x);
                FloatVector ezz = ld(t, e + 2 * bs + x);
                FloatVector lam = ld(m, fi + x);
                FloatVector l2m = ld(m, len + fi + x);
                ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(eyy.add(ezz)))).intoArray(s, fi + x);
                ld(s, len + fi + x).add(l2m.mul(eyy).add(lam.mul(exx.add(ezz)))).intoArray(s, len + fi + x);
                ld(s, 2 * len + fi + x).add(l2m.mul(ezz).add(lam.mul(exx.add(eyy)))).intoArray(s, 2 * len + fi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, s, i + r * fs + last, VL);
                System.arraycopy(t, tq + r * VL, s, len + i + r * fs + last, VL);
                System.arraycopy(t, tr + r * VL, s, 2 * len + i + r * fs + last, VL);
            }
        }
    }

    /** Shear stress of a block: s[i + r·fs + j] += m[im + r·fs + j]·(r0 + r1), scratch blocks 0 and 1. */
    static void shear(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] t, int rl) {
        int bs = block(rl, 1);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs + last;
                int e = r * rl + last;
                ld(s, fi).add(ld(m, im + r * fs + last).mul(ld(t, e).add(ld(t, e + bs)))).intoArray(t, tp + r * VL);
            }
        }
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int mi = im + r * fs;
            int e = r * rl;
            for (int x = 0; x < whole; x += VL) {
                ld(s, fi + x).add(ld(m, mi + x).mul(ld(t, e + x).add(ld(t, e + bs + x)))).intoArray(s, fi + x);
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, s, i + r * fs + last, VL);
            }
        }
    }

    static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
