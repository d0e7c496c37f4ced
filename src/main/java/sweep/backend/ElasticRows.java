package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector loops of the CPU elastic kernels ({@link CpuElastic2D}, {@link CpuElastic3D}). They work on a block of
 * row segments: {@code rows} rows (at most {@link #RB}) {@code fs} floats apart, each over the same n ≥ VL cells, with
 * the same band membership, so that every cell of the block has the same CPML memory variables. Every loop performs,
 * per cell, the float operations of the portable kernels in their order.
 *
 * <p>Two shapes. Order 8 (the default): one loop per updated component computes its differences without memory
 * variable inline and updates the component ({@link #velocity2x4}, {@link #velocity3x4}, {@link #normal2x4},
 * {@link #normal3x4}, {@link #shear4}; with one difference that has a memory variable read from the scratch:
 * {@link #velocity3x4s}, {@link #shear4s}). Otherwise a pipeline: each difference, with its memory variable where its
 * node lies in a band, into a scratch block ({@link #deriv}, {@link #derivX}), then one loop per updated component
 * reading them back ({@link #velocity}, {@link #normal2}, {@link #normal3}, {@link #shear}). A float stored and read
 * back is the same float; float addition is commutative, so a scratch term may swap places with the term beside it.
 *
 * <p>Why this shape (each measured): C2 (JDK 17) stops inlining once a compilation reaches about 18000 nodes, and the
 * Vector API calls it then leaves out box their vectors, several times slower. Every operation is one method holding
 * one copy of its loop (the segment's last, overlapping vector and the whole vectors are two passes of the same loop)
 * and only the differences it computes: with two copies, two unrolled differences and their memory variables, or a
 * branch between an inline difference and a scratch load, a loop passed the budget in some runs and not in others,
 * depending on what C2 had compiled or profiled first (the same run was then fast or 2-5× slower). Each operation is
 * also larger than C2 inlines into a hot caller (325 bytes of bytecode), so that two of them never share a compilation.
 * A difference is a loop over the weights ({@link #dN}): at a constant trip count (4) C2 parses one term, unrolls it
 * afterwards and hoists the weights. Every index is affine in the loop variables, so that C2 hoists the range checks.
 * Blocks of rows amortise each call's fixed cost, which a 3-D row of a hundred cells does not.
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
                    FloatVector d = dN(f, fi + x, st, coef, c, 4);
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
                System.arraycopy(t, tp0 + r * VL, psi, q + last + r * qs, VL);
            }
        }
    }

    /** Difference along x with the memory variable of an x band segment (decay prof[pa + j], update prof[pb + j]). */
    private static void diff4Cols(float[] f, int i, int fs, float[] coef, int c, float[] out, int o, int os, int n,
                                  int rows, float[] psi, int q, int qs, float[] prof, int pa, int pb, float[] t) {
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
                    FloatVector d = dN(f, fi + x, 1, coef, c, 4);
                    FloatVector p = ld(prof, pa + x0 + x).mul(ld(psi, qi + x)).add(ld(prof, pb + x0 + x).mul(d));
                    p.intoArray(out0, od0 + x);
                    d.add(p).intoArray(out, oi + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, psi, q + last + r * qs, VL);
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
                System.arraycopy(t, tp0 + r * VL, psi, q + last + r * qs, VL);
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
                System.arraycopy(t, tp0 + r * VL, psi, q + last + r * qs, VL);
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
                System.arraycopy(t, tp0 + r * VL, f, i + last + r * fs, VL);
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
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
                System.arraycopy(t, tp1 + r * VL, s, len + i + last + r * fs, VL);
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
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
                System.arraycopy(t, tp1 + r * VL, s, len + i + last + r * fs, VL);
                System.arraycopy(t, tp2 + r * VL, s, 2 * len + i + last + r * fs, VL);
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
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
            }
        }
    }

    /**
     * Order-8 2-D velocity update of a block without memory variables: f[i + r·fs + j] += b[…]·(D0 + D1), Dk the
     * difference of gk at ok + r·fs + j along stk with the weights coef[ck..] (as {@link #dN}).
     */
    static void velocity2x4(float[] f, float[] b, int i, int fs, int n, int rows, float[] g0, int o0, int st0, int c0,
                            float[] g1, int o1, int st1, int c1, float[] coef, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : f;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int a0 = o0 + x0 + r * fs;
                int a1 = o1 + x0 + r * fs;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = dN(g0, a0 + x, st0, coef, c0, 4).add(dN(g1, a1 + x, st1, coef, c1, 4));
                    ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, f, i + last + r * fs, VL);
            }
        }
    }

    /** Order-8 3-D velocity update of a block without memory variables: f += b·((D0 + D1) + D2). */
    static void velocity3x4(float[] f, float[] b, int i, int fs, int n, int rows, float[] g0, int o0, int st0, int c0,
                            float[] g1, int o1, int st1, int c1, float[] g2, int o2, int st2, int c2, float[] coef,
                            float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : f;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int a0 = o0 + x0 + r * fs;
                int a1 = o1 + x0 + r * fs;
                int a2 = o2 + x0 + r * fs;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = dN(g0, a0 + x, st0, coef, c0, 4).add(dN(g1, a1 + x, st1, coef, c1, 4))
                            .add(dN(g2, a2 + x, st2, coef, c2, 4));
                    ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, f, i + last + r * fs, VL);
            }
        }
    }

    /**
     * Order-8 3-D velocity update of a block with one difference from scratch block 0: f += b·((A + S) + C) with A and C
     * the inline differences of ga and gc (as {@link #velocity3x4}) and S the scratch row; with the scratch term third
     * see {@link #velocity3x4t}.
     */
    static void velocity3x4s(float[] f, float[] b, int i, int fs, int n, int rows, float[] ga, int oa, int sta, int ca,
                             float[] gc, int oc, int stc, int cc, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : f;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int a0 = oa + x0 + r * fs;
                int a1 = oc + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = dN(ga, a0 + x, sta, coef, ca, 4).add(ld(t, e + x))
                            .add(dN(gc, a1 + x, stc, coef, cc, 4));
                    ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, f, i + last + r * fs, VL);
            }
        }
    }

    /** Order-8 3-D velocity update with the scratch term third: f += b·((A + C) + S). */
    static void velocity3x4t(float[] f, float[] b, int i, int fs, int n, int rows, float[] ga, int oa, int sta, int ca,
                             float[] gc, int oc, int stc, int cc, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : f;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int a0 = oa + x0 + r * fs;
                int a1 = oc + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = dN(ga, a0 + x, sta, coef, ca, 4).add(dN(gc, a1 + x, stc, coef, cc, 4))
                            .add(ld(t, e + x));
                    ld(f, fi + x).add(ld(b, fi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, f, i + last + r * fs, VL);
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
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                int od1 = park ? tp1 + r * VL : len + i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector exx = dN(v, fi + x - 1, 1, coef, 2 * h, 4);
                    FloatVector ezz = dN(v, len + fi + x - sz, sz, coef, 0, 4);
                    FloatVector lam = ld(m, fi + x);
                    FloatVector l2m = ld(m, len + fi + x);
                    ld(s, fi + x).add(l2m.mul(exx).add(lam.mul(ezz))).intoArray(out0, od0 + x);
                    ld(s, len + fi + x).add(lam.mul(exx).add(l2m.mul(ezz))).intoArray(out1, od1 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
                System.arraycopy(t, tp1 + r * VL, s, len + i + last + r * fs, VL);
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
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                int od1 = park ? tp1 + r * VL : len + i + x0 + r * fs;
                int od2 = park ? tp2 + r * VL : 2 * len + i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector exx = dN(v, fi + x - 1, 1, coef, 2 * h, 4);
                    FloatVector eyy = dN(v, len + fi + x - sy, sy, coef, h, 4);
                    FloatVector ezz = dN(v, 2 * len + fi + x - sz, sz, coef, 0, 4);
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
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
                System.arraycopy(t, tp1 + r * VL, s, len + i + last + r * fs, VL);
                System.arraycopy(t, tp2 + r * VL, s, 2 * len + i + last + r * fs, VL);
            }
        }
    }

    /** Order-8 shear stress of a block without memory variables: s[i + r·fs + j] += m[im + …]·(D0 + D1). */
    static void shear4(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] g0, int o0, int st0,
                       int c0, float[] g1, int o1, int st1, int c1, float[] coef, float[] t) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : s;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int mi = im + x0 + r * fs;
                int a0 = o0 + x0 + r * fs;
                int a1 = o1 + x0 + r * fs;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = dN(g0, a0 + x, st0, coef, c0, 4).add(dN(g1, a1 + x, st1, coef, c1, 4));
                    ld(s, fi + x).add(ld(m, mi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
            }
        }
    }

    /** Order-8 shear stress with one difference from scratch block 0: s += m·(A + S), A inline. */
    static void shear4s(float[] s, float[] m, int i, int im, int fs, int n, int rows, float[] ga, int oa, int sta,
                        int ca, float[] coef, float[] t, int rl) {
        check(n, rows, t);
        int whole = n / VL * VL;
        int last = n - VL;
        int tp0 = slot(t, 0);
        for (int pass = whole < n ? 0 : 1; pass < 2; pass++) {
            boolean park = pass == 0;
            int x0 = park ? last : 0;
            int count = park ? VL : whole;
            float[] out0 = park ? t : s;
            for (int r = 0; r < rows; r++) {
                int fi = i + x0 + r * fs;
                int mi = im + x0 + r * fs;
                int a0 = oa + x0 + r * fs;
                int e = x0 + r * rl;
                int od0 = park ? tp0 + r * VL : i + x0 + r * fs;
                for (int x = 0; x < count; x += VL) {
                    FloatVector sum = dN(ga, a0 + x, sta, coef, ca, 4).add(ld(t, e + x));
                    ld(s, fi + x).add(ld(m, mi + x).mul(sum)).intoArray(out0, od0 + x);
                }
            }
        }
        if (whole < n) {
            for (int r = 0; r < rows; r++) {
                System.arraycopy(t, tp0 + r * VL, s, i + last + r * fs, VL);
            }
        }
    }
}
