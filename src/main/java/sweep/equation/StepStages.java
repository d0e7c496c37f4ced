package sweep.equation;

import java.util.List;
import java.util.function.IntConsumer;

/**
 * One homogeneous time step of an equation's Java solver (no sources, no receivers, one domain) as a sequence of
 * linear stages, each with the adjoint solver's transpose of it: the conformance kit's per-stage dot-product test
 * runs every stage and its transpose on random states, so a stage whose adjoint kernels are wrong is named. A state
 * is every value a step reads and writes (wavefields, image rows of a free surface, CPML memory variables) packed into
 * one float vector ({@link StateVector}); a stage runs in place on it.
 *
 * <p>A solver makes one with {@link EquationSolver#stepStages}; the stages must call the kernels its runs call, in
 * the order a forward step calls them, and the transposes those of its adjoint run.
 */
public interface StepStages {
    /** The stages' names in the order a forward step runs them, e.g. "velocity", "velocity free surface". */
    List<String> names();

    /** The values of a state, their typical magnitudes and where they live in the solver ({@link #apply} uses it). */
    StateVector state();

    /** Runs stage {@code stage} of a forward step on {@code x} (a state), in place. */
    void apply(int stage, float[] x);

    /** Runs the transpose of stage {@code stage} on {@code y} (a state), in place, with the adjoint's kernels. */
    void applyTranspose(int stage, float[] y);

    /**
     * Stages over {@code state}: {@code forward.accept(k)} runs stage k on the solver's forward arrays,
     * {@code transpose.accept(k)} its transpose on the adjoint arrays; the state goes into the arrays before and comes
     * back out after.
     */
    static StepStages of(List<String> names, StateVector state, IntConsumer forward, IntConsumer transpose) {
        List<String> copy = List.copyOf(names);
        return new StepStages() {
            @Override
            public List<String> names() {
                return copy;
            }

            @Override
            public StateVector state() {
                return state;
            }

            @Override
            public void apply(int stage, float[] x) {
                state.load(x, false);
                forward.accept(stage);
                state.store(x, false);
            }

            @Override
            public void applyTranspose(int stage, float[] y) {
                state.load(y, true);
                transpose.accept(stage);
                state.store(y, true);
            }
        };
    }
}
