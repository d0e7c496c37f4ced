package sweep.acoustictti;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import sweep.acousticvti.AcousticVtiEquation;
import sweep.equation.FwiExample;
import sweep.equation.Parameter;
import sweep.equation.Step;
import sweep.equation.StepEquation;
import sweep.models.DefaultModels;
import sweep.prop.Grid;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;

/**
 * The pseudo-acoustic TTI (tilted transverse isotropic) wave equation with parameters vp (P velocity along the
 * symmetry axis), epsilon and delta (Thomsen), theta (the axis's tilt from vertical, per cell) and in 3-D phi (its
 * azimuth): the {@code acoustic-vti} system with its horizontal and vertical second derivatives replaced by the rotated
 * ones in self-adjoint form, stable for a tilt that varies in space when epsilon ≥ delta; its steps are
 * {@link AcousticTtiStep} (2-D) and {@link AcousticTti3dStep} on the step skeleton. docs/equations.md gives the system,
 * the discretisation and its artefacts.
 */
public final class AcousticTtiEquation extends StepEquation {
    /** The equation's name, {@code --equation acoustic-tti}. */
    public static final String NAME = "acoustic-tti";

    private static final AcousticVtiEquation VTI = new AcousticVtiEquation();

    private static final List<Parameter> PARAMETERS_2D = List.of(
            new Parameter("vp", "m/s", "P velocity along the symmetry axis, finite and > 0", 1400, 4700, 100),
            Parameter.bounded("epsilon", "1", "Thomsen epsilon, finite, > -0.5 and >= delta", -0.5, 1, -0.2, 0.4,
                    0.02),
            Parameter.bounded("delta", "1", "Thomsen delta, finite, > -0.5 and <= epsilon", -0.5, 1, -0.2, 0.3,
                    0.02),
            Parameter.bounded("theta", "deg", "tilt of the symmetry axis from vertical, towards +x, in (-180, 180)",
                    -180, 180, -90, 90, 5));

    /** The 3-D models' parameters: the 2-D ones and the azimuth. */
    private static final List<Parameter> PARAMETERS_3D = List.of(PARAMETERS_2D.get(0), PARAMETERS_2D.get(1),
            PARAMETERS_2D.get(2), PARAMETERS_2D.get(3), Parameter.bounded("phi", "deg", "azimuth of the symmetry axis"
                    + " from +x towards +y (3-D), in (-360, 360)", -360, 360, -180, 180, 5));

    /** The equations of 2-D and 3-D models ({@link #inDimensions}). */
    private static final AcousticTtiEquation TWO_D = new AcousticTtiEquation(2);
    private static final AcousticTtiEquation THREE_D = new AcousticTtiEquation(3);

    /** 2 or 3: the dimension whose parameters this instance lists (the installed one: 2). */
    private final int ndim;

    /** The equation as installed: the parameters of 2-D models; {@link #inDimensions} gives the 3-D one. */
    public AcousticTtiEquation() {
        this(2);
    }

    private AcousticTtiEquation(int ndim) {
        this.ndim = ndim;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "pseudo-acoustic TTI (vp, Thomsen epsilon and delta, tilt theta, in 3-D azimuth phi), second order in"
                + " time";
    }

    /** vp, epsilon, delta, theta, and in 3-D phi. */
    @Override
    public List<Parameter> parameters() {
        return ndim == 3 ? PARAMETERS_3D : PARAMETERS_2D;
    }

    /** The equation with the parameters of {@code ndim}-D models: 3-D ones add the azimuth phi. */
    @Override
    public AcousticTtiEquation inDimensions(int ndim) {
        return ndim == this.ndim ? this : ndim == 3 ? THREE_D : TWO_D;
    }

    /** The stress p across the symmetry axis and the stress q along it, at the nodes. */
    @Override
    public List<String> fields(int ndim) {
        return List.of("p", "q");
    }

