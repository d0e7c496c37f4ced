package sweep.acoustic;

import java.util.List;
import sweep.core.FdWeights;
import sweep.equation.EquationSolver;
import sweep.equation.FwiExample;
import sweep.equation.Parameter;
import sweep.equation.WaveEquation;
import sweep.models.DefaultModels;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * The constant-density acoustic wave equation, second order in time for the pressure p, with one parameter vp; its
 * solver is {@link AcousticSolver} (Java backend, or the TornadoVM device in a {@code -Ptornado} build).
 */
public final class AcousticEquation implements WaveEquation {
    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vp", "m/s", "P velocity, finite and > 0", 1400, 4700, 100));

    @Override
    public String name() {
        return "acoustic";
    }

    @Override
    public String description() {
        return "constant-density acoustic pressure, second order in time";
    }

    @Override
    public List<Parameter> parameters() {
        return PARAMETERS;
    }

    /** The pressure, two time levels of it. */
    @Override
    public List<String> fields(int ndim) {
        return List.of("p");
    }

    @Override
    public List<String> recordable(int ndim) {
        return List.of("p");
    }

    @Override
    public List<String> defaultRecord(int ndim) {
        return List.of("p");
    }

    /** None: a pressure source only. */
    @Override
    public List<String> sourceTypes(int ndim) {
        return List.of();
    }

    @Override
    public String defaultSourceType(int ndim) {
        return null;
    }

    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        Cells.checkVelocity(model, shape, origin, physical, names[0]);
    }

    /** dt ≤ 2/(vmax·√(Σ_a μ/dh_a²)) with μ the largest symbol of the second-derivative stencil. */
    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        double mu = FdWeights.secondDerivativeSymbolMax(order);
        double s = 0;
        for (double d : dh) {
            s += mu / (d * d);
        }
        return 2.0 / (vmax * Math.sqrt(s));
    }

    /** psi and zeta, in band slabs (second-order form; see {@link sweep.kernels.Layout}). */
    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return 2;
    }

    /**
     * The new pressure level after each forward step, the scaled adjoint field and the rebuilt level per adjoint step.
     */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        return List.of(new HaloPoint("FORWARD", List.of("p")), new HaloPoint("ADJOINT", List.of("p_adjoint")),
                new HaloPoint("REBUILT", List.of("p")));
    }

    /** 0: a cell's vp is its own. */
    @Override
    public int modelMargin(int order) {
        return 0;
    }

    /** The row passes start their vectors at the low x band's end. */
    @Override
    public boolean alignsInteriorRows() {
        return true;
    }

    @Override
    public EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo) {
        return new AcousticSolver(spec, grid, halo);
    }

    @Override
    public boolean hasBornOperator() {
        return true;
    }

    @Override
    public boolean hasDeviceSolver() {
        return true;
    }

    @Override
    public long fieldBytes(Grid g) {
        return AcousticSolver.fieldBytes(g);
    }

    @Override
    public long cpmlBytes(Grid g) {
        return AcousticSolver.cpmlBytes(g);
    }

    @Override
    public long adjointBytes(Grid g, Storage storage) {
        return AcousticSolver.adjointBytes(g, storage);
    }

    @Override
    public long tapeBytes(Grid g, Storage storage, int nt) {
        return AcousticSolver.tapeBytes(g, storage, nt);
    }

    /** The caller's model and the solver's v²dt². */
    @Override
    public int modelFloatsPerCell() {
        return 2;
    }

    @Override
    public List<String> defaultInversion() {
        return List.of("vp");
    }

    /** The built-in 2-D model of {@code sweep fwi} (2 km x 6 km, 250 m of water), smoothed for a start. */
    @Override
    public FwiExample fwiExample(double dh) {
        return DefaultModels.marineExample("the built-in model", DefaultModels.fwi2d(dh), 1, dh);
    }

    /** The settings hash alone (the fingerprint of specs made before the contract, which FWI checkpoints hold). */
    @Override
    public long fingerprint(long h, String sourceType, List<String> record) {
        return h;
    }

    /** vp 2500 m/s everywhere. */
    @Override
    public float[] benchmarkModel(int cells) {
        float[] m = new float[cells];
        java.util.Arrays.fill(m, 2500f);
        return m;
    }

    /**
     * 16 bytes: u^n and u^(n-1) and v²dt² read, u^(n+1) written (the interior, where the PML auxiliaries are absent).
     */
    @Override
    public int bytesPerCellUpdate(int ndim) {
        return 16;
    }
}
