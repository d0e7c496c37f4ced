package sweep.acoustic;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 2-D kernels of {@link AcousticKernels2D} for the Java backend: the same arguments
 * and, per cell, exactly the same sequence of float operations (no fused multiply-add), vectorised across x with the
 * Vector API and with the PML band tests hoisted out of the cell loop (per row for z, per row segment for x). Row tails
 * shorter than a vector are delegated to the portable kernels. Results are bit-identical to {@link AcousticKernels2D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class AcousticVectorKernels2D {
    private AcousticVectorKernels2D() {
    }

    private static final VectorSpecies<Float> S = CpuSpecies.S;

    /**
     * Same as {@link AcousticKernels2D#interior}. Rows go in pairs (z, z+1) through one vector loop (two independent
     * sums per iteration, which beat the one-row loop in cache and from memory alike; four rows per iteration made C2
     * box the vectors); an odd last row goes alone. A row at least one vector long whose length is not a multiple of
     * the vector length ends with a vector overlapping the one before, computed from the old values just before that
     * one and parked in {@code scratch} (two vectors), then stored after it: overlapped cells receive the same values
     * again. The tail comes last, not first, so that the row's streams run forwards from its start
     * (docs/performance.md, row tails).
     */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int x0, int x1, float[] scratch) {
        int z = z0;
        float acc = 0f;
        for (; z + 1 < z1; z += 2) {
            if (ROW_START_LINES > 0 && z + 3 < z1) {
                acc += touchPair(u, un, v2, geo, z + 2, x0, x1 - x0);
            }
            interiorPair(u, un, v2, coef, geo, z, x0, x1, scratch);
        }
        AcousticVectorKernels3D.sink = acc;
        if (z < z1) {
            interiorRow(u, un, v2, coef, geo, z, x0, x1, scratch);
        }
    }

    /** Rows z and z+1 of {@link #interior}. */
    private static void interiorPair(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z, int x0,
                                     int x1, float[] t) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int row = geo[Layout.OFF0] + z * sz;
        int vl = S.length();
        int n = x1 - x0;
        if (n < vl) {
            AcousticKernels2D.interior(u, un, v2, coef, geo, z, z + 2, x0, x1);
            return;
        }
        int last = n - vl;
        boolean tail = n % vl != 0;
        int full = x0 + (n / vl) * vl;
        int end = tail ? full - vl : full;
        int d = 16 * LINES_AHEAD;
        float acc = 0f;
        if (h == 4) {
            acc = pairs8(u, un, v2, coef, sz, row + x0, row + end, row + x1 - d, d);
        } else {
            for (int x = x0; x < end; x += vl) {
                int i = row + x;
                if (d > 0 && x + d < x1) {
                    // one line of each of the pair's six streams, LINES_AHEAD lines ahead: see LINES_AHEAD
                    int j = i + d;
                    acc += un[j] + un[j + sz] + v2[j] + v2[j + sz] + u[j + h * sz] + u[j + (h + 1) * sz];
                }
                cellPair(u, un, v2, coef, h, sz, cx, c00, i, un, i, i + sz);
            }
        }
        AcousticVectorKernels3D.sink = acc;
        if (tail) {
            int i = row + x0 + last;
            cellPair(u, un, v2, coef, h, sz, cx, c00, i, t, 0, vl);
            cellPair(u, un, v2, coef, h, sz, cx, c00, row + end, un, row + end, row + end + sz);
            ld(t, 0).intoArray(un, i);
            ld(t, vl).intoArray(un, i + sz);
        }
    }

    /**
     * The whole vectors [i0, i1) of a row pair of {@link #interiorPair} at order 8 ({@link #cellPair} with the loop
     * over k written out and the weights broadcast once: the same operations in the same order), with its read-ahead
     * while i < {@code ahead} ({@code d} floats ahead, none when d is 0); returns the sum of the floats read ahead.
     * The loop runs over the cell index i and every index is i plus or minus one loop invariant, the form in which C2
     * takes the vector bounds checks out of the loop; the loads call {@code FloatVector.fromArray} directly, since
     * past about 18000 nodes C2 inlines only the methods marked force-inline (see {@link #bornRow8}).
     */
    private static float pairs8(float[] u, float[] un, float[] v2, float[] coef, int sz, int i0, int i1, int ahead,
                                int d) {
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
        int s5 = 5 * sz;
        int dz = d + sz;
        int d4 = d + s4;
        int d5 = d + s5;
        float acc = 0f;
        int vl = S.length();
        for (int i = i0; i < i1; i += vl) {
            if (d > 0 && i < ahead) {
                // one line of each of the pair's six streams, LINES_AHEAD lines ahead: see LINES_AHEAD
                acc += un[i + d] + un[i + dz] + v2[i + d] + v2[i + dz] + u[i + d4] + u[i + d5];
            }
            FloatVector c = FloatVector.fromArray(S, u, i);
            FloatVector c2 = FloatVector.fromArray(S, u, i + sz);
            FloatVector s = c.mul(w0);
            FloatVector t = c2.mul(w0);
            s = s.add(c2.add(FloatVector.fromArray(S, u, i - sz)).mul(z1)
                    .add(FloatVector.fromArray(S, u, i + 1).add(FloatVector.fromArray(S, u, i - 1)).mul(x1)));
            t = t.add(FloatVector.fromArray(S, u, i + s2).add(c).mul(z1)
                    .add(FloatVector.fromArray(S, u, i + (sz + 1)).add(FloatVector.fromArray(S, u, i + (sz - 1)))
                            .mul(x1)));
            s = s.add(FloatVector.fromArray(S, u, i + s2).add(FloatVector.fromArray(S, u, i - s2)).mul(z2)
                    .add(FloatVector.fromArray(S, u, i + 2).add(FloatVector.fromArray(S, u, i - 2)).mul(x2)));
            t = t.add(FloatVector.fromArray(S, u, i + s3).add(FloatVector.fromArray(S, u, i - sz)).mul(z2)
                    .add(FloatVector.fromArray(S, u, i + (sz + 2)).add(FloatVector.fromArray(S, u, i + (sz - 2)))
                            .mul(x2)));
            s = s.add(FloatVector.fromArray(S, u, i + s3).add(FloatVector.fromArray(S, u, i - s3)).mul(z3)
                    .add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(x3)));
            t = t.add(FloatVector.fromArray(S, u, i + s4).add(FloatVector.fromArray(S, u, i - s2)).mul(z3)
                    .add(FloatVector.fromArray(S, u, i + (sz + 3)).add(FloatVector.fromArray(S, u, i + (sz - 3)))
                            .mul(x3)));
            s = s.add(FloatVector.fromArray(S, u, i + s4).add(FloatVector.fromArray(S, u, i - s4)).mul(z4)
                    .add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(x4)));
            t = t.add(FloatVector.fromArray(S, u, i + s5).add(FloatVector.fromArray(S, u, i - s3)).mul(z4)
                    .add(FloatVector.fromArray(S, u, i + (sz + 4)).add(FloatVector.fromArray(S, u, i + (sz - 4)))
                            .mul(x4)));
            c.mul(two).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S, v2, i).mul(s))
                    .intoArray(un, i);
            c2.mul(two).sub(FloatVector.fromArray(S, un, i + sz)).add(FloatVector.fromArray(S, v2, i + sz).mul(t))
                    .intoArray(un, i + sz);
        }
        return acc;
    }

    /**
     * One vector of rows z and z+1 at cell {@code i} (row z) and {@code i + sz} (row z+1): the leapfrog values go to
     * {@code d[o]} and {@code d[o2]}.
     */
    private static void cellPair(float[] u, float[] un, float[] v2, float[] coef, int h, int sz, int cx, float c00,
                                 int i, float[] d, int o, int o2) {
        int i2 = i + sz;
        FloatVector uc = ld(u, i);
        FloatVector uc2 = ld(u, i2);
        FloatVector s = uc.mul(c00);
        FloatVector s2 = uc2.mul(c00);
        for (int k = 1; k <= h; k++) {
            int o0 = k * sz;
            float cz = coef[k];
            float ck = coef[cx + k];
            FloatVector tz = ld(u, i + o0).add(ld(u, i - o0)).mul(cz);
            FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(ck);
            s = s.add(tz.add(tx));
            FloatVector tz2 = ld(u, i2 + o0).add(ld(u, i2 - o0)).mul(cz);
            FloatVector tx2 = ld(u, i2 + k).add(ld(u, i2 - k)).mul(ck);
            s2 = s2.add(tz2.add(tx2));
        }
        uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s)).intoArray(d, o);
        uc2.mul(2.0f).sub(ld(un, i2)).add(ld(v2, i2).mul(s2)).intoArray(d, o2);
    }

    /**
     * Same as {@link AcousticKernels2D#bornInterior}: per row, whole vectors from x0, the tail shorter than a vector
     * through the portable kernel (each cell reads only its own un and uns, so the vectors may write in place).
     * {@code scratch}: at least x1 − x0 floats, one per thread.
     */
    public static void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                    float[] coef, int[] geo, int z0, int z1, int x0, int x1, float[] scratch) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        int full = x0 + ((x1 - x0) / vl) * vl;
        if (h == 4) {
            bornInterior8(u, un, us, uns, v2, dv2, coef, geo, z0, z1, x0, full, scratch);
        } else {
            for (int z = z0; z < z1; z++) {
                int row = geo[Layout.OFF0] + z * sz;
                for (int x = x0; x < full; x += vl) {
                    int i = row + x;
                    FloatVector uc = ld(u, i);
                    FloatVector sc = ld(us, i);
                    FloatVector s = uc.mul(c00);
                    FloatVector ss = sc.mul(c00);
                    for (int k = 1; k <= h; k++) {
                        int o0 = k * sz;
                        float cz = coef[k];
                        float ck = coef[cx + k];
                        FloatVector tz = ld(u, i + o0).add(ld(u, i - o0)).mul(cz);
                        FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(ck);
                        s = s.add(tz.add(tx));
                        FloatVector tzs = ld(us, i + o0).add(ld(us, i - o0)).mul(cz);
                        FloatVector txs = ld(us, i + k).add(ld(us, i - k)).mul(ck);
                        ss = ss.add(tzs.add(txs));
                    }
                    FloatVector vv = ld(v2, i);
                    uc.mul(2.0f).sub(ld(un, i)).add(vv.mul(s)).intoArray(un, i);
                    sc.mul(2.0f).sub(ld(uns, i)).add(vv.mul(ss)).add(ld(dv2, i).mul(s)).intoArray(uns, i);
                }
            }
        }
        if (full < x1) {
            AcousticKernels2D.bornInterior(u, un, us, uns, v2, dv2, coef, geo, z0, z1, full, x1);
        }
    }

    /**
     * The whole vectors [x0, full) of every row of {@link #bornInterior} at order 8: per row the background, which
     * parks its stencil sums in a row of scratch, then the scattered field, which reads them for its secondary source;
     * the same operations in the same order as the general loop. Two passes beat one loop for both fields by a third
     * (the one loop spills registers, docs/performance.md).
     */
    private static void bornInterior8(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                      float[] coef, int[] geo, int z0, int z1, int x0, int full, float[] t) {
        int sz = geo[Layout.SZ];
        for (int z = z0; z < z1; z++) {
            int i0 = geo[Layout.OFF0] + z * sz + x0;
            int i1 = i0 + full - x0;
            bornRow8(u, un, v2, null, t, coef, sz, i0, i1);
            bornRow8(us, uns, v2, dv2, t, coef, sz, i0, i1);
        }
    }

    /**
     * One field of {@link #bornInterior8} on the cells [i0, i1) of a row: the background ({@code dv2} null), its
     * stencil sums into t from 0, or the scattered field, plus dv2 times the background's sums in t. The loop over k
     * is written out and the weights broadcast once (the product by a broadcast weight is the product by the weight).
     *
     * <p>Why it looks as it does (C2, JDK 17): the loop runs over the cell index i and every index is i plus or minus
     * one loop invariant, the form in which C2 takes the vector bounds checks out of the loop (offsets k·sz inside a
     * loop over k keep a check per load; a loop over k of constant trip count made C2 hoist checks that failed, and
     * it recompiled without them). The loads call {@code FloatVector.fromArray} directly: past about 18000 nodes C2
     * inlines only the methods marked force-inline, as the Vector API's are, and a helper of ours left out there
     * sends the vectors to the heap.
     */
    private static void bornRow8(float[] u, float[] un, float[] v2, float[] dv2, float[] t, float[] coef, int sz,
                                 int i0, int i1) {
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
        boolean background = dv2 == null;
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
            FloatVector next = c.mul(two).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S, v2, i)
                    .mul(s));
            if (background) {
                next.intoArray(un, i);
                s.intoArray(t, i - i0);
            } else {
                next.add(FloatVector.fromArray(S, dv2, i).mul(FloatVector.fromArray(S, t, i - i0))).intoArray(un, i);
            }
        }
    }

    /**
     * Cache lines ahead of the vector being computed at which the row-pair loop reads one float of each of the pair's
     * six streams from memory (un and v² of its rows, u of the rows h below them) (property {@code sweep.cpu.ahead},
     * default 8; 0 turns it off): a software prefetch, since the hardware prefetcher alone kept the loop waiting for
     * memory (figures in docs/performance.md).
     */
    static final int LINES_AHEAD = Integer.getInteger("sweep.cpu.ahead", 8);

    /**
     * Cache lines at the start of each new stream of the next row pair that the row-pair loops read ahead (property
     * {@code sweep.cpu.rowstart}, default 16; 0 turns it off): one float of each line (see {@link #touchPair}).
     */
    static final int ROW_START_LINES = Integer.getInteger("sweep.cpu.rowstart", 16);

    /**
     * Reads one float of each of the first {@link #ROW_START_LINES} cache lines, from x0 on, of the six streams that
     * row pair (z, z+1) starts (un and v² of its rows, u of the rows h below them) and returns their sum, to be kept
     * in {@link AcousticVectorKernels3D#sink}. A pair of rows starts these streams afresh, and the hardware prefetcher
     * only takes them up after a few misses each, which made short rows cost more per cell than long ones
     * (docs/performance.md, short rows).
     */
    private static float touchPair(float[] u, float[] un, float[] v2, int[] geo, int z, int x0, int n) {
        int sz = geo[Layout.SZ];
        int r = geo[Layout.OFF0] + z * sz + x0;
        int ru = r + geo[Layout.H] * sz;
        int m = Math.min(16 * ROW_START_LINES, n);
        float acc = 0f;
        for (int j = 0; j < m; j += 16) {
            acc += un[r + j] + un[r + sz + j] + v2[r + j] + v2[r + sz + j] + u[ru + j] + u[ru + sz + j];
        }
        return acc;
    }

    /** Row z of {@link #interior}. */
    private static void interiorRow(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z, int x0,
                                    int x1, float[] t) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int row = geo[Layout.OFF0] + z * sz;
        int vl = S.length();
        int n = x1 - x0;
        if (n < vl) {
            AcousticKernels2D.interior(u, un, v2, coef, geo, z, z + 1, x0, x1);
            return;
        }
        int last = n - vl;
        boolean tail = n % vl != 0;
        int full = x0 + (n / vl) * vl;
        int end = tail ? full - vl : full;
        for (int x = x0; x < end; x += vl) {
            int i = row + x;
            cellRow(u, un, v2, coef, h, sz, cx, c00, i, un, i);
        }
        if (tail) {
            cellRow(u, un, v2, coef, h, sz, cx, c00, row + x0 + last, t, 0);
            cellRow(u, un, v2, coef, h, sz, cx, c00, row + end, un, row + end);
            ld(t, 0).intoArray(un, row + x0 + last);
        }
    }

    /** One vector of one row at cell {@code i}: the leapfrog value goes to {@code d[o]}. */
    private static void cellRow(float[] u, float[] un, float[] v2, float[] coef, int h, int sz, int cx, float c00,
                                int i, float[] d, int o) {
        FloatVector uc = ld(u, i);
        FloatVector s = uc.mul(c00);
        for (int k = 1; k <= h; k++) {
            int o0 = k * sz;
            FloatVector tz = ld(u, i + o0).add(ld(u, i - o0)).mul(coef[k]);
            FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]);
            s = s.add(tz.add(tx));
        }
        uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s)).intoArray(d, o);
    }

    /** Floats of scratch that {@link #innerRows} needs (two vectors). */
    public static int scratchSize() {
        return 2 * S.length();
    }

    /** Rows ahead whose x-band psi/zeta lines {@link #innerRows} touches early (property {@code sweep.cpu.touch}). */
    static final int TOUCH_AHEAD = AcousticVectorKernels3D.TOUCH_AHEAD;

    /**
     * {@link AcousticKernels2D#psi}, {@link AcousticKernels2D#pml} and {@link AcousticKernels2D#interior} over whole
     * rows [x0, x1) of rows z in [z0, z1) outside the z band: per row, the low x-band segment (its psi, then its
     * update), the interior segment, then the high x-band segment; see {@link AcousticVectorKernels3D#innerRows} (same
     * bits as the separate passes; the psi pass must then skip these cells). {@code scratch}: at least
     * {@link #scratchSize} floats, one per thread.
     */
    public static void innerRows(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                 float[] coef, int[] geo, int z0, int z1, int x0, int x1, float[] scratch) {
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int a = x0;
        int b = Math.min(x1, Math.max(x0, xbl));
        int c = Math.max(b, Math.min(x1, xbh));
        int ahead = TOUCH_AHEAD;
        float acc = 0f;
        // rows in pairs, so that the interior segments run through the two-row loop of interior
        for (int z = z0; z < z1; z += 2) {
            int ze = Math.min(z1, z + 2);
            if (ROW_START_LINES > 0 && z + 3 < z1) {
                acc += touchPair(u, un, v2, geo, z + 2, a, x1 - a);
            }
            for (int zz = z; zz < ze; zz++) {
                if (ahead > 0 && zz + ahead < z1) {
                    acc += CpuKernels.touchLines(psi, zeta, Layout.auxIndex(geo, 2, zz + ahead, 0, a), b - a)
                            + CpuKernels.touchLines(psi, zeta, Layout.auxIndex(geo, 2, zz + ahead, 0, c), x1 - c);
                }
                bandRowX(u, un, v2, psi, zeta, prof, coef, geo, zz, a, b, scratch);
            }
            if (b < c) {
                interior(u, un, v2, coef, geo, z, ze, b, c, scratch);
            }
            for (int zz = z; zz < ze; zz++) {
                bandRowX(u, un, v2, psi, zeta, prof, coef, geo, zz, c, x1, scratch);
            }
        }
        AcousticVectorKernels3D.sink = acc;
    }

    /**
     * psi then update of an x-band-only segment [xa, xe) of row z. The last vector, overlapping the one before when
     * the length is not a multiple of the vector length, is computed first from the old values and parked in
     * {@code t}, then stored after the others: overlapped cells receive the same values again.
     */
    private static void bandRowX(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                 float[] coef, int[] geo, int z, int xa, int xe, float[] t) {
        int n = xe - xa;
        if (n <= 0) {
            return;
        }
        int vl = S.length();
        if (n < vl) {
            AcousticKernels2D.psi(u, psi, prof, coef, geo, z, z + 1, xa, xe);
            AcousticKernels2D.pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, xa, xe);
            return;
        }
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int p = Layout.auxShift(geo, 2, z, 0, xa);
        int pax = 2 * geo[Layout.NZ] + 2 * geo[Layout.NY] + xa;
        int pbx = pax + geo[Layout.NX];
        int dx = Layout.d1(h) + 2 * h;
        int i0 = geo[Layout.OFF0] + z * sz + xa;
        int last = n - vl;
        psiX(u, psi, prof, coef, h, dx, p, i0 + last, pax + last, pbx + last, t, 0);
        for (int j = 0; j < last; j += vl) {
            psiX(u, psi, prof, coef, h, dx, p, i0 + j, pax + j, pbx + j, psi, p + i0 + j);
        }
        ld(t, 0).intoArray(psi, p + i0 + last);
        cellX(u, un, v2, psi, zeta, prof, coef, h, sz, p, dx, i0 + last, pax + last, pbx + last, t, 0, t, vl);
        for (int j = 0; j < last; j += vl) {
            int i = i0 + j;
            cellX(u, un, v2, psi, zeta, prof, coef, h, sz, p, dx, i, pax + j, pbx + j, zeta, p + i, un, i);
        }
        ld(t, 0).intoArray(zeta, p + i0 + last);
        ld(t, vl).intoArray(un, i0 + last);
    }

    /**
     * One vector of the x-axis psi update at cell {@code i} (auxiliary index {@code p + i}); the result goes to
     * {@code dst[o]}.
     */
    private static void psiX(float[] u, float[] psi, float[] prof, float[] coef, int h, int dx, int p, int i, int pa,
                             int pb, float[] dst, int o) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            d = d.add(ld(u, i + k).sub(ld(u, i - k)).mul(coef[dx + k - 1]));
        }
        ld(psi, p + i).mul(ld(prof, pa)).add(d.mul(ld(prof, pb))).intoArray(dst, o);
    }

    /**
     * One vector of x-band-only cells at {@code i}: the operations of {@link AcousticKernels2D#pml} in its order; the
     * new zeta goes to {@code zd[zo]}, the new un to {@code ud[uo]}.
     */
    private static void cellX(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                              float[] coef, int h, int sz, int p, int dx, int i, int pa, int pb,
                              float[] zd, int zo, float[] ud, int uo) {
        int cx = 2 * (h + 1);
        FloatVector uc = ld(u, i);
        FloatVector tz = uc.mul(coef[0]);
        FloatVector tx = uc.mul(coef[cx]);
        for (int k = 1; k <= h; k++) {
            tz = tz.add(ld(u, i + k * sz).add(ld(u, i - k * sz)).mul(coef[k]));
            tx = tx.add(ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]));
        }
        int j = p + i;
        for (int k = 1; k <= h; k++) {
            tx = tx.add(ld(psi, j + k).sub(ld(psi, j - k)).mul(coef[dx + k - 1]));
        }
        FloatVector ze = ld(zeta, j).mul(ld(prof, pa)).add(tx.mul(ld(prof, pb)));
        FloatVector nu = uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(tz.add(tx.add(ze))));
        ze.intoArray(zd, zo);
        nu.intoArray(ud, uo);
    }

    private static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    /** {@code un = (2u − un) + v2·s}. */
    private static void leap(float[] u, float[] un, float[] v2, int i, FloatVector uc, FloatVector s) {
        uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s)).intoArray(un, i);
    }

    /** Same as {@link AcousticKernels2D#psi}. */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            int row = off + z * sz;
            if (z < zbl || z >= zbh) {
                float a = prof[z];
                float b = prof[nz + z];
                int sh = Layout.auxShift(geo, 0, z, 0, 0);
                int x = x0;
                for (; x + vl <= x1; x += vl) {
                    int i = row + x;
                    FloatVector d = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        d = d.add(ld(u, i + k * sz).sub(ld(u, i - k * sz)).mul(coef[d1 + k - 1]));
                    }
                    ld(psi, sh + i).mul(a).add(d.mul(b)).intoArray(psi, sh + i);
                }
                if (x < x1) {
                    psiZ(u, psi, prof, coef, geo, z, x, x1);
                }
            }
            // x band: the segments [x0, xbl) and [xbh, x1)
            for (int seg = 0; seg < 2; seg++) {
                int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                int sh = Layout.auxShift(geo, 2, z, 0, xa);
                int x = xa;
                for (; x + vl <= xe; x += vl) {
                    int i = row + x;
                    FloatVector d = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        d = d.add(ld(u, i + k).sub(ld(u, i - k)).mul(coef[dx + k - 1]));
                    }
                    ld(psi, sh + i).mul(ld(prof, pax + x)).add(d.mul(ld(prof, pbx + x))).intoArray(psi, sh + i);
                }
                for (; x < xe; x++) {
                    int i = row + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[dx + k - 1] * (u[i + k] - u[i - k]);
                    }
                    psi[sh + i] = prof[pax + x] * psi[sh + i] + prof[pbx + x] * d;
                }
            }
        }
    }

    /** Scalar z-band psi update of row z over [xa, xe) (tail of the vector loop). */
    private static void psiZ(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z, int xa, int xe) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int nz = geo[Layout.NZ];
        int d1 = Layout.d1(h);
        int row = geo[Layout.OFF0] + z * sz;
        int sh = Layout.auxShift(geo, 0, z, 0, 0);
        for (int x = xa; x < xe; x++) {
            int i = row + x;
            float d = 0.0f;
            for (int k = 1; k <= h; k++) {
                d += coef[d1 + k - 1] * (u[i + k * sz] - u[i - k * sz]);
            }
            psi[sh + i] = prof[z] * psi[sh + i] + prof[nz + z] * d;
        }
    }

    /** Same as {@link AcousticKernels2D#pml}. */
    public static void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                           float[] coef, int[] geo, int z0, int z1, int x0, int x1) {
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int psz = geo[Layout.aux(0) + 2];
        for (int z = z0; z < z1; z++) {
            // segments of constant x-band membership: [x0, xbl), [xbl, xbh), [xbh, x1)
            int a = x0;
            int b = Math.min(x1, Math.max(x0, xbl));
            int c = Math.max(b, Math.min(x1, xbh));
            boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
            // the auxiliaries' offsets from the wavefield's (z slab; low and high x slab), worked out here: the row
            // body stays small enough for C2 to inline its Vector API calls
            int shz = zb ? Layout.auxShift(geo, 0, z, 0, 0) : 0;
            int shl = Layout.auxShift(geo, 2, z, 0, a);
            int shh = Layout.auxShift(geo, 2, z, 0, c);
            // one call site: C2 inlines the Vector API calls of one copy of the row body only
            for (int seg = 0; seg < 3; seg++) {
                pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, seg == 0 ? a : seg == 1 ? b : c,
                        seg == 0 ? b : seg == 1 ? c : x1, seg != 1, zb, shz, psz, seg == 0 ? shl : shh);
            }
        }
    }

    private static void pmlRow(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                               float[] coef, int[] geo, int z, int xa, int xe, boolean xb, boolean zb, int shz, int psz,
                               int shx) {
        if (xa >= xe) {
            return;
        }
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        float c0z = coef[0];
        float c0x = coef[cx];
        float az = prof[z];
        float bz = prof[nz + z];
        int vl = S.length();
        int x = xa;
        for (; x + vl <= xe; x += vl) {
            int i = off + z * sz + x;
            FloatVector uc = ld(u, i);
            FloatVector tz = uc.mul(c0z);
            FloatVector tx = uc.mul(c0x);
            for (int k = 1; k <= h; k++) {
                tz = tz.add(ld(u, i + k * sz).add(ld(u, i - k * sz)).mul(coef[k]));
                tx = tx.add(ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]));
            }
            if (zb) {
                int j = shz + i;
                for (int k = 1; k <= h; k++) {
                    tz = tz.add(ld(psi, j + k * psz).sub(ld(psi, j - k * psz)).mul(coef[d1 + k - 1]));
                }
                FloatVector ze = ld(zeta, j).mul(az).add(tz.mul(bz));
                ze.intoArray(zeta, j);
                tz = tz.add(ze);
            }
            if (xb) {
                int j = shx + i;
                for (int k = 1; k <= h; k++) {
                    tx = tx.add(ld(psi, j + k).sub(ld(psi, j - k)).mul(coef[dx + k - 1]));
                }
                FloatVector ze = ld(zeta, j).mul(ld(prof, pax + x)).add(tx.mul(ld(prof, pbx + x)));
                ze.intoArray(zeta, j);
                tx = tx.add(ze);
            }
            leap(u, un, v2, i, uc, tz.add(tx));
        }
        if (x < xe) {
            AcousticKernels2D.pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, x, xe);
        }
    }
}
