package sweep.fwi;

/**
 * The FWI objective: the data misfit of a velocity model (global physical shape) and its gradient. Implementations
 * run one domain or a decomposed mesh; under MPI every rank gets the same misfit and the same gradient.
 */
public interface Objective extends AutoCloseable {
    /** Returns the misfit of {@code model} and writes dJ/dmodel into {@code grad} (same length). */
    double evaluate(float[] model, float[] grad);

    @Override
    void close();
}
