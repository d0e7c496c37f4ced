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
import sweep.core.Box;
import sweep.kernels.Layout;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * The CPU adjoint kernels ({@link AcousticVectorAdjointKernels2D}, {@link AcousticVectorAdjointKernels3D}) give the
 * same bits as the portable kernels of {@link AcousticAdjointKernels2D}, {@link AcousticAdjointKernels3D} (and the
 * fused {@code rebuildScale} the same bits as laplacian, reverse and scale in sequence) on random data and
 * coefficients, every order, over the interior, band and odd boxes; and on the layouts the solver's grids give
 * (padded rows, CPML auxiliaries in band slabs, bands narrower than a vector).
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
        Layout.placeAuxiliaries(g);
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
            s.f[i] = rnd(r, i >= COR ? g[Layout.AUX_LEN] : len, i == V2 ? 0 : -1, i == V2 ? 0.5f : 1);
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

    /** Sets cor and pb to +0.0f everywhere but at the band cells of their axis slot. */
    private static void zeroOutsideBands(St s) {
        int[] g = s.geo;
        int ndim = g[Layout.NDIM];
        boolean[] band = new boolean[g[Layout.AUX_LEN]];
        for (int a = 0; a < 3; a++) {
            if (ndim == 2 && a == 1) {
                continue;
            }
            for (int z = 0; z < g[Layout.NZ]; z++) {
                for (int y = 0; y < g[Layout.NY]; y++) {
                    for (int x = 0; x < g[Layout.NX]; x++) {
                        int c = a == 0 ? z : a == 1 ? y : x;
                        if (c < g[Layout.ZBL + 2 * a] || c >= g[Layout.ZBH + 2 * a]) {
                            band[Layout.auxIndex(g, a, z, y, x)] = true;
                        }
                    }
                }
            }
        }
        for (int i = 0; i < band.length; i++) {
            if (!band[i]) {
                s.f[COR][i] = 0f;
                s.f[PB][i] = 0f;
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
            zeroOutsideBands(ref);
            zeroOutsideBands(cpu);
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
            zeroOutsideBands(ref);
            zeroOutsideBands(cpu);
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

    /**
     * The adjoint kernels on solver grids (2-D with and without a free surface, 3-D), PML bands 3 cells wide so that
     * row segments are shorter than a vector: cor and pb random on band cells and +0.0f elsewhere, as in a run.
     */
    @ParameterizedTest(name = "solver grids, order {0}")
    @ValueSource(ints = {4, 8})
    void solverGridLayoutsAreBitIdentical(int order) {
        List<PropSpec> specs = List.of(
                PropSpec.builder(new int[] {28, 40}).dh(10).dt(1e-3).nt(1).abcn(3).order(order).freeSurface(true)
                        .build(),
                PropSpec.builder(new int[] {25, 37}).dh(10).dt(1e-3).nt(1).abcn(3).order(order).build(),
                PropSpec.builder(new int[] {11, 14, 19}).dh(10).dt(1e-3).nt(1).abcn(3).order(order).build());
        long seed = 7L * order;
        for (PropSpec spec : specs) {
            Grid g = Grid.single(spec);
            int[] geo = g.geo();
            Random r = new Random(seed++);
            float[] w = rnd(r, g.length(), -1, 1);
            float[] qb = rnd(r, g.length(), -1, 1);
            float[] cor = new float[g.auxLength()];
            float[] pb = new float[g.auxLength()];
            for (int a = 0; a < 3; a++) {
                for (int z = 0; z < g.nz; z++) {
                    for (int y = 0; y < g.ny; y++) {
                        for (int x = 0; x < g.nx; x++) {
                            int c = a == 0 ? z : a == 1 ? y : x;
                            boolean band = c < geo[Layout.ZBL + 2 * a] || c >= geo[Layout.ZBH + 2 * a];
                            if (band && (g.ndim == 3 || a != 1)) {
                                cor[g.auxIndex(a, z, y, x)] = r.nextFloat() - 0.5f;
                                pb[g.auxIndex(a, z, y, x)] = r.nextFloat() - 0.5f;
                            }
                        }
                    }
                }
            }
            float[] prof = g.profiles(3000);
            float[] scratch = new float[AcousticVectorAdjointKernels3D.scratchSize(geo)];
            float[] refQp = new float[g.length()];
            float[] cpuQp = new float[g.length()];
            for (Box b : g.view().stencilClearOuter()) {
                int[] bb = {b.z0(), b.z1(), b.y0(), b.y1(), b.x0(), b.x1()};
                if (g.ndim == 2) {
                    AcousticAdjointKernels2D.general(refQp, qb, w, cor, pb, g.coef, geo, b.z0(), b.z1(), b.x0(), b.x1());
                    AcousticVectorAdjointKernels2D.general(cpuQp, qb, w, cor, pb, g.coef, geo, b.z0(), b.z1(), b.x0(),
                            b.x1(), scratch);
                } else {
                    AcousticAdjointKernels3D.general(refQp, qb, w, cor, pb, g.coef, geo, b.z0(), b.z1(), b.y0(), b.y1(),
                            b.x0(), b.x1());
                    AcousticVectorAdjointKernels3D.general(cpuQp, qb, w, cor, pb, g.coef, geo, b.z0(), b.z1(), b.y0(),
                            b.y1(), b.x0(), b.x1(), scratch);
                }
                AcousticVectorKernelsTest.same(refQp, cpuQp, spec.ndim() + "-D general (qp)", bb);
            }
            float[][] ref = {cor.clone(), new float[g.auxLength()], new float[g.auxLength()], pb.clone()};
            float[][] cpu = {cor.clone(), new float[g.auxLength()], new float[g.auxLength()], pb.clone()};
            for (Box b : g.view().pmlBoxes()) {
                int[] bb = {b.z0(), b.z1(), b.y0(), b.y1(), b.x0(), b.x1()};
                for (float[][] f : List.of(ref, cpu)) {
                    boolean vec = f == cpu;
                    if (g.ndim == 2 && vec) {
                        AcousticVectorAdjointKernels2D.pmlZeta(w, f[1], f[0], prof, geo, b.z0(), b.z1(), b.x0(), b.x1());
                        AcousticVectorAdjointKernels2D.pmlPsi(w, f[0], f[2], f[3], prof, g.coef, geo, b.z0(), b.z1(),
                                b.x0(), b.x1(), scratch);
                    } else if (g.ndim == 2) {
                        AcousticAdjointKernels2D.pmlZeta(w, f[1], f[0], prof, geo, b.z0(), b.z1(), b.x0(), b.x1());
                        AcousticAdjointKernels2D.pmlPsi(w, f[0], f[2], f[3], prof, g.coef, geo, b.z0(), b.z1(), b.x0(),
                                b.x1());
                    } else if (vec) {
                        AcousticVectorAdjointKernels3D.pmlZeta(w, f[1], f[0], prof, geo, b.z0(), b.z1(), b.y0(), b.y1(),
                                b.x0(), b.x1());
                        AcousticVectorAdjointKernels3D.pmlPsi(w, f[0], f[2], f[3], prof, g.coef, geo, b.z0(), b.z1(),
                                b.y0(), b.y1(), b.x0(), b.x1(), scratch);
                    } else {
                        AcousticAdjointKernels3D.pmlZeta(w, f[1], f[0], prof, geo, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(),
                                b.x1());
                        AcousticAdjointKernels3D.pmlPsi(w, f[0], f[2], f[3], prof, g.coef, geo, b.z0(), b.z1(), b.y0(),
                                b.y1(), b.x0(), b.x1());
                    }
                }
                for (int k = 0; k < 4; k++) {
                    AcousticVectorKernelsTest.same(ref[k], cpu[k], spec.ndim() + "-D pmlZeta, pmlPsi (" + k + ")", bb);
                }
            }
        }
    }
}
