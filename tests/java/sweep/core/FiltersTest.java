package sweep.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/** The band filters: Butterworth gain against its closed form, and filtering commuting with wave propagation. */
class FiltersTest {
    /** Steady-state amplitude of a filtered sine against |H| of a bilinear-transformed Butterworth low-pass. */
    @Test
    void gainMatchesTheBilinearButterworthFormula() {
        double dt = 2e-3;
        double fc = 10;
        int order = 4;
        int nt = 20000;
        for (double f : new double[] {2, 8, 10, 14, 30}) {
            float[] s = new float[nt];
            for (int t = 0; t < nt; t++) {
                s[t] = (float) Math.sin(2 * Math.PI * f * t * dt);
            }
            float[] y = Filters.lowPass(s, 1, nt, 1, dt, fc, order);
            double peak = 0;
            for (int t = nt / 2; t < nt; t++) {
                peak = Math.max(peak, Math.abs(y[t]));
            }
            double ratio = Math.tan(Math.PI * f * dt) / Math.tan(Math.PI * fc * dt);
            double gain = 1 / Math.sqrt(1 + Math.pow(ratio, 2 * order));
            System.out.printf("Butterworth %d Hz: gain %.5f, formula %.5f%n", (int) f, peak, gain);
            assertEquals(gain, peak, 2e-3 + 0.01 * gain, "gain at " + f + " Hz");
        }
    }

    /**
     * A causal time-invariant filter commutes with the (linear, time-invariant) wave equation: the record of a
     * filtered wavelet equals the filtered record, to float rounding.
     */
    @Test
    void filteringTheWaveletFiltersTheRecord() {
        int nt = 700;
        double dt = 1e-3;
        PropSpec spec = PropSpec.builder(60, 90).dh(10).dt(dt).nt(nt).abcn(15).freeSurface(true).build();
        float[] v = new float[60 * 90];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1800 + 10 * (i / 90);
        }
        int[][][] src = {{{30, 2}}};
        int[][][] rec = {{{10, 2}, {50, 20}, {85, 2}}};
        float[] w = Wavelets.ricker(15, nt, dt);
        float[] wf = Filters.lowPass(w, 1, nt, 1, dt, 8, 4);
        float[] a;
        float[] b;
        try (Propagator p = new Propagator(spec)) {
            a = p.forward(wf, src, rec, v).data();
            b = Filters.lowPass(p.forward(w, src, rec, v).data(), 1, nt, 3, dt, 8, 4);
        }
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            num += Math.pow(a[i] - b[i], 2);
            den += (double) b[i] * b[i];
        }
        double rel = Math.sqrt(num / den);
        System.out.printf("record of filtered wavelet vs filtered record: %.2e relative L2%n", rel);
        assertTrue(den > 0 && rel < 5e-5, "relative difference " + rel);
    }

    @Test
    void refusesCornersAboveNyquist() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Filters.lowPass(new float[10], 1, 10, 1, 0.01, 60, 4));
        assertTrue(e.getMessage().contains("Nyquist"), e.getMessage());
    }
}
