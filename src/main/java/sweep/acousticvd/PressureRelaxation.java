package sweep.acousticvd;

/**
 * Memory variables at the pressure nodes of the variable-density velocity–pressure step: what an equation built on the
 * acoustic-vd solver adds to it ({@link AcousticVdEquation#solver(sweep.prop.PropSpec, sweep.prop.Grid,
 * sweep.prop.HaloHook, PressureRelaxation)}), e.g. the solids of a constant-Q visco-acoustic medium. The solver runs,
 * after the pressure update of some rows (which leaves each cell's divergence bracket e, the term it multiplied by the
 * node's coefficient), {@link #stepRows} on the same rows, and, in the adjoint run, {@link #transposeRows} before the
 * transpose of the pressure update, which then adds the bracket's adjoint that the memory gives. The memory variables
 * and their coefficients are the solver's arrays, mechanism l at {@code l·LEN + i} of the grid's layout.
 */
public interface PressureRelaxation {
    /** The memory variables per pressure node, at least 1. */
    int mechanisms();

    /** Each mechanism's constant of the memory update ({@link #stepRows}), e.g. its decay per step. */
    float[] constants();

    /**
     * A model cell's coefficients from its parameters {@code par} (the equation's, in order; the first is vp, the
     * second rho): {@code out[0]} the pressure update's (dt times the modulus the divergence sees at once),
     * {@code out[1 + l]} mechanism l's of the memory update.
     */
    void coefficients(double[] par, double[] out);

    /**
     * dJ/d(each parameter) of a cell into {@code out} (the equation's order; rho only through the coefficients, the
     * solver adds the buoyancy's share) from {@code gk}, dJ/d(out[0]), and {@code gc[l]}, dJ/d(out[1 + l]).
     */
    void gradient(double[] par, double gk, double[] gc, double[] out);

    /**
     * The memory update and its share of the pressure on the rows [z0, z1) (every y and x), the divergence brackets
     * in {@code div} from {@code divOff} by computational cell c = (z·NY + y)·NX + x.
     */
    void stepRows(float[] p, float[] s, float[] c, float[] constants, float[] div, int divOff, int[] geo, int z0,
                  int z1);

    /**
     * The transpose of {@link #stepRows} on the rows [z0, z1) for the adjoint pressure {@code pb} (unchanged) and
     * memory variables {@code sb}: writes the memory's share of the adjoint bracket into {@code divBar} (by
     * computational cell) and adds dJ/dc_l = e·(the memory's adjoint) into {@code gc}.
     */
    void transposeRows(float[] pb, float[] sb, float[] c, float[] constants, float[] div, int divOff, float[] gc,
                       float[] divBar, int[] geo, int z0, int z1);
}
