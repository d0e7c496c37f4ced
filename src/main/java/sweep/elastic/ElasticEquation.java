package sweep.elastic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.core.FdWeights;
import sweep.elastic.kernels.ElasticLayout;
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
 * The isotropic elastic velocity–stress system on a staggered grid (parameters vp, vs, rho; docs/elastic.md); its
 * solver is {@link ElasticSolver} (Java backend, or the TornadoVM device in a {@code -Ptornado} build).
 */
public final class ElasticEquation implements WaveEquation {
    private static final List<Parameter> PARAMETERS = List.of(
            new Parameter("vp", "m/s", "P velocity, finite and > 0", 1400, 3500, 100),
            new Parameter("vs", "m/s", "S velocity, finite, >= 0 (0 = fluid) and below vp·√3/2", 300, 2500, 50,
                    true),
            new Parameter("rho", "kg/m³", "density, finite and > 0", 900, 3500, 30));
    /** 31^11: the weight of the old enum's ordinal (1) in the fingerprint of specs made before the contract. */
    private static final long ORDINAL_WEIGHT = pow31(11);

    @Override
    public String name() {
        return "elastic";
    }

    @Override
    public String description() {
        return "isotropic elastic velocity-stress, staggered grid";
    }

    @Override
    public List<Parameter> parameters() {
        return PARAMETERS;
    }

    /** The velocities then the stresses. */
    @Override
    public List<String> fields(int ndim) {
        return ndim == 2 ? List.of("vx", "vz", "sxx", "szz", "sxz")
                : List.of("vx", "vy", "vz", "sxx", "syy", "szz", "sxy", "sxz", "syz");
    }

    @Override
    public List<String> recordable(int ndim) {
        return ndim == 2 ? List.of("p", "vx", "vz") : List.of("p", "vx", "vy", "vz");
    }

    @Override
    public List<String> defaultRecord(int ndim) {
        return recordable(ndim);
    }

    @Override
    public List<String> sourceTypes(int ndim) {
        return ndim == 2 ? List.of("explosive", "fx", "fz") : List.of("explosive", "fx", "fy", "fz");
    }

    @Override
    public String defaultSourceType(int ndim) {
        return "explosive";
    }

    @Override
    public String checkSourceType(String type, int ndim) {
        ElasticSource t = ElasticSource.parse(type);
        if (t == ElasticSource.FY && ndim != 3) {
            throw new IllegalArgumentException("fy needs a 3-D model; this one is 2-D: use explosive, fx or"
                    + " fz");
        }
        return t.label();
    }