    /**
     * The previous levels of p and q, the CPML memory variables ψ and ζ of the compact Laplacian's second derivatives
     * (of p along x and z, of q along x and z; 3-D along x, y and z), the fluxes of the first pass, then the CPML
     * memory variables of the first pass's differences (ψ) and of the second's (ξ).
     */
    @Override
    public List<String> auxiliaries(int ndim) {
        if (ndim == 3) {
            List<String> a = new ArrayList<>(List.of("p_previous", "q_previous"));
            for (String f : List.of("p", "q")) {
                for (String x : List.of("x", "y", "z")) {
                    a.add("psi_" + f + "_" + x);
                    a.add("zeta_" + f + "_" + x);
                }
            }
            for (String kind : List.of("flux_", "psi_flux_", "xi_")) {
                for (String f : List.of("p", "q")) {
                    for (String x : List.of("x", "y", "z")) {
                        a.add(kind + f + "_" + x);
                    }
                }
            }
            return List.copyOf(a);
        }
        return List.of("p_previous", "q_previous", "psi_p_x", "zeta_p_x", "psi_p_z", "zeta_p_z", "psi_q_x",
                "zeta_q_x", "psi_q_z", "zeta_q_z", "flux_p_x", "flux_p_z", "flux_q_x", "flux_q_z", "psi_flux_p_x",
                "psi_flux_p_z", "psi_flux_q_x", "psi_flux_q_z", "xi_p_x", "xi_p_z", "xi_q_x", "xi_q_z");
    }

