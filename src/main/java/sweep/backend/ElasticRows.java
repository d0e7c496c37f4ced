package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector loops of the CPU elastic kernels ({@link CpuElastic2D}, {@link CpuElastic3D}). They work on a block of
 * row segments: {@code rows} rows (at most {@link #RB}) {@code fs} floats apart, each over the same n ≥ VL cells, with
 * the same band membership, so that every cell of the block has the same CPML memory variables. Every loop performs,
 * per cell, the float operations of the portable kernels in their order.
 *
 * <p>Two shapes. Order 8 (the default) without memory variables, most of a grid: one loop per updated component
 * computes its differences inline and updates it ({@link #velocity2x4}, {@link #velocity3x4}, {@link #normal2x4},
 * {@link #shear4}). Otherwise a pipeline: each difference, with its memory variable where its node lies in a band,
 * into a scratch block ({@link #deriv}, {@link #derivX}), then one loop per updated component reading them back
 * ({@link #velocity}, {@link #normal2}, {@link #normal3}, {@link #shear}); a float stored and read back is the same
 * float.
 *
 * <p>Why this shape (each measured): C2 (JDK 17) stops inlining once a compilation reaches about 18000 nodes, and the
 * Vector API calls it then leaves out box their vectors, several times slower. So every loop is one small method of
 * its own holding only the differences it computes: a loop with two explicitly unrolled differences and their memory
 * variables already passed the budget, and one with a branch between an inline difference and a scratch load passed
 * it or not depending on the branch profile at compile time (the same run was then fast or 2-5× slower). A difference
 * is a loop over the weights ({@link #dN}): at a constant trip count (4) C2 parses one term, unrolls it afterwards and
 * hoists the weights. Every index is affine in the loop variables, so that C2 hoists the range checks; a method that
 * held several loops spilled its indices and kept the checks. Blocks of rows amortise each call's fixed cost, which a
 * 3-D row of a hundred cells does not.
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

    /** Cells of a block at most (rows·n); longer runs per component measured faster on 2-D rows of 1000 cells. */
    static final int BLOCK_CELLS = 65536;

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
            diff4(f, i0, fs, st, coef, c, out, o, rl, n, rows);
        } else if (!band) {
            diffN(f, i0, fs, st, coef, c, h, out, o, rl, n, rows);
        } else if (h == 4) {
            diff4Row(f, i0, fs, st, coef, c, out, o, rl, n, rows, psi, q, qs,
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
            diff4(f, i0, fs, 1, coef, c, out, o, rl, n, rows);
        } else if (!band) {
            diffN(f, i0, fs, 1, coef, c, h, out, o, rl, n, rows);
        } else if (h == 4) {
            diff4Cols(f, i0, fs, coef, c, out, o, rl, n, rows, psi, q, qs, prof,
                    pa, pb, t);
        } else {
            diffNCols(f, i0, fs, coef, c, h, out, o, rl, n, rows, psi, q, qs, prof, pa, pb, t);
        }
    }

    /** h = 4 difference without a memory variable (the last, overlapping vector of a row simply written twice). */
    private static void diff4(float[] f, int i, int fs, int st, float[] coef, int c, float[] out,
                              int o, int os, int n, int rows) {
        int whole = n / VL * VL;
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            for (int x = 0; x < whole; x += VL) {
                dN(f, fi + x, st, coef, c, 4).intoArray(out, oi + x);
            }
        }
        if (whole < n) {
            int last = n - VL;
            for (int r = 0; r < rows; r++) {
                dN(f, i + r * fs + last, st, coef, c, 4).intoArray(out, o + r * os + last);
            }
        }
    }

    /** h = 4 difference with the memory variable of a y or z band row (decay and update scalars per row). */
    private static void diff4Row(float[] f, int i, int fs, int st, float[] coef, int c,
                                 float[] out, int o, int os, int n, int rows, float[] psi, int q, int qs,
                                 float[] prof, int pa, int pb, int ps, float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                float a = prof[pa + r * ps];
                float b = prof[pb + r * ps];
                FloatVector d = dN(f, i + r * fs + last, st, coef, c, 4);
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
                FloatVector d = dN(f, fi + x, st, coef, c, 4);
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
    private static void diff4Cols(float[] f, int i, int fs, float[] coef, int c, float[] out,
                                  int o, int os, int n, int rows, float[] psi, int q, int qs, float[] prof, int pa,
                                  int pb, float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            FloatVector a = ld(prof, pa + last);
            FloatVector b = ld(prof, pb + last);
            for (int r = 0; r < rows; r++) {
                FloatVector d = dN(f, i + r * fs + last, 1, coef, c, 4);
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
                FloatVector d = dN(f, fi + x, 1, coef, c, 4);
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

    // ---- order 8 without memory variables: one loop per updated component, its differences inline ----
    // Each loop holds exactly the differences it computes (no branch that C2 would parse as well): with a branch
    // between an inline difference and a scratch load, whether a loop fits C2's inlining budget depended on the branch
    // profile at compile time, and a loop that did not fit ran several times slower in some runs and not in others.

    /**
     * Order-8 2-D velocity update of a block without memory variables: f[i + r·fs + j] += b[…]·(D0 + D1), Dk the
     * difference of gk at ok + r·fs + j along stk with the weights coef[ck..] (as {@link #dN}); the last, overlapping
     * vector of each row is parked.
     */
    static void velocity2x4(float[] f, float[] b, int i, int fs, int n, int rows, float[] g0, int o0, int st0, int c0,
                            float[] g1, int o1, int st1, int c1, float[] coef, float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            velocity2x4Loop(f, b, i + last, fs, VL, rows, g0, o0 + last, st0, c0, g1, o1 + last, st1, c1, coef, t,
                    tp - i - last, VL - fs);
        }
        velocity2x4Loop(f, b, i, fs, whole, rows, g0, o0, st0, c0, g1, o1, st1, c1, coef, f, 0, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, f, i + r * fs + last, VL);
            }
        }
    }

    /** Loop of {@link #velocity2x4}: results to fo[i + r·fs + j + d + r·ds]. */
    private static void velocity2x4Loop(float[] f, float[] b, int i, int fs, int count, int rows, float[] g0, int o0,
                                        int st0, int c0, float[] g1, int o1, int st1, int c1, float[] coef,
                                        float[] fo, int d, int ds) {
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int a0 = o0 + r * fs;
            int a1 = o1 + r * fs;
            int oi = fi + d + r * ds;
            for (int x = 0; x < count; x += VL) {
                FloatVector sum = dN(g0, a0 + x, st0, coef, c0, 4).add(dN(g1, a1 + x, st1, coef, c1, 4));
                ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(fo, oi + x);
            }
        }
    }

    /** Order-8 3-D velocity update of a block without memory variables: f += b·((D0 + D1) + D2). */
    static void velocity3x4(float[] f, float[] b, int i, int fs, int n, int rows, float[] g0, int o0, int st0, int c0,
                            float[] g1, int o1, int st1, int c1, float[] g2, int o2, int st2, int c2, float[] coef,
                            float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            velocity3x4Loop(f, b, i + last, fs, VL, rows, g0, o0 + last, st0, c0, g1, o1 + last, st1, c1, g2,
                    o2 + last, st2, c2, coef, t, tp - i - last, VL - fs);
        }
        velocity3x4Loop(f, b, i, fs, whole, rows, g0, o0, st0, c0, g1, o1, st1, c1, g2, o2, st2, c2, coef, f, 0, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, f, i + r * fs + last, VL);
            }
        }
    }

    private static void velocity3x4Loop(float[] f, float[] b, int i, int fs, int count, int rows, float[] g0, int o0,
                                        int st0, int c0, float[] g1, int o1, int st1, int c1, float[] g2, int o2,
                                        int st2, int c2, float[] coef, float[] fo, int d, int ds) {
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int a0 = o0 + r * fs;
            int a1 = o1 + r * fs;
            int a2 = o2 + r * fs;
            int oi = fi + d + r * ds;
            for (int x = 0; x < count; x += VL) {
                FloatVector sum = dN(g0, a0 + x, st0, coef, c0, 4).add(dN(g1, a1 + x, st1, coef, c1, 4))
                        .add(dN(g2, a2 + x, st2, coef, c2, 4));
                ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(fo, oi + x);
            }
        }
    }

    /**
     * Order-8 2-D normal stresses of a block without memory variables: exx (D− of vx along x at i) and ezz (D− of vz
     * along sz at len + i), then the update of {@link #normal2}.
     */
    static void normal2x4(float[] v, float[] s, float[] m, int i, int fs, int len, int sz, int n, int rows,
                          float[] coef, int h, float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            normal2x4Loop(v, s, m, i + last, fs, len, sz, VL, rows, coef, h, t, slot(t, 0) - i - last, VL - fs,
                    slot(t, 1) - len - i - last);
        }
        normal2x4Loop(v, s, m, i, fs, len, sz, whole, rows, coef, h, s, 0, 0, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, slot(t, 0) + r * VL, s, i + r * fs + last, VL);
                System.arraycopy(t, slot(t, 1) + r * VL, s, len + i + r * fs + last, VL);
            }
        }
    }

    private static void normal2x4Loop(float[] v, float[] s, float[] m, int i, int fs, int len, int sz, int count,
                                      int rows, float[] coef, int h, float[] so, int d0, int ds, int d1) {
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int k0 = fi + d0 + r * ds;
            int k1 = len + fi + d1 + r * ds;
            for (int x = 0; x < count; x += VL) {
                FloatVector exx = dN(v, fi + x - 1, 1, coef, 2 * h, 4);
                FloatVector ezz = dN(v, len + fi + x - sz, sz, coef, 0, 4);
                FloatVector lam = ld(m, fi + x);
                FloatVector l2m = ld(m, len + fi + x);
                ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(ezz))).intoArray(so, k0 + x);
                ld(s, len + fi + x).add(lam.mul(exx).add(l2m.mul(ezz))).intoArray(so, k1 + x);
            }
        }
    }

    /** Order-8 shear stress of a block without memory variables: s[i + r·fs + j] += m[im + …]·(D0 + D1). */
    static void shear4(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] g0, int o0, int st0,
                       int c0, float[] g1, int o1, int st1, int c1, float[] coef, float[] t) {
        int whole = n / VL * VL;
        int last = n - VL;
        int tp = slot(t, 0);
        if (whole < n) {
            shear4Loop(s, m, i + last, im + last, fs, VL, rows, g0, o0 + last, st0, c0, g1, o1 + last, st1, c1, coef,
                    t, tp - i - last, VL - fs);
        }
        shear4Loop(s, m, i, im, fs, whole, rows, g0, o0, st0, c0, g1, o1, st1, c1, coef, s, 0, 0);
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp + r * VL, s, i + r * fs + last, VL);
            }
        }
    }

    private static void shear4Loop(float[] s, float[] m, int i, int im, int fs, int count, int rows, float[] g0,
                                   int o0, int st0, int c0, float[] g1, int o1, int st1, int c1, float[] coef,
                                   float[] so, int d, int ds) {
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int mi = im + r * fs;
            int a0 = o0 + r * fs;
            int a1 = o1 + r * fs;
            int oi = fi + d + r * ds;
            for (int x = 0; x < count; x += VL) {
                FloatVector sum = dN(g0, a0 + x, st0, coef, c0, 4).add(dN(g1, a1 + x, st1, coef, c1, 4));
                ld(s, fi + x).add(ld(m, mi + x).mul(sum)).intoArray(so, oi + x);
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
