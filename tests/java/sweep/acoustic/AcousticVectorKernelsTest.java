package sweep.acoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.kernels.Layout;

/**
 * The CPU kernels ({@link AcousticVectorKernels2D}, {@link AcousticVectorKernels3D}) give the same bits as the portable
 * kernels on random data and random coefficients, for every order, on the interior box, each PML box, the whole grid
 * and odd sub-boxes (vector tails, band segments).
 */
class AcousticVectorKernelsTest {

    /** A random kernel state: geometry, coefficients and arrays (halo included). */
    private static final class State {
        final int[] geo = new int[Layout.GEO_SIZE];
        float[] coef;
        float[] prof;
        float[] u;
        float[] un;
        float[] v2;
        float[] psi;
        float[] zeta;

        State copy() {
            State s = new State();
            System.arraycopy(geo, 0, s.geo, 0, geo.length);
            s.coef = coef.clone();
            s.prof = prof.clone();
            s.u = u.clone();
            s.un = un.clone();
            s.v2 = v2.clone();
            s.psi = psi.clone();
            s.zeta = zeta.clone();
            return s;
        }
    }

    private static State state(int ndim, int order, int nz, int ny, int nx, int[] bands, long seed) {
        return state(ndim, order, nz, ny, nx, bands, seed, 0);
    }

    /** As above with {@code profPad} random floats after the profiles (a solver's profiles carry such a pad). */
    private static State state(int ndim, int order, int nz, int ny, int nx, int[] bands, long seed, int profPad) {
        Random r = new Random(seed);
        int h = order / 2;
        State s = new State();
        int[] g = s.geo;
        g[Layout.NDIM] = ndim;
        g[Layout.H] = h;
        g[Layout.NZ] = nz;
        g[Layout.NY] = ny;
        g[Layout.NX] = nx;
        int nxa = nx + 2 * h;
        int len;
        if (ndim == 2) {
            g[Layout.SZ] = nxa;
            g[Layout.SY] = 0;
            len = (nz + 2 * h) * nxa;
            g[Layout.OFF0] = h * nxa + h;
        } else {
            int nya = ny + 2 * h;
            g[Layout.SY] = nxa;
            g[Layout.SZ] = nya * nxa;
            len = (nz + 2 * h) * nya * nxa;
            g[Layout.OFF0] = h * nya * nxa + h * nxa + h;
        }
        g[Layout.LEN] = len;
        g[Layout.ZBL] = bands[0];
        g[Layout.ZBH] = bands[1];
        g[Layout.YBL] = bands[2];
        g[Layout.YBH] = bands[3];
        g[Layout.XBL] = bands[4];
        g[Layout.XBH] = bands[5];
        Layout.placeAuxiliaries(g);
        s.coef = rnd(r, Layout.coefSize(h), -1, 1);
        s.prof = new float[2 * (nz + ny + nx) + profPad];
        int base = 0;
        for (int n : new int[] {nz, ny, nx}) {
            for (int i = 0; i < n; i++) {
                s.prof[base + i] = 0.5f + 0.5f * r.nextFloat();
                s.prof[base + n + i] = -r.nextFloat();
            }
            base += 2 * n;
        }
        for (int i = base; i < s.prof.length; i++) {
            s.prof[i] = r.nextFloat();
        }
        s.u = rnd(r, len, -1, 1);
        s.un = rnd(r, len, -1, 1);
        s.v2 = rnd(r, len, 0, 0.5f);
        s.psi = rnd(r, g[Layout.AUX_LEN], -1, 1);
        s.zeta = rnd(r, g[Layout.AUX_LEN], -1, 1);
        return s;
    }