    /** ψ and ζ of the Laplacian, ψ of the first pass and ξ of the second, of p and of q. */
    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return 8;
    }

    @Override
    public List<String> recordable(int ndim) {
        return List.of("p");
    }

    @Override
    public List<String> defaultRecord(int ndim) {
        return List.of("p");
    }

    /** One kind of source: pressure, entering p and q as the medium's stiffness times an axial stress. */
    @Override
    public List<String> sourceTypes(int ndim) {
        return List.of();
    }

    @Override
    public String defaultSourceType(int ndim) {
        return null;
    }

    /** The fastest P velocity, vp·√(1 + 2·max(epsilon, 0)) at its largest, as for {@code acoustic-vti}. */
    @Override
    public double cflVelocity(float[] model, int cells) {
        return AcousticVtiEquation.fastestVelocity(model, cells);
    }

    /**
     * {@code acoustic-vti}'s limit (the acoustic leapfrog's for the fastest P velocity): the rotated operators' symbols
     * are non-negative and sum to the compact Laplacian's in every direction, so the VTI bound holds.
     */
    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        return VTI.maxStableDt(vmax, dh, order);
    }

    /** Each range of {@link #parameters()}, then epsilon ≥ delta in every cell, as for {@code acoustic-vti}. */
    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        super.checkModel(model, shape, origin, physical, names);
        AcousticVtiEquation.checkEpsilonAtLeastDelta(model, model.length / parameterCount(), shape, origin, physical,
                names, "acoustic TTI");
    }

    /** epsilon raised to delta where an update put it below (delta lowered when only delta of the two is inverted). */
    @Override
    public void projectFeasible(float[] model, float[] start, boolean[] inverted, double[] min, double[] max,
                                int cells) {
        AcousticVtiEquation.keepEpsilonAtLeastDelta(model, inverted, cells);
    }

    /**
     * p and q of the current level before the first pass, the fluxes (four; 3-D six) before the second, then in the
     * adjoint run the adjoints of the second pass's and of the first pass's differences before their transposes.
     */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        if (ndim == 3) {
            List<HaloPoint> h = new ArrayList<>(List.of(new HaloPoint("FORWARD_P", List.of("p")),
                    new HaloPoint("FORWARD_Q", List.of("q"))));
            List<String> kinds = List.of("FORWARD_FLUX", "ADJOINT_LAPLACIAN", "ADJOINT_DIVERGENCE",
                    "ADJOINT_DIFFERENCE");
            for (String kind : kinds) {
                for (String f : List.of("P", "Q")) {
                    for (String x : List.of("X", "Y", "Z")) {
                        String name = kind + "_" + f + "_" + x;
                        String field = kind.equals("FORWARD_FLUX") ? "flux_" + f + "_" + x
                                : kind.substring(8) + "_" + f + "_" + x + "_adjoint";
                        h.add(new HaloPoint(name, List.of(field.toLowerCase(Locale.ROOT))));
                    }
                }
            }
            return List.copyOf(h);
        }
        return List.of(new HaloPoint("FORWARD_P", List.of("p")), new HaloPoint("FORWARD_Q", List.of("q")),
                new HaloPoint("FORWARD_FLUX_P_X", List.of("flux_p_x")),
                new HaloPoint("FORWARD_FLUX_P_Z", List.of("flux_p_z")),
                new HaloPoint("FORWARD_FLUX_Q_X", List.of("flux_q_x")),
                new HaloPoint("FORWARD_FLUX_Q_Z", List.of("flux_q_z")),
                new HaloPoint("ADJOINT_LAPLACIAN_P_X", List.of("laplacian_p_x_adjoint")),
                new HaloPoint("ADJOINT_LAPLACIAN_P_Z", List.of("laplacian_p_z_adjoint")),
                new HaloPoint("ADJOINT_LAPLACIAN_Q_X", List.of("laplacian_q_x_adjoint")),
                new HaloPoint("ADJOINT_LAPLACIAN_Q_Z", List.of("laplacian_q_z_adjoint")),
                new HaloPoint("ADJOINT_DIVERGENCE_P_X", List.of("divergence_p_x_adjoint")),
                new HaloPoint("ADJOINT_DIVERGENCE_P_Z", List.of("divergence_p_z_adjoint")),
                new HaloPoint("ADJOINT_DIVERGENCE_Q_X", List.of("divergence_q_x_adjoint")),
                new HaloPoint("ADJOINT_DIVERGENCE_Q_Z", List.of("divergence_q_z_adjoint")),
                new HaloPoint("ADJOINT_DIFFERENCE_P_X", List.of("difference_p_x_adjoint")),
                new HaloPoint("ADJOINT_DIFFERENCE_P_Z", List.of("difference_p_z_adjoint")),
                new HaloPoint("ADJOINT_DIFFERENCE_Q_X", List.of("difference_q_x_adjoint")),
                new HaloPoint("ADJOINT_DIFFERENCE_Q_Z", List.of("difference_q_z_adjoint")));
    }

    /** 0: every coefficient is made of its own cell. */
    @Override
    public int modelMargin(int order) {
        return 0;
    }

    @Override
    protected Step step(PropSpec spec, Grid grid) {
        return grid.ndim() == 3 ? new AcousticTti3dStep(spec, grid) : new AcousticTtiStep(spec, grid);
    }

    /**
     * vp²dt²·(1 + 2ε), vp²dt²·√(1 + 2δ), vp²dt² and in 2-D cos 2θ, sin 2θ, in 3-D the symmetry axis n and ∂n/∂θ
     * (three components each).
     */
    @Override
    public int coefficientArrays(int ndim) {
        return ndim == 3 ? 9 : 5;
    }

    /**
     * The adjoints of the update's eight (3-D: twelve) differences, then the gradients of the three coefficients, the
     * tilt and in 3-D the azimuth.
     */
    @Override
    public int adjointWorkArrays(int ndim) {
        return ndim == 3 ? 17 : 12;
    }

    /** The rotated horizontal and axial second derivatives, then the first differences of p and q along each axis. */
    @Override
    public int tapeFloatsPerCell(int ndim) {
        return 2 + 2 * ndim;
    }

    /**
     * p, q and their previous levels read, the previous levels written, the fluxes (two per axis) written and read,
     * the coefficients of the forward step read (five; 3-D six: the stiffness and the axis).
     */
    @Override
    public int bytesPerCellUpdate(int ndim) {
        return ndim == 3 ? 4 * (4 + 2 + 12 + 6) : 4 * (4 + 2 + 8 + 5);
    }

    /**
     * The built-in FWI model of {@code acoustic-vti} (isotropic water, a VTI background and a shale lens) with the
     * symmetry axis tilted below the water, 10° at the sea floor to 30° at the bottom; the start smooths all four.
     */
    @Override
    public FwiExample fwiExample(double dh) {
        FwiExample vti = VTI.fwiExample(dh);
        int[] shape = vti.shape();
        int n = shape[0] * shape[1];
        float[] truth = new float[4 * n];
        System.arraycopy(vti.trueModel(), 0, truth, 0, 3 * n);
        int water = vti.waterRows();
        for (int z = water; z < shape[0]; z++) {
            double depth = (z - water) / (double) Math.max(1, shape[0] - 1 - water);
            for (int x = 0; x < shape[1]; x++) {
                truth[3 * n + z * shape[1] + x] = (float) (10 + 20 * depth);
            }
        }
        return DefaultModels.marineExample("the built-in model with a tilted TI background and a shale lens", truth,
                4, dh);
    }
}
