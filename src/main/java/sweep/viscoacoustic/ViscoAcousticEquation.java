package sweep.viscoacoustic;

import java.util.Arrays;
import java.util.List;
import sweep.acousticvd.AcousticVdEquation;
import sweep.equation.EquationSolver;
import sweep.equation.FwiExample;
import sweep.equation.Parameter;
import sweep.equation.Setting;
import sweep.equation.WaveEquation;
import sweep.models.DefaultModels;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * The constant-Q visco-acoustic wave equation: the variable-density velocity–pressure system ({@code acoustic-vd})
 * with L standard linear solids whose memory variables live at the pressure nodes, their strengths fitted per cell to
 * the cell's Q over a frequency band (docs/visco-acoustic.md); parameters vp (the phase velocity at the reference
 * frequency), rho and q. Its solver is the variable-density one with these memory variables; gradients use full
 * storage.
 */
public final class ViscoAcousticEquation implements WaveEquation {
    /** The equation's name, {@code --equation visco-acoustic}. */
    public static final String NAME = "visco-acoustic";
    /** The setting of the number of solids. */
    public static final String MECHANISMS = "mechanisms";
    /** The setting of the band over which Q is constant, "FMIN,FMAX" in Hz. */
    public static final String Q_BAND = "q_band";
    /** The setting of the frequency at which vp is the phase velocity, Hz. */
    public static final String F_REF = "f_ref";

