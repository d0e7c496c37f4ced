package sweep.prop;

/**
 * Fills the halo cells of a wavefield array that face a cut of the domain with the neighbouring tiles' cells (the
 * domain-decomposition layer implements it over MPI). The solver calls it whenever a field whose neighbours are read
 * next has been written: after each forward step, and in the adjoint run on the scaled adjoint field and on each
 * rebuilt forward level; an equation with several components per sub-step (elastic) passes them all in one call
 * ({@link #exchange(float[], int)}), which exchanges them in one message per neighbour. The points of each equation
 * are listed by {@link sweep.equation.WaveEquation#haloPoints}. On a decomposed run every exchange call is collective
 * over the tile's neighbours: every tile calls the same points in the same order.
 */
public interface HaloHook {
    /**
     * Exchanges the cut-face halos of {@code field}, a wavefield array of this solver's grid: {@link Grid#length()}
     * floats laid out as {@link Grid#compIndex} says (halo width {@link Grid#haloWidth()}).
     */
    void exchange(float[] field);

    /**
     * Exchanges the cut-face halos of {@code components} wavefield arrays of this solver's grid stored one after the
     * other in {@code packed} (each {@link Grid#length()} floats), all in one message per neighbour. Default: one
     * component goes to {@link #exchange(float[])}; a hook that cannot do more refuses.
     */
    default void exchange(float[] packed, int components) {
        if (components == 1) {
            exchange(packed);
            return;
        }
        throw new UnsupportedOperationException("this halo hook exchanges single fields only; " + components
                + " components need one that packs several (e.g. sweep.parallel.HaloExchange)");
    }

    /**
     * As {@link #exchange(float[], int)}, and fills the corner halos too (the cells beyond two cuts, which the diagonal
     * neighbour owns), for a sub-step that reads them (the elastic node gradients: a shear node in the x-y plane at a
     * tile's corner). Default: {@link #exchange(float[], int)}, right for a hook with cuts along one axis only.
     */
    default void exchangeWithCorners(float[] packed, int components) {
        exchange(packed, components);
    }

    /**
     * Starts an exchange of {@code field} (its cut strips must be final); {@link #end()} completes it. Between the two
     * calls the caller may write any cell of {@code field} but the cut strips and the halo. Default: all at once.
     */
    default void begin(float[] field) {
        exchange(field);
    }

    /** Completes the exchange started by {@link #begin}, filling the halos. */
    default void end() {
    }

    /**
     * Returns once every tile of the mesh has called it (a benchmark starts its clock after it, so that no rank's timed
     * steps include waiting for a neighbour still setting up). Default: returns at once.
     */
    default void synchronize() {
    }

    /**
     * Which sides of the grid face a neighbour, SWEEP order {@code [z_lo, z_hi, y_lo, y_hi, x_lo, x_hi]}; null when
     * the hook cannot tell (then the solver does not overlap).
     */
    default boolean[] cutSides() {
        return null;
    }

    /**
     * The strips this hook sends, in order, as boxes {z0,z1,y0,y1,x0,x1} of the computational grid; null when the hook
     * cannot exchange packed strips ({@link #exchangePacked}). A device backend packs these on the device.
     */
    default int[][] sendBoxes() {
        return null;
    }

    /** The halo boxes this hook fills, in the order of {@link #sendBoxes()} (null likewise). */
    default int[][] recvBoxes() {
        return null;
    }

    /**
     * Exchanges strips packed by the caller: {@code send} holds the cells of {@link #sendBoxes()} one box after the
     * other, each in {@code Pack.pack} order; {@code recv} receives the cells of {@link #recvBoxes()} likewise, for
     * the caller to unpack. Same messages as {@link #exchange}.
     */
    default void exchangePacked(float[] send, float[] recv) {
        throw new UnsupportedOperationException("this halo hook exchanges whole fields only");
    }
}
