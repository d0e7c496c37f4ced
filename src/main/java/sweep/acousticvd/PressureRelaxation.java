package sweep.acousticvd;

import sweep.acousticvd.kernels.PressureRelaxationKernels;

/**
 * Memory variables at the pressure nodes of the variable-density velocity–pressure step: what an equation built on the
 * acoustic-vd solver adds to it ({@link AcousticVdEquation#solver(sweep.prop.PropSpec, sweep.prop.Grid,
 * sweep.prop.HaloHook, PressureRelaxation)}), e.g. the solids of a constant-Q visco-acoustic medium. The equation gives
 * the mechanisms' constants and each cell's coefficients; the solver runs the memory update of
 * {@link PressureRelaxationKernels} (Crank–Nicolson on a relaxation ODE driven by the divergence bracket, one per
 * mechanism) after the pressure update of the same rows, its transpose in the adjoint run, on the Java backend (its
 * Vector API twin too) and on a device alike.
 */
public interface PressureRelaxation {
    /** The memory variables per pressure node, at least 1. */
    int mechanisms();

    /** Each mechanism's decay per step α_l of the memory update ({@link PressureRelaxationKernels}). */
    float[] constants();

    /**
     * A model cell's coefficients from its parameters {@code par} (the equation's, in order; the first is vp, the
     * second rho): {@code out[0]} the pressure update's (dt times the modulus the divergence sees at once),
     * {@code out[1 + l]} mechanism l's c_l of the memory update.
     */
    void coefficients(double[] par, double[] out);

    /**
     * dJ/d(each parameter) of a cell into {@code out} (the equation's order; rho only through the coefficients, the
     * solver adds the buoyancy's share) from {@code gk}, dJ/d(out[0]), and {@code gc[l]}, dJ/d(out[1 + l]).
     */
    void gradient(double[] par, double gk, double[] gc, double[] out);
}
