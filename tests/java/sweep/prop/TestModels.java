package sweep.prop;

/** Deterministic heterogeneous test models. */
public final class TestModels {
    private TestModels() {
    }

    /**
     * A smooth random velocity model around {@code v0} (±{@code amp}), a sum of a few random low-wavenumber cosines,
     * on shape (nz, nx) or (nz, ny, nx).
     */
    public static float[] smoothRandom(long seed, double v0, double amp, int... shape) {
        return sweep.kit.EquationKit.smoothField(seed, v0, amp, shape);
    }
}
