package sweep.elastic;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.backend.CpuSpecies;

/**
 * The vector loops of the CPU elastic kernels ({@link ElasticVectorKernels2D}, {@link ElasticVectorKernels3D}). They
 * work on a block of row segments: {@code rows} rows (at most {@link #RB}) {@code fs} floats apart, each over the same
 * n ≥ VL cells, with the same band membership, so that every cell of the block has the same CPML memory variables.
 * Every loop performs, per cell, the float operations of the portable kernels in their order.
 *
 * <p>Two shapes. Order 8 (the default): one loop per updated component computes its differences without memory
 * variable inline and updates the component ({@link #velocity2x4}, {@link #velocity3x4}, {@link #normal2x4},
 * {@link #normal3x4}, {@link #shear4}; with one difference that has a memory variable read from the scratch:
 * {@link #velocity3x4s}, {@link #velocity3x4t}, {@link #normal2x4s}, {@link #shear4s}). Otherwise a pipeline: each
 * difference, with its memory variable where its node lies in a band, into a scratch block ({@link #deriv},
 * {@link #derivX}), then one loop per updated component reading them back ({@link #velocity}, {@link #normal2},
 * {@link #normal3}, {@link #shear}). A float stored and read back is the same float; float addition and
 * multiplication are commutative, so a scratch term may swap places with the term beside it.
 *
 * <p>Why this shape: C2 (JDK 17) stops inlining once a compilation reaches about 18000 nodes, and the Vector API calls
 * it then leaves out box their vectors, several times slower (docs/performance.md, C2 inlining budget). Every vector
 * loop is a method of its own, larger than C2 inlines into a hot caller (325 bytes of bytecode), so that two of them
 * never share a compilation, and holding only the differences it computes. The pipeline's differences are loops over
 * the weights ({@link #dN}: at a constant trip count C2 parses one term and unrolls it afterwards); the order-8 main
 * loops unroll theirs by hand with the weights read before the loop (see the note above {@link #park}), those that
 * would pass the budget that way keep some differences as loops ({@link #dk}, {@link #dkx}). Every index is affine in
 * the loop variables, so that C2 hoists the range checks. Blocks of rows amortise each call's fixed cost, which a 3-D
 * row of a hundred cells does not.
 *
 * <p>In-place results of a row's last vector, which overlaps the one before when n is not a multiple of the vector
 * length: the pipeline computes them first from the old values into parking slots and stores them after the whole
 * vectors; the order-8 loops save the overlapped cells' old values, restore them after the whole vectors and run the
 * last vector in place. Either way overlapped cells receive the same values again.
 *
 * <p>Scratch ({@code t}, at least {@link #scratchSize} floats): {@link #ROWS} blocks of {@link #RB} rows of
 * {@code rl} floats (block k at k·RB·rl, row r at + r·rl), then {@link #SLOTS} parking blocks of RB vectors.
 */
final class ElasticVectorRows {
    private ElasticVectorRows() {
    }

    /** The one vector shape of all CPU kernels (two shapes in one JVM make C2 box vectors). */
    static final VectorSpecies<Float> S = CpuSpecies.S;
    /** Vector length. */
    private static final int VL = S.length();
    /** Rows per block at most. */
    static final int RB = 16;
    /** Scratch blocks (derivatives held at once). */
    static final int ROWS = 3;
    /** Parking blocks (in-place results of one loop). */
    static final int SLOTS = 3;
    /** Cells of a block at most (rows·n): a component's loop runs over long runs of cells, not a single row. */
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

    /** The block shape every operation needs: n ≥ VL cells, 1 to RB rows, a scratch with the parking blocks. */
    private static void check(int n, int rows, float[] t) {
        if (n < VL || rows < 1 || rows > RB || t.length < SLOTS * RB * VL) {
            throw new IllegalArgumentException("elastic CPU kernel block of " + rows + " rows of " + n + " cells with a"
                    + " scratch of " + t.length + " floats: needs 1.." + RB + " rows of at least " + VL + " cells and "
                    + SLOTS * RB * VL + " floats");
        }
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
        if (h == 4) {
            diff4Row(f, i0, fs, st, coef, c, out, o, rl, n, rows, band, psi, q, qs, prof, pa, pb, ps, t);
        } else {
            diffNRow(f, i0, fs, st, coef, c, h, out, o, rl, n, rows, band, psi, q, qs, prof, pa, pb, ps, t);
        }
    }

    /**
     * {@link #deriv} along x (stride 1); in an x band segment ({@code band}) the memory variable with the profile
     * vectors, p ← prof[pa + j]·p + prof[pb + j]·d (the portable kernels' order), the same for every row.
     */
    static void derivX(float[] f, int i0, int fs, float[] coef, int c, int h, int n, int rows, float[] out, int o,
                       int rl, boolean band, float[] psi, int q, int qs, float[] prof, int pa, int pb, float[] t) {
        if (!band) {
            deriv(f, i0, fs, 1, coef, c, h, n, rows, out, o, rl, false, psi, q, qs, prof, pa, pb, 0, t);
        } else if (h == 4) {
            diff4Cols(f, i0, fs, coef, c, out, o, rl, n, rows, psi, q, qs, prof, pa, pb, t);
        } else {
            diffNCols(f, i0, fs, coef, c, h, out, o, rl, n, rows, psi, q, qs, prof, pa, pb, t);
        }
    }

