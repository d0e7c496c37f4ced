package sweep.fwi;

import java.util.Arrays;
import org.apache.commons.math3.complex.Complex;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;

/**
 * Source-wavelet estimation by least squares in the frequency domain (Pratt 1999): the data are linear in the wavelet,
 * so with the synthetic data S of a wavelet W₀ at the current model, the wavelet that best maps them onto the observed
 * data D is W(f) = W₀(f)·Σ conj(S)·D / (Σ |S|² + ε), the sums over every trace of every shot, ε = 10⁻⁴ of the largest
 * Σ |S|² (frequencies the data do not carry keep little of W₀). The traces are zero-padded to a power of two at least
 * twice their length. The sums are formed per shot ({@link #shotSpectra}) and added over the shots in shot order, so
 * that a decomposed run gets the bits of one domain.
 */
public final class WaveletEstimate {
    /** ε as a fraction of the largest Σ |S|². */
    static final double EPSILON = 1e-4;

    private WaveletEstimate() {
    }

    /** The FFT length for traces of {@code nt} samples: the smallest power of two at least 2·nt. */
    public static int fftLength(int nt) {
        int n = 1;
        while (n < 2 * nt) {
            n <<= 1;
        }
        return n;
    }

    /** Floats of a shot's spectra ({@link #shotSpectra}): three per frequency 0..nfft/2. */
    public static int spectraLength(int nfft) {
        return 3 * (nfft / 2 + 1);
    }

    /**
     * One shot's sums over its traces at the frequencies 0..nfft/2: Re Σ conj(S)·D, Im Σ conj(S)·D and Σ |S|², one
     * after the other ({@code 3·(nfft/2 + 1)} floats, summed in double). {@code syn} and {@code obs} are the shot's
     * records {@code (nt, traces)}, trace k of step t at {@code t·traces + k}.
     */
    public static float[] shotSpectra(float[] syn, float[] obs, int nt, int traces, int nfft) {
        int nf = nfft / 2 + 1;
        double[] cross = new double[2 * nf];
        double[] power = new double[nf];
        FastFourierTransformer fft = new FastFourierTransformer(DftNormalization.STANDARD);
        double[] s = new double[nfft];
        double[] d = new double[nfft];
        for (int k = 0; k < traces; k++) {
            for (int t = 0; t < nt; t++) {
                s[t] = syn[t * traces + k];
                d[t] = obs[t * traces + k];
            }
            Complex[] fs = fft.transform(s, TransformType.FORWARD);
            Complex[] fd = fft.transform(d, TransformType.FORWARD);
            for (int f = 0; f < nf; f++) {
                Complex c = fs[f].conjugate().multiply(fd[f]);
                cross[2 * f] += c.getReal();
                cross[2 * f + 1] += c.getImaginary();
                power[f] += fs[f].getReal() * fs[f].getReal() + fs[f].getImaginary() * fs[f].getImaginary();
            }
        }
        float[] out = new float[3 * nf];
        for (int f = 0; f < nf; f++) {
            out[f] = (float) cross[2 * f];
            out[nf + f] = (float) cross[2 * f + 1];
            out[2 * nf + f] = (float) power[f];
        }
        return out;
    }

    /**
     * The sums of {@link #shotSpectra} over the shots of a batch, added in shot order: {@code syn} and {@code obs} are
     * records {@code (B, nt, traces)}.
     */
    public static float[] batchSpectra(float[] syn, float[] obs, int shots, int nt, int traces, int nfft) {
        float[] sum = new float[spectraLength(nfft)];
        int per = nt * traces;
        for (int b = 0; b < shots; b++) {
            float[] one = shotSpectra(Arrays.copyOfRange(syn, b * per, (b + 1) * per),
                    Arrays.copyOfRange(obs, b * per, (b + 1) * per), nt, traces, nfft);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += one[i];
            }
        }
        return sum;
    }

    /**
     * The estimated wavelet ({@code nt} samples) from the wavelet {@code w0} the synthetic data were made with and the
     * summed spectra (see the class documentation).
     *
     * @throws IllegalArgumentException when the synthetic data are all zero (no trace sees the source)
     */
    public static float[] estimate(float[] w0, float[] spectra, int nt, int nfft) {
        int nf = nfft / 2 + 1;
        double top = 0;
        for (int f = 0; f < nf; f++) {
            top = Math.max(top, spectra[2 * nf + f]);
        }
        if (!(top > 0) || !Double.isFinite(top)) {
            throw new IllegalArgumentException("the synthetic data are zero or not finite at every frequency: no"
                    + " receiver records the source, so no wavelet can be estimated");
        }
        double eps = EPSILON * top;
        double[] w = new double[nfft];
        for (int t = 0; t < nt; t++) {
            w[t] = w0[t];
        }
        FastFourierTransformer fft = new FastFourierTransformer(DftNormalization.STANDARD);
        Complex[] fw = fft.transform(w, TransformType.FORWARD);
        Complex[] out = new Complex[nfft];
        for (int f = 0; f < nf; f++) {
            Complex h = new Complex(spectra[f], spectra[nf + f]).divide(spectra[2 * nf + f] + eps);
            out[f] = fw[f].multiply(h);
            if (f > 0 && f < nfft - f) {
                out[nfft - f] = out[f].conjugate();
            }
        }
        out[0] = new Complex(out[0].getReal(), 0);
        out[nfft / 2] = new Complex(out[nfft / 2].getReal(), 0);
        Complex[] back = fft.transform(out, TransformType.INVERSE);
        float[] est = new float[nt];
        for (int t = 0; t < nt; t++) {
            est[t] = (float) back[t].getReal();
        }
        return est;
    }
}
