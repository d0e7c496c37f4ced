package sweep.acoustic;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sweep.acoustic.kernels.AcousticAdjointKernels2D;
import sweep.acoustic.kernels.AcousticAdjointKernels3D;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.kernels.Layout;

/**
 * The CPU adjoint kernels ({@link AcousticVectorAdjointKernels2D}, {@link AcousticVectorAdjointKernels3D}) give the
 * same bits as the portable kernels of {@link AcousticAdjointKernels2D}, {@link AcousticAdjointKernels3D} (and the
 * fused {@code rebuildScale} the same bits as laplacian, reverse and scale in sequence) on random data and
 * coefficients, every order, over the interior, band and odd boxes.
 */
class AcousticVectorAdjointKernelsTest {

    /** Random geometry and arrays of one kernel state. */
    private static final class St {
        final int[] geo = new int[Layout.GEO_SIZE];
        float[] coef;
        float[] prof;
        float[][] f;

        St copy() {
            St s = new St();
            System.arraycopy(geo, 0, s.geo, 0, geo.length);
            s.coef = coef.clone();
            s.prof = prof.clone();
            s.f = new float[f.length][];
            for (int i = 0; i < f.length; i++) {
                s.f[i] = f[i].clone();
            }
            return s;
        }
    }

    // indices into St.f
    private static final int U = 0;
    private static final int UN = 1;
    private static final int V2 = 2;
    private static final int QB = 3;
    private static final int QP = 4;
    private static final int W = 5;
    private static final int GRAD = 6;
    private static final int D = 7;
    private static final int COR = 8;
    private static final int PB = 9;
    private static final int PSIB = 10;
    private static final int ZETAB = 11;
    private static final int PSI = 12;
    private static final int ZETA = 13;
    private static final String[] NAMES = {"u", "un", "v2", "qb", "qp", "w", "grad", "d", "cor", "pb", "psib", "zetab",
        "psi", "zeta"};

    private static St state(int ndim, int order, int nz, int ny, int nx, int[] bands, long seed) {
        Random r = new Random(seed);
        int h = order / 2;
        St s = new St();
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
        for (int i = 0; i < 6; i++) {
            g[Layout.ZBL + i] = bands[i];
        }
        s.coef = rnd(r, Layout.coefSize(h), -1, 1);
        s.prof = new float[2 * (nz + ny + nx)];
        int base = 0;
        for (int n : new int[] {nz, ny, nx}) {
            for (int i = 0; i < n; i++) {
                s.prof[base + i] = 0.5f + 0.5f * r.nextFloat();
                s.prof[base + n + i] = -r.nextFloat();
            }
            base += 2 * n;
        }
        s.f = new float[NAMES.length][];
        for (int i = 0; i < NAMES.length; i++) {
            s.f[i] = rnd(r, i >= COR ? ndim * len : len, i == V2 ? 0 : -1, i == V2 ? 0.5f : 1);
        }
        return s;
    }

