package sweep.acoustic;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.backend.CpuSpecies;

/**
 * Row passes of the 3-D forward kernels at half-width 4 (order 8, the default), used by
 * {@link AcousticVectorKernels3D}: the stencil sums unrolled and their weights broadcast once per row segment, so that
 * the vector loops carry neither range checks nor broadcasts. A cell's update runs as a few passes over rows of the
 * calling thread's scratch, each pass small enough that C2 compiles it with every Vector API call inlined (one method
 * holding a whole 25-point stencil and its leapfrog exceeds C2's inlining budget; its vectors would then be boxed);
 * each pass is also larger than C2's hot-method inlining size, so it is compiled alone rather than into its caller's
 * budget. Per cell every pass performs the float operations of {@link AcousticKernels3D} in their order: the same bits.
 *
 * <p>A segment of {@code n} cells starting at flat index {@code i0} is swept in whole vectors, the last one running
 * past the segment (it reads cells of the halo or the next row, never past the array, and its extra lanes are never
 * used). Passes that write the scratch row are therefore free to overrun; the passes that update a state array in
 * place (psi, zeta, un) write into it directly only when {@code n} is a multiple of the vector length, and otherwise
 * into a scratch row that {@link #copy} then moves into place cell by cell.
 */
final class AcousticVectorRows3D {
    private AcousticVectorRows3D() {
    }

    private static final VectorSpecies<Float> S = CpuSpecies.S;

    /** Offsets in {@code coef} for h = 4: second-derivative weights of y and x, first-derivative weights, centre. */
    static final int CY = 5;
    static final int CX = 10;
    static final int DZ = 15;
    static final int DY = 19;
    static final int DX = 23;
    static final int C00 = 27;

    /** Lanes per vector. */
    static int lanes() {
        return S.length();
    }

    /** {@code n} rounded up to whole vectors. */
    static int whole(int n) {
        int vl = S.length();
        return (n + vl - 1) / vl * vl;
    }

    /** Whether an in-place pass over {@code n} cells may write its array directly (no partial last vector). */
    static boolean exact(int n) {
        return n % S.length() == 0;
    }

    /** Moves {@code n} cells from the scratch row {@code t[to..]} to {@code a[i0..]}. */
    static void copy(float[] t, int to, float[] a, int i0, int n) {
        System.arraycopy(t, to, a, i0, n);
    }

