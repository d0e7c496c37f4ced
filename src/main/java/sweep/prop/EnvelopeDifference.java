package sweep.prop;

import org.apache.commons.math3.transform.TransformType;

/**
 * The envelope misfit J = ½ Σ_traces Σ_t (E(s)² − E(o)²)² / ‖o‖⁴ with E(x)² = x² + H(x)² (after Wu, Luo and Wu, 2014):
 * the squared envelopes carry the low frequencies a band-limited record lacks. Each trace is weighted by its observed
 * energy squared, a constant, so that J does not scale with the fourth power of the data (particle-velocity records
 * of 1e-9 gave J ≈ 1e-34 and gradients below float's range); a trace whose observed norm is 0 contributes 0 and is
 * counted ({@link #zeroTraces()}). H is the Hilbert transform along time, by FFT with zero padding to the next power
 * of two at least 2·nt and the zero and Nyquist frequencies left out, which makes it exactly antisymmetric (its
 * transpose is −H), so the adjoint source (2 d s − 2 H(d H(s))) / ‖o‖⁴, d = E(s)² − E(o)², is exact for J.
 */
public final class EnvelopeDifference extends TraceMisfit {
    private final int padded;

    /** The misfit of records of {@code nt} time samples, {@code (nt, traces)} flat. */
    public EnvelopeDifference(int nt) {
        super(nt);
        this.padded = paddedLength(nt);
    }

    /** The FFT length of the Hilbert transform: the next power of two at least 2·nt. */
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
        double[] s = new double[nt];
        double[] o = new double[nt];
        double[] hs = new double[nt];
        double[] ho = new double[nt];
        double[] q = new double[nt];
        double[] hq = new double[nt];
        double[] d = new double[nt];
        double[][] work = new double[2][padded];
        double j = 0;
        long zero = 0;
        for (int c = 0; c < traces; c++) {
            double oo = 0;
            for (int t = 0; t < nt; t++) {
                s[t] = syn[t * traces + c];
                o[t] = obs[t * traces + c];
                oo += o[t] * o[t];
            }
            if (oo == 0) {
                zero++;
                for (int t = 0; t < nt; t++) {
                    residual[t * traces + c] = 0;
                }
                continue;
            }
            double weight = 1 / (oo * oo);
            hilbert(s, hs, work);
            hilbert(o, ho, work);
            for (int t = 0; t < nt; t++) {
                d[t] = (s[t] * s[t] + hs[t] * hs[t]) - (o[t] * o[t] + ho[t] * ho[t]);
                j += 0.5 * weight * d[t] * d[t];
                q[t] = d[t] * hs[t];
            }
            hilbert(q, hq, work);
            for (int t = 0; t < nt; t++) {
                residual[t * traces + c] = (float) (weight * (2 * d[t] * s[t] - 2 * hq[t]));
            }
        }
        leftOut(zero);
        return j;
    }

    /** The Hilbert transform of {@code x} (nt samples) into {@code out}, through {@code work} (2 × padded). */
    void hilbert(double[] x, double[] out, double[][] work) {
        double[] re = work[0];
        double[] im = work[1];
        java.util.Arrays.fill(re, 0);
        java.util.Arrays.fill(im, 0);
        System.arraycopy(x, 0, re, 0, nt);
        fft(work, TransformType.FORWARD);
        int half = padded / 2;
        re[0] = 0;
        im[0] = 0;
        re[half] = 0;
        im[half] = 0;
        for (int k = 1; k < half; k++) { // −i on the positive frequencies
            double r = re[k];
            re[k] = im[k];
            im[k] = -r;
        }
        for (int k = half + 1; k < padded; k++) { // +i on the negative ones
            double r = re[k];
            re[k] = -im[k];
            im[k] = r;
        }
        fft(work, TransformType.INVERSE);
        System.arraycopy(re, 0, out, 0, nt);
    }
}
