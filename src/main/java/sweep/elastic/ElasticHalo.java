package sweep.elastic;

/**
 * The halo exchange points of an elastic solver on one tile of a decomposed domain: the solver calls
 * {@link #exchange} whenever a packed array whose neighbours are read next has been written, and the
 * domain-decomposition layer fills the array's cut-face halos (every component, one message per neighbour) from the
 * neighbouring tiles. A single domain passes none. The points, in the order a step meets them:
 *
 * <ul>
 *   <li>forward step t: {@link Point#FORWARD_VELOCITY} after the velocity sub-step, force sources and velocity images
 *       (v, the stress sub-step reads it across a cut); {@link Point#FORWARD_STRESS} after the stress sub-step,
 *       explosive sources and stress images (σ);</li>
 *   <li>adjoint step t (backwards): with boundary saving, {@link Point#REBUILT_STRESS} (σ at t·dt rebuilt) and
 *       {@link Point#REBUILT_VELOCITY} (v at (t−½)·dt rebuilt); then {@link Point#ADJOINT_STRESS} after the transposed
 *       stress images and explosive sources (σ̄, which the transposed stress sub-step reads across a cut) and
 *       {@link Point#ADJOINT_VELOCITY} after the transposed stress sub-step, receivers, velocity images and force
 *       sources (v̄, which the transposed velocity sub-step reads);</li>
 *   <li>after the adjoint run: {@link Point#NODE_GRADIENT} on the node gradients (dJ/d(dt/ρ) with the layout of v,
 *       then dJ/d(dt·moduli) with the layout of m): a node at a tile's last column or row also belongs to the cell past
 *       the cut, so the tile on the high side of a cut reads it from its low halo (one row or column).</li>
 * </ul>
 */
public interface ElasticHalo {
    /** Where in the step the exchange happens. */
    enum Point {
        FORWARD_VELOCITY, FORWARD_STRESS, REBUILT_STRESS, REBUILT_VELOCITY, ADJOINT_STRESS, ADJOINT_VELOCITY,
        NODE_GRADIENT
    }

    /**
     * Fills the cut-face halos of {@code packed}, {@code components} wavefield arrays of the solver's grid one after
     * the other (each {@code Layout.LEN} floats).
     */
    void exchange(Point point, float[] packed, int components);
}
