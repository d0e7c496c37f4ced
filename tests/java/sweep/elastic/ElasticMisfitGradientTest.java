package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.AdaptiveWaveformMisfit;
import sweep.prop.EnvelopeDifference;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Storage;
import sweep.prop.TraceNormalizedCorrelation;

/**
 * The trace-wise misfits (trace-normalised correlation, envelope, adaptive waveform) on elastic records of vx and vz (a
 * trace per receiver and component): dJ/dvp, dJ/dvs and dJ/drho against fourth-order central differences of J from
 * forward records.
 */
class ElasticMisfitGradientTest {
    @Test
    void traceNormalizedCorrelation() {
        check(new TraceNormalizedCorrelation(260), "ncc", 20);
    }

    @Test
    void envelope() {
        check(new EnvelopeDifference(260), "envelope", 10);
    }

    @Test
    void adaptiveWaveform() {
        check(new AdaptiveWaveformMisfit(260), "awi", 20);
    }

    private static void check(Misfit misfit, String name, double eps) {
        int[] shape = {30, 36};
        ElasticModel m = ElasticAdjointTest.model(31, 0, shape);
        ElasticModel mObs = ElasticAdjointTest.model(32, 0, shape);
        // maxVel fixed: the CPML profile is a constant of the gradient and must not follow the perturbed model
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(260).abcn(8).order(8)
                .freeSurface(true).storage(Storage.FULL).maxVel(3500).build();
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        int[][][] src = {{{10, 2}}};
        int[][][] rec = {{{28, 1}, {24, 14}, {5, 2}, {18, 25}}};
        List<ElasticField> fields = List.of(ElasticField.VX, ElasticField.VZ);
        float[] dir = ElasticGradientTest.bump(shape, new int[] {15, 18}, 3);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            float[] obs = p.forward(w, src, ElasticSource.FZ, rec, fields, mObs).data();
            ElasticGradient g = p.forwardAndGradient(w, src, ElasticSource.FZ, rec, fields, m, obs, misfit);
            for (int k = 0; k < 3; k++) {
                float[] gk = k == 0 ? g.vp() : k == 1 ? g.vs() : g.rho();
                double analytic = 0;
                for (int i = 0; i < dir.length; i++) {
                    analytic += (double) gk[i] * dir[i];
                }
                double j1 = j(p, w, src, rec, fields, ElasticGradientTest.shifted(m, k, dir, eps), obs, misfit);
                double jm1 = j(p, w, src, rec, fields, ElasticGradientTest.shifted(m, k, dir, -eps), obs, misfit);
                double j2 = j(p, w, src, rec, fields, ElasticGradientTest.shifted(m, k, dir, 2 * eps), obs, misfit);
                double jm2 = j(p, w, src, rec, fields, ElasticGradientTest.shifted(m, k, dir, -2 * eps), obs, misfit);
                double fd = (8 * (j1 - jm1) - (j2 - jm2)) / (12 * eps);
                double rel = Math.abs(fd - analytic) / Math.abs(fd);
                System.out.printf("%s gradient check 2D elastic (vx, vz) d/d%s: J %.6e, analytic %.8e, finite"
                        + " difference %.8e, rel. error %.2e%n", name, new String[] {"vp", "vs", "rho"}[k], g.misfit(),
                        analytic, fd, rel);
                assertTrue(rel < 2e-3, "d/d" + k + ": relative error " + rel);
            }
        }
    }

    private static double j(ElasticSolver p, float[] w, int[][][] src, int[][][] rec, List<ElasticField> fields,
                            ElasticModel m, float[] obs, Misfit misfit) {
        float[] syn = p.forward(w, src, ElasticSource.FZ, rec, fields, m).data();
        return misfit.evaluate(syn, obs, new float[syn.length]);
    }
}
