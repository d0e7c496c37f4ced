package sweep.prop;

/**
 * Result of an adjoint run: dJ/dvp with the model's physical shape (summed over the batch), dJ/dwavelet per shot
 * {@code (B, nt)} (summed over the shot's sources), and the misfit when one was evaluated (NaN otherwise).
 */
public record Gradient(float[] vp, float[] wavelet, double misfit) {
}
