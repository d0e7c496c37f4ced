package sweep.prop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The global problem a propagator solves (SWEEP's {@code PropTorch} arguments): equation, physical shape
 * {@code (nz, nx)} or {@code (nz, ny, nx)}, grid spacing per axis, time step, number of steps, absorbing width,
 * spatial order, free surface, PML parameters and thread count. Immutable; build it with {@link #builder}.
 */
public final class PropSpec {
    /**
     * The wave equations the propagator knows, each declaring what the layers above its solver need to know of it:
     * its model parameters (the parameter-major layout of models and gradients), its wavefield components, what its
     * receivers can record, its CPML auxiliaries, the halo exchanges of its step (which fields each sub-step reads
     * across a tile cut) and how far past a tile's cut faces its solver reads the model. {@link Propagator},
     * {@code ModelParallel}, {@code HaloExchange} and the memory estimate work from these declarations.
     */
    public enum Equation {
        /** Constant-density acoustic pressure, second order in time. */
        ACOUSTIC(List.of("vp"), 0),
        /**
         * Isotropic elastic velocity–stress system on a staggered grid (parameters vp, vs, rho); solved by
         * {@link ElasticPropagator}, see docs/elastic.md.
         */
        ELASTIC(List.of("vp", "vs", "rho"), 1);

        private final List<String> parameters;
        private final int marginBeyondHalo;

        Equation(List<String> parameters, int marginBeyondHalo) {
            this.parameters = parameters;
            this.marginBeyondHalo = marginBeyondHalo;
        }

        /**
         * The model parameters in the order of a parameter-major model array or gradient (each of the model's shape,
         * z first, x fastest): acoustic {@code [vp]}, elastic {@code [vp, vs, rho]}.
         */
        public List<String> parameters() {
            return parameters;
        }

        /** The number of {@link #parameters()}. */
        public int parameterCount() {
            return parameters.size();
        }

        /**
         * The wavefield components the step advances, each one array of the grid: acoustic {@code [p]} (two time
         * levels of it), elastic the velocities then the stresses ({@code [vx, vz, sxx, szz, sxz]} in 2-D,
         * {@code [vx, vy, vz, sxx, syy, szz, sxy, sxz, syz]} in 3-D).
         */
        public List<String> fields(int ndim) {
            if (this == ACOUSTIC) {
                return List.of("p");
            }
            return ndim == 2 ? List.of("vx", "vz", "sxx", "szz", "sxz")
                    : List.of("vx", "vy", "vz", "sxx", "syy", "szz", "sxy", "sxz", "syz");
        }

        /** What a receiver can record, in the spelling of {@code --record}: acoustic p; elastic p, vx, vz (3-D vy). */
        public List<String> recordable(int ndim) {
            if (this == ACOUSTIC) {
                return List.of("p");
            }
            return ndim == 2 ? List.of("p", "vx", "vz") : List.of("p", "vx", "vy", "vz");
        }

        /**
         * The CPML auxiliary arrays per axis: acoustic psi and zeta on the whole grid (second-order form); elastic one
         * memory variable per derivative of the step along that axis (4 in 2-D, 6 in 3-D), on that axis's band cells
         * only (first-order form).
         */
        public int pmlAuxiliariesPerAxis(int ndim) {
            return this == ACOUSTIC ? 2 : sweep.kernels.ElasticLayout.psiPerAxis(ndim);
        }

        /**
         * The halo exchanges of one run, in the order a step meets them: each names the fields its sub-step reads
         * across a tile cut, which one message per neighbour carries. Acoustic: the new pressure level after each
         * forward step, the scaled adjoint field and the rebuilt level per adjoint step. Elastic: the points of
         * {@link ElasticHalo.Point}.
         */
        public List<HaloPoint> haloPoints(int ndim) {
            if (this == ACOUSTIC) {
                return List.of(new HaloPoint("FORWARD", List.of("p")), new HaloPoint("ADJOINT", List.of("p_adjoint")),
                        new HaloPoint("REBUILT", List.of("p")));
            }
            List<String> f = fields(ndim);
            int nv = ndim;
            List<String> v = f.subList(0, nv);
            List<String> s = f.subList(nv, f.size());
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

        /** The most components one halo exchange of this equation carries ({@link #haloPoints}). */
        public int maxExchangeComponents(int ndim) {
            int m = 0;
            for (HaloPoint p : haloPoints(ndim)) {
                m = Math.max(m, p.fields().size());
            }
            return m;
        }

        /**
         * How many cells of the model beyond a tile's cut faces the tile's solver reads: acoustic 0 (a cell's
         * parameter is its own); elastic h + 1 with h = order/2 (parameters at nodes between cells, also on the
         * halo's nodes, which a transposed sub-step reads across the cut).
         */
        public int modelMargin(int order) {
            return marginBeyondHalo == 0 ? 0 : sweep.core.FdWeights.halfWidth(order) + marginBeyondHalo;
        }
    }

    private final Equation equation;
    private final int[] shape;
    private final double[] dh;
    private final double dt;
    private final int nt;
    private final int abcn;
    private final int order;
    private final boolean freeSurface;
    private final double pmlFreq;
    private final double pmlReflection;
    private final double maxVel;
    private final int threads;
    private final int checkEvery;
    private final Storage storage;
    /** Elastic only (null for acoustic): the kind of every source, and the fields receivers record, in order. */
    private final ElasticSource sourceType;
    private final List<ElasticField> recordFields;

    private PropSpec(Builder b) {
        this.equation = b.equation;
        this.shape = b.shape.clone();
        this.dh = b.dh.length == 1 ? filled(b.dh[0], shape.length) : b.dh.clone();
        this.dt = b.dt;
        this.nt = b.nt;
        this.abcn = b.abcn;
        this.order = b.order;
        this.freeSurface = b.freeSurface;
        this.pmlFreq = b.pmlFreq;
        this.pmlReflection = b.pmlReflection;
        this.maxVel = b.maxVel;
        this.threads = b.threads;
        this.checkEvery = b.checkEvery;
        this.storage = b.storage;
        if (equation == Equation.ELASTIC) {
            this.sourceType = b.sourceType == null ? ElasticSource.EXPLOSIVE : b.sourceType;
            this.recordFields = b.recordFields == null ? defaultRecordFields(shape.length)
                    : java.util.Collections.unmodifiableList(new ArrayList<>(b.recordFields));
        } else {
            this.sourceType = null;
            this.recordFields = null;
            if (b.sourceType != null || b.recordFields != null) {
                throw new IllegalArgumentException("sourceType and recordFields are settings of the ELASTIC equation;"
                        + " this spec is " + equation + ": set equation(Equation.ELASTIC) or leave them unset");
            }
        }
        validate();
    }

    private static double[] filled(double v, int n) {
        double[] a = new double[n];
        Arrays.fill(a, v);
        return a;
    }

    private void validate() {
        if (equation == null) {
            throw new IllegalArgumentException("equation must be ACOUSTIC or ELASTIC, got null");
        }
        if (shape.length != 2 && shape.length != 3) {
            throw new IllegalArgumentException("shape must be (nz, nx) or (nz, ny, nx), got " + Arrays.toString(shape));
        }
        for (int n : shape) {
            if (n < 1) {
                throw new IllegalArgumentException("every dimension of shape must be >= 1, got " + Arrays.toString(shape));
            }
        }
        if (dh.length != shape.length) {
            throw new InvalidSetting("dh", "must be one value or one per axis (" + shape.length + "), got "
                    + dh.length + " values");
        }
        for (double d : dh) {
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new InvalidSetting("dh", "must be positive and finite, got " + Arrays.toString(dh)
                        + " (the grid spacing in m)");
            }
        }
        if (!(dt > 0) || Double.isInfinite(dt)) {
            throw new InvalidSetting("dt", "must be positive and finite, got " + dt);
        }
        if (nt < 1) {
            throw new InvalidSetting("nt", "must be >= 1, got " + nt);
        }
        if (abcn < 0) {
            throw new InvalidSetting("abcn", "(absorbing width in cells) must be >= 0, got " + abcn);
        }
        if (!sweep.core.FdWeights.isOrder(order)) {
            throw new InvalidSetting("order", "(spatial order) must be even and in 2..16, got " + order
                    + ": use 2, 4, 6, 8 (default), 10, 12, 14 or 16");
        }
        if (abcn > 0 && !(pmlFreq > 0 && pmlFreq < Double.POSITIVE_INFINITY)) {
            throw new InvalidSetting("pmlFreq", "(CPML frequency in Hz) must be positive and finite, got " + pmlFreq);
        }
        if (!(pmlReflection > 0 && pmlReflection < 1)) {
            throw new InvalidSetting("pmlReflection", "must be in (0, 1), got " + pmlReflection);
        }
        if (!(maxVel >= 0) || Double.isInfinite(maxVel)) {
            throw new InvalidSetting("maxVel", "(CPML profile velocity in m/s) must be positive and finite, or 0 for"
                    + " the model's maximum; got " + maxVel);
        }
        if (threads < 0) {
            throw new InvalidSetting("threads", "must be >= 0 (0 = all cores), got " + threads);
        }
        if (storage == null) {
            throw new IllegalArgumentException("storage must be FULL or BOUNDARY_SAVING, got null");
        }
        if (checkEvery < 1) {
            throw new IllegalArgumentException("checkEvery must be >= 1, got " + checkEvery);
        }
        if (equation == Equation.ELASTIC) {
            if (sourceType == ElasticSource.FY && shape.length != 3) {
                throw new IllegalArgumentException("source type fy needs a 3-D model; this one is 2-D: use explosive,"
                        + " fx or fz");
            }
            ElasticField.check(recordFields, shape.length);
        }
        if (maxVel > 0) {
            checkCfl(maxVel);
        }
    }

    /**
     * {@code v} to six significant digits, rounded towards zero: a limit printed this way can be given back as it is
     * (rounded to nearest, the printed largest stable dt could lie just above the limit and be refused).
     */
    public static String roundedDown(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(6, java.math.RoundingMode.DOWN))
                .stripTrailingZeros().toPlainString();
    }

    /**
     * A setting of the spec out of its range: {@link #setting()} names it as the builder does (e.g. "pmlFreq"), so
     * that a caller can name it in its own words (a command-line option, a job-file key); {@link #reason()} is the
     * rest of the message.
     */
    public static final class InvalidSetting extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String setting;
        private final String reason;

        InvalidSetting(String setting, String reason) {
            super(setting + " " + reason);
            this.setting = setting;
            this.reason = reason;
        }

        /** The builder's name of the setting: dh, dt, nt, abcn, order, pmlFreq, pmlReflection, maxVel, threads. */
        public String setting() {
            return setting;
        }

        /** What is wrong with it and what to do, without its name. */
        public String reason() {
            return reason;
        }
    }

    /** The elastic default of {@link #recordFields()}: every field, p, vx, (vy,) vz. */
    private static List<ElasticField> defaultRecordFields(int ndim) {
        return ndim == 2 ? List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ)
                : List.of(ElasticField.P, ElasticField.VX, ElasticField.VY, ElasticField.VZ);
    }

    /**
     * Largest stable time step of the leapfrog for velocity {@code vmax} (the largest vp) on this grid and order. Elastic:
     * dt ≤ 1/(vmax·Σ|c_k|·√(Σ_a 1/dh_a²)) with c_k the staggered weights, i.e. dh/(vmax·√ndim·Σ|c_k|) for equal spacing.
     */
    public double maxStableDt(double vmax) {
        if (equation == Equation.ELASTIC) {
            double s = 0;
            for (double d : dh) {
                s += 1.0 / (d * d);
            }
            return 1.0 / (vmax * sweep.core.FdWeights.staggeredAbsSum(order) * Math.sqrt(s));
        }
        double mu = sweep.core.FdWeights.secondDerivativeSymbolMax(order);
        double s = 0;
        for (double d : dh) {
            s += mu / (d * d);
        }
        return 2.0 / (vmax * Math.sqrt(s));
    }

    /** Throws when dt is above the stability limit for {@code vmax}; the message gives the largest stable dt. */
    public void checkCfl(double vmax) {
        double limit = maxStableDt(vmax);
        if (dt > limit) {
            throw new InvalidSetting("dt", String.format(Locale.ROOT, "%g s violates the CFL condition for max velocity"
                    + " %g m/s, dh=%s, order %d: the largest stable dt is %s s; lower dt (and raise nt) or coarsen the"
                    + " grid", dt, vmax, Arrays.toString(dh), order, roundedDown(limit)));
        }
    }

    public Equation equation() {
        return equation;
    }

    /** Number of space dimensions (2 or 3). */
    public int ndim() {
        return shape.length;
    }

    /** Physical shape, z first: {@code (nz, nx)} or {@code (nz, ny, nx)}. */
    public int[] shape() {
        return shape.clone();
    }

    /** Grid spacing per axis, in the order of {@link #shape()}. */
    public double[] dh() {
        return dh.clone();
    }

    public double dt() {
        return dt;
    }

    public int nt() {
        return nt;
    }

    /** Absorbing (CPML) width in cells on every side but a free-surface top. */
    public int abcn() {
        return abcn;
    }

    public int order() {
        return order;
    }

    public boolean freeSurface() {
        return freeSurface;
    }

    /** CPML frequency (Hz) that sets the alpha profile. */
    public double pmlFreq() {
        return pmlFreq;
    }

    /** Target CPML reflection coefficient that sets the damping profile. */
    public double pmlReflection() {
        return pmlReflection;
    }

    /**
     * Velocity for the CPML profile and the CFL check at construction; 0 = the maximum of the model given to each
     * forward call. Gradients treat the CPML profile as a constant: fix maxVel when comparing against finite
     * differences of the misfit, and in domain decomposition (every tile must use the same profile).
     */
    public double maxVel() {
        return maxVel;
    }

    /** Threads of the Java backend; 0 = all cores. */
    public int threads() {
        return threads;
    }

    /** Steps between checks of the wavefield for NaN/Inf. */
    public int checkEvery() {
        return checkEvery;
    }

    /** What a gradient-capable forward run keeps for the adjoint run. */
    public Storage storage() {
        return storage;
    }

    /**
     * Elastic: the kind of every source of a run through {@link Propagator} or {@code ModelParallel} (default
     * {@link ElasticSource#EXPLOSIVE}); null for acoustic (a pressure source).
     */
    public ElasticSource sourceType() {
        return sourceType;
    }

    /**
     * Elastic: the fields each receiver records, in record order (default p, vx, (vy,) vz); acoustic: [p], the
     * pressure.
     */
    public List<ElasticField> recordFields() {
        return recordFields == null ? List.of(ElasticField.P) : recordFields;
    }

    /** The number of fields a record holds per receiver ({@link #recordFields()}): the record's last axis. */
    public int nfield() {
        return recordFields().size();
    }

    /** Per-side absorbing widths of the whole (undecomposed) problem, SWEEP order [z_lo, z_hi, (y_lo, y_hi,) x_lo, x_hi]. */
    public int[] globalPmlWidths() {
        int[] w = new int[2 * ndim()];
        Arrays.fill(w, abcn);
        if (freeSurface) {
            w[0] = 0;
        }
        return w;
    }

    /**
     * A hash of every field that decides the numerical result (not the thread count or check interval), for checking
     * that the ranks of a decomposed run were given the same problem.
     */
    public long fingerprint() {
        long h = equation.ordinal();
        h = 31 * h + Arrays.hashCode(shape);
        h = 31 * h + Arrays.hashCode(dh);
        h = 31 * h + Double.hashCode(dt);
        h = 31 * h + nt;
        h = 31 * h + abcn;
        h = 31 * h + order;
        h = 31 * h + (freeSurface ? 1 : 0);
        h = 31 * h + Double.hashCode(pmlFreq);
        h = 31 * h + Double.hashCode(pmlReflection);
        h = 31 * h + Double.hashCode(maxVel);
        h = 31 * h + storage.ordinal();
        if (equation == Equation.ELASTIC) { // the acoustic fingerprint stays as it was (FWI checkpoints use it)
            h = 31 * h + sourceType.ordinal();
            for (ElasticField f : recordFields) {
                h = 31 * h + f.ordinal() + 1;
            }
        }
        return h;
    }

    /** A builder starting from the given physical shape, z first. */
    public static Builder builder(int... shape) {
        return new Builder(shape);
    }

    /** A builder initialised with this spec's values. */
    public Builder toBuilder() {
        return toBuilder(shape);
    }

    /** The same problem on another physical shape (e.g. the model padded to a mesh). */
    public PropSpec withShape(int... newShape) {
        return toBuilder(newShape).build();
    }

    private Builder toBuilder(int[] newShape) {
        Builder b = new Builder(newShape);
        b.equation = equation;
        b.dh = dh.clone();
        b.dt = dt;
        b.nt = nt;
        b.abcn = abcn;
        b.order = order;
        b.freeSurface = freeSurface;
        b.pmlFreq = pmlFreq;
        b.pmlReflection = pmlReflection;
        b.maxVel = maxVel;
        b.threads = threads;
        b.checkEvery = checkEvery;
        b.storage = storage;
        b.sourceType = equation == Equation.ELASTIC ? sourceType : null;
        b.recordFields = equation == Equation.ELASTIC ? recordFields : null;
        return b;
    }

    /** Mutable builder of a {@link PropSpec}; {@link #build()} validates everything. */
    public static final class Builder {
        private Equation equation = Equation.ACOUSTIC;
        private final int[] shape;
        private double[] dh = {Double.NaN};
        private double dt = Double.NaN;
        private int nt = 0;
        private int abcn = 20;
        private int order = 8;
        private boolean freeSurface;
        private double pmlFreq = 25.0;
        private double pmlReflection = 1e-3;
        private double maxVel = 0;
        private int threads = 0;
        private int checkEvery = 100;
        private Storage storage = Storage.BOUNDARY_SAVING;
        private ElasticSource sourceType;
        private List<ElasticField> recordFields;

        private Builder(int[] shape) {
            this.shape = shape.clone();
        }

        public Builder equation(Equation e) {
            this.equation = e;
            return this;
        }

        /** Grid spacing: one value for all axes, or one per axis in shape order. */
        public Builder dh(double... dh) {
            this.dh = dh.clone();
            return this;
        }

        public Builder dt(double dt) {
            this.dt = dt;
            return this;
        }

        public Builder nt(int nt) {
            this.nt = nt;
            return this;
        }

        public Builder abcn(int abcn) {
            this.abcn = abcn;
            return this;
        }

        public Builder order(int order) {
            this.order = order;
            return this;
        }

        public Builder freeSurface(boolean fs) {
            this.freeSurface = fs;
            return this;
        }

        public Builder pmlFreq(double f) {
            this.pmlFreq = f;
            return this;
        }

        public Builder pmlReflection(double r) {
            this.pmlReflection = r;
            return this;
        }

        public Builder maxVel(double v) {
            this.maxVel = v;
            return this;
        }

        public Builder threads(int t) {
            this.threads = t;
            return this;
        }

        public Builder checkEvery(int k) {
            this.checkEvery = k;
            return this;
        }

        /** Wavefield memory strategy for gradients (default BOUNDARY_SAVING). */
        public Builder storage(Storage s) {
            this.storage = s;
            return this;
        }

        /** Elastic: the kind of every source (default explosive); not for acoustic specs. */
        public Builder sourceType(ElasticSource type) {
            this.sourceType = type;
            return this;
        }

        /** Elastic: the recorded fields, in record order (default p, vx, (vy,) vz); not for acoustic specs. */
        public Builder recordFields(List<ElasticField> fields) {
            this.recordFields = fields == null ? null : new ArrayList<>(fields);
            return this;
        }

        /** Elastic: the recorded fields as {@code --record} spells them, e.g. "p,vx,vz". */
        public Builder recordFields(String list) {
            return recordFields(ElasticField.parseList(list, shape.length));
        }

        public PropSpec build() {
            return new PropSpec(this);
        }
    }
}
