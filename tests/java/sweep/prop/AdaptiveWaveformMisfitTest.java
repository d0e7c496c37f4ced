package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/**
 * The adaptive waveform misfit: a time shift of k samples adds exactly ½ k² to J (the filter is then the shifted
 * zero-lag filter), however many periods it spans, where L2 stops growing after half a period; blindness to trace
 * amplitudes and zero traces; the adjoint source against central differences of J in the samples; dJ/dvp of an
 * acoustic run against central finite differences of J from forward records.
 */
class AdaptiveWaveformMisfitTest {
    @Test
    void aTimeShiftOfKSamplesAddsHalfKSquared() {
        int nt = 600;
        AdaptiveWaveformMisfit awi = new AdaptiveWaveformMisfit(nt);
        assertEquals(2048, awi.fftLength());
        float[] o = shifted(Wavelets.ricker(15, nt, 1e-3), 100); // its peak at sample 200, every shift inside
        double j0 = awi.evaluate(o, o, new float[nt]);
        double previousL2 = 0;
        boolean l2Fell = false;
        for (int k = -50; k <= 200; k += 10) {
            float[] s = shifted(o, k);
            double j = awi.evaluate(s, o, new float[nt]);
            // every shifted trace keeps the observed energy: one weight ω = 1 / (1 + κ)
            double weight = 1 / (1 + TraceMisfit.WEAK_SYNTHETIC);
            assertEquals(weight * 0.5 * k * k, j - j0, 1e-6 * (1 + 0.5 * k * k), "shift of " + k + " samples");
            if (k > 0) {
                double l2 = Misfit.L2.evaluate(s, o, new float[nt]);
                l2Fell |= l2 < previousL2;
                previousL2 = l2;
            }
        }
        assertTrue(j0 < 0.5 * 20 * 20, "J of the observed trace itself (the prewhitening's spread of the filter): "
                + j0);
        assertTrue(l2Fell, "L2 is not monotonic in the shift (it cycle-skips), the adaptive misfit is");
    }

    /** {@code x} delayed by {@code k} samples (advanced when negative), zeros shifted in. */
    private static float[] shifted(float[] x, int k) {
        float[] y = new float[x.length];
        for (int t = 0; t < x.length; t++) {
            int from = t - k;
            y[t] = from >= 0 && from < x.length ? x[from] : 0;
        }
        return y;
    }

    @Test
    void eachTraceIsBlindToItsAmplitudeAndAZeroTraceContributesNothing() {
        int nt = 120;
        int traces = 3;
        Random r = new Random(11);
        float[] o = TestModels.gaussian(r, nt * traces);
        float[] s = TestModels.gaussian(r, nt * traces);
        float[] scaled = new float[s.length];
        float[] one = new float[nt];
        float[] oneObs = new float[nt];
        for (int t = 0; t < nt; t++) { // trace 0: 3 × s against 0.5 × o, trace 1: s, trace 2: zero synthetic
            scaled[t * traces] = 3 * s[t * traces];
            o[t * traces] *= 0.5f;
            scaled[t * traces + 1] = s[t * traces + 1];
            one[t] = s[t * traces];
            oneObs[t] = 2 * o[t * traces];
        }
        AdaptiveWaveformMisfit awi = new AdaptiveWaveformMisfit(nt);
        float[] res = new float[s.length];
        double j = awi.evaluate(scaled, o, res);
        double j0 = awi.evaluate(one, oneObs, new float[nt]);
        float[] second = new float[nt];
        float[] secondObs = new float[nt];
        for (int t = 0; t < nt; t++) {
            second[t] = s[t * traces + 1];
            secondObs[t] = o[t * traces + 1];
        }
        double j1 = awi.evaluate(second, secondObs, new float[nt]);
        // J of a trace is the same at any amplitude but for the weight ω = ‖s‖² / (‖s‖² + κ ‖o‖²)
        assertEquals(j0 / weight(one, oneObs) * weight(scaled, o, 0, traces) + j1, j, 1e-7 * j,
                "the scaled trace's J is the unscaled one's (to its weight and the rounding of 3 s)");
        for (int t = 0; t < nt; t++) {
            assertEquals(0, res[t * traces + 2], 0, "no adjoint source on the zero trace");
        }
        assertEquals(1, awi.zeroTraces());
    }

    /** ω of a one-trace record. */
    private static double weight(float[] s, float[] o) {
        return weight(s, o, 0, 1);
    }

