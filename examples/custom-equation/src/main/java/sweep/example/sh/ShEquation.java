package sweep.example.sh;

import java.util.List;
import sweep.core.FdWeights;
import sweep.equation.Parameter;
import sweep.equation.Step;
import sweep.equation.StepEquation;
import sweep.prop.Grid;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;

/**
 * 2-D SH (anti-plane shear) waves as a velocity-stress system on a staggered grid, written against the public
 * equation contract only: parameters vs and rho, one field vy recorded, point forces fy. Its step is {@link ShStep};
 * the {@link sweep.equation.StepSolver} skeleton runs it (full and checkpointed gradients). See the example's
 * README.md for the discretisation.
 */
public final class ShEquation extends StepEquation {
    /** The equation's name, {@code --equation sh}. */
    public static final String NAME = "sh";

    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vs", "m/s", "S velocity, finite and > 0", 300, 2500, 50),
            new Parameter("rho", "kg/m³", "density, finite and > 0", 900, 3500, 30));

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

    /** The CPML memory variables of D⁻x sxy, D⁻z szy (velocity step) and D⁺x vy, D⁺z vy (stress step). */
    @Override
    public List<String> auxiliaries(int ndim) {
        return List.of("psi_x_sxy", "psi_z_szy", "psi_x_vy", "psi_z_vy");
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

    /**
     * Single fields per exchange: vy before the stress kernel and sxy after it (the x derivatives read them across a
     * cut), their scaled adjoints in the adjoint run, and the sxy-node gradient once at the end (a node at a tile's
     * last column also moves the cell past the cut).
     */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        return List.of(new HaloPoint("FORWARD_VELOCITY", List.of("vy")),
                new HaloPoint("FORWARD_STRESS", List.of("sxy")),
                new HaloPoint("ADJOINT_STRESS", List.of("sxy_adjoint_scaled")),
                new HaloPoint("ADJOINT_VELOCITY", List.of("vy_adjoint_scaled")),
                new HaloPoint("NODE_GRADIENT", List.of("mu_x_gradient")));
    }

    /** 1: μ at a stress node between two cells is their harmonic mean, so a tile's last node reads the next cell. */
    @Override
    public int modelMargin(int order) {
        return 1;
    }

    @Override
    protected Step step(PropSpec spec, Grid grid) {
        return new ShStep(spec, grid);
    }

    /** dt/ρ, dt·μx, dt·μz. */
    @Override
    public int coefficientArrays(int ndim) {
        return 3;
    }

    /** The scaled adjoints ex̄, ez̄, dx̄, dz̄ and the node gradients of dt/ρ, dt·μx, dt·μz. */
    @Override
    public int adjointWorkArrays(int ndim) {
        return 7;
    }

    /** The velocity step's bracket and the two stress brackets. */
    @Override
    public int tapeFloatsPerCell(int ndim) {
        return 3;
    }
}
