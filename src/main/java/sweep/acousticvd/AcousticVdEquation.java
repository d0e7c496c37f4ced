package sweep.acousticvd;

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
 * The variable-density acoustic wave equation, ∂p/∂t = −K ∇·v, ρ ∂v/∂t = −∇p (K = ρ·vp²), as a velocity–pressure
 * system on a staggered grid, with parameters vp and rho; its solver is {@link AcousticVdSolver}. With a constant rho
 * its pressure record is the {@code acoustic} equation's for the same vp, wavelet and geometry (docs/equations.md).
 */
public final class AcousticVdEquation implements WaveEquation {
    /** The equation's name, {@code --equation acoustic-vd}. */
    public static final String NAME = "acoustic-vd";

    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vp", "m/s", "P velocity, finite and > 0", 1400, 4700, 100),
            new Parameter("rho", "kg/m³", "density, finite and > 0", 1000, 3000, 30));

    static final String FORWARD_VELOCITY = "FORWARD_VELOCITY";
    static final String FORWARD_PRESSURE = "FORWARD_PRESSURE";
    static final String ADJOINT_PRESSURE = "ADJOINT_PRESSURE";
    static final String ADJOINT_VELOCITY = "ADJOINT_VELOCITY";
    static final String NODE_GRADIENT = "NODE_GRADIENT";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "variable-density acoustic velocity-pressure, staggered grid";
    }

    @Override
    public List<Parameter> parameters() {
        return PARAMETERS;
    }

    /** The pressure at the nodes and the particle velocities at the half nodes of their axes. */
    @Override
    public List<String> fields(int ndim) {
        return ndim == 3 ? List.of("p", "vx", "vy", "vz") : List.of("p", "vx", "vz");
    }

    @Override
    public List<String> recordable(int ndim) {
        return fields(ndim);
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

    /** vp and rho finite and > 0 everywhere, the first bad value named with its global position. */
    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        int n = model.length / 2;
        Cells.checkPositive(model, 0, shape, origin, physical, names[0], "velocity", "m/s",
                "vp must be finite and > 0 m/s");
        Cells.checkPositive(model, n, shape, origin, physical, names[1], "density", "kg/m³",
                "rho must be finite and > 0 kg/m³");
    }

    /**
     * dt ≤ 1/(vmax·Σ|c_k|·√(Σ_a 1/dh_a²)), c_k the staggered weights: the leapfrog limit of the staggered first
     * derivatives (each of symbol at most 2Σ|c_k|/dh) for the velocity–pressure system with speed vp.
     */
    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        double s = 0;
        for (double d : dh) {
            s += 1.0 / (d * d);
        }
        return 1.0 / (vmax * FdWeights.staggeredAbsSum(order) * Math.sqrt(s));
    }

    /** One memory variable per axis for the velocity step (of ∂p) and one for the pressure step (of ∂v). */
    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return 2;
    }

    /**
     * The velocities after the velocity step and the pressure after the pressure step; in the adjoint run the scaled
     * adjoints of the pressure and of the velocities; the buoyancy-node gradient once at the end (a node at a tile's
     * last column also moves the cell past the cut).
     */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        List<String> v = ndim == 3 ? List.of("vx", "vy", "vz") : List.of("vx", "vz");
        List<String> e = ndim == 3 ? List.of("ex", "ey", "ez") : List.of("ex", "ez");
        List<String> d = ndim == 3 ? List.of("dx", "dy", "dz") : List.of("dx", "dz");
        List<String> g = ndim == 3 ? List.of("bx_gradient", "by_gradient", "bz_gradient")
                : List.of("bx_gradient", "bz_gradient");
        return List.of(new HaloPoint(FORWARD_VELOCITY, v), new HaloPoint(FORWARD_PRESSURE, List.of("p")),
                new HaloPoint(ADJOINT_PRESSURE, e), new HaloPoint(ADJOINT_VELOCITY, d),
                new HaloPoint(NODE_GRADIENT, g));
    }

    /** 1: the buoyancy at a velocity node is made of the two cells beside it, so a tile's last node reads the next. */
    @Override
    public int modelMargin(int order) {
        return 1;
    }

    @Override
    public EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo) {
        return new AcousticVdSolver(spec, grid, halo, null);
    }

    /**
     * The variable-density solver with memory variables at its pressure nodes, for an equation built on it (its
     * parameters vp and rho first, then its own): {@code relaxation} says how they evolve and what they cost the
     * gradient. Full storage only (the memory update cannot be run backwards).
     */
    public static EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo, PressureRelaxation relaxation) {
        return new AcousticVdSolver(spec, grid, halo, relaxation);
    }

    @Override
    public boolean hasDeviceSolver() {
        return true;
    }

    /** p, the ndim velocities, dt·K and the ndim buoyancies dt/ρ̄: full arrays of the grid. */
    @Override
    public long fieldBytes(Grid g) {
        return 4L * AcousticVdSolver.fieldArrays(g.ndim()) * g.length();
    }

    /** Two memory variables per axis (in band slabs, {@link Grid#auxLength()} each) and the staggered profiles. */
    @Override
    public long cpmlBytes(Grid g) {
        return 4L * (2L * g.auxLength() + 4L * (g.nz() + g.ny() + g.nx()));
    }

    /** The adjoint arrays; with boundary saving also the brackets of one step. */
    @Override
    public long adjointBytes(Grid g, Storage storage) {
        long n = (long) AcousticVdSolver.adjointArrays(g.ndim()) * g.length() + 2L * g.auxLength();
        if (storage == Storage.BOUNDARY_SAVING) {
            n += (1L + g.ndim()) * g.nz() * g.ny() * g.nx();
        }
        return 4 * n;
    }

    /**
     * FULL: the brackets of every step (the pressure's and one per velocity component) at every computational cell.
     * BOUNDARY_SAVING: per step p and the velocities on the ring of cells whose node or half node lies in a CPML band,
     * and the last state.
     */
    @Override
    public long tapeBytes(Grid g, Storage storage, int nt) {
        return tapeBytes(g, storage, nt, 0);
    }

    /**
     * {@link #tapeBytes} of a solver built with a relaxation of {@code mechanisms} memory variables per pressure node
     * ({@link #solver(PropSpec, Grid, HaloHook, PressureRelaxation)}): checkpoints keep them too.
     */
    public static long tapeBytes(Grid g, Storage storage, int nt, int mechanisms) {
        return 4 * AcousticVdSolver.tapeFloats(g, storage, nt, mechanisms);
    }

    /** The caller's two parameter arrays, the stacked model and the solver's copy of the window. */
    @Override
    public int modelFloatsPerCell() {
        return 6;
    }

    @Override
    public List<String> defaultInversion() {
        return List.of("vp");
    }

    /**
     * The built-in 2-D model of {@code sweep fwi}: the acoustic one's vp (2 km x 6 km, 250 m of water) with a density
     * of 1000 kg/m³ in the water and Gardner's ρ = 310·vp^0.25 below, plus a lens 15 % denser than that around
     * (x, z) = (2300 m, 1200 m), 700 m by 200 m, which vp does not show; the start smooths both.
     */
    @Override
    public FwiExample fwiExample(double dh) {
        int nz = (int) Math.round(2000 / dh);
        int nx = (int) Math.round(6000 / dh);
        int n = nz * nx;
        int water = (int) Math.ceil(250 / dh);
        float[] vp = DefaultModels.fwi2d(dh);
        float[] truth = new float[2 * n];
        System.arraycopy(vp, 0, truth, 0, n);
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int i = z * nx + x;
                double rho = z < water ? 1000 : 310 * Math.pow(vp[i], 0.25);
                double lx = ((x + 0.5) * dh - 2300) / 350;
                double lz = ((z + 0.5) * dh - 1200) / 100;
                if (z >= water && lx * lx + lz * lz < 1) {
                    rho *= 1.15;
                }
                truth[n + i] = (float) rho;
            }
        }
        return DefaultModels.marineExample("the built-in variable-density model", truth, 2, dh);
    }
}
