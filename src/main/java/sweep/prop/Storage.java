package sweep.prop;

/**
 * How a gradient-capable forward run keeps what the adjoint run needs; chosen in the spec, fixed for a solver's life.
 */
public enum Storage {
    /**
     * Stores, for every step, the Laplacian term (with CPML terms and the source) that multiplies v²dt² in the update:
     * exact everywhere, PML pads included; memory ∝ nt × cells.
     */
    FULL,
    /**
     * Saves the ring of width order/2 of PML cells that border the interior at every step, plus the last two
     * wavefields, and rebuilds the forward wavefield backwards in time in the interior. The CPML is not time
     * reversible, so the PML pads get no gradient (their edge-replicated physical cells miss that contribution);
     * memory ∝ nt × ring.
     */
    BOUNDARY_SAVING
}
