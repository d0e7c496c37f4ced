package sweep.core;

import org.apache.commons.math3.complex.Complex;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;

/** Source time functions sampled on the propagator's time axis. */
public final class Wavelets {
    private Wavelets() {
    }

    /** Ricker wavelet with peak frequency {@code freq} (Hz) centred at {@code peakTime} (s), evaluated at time t. */
    public static double ricker(double freq, double peakTime, double t) {
        double a = Math.PI * freq * (t - peakTime);
        a *= a;
        return (1.0 - 2.0 * a) * Math.exp(-a);
    }

    /** {@code nt} samples at t = n·dt of a Ricker wavelet of peak frequency {@code freq}, centred at 1.5/freq. */
    public static float[] ricker(double freq, int nt, double dt) {
        if (!(freq > 0) || Double.isInfinite(freq)) {
            throw new IllegalArgumentException("Ricker frequency must be positive, got " + freq);
        }
        float[] w = new float[nt];
        double t0 = 1.5 / freq;
        for (int n = 0; n < nt; n++) {
            w[n] = (float) ricker(freq, t0, n * dt);
        }
        return w;
    }

    /**
     * The frequency in Hz where the amplitude spectrum of {@code nt} samples of {@code w} from {@code offset}, dt
     * apart, peaks (zero-padded to at least 8·nt samples, so within dt⁻¹/(8·nt)); IllegalArgumentException for a
     * wavelet of zeros or one whose spectrum peaks at 0 Hz.
     */
    public static double peakFrequency(float[] w, int offset, int nt, double dt) {
        int n = Integer.highestOneBit(Math.max(1, 8 * nt - 1)) << 1;
        double[] x = new double[n];
        for (int i = 0; i < nt; i++) {
            x[i] = w[offset + i];
        }
        Complex[] f = new FastFourierTransformer(DftNormalization.STANDARD).transform(x, TransformType.FORWARD);
        int best = 0;
        double max = 0;
        for (int k = 0; k <= n / 2; k++) {
            double a = f[k].abs();
            if (a > max) {
                max = a;
                best = k;
            }
        }
        if (best == 0) {
            throw new IllegalArgumentException("the wavelet's spectrum " + (max == 0 ? "is zero" : "peaks at 0 Hz")
                    + ": it has no peak frequency");
        }
        return best / (n * dt);
    }
}
