package sweep.example.sh;

import java.util.List;
import sweep.core.FdWeights;
import sweep.equation.EquationSolver;
import sweep.equation.Parameter;
import sweep.equation.WaveEquation;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * 2-D SH (anti-plane shear) waves as a velocity-stress system on a staggered grid, written against the public
 * equation contract only: parameters vs and rho, one field vy recorded, point forces fy. Its solver is
 * {@link ShSolver}; see the example's README.md for the discretisation.
 */
public final class ShEquation implements WaveEquation {
    /** The equation's name, {@code --equation sh}. */
    public static final String NAME = "sh";

    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vs", "m/s", "S velocity, finite and > 0", 300, 2500, 50),
            new Parameter("rho", "kg/m³", "density, finite and > 0", 900, 3500, 30));

    /** The halo exchanges of a run, in the order a step meets them (see {@link ShSolver}). */
    static final String FORWARD_VELOCITY = "FORWARD_VELOCITY";
    static final String FORWARD_STRESS = "FORWARD_STRESS";
    static final String ADJOINT_STRESS = "ADJOINT_STRESS";
    static final String ADJOINT_VELOCITY = "ADJOINT_VELOCITY";
    static final String NODE_GRADIENT = "NODE_GRADIENT";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "2-D SH (anti-plane shear) velocity-stress, staggered grid, 2-D only (example plug-in)";
    }

    /** 2 only: anti-plane shear in the x-z plane (a spec of a 3-D model is refused when it is built). */
    @Override
    public List<Integer> dimensions() {
        return List.of(2);
    }

    @Override
    public List<Parameter> parameters() {
        return PARAMETERS;
    }

    /** The particle velocity vy at the nodes, the stresses sxy at (x+½, z) and szy at (x, z+½). */
    @Override
    public List<String> fields(int ndim) {
        return List.of("vy", "sxy", "szy");
    }

    @Override
    public List<String> recordable(int ndim) {
        return List.of("vy");
    }

    @Override
    public List<String> defaultRecord(int ndim) {
        return List.of("vy");
    }

    @Override
    public List<String> sourceTypes(int ndim) {
        return List.of("fy");
    }

    @Override
    public String defaultSourceType(int ndim) {
        return "fy";
    }

    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        checkDimension(shape.length);
        int n = shape[0] * shape[1];
        if (model.length != 2 * n) {
            throw new IllegalArgumentException("an " + NAME + " model holds vs then rho, 2 x " + n + " values for the"
                    + " shape (" + shape[0] + ", " + shape[1] + "), got " + model.length);
        }
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < n; i++) {
                float v = model[k * n + i];
                int z = i / shape[1] + (origin == null ? 0 : origin[0]);
                int x = i % shape[1] + (origin == null ? 0 : origin[1]);
                if (physical != null && (z >= physical[0] || x >= physical[1])) {
                    continue;
                }
                if (!(v > 0) || v == Float.POSITIVE_INFINITY) {
                    Parameter p = PARAMETERS.get(k);
                    throw new IllegalArgumentException(names[k] + " holds " + (Float.isFinite(v) ? "a non-positive "
                            + p.name() + " (" + v + " " + p.unit() + ")" : "a non-finite value (" + v + ")") + " at "
                            + Cells.position(shape, i, origin) + ": " + p.name() + " must be"
                            + " finite and > 0 " + p.unit());
                }
            }
        }
    }

    /**
     * dt ≤ dh/(vmax·√2·Σ|c_k|) for equal spacing, c_k the staggered weights: the leapfrog limit of the staggered
     * first derivatives (each of symbol at most 2Σ|c_k|/dh) for the second-order system with speed vs.
     */
    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        double s = 0;
        for (double d : dh) {
            s += 1.0 / (d * d);
        }
        return 1.0 / (vmax * FdWeights.staggeredAbsSum(order) * Math.sqrt(s));
    }

    /** One memory variable per derivative along the axis: of the velocity step and of the stress step. */
    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return 2;
    }

    /**
     * Single fields per exchange: vy after the velocity step and sxy after the stress step (the x derivatives read
     * them across a cut), their scaled adjoints in the adjoint run, and the sxy-node gradient once at the end (a node
     * at a tile's last column also moves the cell past the cut).
     */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        return List.of(new HaloPoint(FORWARD_VELOCITY, List.of("vy")),
                new HaloPoint(FORWARD_STRESS, List.of("sxy")),
                new HaloPoint(ADJOINT_STRESS, List.of("sxy_adjoint_scaled")),
                new HaloPoint(ADJOINT_VELOCITY, List.of("vy_adjoint_scaled")),
                new HaloPoint(NODE_GRADIENT, List.of("mu_x_gradient")));
    }

    /** 1: μ at a stress node between two cells is their harmonic mean, so a tile's last node reads the next cell. */
    @Override
    public int modelMargin(int order) {
        return 1;
    }

    @Override
    public EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo) {
        return new ShSolver(spec, grid, halo);
    }

    @Override
    public boolean hasDeviceSolver() {
        return false;
    }

    /** vy, sxy, szy and the coefficients dt/ρ, dt·μx, dt·μz: six arrays of the grid. */
    @Override
    public long fieldBytes(Grid g) {
        return 4L * ShSolver.FIELD_ARRAYS * g.length();
    }

    /** Four memory variables (full arrays of the grid) and eight profiles (a, b at nodes and half nodes, z and x). */
    @Override
    public long cpmlBytes(Grid g) {
        return 4L * (ShSolver.PSI_ARRAYS * (long) g.length() + 4L * (g.nz() + g.nx()));
    }

    /** Adjoint fields, memory variables, scaled adjoints and node gradients: 14 arrays of the grid. */
    @Override
    public long adjointBytes(Grid g, Storage storage) {
        return 4L * ShSolver.ADJOINT_ARRAYS * g.length();
    }

    /**
     * Three floats per computational cell and step (the velocity step's bracket and the two stress brackets), for
     * both storages: BOUNDARY_SAVING keeps the same tape as FULL (see README.md).
     */
    @Override
    public long tapeBytes(Grid g, Storage storage, int nt) {
        return 4L * ShSolver.TAPE_FIELDS * nt * (long) g.nz() * g.nx();
    }

    /** The caller's two parameter arrays, the stacked model and the solver's copy of the window. */
    @Override
    public int modelFloatsPerCell() {
        return 6;
    }

    @Override
    public List<String> defaultInversion() {
        return List.of("vs");
    }
}
