package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/**
 * The trace-normalised correlation misfit: its adjoint source against central differences of J in the synthetic samples
 * (one trace weak enough for its weight to matter), its blindness to trace amplitudes, zero traces, and dJ/dvp of an
 * acoustic run against central finite differences of J from forward records.
 */
class TraceNormalizedCorrelationTest {
    @Test
    void residualIsTheDerivativeOfJ() {
        int nt = 50;
        int traces = 7;
        Random r = new Random(5);
        float[] s = TestModels.gaussian(r, nt * traces);
        float[] o = TestModels.gaussian(r, nt * traces);
        for (int i = 0; i < s.length; i++) { // correlated traces, as synthetic and observed data are
            s[i] += 2 * o[i];
        }
        float[] dir = TestModels.gaussian(r, s.length);
        for (int t = 0; t < nt; t++) { // trace 3's synthetic at 0.5 % of its amplitude: its weight about one half
            s[t * traces + 3] *= 0.005f;
            dir[t * traces + 3] *= 0.005f;
        }
        TraceNormalizedCorrelation ncc = new TraceNormalizedCorrelation(nt);
        float[] res = new float[s.length];
        double j = ncc.evaluate(s, o, res);
        assertTrue(j > 0 && j < traces, "J = " + j);
        double analytic = 0;
        for (int i = 0; i < s.length; i++) {
            analytic += (double) res[i] * dir[i];
        }
        double h = 1e-2;
        double plus = j(ncc, GradientTest.shifted(s, dir, h), o);
        double minus = j(ncc, GradientTest.shifted(s, dir, -h), o);
        double fd = (plus - minus) / (2 * h);
        assertEquals(fd, analytic, 1e-3 * Math.abs(fd), "directional derivative");
        assertEquals(0, ncc.zeroTraces());
    }

    private static double j(Misfit m, float[] s, float[] o) {
        return m.evaluate(s, o, new float[s.length]);
    }

    @Test
    void eachTraceIsBlindToItsAmplitudeAndAZeroTraceContributesNothing() {
        int nt = 40;
        int traces = 3;
        Random r = new Random(6);
        float[] o = TestModels.gaussian(r, nt * traces);
        float[] s = new float[o.length];
        for (int t = 0; t < nt; t++) { // trace 0: 3 × observed, trace 1: 0.25 × observed, trace 2: zero
            s[t * traces] = 3 * o[t * traces];
            s[t * traces + 1] = 0.25f * o[t * traces + 1];
        }
        TraceNormalizedCorrelation ncc = new TraceNormalizedCorrelation(nt);
        float[] res = new float[s.length];
        assertEquals(0, ncc.evaluate(s, o, res), 1e-12);
        for (int t = 0; t < nt; t++) { // at a minimum: no adjoint source; the zero trace has none either
            for (int c = 0; c < traces; c++) {
                assertEquals(0, res[t * traces + c], 1e-6, "residual at sample " + t + " of trace " + c);
            }
        }
        assertEquals(1, ncc.zeroTraces());
        assertThrows(IllegalArgumentException.class, () -> ncc.evaluate(new float[41], new float[41], new float[41]));
    }

    @Test
    void acousticGradientMatchesFiniteDifferences() {
        double rel = acousticCheck(new TraceNormalizedCorrelation(300), "ncc", 16);
        assertTrue(rel < 1e-3, "relative error " + rel);
    }

    /**
     * dJ/dvp of a 2-D acoustic run of 300 steps with misfit {@code m} along a smooth direction against a fourth-order
     * central difference of J from forward records with step {@code eps} m/s: the relative error.
     */
    static double acousticCheck(Misfit m, String name, double eps) {
        int nz = 30;
        int nx = 44;
        // maxVel fixed: the CPML profile is a constant of the gradient and must not follow the perturbed model
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(300).abcn(8).freeSurface(true)
                .storage(Storage.FULL).maxVel(3000).build();
        int[][][] src = {{{10, 2}}, {{34, 3}}};
        int[][][] rec = {{{5, 1}, {22, 2}, {40, 1}, {30, 20}}, {{5, 1}, {22, 2}, {40, 1}, {30, 20}}};
        return acousticCheck(m, name, eps, spec, src, rec);
    }

    /**
     * dJ/dvp of an acoustic run of {@code spec} (2-D or 3-D) with misfit {@code m} along a smooth direction against a
     * fourth-order central difference of J from forward records with step {@code eps} m/s: the relative error.
     */
    static double acousticCheck(Misfit m, String name, double eps, PropSpec spec, int[][][] src, int[][][] rec) {
        int[] shape = spec.shape();
        float[] v = TestModels.smoothRandom(21, 2200, 400, shape);
        float[] vObs = TestModels.smoothRandom(22, 2200, 400, shape);
        float[] w = Wavelets.ricker(12, spec.nt(), spec.dt());
        float[] dir = TestModels.smoothRandom(99, 0, 1, shape);
        try (Propagator p = new Propagator(spec)) {
            float[] obs = p.forward(w, src, rec, vObs).data();
            Gradient g = p.forwardAndGradient(w, src, rec, v, obs, m);
            double analytic = 0;
            for (int i = 0; i < v.length; i++) {
                analytic += (double) g.vp()[i] * dir[i];
            }
            double j1 = j(p, w, src, rec, GradientTest.shifted(v, dir, eps), obs, m);
            double jm1 = j(p, w, src, rec, GradientTest.shifted(v, dir, -eps), obs, m);
            double j2 = j(p, w, src, rec, GradientTest.shifted(v, dir, 2 * eps), obs, m);
            double jm2 = j(p, w, src, rec, GradientTest.shifted(v, dir, -2 * eps), obs, m);
            double fd = (8 * (j1 - jm1) - (j2 - jm2)) / (12 * eps);
            double rel = Math.abs(fd - analytic) / Math.abs(fd);
            System.out.printf("%s gradient check %dD acoustic: J %.6e, analytic %.8e, finite difference %.8e,"
                    + " rel. error %.2e%n", name, shape.length, g.misfit(), analytic, fd, rel);
            return rel;
        }
    }

    /** J of the forward records of {@code v}, one shot at a time as the gradient evaluates it. */
    private static double j(Propagator p, float[] w, int[][][] src, int[][][] rec, float[] v, float[] obs, Misfit m) {
        float[] syn = p.forward(w, src, rec, v).data();
        int per = syn.length / src.length;
        double j = 0;
        for (int b = 0; b < src.length; b++) {
            j += m.forShot(src[b], rec[b]).evaluate(java.util.Arrays.copyOfRange(syn, b * per, (b + 1) * per),
                    java.util.Arrays.copyOfRange(obs, b * per, (b + 1) * per), new float[per]);
        }
        return j;
    }
}
