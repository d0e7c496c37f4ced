package sweep.prop;

/**
 * How a gradient-capable forward run keeps what the adjoint run needs; chosen in the spec, fixed for a solver's life.
 * An equation's solver accepts those its {@link sweep.equation.WaveEquation#storages()} lists; what it keeps is its own
 * (its {@link sweep.equation.WaveEquation#tapeBytes} says how much).
 */
public enum Storage {
    /**
     * Keeps, for every step, what the adjoint needs to be exact everywhere, PML pads included; memory ∝ nt × cells.
     * (Acoustic: the Laplacian term, with CPML terms and the source, that multiplies v²dt² in the update.)
     */
    FULL,
    /**
     * Keeps less than {@link #FULL}, at most its memory, and may rebuild the forward wavefield backwards in time
     * instead: the gradient equals FULL's on the inner cells (the conformance kit checks that); the cells next to the
     * PML may miss part of theirs. (Acoustic and elastic: the ring of width order/2 of PML cells that border the
     * interior at every step, plus the last levels; the CPML is not time reversible, so the pads get no gradient;
     * memory ∝ nt × ring. An equation may also serve it from FULL's tape.)
     */
    BOUNDARY_SAVING,
    /**
     * Keeps the whole state of the forward run every k steps (checkpoints) and, in the adjoint run, re-runs each
     * segment of k steps from its checkpoint with FULL's tape of the segment before running it backwards: the gradient
     * is FULL's, bit for bit, for one more forward run; memory ∝ (nt/k) × state + k × step's tape, k ≈ √nt (the
     * equation chooses k). For equations whose step cannot be run backwards (visco-acoustic).
     */
    CHECKPOINTING
}