    private static float[] rnd(Random r, int n, float lo, float hi) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + (hi - lo) * r.nextFloat();
        }
        return a;
    }

    private static List<int[]> boxes(int nz, int ny, int nx, int[] b) {
        List<int[]> out = new ArrayList<>();
        out.add(new int[] {b[0], b[1], b[2], b[3], b[4], b[5]});
        out.add(new int[] {b[0] + 1, b[1] - 2, b[2], b[3], b[4] + 3, b[5] - 1});
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

    private static void sameAll(St ref, St cpu, String what, int[] b) {
        for (int i = 0; i < NAMES.length; i++) {
            AcousticVectorKernelsTest.same(ref.f[i], cpu.f[i], what + " (" + NAMES[i] + ")", b);
        }
    }

    /** Sets cor and pb of each axis to +0.0f at every cell (halo included) outside that axis's band (2-D). */
    private static void zeroOutsideBands2(St s) {
        int[] g = s.geo;
        int h = g[Layout.H];
        int len = g[Layout.LEN];
        int sz = g[Layout.SZ];
        int[] n = {g[Layout.NZ], g[Layout.NX]};
        int[] bl = {g[Layout.ZBL], g[Layout.XBL]};
        int[] bh = {g[Layout.ZBH], g[Layout.XBH]};
        for (int i = 0; i < len; i++) {
            int[] c = {i / sz - h, i % sz - h};
            for (int a = 0; a < 2; a++) {
                boolean inGrid = c[a] >= 0 && c[a] < n[a];
                boolean band = c[a] < bl[a] || c[a] >= bh[a];
                if (!(inGrid && band)) {
                    s.f[COR][a * len + i] = 0f;
                    s.f[PB][a * len + i] = 0f;
                }
            }
        }
    }

    /** Sets cor and pb of each axis to +0.0f at every cell (halo included) outside that axis's band (3-D). */
    private static void zeroOutsideBands3(St s) {
        int[] g = s.geo;
        int h = g[Layout.H];
        int len = g[Layout.LEN];
        int sz = g[Layout.SZ];
        int sy = g[Layout.SY];
        int[] n = {g[Layout.NZ], g[Layout.NY], g[Layout.NX]};
        for (int i = 0; i < len; i++) {
            int[] c = {i / sz - h, (i % sz) / sy - h, i % sy - h};
            for (int a = 0; a < 3; a++) {
                boolean inGrid = c[a] >= 0 && c[a] < n[a];
                boolean band = c[a] < g[Layout.ZBL + 2 * a] || c[a] >= g[Layout.ZBH + 2 * a];
                if (!(inGrid && band)) {
                    s.f[COR][a * len + i] = 0f;
                    s.f[PB][a * len + i] = 0f;
                }
            }
        }
    }

    private static final int[] BANDS2 = {6, 29, 0, 1, 21, 60};
    private static final int[] BANDS3 = {4, 12, 3, 11, 20, 50};

    @ParameterizedTest(name = "2-D order {0}")
    @ValueSource(ints = {2, 4, 6, 8, 10, 12, 14, 16})
    void adjoint2dIsBitIdentical(int order) {
        int nz = 37;
        int nx = 83;
        long seed = 11L * order;
        for (int[] b : boxes(nz, 1, nx, BANDS2)) {
            St ref = state(2, order, nz, 1, nx, BANDS2, seed++);
            St cpu = ref.copy();
            float[][] r = ref.f;
            float[][] c = cpu.f;
            int z0 = b[0];
            int z1 = b[1];
            int x0 = b[4];
            int x1 = b[5];
            AcousticAdjointKernels2D.scale(r[QB], r[V2], r[W], r[GRAD], r[D], ref.geo, z0, z1, x0, x1);
            AcousticVectorAdjointKernels2D.scale(c[QB], c[V2], c[W], c[GRAD], c[D], cpu.geo, z0, z1, x0, x1);
            sameAll(ref, cpu, "scale", b);
            AcousticAdjointKernels2D.pmlZeta(r[W], r[ZETAB], r[COR], ref.prof, ref.geo, z0, z1, x0, x1);
            AcousticVectorAdjointKernels2D.pmlZeta(c[W], c[ZETAB], c[COR], cpu.prof, cpu.geo, z0, z1, x0, x1);
            sameAll(ref, cpu, "pmlZeta", b);
            AcousticAdjointKernels2D.pmlPsi(r[W], r[COR], r[PSIB], r[PB], ref.prof, ref.coef, ref.geo, z0, z1, x0, x1);
            AcousticVectorAdjointKernels2D.pmlPsi(c[W], c[COR], c[PSIB], c[PB], cpu.prof, cpu.coef, cpu.geo, z0, z1, x0,
                    x1);
            sameAll(ref, cpu, "pmlPsi", b);
            // general's contract: cor and pb are zero (+0.0f) outside their axis's band
            zeroOutsideBands2(ref);
            zeroOutsideBands2(cpu);
            AcousticAdjointKernels2D.general(r[QP], r[QB], r[W], r[COR], r[PB], ref.coef, ref.geo, z0, z1, x0, x1);
            AcousticVectorAdjointKernels2D.general(c[QP], c[QB], c[W], c[COR], c[PB], cpu.coef, cpu.geo, z0, z1, x0, x1,
                    new float[AcousticVectorAdjointKernels3D.scratchSize(cpu.geo)]);
            sameAll(ref, cpu, "general", b);
            AcousticAdjointKernels2D.interior(r[QP], r[QB], r[W], ref.coef, ref.geo, z0, z1, x0, x1);
            AcousticVectorAdjointKernels2D.interior(c[QP], c[QB], c[W], cpu.coef, cpu.geo, z0, z1, x0, x1);
            sameAll(ref, cpu, "interior", b);
            AcousticKernels2D.laplacian(r[U], r[PSI], r[ZETA], ref.coef, ref.geo, r[D], z0, z1, x0, x1);
            AcousticVectorAdjointKernels2D.laplacian(c[U], c[PSI], c[ZETA], cpu.coef, cpu.geo, c[D], z0, z1, x0, x1);
            sameAll(ref, cpu, "laplacian", b);
        }
        int[] in = {BANDS2[0], BANDS2[1], 0, 1, BANDS2[4], BANDS2[5]};
        for (int[] b : List.of(in, new int[] {in[0] + 1, in[1] - 2, 0, 1, in[4] + 3, in[5] - 1})) {
            for (int rev = 0; rev < 2; rev++) {
                St ref = state(2, order, nz, 1, nx, BANDS2, seed++);
                St cpu = ref.copy();
                float[][] r = ref.f;
                float[][] c = cpu.f;
                AcousticKernels2D.laplacian(r[U], r[PSI], r[ZETA], ref.coef, ref.geo, r[D], b[0], b[1], b[4], b[5]);
                if (rev != 0) {
                    AcousticAdjointKernels2D.reverse(r[U], r[UN], r[V2], r[D], ref.geo, b[0], b[1], b[4], b[5]);
                }
                AcousticAdjointKernels2D.scale(r[QB], r[V2], r[W], r[GRAD], r[D], ref.geo, b[0], b[1], b[4], b[5]);
                System.arraycopy(r[D], 0, c[D], 0, c[D].length);
                AcousticVectorAdjointKernels2D.rebuildScale(c[U], c[UN], c[V2], c[QB], c[W], c[GRAD], cpu.coef, cpu.geo,
                        rev, b[0],
                        b[1], b[4], b[5]);
                sameAll(ref, cpu, "rebuildScale rev=" + rev, b);
            }
        }
    }

    @ParameterizedTest(name = "3-D order {0}")
    @ValueSource(ints = {2, 4, 6, 8, 10, 12, 14, 16})
    void adjoint3dIsBitIdentical(int order) {
        int nz = 17;
        int ny = 15;
        int nx = 70;
        long seed = 13L * order;
        for (int[] b : boxes(nz, ny, nx, BANDS3)) {
            St ref = state(3, order, nz, ny, nx, BANDS3, seed++);
            St cpu = ref.copy();
            float[][] r = ref.f;
            float[][] c = cpu.f;
            AcousticAdjointKernels3D.scale(r[QB], r[V2], r[W], r[GRAD], r[D], ref.geo, b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            AcousticVectorAdjointKernels3D.scale(c[QB], c[V2], c[W], c[GRAD], c[D], cpu.geo, b[0], b[1], b[2], b[3],
                    b[4], b[5]);
            sameAll(ref, cpu, "scale", b);
            AcousticAdjointKernels3D.pmlZeta(r[W], r[ZETAB], r[COR], ref.prof, ref.geo, b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            AcousticVectorAdjointKernels3D.pmlZeta(c[W], c[ZETAB], c[COR], cpu.prof, cpu.geo, b[0], b[1], b[2], b[3],
                    b[4], b[5]);
            sameAll(ref, cpu, "pmlZeta", b);
            AcousticAdjointKernels3D.pmlPsi(r[W], r[COR], r[PSIB], r[PB], ref.prof, ref.coef, ref.geo, b[0], b[1], b[2],
                    b[3], b[4],
                    b[5]);
            AcousticVectorAdjointKernels3D.pmlPsi(c[W], c[COR], c[PSIB], c[PB], cpu.prof, cpu.coef, cpu.geo, b[0], b[1],
                    b[2], b[3], b[4],
                    b[5]);
            sameAll(ref, cpu, "pmlPsi", b);
            // general's contract: cor and pb are zero (+0.0f) outside their axis's band
            zeroOutsideBands3(ref);
            zeroOutsideBands3(cpu);
            AcousticAdjointKernels3D.general(r[QP], r[QB], r[W], r[COR], r[PB], ref.coef, ref.geo, b[0], b[1], b[2],
                    b[3], b[4], b[5]);
            AcousticVectorAdjointKernels3D.general(c[QP], c[QB], c[W], c[COR], c[PB], cpu.coef, cpu.geo, b[0], b[1],
                    b[2], b[3], b[4],
                    b[5], new float[AcousticVectorAdjointKernels3D.scratchSize(cpu.geo)]);
            sameAll(ref, cpu, "general", b);
            AcousticAdjointKernels3D.interior(r[QP], r[QB], r[W], ref.coef, ref.geo, b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            AcousticVectorAdjointKernels3D.interior(c[QP], c[QB], c[W], cpu.coef, cpu.geo, b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            sameAll(ref, cpu, "interior", b);
            AcousticKernels3D.laplacian(r[U], r[PSI], r[ZETA], ref.coef, ref.geo, r[D], b[0], b[1], b[2], b[3], b[4],
                    b[5]);
            AcousticVectorAdjointKernels3D.laplacian(c[U], c[PSI], c[ZETA], cpu.coef, cpu.geo, c[D], b[0], b[1], b[2],
                    b[3], b[4], b[5]);
            sameAll(ref, cpu, "laplacian", b);
        }
        int[] in = BANDS3.clone();
        for (int[] b : List.of(in, new int[] {in[0] + 1, in[1] - 2, in[2], in[3] - 1, in[4] + 3, in[5] - 1})) {
            for (int rev = 0; rev < 2; rev++) {
                St ref = state(3, order, nz, ny, nx, BANDS3, seed++);
                St cpu = ref.copy();
                float[][] r = ref.f;
                float[][] c = cpu.f;
                AcousticKernels3D.laplacian(r[U], r[PSI], r[ZETA], ref.coef, ref.geo, r[D], b[0], b[1], b[2], b[3],
                        b[4], b[5]);
                if (rev != 0) {
                    AcousticAdjointKernels3D.reverse(r[U], r[UN], r[V2], r[D], ref.geo, b[0], b[1], b[2], b[3], b[4],
                            b[5]);
                }
                AcousticAdjointKernels3D.scale(r[QB], r[V2], r[W], r[GRAD], r[D], ref.geo, b[0], b[1], b[2], b[3], b[4],
                        b[5]);
                System.arraycopy(r[D], 0, c[D], 0, c[D].length);
                AcousticVectorAdjointKernels3D.rebuildScale(c[U], c[UN], c[V2], c[QB], c[W], c[GRAD], cpu.coef, cpu.geo,
                        rev, b[0],
                        b[1], b[2], b[3], b[4], b[5]);
                sameAll(ref, cpu, "rebuildScale rev=" + rev, b);
            }
        }
    }

    /**
     * The x part of pmlPsi (vectorised with per-lane band masks and an overlapping last vector) over x bands of width
     * 0 (a tile cut), 3, 16, 20 and 37 on either side, whole rows and sub-boxes whose segments are shorter or longer
     * than a vector.
     */
    @ParameterizedTest(name = "x bands, order {0}")
    @ValueSource(ints = {2, 8, 16})
    void pmlPsiXBandsAreBitIdentical(int order) {
        int[] widths = {0, 3, 16, 20, 37};
        long seed = 101L * order;
        for (int wl : widths) {
            for (int wh : widths) {
                int nx = wl + 29 + wh;
                int[] bands3 = {2, 5, 2, 4, wl, nx - wh};
                List<int[]> bs = List.of(new int[] {0, 7, 0, 6, 0, nx}, new int[] {1, 6, 1, 5, 1, nx - 2},
                        new int[] {0, 7, 0, 6, Math.max(0, wl - 5), Math.min(nx, wl + 3)},
                        new int[] {0, 3, 0, 2, Math.min(nx - 1, wl + 2), nx});
                for (int[] b : bs) {
                    St ref = state(3, order, 7, 6, nx, bands3, seed);
                    St cpu = ref.copy();
                    float[][] r = ref.f;
                    float[][] c = cpu.f;
                    AcousticAdjointKernels3D.pmlPsi(r[W], r[COR], r[PSIB], r[PB], ref.prof, ref.coef, ref.geo, b[0],
                            b[1], b[2],
                            b[3], b[4], b[5]);
                    AcousticVectorAdjointKernels3D.pmlPsi(c[W], c[COR], c[PSIB], c[PB], cpu.prof, cpu.coef, cpu.geo,
                            b[0], b[1], b[2],
                            b[3], b[4], b[5]);
                    sameAll(ref, cpu, "pmlPsi 3-D x bands " + wl + "/" + wh, b);
                    int[] bands2 = {2, 5, 0, 1, wl, nx - wh};
                    St ref2 = state(2, order, 7, 1, nx, bands2, seed + 1);
                    St cpu2 = ref2.copy();
                    r = ref2.f;
                    c = cpu2.f;
                    AcousticAdjointKernels2D.pmlPsi(r[W], r[COR], r[PSIB], r[PB], ref2.prof, ref2.coef, ref2.geo, b[0],
                            b[1], b[4],
                            b[5]);
                    AcousticVectorAdjointKernels2D.pmlPsi(c[W], c[COR], c[PSIB], c[PB], cpu2.prof, cpu2.coef, cpu2.geo,
                            b[0], b[1],
                            b[4], b[5]);
                    sameAll(ref2, cpu2, "pmlPsi 2-D x bands " + wl + "/" + wh, b);
                    seed += 2;
                }
            }
        }
    }
}
