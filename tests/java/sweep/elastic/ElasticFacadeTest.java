package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * The facade's elastic calls (spec source type and fields, parameter-major models, {@code (3, cells)} gradients) give
 * the bits of the solver's typed calls (an explicit source type, field list and {@link ElasticModel}).
 */
class ElasticFacadeTest {
    private static float[] stacked(ElasticModel m) {
        int n = m.vp().length;
        float[] out = new float[3 * n];
        System.arraycopy(m.vp(), 0, out, 0, n);
        System.arraycopy(m.vs(), 0, out, n, n);
        System.arraycopy(m.rho(), 0, out, 2 * n, n);
        return out;
    }

    private static ElasticModel random(int cells, long seed) {
        Random r = new Random(seed);
        float[] vp = new float[cells];
        float[] vs = new float[cells];
        float[] rho = new float[cells];
        for (int i = 0; i < cells; i++) {
            vp[i] = 2400 + 300 * r.nextFloat();
            vs[i] = i % 7 == 0 ? 0 : 1100 + 200 * r.nextFloat();
            rho[i] = 1900 + 300 * r.nextFloat();
        }
        return new ElasticModel(vp, vs, rho);
    }

    @Test
    void facadeGivesTheElasticSolversBits() {
        int nz = 24;
        int nx = 30;
        int nt = 120;
        double dt = 1e-3;
        PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(dt).nt(nt).abcn(6)
                .freeSurface(true).sourceType("fz").recordFields("vz,p,vx").storage(Storage.FULL)
                .maxVel(3000).threads(2).build();
        ElasticModel m = random(nz * nx, 3);
        ElasticModel m0 = random(nz * nx, 4);
        float[] w = Wavelets.ricker(14, nt, dt);
        int[][][] src = {{{12, 4}}, {{20, 9}}};
        int[][][] rec = {{{3, 0}, {25, 12}}, {{3, 0}, {25, 12}}};
        List<ElasticField> f = ElasticField.parseList(String.join(",", spec.recordFields()), 2);
        try (ElasticSolver ep = new ElasticSolver(spec); Propagator p = new Propagator(spec)) {
            Record ref = ep.forward(w, src, ElasticSource.FZ, rec, f, m);
            Record got = p.forward(w, src, rec, stacked(m));
            assertEquals(3, got.nfield());
            assertArrayEquals(ref.data(), got.data());
            ElasticGradient gr = ep.forwardAndGradient(w, src, ElasticSource.FZ, rec, f, m0, ref.data(), Misfit.L2);
            Gradient g = p.forwardAndGradient(w, src, rec, stacked(m0), got.data(), Misfit.L2);
            assertEquals(3, g.count());
            assertArrayEquals(gr.parameters(), g.parameters());
            assertArrayEquals(gr.vs(), g.parameter(1));
            assertEquals(gr.misfit(), g.misfit());
            // the two-call form and a reused model (null)
            Record plain = p.forward(w, src, rec, null);
            assertArrayEquals(ep.forward(w, src, ElasticSource.FZ, rec, f, m0).data(), plain.data());
            Record again = p.forwardForGradient(w, src, rec, null);
            assertArrayEquals(plain.data(), again.data());
            float[] res = new float[again.data().length];
            Arrays.fill(res, 1e-9f);
            Gradient g2 = p.gradient(res);
            assertEquals(3 * nz * nx, g2.parameters().length);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.forward(w, src, rec, new float[nz * nx]));
            assertTrue(e.getMessage().contains("vp, vs and rho one after the other"), e.getMessage());
        }
    }
}
