package sweep.acousticvti;

import java.util.List;
import sweep.core.FdWeights;
import sweep.equation.FwiExample;
import sweep.equation.Parameter;
import sweep.equation.Step;
import sweep.equation.StepEquation;
import sweep.models.DefaultModels;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;

/**
 * The pseudo-acoustic VTI (vertically transverse isotropic) wave equation with parameters vp (vertical P velocity),
 * epsilon and delta (Thomsen), a coupled second-order system in the horizontal stress p (recorded, the pressure
 * source's field) and the vertical stress q; its step is {@link AcousticVtiStep} on the step skeleton. With
 * epsilon = delta = 0 it is the {@code acoustic} equation (p = q); docs/equations.md gives the system and its
 * stability condition epsilon ≥ delta, which the model check enforces cell by cell.
 */
public final class AcousticVtiEquation extends StepEquation {
    /** The equation's name, {@code --equation acoustic-vti}. */
    public static final String NAME = "acoustic-vti";

    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vp", "m/s", "vertical P velocity, finite and > 0", 1400, 4700, 100),
            Parameter.bounded("epsilon", "1", "Thomsen epsilon, finite, > -0.5 and >= delta", -0.5, 1, -0.2, 0.4,
                    0.02),
            Parameter.bounded("delta", "1", "Thomsen delta, finite, > -0.5 and <= epsilon", -0.5, 1, -0.2, 0.3,
                    0.02));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "pseudo-acoustic VTI (vp, Thomsen epsilon and delta), second order in time";
    }

    @Override
    public List<Parameter> parameters() {
        return PARAMETERS;
    }

    /** The horizontal stress p and the vertical stress q at the nodes. */
    @Override
    public List<String> fields(int ndim) {
        return List.of("p", "q");
    }

    /**
     * The previous levels of p and q, then per axis the CPML memory variables ψ and ζ of its second derivative (of p
     * along x and y, of q along z).
     */
    @Override
    public List<String> auxiliaries(int ndim) {
        return ndim == 3
                ? List.of("p_previous", "q_previous", "psi_x", "zeta_x", "psi_y", "zeta_y", "psi_z", "zeta_z")
                : List.of("p_previous", "q_previous", "psi_x", "zeta_x", "psi_z", "zeta_z");
    }

    /** ψ and ζ. */
    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return 2;
    }

    @Override
    public List<String> recordable(int ndim) {
        return List.of("p");
    }

    @Override
    public List<String> defaultRecord(int ndim) {
        return List.of("p");
    }

    /** One kind of source: pressure, entering p and q as the medium's stiffness times a vertical stress. */
    @Override
    public List<String> sourceTypes(int ndim) {
        return List.of();
    }

    @Override
    public String defaultSourceType(int ndim) {
        return null;
    }

    /**
     * The fastest P velocity: the largest vp·√(1 + 2·max(epsilon, 0)), the horizontal speed where epsilon > 0 (with
     * epsilon ≥ delta no direction is faster).
     */
    @Override
    public double cflVelocity(float[] model, int cells) {
        return fastestVelocity(model, cells);
    }

    /**
     * The largest vp·√(1 + 2·max(epsilon, 0)) of a model holding vp then epsilon, {@code cells} values each: the
     * fastest P velocity of a pseudo-acoustic VTI or TTI medium with epsilon ≥ delta.
     */
    public static double fastestVelocity(float[] model, int cells) {
        double m = 0;
        for (int i = 0; i < cells; i++) {
            double e = Math.max(0, model[cells + i]);
            m = Math.max(m, model[i] * Math.sqrt(1 + 2 * e));
        }
        return m;
    }

    /**
     * The acoustic leapfrog limit 2/(v·√(Σ_a μ/dh_a²)), μ the largest symbol of the second-derivative stencil, for v
     * the fastest P velocity: the system's largest eigenvalue at every wavenumber is at most v² times the acoustic one.
     */
    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        double mu = FdWeights.secondDerivativeSymbolMax(order);
        double s = 0;
        for (double d : dh) {
            s += mu / (d * d);
        }
        return 2.0 / (vmax * Math.sqrt(s));
    }

    /**
     * Each range of {@link #parameters()}, then epsilon ≥ delta in every cell (below it the system has a growing
     * mode); a refusal names the file, the values and the cell's global position.
     */
    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        super.checkModel(model, shape, origin, physical, names);
        checkEpsilonAtLeastDelta(model, model.length / 3, shape, origin, physical, names, "acoustic VTI");
    }

    /**
     * Refuses a cell with epsilon below delta in a model holding vp, epsilon, delta, ... one after the other,
     * {@code n} values each (a pseudo-acoustic system named {@code system} has a growing mode there); the message
     * names the files, the values and the cell's global position.
     */
    public static void checkEpsilonAtLeastDelta(float[] model, int n, int[] shape, int[] origin, int[] physical,
                                                String[] names, String system) {
        for (int i = 0; i < n; i++) {
            float e = model[n + i];
            float d = model[2 * n + i];
            if (e < d && Cells.inside(shape, i, origin, physical)) {
                throw new IllegalArgumentException(value("epsilon", e, names[1]) + " is below "
                        + value("delta", d, names[2]) + " at " + Cells.position(shape, i, origin)
                        + ": the " + system + " system is stable only for epsilon >= delta");
            }
        }
    }

    /** "epsilon = 0.02", with the file it came from when that is not the parameter's own name. */
    private static String value(String parameter, float v, String source) {
        return parameter + " = " + v + (parameter.equals(source) ? "" : " (" + source + ")");
    }

    /** epsilon raised to delta where an update put it below (delta lowered instead when only delta is inverted). */
    @Override
    public void projectFeasible(float[] model, float[] start, boolean[] inverted, double[] min, double[] max,
                                int cells) {
        keepEpsilonAtLeastDelta(model, inverted, cells);
    }

    /**
     * In a model holding vp, epsilon, delta, ... ({@code cells} values each), epsilon raised to delta where an update
     * put it below (delta lowered instead when only delta of the two is inverted).
     */
    public static void keepEpsilonAtLeastDelta(float[] model, boolean[] inverted, int cells) {
        boolean raiseEpsilon = inverted[1] || !inverted[2];
        for (int i = 0; i < cells; i++) {
            if (model[cells + i] < model[2 * cells + i]) {
                if (raiseEpsilon) {
                    model[cells + i] = model[2 * cells + i];
                } else {
                    model[2 * cells + i] = model[cells + i];
                }
            }
        }
    }

    /**
     * p and q of the current level before the update (its stencils read them across a cut), then in the adjoint run
     * the adjoints of the horizontal second derivatives (x, and y in 3-D) before their transposed stencils.
     */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        return ndim == 3
                ? List.of(new HaloPoint("FORWARD_P", List.of("p")), new HaloPoint("FORWARD_Q", List.of("q")),
                        new HaloPoint("ADJOINT_X", List.of("laplacian_x_adjoint")),
                        new HaloPoint("ADJOINT_Y", List.of("laplacian_y_adjoint")))
                : List.of(new HaloPoint("FORWARD_P", List.of("p")), new HaloPoint("FORWARD_Q", List.of("q")),
                        new HaloPoint("ADJOINT_X", List.of("laplacian_x_adjoint")));
    }

    /** 0: every coefficient is made of its own cell. */
    @Override
    public int modelMargin(int order) {
        return 0;
    }

    @Override
    protected Step step(PropSpec spec, Grid grid) {
        return new AcousticVtiStep(spec, grid);
    }

    /** vp²dt²·(1 + 2ε), vp²dt²·√(1 + 2δ), vp²dt². */
    @Override
    public int coefficientArrays(int ndim) {
        return 3;
    }

    /** The adjoints of the second derivatives per axis, then the gradients of the three coefficients. */
    @Override
    public int adjointWorkArrays(int ndim) {
        return ndim + 3;
    }

    /** The horizontal and the vertical CPML second derivatives. */
    @Override
    public int tapeFloatsPerCell(int ndim) {
        return 2;
    }

    /** p, q and their previous levels read, the previous levels written, three coefficients read. */
    @Override
    public int bytesPerCellUpdate(int ndim) {
        return 4 * (4 + 2 + 3);
    }

    /**
     * The built-in FWI model (2000 m by 6000 m, 250 m of isotropic water) with a VTI background below the water,
     * epsilon 0.05 to 0.15 and delta 0.02 to 0.06 growing with depth, and a shale lens around (4000 m, 1100 m), 1200 m
     * by 200 m, of epsilon 0.25 and delta 0.10; the start smooths all three (epsilon ≥ delta survives smoothing, which
     * is linear), and FWI inverts vp by default with epsilon and delta held at the start's.
     */
    @Override
    public FwiExample fwiExample(double dh) {
        int nz = (int) Math.round(2000 / dh);
        int nx = (int) Math.round(6000 / dh);
        int n = nz * nx;
        int water = (int) Math.ceil(250 / dh);
        float[] vp = DefaultModels.fwi2d(dh);
        float[] truth = new float[3 * n];
        System.arraycopy(vp, 0, truth, 0, n);
        for (int z = water; z < nz; z++) {
            double depth = (z - water) / (double) Math.max(1, nz - 1 - water);
            for (int x = 0; x < nx; x++) {
                double lx = ((x + 0.5) * dh - 4000) / 600;
                double lz = ((z + 0.5) * dh - 1100) / 100;
                boolean lens = lx * lx + lz * lz < 1;
                truth[n + z * nx + x] = (float) (lens ? 0.25 : 0.05 + 0.10 * depth);
                truth[2 * n + z * nx + x] = (float) (lens ? 0.10 : 0.02 + 0.04 * depth);
            }
        }
        return DefaultModels.marineExample("the built-in model with a VTI background and a shale lens", truth, 3,
                dh);
    }
}
