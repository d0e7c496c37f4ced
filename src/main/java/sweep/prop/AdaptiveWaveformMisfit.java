package sweep.prop;

import java.util.Arrays;
import org.apache.commons.math3.transform.TransformType;

/**
 * The adaptive waveform misfit (after Warner and Guasch, 2016), a misfit of the optimal-transport family that resists
 * cycle skipping: per trace, the Wiener filter w that turns the observed trace o into the synthetic s, and J = ω ½ Σ_τ
 * τ² w(τ)² / Σ_τ w(τ)², the filter's energy-weighted squared lag (τ in time samples), with the trace weight ω = ‖s‖² /
 * (‖s‖² + κ ‖o‖²), κ = {@value TraceMisfit#WEAK_SYNTHETIC}. A time shift of k samples adds ω ½ k² to J, however many
 * periods it spans, where L2 stops growing after half a period. The filter is designed in the frequency domain, W =
 * conj(O) S / (|O|² + η ‖o‖²), over an FFT zero-padded to the next power of two at least 2·nt (lags −N/2 … N/2 − 1),
 * with the prewhitening η (default {@value #PREWHITENING}) of the observed trace's zero-lag autocorrelation ‖o‖²: w is
 * linear in s, and J is blind to each trace's amplitude (to ω). The adjoint source, ω (1/N) Re FFT(conj(G O) / (|O|² +
 * η ‖o‖²)) with G the FFT of ∂J/∂w = (τ² − 2J) w / ‖w‖², plus the weight's derivative times the unweighted J, is exact
 * for J. A trace whose synthetic or observed norm is 0 contributes 0 and is counted ({@link #zeroTraces()}).
 */
public final class AdaptiveWaveformMisfit extends TraceMisfit {
    /** The default prewhitening η: the fraction of the observed trace's energy added to every |O|² of the design. */
    public static final double PREWHITENING = 0.1;

    private final int padded;
    private final double prewhitening;

    /** The misfit of records of {@code nt} time samples, {@code (nt, traces)} flat, with the default prewhitening. */
    public AdaptiveWaveformMisfit(int nt) {
        this(nt, PREWHITENING);
    }

    /** The misfit of records of {@code nt} time samples with prewhitening {@code prewhitening} (> 0). */
    public AdaptiveWaveformMisfit(int nt, double prewhitening) {
        super(nt);
        if (!(prewhitening > 0) || Double.isInfinite(prewhitening)) {
            throw new IllegalArgumentException("the prewhitening must be positive and finite, got " + prewhitening);
        }
        this.padded = paddedLength(nt);
        this.prewhitening = prewhitening;
    }

    /** The FFT length N of the filter design: the next power of two at least 2·nt. */
    public int fftLength() {
        return padded;
    }

    /**
     * J of one shot's {@code (nt, traces)} records, trace by trace in double; {@code residual} gets dJ/ds. Each
     * trace's figures depend on that trace alone.
     */
    @Override
    public double evaluate(float[] syn, float[] obs, float[] residual) {
        int traces = traces(syn, obs, residual);
        Work work = new Work(padded);
        double j = 0;
        long zero = 0;
        for (int c = 0; c < traces; c++) {
            double ss = 0;
            double oo = 0;
            for (int t = 0; t < nt; t++) {
                ss += (double) syn[t * traces + c] * syn[t * traces + c];
                oo += (double) obs[t * traces + c] * obs[t * traces + c];
            }
            if (ss == 0 || oo == 0) {
                zero++;
                for (int t = 0; t < nt; t++) {
                    residual[t * traces + c] = 0;
                }
                continue;
            }
            j += trace(syn, obs, residual, c, traces, ss, oo, work);
        }
        leftOut(zero);
        return j;
    }

    /**
     * J of trace {@code c} (synthetic energy {@code ss}, observed {@code oo}), weighted, its adjoint source written
     * into {@code residual}.
     */
    private double trace(float[] syn, float[] obs, float[] residual, int c, int traces, double ss, double oo,
                         Work w) {
        int n = padded;
        double[][] o = w.o;
        double[][] f = w.f;
        Arrays.fill(f[0], 0);
        Arrays.fill(f[1], 0);
        Arrays.fill(o[0], 0);
        Arrays.fill(o[1], 0);
        for (int t = 0; t < nt; t++) {
            f[0][t] = syn[t * traces + c];
            o[0][t] = obs[t * traces + c];
        }
        fft(f, TransformType.FORWARD);
        fft(o, TransformType.FORWARD);
        double eps = prewhitening * oo;
        for (int k = 0; k < n; k++) { // W = conj(O) S / q, q = |O|² + ε
            double q = o[0][k] * o[0][k] + o[1][k] * o[1][k] + eps;
            double sr = f[0][k];
            double si = f[1][k];
            f[0][k] = (o[0][k] * sr + o[1][k] * si) / q;
            f[1][k] = (o[0][k] * si - o[1][k] * sr) / q;
        }
        fft(f, TransformType.INVERSE); // w = f[0]; f[1] is zero to rounding (W is Hermitian)
        double a = 0;
        double b = 0;
        for (int k = 0; k < n; k++) {
            double lag = lag(k);
            a += lag * lag * f[0][k] * f[0][k];
            b += f[0][k] * f[0][k];
        }
        double j = 0.5 * a / b;
        double[][] g = w.g;
        for (int k = 0; k < n; k++) { // dJ/dw
            double lag = lag(k);
            g[0][k] = (lag * lag - 2 * j) * f[0][k] / b;
            g[1][k] = 0;
        }
        fft(g, TransformType.FORWARD);
        // w is linear in s: dJ = (1/N) Re Σ_k conj(G_k) conj(O_k) dS_k / q_k = Σ_t ds_t (1/N) Re FFT(conj(G O) / q)_t
        for (int k = 0; k < n; k++) {
            double q = o[0][k] * o[0][k] + o[1][k] * o[1][k] + eps;
            double gr = g[0][k];
            double gi = g[1][k];
            double or = o[0][k];
            double oi = o[1][k];
            g[0][k] = (gr * or - gi * oi) / q;
            g[1][k] = -(gr * oi + gi * or) / q;
        }
        fft(g, TransformType.FORWARD);
        double weight = weight(ss, oo);
        double dWeight = weightSlope(ss, oo);
        for (int t = 0; t < nt; t++) {
            residual[t * traces + c] = (float) (weight * g[0][t] / n + j * dWeight * syn[t * traces + c]);
        }
        return weight * j;
    }

    /** The lag of FFT index {@code k}: k below N/2, k − N from N/2 on. */
    private double lag(int k) {
        return k < padded / 2 ? k : k - padded;
    }

    /** The FFT buffers of one evaluation (real and imaginary parts, N each). */
    private static final class Work {
        final double[][] o;
        final double[][] f;
        final double[][] g;

        Work(int n) {
            o = new double[2][n];
            f = new double[2][n];
            g = new double[2][n];
        }
    }
}
