package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * Wavelet estimation against the linearity of the data in the wavelet: at the true model, from a start wavelet of the
 * wrong amplitude, delay and shape, the estimate is the wavelet that made the observed data (within the band the data
 * carry) and its synthetic data fit the observed data; data that no receiver records are refused.
 */
class WaveletEstimateTest {
    private static final int NZ = 40;
    private static final int NX = 60;
    private static final int NT = 500;
    private static final double DT = 1e-3;

    private static float[] model() {
        float[] m = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                m[z * NX + x] = 1800f + 25f * z + (z > 25 ? 400f : 0f);
            }
        }
        return m;
    }

    private static double relative(float[] a, float[] b) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            num += (double) (a[i] - b[i]) * (a[i] - b[i]);
            den += (double) b[i] * b[i];
        }
        return Math.sqrt(num / den);
    }

    @Test
    void theEstimateAtTheTrueModelIsTheWaveletThatMadeTheData() {
        PropSpec spec = PropSpec.builder(NZ, NX).dh(10).dt(DT).nt(NT).abcn(10).threads(2).build();
        float[] m = model();
        int[][][] src = {{{15, 1}}, {{44, 1}}};
        int[][] line = new int[NX / 3][];
        for (int r = 0; r < line.length; r++) {
            line[r] = new int[] {3 * r, 2};
        }
        int[][][] rec = {line, line};
        // the truth: 1.7 times a 12 Hz Ricker wavelet, 15 samples later, plus a quarter of a 20 Hz one
        float[] ricker = Wavelets.ricker(12, NT, DT);
        float[] other = Wavelets.ricker(20, NT, DT);
        float[] truth = new float[NT];
        for (int t = 15; t < NT; t++) {
            truth[t] = 1.7f * ricker[t - 15] + 0.25f * other[t - 15];
        }
        float[] observed;
        float[] startData;
        try (Propagator p = new Propagator(spec)) {
            observed = p.forward(truth, src, rec, m).data();
            startData = p.forward(ricker, src, rec, m).data();
        }
        Acquisition acq = new Acquisition(spec, ricker, src, rec, observed);
        float[] est;
        try (SingleDomainObjective obj = new SingleDomainObjective(acq, 0)) {
            est = Inversion.estimated(obj, acq, m).wavelet();
        }
        float[] fit;
        try (Propagator p = new Propagator(spec)) {
            fit = p.forward(est, src, rec, m).data();
        }
        double wErr = relative(est, truth);
        double dStart = relative(startData, observed);
        double dErr = relative(fit, observed);
        System.out.printf(Locale.ROOT, "wavelet estimate at the true model: wavelet error %.2e, data misfit %.2e"
                + " (start %.2e)%n", wErr, dErr, dStart);
        assertTrue(dStart > 0.5, "the start wavelet must be wrong: " + dStart);
        assertTrue(wErr < 0.05, "the estimate differs from the wavelet that made the data by " + wErr);
        assertTrue(dErr < 0.02, "the estimate's data differ from the observed by " + dErr);
    }

    @Test
    void dataThatSeeNoSourceAreRefused() {
        int nfft = WaveletEstimate.fftLength(NT);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WaveletEstimate.estimate(
                Wavelets.ricker(10, NT, DT), new float[WaveletEstimate.spectraLength(nfft)], NT, nfft));
        assertTrue(e.getMessage().contains("no receiver records the source"), e.getMessage());
        assertTrue(Arrays.equals(new int[] {1024, 1024}, new int[] {WaveletEstimate.fftLength(NT),
                WaveletEstimate.fftLength(512)}));
    }
}