    /** ω = ‖s‖² / (‖s‖² + κ ‖o‖²) of trace {@code c} of {@code (nt, traces)} records. */
    private static double weight(float[] s, float[] o, int c, int traces) {
        double ss = 0;
        double oo = 0;
        for (int i = c; i < s.length; i += traces) {
            ss += (double) s[i] * s[i];
            oo += (double) o[i] * o[i];
        }
        return ss / (ss + TraceMisfit.WEAK_SYNTHETIC * oo);
    }

    @Test
    void aSyntheticTraceFarWeakerThanTheObservedFadesOut() {
        int nt = 300;
        float[] o = shifted(Wavelets.ricker(20, nt, 1e-3), 40);
        float[] s = shifted(o, 90);
        AdaptiveWaveformMisfit awi = new AdaptiveWaveformMisfit(nt);
        float[] res = new float[nt];
        double full = awi.evaluate(s, o, res);
        double resFull = rms(res);
        for (int t = 0; t < nt; t++) {
            s[t] *= 1e-5f;
        }
        double weak = awi.evaluate(s, o, res);
        // ω ≈ 1e-10 / 1e-4: J a millionth of the strong trace's, its adjoint source (1/‖s‖ × ω) ten times smaller
        assertEquals(full * 1e-6, weak, 1e-3 * full * 1e-6, "J of a synthetic 1e-5 times as strong");
        assertTrue(rms(res) < 0.2 * resFull, "adjoint source " + rms(res) + " against " + resFull);
    }

    private static double rms(float[] x) {
        double e = 0;
        for (float v : x) {
            e += (double) v * v;
        }
        return Math.sqrt(e / x.length);
    }

    @Test
    void residualIsTheDerivativeOfJ() {
        int nt = 300;
        int traces = 3;
        Random r = new Random(9);
        float[] w = Wavelets.ricker(20, nt, 1e-3);
        float[] o = new float[nt * traces];
        float[] s = new float[nt * traces];
        for (int c = 0; c < traces; c++) { // three arrivals per trace, the synthetic ones late and of other strengths
            for (int k = 0; k < 3; k++) {
                int at = 10 + r.nextInt(150);
                int late = at + 5 + r.nextInt(30);
                double a = 0.5 + r.nextDouble();
                double b = 0.5 + r.nextDouble();
                for (int t = 0; t < nt; t++) {
                    o[t * traces + c] += t >= at ? (float) (a * w[t - at]) : 0;
                    s[t * traces + c] += t >= late ? (float) (b * w[t - late]) : 0;
                }
            }
        }
        float[] dir = TestModels.gaussian(r, s.length);
        for (int t = 0; t < nt; t++) { // trace 2's synthetic at 1 % of its amplitude: the weight ω about one half
            s[t * traces + 2] *= 0.01f;
            dir[t * traces + 2] *= 0.01f;
        }
        AdaptiveWaveformMisfit awi = new AdaptiveWaveformMisfit(nt);
        float[] res = new float[s.length];
        double j = awi.evaluate(s, o, res);
        assertTrue(j > 0, "J = " + j);
        double w2 = weight(s, o, 2, traces);
        assertTrue(w2 > 0.2 && w2 < 0.8, "trace 2's weight " + w2);
        double analytic = 0;
        for (int i = 0; i < s.length; i++) {
            analytic += (double) res[i] * dir[i];
        }
        double h = 1e-2;
        double fd = (8 * (j(awi, s, dir, h, o) - j(awi, s, dir, -h, o))
                - (j(awi, s, dir, 2 * h, o) - j(awi, s, dir, -2 * h, o))) / (12 * h);
        System.out.printf("awi adjoint source: analytic %.10e, finite difference %.10e, rel. error %.2e%n", analytic,
                fd, Math.abs(fd - analytic) / Math.abs(fd));
        // 3.8e-6 without the weak trace; with it the difference levels off at 1.5e-5 from h = 1e-2 down to 3e-3 (the
        // float rounding of the perturbed records)
        assertEquals(fd, analytic, 5e-5 * Math.abs(fd), "directional derivative");
    }

    private static double j(Misfit m, float[] s, float[] dir, double h, float[] o) {
        return m.evaluate(GradientTest.shifted(s, dir, h), o, new float[s.length]);
    }

    @Test
    void acousticGradientMatchesFiniteDifferences() {
        double rel = TraceNormalizedCorrelationTest.acousticCheck(new AdaptiveWaveformMisfit(300), "awi", 16);
        assertTrue(rel < 1e-3, "relative error " + rel);
    }
}
