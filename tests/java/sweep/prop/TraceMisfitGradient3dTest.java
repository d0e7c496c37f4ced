package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * dJ/dvp of a 3-D acoustic run for each trace-wise misfit (trace-normalised correlation, envelope, adaptive waveform)
 * against fourth-order central differences of J from forward records.
 */
class TraceMisfitGradient3dTest {
    private static double check(Misfit m, String name, double eps) {
        int n = 22;
        // maxVel fixed: the CPML profile is a constant of the gradient and must not follow the perturbed model
        PropSpec spec = PropSpec.builder(n, n, n).dh(10).dt(1e-3).nt(220).abcn(6).order(6).freeSurface(true)
                .storage(Storage.FULL).maxVel(3000).build();
        int[][][] src = {{{6, 8, 3}}};
        int[][][] rec = {{{17, 16, 8}, {3, 14, 19}, {12, 2, 1}, {19, 4, 14}}};
        return TraceNormalizedCorrelationTest.acousticCheck(m, name, eps, spec, src, rec);
    }

    @Test
    void traceNormalizedCorrelation() {
        assertTrue(check(new TraceNormalizedCorrelation(220), "ncc", 16) < 1e-3);
    }

    @Test
    void envelope() {
        assertTrue(check(new EnvelopeDifference(220), "envelope", 8) < 1e-3);
    }

    @Test
    void adaptiveWaveform() {
        // J weights the filter by its squared lag, which lifts the float noise of the records (lags up to 256): a
        // larger step keeps that noise below the difference (at 16 m/s the relative error is 3e-3, at 64 5e-4)
        assertTrue(check(new AdaptiveWaveformMisfit(220), "awi", 64) < 1e-3);
    }
}
