package sweep.prop;

import java.util.Arrays;

/**
 * Result of an adjoint run, for any equation: {@code parameters} holds dJ/d(each model parameter) one after the other
 * (parameter-major in the order of {@link sweep.equation.WaveEquation#parameters()}, e.g. dJ/dvp, dJ/dvs, dJ/drho for
 * elastic), each of the model's physical shape (the tile's under domain decomposition) and summed over the batch;
 * {@code count} is the number of parameters; {@code wavelet} is dJ/dwavelet per shot {@code (B, nt)} (summed over the
 * shot's sources); and the misfit when one was evaluated (NaN otherwise).
 */
public record Gradient(float[] parameters, int count, float[] wavelet, double misfit) {
    public Gradient {
        if (count < 1 || parameters.length % count != 0) {
            throw new IllegalArgumentException("a gradient of " + parameters.length + " values cannot hold " + count
                    + " parameters of equal size");
        }
    }

    /** The gradient of an equation of one parameter (e.g. acoustic vp). */
    public Gradient(float[] vp, float[] wavelet, double misfit) {
        this(vp, 1, wavelet, misfit);
    }

    /**
     * dJ/d(first parameter) (vp for acoustic and elastic): with one parameter the array {@link #parameters()} itself,
     * with several a copy of its first part.
     */
    public float[] vp() {
        return count == 1 ? parameters : parameter(0);
    }

    /** dJ/d(parameter k) (a copy of the k-th part of {@link #parameters()}). */
    public float[] parameter(int k) {
        if (k < 0 || k >= count) {
            throw new IllegalArgumentException("parameter " + k + " does not exist: this gradient holds " + count);
        }
        int n = parameters.length / count;
        return Arrays.copyOfRange(parameters, k * n, (k + 1) * n);
    }

    /** Values per parameter: the cells of the model (or tile). */
    public int cells() {
        return parameters.length / count;
    }
}
