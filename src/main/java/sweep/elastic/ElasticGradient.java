package sweep.elastic;

import java.util.Arrays;

/**
 * Result of an elastic adjoint run: {@code parameters} holds dJ/dvp, dJ/dvs and dJ/drho one after the other, each of
 * the model's physical shape (shape (3, nz, nx) or (3, nz, ny, nx), summed over the batch), {@code wavelet} dJ/dwavelet
 * per shot {@code (B, nt)} (summed over the shot's sources), and the misfit when one was evaluated (NaN otherwise).
 */
public record ElasticGradient(float[] parameters, float[] wavelet, double misfit) {
    /** dJ/dvp (a copy of the first third of {@link #parameters}). */
    public float[] vp() {
        return part(0);
    }

    /** dJ/dvs (a copy of the second third). */
    public float[] vs() {
        return part(1);
    }

    /** dJ/drho (a copy of the last third). */
    public float[] rho() {
        return part(2);
    }

    private float[] part(int k) {
        int n = parameters.length / 3;
        return Arrays.copyOfRange(parameters, k * n, (k + 1) * n);
    }
}
