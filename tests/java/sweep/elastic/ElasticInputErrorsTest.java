package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.core.FdWeights;
import sweep.core.Wavelets;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/** Elastic stability limit (stated and tight) and the errors a user sees for bad elastic input. */
class ElasticInputErrorsTest {
    private static PropSpec.Builder spec(int nz, int nx) {
        return PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(1e-3).nt(20).abcn(5).threads(1);
    }

    private static final List<ElasticField> P = List.of(ElasticField.P);

    @Test
    void cflMessageGivesTheLargestStableDt() {
        double limit = 10 / (4000 * Math.sqrt(2) * FdWeights.staggeredAbsSum(8));
        assertEquals(limit, spec(20, 20).build().maxStableDt(4000), 1e-15);
        try (ElasticSolver p = new ElasticSolver(spec(20, 20).dt(2e-3).build())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.forward(
                    Wavelets.ricker(10, 20, 2e-3), new int[][][] {{{5, 5}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {{{6, 6}}}, P, ElasticModel.constant(400, 4000f, 2000f, 2000f)));
            assertTrue(e.getMessage().contains("largest stable dt is " + PropSpec.roundedDown(limit)), e.getMessage());
        }
        // maxVel checks at construction, with the elastic formula
        assertThrows(IllegalArgumentException.class, () -> spec(20, 20).dt(1.01 * limit).maxVel(4000).build());
        spec(20, 20).dt(0.99 * limit).maxVel(4000).build();
    }

    /** Random fields grow without bound just above the stated limit and stay bounded just below it. */
    @Test
    void stabilityLimitIsTight() {
        double below = growth(0.99);
        double above = growth(1.03);
        System.out.printf("elastic CFL: growth of random fields over 400 steps at 0.99 x limit %.3g, at 1.03 x limit %.3g%n",
                below, above);
        assertTrue(below < 10, "stable run grew by " + below);
        assertTrue(above > 1e6, "unstable run grew only by " + above);
    }

    private static double growth(double factor) {
        int n = 40;
        PropSpec probe = spec(n, n).abcn(0).build();
        PropSpec s = spec(n, n).abcn(0).dt(factor * probe.maxStableDt(3000)).build();
        try (sweep.backend.JavaBackend backend = new sweep.backend.JavaBackend(1)) {
            ElasticStepper st = new ElasticStepper(Grid.single(s), backend);
            ElasticModel m = ElasticModel.constant(n * n, 3000f, 1500f, 2000f);
            st.setModel(m.vp(), m.vs(), m.rho(), 3000);
            Random rnd = new Random(7);
            double start = 0;
            for (int z = 0; z < n; z++) {
                for (int x = 0; x < n; x++) {
                    int i = st.g.compIndex(z, 0, x);
                    st.v[i] = (float) rnd.nextGaussian();
                    st.v[st.len + i] = (float) rnd.nextGaussian();
                    start = Math.max(start, Math.max(Math.abs(st.v[i]), Math.abs(st.v[st.len + i])));
                }
            }
            for (int t = 0; t < 400; t++) {
                st.velocityStep();
                st.stressStep();
            }
            double end = 0;
            for (float v : st.v) {
                end = Math.max(end, Float.isFinite(v) ? Math.abs(v) : Double.POSITIVE_INFINITY);
            }
            return end / start;
        }
    }

    @Test
    void badElasticInputIsRefusedWithAClearMessage() {
        try (ElasticSolver p = new ElasticSolver(spec(20, 20).build())) {
            float[] w = Wavelets.ricker(10, 20, 1e-3);
            int[][][] src = {{{5, 5}}};
            int[][][] rec = {{{6, 6}}};
            ElasticModel ok = ElasticModel.constant(400, 2000f, 1000f, 2000f);
            assertMessage(() -> p.forward(w, src, ElasticSource.FY, rec, P, ok), "fy needs a 3-D model");
            assertMessage(() -> p.forward(w, src, ElasticSource.FX, rec, List.of(ElasticField.VY), ok), "vy");
            assertMessage(() -> p.forward(w, src, ElasticSource.FX, rec, List.of(ElasticField.P, ElasticField.P), ok),
                    "listed twice");
            assertMessage(() -> p.forward(w, new int[][][] {{{20, 5}}}, ElasticSource.FX, rec, P, ok),
                    "lies outside the grid");
            assertMessage(() -> p.forward(w, src, ElasticSource.FX, rec, P, ElasticModel.constant(400, 2000f, 1800f,
                    2000f)), "vs=1800.0 is not below vp");
            assertMessage(() -> p.forward(w, src, ElasticSource.FX, rec, P, ElasticModel.constant(400, 2000f, 1000f,
                    0f)), "rho holds a non-positive density");
            assertMessage(() -> p.forward(w, src, ElasticSource.FX, rec, P, ElasticModel.constant(400, 2000f, -1f,
                    2000f)), "vs holds a negative velocity");
            assertMessage(() -> p.forward(w, src, ElasticSource.FX, rec, P, ElasticModel.constant(399, 2000f, 1000f,
                    2000f)), "needs 400");
            // a receiver in the last column: its vx node lies half a cell into the PML pad, which is allowed
            Record r = p.forward(w, src, ElasticSource.FX, new int[][][] {{{19, 5}}}, List.of(ElasticField.VX), ok);
            assertEquals(20, r.nt());
        }
        assertMessage(() -> new ElasticSolver(PropSpec.builder(20, 20).dh(10).dt(1e-3).nt(20).build()),
                "equation elastic");
        assertMessage(() -> PropSpec.builder(20,
                20).dh(10).dt(1e-3).nt(20).sourceType(ElasticSource.FX.label()).build(),
                "the acoustic equation has one kind of source");
        assertMessage(() -> spec(20, 20).sourceType(ElasticSource.FY.label()).build(), "fy needs a 3-D model");
        assertMessage(() -> spec(20, 20).recordFields("p,vy").build(), "vy is recorded in 3-D only");
        assertMessage(() -> ElasticField.parseList("p,vq", 2), "unknown recorded field 'vq'");
        assertMessage(() -> ElasticSource.parse("explode"), "unknown elastic source type 'explode'");
        assertEquals(List.of(ElasticField.VZ, ElasticField.P, ElasticField.VY), ElasticField.parseList("vz, P,vy", 3));
        assertEquals(ElasticSource.FZ, ElasticSource.parse("FZ"));
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable run, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, run);
        assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should contain '" + part + "'");
    }
}
