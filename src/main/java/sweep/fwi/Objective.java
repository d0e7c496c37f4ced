package sweep.fwi;

/**
 * The FWI objective: the data misfit of a velocity model (global physical shape) and its gradient. Implementations
 * run one domain or a decomposed mesh; under MPI every rank gets the same misfit and the same gradient.
 */
public interface Objective extends AutoCloseable {
    /** Returns the misfit of {@code model} and writes dJ/dmodel into {@code grad} (same length). */
    double evaluate(float[] model, float[] grad);

    /**
     * Called by {@link Fwi#run} before iteration {@code iteration} (1-based) of a band; returns true when the objective
     * changed for it (e.g. new supershot codes), so the misfit and gradient of the current model must be evaluated
     * again. The answer must depend on the iteration number only (so a resumed run redraws the same objective).
     */
    default boolean beginIteration(int iteration) {
        return false;
    }

    @Override
    void close();
}