    private static final AcousticVdEquation VD = new AcousticVdEquation();

    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vp", "m/s", "P velocity at the reference frequency, finite and > 0", 1400, 4700, 100),
            new Parameter("rho", "kg/m³", "density, finite and > 0", 1000, 3000, 30),
            new Parameter("q", "1", "quality factor, finite and > 0", 10, 1000, 20));

    private static final List<Setting> SETTINGS = List.of(
            new Setting(MECHANISMS, "relaxation mechanisms (standard linear solids) per pressure node, 1 to 8", "3",
                    false),
            new Setting(Q_BAND, "the band of constant Q in Hz, FMIN,FMAX, or one frequency F for F/3,3F (command line"
                    + " default: the wavelet's peak frequency F)", null, true),
            new Setting(F_REF, "the frequency in Hz at which vp is the phase velocity (command line default: the"
                    + " wavelet's peak frequency)", null, true));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "constant-Q visco-acoustic (variable density, standard linear solids), staggered grid";
    }

    @Override
    public List<Parameter> parameters() {
        return PARAMETERS;
    }

    @Override
    public List<Setting> settings() {
        return SETTINGS;
    }

    /** mechanisms: an integer 1..8; q_band: FMIN,FMAX with 0 &lt; FMIN &lt; FMAX, or F for F/3,3F; f_ref: &gt; 0. */
    @Override
    public String checkSetting(String name, String value) {
        String v = value == null ? "" : value.trim();
        switch (name) {
            case MECHANISMS -> {
                int n;
                try {
                    n = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("mechanisms must be an integer 1 to 8, got '" + value + "'");
                }
                if (n < 1 || n > 8) {
                    throw new IllegalArgumentException("mechanisms must be 1 to 8, got " + n);
                }
                return Integer.toString(n);
            }
            case Q_BAND -> {
                String[] f = v.split(",", -1);
                double[] band = new double[2];
                try {
                    if (f.length == 1) {
                        double c = Double.parseDouble(f[0].trim());
                        band[0] = c / 3;
                        band[1] = 3 * c;
                    } else if (f.length == 2) {
                        band[0] = Double.parseDouble(f[0].trim());
                        band[1] = Double.parseDouble(f[1].trim());
                    } else {
                        throw new NumberFormatException();
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("q_band must be FMIN,FMAX in Hz (or one frequency F for F/3,3F),"
                            + " got '" + value + "'");
                }
                if (!(band[0] > 0) || !(band[1] > band[0]) || Double.isInfinite(band[1])) {
                    throw new IllegalArgumentException("q_band must satisfy 0 < FMIN < FMAX (Hz), got " + band[0]
                            + "," + band[1]);
                }
                return band[0] + "," + band[1];
            }
            case F_REF -> {
                double f;
                try {
                    f = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("f_ref must be a frequency in Hz, got '" + value + "'");
                }
                if (!(f > 0) || Double.isInfinite(f)) {
                    throw new IllegalArgumentException("f_ref must be positive and finite (Hz), got " + f);
                }
                return Double.toString(f);
            }
            default -> throw new IllegalArgumentException("the " + NAME + " equation has no setting " + name
                    + ": its settings are " + MECHANISMS + ", " + Q_BAND + ", " + F_REF);
        }
    }

    /**
     * Refuses a band of constant Q that reaches the Nyquist frequency 1/(2 dt) of the run, or a reference frequency at
     * or above it: the solids would be fitted to frequencies the run never carries. A reference frequency outside the
     * band is allowed (vp is then the phase velocity there of solids whose Q is constant only in the band, e.g. a
     * sonic-log frequency) with a warning that says by what factor it lies outside (docs/visco-acoustic.md).
     */
    @Override
    public List<String> checkSettings(PropSpec spec) {
        double nyquist = 0.5 / spec.dt();
        String[] band = spec.setting(Q_BAND).split(",");
        double lo = Double.parseDouble(band[0]);
        double hi = Double.parseDouble(band[1]);
        String given = " (without a q_band the band is F/3,3F and f_ref is F, F the wavelet's peak frequency)";
        if (hi >= nyquist) {
            throw new PropSpec.InvalidSetting(Q_BAND, hz(lo) + "," + hz(hi) + " Hz reaches the Nyquist frequency "
                    + hz(nyquist) + " Hz of dt=" + spec.dt() + " s: give a band whose upper end lies below "
                    + hz(nyquist) + " Hz, or a smaller dt" + given);
        }
        double f = Double.parseDouble(spec.setting(F_REF));
        if (f >= nyquist) {
            throw new PropSpec.InvalidSetting(F_REF, hz(f) + " Hz lies at or above the Nyquist frequency "
                    + hz(nyquist) + " Hz of dt=" + spec.dt() + " s: give a reference frequency below " + hz(nyquist)
                    + " Hz (best within q_band " + hz(lo) + "," + hz(hi) + " Hz), or a smaller dt");
        }
        if (f < lo || f > hi) {
            return List.of("f_ref " + hz(f) + " Hz lies " + (f < lo ? "below" : "above") + " q_band " + hz(lo) + ","
                    + hz(hi) + " Hz by a factor of " + hz(f < lo ? lo / f : f / hi) + ": vp is the phase velocity at "
                    + hz(f) + " Hz of solids whose Q is constant only within the band; give an f_ref in the band"
                    + " unless that is meant");
        }
        return List.of();
    }

    /** A frequency or factor in 4 significant digits. */
    private static String hz(double f) {
        String[] g = String.format(java.util.Locale.ROOT, "%.4g", f).split("e");
        String mantissa = g[0].contains(".") ? g[0].replaceFirst("\\.?0+$", "") : g[0];
        return g.length == 1 ? mantissa : mantissa + "e" + g[1];
    }

    /** The coefficients of a run of {@code spec}: its solids fitted to its settings, at its dt. */
    static ViscoAcousticCoefficients coefficients(PropSpec spec) {
        String[] band = spec.setting(Q_BAND).split(",");
        ConstantQ fit = new ConstantQ(Integer.parseInt(spec.setting(MECHANISMS)), Double.parseDouble(band[0]),
                Double.parseDouble(band[1]));
        return new ViscoAcousticCoefficients(fit, Double.parseDouble(spec.setting(F_REF)), spec.dt());
    }

    @Override
    public List<String> fields(int ndim) {
        return VD.fields(ndim);
    }

    @Override
    public List<String> recordable(int ndim) {
        return VD.recordable(ndim);
    }

    @Override
    public List<String> defaultRecord(int ndim) {
        return VD.defaultRecord(ndim);
    }

    @Override
    public List<String> sourceTypes(int ndim) {
        return VD.sourceTypes(ndim);
    }

    @Override
    public String defaultSourceType(int ndim) {
        return VD.defaultSourceType(ndim);
    }

    /** vp, rho and q finite and &gt; 0 everywhere, the first bad value named with its global position. */
    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        int n = model.length / 3;
        Cells.checkPositive(model, 0, shape, origin, physical, names[0], "velocity", "m/s",
                "vp must be finite and > 0 m/s");
        Cells.checkPositive(model, n, shape, origin, physical, names[1], "density", "kg/m³",
                "rho must be finite and > 0 kg/m³");
        Cells.checkPositive(model, 2 * n, shape, origin, physical, names[2], "quality factor", "",
                "q must be finite and > 0");
    }

    /**
     * The largest unrelaxed velocity, vp·√(M_U/(ρ·vp²)) over the cells: the solids make the medium stiffer at high
     * frequencies than at f_ref, and the leapfrog's limit is set by the stiffest response.
     */
    @Override
    public double cflVelocity(float[] model, int cells, PropSpec spec) {
        ViscoAcousticCoefficients c = coefficients(spec);
        double m = 0;
        for (int i = 0; i < cells; i++) {
            m = Math.max(m, model[i] * c.unrelaxedRatio(model[2 * cells + i]));
        }
        return m;
    }

    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        return VD.maxStableDt(vmax, dh, order);
    }

    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return VD.pmlAuxiliariesPerAxis(ndim);
    }

    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        return VD.haloPoints(ndim);
    }

    @Override
    public int modelMargin(int order) {
        return VD.modelMargin(order);
    }

    @Override
    public EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo) {
        return AcousticVdEquation.solver(spec, grid, halo, new ViscoAcousticRelaxation(spec));
    }

    /** The acoustic-vd device solver with the memory variables: forward runs and gradients, both storages. */
    @Override
    public boolean hasDeviceSolver() {
        return VD.hasDeviceSolver();
    }

    /**
     * Checkpointing (the default: memory ∝ √nt) and full storage; no boundary saving, since the memory update cannot be
     * run backwards (docs/visco-acoustic.md). Both give the same gradient, bit for bit.
     */
    @Override
    public List<Storage> storages() {
        return List.of(Storage.CHECKPOINTING, Storage.FULL);
    }

    private static int mechanisms(Grid g) {
        return Integer.parseInt(g.spec.setting(MECHANISMS));
    }

    /** The variable-density fields, the memory variables and their coefficients, and one divergence per cell. */
    @Override
    public long fieldBytes(Grid g) {
        return VD.fieldBytes(g) + 4L * (2L * mechanisms(g) * g.length() + (long) g.nz() * g.ny() * g.nx());
    }

    @Override
    public long cpmlBytes(Grid g) {
        return VD.cpmlBytes(g);
    }

    /** The variable-density adjoint arrays, the memory variables' adjoints and node gradients, one bracket per cell. */
    @Override
    public long adjointBytes(Grid g, Storage storage) {
        return VD.adjointBytes(g, storage) + 4L * (2L * mechanisms(g) * g.length() + (long) g.nz() * g.ny() * g.nx());
    }

    /**
     * The variable-density tape (the memory's adjoint needs only the divergence brackets it holds); a checkpoint also
     * keeps the memory variables.
     */
    @Override
    public long tapeBytes(Grid g, Storage storage, int nt) {
        return AcousticVdEquation.tapeBytes(g, storage, nt, mechanisms(g));
    }

    /** The caller's three parameter arrays, the stacked model and the solver's copy of the window. */
    @Override
    public int modelFloatsPerCell() {
        return 9;
    }

    @Override
    public List<String> defaultInversion() {
        return List.of("vp");
    }

    /**
     * The built-in 2-D model of {@code sweep fwi}: acoustic-vd's (vp, and rho with its density lens) with a gas pocket
     * around (x, z) = (3800 m, 1000 m), 800 m by 250 m, where vp is 15 % lower and Q is 20; Q elsewhere is 10000 in the
     * water and rises from 100 to 200 with depth below. The start smooths vp and keeps rho and Q true: an inversion
     * for vp with known Q and density.
     */
    @Override
    public FwiExample fwiExample(double dh) {
        FwiExample vd = VD.fwiExample(dh);
        int[] shape = vd.shape();
        int nz = shape[0];
        int nx = shape[1];
        int n = nz * nx;
        int water = vd.waterRows();
        float[] truth = Arrays.copyOf(vd.trueModel(), 3 * n);
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int i = z * nx + x;
                double q = z < water ? 10000 : 100 + 100 * (z + 0.5) * dh / 2000;
                double gx = ((x + 0.5) * dh - 3800) / 400;
                double gz = ((z + 0.5) * dh - 1000) / 125;
                if (z >= water && gx * gx + gz * gz < 1) {
                    truth[i] *= 0.85f;
                    q = 20;
                }
                truth[2 * n + i] = (float) q;
            }
        }
        return new FwiExample() {
            @Override
            public String description() {
                return "the built-in visco-acoustic model (a gas pocket of Q 20)";
            }

            @Override
            public int[] shape() {
                return shape.clone();
            }

            @Override
            public float[] trueModel() {
                return truth.clone();
            }

            @Override
            public int waterRows() {
                return water;
            }

            @Override
            public int receiverRow() {
                return vd.receiverRow();
            }

            @Override
            public double smoothMetres() {
                return vd.smoothMetres();
            }

            @Override
            public double time() {
                return vd.time();
            }

            @Override
            public float[] startModel(double sigmaCells, int keepRows) {
                float[] start = DefaultModels.smoothParameters(truth, 3, nz, nx, sigmaCells, keepRows);
                System.arraycopy(truth, n, start, n, 2 * n);
                return start;
            }
        };
    }
}