    @Override
    public List<String> checkRecord(List<String> list, int ndim) {
        if (list == null || list.isEmpty()) {
            throw new IllegalArgumentException("the list of recorded fields is empty: give e.g. p,vx,vz");
        }
        return ElasticField.parseList(String.join(",", list), ndim).stream().map(ElasticField::label).toList();
    }

    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        int n = model.length / 3;
        Cells.checkElastic(Arrays.copyOfRange(model, 0, n), Arrays.copyOfRange(model, n, 2 * n),
                Arrays.copyOfRange(model, 2 * n, 3 * n), shape, origin, physical, names);
    }

    /**
     * dt ≤ 1/(vmax·Σ|c_k|·√(Σ_a 1/dh_a²)) with c_k the staggered weights, i.e. dh/(vmax·√ndim·Σ|c_k|) for equal
     * spacing.
     */
    @Override
    public double maxStableDt(double vmax, double[] dh, int order) {
        double s = 0;
        for (double d : dh) {
            s += 1.0 / (d * d);
        }
        return 1.0 / (vmax * FdWeights.staggeredAbsSum(order) * Math.sqrt(s));
    }

    /** One memory variable per derivative of the step along that axis (4 in 2-D, 6 in 3-D), on the band cells. */
    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return ElasticLayout.psiPerAxis(ndim);
    }

    /** The points of {@link ElasticHalo.Point}. */
    @Override
    public List<HaloPoint> haloPoints(int ndim) {
        List<String> f = fields(ndim);
        List<String> v = f.subList(0, ndim);
        List<String> s = f.subList(ndim, f.size());
        List<String> bv = new ArrayList<>();
        for (String c : v) {
            bv.add("buoyancy_" + c);
        }
        List<String> mod = ndim == 2 ? List.of("lambda", "lambda2mu", "mu_xz")
                : List.of("lambda", "lambda2mu", "mu_xy", "mu_xz", "mu_yz");
        List<HaloPoint> out = new ArrayList<>();
        for (ElasticHalo.Point p : ElasticHalo.Point.values()) {
            switch (p) {
                case FORWARD_VELOCITY, REBUILT_VELOCITY, ADJOINT_VELOCITY -> out.add(new HaloPoint(p.name(), v));
                case FORWARD_STRESS, REBUILT_STRESS, ADJOINT_STRESS -> out.add(new HaloPoint(p.name(), s));
                case NODE_GRADIENT -> { // a shear node at a tile's corner belongs to the diagonal cell too
                    out.add(new HaloPoint(p.name(), List.copyOf(bv), true));
                    out.add(new HaloPoint(p.name(), mod, true));
                }
                default -> throw new AssertionError(p);
            }
        }
        return out;
    }

    /**
     * h + 1 with h = order/2: parameters at nodes between cells, also on the halo's nodes, which a transposed
     * sub-step reads across the cut.
     */
    @Override
    public int modelMargin(int order) {
        return FdWeights.halfWidth(order) + 1;
    }

    @Override
    public EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo) {
        return new ElasticSolver(spec, grid, halo);
    }

    @Override
    public boolean hasDeviceSolver() {
        return true;
    }

    @Override
    public long fieldBytes(Grid g) {
        return ElasticSolver.fieldBytes(g);
    }

    @Override
    public long cpmlBytes(Grid g) {
        return ElasticSolver.cpmlBytes(g);
    }

    @Override
    public long adjointBytes(Grid g, Storage storage) {
        return ElasticSolver.adjointBytes(g, storage);
    }

    @Override
    public long tapeBytes(Grid g, Storage storage, int nt) {
        return ElasticSolver.tapeBytes(g, storage, nt);
    }

    /**
     * The files' arrays, the stacked model and the solver's (vp, vs, rho) and, for a gradient, the copy it maps node
     * gradients with: 4 copies of 3 parameters.
     */
    @Override
    public int modelFloatsPerCell() {
        return 12;
    }

    @Override
    public List<String> defaultInversion() {
        return List.of("vp", "vs");
    }

    /**
     * The largest vs/vp an inversion's update may reach: just below √3/2 ≈ 0.8660, where K = ρ(vp² − 4vs²/3) vanishes.
     */
    public static final double VS_OVER_VP_MAX = 0.865;

    /**
     * vs = 0 on the fluid cells of {@code start}; on the solid cells vs at most {@link #VS_OVER_VP_MAX}·vp (when vs is
     * fixed and vp inverted, vp is raised to vs/{@link #VS_OVER_VP_MAX} instead, within vp's bounds).
     */
    @Override
    public void projectFeasible(float[] o, float[] start, boolean[] inverted, double[] min, double[] max, int cells) {
        for (int i = 0; i < cells; i++) {
            int j = cells + i;
            if (start[j] == 0f) {
                o[j] = 0f;
            } else if (inverted[1]) {
                o[j] = (float) Math.min(o[j], VS_OVER_VP_MAX * o[i]);
            } else if (inverted[0] && o[j] > VS_OVER_VP_MAX * o[i]) {
                o[i] = (float) Math.min(max[0], Math.max(min[0], o[j] / VS_OVER_VP_MAX));
            }
        }
    }

    /**
     * The built-in 2-D model of {@code sweep fwi --equation elastic} (1 km x 3 km, water over layers with vs lenses);
     * its start is the layers without the lenses, smoothed; receivers on the sea floor, where the shear waves are.
     */
    @Override
    public FwiExample fwiExample(double dh) {
        int[] shape = DefaultModels.elastic2dShape(dh);
        float[] mTrue = DefaultModels.elastic2d(dh);
        int water = DefaultModels.waterRows(dh);
        return new FwiExample() {
            @Override
            public String description() {
                return "the built-in elastic model";
            }

            @Override
            public int[] shape() {
                return shape.clone();
            }

            @Override
            public float[] trueModel() {
                return mTrue;
            }

            @Override
            public int waterRows() {
                return water;
            }

            @Override
            public int receiverRow() {
                return water;
            }

            @Override
            public double smoothMetres() {
                return 150;
            }

            @Override
            public double time() {
                return 1.5;
            }

            @Override
            public float[] startModel(double sigmaCells, int keepRows) {
                return DefaultModels.elastic2dStart(dh, sigmaCells);
            }
        };
    }

    /** The velocities (the pressure of a sea-floor receiver adds little to them). */
    @Override
    public List<String> fwiRecord(int ndim) {
        return List.of("vx", "vz");
    }

    /** As the specs made before the contract: the old ordinal's weight, the source type, the fields in order. */
    @Override
    public long fingerprint(long h, String sourceType, List<String> record) {
        long f = h + ORDINAL_WEIGHT;
        f = 31 * f + ElasticSource.parse(sourceType).ordinal();
        for (String r : record) {
            f = 31 * f + ElasticField.valueOf(r.toUpperCase(java.util.Locale.ROOT)).ordinal() + 1;
        }
        return f;
    }

    private static long pow31(int k) {
        long p = 1;
        for (int i = 0; i < k; i++) {
            p *= 31;
        }
        return p;
    }

    /** vp 2500 m/s, vs 1400 m/s, rho 2000 kg/m³ everywhere, parameter-major. */
    @Override
    public float[] benchmarkModel(int cells) {
        float[] m = new float[3 * cells];
        java.util.Arrays.fill(m, 0, cells, 2500f);
        java.util.Arrays.fill(m, cells, 2 * cells, 1400f);
        java.util.Arrays.fill(m, 2 * cells, 3 * cells, 2000f);
        return m;
    }

    /**
     * 80 bytes (2-D), 140 (3-D): the velocity step reads the stresses and the buoyancies and updates the velocities;
     * the stress step reads the velocities and the moduli and updates the stresses (2-D: 9 + 11 floats; 3-D: 15 + 20).
     */
    @Override
    public int bytesPerCellUpdate(int ndim) {
        return ndim == 2 ? 80 : 140;
    }
}
