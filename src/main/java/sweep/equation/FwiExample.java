package sweep.equation;

/**
 * The built-in 2-D example of an inversion with one equation ({@link WaveEquation#fwiExample}): the true model that
 * makes the observed data, how the starting model is made from it, and the defaults of a job that names no model file
 * (mute depth, receiver depth, smoothing length, recording time).
 */
public interface FwiExample {
    /** How messages and pictures name it, e.g. "the built-in model". */
    String description();

    /** The model's shape {@code (nz, nx)}. */
    int[] shape();

    /** The true model, parameter-major, of {@link #shape()}. */
    float[] trueModel();

    /** The rows of water at the top: muted in the gradient by default. */
    int waterRows();

    /** The row (z index) of the receivers. */
    int receiverRow();

    /** The default smoothing length of the starting model, in m. */
    double smoothMetres();

    /** The default recording time, in s. */
    double time();

    /**
     * The starting model, parameter-major: the true model smoothed with a Gaussian of {@code sigmaCells} cells below
     * its top {@code keepRows} rows, or the example's own background.
     */
    float[] startModel(double sigmaCells, int keepRows);
}
