package sweep.acoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sweep.backend.CpuKernels;
import sweep.core.Box;
import sweep.kernels.Layout;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.spi.GridView;

/**
 * The kernel-set seam: {@link AcousticKernelSet#of} gives the set of the asked dimension and flavour, and every method
 * of the Vector API set gives the same bits as the same method of the portable set, on the boxes a solver passes (so
 * each adapter hands its kernel the right arrays and bounds).
 */
class AcousticKernelSetTest {
    // indices into the array state
    private static final int U = 0;
    private static final int UN = 1;
    private static final int V2 = 2;
    private static final int PSI = 3;
    private static final int ZETA = 4;
    private static final int QB = 5;
    private static final int QP = 6;
    private static final int W = 7;
    private static final int GRAD = 8;
    private static final int D = 9;
    private static final int COR = 10;
    private static final int PB = 11;
    private static final int PSIB = 12;
    private static final int ZETAB = 13;

    /** One method of a set applied to the state {@code a} over its boxes. */
    @FunctionalInterface
    private interface Op {
        void run(AcousticKernelSet k, float[][] a, float[] scratch);
    }

    @Test
    void ofGivesTheAskedDimensionAndFlavour() {
        for (int ndim : new int[] {2, 3}) {
            for (boolean vector : new boolean[] {false, true}) {
                AcousticKernelSet k = AcousticKernelSet.of(ndim, vector);
                assertEquals(ndim, k.ndim());
                assertEquals(vector, k.vector());
                assertSame(k, AcousticKernelSet.of(ndim, vector), "one set per dimension and flavour");
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AcousticKernelSet.of(1, false));
        assertTrue(e.getMessage().contains("not 1"), e.getMessage());
    }

    @Test
    void portableSetsHaveNoFusedRowPass() {
        for (int ndim : new int[] {2, 3}) {
            AcousticKernelSet k = AcousticKernelSet.of(ndim, false);
            assertFalse(k.vector());
            assertEquals(0, k.forwardScratch(new int[Layout.GEO_SIZE]));
            float[] f = new float[1];
            assertThrows(UnsupportedOperationException.class, () -> k.innerRows(f, f, f, f, f, f, f,
                    new int[Layout.GEO_SIZE], 0, 1, new Box(0, 1, 0, 1, 0, 1), f));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void vectorSetGivesThePortableBits(int ndim) {
        assumeTrue(CpuKernels.vectorAvailable(), "needs --add-modules jdk.incubator.vector");
        PropSpec spec = (ndim == 2 ? PropSpec.builder(23, 37) : PropSpec.builder(13, 11, 21)).dh(10).dt(1e-3).nt(1)
                .order(8).abcn(5).build();
        GridView g = Grid.single(spec).view();
        int[] geo = g.geo();
        float[] coef = g.coef();
        Random r = new Random(ndim);
        float[] prof = new float[2 * (g.nz() + g.ny() + g.nx())];
        for (int i = 0; i < prof.length; i++) {
            prof[i] = 0.5f + 0.4f * r.nextFloat();
        }
        List<Box> band = g.pmlBoxes();
        List<Box> interior = List.of(g.interiorBox());
        List<Box> all = List.of(g.allBox());
        int y1 = g.ny();
        int x1 = g.nx();
        check(g, r, "psi", (k, a, s) -> each(band, b -> k.psi(a[U], a[PSI], prof, coef, geo, b.z0(), b.z1(), b,
                s)));
        check(g, r, "pml", (k, a, s) -> each(band, b -> k.pml(a[U], a[UN], a[V2], a[PSI], a[ZETA], prof, coef, geo,
                b.z0(), b.z1(), b, s)));
        check(g, r, "interior", (k, a, s) -> each(interior, b -> k.interior(a[U], a[UN], a[V2], coef, geo, b.z0(),
                b.z1(), b, s)));
        check(g, r, "bornInterior", (k, a, s) -> each(interior, b -> k.bornInterior(a[U], a[UN], a[QB], a[QP], a[V2],
                a[D], coef, geo, b.z0(), b.z1(), b, new float[b.x1() - b.x0()])));
        check(g, r, "mirrorTop", (k, a, s) -> k.mirrorTop(a[U], geo, 0, y1, 0, x1));
        check(g, r, "laplacian", (k, a, s) -> each(all, b -> k.laplacian(a[U], a[PSI], a[ZETA], coef, geo, a[D],
                b.z0(), b.z1(), b)));
        check(g, r, "reverse", (k, a, s) -> each(interior, b -> k.reverse(a[U], a[UN], a[V2], a[D], geo, b.z0(),
                b.z1(), b)));
        check(g, r, "scale", (k, a, s) -> each(all, b -> k.scale(a[QB], a[V2], a[W], a[GRAD], a[D], geo, b.z0(),
                b.z1(), b)));
        check(g, r, "rebuildScale", (k, a, s) -> each(interior, b -> k.rebuildScale(a[U], a[UN], a[V2], a[QB], a[W],
                a[GRAD], coef, geo, 1, b.z0(), b.z1(), b, s)));
        check(g, r, "pmlZeta", (k, a, s) -> each(band, b -> k.pmlZeta(a[W], a[ZETAB], a[COR], prof, geo, b.z0(),
                b.z1(), b)));
        check(g, r, "pmlPsi", (k, a, s) -> each(band, b -> k.pmlPsi(a[W], a[COR], a[PSIB], a[PB], prof, coef, geo,
                b.z0(), b.z1(), b, s)));
        check(g, r, "adjointInterior", (k, a, s) -> k.adjointInterior(a[QP], a[QB], a[W], coef, geo,
                g.stencilClearBox().z0(), g.stencilClearBox().z1(), g.stencilClearBox(), s));
        check(g, r, "adjointGeneral", (k, a, s) -> each(g.stencilClearOuter(), b -> k.adjointGeneral(a[QP], a[QB],
                a[W], a[COR], a[PB], coef, geo, b.z0(), b.z1(), b, s)));
        check(g, r, "mirrorTopAdjoint", (k, a, s) -> k.mirrorTopAdjoint(a[QB], geo, 0, y1, 0, x1));
        check(g, r, "ghostRows", (k, a, s) -> k.ghostRows(a[QP], a[W], coef, geo, 0, y1, 0, x1));
    }

    private static void each(List<Box> boxes, Consumer<Box> body) {
        boxes.forEach(body);
    }

    /** Runs {@code op} through the portable and the Vector API set on the same random state; all arrays must agree. */
    private static void check(GridView g, Random r, String name, Op op) {
        float[][] p = state(g, r);
        float[][] v = new float[p.length][];
        for (int i = 0; i < p.length; i++) {
            v[i] = p[i].clone();
        }
        AcousticKernelSet portable = AcousticKernelSet.of(g.ndim(), false);
        AcousticKernelSet vector = AcousticKernelSet.of(g.ndim(), true);
        op.run(portable, p, new float[portable.adjointScratch(g.geo())]);
        int n = Math.max(vector.forwardScratch(g.geo()), vector.adjointScratch(g.geo()));
        op.run(vector, v, new float[n]);
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < p[i].length; j++) {
                if (Float.floatToRawIntBits(p[i][j]) != Float.floatToRawIntBits(v[i][j])) {
                    throw new AssertionError(g.ndim() + "-D " + name + ": array " + i + " differs at " + j + ": "
                            + p[i][j] + " (portable) vs " + v[i][j] + " (Vector API)");
                }
            }
        }
    }

    /**
     * Random wavefields everywhere; the CPML auxiliaries random in the band cells of their axis and zero elsewhere, as
     * a solver holds them (the Vector API kernels skip reading an axis whose band a row cannot reach).
     */
    private static float[][] state(GridView g, Random r) {
        int len = g.length();
        float[][] a = new float[14][];
        for (int i = 0; i < a.length; i++) {
            boolean aux = i == PSI || i == ZETA || i >= COR;
            a[i] = aux ? bandRandom(g, r) : random(r, len);
        }
        return a;
    }

    private static float[] random(Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextFloat() - 0.5f;
        }
        return a;
    }

    private static float[] bandRandom(GridView g, Random r) {
        int[] geo = g.geo();
        float[] a = new float[g.auxLength()];
        int[] lo = {geo[Layout.ZBL], geo[Layout.YBL], geo[Layout.XBL]};
        int[] hi = {geo[Layout.ZBH], geo[Layout.YBH], geo[Layout.XBH]};
        for (int slot = 0; slot < g.ndim(); slot++) {
            int axis = g.ndim() == 2 && slot == 1 ? 2 : slot;
            for (int z = 0; z < g.nz(); z++) {
                for (int y = 0; y < g.ny(); y++) {
                    for (int x = 0; x < g.nx(); x++) {
                        int c = axis == 0 ? z : axis == 1 ? y : x;
                        if (c < lo[axis] || c >= hi[axis]) {
                            a[Layout.auxIndex(geo, axis, z, y, x)] = r.nextFloat() - 0.5f;
                        }
                    }
                }
            }
        }
        return a;
    }
}