    /**
     * First half of the interior stencil: {@code t[j] = c00·u + Σ_{k=1,2} ((cz_k(u+k·sz + u−k·sz) + cy_k(u+k·sy +
     * u−k·sy)) + cx_k(u+k + u−k))} at cell {@code i0 + j}.
     */
    static void interiorFirst(float[] u, float[] t, float[] coef, int i0, int n, int sz, int sy) {
        FloatVector c00 = FloatVector.broadcast(S, coef[C00]);
        FloatVector z1 = FloatVector.broadcast(S, coef[1]);
        FloatVector z2 = FloatVector.broadcast(S, coef[2]);
        FloatVector y1 = FloatVector.broadcast(S, coef[CY + 1]);
        FloatVector y2 = FloatVector.broadcast(S, coef[CY + 2]);
        FloatVector x1 = FloatVector.broadcast(S, coef[CX + 1]);
        FloatVector x2 = FloatVector.broadcast(S, coef[CX + 2]);
        int sz2 = 2 * sz;
        int sy2 = 2 * sy;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, u, i).mul(c00);
            s = s.add(FloatVector.fromArray(S, u, i + sz).add(FloatVector.fromArray(S, u,
                    i - sz)).mul(z1).add(FloatVector.fromArray(S, u, i + sy).add(FloatVector.fromArray(S, u,
                    i - sy)).mul(y1))
                    .add(FloatVector.fromArray(S, u, i + 1).add(FloatVector.fromArray(S, u, i - 1)).mul(x1)));
            s = s.add(FloatVector.fromArray(S, u, i + sz2).add(FloatVector.fromArray(S, u,
                    i - sz2)).mul(z2).add(FloatVector.fromArray(S, u, i + sy2).add(FloatVector.fromArray(S, u,
                    i - sy2)).mul(y2))
                    .add(FloatVector.fromArray(S, u, i + 2).add(FloatVector.fromArray(S, u, i - 2)).mul(x2)));
            s.intoArray(t, j);
        }
    }

    /**
     * Second half of the interior stencil and the leapfrog: {@code s = t + Σ_{k=3,4}(...)}, {@code un = (2u − un) +
     * v2·s}, the new value going to {@code dst[o + j]} (un itself when {@link #exact}, else a scratch row).
     */
    static void interiorLeap(float[] u, float[] un, float[] v2, float[] t, float[] coef, int i0, int n, int sz, int sy,
                             float[] dst, int o) {
        FloatVector z3 = FloatVector.broadcast(S, coef[3]);
        FloatVector z4 = FloatVector.broadcast(S, coef[4]);
        FloatVector y3 = FloatVector.broadcast(S, coef[CY + 3]);
        FloatVector y4 = FloatVector.broadcast(S, coef[CY + 4]);
        FloatVector x3 = FloatVector.broadcast(S, coef[CX + 3]);
        FloatVector x4 = FloatVector.broadcast(S, coef[CX + 4]);
        int sz3 = 3 * sz;
        int sz4 = 4 * sz;
        int sy3 = 3 * sy;
        int sy4 = 4 * sy;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, t, j);
            s = s.add(FloatVector.fromArray(S, u, i + sz3).add(FloatVector.fromArray(S, u,
                    i - sz3)).mul(z3).add(FloatVector.fromArray(S, u, i + sy3).add(FloatVector.fromArray(S, u,
                    i - sy3)).mul(y3))
                    .add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(x3)));
            s = s.add(FloatVector.fromArray(S, u, i + sz4).add(FloatVector.fromArray(S, u,
                    i - sz4)).mul(z4).add(FloatVector.fromArray(S, u, i + sy4).add(FloatVector.fromArray(S, u,
                    i - sy4)).mul(y4))
                    .add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(x4)));
            FloatVector.fromArray(S, u, i).mul(2.0f).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S,
                    v2, i).mul(s)).intoArray(dst, o + j);
        }
    }

    /**
     * One axis of the PML stencil: {@code t[to + j] = c_0·u + Σ_{k=1..4} c_k(u+k·st + u−k·st)} (weights at
     * {@code coef[cb..cb+4]}), added in the order of {@link AcousticKernels3D#pml}.
     */
    static void second(float[] u, float[] t, int to, float[] coef, int cb, int i0, int n, int st) {
        FloatVector c0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector c1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[cb + 4]);
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, u, i).mul(c0);
            s = s.add(FloatVector.fromArray(S, u, i + st).add(FloatVector.fromArray(S, u, i - st)).mul(c1));
            s = s.add(FloatVector.fromArray(S, u, i + st2).add(FloatVector.fromArray(S, u, i - st2)).mul(c2));
            s = s.add(FloatVector.fromArray(S, u, i + st3).add(FloatVector.fromArray(S, u, i - st3)).mul(c3));
            s = s.add(FloatVector.fromArray(S, u, i + st4).add(FloatVector.fromArray(S, u, i - st4)).mul(c4));
            s.intoArray(t, to + j);
        }
    }

    /**
     * CPML terms of a band axis with row-constant profile (a, b), psi and zeta of the axis at {@code p0 + j}:
     * {@code s = t + Σ_k d_k(psi+k·st − psi−k·st)}, {@code zeta' = a·zeta + b·s} (to {@code zd[zo + j]}: zeta itself
     * when {@link #exact}, else a scratch row), {@code t = s + zeta'}.
     */
    static void band(float[] psi, float[] zeta, int p0, float[] t, int to, float[] coef, int db, int st, float a,
                     float b, int n, float[] zd, int zo) {
        FloatVector d1 = FloatVector.broadcast(S, coef[db]);
        FloatVector d2 = FloatVector.broadcast(S, coef[db + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[db + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[db + 3]);
        FloatVector va = FloatVector.broadcast(S, a);
        FloatVector vb = FloatVector.broadcast(S, b);
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = p0 + j;
            FloatVector s = FloatVector.fromArray(S, t, to + j);
            s = s.add(FloatVector.fromArray(S, psi, i + st).sub(FloatVector.fromArray(S, psi, i - st)).mul(d1));
            s = s.add(FloatVector.fromArray(S, psi, i + st2).sub(FloatVector.fromArray(S, psi, i - st2)).mul(d2));
            s = s.add(FloatVector.fromArray(S, psi, i + st3).sub(FloatVector.fromArray(S, psi, i - st3)).mul(d3));
            s = s.add(FloatVector.fromArray(S, psi, i + st4).sub(FloatVector.fromArray(S, psi, i - st4)).mul(d4));
            FloatVector ze = FloatVector.fromArray(S, zeta, i).mul(va).add(s.mul(vb));
            ze.intoArray(zd, zo + j);
            s.add(ze).intoArray(t, to + j);
        }
    }

    /** {@link #band} for the x axis: profile per cell at {@code prof[pa + j]}, {@code prof[pb + j]}. */
    static void bandX(float[] psi, float[] zeta, int p0, float[] t, int to, float[] coef, float[] prof, int pa, int pb,
                      int n, float[] zd, int zo) {
        FloatVector d1 = FloatVector.broadcast(S, coef[DX]);
        FloatVector d2 = FloatVector.broadcast(S, coef[DX + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[DX + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[DX + 3]);
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = p0 + j;
            FloatVector s = FloatVector.fromArray(S, t, to + j);
            s = s.add(FloatVector.fromArray(S, psi, i + 1).sub(FloatVector.fromArray(S, psi, i - 1)).mul(d1));
            s = s.add(FloatVector.fromArray(S, psi, i + 2).sub(FloatVector.fromArray(S, psi, i - 2)).mul(d2));
            s = s.add(FloatVector.fromArray(S, psi, i + 3).sub(FloatVector.fromArray(S, psi, i - 3)).mul(d3));
            s = s.add(FloatVector.fromArray(S, psi, i + 4).sub(FloatVector.fromArray(S, psi, i - 4)).mul(d4));
            FloatVector ze = FloatVector.fromArray(S, zeta, i).mul(FloatVector.fromArray(S, prof, pa
                    + j)).add(s.mul(FloatVector.fromArray(S, prof, pb + j)));
            ze.intoArray(zd, zo + j);
            s.add(ze).intoArray(t, to + j);
        }
    }

    /**
     * The leapfrog of a PML row segment: {@code un = (2u − un) + v2·((tz + ty) + tx)}, tz, ty, tx at {@code t[0..]},
     * {@code t[w..]}, {@code t[2w..]}; the new value to {@code dst[o + j]}.
     */
    static void finish(float[] u, float[] un, float[] v2, float[] t, int w, int i0, int n, float[] dst, int o) {
        int vl = S.length();
        int w2 = 2 * w;
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector s = FloatVector.fromArray(S, t, j).add(FloatVector.fromArray(S, t, w
                    + j)).add(FloatVector.fromArray(S, t, w2 + j));
            FloatVector.fromArray(S, u, i).mul(2.0f).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S,
                    v2, i).mul(s)).intoArray(dst, o + j);
        }
    }

    /**
     * psi update of an axis with row-constant profile (a, b) along stride {@code st}: {@code d = 0 + Σ_k
     * d_k(u+k·st − u−k·st)}, {@code psi = a·psi + b·d}, psi of the axis at {@code p0 + j}; the new value to
     * {@code dst[o + j]}.
     */
    static void psiRow(float[] u, float[] psi, int p0, float[] coef, int db, int st, float a, float b, int i0, int n,
                       float[] dst, int o) {
        FloatVector d1 = FloatVector.broadcast(S, coef[db]);
        FloatVector d2 = FloatVector.broadcast(S, coef[db + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[db + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[db + 3]);
        FloatVector va = FloatVector.broadcast(S, a);
        FloatVector vb = FloatVector.broadcast(S, b);
        FloatVector zero = FloatVector.zero(S);
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector d = zero.add(FloatVector.fromArray(S, u, i + st).sub(FloatVector.fromArray(S, u,
                    i - st)).mul(d1));
            d = d.add(FloatVector.fromArray(S, u, i + st2).sub(FloatVector.fromArray(S, u, i - st2)).mul(d2));
            d = d.add(FloatVector.fromArray(S, u, i + st3).sub(FloatVector.fromArray(S, u, i - st3)).mul(d3));
            d = d.add(FloatVector.fromArray(S, u, i + st4).sub(FloatVector.fromArray(S, u, i - st4)).mul(d4));
            FloatVector.fromArray(S, psi, p0 + j).mul(va).add(d.mul(vb)).intoArray(dst, o + j);
        }
    }

    /** {@link #psiRow} for the x axis: profile per cell at {@code prof[pa + j]}, {@code prof[pb + j]}. */
    static void psiRowX(float[] u, float[] psi, int p0, float[] coef, float[] prof, int pa, int pb, int i0, int n,
                        float[] dst, int o) {
        FloatVector d1 = FloatVector.broadcast(S, coef[DX]);
        FloatVector d2 = FloatVector.broadcast(S, coef[DX + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[DX + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[DX + 3]);
        FloatVector zero = FloatVector.zero(S);
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector d = zero.add(FloatVector.fromArray(S, u, i + 1).sub(FloatVector.fromArray(S, u,
                    i - 1)).mul(d1));
            d = d.add(FloatVector.fromArray(S, u, i + 2).sub(FloatVector.fromArray(S, u, i - 2)).mul(d2));
            d = d.add(FloatVector.fromArray(S, u, i + 3).sub(FloatVector.fromArray(S, u, i - 3)).mul(d3));
            d = d.add(FloatVector.fromArray(S, u, i + 4).sub(FloatVector.fromArray(S, u, i - 4)).mul(d4));
            FloatVector.fromArray(S, psi, p0 + j).mul(FloatVector.fromArray(S, prof, pa
                    + j)).add(d.mul(FloatVector.fromArray(S, prof, pb + j))).intoArray(dst, o + j);
        }
    }

    /**
     * The whole PML term of one band axis with row-constant profile (a, b): {@code s = c_0·u + Σ_k c_k(u+k·st +
     * u−k·st)} (weights at {@code coef[cb..cb+4]}), then {@code s += Σ_k d_k(psi+k·st − psi−k·st)} (at
     * {@code coef[db..db+3]}), {@code zeta' = a·zeta + b·s} (to {@code zd[zo + j]}), {@code t[to + j] = s + zeta'};
     * psi and zeta of the axis at {@code p0 + j}. The same operations as {@link #second} then {@link #band}.
     */
    static void axisBand(float[] u, float[] psi, float[] zeta, int p0, float[] t, int to, float[] coef, int cb, int db,
                         int st, float a, float b, int i0, int n, float[] zd, int zo) {
        FloatVector c0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector c1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[cb + 4]);
        FloatVector d1 = FloatVector.broadcast(S, coef[db]);
        FloatVector d2 = FloatVector.broadcast(S, coef[db + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[db + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[db + 3]);
        FloatVector va = FloatVector.broadcast(S, a);
        FloatVector vb = FloatVector.broadcast(S, b);
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        int dp = p0 - i0;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            int q = i + dp;
            FloatVector s = FloatVector.fromArray(S, u, i).mul(c0);
            s = s.add(FloatVector.fromArray(S, u, i + st).add(FloatVector.fromArray(S, u, i - st)).mul(c1));
            s = s.add(FloatVector.fromArray(S, u, i + st2).add(FloatVector.fromArray(S, u, i - st2)).mul(c2));
            s = s.add(FloatVector.fromArray(S, u, i + st3).add(FloatVector.fromArray(S, u, i - st3)).mul(c3));
            s = s.add(FloatVector.fromArray(S, u, i + st4).add(FloatVector.fromArray(S, u, i - st4)).mul(c4));
            s = s.add(FloatVector.fromArray(S, psi, q + st).sub(FloatVector.fromArray(S, psi, q - st)).mul(d1));
            s = s.add(FloatVector.fromArray(S, psi, q + st2).sub(FloatVector.fromArray(S, psi, q - st2)).mul(d2));
            s = s.add(FloatVector.fromArray(S, psi, q + st3).sub(FloatVector.fromArray(S, psi, q - st3)).mul(d3));
            s = s.add(FloatVector.fromArray(S, psi, q + st4).sub(FloatVector.fromArray(S, psi, q - st4)).mul(d4));
            FloatVector ze = FloatVector.fromArray(S, zeta, q).mul(va).add(s.mul(vb));
            ze.intoArray(zd, zo + j);
            s.add(ze).intoArray(t, to + j);
        }
    }

    /** {@link #axisBand} for the x axis: profile per cell at {@code prof[pa + j]}, {@code prof[pb + j]}. */
    static void axisBandX(float[] u, float[] psi, float[] zeta, int p0, float[] t, int to, float[] coef, float[] prof,
                          int pa, int pb, int i0, int n, float[] zd, int zo) {
        FloatVector c0 = FloatVector.broadcast(S, coef[CX]);
        FloatVector c1 = FloatVector.broadcast(S, coef[CX + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[CX + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[CX + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[CX + 4]);
        FloatVector d1 = FloatVector.broadcast(S, coef[DX]);
        FloatVector d2 = FloatVector.broadcast(S, coef[DX + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[DX + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[DX + 3]);
        int dp = p0 - i0;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            int q = i + dp;
            FloatVector s = FloatVector.fromArray(S, u, i).mul(c0);
            s = s.add(FloatVector.fromArray(S, u, i + 1).add(FloatVector.fromArray(S, u, i - 1)).mul(c1));
            s = s.add(FloatVector.fromArray(S, u, i + 2).add(FloatVector.fromArray(S, u, i - 2)).mul(c2));
            s = s.add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(c3));
            s = s.add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(c4));
            s = s.add(FloatVector.fromArray(S, psi, q + 1).sub(FloatVector.fromArray(S, psi, q - 1)).mul(d1));
            s = s.add(FloatVector.fromArray(S, psi, q + 2).sub(FloatVector.fromArray(S, psi, q - 2)).mul(d2));
            s = s.add(FloatVector.fromArray(S, psi, q + 3).sub(FloatVector.fromArray(S, psi, q - 3)).mul(d3));
            s = s.add(FloatVector.fromArray(S, psi, q + 4).sub(FloatVector.fromArray(S, psi, q - 4)).mul(d4));
            FloatVector ze = FloatVector.fromArray(S, zeta, q).mul(FloatVector.fromArray(S, prof, pa + j))
                    .add(s.mul(FloatVector.fromArray(S, prof, pb + j)));
            ze.intoArray(zd, zo + j);
            s.add(ze).intoArray(t, to + j);
        }
    }

    /**
     * The leapfrog of a PML row segment whose one band axis has its term in {@code t[to..]} (from {@link #axisBand}):
     * the two other axes' sums {@code c_0·u + Σ_k c_k(...)} along strides {@code sa} and {@code sb} (weights at
     * {@code coef[ca..]}, {@code coef[cb..]}), combined as {@code (tz + ty) + tx} with the band axis at position
     * {@code slot} (0 = z, 1 = y, 2 = x; the other two in axis order), then {@code un = (2u − un) + v2·sum} to
     * {@code dst[o + j]}.
     */
    static void leapOne(float[] u, float[] un, float[] v2, float[] t, int to, float[] coef, int ca, int sa, int cb,
                        int sb, int slot, int i0, int n, float[] dst, int o) {
        FloatVector a0 = FloatVector.broadcast(S, coef[ca]);
        FloatVector a1 = FloatVector.broadcast(S, coef[ca + 1]);
        FloatVector a2 = FloatVector.broadcast(S, coef[ca + 2]);
        FloatVector a3 = FloatVector.broadcast(S, coef[ca + 3]);
        FloatVector a4 = FloatVector.broadcast(S, coef[ca + 4]);
        FloatVector b0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector b1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector b2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector b3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector b4 = FloatVector.broadcast(S, coef[cb + 4]);
        int sa2 = 2 * sa;
        int sa3 = 3 * sa;
        int sa4 = 4 * sa;
        int sb2 = 2 * sb;
        int sb3 = 3 * sb;
        int sb4 = 4 * sb;
        int vl = S.length();
        for (int j = 0; j < n; j += vl) {
            int i = i0 + j;
            FloatVector uc = FloatVector.fromArray(S, u, i);
            FloatVector p = uc.mul(a0);
            p = p.add(FloatVector.fromArray(S, u, i + sa).add(FloatVector.fromArray(S, u, i - sa)).mul(a1));
            p = p.add(FloatVector.fromArray(S, u, i + sa2).add(FloatVector.fromArray(S, u, i - sa2)).mul(a2));
            p = p.add(FloatVector.fromArray(S, u, i + sa3).add(FloatVector.fromArray(S, u, i - sa3)).mul(a3));
            p = p.add(FloatVector.fromArray(S, u, i + sa4).add(FloatVector.fromArray(S, u, i - sa4)).mul(a4));
            FloatVector q = uc.mul(b0);
            q = q.add(FloatVector.fromArray(S, u, i + sb).add(FloatVector.fromArray(S, u, i - sb)).mul(b1));
            q = q.add(FloatVector.fromArray(S, u, i + sb2).add(FloatVector.fromArray(S, u, i - sb2)).mul(b2));
            q = q.add(FloatVector.fromArray(S, u, i + sb3).add(FloatVector.fromArray(S, u, i - sb3)).mul(b3));
            q = q.add(FloatVector.fromArray(S, u, i + sb4).add(FloatVector.fromArray(S, u, i - sb4)).mul(b4));
            FloatVector w = FloatVector.fromArray(S, t, to + j);
            FloatVector sum = slot == 0 ? w.add(p).add(q) : slot == 1 ? p.add(w).add(q) : p.add(q).add(w);
            uc.mul(2.0f).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S, v2, i).mul(sum))
                    .intoArray(dst, o + j);
        }
    }

    // ---- column passes: a narrow segment [0, n) (n at least one vector) of R rows, row stride sy, cell (r, c) at
    // i0 + r·sy + c; vectors run down the columns c = 0, vl, ..., n − vl (the last one overlapping the one before
    // when n is not a multiple of vl). Each pass reads only state arrays and writes a scratch block b[r·n + c], so
    // overlapping columns write the same values; {@link #scatter} then moves a block into its state array.

    /** The column after {@code c} in a segment of n cells, or −1 after the last (which ends at n). */
    static int nextColumn(int c, int n) {
        int vl = S.length();
        if (c >= n - vl) {
            return -1;
        }
        return Math.min(c + vl, n - vl);
    }

    /** {@link #second} over a column block: {@code b[bo + r·n + c] = c_0·u + Σ_k c_k(u+k·st + u−k·st)}. */
    static void secondCols(float[] u, float[] b, int bo, float[] coef, int cb, int st, int i0, int sy, int rows,
                           int n) {
        FloatVector c0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector c1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[cb + 4]);
        int st2 = 2 * st;
        int st3 = 3 * st;
        int st4 = 4 * st;
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            int oc = bo + c;
            for (int r = 0; r < rows; r++) {
                int i = ic + r * sy;
                FloatVector s = FloatVector.fromArray(S, u, i).mul(c0);
                s = s.add(FloatVector.fromArray(S, u, i + st).add(FloatVector.fromArray(S, u, i - st)).mul(c1));
                s = s.add(FloatVector.fromArray(S, u, i + st2).add(FloatVector.fromArray(S, u, i - st2)).mul(c2));
                s = s.add(FloatVector.fromArray(S, u, i + st3).add(FloatVector.fromArray(S, u, i - st3)).mul(c3));
                s = s.add(FloatVector.fromArray(S, u, i + st4).add(FloatVector.fromArray(S, u, i - st4)).mul(c4));
                s.intoArray(b, oc + r * n);
            }
        }
    }

    /**
     * {@link #axisBand} over a column block, for the z or y axis: profile {@code (prof[pa + r·ps], prof[pb + r·ps])}
     * (ps = 0: one profile for the block; 1: one per row); zeta' to {@code zb[zo + r·n + c]}, the axis term to
     * {@code b[bo + r·n + c]}; psi and zeta of the axis at {@code p0 + r·sy + c}.
     */
    static void axisBandCols(float[] u, float[] psi, float[] zeta, int p0, float[] b, int bo, float[] zb, int zo,
                             float[] coef, int cb, int db, int st, float[] prof, int pa, int pb, int ps, int i0, int sy,
                             int rows, int n) {
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
        int dp = p0 - i0;
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            for (int r = 0; r < rows; r++) {
                int i = ic + r * sy;
                int q = i + dp;
                FloatVector s = FloatVector.fromArray(S, u, i).mul(c0);
                s = s.add(FloatVector.fromArray(S, u, i + st).add(FloatVector.fromArray(S, u, i - st)).mul(c1));
                s = s.add(FloatVector.fromArray(S, u, i + st2).add(FloatVector.fromArray(S, u, i - st2)).mul(c2));
                s = s.add(FloatVector.fromArray(S, u, i + st3).add(FloatVector.fromArray(S, u, i - st3)).mul(c3));
                s = s.add(FloatVector.fromArray(S, u, i + st4).add(FloatVector.fromArray(S, u, i - st4)).mul(c4));
                s = s.add(FloatVector.fromArray(S, psi, q + st).sub(FloatVector.fromArray(S, psi, q - st)).mul(d1));
                s = s.add(FloatVector.fromArray(S, psi, q + st2).sub(FloatVector.fromArray(S, psi, q - st2)).mul(d2));
                s = s.add(FloatVector.fromArray(S, psi, q + st3).sub(FloatVector.fromArray(S, psi, q - st3)).mul(d3));
                s = s.add(FloatVector.fromArray(S, psi, q + st4).sub(FloatVector.fromArray(S, psi, q - st4)).mul(d4));
                int pr = r * ps;
                FloatVector ze = FloatVector.fromArray(S, zeta, q).mul(prof[pa + pr]).add(s.mul(prof[pb + pr]));
                int o = c + r * n;
                ze.intoArray(zb, zo + o);
                s.add(ze).intoArray(b, bo + o);
            }
        }
    }

    /**
     * {@link #axisBandX} over a column block (x profile per cell at {@code prof[pa + c]}, {@code prof[pb + c]}); psi
     * and zeta of the x axis at {@code p0 + r·psy + c}.
     */
    static void axisBandXCols(float[] u, float[] psi, float[] zeta, int p0, int psy, float[] b, int bo, float[] zb,
                              int zo, float[] coef, float[] prof, int pa, int pb, int i0, int sy, int rows, int n) {
        FloatVector c0 = FloatVector.broadcast(S, coef[CX]);
        FloatVector c1 = FloatVector.broadcast(S, coef[CX + 1]);
        FloatVector c2 = FloatVector.broadcast(S, coef[CX + 2]);
        FloatVector c3 = FloatVector.broadcast(S, coef[CX + 3]);
        FloatVector c4 = FloatVector.broadcast(S, coef[CX + 4]);
        FloatVector d1 = FloatVector.broadcast(S, coef[DX]);
        FloatVector d2 = FloatVector.broadcast(S, coef[DX + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[DX + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[DX + 3]);
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            FloatVector va = FloatVector.fromArray(S, prof, pa + c);
            FloatVector vb = FloatVector.fromArray(S, prof, pb + c);
            for (int r = 0; r < rows; r++) {
                int i = ic + r * sy;
                int q = p0 + c + r * psy;
                FloatVector s = FloatVector.fromArray(S, u, i).mul(c0);
                s = s.add(FloatVector.fromArray(S, u, i + 1).add(FloatVector.fromArray(S, u, i - 1)).mul(c1));
                s = s.add(FloatVector.fromArray(S, u, i + 2).add(FloatVector.fromArray(S, u, i - 2)).mul(c2));
                s = s.add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(c3));
                s = s.add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(c4));
                s = s.add(FloatVector.fromArray(S, psi, q + 1).sub(FloatVector.fromArray(S, psi, q - 1)).mul(d1));
                s = s.add(FloatVector.fromArray(S, psi, q + 2).sub(FloatVector.fromArray(S, psi, q - 2)).mul(d2));
                s = s.add(FloatVector.fromArray(S, psi, q + 3).sub(FloatVector.fromArray(S, psi, q - 3)).mul(d3));
                s = s.add(FloatVector.fromArray(S, psi, q + 4).sub(FloatVector.fromArray(S, psi, q - 4)).mul(d4));
                FloatVector ze = FloatVector.fromArray(S, zeta, q).mul(va).add(s.mul(vb));
                int o = c + r * n;
                ze.intoArray(zb, zo + o);
                s.add(ze).intoArray(b, bo + o);
            }
        }
    }

    /** {@link #finish} over a column block: tz, ty, tx at {@code b[t0..]}, {@code b[t1..]}, {@code b[t2..]}. */
    static void finishCols(float[] u, float[] un, float[] v2, float[] b, int t0, int t1, int t2, float[] ub, int uo,
                           int i0, int sy, int rows, int n) {
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            for (int r = 0; r < rows; r++) {
                int i = ic + r * sy;
                int o = c + r * n;
                FloatVector s = FloatVector.fromArray(S, b, t0 + o).add(FloatVector.fromArray(S, b, t1 + o))
                        .add(FloatVector.fromArray(S, b, t2 + o));
                FloatVector.fromArray(S, u, i).mul(2.0f).sub(FloatVector.fromArray(S, un, i))
                        .add(FloatVector.fromArray(S, v2, i).mul(s)).intoArray(ub, uo + o);
            }
        }
    }

    /** {@link #psiRowX} over a column block (psi at {@code p0 + r·psy + c}): psi' to {@code b[bo + r·n + c]}. */
    static void psiXCols(float[] u, float[] psi, int p0, int psy, float[] b, int bo, float[] coef, float[] prof, int pa,
                         int pb, int i0, int sy, int rows, int n) {
        FloatVector d1 = FloatVector.broadcast(S, coef[DX]);
        FloatVector d2 = FloatVector.broadcast(S, coef[DX + 1]);
        FloatVector d3 = FloatVector.broadcast(S, coef[DX + 2]);
        FloatVector d4 = FloatVector.broadcast(S, coef[DX + 3]);
        FloatVector zero = FloatVector.zero(S);
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            FloatVector va = FloatVector.fromArray(S, prof, pa + c);
            FloatVector vb = FloatVector.fromArray(S, prof, pb + c);
            for (int r = 0; r < rows; r++) {
                int i = ic + r * sy;
                FloatVector d = zero.add(FloatVector.fromArray(S, u, i + 1).sub(FloatVector.fromArray(S, u, i - 1))
                        .mul(d1));
                d = d.add(FloatVector.fromArray(S, u, i + 2).sub(FloatVector.fromArray(S, u, i - 2)).mul(d2));
                d = d.add(FloatVector.fromArray(S, u, i + 3).sub(FloatVector.fromArray(S, u, i - 3)).mul(d3));
                d = d.add(FloatVector.fromArray(S, u, i + 4).sub(FloatVector.fromArray(S, u, i - 4)).mul(d4));
                FloatVector.fromArray(S, psi, p0 + c + r * psy).mul(va).add(d.mul(vb)).intoArray(b, bo + c + r * n);
            }
        }
    }

    /**
     * {@link #leapOne} in column passes: the band axis's term from block {@code b[to + c + r·n]}, the other two axes'
     * sums along strides {@code sa} and {@code sb}, the leapfrog into block {@code ub[uo + c + r·n]} (the same
     * operations as {@link #secondCols} twice and {@link #finishCols}).
     */
    static void leapOneCols(float[] u, float[] un, float[] v2, float[] b, int to, float[] coef, int ca, int sa, int cb,
                            int sb, int slot, int i0, int sy, int rows, int n, float[] ub, int uo) {
        FloatVector a0 = FloatVector.broadcast(S, coef[ca]);
        FloatVector a1 = FloatVector.broadcast(S, coef[ca + 1]);
        FloatVector a2 = FloatVector.broadcast(S, coef[ca + 2]);
        FloatVector a3 = FloatVector.broadcast(S, coef[ca + 3]);
        FloatVector a4 = FloatVector.broadcast(S, coef[ca + 4]);
        FloatVector b0 = FloatVector.broadcast(S, coef[cb]);
        FloatVector b1 = FloatVector.broadcast(S, coef[cb + 1]);
        FloatVector b2 = FloatVector.broadcast(S, coef[cb + 2]);
        FloatVector b3 = FloatVector.broadcast(S, coef[cb + 3]);
        FloatVector b4 = FloatVector.broadcast(S, coef[cb + 4]);
        int sa2 = 2 * sa;
        int sa3 = 3 * sa;
        int sa4 = 4 * sa;
        int sb2 = 2 * sb;
        int sb3 = 3 * sb;
        int sb4 = 4 * sb;
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            for (int r = 0; r < rows; r++) {
                int i = ic + r * sy;
                int o = c + r * n;
                FloatVector uc = FloatVector.fromArray(S, u, i);
                FloatVector p = uc.mul(a0);
                p = p.add(FloatVector.fromArray(S, u, i + sa).add(FloatVector.fromArray(S, u, i - sa)).mul(a1));
                p = p.add(FloatVector.fromArray(S, u, i + sa2).add(FloatVector.fromArray(S, u, i - sa2)).mul(a2));
                p = p.add(FloatVector.fromArray(S, u, i + sa3).add(FloatVector.fromArray(S, u, i - sa3)).mul(a3));
                p = p.add(FloatVector.fromArray(S, u, i + sa4).add(FloatVector.fromArray(S, u, i - sa4)).mul(a4));
                FloatVector q = uc.mul(b0);
                q = q.add(FloatVector.fromArray(S, u, i + sb).add(FloatVector.fromArray(S, u, i - sb)).mul(b1));
                q = q.add(FloatVector.fromArray(S, u, i + sb2).add(FloatVector.fromArray(S, u, i - sb2)).mul(b2));
                q = q.add(FloatVector.fromArray(S, u, i + sb3).add(FloatVector.fromArray(S, u, i - sb3)).mul(b3));
                q = q.add(FloatVector.fromArray(S, u, i + sb4).add(FloatVector.fromArray(S, u, i - sb4)).mul(b4));
                FloatVector w = FloatVector.fromArray(S, b, to + o);
                FloatVector sum = slot == 0 ? w.add(p).add(q) : slot == 1 ? p.add(w).add(q) : p.add(q).add(w);
                uc.mul(2.0f).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S, v2, i).mul(sum))
                        .intoArray(ub, uo + o);
            }
        }
    }

    /** Moves a column block {@code b[bo + r·n + c]} into {@code a[i0 + r·sy + c]}, c in [0, n). */
    static void scatter(float[] b, int bo, float[] a, int i0, int sy, int rows, int n) {
        for (int c = 0; c >= 0; c = nextColumn(c, n)) {
            int ic = i0 + c;
            int oc = bo + c;
            for (int r = 0; r < rows; r++) {
                FloatVector.fromArray(S, b, oc + r * n).intoArray(a, ic + r * sy);
            }
        }
    }
}
