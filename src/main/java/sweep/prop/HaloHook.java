package sweep.prop;

/**
 * Fills the halo cells of a wavefield array that face a cut of the domain with the neighbouring tiles' cells (the
 * domain-decomposition layer implements it over MPI). The solver calls it whenever a field whose neighbours are read
 * next has been written: after each forward step, and in the adjoint run on the scaled adjoint field and on each
 * rebuilt forward level.
 */
public interface HaloHook {
    /** Exchanges the cut-face halos of {@code field}, a wavefield-shaped array of this solver's grid. */
    void exchange(float[] field);
}