    private static float[] rnd(Random r, int n, float lo, float hi) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + (hi - lo) * r.nextFloat();
        }
        return a;
    }

    /** Boxes {z0,z1,y0,y1,x0,x1} to test: the interior, the PML slabs, the whole grid and a few odd sub-boxes. */
    private static List<int[]> boxes(int nz, int ny, int nx, int[] b, boolean interiorOnly) {
        List<int[]> out = new ArrayList<>();
        int[] in = {b[0], b[1], b[2], b[3], b[4], b[5]};
        out.add(in);
        out.add(new int[] {b[0] + 1, b[1] - 2, b[2], b[3], b[4] + 3, b[5] - 1});
        if (interiorOnly) {
            return out;
        }
        out.add(new int[] {0, nz, 0, ny, 0, nx});
        out.add(new int[] {0, b[0], 0, ny, 0, nx});
        out.add(new int[] {b[1], nz, 0, ny, 0, nx});
        if (ny > 1) {
            out.add(new int[] {b[0], b[1], 0, b[2], 0, nx});
            out.add(new int[] {b[0], b[1], b[3], ny, 0, nx});
        }
        out.add(new int[] {b[0], b[1], b[2], b[3], 0, b[4]});
        out.add(new int[] {b[0], b[1], b[2], b[3], b[5], nx});
        out.add(new int[] {1, nz - 2, 0, ny, 3, nx - 2});
        out.add(new int[] {2, 5, 0, ny, b[4] - 2, b[5] + 17});
        return out;
    }

    private static final int NZ2 = 37;
    private static final int NX2 = 83;
    private static final int[] BANDS2 = {6, 29, 0, 1, 21, 60};
    private static final int NZ3 = 17;
    private static final int NY3 = 15;
    private static final int NX3 = 70;
    private static final int[] BANDS3 = {4, 12, 3, 11, 20, 50};

    @ParameterizedTest(name = "2-D order {0}")
    @ValueSource(ints = {2, 4, 6, 8, 10, 12, 14, 16})
    void kernels2dAreBitIdentical(int order) {
        for (int[] b : boxes(NZ2, 1, NX2, BANDS2, false)) {
            State ref = state(2, order, NZ2, 1, NX2, BANDS2, order * 31L);
            State cpu = ref.copy();
            AcousticKernels2D.psi(ref.u, ref.psi, ref.prof, ref.coef, ref.geo, b[0], b[1], b[4], b[5]);
            AcousticVectorKernels2D.psi(cpu.u, cpu.psi, cpu.prof, cpu.coef, cpu.geo, b[0], b[1], b[4], b[5]);
            same(ref.psi, cpu.psi, "2-D psi order " + order, b);
            AcousticKernels2D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo, b[0], b[1],
                    b[4], b[5]);
            AcousticVectorKernels2D.pml(cpu.u, cpu.un, cpu.v2, cpu.psi, cpu.zeta, cpu.prof, cpu.coef, cpu.geo, b[0],
                    b[1], b[4],
                    b[5]);
            same(ref.un, cpu.un, "2-D pml un order " + order, b);
            same(ref.zeta, cpu.zeta, "2-D pml zeta order " + order, b);
        }
        for (int[] b : boxes(NZ2, 1, NX2, BANDS2, true)) {
            State ref = state(2, order, NZ2, 1, NX2, BANDS2, order * 17L);
            State cpu = ref.copy();
            AcousticKernels2D.interior(ref.u, ref.un, ref.v2, ref.coef, ref.geo, b[0], b[1], b[4], b[5]);
            AcousticVectorKernels2D.interior(cpu.u, cpu.un, cpu.v2, cpu.coef, cpu.geo, b[0], b[1], b[4], b[5],
                    new float[AcousticVectorKernels2D.scratchSize()]);
            same(ref.un, cpu.un, "2-D interior order " + order, b);
        }
    }

    @ParameterizedTest(name = "3-D order {0}")
    @ValueSource(ints = {2, 4, 6, 8, 10, 12, 14, 16})
    void kernels3dAreBitIdentical(int order) {
        for (int pad : new int[] {0, 16}) {
            kernels3d(order, pad);
        }
    }

    /** The 3-D kernel comparisons with profiles of exact length (pad 0) or padded as a solver's are. */
    private static void kernels3d(int order, int pad) {
        for (int[] b : boxes(NZ3, NY3, NX3, BANDS3, false)) {
            State ref = state(3, order, NZ3, NY3, NX3, BANDS3, order * 7L, pad);
            State cpu = ref.copy();
            AcousticKernels3D.psi(ref.u, ref.psi, ref.prof, ref.coef, ref.geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            AcousticVectorKernels3D.psi(cpu.u, cpu.psi, cpu.prof, cpu.coef, cpu.geo, b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            same(ref.psi, cpu.psi, "3-D psi order " + order, b);
            AcousticKernels3D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo, b[0], b[1],
                    b[2], b[3],
                    b[4], b[5]);
            AcousticVectorKernels3D.pml(cpu.u, cpu.un, cpu.v2, cpu.psi, cpu.zeta, cpu.prof, cpu.coef, cpu.geo, b[0],
                    b[1], b[2],
                    b[3], b[4], b[5], new float[AcousticVectorKernels3D.scratchSize(cpu.geo)]);
            same(ref.un, cpu.un, "3-D pml un order " + order, b);
            same(ref.zeta, cpu.zeta, "3-D pml zeta order " + order, b);
        }
        for (int[] b : boxes(NZ3, NY3, NX3, BANDS3, true)) {
            State ref = state(3, order, NZ3, NY3, NX3, BANDS3, order * 5L, pad);
            State cpu = ref.copy();
            AcousticKernels3D.interior(ref.u, ref.un, ref.v2, ref.coef, ref.geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            AcousticVectorKernels3D.interior(cpu.u, cpu.un, cpu.v2, cpu.coef, cpu.geo, b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            same(ref.un, cpu.un, "3-D interior order " + order, b);
        }
    }

    /** {@link AcousticVectorKernels2D#innerRows} against the portable passes, x bands as in the 3-D test. */
    @ParameterizedTest(name = "2-D order {0}")
    @ValueSource(ints = {2, 4, 8, 12, 16})
    void innerRows2dAreBitIdentical(int order) {
        int[][] bandSets = {BANDS2, {6, 29, 0, 1, 37, 45}, {6, 29, 0, 1, 16, 50}, {6, 29, 0, 1, 32, 60}};
        for (int[] bands : bandSets) {
            int[][] xr = {{0, NX2}, {2, NX2 - 1}, {5, NX2 - 7}, {bands[4] - 3, bands[5] + 2}, {0, bands[4]}};
            for (int[] x : xr) {
                int[] b = {bands[0], bands[1], 0, 1, x[0], x[1]};
                State ref = state(2, order, NZ2, 1, NX2, bands, order * 13L + x[0]);
                State cpu = ref.copy();
                int xl = Math.min(b[5], Math.max(b[4], bands[4]));
                int xh = Math.max(xl, Math.min(b[5], bands[5]));
                AcousticKernels2D.psi(ref.u, ref.psi, ref.prof, ref.coef, ref.geo, b[0], b[1], b[4], b[5]);
                AcousticKernels2D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo, b[0], b[1],
                        b[4],
                        xl);
                AcousticKernels2D.interior(ref.u, ref.un, ref.v2, ref.coef, ref.geo, b[0], b[1], xl, xh);
                AcousticKernels2D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo, b[0], b[1],
                        xh,
                        b[5]);
                AcousticVectorKernels2D.innerRows(cpu.u, cpu.un, cpu.v2, cpu.psi, cpu.zeta, cpu.prof, cpu.coef, cpu.geo,
                        b[0], b[1],
                        b[4], b[5], new float[AcousticVectorKernels2D.scratchSize()]);
                String what = "2-D innerRows order " + order + " bands " + Arrays.toString(bands);
                same(ref.psi, cpu.psi, what + " psi", b);
                same(ref.zeta, cpu.zeta, what + " zeta", b);
                same(ref.un, cpu.un, what + " un", b);
            }
        }
    }

    /**
     * {@link AcousticVectorKernels3D#innerRows} (x-band psi and update fused with the interior of each row) against the
     * portable psi, pml and interior passes over the same rows: x bands of one vector plus a tail (20), shorter than a
     * vector (sub-boxes that cut them), of several vectors (37), and an exact multiple (16, 32).
     */
    @ParameterizedTest(name = "3-D order {0}")
    @ValueSource(ints = {2, 4, 8, 12, 16})
    void innerRows3dAreBitIdentical(int order) {
        int[][] bandSets = {BANDS3, {4, 12, 3, 11, 37, 45}, {4, 12, 3, 11, 16, 38}, {4, 12, 3, 11, 32, 54}};
        for (int[] bands : bandSets) {
            int[][] xr = {{0, NX3}, {2, NX3 - 1}, {5, NX3 - 7}, {bands[4] - 3, bands[5] + 2}, {0, bands[4]}};
            for (int[] x : xr) {
              for (int pad : new int[] {0, 16}) {
                int[] b = {bands[0], bands[1], bands[2], bands[3], x[0], x[1]};
                State ref = state(3, order, NZ3, NY3, NX3, bands, order * 11L + x[0], pad);
                State cpu = ref.copy();
                int xl = Math.min(b[5], Math.max(b[4], bands[4]));
                int xh = Math.max(xl, Math.min(b[5], bands[5]));
                AcousticKernels3D.psi(ref.u, ref.psi, ref.prof, ref.coef, ref.geo, b[0], b[1], b[2], b[3], b[4], b[5]);
                AcousticKernels3D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo, b[0], b[1],
                        b[2],
                        b[3], b[4], xl);
                AcousticKernels3D.interior(ref.u, ref.un, ref.v2, ref.coef, ref.geo, b[0], b[1], b[2], b[3], xl, xh);
                AcousticKernels3D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo, b[0], b[1],
                        b[2],
                        b[3], xh, b[5]);
                AcousticVectorKernels3D.innerRows(cpu.u, cpu.un, cpu.v2, cpu.psi, cpu.zeta, cpu.prof, cpu.coef, cpu.geo,
                        b[0], b[1],
                        b[2], b[3], b[4], b[5], new float[AcousticVectorKernels3D.scratchSize(cpu.geo)]);
                String what = "3-D innerRows order " + order + " bands " + Arrays.toString(bands) + " pad " + pad;
                same(ref.psi, cpu.psi, what + " psi", b);
                same(ref.zeta, cpu.zeta, what + " zeta", b);
                same(ref.un, cpu.un, what + " un", b);
              }
            }
        }
    }

    /**
     * {@link AcousticVectorKernels3D#innerRows} over boxes whose rows reach into the y bands (the y slabs between the z
     * slabs, fused plane by plane) against the portable psi pass over the box, then per plane the pml pass over its
     * y-band rows and the x-band/interior split of the rest.
     */
    @ParameterizedTest(name = "3-D order {0}")
    @ValueSource(ints = {2, 4, 8, 12, 16})
    void innerRowsWithYSlabsAreBitIdentical(int order) {
        int[][] bandSets = {BANDS3, {4, 12, 3, 11, 37, 45}, {4, 12, 0, 11, 16, 38}, {4, 12, 3, 15, 32, 54}};
        for (int[] bands : bandSets) {
            int[][] yr = {{0, NY3}, {1, NY3 - 2}, {bands[2], NY3}, {0, bands[3]}, {2, 4}};
            int[][] xr = {{0, NX3}, {5, NX3 - 7}};
            for (int[] y : yr) {
                for (int[] x : xr) {
                    int[] b = {bands[0], bands[1], y[0], y[1], x[0], x[1]};
                    State ref = state(3, order, NZ3, NY3, NX3, bands, order * 13L + y[0] + x[0], 16);
                    State cpu = ref.copy();
                    int xl = Math.min(b[5], Math.max(b[4], bands[4]));
                    int xh = Math.max(xl, Math.min(b[5], bands[5]));
                    AcousticKernels3D.psi(ref.u, ref.psi, ref.prof, ref.coef, ref.geo, b[0], b[1], b[2], b[3], b[4],
                            b[5]);
                    for (int yy = b[2]; yy < b[3]; yy++) {
                        if (yy < bands[2] || yy >= bands[3]) {
                            AcousticKernels3D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo,
                                    b[0],
                                    b[1], yy, yy + 1, b[4], b[5]);
                        } else {
                            AcousticKernels3D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo,
                                    b[0],
                                    b[1], yy, yy + 1, b[4], xl);
                            AcousticKernels3D.interior(ref.u, ref.un, ref.v2, ref.coef, ref.geo, b[0], b[1], yy, yy + 1,
                                    xl,
                                    xh);
                            AcousticKernels3D.pml(ref.u, ref.un, ref.v2, ref.psi, ref.zeta, ref.prof, ref.coef, ref.geo,
                                    b[0],
                                    b[1], yy, yy + 1, xh, b[5]);
                        }
                    }
                    AcousticVectorKernels3D.innerRows(cpu.u, cpu.un, cpu.v2, cpu.psi, cpu.zeta, cpu.prof, cpu.coef,
                            cpu.geo,
                            b[0], b[1], b[2], b[3], b[4], b[5],
                                    new float[AcousticVectorKernels3D.scratchSize(cpu.geo)]);
                    String what = "3-D innerRows with y slabs, order " + order + " bands " + Arrays.toString(bands)
                            + " box " + Arrays.toString(b);
                    same(ref.psi, cpu.psi, what + " psi", b);
                    same(ref.zeta, cpu.zeta, what + " zeta", b);
                    same(ref.un, cpu.un, what + " un", b);
                }
            }
        }
    }

    /**
     * The random data discriminate operation orders: regrouping the interior sum of the portable kernel (a change a
     * compiler with fast-math, or an FMA, would make) changes the bits of many cells, so the comparisons above can
     * fail.
     */
    @ParameterizedTest(name = "order {0}")
    @ValueSource(ints = {4, 8, 16})
    void dataDetectRegrouping(int order) {
        State ref = state(2, order, NZ2, 1, NX2, BANDS2, 99);
        State alt = ref.copy();
        AcousticKernels2D.interior(ref.u, ref.un, ref.v2, ref.coef, ref.geo, BANDS2[0], BANDS2[1], BANDS2[4],
                BANDS2[5]);
        int h = order / 2;
        int sz = alt.geo[Layout.SZ];
        int cx = 2 * (h + 1);
        float c00 = alt.coef[Layout.c00(h)];
        int differ = 0;
        for (int z = BANDS2[0]; z < BANDS2[1]; z++) {
            for (int x = BANDS2[4]; x < BANDS2[5]; x++) {
                int i = alt.geo[Layout.OFF0] + z * sz + x;
                float s = c00 * alt.u[i];
                for (int k = 1; k <= h; k++) {
                    s = s + alt.coef[k] * (alt.u[i + k * sz] + alt.u[i - k * sz]);
                    s = s + alt.coef[cx + k] * (alt.u[i + k] + alt.u[i - k]);
                }
                alt.un[i] = (2.0f * alt.u[i] - alt.un[i]) + alt.v2[i] * s;
                if (Float.floatToRawIntBits(alt.un[i]) != Float.floatToRawIntBits(ref.un[i])) {
                    differ++;
                }
            }
        }
        assertTrue(differ > 20, "regrouped sum differs in only " + differ + " cells");
    }

    static void same(float[] ref, float[] got, String what, int[] box) {
        assertEquals(ref.length, got.length, what);
        for (int i = 0; i < ref.length; i++) {
            if (Float.floatToRawIntBits(ref[i]) != Float.floatToRawIntBits(got[i])) {
                fail(what + ", box " + Arrays.toString(box) + ": first difference at flat index " + i + ": "
                        + ref[i] + " (portable) vs " + got[i] + " (cpu)");
            }
        }
    }
}
