package sweep.fwi;

/**
 * The FWI objective: the data misfit of a model and its gradient. Implementations run one domain (models and gradients
 * of the whole model) or a decomposed mesh (each rank's {@link #tile()} of them); under MPI every rank gets the same
 * misfit.
 */
public interface Objective extends AutoCloseable {
    /**
     * Returns the misfit of the model whose part {@link #tile()} holds is {@code model} and writes that part of
     * dJ/dmodel into {@code grad} (same length). Collective under MPI.
     */
    double evaluate(float[] model, float[] grad);

    /** The part of the model (and gradient) this rank's evaluations take and give: the whole model on one domain. */
    ModelTile tile();

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