    /** Σ_k c_k·(f[i + k·st] − f[i − (k−1)·st]) from 0 in k order (h a constant 4 at the order-8 call sites). */
    private static FloatVector dN(float[] f, int i, int st, float[] coef, int c, int h) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            d = d.add(ld(f, i + k * st).sub(ld(f, i - (k - 1) * st)).mul(coef[c + k - 1]));
        }
        return d;
    }

    static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /**
     * Difference into out[o + r·os + j]; with {@code band}, first the memory variable of a y or z band row (decay
     * prof[pa + r·ps], update prof[pb + r·ps]), its new value to psi (or parked), and out = d + p. Without, the last,
     * overlapping vector is written twice (out is scratch).
     */
    private static void diff4Row(float[] f, int i, int fs, int st, float[] coef, int c, float[] out, int o, int os,
                                 int n, int rows, boolean band, float[] psi, int q, int qs, float[] prof, int pa,
                                 int pb, int ps, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (band && whole < n) {
            park(t, 0, psi, q, last, whole, qs, rows, true);
        }
        diff4RowMain(f, i, fs, st, coef, c, out, o, os, whole, rows, band, psi, q, qs, prof, pa, pb, ps);
        if (whole < n) {
            if (band) {
                park(t, 0, psi, q, last, whole, qs, rows, false);
            }
            diff4RowMain(f, i + last, fs, st, coef, c, out, o + last, os, VL, rows, band, psi, q + last, qs, prof, pa,
                    pb, ps);
        }
    }

    /**
     * The loop of {@link #diff4Row} over {@code count} cells, in place in psi (as the order-8 main loops, see the note
     * above {@link #park}): with the memory variable the difference unrolled, without it {@link #dk}.
     */
    private static void diff4RowMain(float[] f, int i, int fs, int st, float[] coef, int c, float[] out, int o, int os,
                                     int count, int rows, boolean band, float[] psi, int q, int qs, float[] prof,
                                     int pa, int pb, int ps) {
        if (band) {
            FloatVector z = FloatVector.zero(S);
            FloatVector w1 = FloatVector.broadcast(S, coef[c]);
            FloatVector w2 = FloatVector.broadcast(S, coef[c + 1]);
            FloatVector w3 = FloatVector.broadcast(S, coef[c + 2]);
            FloatVector w4 = FloatVector.broadcast(S, coef[c + 3]);
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs;
                int oi = o + r * os;
                int qi = q + r * qs;
                float a = prof[pa + r * ps];
                float b = prof[pb + r * ps];
                for (int x = 0; x < count; x += VL) {
                    int e = fi + x;
                    FloatVector d = z.add(ld(f, e + st).sub(ld(f, e)).mul(w1))
                            .add(ld(f, e + 2 * st).sub(ld(f, e - st)).mul(w2))
                            .add(ld(f, e + 3 * st).sub(ld(f, e - 2 * st)).mul(w3))
                            .add(ld(f, e + 4 * st).sub(ld(f, e - 3 * st)).mul(w4));
                    FloatVector p = ld(psi, qi + x).mul(a).add(d.mul(b));
                    p.intoArray(psi, qi + x);
                    d.add(p).intoArray(out, oi + x);
                }
            }
        } else {
            int[] w = {Float.floatToRawIntBits(coef[c]), Float.floatToRawIntBits(coef[c + 1]),
                Float.floatToRawIntBits(coef[c + 2]), Float.floatToRawIntBits(coef[c + 3])};
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs;
                int oi = o + r * os;
                for (int x = 0; x < count; x += VL) {
                    dk(f, fi + x, st, w).intoArray(out, oi + x);
                }
            }
        }
    }

    /** Difference along x with the memory variable of an x band segment (decay prof[pa + j], update prof[pb + j]). */
    private static void diff4Cols(float[] f, int i, int fs, float[] coef, int c, float[] out, int o, int os, int n,
                                  int rows, float[] psi, int q, int qs, float[] prof, int pa, int pb, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, psi, q, last, whole, qs, rows, true);
        }
        diff4ColsMain(f, i, fs, coef, c, out, o, os, whole, rows, psi, q, qs, prof, pa, pb);
        if (whole < n) {
            park(t, 0, psi, q, last, whole, qs, rows, false);
            diff4ColsMain(f, i + last, fs, coef, c, out, o + last, os, VL, rows, psi, q + last, qs, prof, pa + last,
                    pb + last);
        }
    }

    /**
     * The loop of {@link #diff4Cols} over {@code count} cells, in place in psi. (It checks its block itself, which also
     * keeps it longer than C2 inlines into a hot caller, see the class comment.)
     */
    private static void diff4ColsMain(float[] f, int i, int fs, float[] coef, int c, float[] out, int o, int os,
                                      int count, int rows, float[] psi, int q, int qs, float[] prof, int pa, int pb) {
        if (count < VL || count % VL != 0 || rows < 1 || rows > RB) {
            throw new IllegalArgumentException("elastic CPU kernel x band block of " + rows + " rows of " + count
                    + " cells: needs 1.." + RB + " rows of a whole number of vectors of " + VL + " cells");
        }
        FloatVector z = FloatVector.zero(S);
        FloatVector w1 = FloatVector.broadcast(S, coef[c]);
        FloatVector w2 = FloatVector.broadcast(S, coef[c + 1]);
        FloatVector w3 = FloatVector.broadcast(S, coef[c + 2]);
        FloatVector w4 = FloatVector.broadcast(S, coef[c + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int oi = o + r * os;
            int qi = q + r * qs;
            for (int x = 0; x < count; x += VL) {
                int e = fi + x;
                FloatVector d = z.add(ld(f, e + 1).sub(ld(f, e)).mul(w1))
                        .add(ld(f, e + 2).sub(ld(f, e - 1)).mul(w2))
                        .add(ld(f, e + 3).sub(ld(f, e - 2)).mul(w3))
                        .add(ld(f, e + 4).sub(ld(f, e - 3)).mul(w4));
                FloatVector p = ld(prof, pa + x).mul(ld(psi, qi + x)).add(ld(prof, pb + x).mul(d));
                p.intoArray(psi, qi + x);
                d.add(p).intoArray(out, oi + x);
            }
        }
    }

    /** Any-order {@link #diff4Row}. */
    private static void diffNRow(float[] f, int i, int fs, int st, float[] coef, int c, int h, float[] out, int o,
                                 int os, int n, int rows, boolean band, float[] psi, int q, int qs, float[] prof,
                                 int pa, int pb, int ps, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : psi;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int oi = o + x0 + r * os;
                int qi = q + x0 + r * qs;
                float a = prof[pa + r * ps];
                float b = prof[pb + r * ps];
                int od0 = park ? tp0 + r * VL : q + x0 + r * qs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector d = dN(f, fi + x, st, coef, c, h);
                    if (band) {
                        FloatVector p = ld(psi, qi + x).mul(a).add(d.mul(b));
                        p.intoArray(out0, od0 + x);
                        d = d.add(p);
                    }
                    d.intoArray(out, oi + x);
                }
            }
        }
        if (whole < n && band) {
            for (int r = 0; r < rows; r++) {
                ld(t, tp0 + r * VL).intoArray(psi, q + last + r * qs);
            }
        }
    }

    /** Any-order {@link #diff4Cols}. */
    private static void diffNCols(float[] f, int i, int fs, float[] coef, int c, int h, float[] out, int o, int os,
                                  int n, int rows, float[] psi, int q, int qs, float[] prof, int pa, int pb,
                                  float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : psi;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int oi = o + x0 + r * os;
                int qi = q + x0 + r * qs;
                int od0 = park ? tp0 + r * VL : q + x0 + r * qs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector d = dN(f, fi + x, 1, coef, c, h);
                    FloatVector p = ld(prof, pa + x0 + x).mul(ld(psi, qi + x)).add(ld(prof, pb + x0 + x).mul(d));
                    p.intoArray(out0, od0 + x);
                    d.add(p).intoArray(out, oi + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                ld(t, tp0 + r * VL).intoArray(psi, q + last + r * qs);
            }
        }
    }

    /**
     * Velocity update of a block: f[i + r·fs + j] += b[…]·Σ of the scratch blocks 0, 1 (and 2 when {@code three})
     * summed left to right ((r0 + r1) + r2), as the portable kernels sum their terms.
     */
    static void velocity(float[] f, float[] b, int i, int fs, int n, int rows, boolean three, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int bs = block(rl, 1);
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : f;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = ld(t, e + x).add(ld(t, e + bs + x));
                    if (three) {
                        sum = sum.add(ld(t, e + 2 * bs + x));
                    }
                    ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                ld(t, tp0 + r * VL).intoArray(f, i + last + r * fs);
            }
        }
    }

    /**
     * 2-D normal stresses of a block from the scratch blocks exx (0) and ezz (1): σxx += (λ+2μ)·exx + λ·ezz,
     * σzz += λ·exx + (λ+2μ)·ezz; λ at m[i], λ+2μ at m[len + i], σxx at s[i], σzz at s[len + i].
     */
    static void normal2(float[] s, float[] m, int i, int fs, int len, int n, int rows, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int bs = block(rl, 1);
        int tp0 = slot(t, 0);
        int tp1 = slot(t, 1);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : s;
            float[] out1 = park ? t : s;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                int od1 = park ? tp1 + r * VL : len + i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector exx = ld(t, e + x);
                    FloatVector ezz = ld(t, e + bs + x);
                    FloatVector lam = ld(m, fi + x);
                    FloatVector l2m = ld(m, len + fi + x);
                    ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(ezz))).intoArray(out0, od0 + x);
                    ld(s, len + fi + x).add(lam.mul(exx).add(l2m.mul(ezz))).intoArray(out1, od1 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                ld(t, tp0 + r * VL).intoArray(s, i + last + r * fs);
                ld(t, tp1 + r * VL).intoArray(s, len + i + last + r * fs);
            }
        }
    }

    /**
     * 3-D normal stresses of a block from the scratch blocks exx, eyy, ezz (0, 1, 2): σxx += (λ+2μ)·exx +
     * λ·(eyy + ezz) and cyclically; σxx, σyy, σzz at s[i], s[len + i], s[2·len + i].
     */
    static void normal3(float[] s, float[] m, int i, int fs, int len, int n, int rows, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int bs = block(rl, 1);
        int tp0 = slot(t, 0);
        int tp1 = slot(t, 1);
        int tp2 = slot(t, 2);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : s;
            float[] out1 = park ? t : s;
            float[] out2 = park ? t : s;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                int od1 = park ? tp1 + r * VL : len + i + x0 + r * fs;
                int od2 = park ? tp2 + r * VL : 2 * len + i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector exx = ld(t, e + x);
                    FloatVector eyy = ld(t, e + bs + x);
                    FloatVector ezz = ld(t, e + 2 * bs + x);
                    FloatVector lam = ld(m, fi + x);
                    FloatVector l2m = ld(m, len + fi + x);
                    ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(eyy.add(ezz)))).intoArray(out0, od0 + x);
                    ld(s, len + fi + x).add(l2m.mul(eyy).add(lam.mul(exx.add(ezz)))).intoArray(out1, od1 + x);
                    ld(s, 2 * len + fi + x).add(l2m.mul(ezz).add(lam.mul(exx.add(eyy)))).intoArray(out2, od2 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                ld(t, tp0 + r * VL).intoArray(s, i + last + r * fs);
                ld(t, tp1 + r * VL).intoArray(s, len + i + last + r * fs);
                ld(t, tp2 + r * VL).intoArray(s, 2 * len + i + last + r * fs);
            }
        }
    }

    /** Shear stress of a block: s[i + r·fs + j] += m[im + r·fs + j]·(r0 + r1), scratch blocks 0 and 1. */
    static void shear(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int bs = block(rl, 1);
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : s;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int mi = im + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    ld(s, fi + x).add(ld(m, mi + x).mul(ld(t, e + x).add(ld(t, e + bs + x)))).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                ld(t, tp0 + r * VL).intoArray(s, i + last + r * fs);
            }
        }
    }

    /*
     * The order-8 loops below: an entry per operation (the block's checks, its whole vectors, then its tail) and a main
     * loop that updates in place, with each difference unrolled and its weights broadcast before the loop
     * (read from the weight array inside the loop, C2 reloads and broadcasts them every vector: a store into a float[]
     * may change them) and a difference along x with a literal stride 1 (its eight loads off one register; a stride
     * passed in needs one register or stack slot per load); faster than the differences as loops over the weight
     * array (docs/performance.md, elastic forward). The tail, the row's last vector when n is not a multiple of the
     * vector length, runs the same main loop once more at n - VL, after the cells it shares with the last whole vector
     * have been given back their old values (saved before): every cell reads only its own old value of the updated
     * field, so it receives the same value again. A main loop is longer than C2 inlines into a hot caller (325 bytes of
     * bytecode), so that it keeps a compilation of its own; the entries hold no vector code.
     */

    /**
     * Saves ({@code save}) into parking block k, or restores from it, the cells [last, last + VL) of the rows of f at
     * i + r·fs: the cells [last, whole) the last whole vector shares with the row's last vector, and the cells after
     * them, which the whole vectors leave as they are (one vector move, cheaper than a copy of a few floats).
     */
    private static void park(float[] t, int k, float[] f, int i, int last, int whole, int fs, int rows, boolean save) {
        int tp = slot(t, k);
        for (int r = 0; r < rows; r++) {
            if (save) {
                ld(f, i + last + r * fs).intoArray(t, tp + r * VL);
            } else {
                ld(t, tp + r * VL).intoArray(f, i + last + r * fs);
            }
        }
    }

    /**
     * {@link #dN} at order 8 along x (a literal stride 1) with the weights' bits in an int[] of the caller's (not a
     * float[]: a store into a float[] inside the caller's loop makes C2 reload float weights every vector): the loop
     * form, which parses to a quarter of the unrolled difference, for main loops that would pass C2's inlining budget
     * unrolled.
     */
    private static FloatVector dkx(float[] f, int i, int[] w) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= 4; k++) {
            d = d.add(ld(f, i + k).sub(ld(f, i - (k - 1))).mul(Float.intBitsToFloat(w[k - 1])));
        }
        return d;
    }

    /** {@link #dkx} along st. */
    private static FloatVector dk(float[] f, int i, int st, int[] w) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= 4; k++) {
            d = d.add(ld(f, i + k * st).sub(ld(f, i - (k - 1) * st)).mul(Float.intBitsToFloat(w[k - 1])));
        }
        return d;
    }

    /**
     * Order-8 2-D velocity update of a block without memory variables: f[i + r·fs + j] += b[…]·(D0 + D1), D0 the
     * difference of g0 at o0 + r·fs + j along x with the weights coef[c0..], D1 that of g1 along st1 (as {@link #dN}).
     */
    static void velocity2x4(float[] f, float[] b, int i, int fs, int n, int rows, float[] g0, int o0, int c0,
                            float[] g1, int o1, int st1, int c1, float[] coef, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, true);
        }
        velocity2x4Main(f, b, i, fs, whole, rows, g0, o0, c0, g1, o1, st1, c1, coef);
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, false);
            velocity2x4Main(f, b, i + last, fs, VL, rows, g0, o0 + last, c0, g1, o1 + last, st1, c1, coef);
        }
    }

    private static void velocity2x4Main(float[] f, float[] b, int i, int fs, int count, int rows, float[] g0, int o0,
                                        int c0, float[] g1, int o1, int st1, int c1, float[] coef) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[c0]);
        FloatVector a2 = FloatVector.broadcast(S, coef[c0 + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[c0 + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[c0 + 3]);
        FloatVector e1 = FloatVector.broadcast(S, coef[c1]);
        FloatVector e2 = FloatVector.broadcast(S, coef[c1 + 1]);
        FloatVector e3 = FloatVector.broadcast(S, coef[c1 + 2]);
        FloatVector e4 = FloatVector.broadcast(S, coef[c1 + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int p = o0 + r * fs;
            int q = o1 + r * fs;
            for (int x = 0; x < count; x += VL) {
                FloatVector d0 = z.add(ld(g0, p + x + 1).sub(ld(g0, p + x)).mul(a1))
                        .add(ld(g0, p + x + 2).sub(ld(g0, p + x - 1)).mul(a2))
                        .add(ld(g0, p + x + 3).sub(ld(g0, p + x - 2)).mul(a3))
                        .add(ld(g0, p + x + 4).sub(ld(g0, p + x - 3)).mul(a4));
                FloatVector d1 = z.add(ld(g1, q + x + st1).sub(ld(g1, q + x)).mul(e1))
                        .add(ld(g1, q + x + 2 * st1).sub(ld(g1, q + x - st1)).mul(e2))
                        .add(ld(g1, q + x + 3 * st1).sub(ld(g1, q + x - 2 * st1)).mul(e3))
                        .add(ld(g1, q + x + 4 * st1).sub(ld(g1, q + x - 3 * st1)).mul(e4));
                ld(f, fi + x).add(ld(b, fi + x).mul(d0.add(d1))).intoArray(f, fi + x);
            }
        }
    }

    /**
     * Order-8 3-D velocity update of a block without memory variables: f += b·((D0 + D1) + D2), D0 along x, D1 along
     * st1, D2 along st2 (as {@link #velocity2x4}).
     */
    static void velocity3x4(float[] f, float[] b, int i, int fs, int n, int rows, float[] g0, int o0, int c0,
                            float[] g1, int o1, int st1, int c1, float[] g2, int o2, int st2, int c2, float[] coef,
                            float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, true);
        }
        velocity3x4Main(f, b, i, fs, whole, rows, g0, o0, c0, g1, o1, st1, c1, g2, o2, st2, c2, coef);
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, false);
            velocity3x4Main(f, b, i + last, fs, VL, rows, g0, o0 + last, c0, g1, o1 + last, st1, c1, g2, o2 + last, st2,
                    c2, coef);
        }
    }

    private static void velocity3x4Main(float[] f, float[] b, int i, int fs, int count, int rows, float[] g0, int o0,
                                        int c0, float[] g1, int o1, int st1, int c1, float[] g2, int o2, int st2,
                                        int c2, float[] coef) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[c0]);
        FloatVector a2 = FloatVector.broadcast(S, coef[c0 + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[c0 + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[c0 + 3]);
        int[] we = {Float.floatToRawIntBits(coef[c1]), Float.floatToRawIntBits(coef[c1 + 1]),
                Float.floatToRawIntBits(coef[c1 + 2]), Float.floatToRawIntBits(coef[c1 + 3])};
        int[] wu = {Float.floatToRawIntBits(coef[c2]), Float.floatToRawIntBits(coef[c2 + 1]),
                Float.floatToRawIntBits(coef[c2 + 2]), Float.floatToRawIntBits(coef[c2 + 3])};
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int p = o0 + r * fs;
            int q = o1 + r * fs;
            int y = o2 + r * fs;
            for (int x = 0; x < count; x += VL) {
                FloatVector d0 = z.add(ld(g0, p + x + 1).sub(ld(g0, p + x)).mul(a1))
                        .add(ld(g0, p + x + 2).sub(ld(g0, p + x - 1)).mul(a2))
                        .add(ld(g0, p + x + 3).sub(ld(g0, p + x - 2)).mul(a3))
                        .add(ld(g0, p + x + 4).sub(ld(g0, p + x - 3)).mul(a4));
                FloatVector d1 = dk(g1, q + x, st1, we);
                FloatVector d2 = dk(g2, y + x, st2, wu);
                ld(f, fi + x).add(ld(b, fi + x).mul(d0.add(d1).add(d2))).intoArray(f, fi + x);
            }
        }
    }

    /**
     * Order-8 3-D velocity update of a block with one difference from scratch block 0: f += b·((A + S) + C) with A and
     * C the inline differences of ga (along sta, 1: x) and gc (along stc) and S the scratch row; with the scratch term
     * third see {@link #velocity3x4t}.
     */
    static void velocity3x4s(float[] f, float[] b, int i, int fs, int n, int rows, float[] ga, int oa, int sta, int ca,
                             float[] gc, int oc, int stc, int cc, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, true);
        }
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1 && whole == n) {
                break;
            }
            if (pass == 1) {
                park(t, 0, f, i, last, whole, fs, rows, false);
            }
            int x0 = pass == 0 ? 0 : last;
            int count = pass == 0 ? whole : VL;
            if (sta == 1) {
                velocity3x4sX(f, b, i + x0, fs, count, rows, ga, oa + x0, ca, gc, oc + x0, stc, cc, coef, t, x0, rl);
            } else {
                velocity3x4sS(f, b, i + x0, fs, count, rows, ga, oa + x0, sta, ca, gc, oc + x0, stc, cc, coef, t, x0,
                        rl);
            }
        }
    }

    private static void velocity3x4sX(float[] f, float[] b, int i, int fs, int count, int rows, float[] ga, int oa,
                                      int ca, float[] gc, int oc, int stc, int cc, float[] coef, float[] t, int te,
                                      int rl) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[ca]);
        FloatVector a2 = FloatVector.broadcast(S, coef[ca + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[ca + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[ca + 3]);
        FloatVector e1 = FloatVector.broadcast(S, coef[cc]);
        FloatVector e2 = FloatVector.broadcast(S, coef[cc + 1]);
        FloatVector e3 = FloatVector.broadcast(S, coef[cc + 2]);
        FloatVector e4 = FloatVector.broadcast(S, coef[cc + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int p = oa + r * fs;
            int q = oc + r * fs;
            int e = te + r * rl;
            for (int x = 0; x < count; x += VL) {
                FloatVector da = z.add(ld(ga, p + x + 1).sub(ld(ga, p + x)).mul(a1))
                        .add(ld(ga, p + x + 2).sub(ld(ga, p + x - 1)).mul(a2))
                        .add(ld(ga, p + x + 3).sub(ld(ga, p + x - 2)).mul(a3))
                        .add(ld(ga, p + x + 4).sub(ld(ga, p + x - 3)).mul(a4));
                FloatVector dc = z.add(ld(gc, q + x + stc).sub(ld(gc, q + x)).mul(e1))
                        .add(ld(gc, q + x + 2 * stc).sub(ld(gc, q + x - stc)).mul(e2))
                        .add(ld(gc, q + x + 3 * stc).sub(ld(gc, q + x - 2 * stc)).mul(e3))
                        .add(ld(gc, q + x + 4 * stc).sub(ld(gc, q + x - 3 * stc)).mul(e4));
                ld(f, fi + x).add(ld(b, fi + x).mul(da.add(ld(t, e + x)).add(dc))).intoArray(f, fi + x);
            }
        }
    }

    private static void velocity3x4sS(float[] f, float[] b, int i, int fs, int count, int rows, float[] ga, int oa,
                                      int sta, int ca, float[] gc, int oc, int stc, int cc, float[] coef, float[] t,
                                      int te, int rl) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[ca]);
        FloatVector a2 = FloatVector.broadcast(S, coef[ca + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[ca + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[ca + 3]);
        FloatVector e1 = FloatVector.broadcast(S, coef[cc]);
        FloatVector e2 = FloatVector.broadcast(S, coef[cc + 1]);
        FloatVector e3 = FloatVector.broadcast(S, coef[cc + 2]);
        FloatVector e4 = FloatVector.broadcast(S, coef[cc + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int p = oa + r * fs;
            int q = oc + r * fs;
            int e = te + r * rl;
            for (int x = 0; x < count; x += VL) {
                FloatVector da = z.add(ld(ga, p + x + sta).sub(ld(ga, p + x)).mul(a1))
                        .add(ld(ga, p + x + 2 * sta).sub(ld(ga, p + x - sta)).mul(a2))
                        .add(ld(ga, p + x + 3 * sta).sub(ld(ga, p + x - 2 * sta)).mul(a3))
                        .add(ld(ga, p + x + 4 * sta).sub(ld(ga, p + x - 3 * sta)).mul(a4));
                FloatVector dc = z.add(ld(gc, q + x + stc).sub(ld(gc, q + x)).mul(e1))
                        .add(ld(gc, q + x + 2 * stc).sub(ld(gc, q + x - stc)).mul(e2))
                        .add(ld(gc, q + x + 3 * stc).sub(ld(gc, q + x - 2 * stc)).mul(e3))
                        .add(ld(gc, q + x + 4 * stc).sub(ld(gc, q + x - 3 * stc)).mul(e4));
                ld(f, fi + x).add(ld(b, fi + x).mul(da.add(ld(t, e + x)).add(dc))).intoArray(f, fi + x);
            }
        }
    }

    /** Order-8 3-D velocity update with the scratch term third: f += b·((A + C) + S), A along x, C along stc. */
    static void velocity3x4t(float[] f, float[] b, int i, int fs, int n, int rows, float[] ga, int oa, int ca,
                             float[] gc, int oc, int stc, int cc, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, true);
        }
        velocity3x4tMain(f, b, i, fs, whole, rows, ga, oa, ca, gc, oc, stc, cc, coef, t, 0, rl);
        if (whole < n) {
            park(t, 0, f, i, last, whole, fs, rows, false);
            velocity3x4tMain(f, b, i + last, fs, VL, rows, ga, oa + last, ca, gc, oc + last, stc, cc, coef, t, last,
                    rl);
        }
    }

    private static void velocity3x4tMain(float[] f, float[] b, int i, int fs, int count, int rows, float[] ga, int oa,
                                         int ca, float[] gc, int oc, int stc, int cc, float[] coef, float[] t, int te,
                                         int rl) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[ca]);
        FloatVector a2 = FloatVector.broadcast(S, coef[ca + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[ca + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[ca + 3]);
        FloatVector e1 = FloatVector.broadcast(S, coef[cc]);
        FloatVector e2 = FloatVector.broadcast(S, coef[cc + 1]);
        FloatVector e3 = FloatVector.broadcast(S, coef[cc + 2]);
        FloatVector e4 = FloatVector.broadcast(S, coef[cc + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int p = oa + r * fs;
            int q = oc + r * fs;
            int e = te + r * rl;
            for (int x = 0; x < count; x += VL) {
                FloatVector da = z.add(ld(ga, p + x + 1).sub(ld(ga, p + x)).mul(a1))
                        .add(ld(ga, p + x + 2).sub(ld(ga, p + x - 1)).mul(a2))
                        .add(ld(ga, p + x + 3).sub(ld(ga, p + x - 2)).mul(a3))
                        .add(ld(ga, p + x + 4).sub(ld(ga, p + x - 3)).mul(a4));
                FloatVector dc = z.add(ld(gc, q + x + stc).sub(ld(gc, q + x)).mul(e1))
                        .add(ld(gc, q + x + 2 * stc).sub(ld(gc, q + x - stc)).mul(e2))
                        .add(ld(gc, q + x + 3 * stc).sub(ld(gc, q + x - 2 * stc)).mul(e3))
                        .add(ld(gc, q + x + 4 * stc).sub(ld(gc, q + x - 3 * stc)).mul(e4));
                ld(f, fi + x).add(ld(b, fi + x).mul(da.add(dc).add(ld(t, e + x)))).intoArray(f, fi + x);
            }
        }
    }

    /**
     * Order-8 2-D normal stresses of a block without memory variables: exx (D− of vx along x at i) and ezz (D− of vz
     * along sz at len + i), then the update of {@link #normal2}.
     */
    static void normal2x4(float[] v, float[] s, float[] m, int i, int fs, int len, int sz, int n, int rows,
                          float[] coef, int h, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, s, i, last, whole, fs, rows, true);
            park(t, 1, s, len + i, last, whole, fs, rows, true);
        }
        normal2x4Main(v, s, m, i, fs, len, sz, whole, rows, coef, 2 * h);
        if (whole < n) {
            park(t, 0, s, i, last, whole, fs, rows, false);
            park(t, 1, s, len + i, last, whole, fs, rows, false);
            normal2x4Main(v, s, m, i + last, fs, len, sz, VL, rows, coef, 2 * h);
        }
    }

    private static void normal2x4Main(float[] v, float[] s, float[] m, int i, int fs, int len, int sz, int count,
                                      int rows, float[] coef, int cx) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[cx]);
        FloatVector a2 = FloatVector.broadcast(S, coef[cx + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[cx + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[cx + 3]);
        int[] we = {Float.floatToRawIntBits(coef[0]), Float.floatToRawIntBits(coef[0 + 1]),
                Float.floatToRawIntBits(coef[0 + 2]), Float.floatToRawIntBits(coef[0 + 3])};
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int zi = len + fi - sz;
            for (int x = 0; x < count; x += VL) {
                int xi = fi + x - 1;
                FloatVector exx = z.add(ld(v, xi + 1).sub(ld(v, xi)).mul(a1))
                        .add(ld(v, xi + 2).sub(ld(v, xi - 1)).mul(a2))
                        .add(ld(v, xi + 3).sub(ld(v, xi - 2)).mul(a3))
                        .add(ld(v, xi + 4).sub(ld(v, xi - 3)).mul(a4));
                FloatVector ezz = dk(v, zi + x, sz, we);
                FloatVector lam = ld(m, fi + x);
                FloatVector l2m = ld(m, len + fi + x);
                ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(ezz))).intoArray(s, fi + x);
                ld(s, len + fi + x).add(lam.mul(exx).add(l2m.mul(ezz))).intoArray(s, len + fi + x);
            }
        }
    }

    /**
     * Order-8 2-D normal stresses of a block with one strain rate from scratch block 0 (S) and the other, D, inline
     * (the difference of g at o + r·fs + j along st, 1: x, weights coef[c..]): s[i + …] += P·D + Q·S and s[len + i +
     * …] += Q·D + P·S, P at m[mp + …] and Q at m[mq + …]. With S = ezz: P = λ+2μ, Q = λ, the update of
     * {@link #normal2}; with S = exx: P = λ, Q = λ+2μ, the same terms with each sum's two products swapped (float
     * addition commutes).
     */
    static void normal2x4s(float[] s, float[] m, int i, int fs, int len, int mp, int mq, int n, int rows, float[] g,
                           int o, int st, int c, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, s, i, last, whole, fs, rows, true);
            park(t, 1, s, len + i, last, whole, fs, rows, true);
        }
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1 && whole == n) {
                break;
            }
            if (pass == 1) {
                park(t, 0, s, i, last, whole, fs, rows, false);
                park(t, 1, s, len + i, last, whole, fs, rows, false);
            }
            int x0 = pass == 0 ? 0 : last;
            int count = pass == 0 ? whole : VL;
            if (st == 1) {
                normal2x4sX(s, m, i + x0, fs, len, mp + x0, mq + x0, count, rows, g, o + x0, c, coef, t, x0, rl);
            } else {
                normal2x4sS(s, m, i + x0, fs, len, mp + x0, mq + x0, count, rows, g, o + x0, st, c, coef, t, x0, rl);
            }
        }
    }

    private static void normal2x4sX(float[] s, float[] m, int i, int fs, int len, int mp, int mq, int count, int rows,
                                    float[] g, int o, int c, float[] coef, float[] t, int te, int rl) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[c]);
        FloatVector a2 = FloatVector.broadcast(S, coef[c + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[c + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[c + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int pi = mp + r * fs;
            int qi = mq + r * fs;
            int a = o + r * fs;
            int e = te + r * rl;
            for (int x = 0; x < count; x += VL) {
                FloatVector d = z.add(ld(g, a + x + 1).sub(ld(g, a + x)).mul(a1))
                        .add(ld(g, a + x + 2).sub(ld(g, a + x - 1)).mul(a2))
                        .add(ld(g, a + x + 3).sub(ld(g, a + x - 2)).mul(a3))
                        .add(ld(g, a + x + 4).sub(ld(g, a + x - 3)).mul(a4));
                FloatVector sc = ld(t, e + x);
                FloatVector p = ld(m, pi + x);
                FloatVector q = ld(m, qi + x);
                ld(s, fi + x).add(p.mul(d).add(q.mul(sc))).intoArray(s, fi + x);
                ld(s, len + fi + x).add(q.mul(d).add(p.mul(sc))).intoArray(s, len + fi + x);
            }
        }
    }

    private static void normal2x4sS(float[] s, float[] m, int i, int fs, int len, int mp, int mq, int count, int rows,
                                    float[] g, int o, int st, int c, float[] coef, float[] t, int te, int rl) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[c]);
        FloatVector a2 = FloatVector.broadcast(S, coef[c + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[c + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[c + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int pi = mp + r * fs;
            int qi = mq + r * fs;
            int a = o + r * fs;
            int e = te + r * rl;
            for (int x = 0; x < count; x += VL) {
                FloatVector d = z.add(ld(g, a + x + st).sub(ld(g, a + x)).mul(a1))
                        .add(ld(g, a + x + 2 * st).sub(ld(g, a + x - st)).mul(a2))
                        .add(ld(g, a + x + 3 * st).sub(ld(g, a + x - 2 * st)).mul(a3))
                        .add(ld(g, a + x + 4 * st).sub(ld(g, a + x - 3 * st)).mul(a4));
                FloatVector sc = ld(t, e + x);
                FloatVector p = ld(m, pi + x);
                FloatVector q = ld(m, qi + x);
                ld(s, fi + x).add(p.mul(d).add(q.mul(sc))).intoArray(s, fi + x);
                ld(s, len + fi + x).add(q.mul(d).add(p.mul(sc))).intoArray(s, len + fi + x);
            }
        }
    }

    /**
     * Order-8 3-D normal stresses of a block without memory variables: exx, eyy, ezz (D− of vx, vy, vz along x, sy,
     * sz at i, len + i, 2·len + i) inline, then the update of {@link #normal3}.
     */
    static void normal3x4(float[] v, float[] s, float[] m, int i, int fs, int len, int sy, int sz, int n, int rows,
                          float[] coef, int h, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            for (int k = 0; k < 3; k++) {
                park(t, k, s, k * len + i, last, whole, fs, rows, true);
            }
        }
        normal3x4Main(v, s, m, i, fs, len, sy, sz, whole, rows, coef, h);
        if (whole < n) {
            for (int k = 0; k < 3; k++) {
                park(t, k, s, k * len + i, last, whole, fs, rows, false);
            }
            normal3x4Main(v, s, m, i + last, fs, len, sy, sz, VL, rows, coef, h);
        }
    }

    private static void normal3x4Main(float[] v, float[] s, float[] m, int i, int fs, int len, int sy, int sz,
                                      int count, int rows, float[] coef, int h) {
        int[] wa = {Float.floatToRawIntBits(coef[2 * h]), Float.floatToRawIntBits(coef[2 * h + 1]),
                Float.floatToRawIntBits(coef[2 * h + 2]), Float.floatToRawIntBits(coef[2 * h + 3])};
        int[] we = {Float.floatToRawIntBits(coef[h]), Float.floatToRawIntBits(coef[h + 1]),
                Float.floatToRawIntBits(coef[h + 2]), Float.floatToRawIntBits(coef[h + 3])};
        int[] wu = {Float.floatToRawIntBits(coef[0]), Float.floatToRawIntBits(coef[0 + 1]),
                Float.floatToRawIntBits(coef[0 + 2]), Float.floatToRawIntBits(coef[0 + 3])};
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int yi = len + fi - sy;
            int zi = 2 * len + fi - sz;
            for (int x = 0; x < count; x += VL) {
                int xi = fi + x - 1;
                FloatVector exx = dkx(v, xi, wa);
                FloatVector eyy = dk(v, yi + x, sy, we);
                FloatVector ezz = dk(v, zi + x, sz, wu);
                FloatVector lam = ld(m, fi + x);
                FloatVector l2m = ld(m, len + fi + x);
                ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(eyy.add(ezz)))).intoArray(s, fi + x);
                ld(s, len + fi + x).add(l2m.mul(eyy).add(lam.mul(exx.add(ezz)))).intoArray(s, len + fi + x);
                ld(s, 2 * len + fi + x).add(l2m.mul(ezz).add(lam.mul(exx.add(eyy)))).intoArray(s, 2 * len + fi + x);
            }
        }
    }

    /**
     * Order-8 shear stress of a block without memory variables: s[i + r·fs + j] += m[im + …]·(D0 + D1), D0 the
     * difference of g0 along st0, D1 that of g1 along st1 (1: x).
     */
    static void shear4(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] g0, int o0, int st0,
                       int c0, float[] g1, int o1, int st1, int c1, float[] coef, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, s, i, last, whole, fs, rows, true);
        }
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1 && whole == n) {
                break;
            }
            if (pass == 1) {
                park(t, 0, s, i, last, whole, fs, rows, false);
            }
            int x0 = pass == 0 ? 0 : last;
            int count = pass == 0 ? whole : VL;
            if (st1 == 1) {
                shear4X(s, m, i + x0, im + x0, fs, count, rows, g0, o0 + x0, st0, c0, g1, o1 + x0, c1, coef);
            } else {
                shear4S(s, m, i + x0, im + x0, fs, count, rows, g0, o0 + x0, st0, c0, g1, o1 + x0, st1, c1, coef);
            }
        }
    }

    private static void shear4X(float[] s, float[] m, int i, int im, int fs, int count, int rows, float[] g0, int o0,
                                int st0, int c0, float[] g1, int o1, int c1, float[] coef) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[c0]);
        FloatVector a2 = FloatVector.broadcast(S, coef[c0 + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[c0 + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[c0 + 3]);
        FloatVector e1 = FloatVector.broadcast(S, coef[c1]);
        FloatVector e2 = FloatVector.broadcast(S, coef[c1 + 1]);
        FloatVector e3 = FloatVector.broadcast(S, coef[c1 + 2]);
        FloatVector e4 = FloatVector.broadcast(S, coef[c1 + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int mi = im + r * fs;
            int p = o0 + r * fs;
            int q = o1 + r * fs;
            for (int x = 0; x < count; x += VL) {
                FloatVector d0 = z.add(ld(g0, p + x + st0).sub(ld(g0, p + x)).mul(a1))
                        .add(ld(g0, p + x + 2 * st0).sub(ld(g0, p + x - st0)).mul(a2))
                        .add(ld(g0, p + x + 3 * st0).sub(ld(g0, p + x - 2 * st0)).mul(a3))
                        .add(ld(g0, p + x + 4 * st0).sub(ld(g0, p + x - 3 * st0)).mul(a4));
                FloatVector d1 = z.add(ld(g1, q + x + 1).sub(ld(g1, q + x)).mul(e1))
                        .add(ld(g1, q + x + 2).sub(ld(g1, q + x - 1)).mul(e2))
                        .add(ld(g1, q + x + 3).sub(ld(g1, q + x - 2)).mul(e3))
                        .add(ld(g1, q + x + 4).sub(ld(g1, q + x - 3)).mul(e4));
                ld(s, fi + x).add(ld(m, mi + x).mul(d0.add(d1))).intoArray(s, fi + x);
            }
        }
    }

    private static void shear4S(float[] s, float[] m, int i, int im, int fs, int count, int rows, float[] g0, int o0,
                                int st0, int c0, float[] g1, int o1, int st1, int c1, float[] coef) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[c0]);
        FloatVector a2 = FloatVector.broadcast(S, coef[c0 + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[c0 + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[c0 + 3]);
        FloatVector e1 = FloatVector.broadcast(S, coef[c1]);
        FloatVector e2 = FloatVector.broadcast(S, coef[c1 + 1]);
        FloatVector e3 = FloatVector.broadcast(S, coef[c1 + 2]);
        FloatVector e4 = FloatVector.broadcast(S, coef[c1 + 3]);
        for (int r = 0; r < rows; r++) {
            int fi = i + r * fs;
            int mi = im + r * fs;
            int p = o0 + r * fs;
            int q = o1 + r * fs;
            for (int x = 0; x < count; x += VL) {
                FloatVector d0 = z.add(ld(g0, p + x + st0).sub(ld(g0, p + x)).mul(a1))
                        .add(ld(g0, p + x + 2 * st0).sub(ld(g0, p + x - st0)).mul(a2))
                        .add(ld(g0, p + x + 3 * st0).sub(ld(g0, p + x - 2 * st0)).mul(a3))
                        .add(ld(g0, p + x + 4 * st0).sub(ld(g0, p + x - 3 * st0)).mul(a4));
                FloatVector d1 = z.add(ld(g1, q + x + st1).sub(ld(g1, q + x)).mul(e1))
                        .add(ld(g1, q + x + 2 * st1).sub(ld(g1, q + x - st1)).mul(e2))
                        .add(ld(g1, q + x + 3 * st1).sub(ld(g1, q + x - 2 * st1)).mul(e3))
                        .add(ld(g1, q + x + 4 * st1).sub(ld(g1, q + x - 3 * st1)).mul(e4));
                ld(s, fi + x).add(ld(m, mi + x).mul(d0.add(d1))).intoArray(s, fi + x);
            }
        }
    }

    /**
     * Order-8 update of a block with one difference from scratch block 0: s[i + r·fs + j] += m[im + …]·(A + S), A the
     * difference of ga along sta (1: x). The shear stresses, and the 2-D velocities (s a velocity, m its buoyancy).
     */
    static void shear4s(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] ga, int oa, int sta,
                        int ca, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        if (whole < n) {
            park(t, 0, s, i, last, whole, fs, rows, true);
        }
        shear4sMain(s, m, i, im, fs, whole, rows, ga, oa, sta, ca, coef, t, 0, rl);
        if (whole < n) {
            park(t, 0, s, i, last, whole, fs, rows, false);
            shear4sMain(s, m, i + last, im + last, fs, VL, rows, ga, oa + last, sta, ca, coef, t, last, rl);
        }
    }

    /** The main loop of {@link #shear4s}: one copy with A along x (a literal stride), one along sta ({@link #dk}). */
    private static void shear4sMain(float[] s, float[] m, int i, int im, int fs, int count, int rows, float[] ga,
                                    int oa, int sta, int ca, float[] coef, float[] t, int te, int rl) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a1 = FloatVector.broadcast(S, coef[ca]);
        FloatVector a2 = FloatVector.broadcast(S, coef[ca + 1]);
        FloatVector a3 = FloatVector.broadcast(S, coef[ca + 2]);
        FloatVector a4 = FloatVector.broadcast(S, coef[ca + 3]);
        int[] wa = {Float.floatToRawIntBits(coef[ca]), Float.floatToRawIntBits(coef[ca + 1]),
                Float.floatToRawIntBits(coef[ca + 2]), Float.floatToRawIntBits(coef[ca + 3])};
        if (sta == 1) {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs;
                int mi = im + r * fs;
                int p = oa + r * fs;
                int e = te + r * rl;
                for (int x = 0; x < count; x += VL) {
                    FloatVector da = z.add(ld(ga, p + x + 1).sub(ld(ga, p + x)).mul(a1))
                            .add(ld(ga, p + x + 2).sub(ld(ga, p + x - 1)).mul(a2))
                            .add(ld(ga, p + x + 3).sub(ld(ga, p + x - 2)).mul(a3))
                            .add(ld(ga, p + x + 4).sub(ld(ga, p + x - 3)).mul(a4));
                    ld(s, fi + x).add(ld(m, mi + x).mul(da.add(ld(t, e + x)))).intoArray(s, fi + x);
                }
            }
        } else {
            for (int r = 0; r < rows; r++) {
                int fi = i + r * fs;
                int mi = im + r * fs;
                int p = oa + r * fs;
                int e = te + r * rl;
                for (int x = 0; x < count; x += VL) {
                    FloatVector da = dk(ga, p + x, sta, wa);
                    ld(s, fi + x).add(ld(m, mi + x).mul(da.add(ld(t, e + x)))).intoArray(s, fi + x);
                }
            }
        }
    }
}
