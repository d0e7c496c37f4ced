package sweep.prop;

/** Deterministic heterogeneous test models. */
public final class TestModels {
    private TestModels() {
    }

    /** {@code n} standard normal samples of {@code r}, as floats. */
    public static float[] gaussian(java.util.Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) r.nextGaussian();
        }
        return a;
    }

    /**
     * A smooth random velocity model around {@code v0} (±{@code amp}), a sum of a few random low-wavenumber cosines,
     * on shape (nz, nx) or (nz, ny, nx).
     */
    public static float[] smoothRandom(long seed, double v0, double amp, int... shape) {
        return sweep.kit.EquationKit.smoothField(seed, v0, amp, shape);
    }
}
