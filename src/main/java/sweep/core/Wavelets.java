package sweep.core;

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
}
