package sweep.prop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import sweep.equation.Equations;
import sweep.equation.Setting;
import sweep.equation.WaveEquation;

/**
 * The global problem a propagator solves (SWEEP's {@code PropTorch} arguments), for any equation: the
 * {@link WaveEquation} with its source type and recorded fields, physical shape {@code (nz, nx)} or
 * {@code (nz, ny, nx)} (one of the equation's {@link WaveEquation#dimensions()}), grid spacing per axis, time step,
 * number of steps, absorbing width, spatial order, free surface, PML parameters, storage, thread count and the
 * equation's own settings ({@link WaveEquation#settings()}). Immutable;
 * build it with {@link #builder}, which checks every setting against the equation (its dimensions, source types and
 * fields, and the stable time step when {@code maxVel} is given) and refuses a bad one with an
 * IllegalArgumentException.
 */
public final class PropSpec {
    private final WaveEquation equation;
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
    /** Bytes a checkpointed gradient may hold per shot for its checkpoints and segment tape (0: the least memory). */
    private final long checkpointMemory;
    /** Whether the builder was given the storage (else it is the equation's default, and toBuilder leaves it open). */
    private final boolean storageGiven;
    /** The kind of every source (null: the equation has one kind), and the fields receivers record, in order. */
    private final String sourceType;
    private final List<String> recordFields;
    /** The equation's settings given, canonical, by name (a setting not given has its default). */
    private final SortedMap<String, String> settings;
    /** The equation's warnings about its settings in this spec ({@link WaveEquation#checkSettings}). */
    private final List<String> settingWarnings;

    private PropSpec(Builder b) {
        this.equation = b.equation == null ? null : b.equation.inDimensions(b.shape.length);
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
        this.checkpointMemory = b.checkpointMemory;
        if (equation == null) {
            throw new IllegalArgumentException("equation must be set, got null: installed are "
                    + String.join(", ", Equations.names()));
        }
        int nd = shape.length;
        if (nd != 2 && nd != 3) {
            throw new IllegalArgumentException("shape must be (nz, nx) or (nz, ny, nx), got " + Arrays.toString(shape));
        }
        equation.checkDimension(nd);
        if (equation.sourceTypes(nd).isEmpty()) {
            if (b.sourceType != null) {
                throw new IllegalArgumentException("the " + equation.name() + " equation has one kind of source:"
                        + " leave the source type unset, or choose another equation (installed: "
                        + String.join(", ", Equations.names()) + ")");
            }
            this.sourceType = null;
        } else {
            this.sourceType = equation.checkSourceType(b.sourceType == null ? equation.defaultSourceType(nd)
                    : b.sourceType, nd);
        }
        this.recordFields = equation.checkRecord(b.recordFields == null ? equation.defaultRecord(nd)
                : b.recordFields, nd);
        List<Storage> storages = equation.storages();
        this.storage = b.storage == null ? storages.get(0) : b.storage;
        this.storageGiven = b.storage != null;
        if (!storages.contains(storage)) {
            throw new InvalidSetting("storage", storage + " is not supported by the " + equation.name()
                    + " equation: use " + String.join(" or ", storages.stream().map(Storage::name).toList()));
        }
        this.settings = new TreeMap<>();
        for (Map.Entry<String, String> e : b.settings.entrySet()) {
            if (equation.settings().stream().noneMatch(s -> s.name().equals(e.getKey()))) {
                throw new IllegalArgumentException("the " + equation.name() + " equation has no setting " + e.getKey()
                        + (equation.settings().isEmpty() ? "" : ": its settings are " + String.join(", ",
                        equation.settings().stream().map(Setting::name).toList())));
            }
            settings.put(e.getKey(), equation.checkSetting(e.getKey(), e.getValue()));
        }
        for (Setting s : equation.settings()) {
            if (s.defaultValue() == null && !settings.containsKey(s.name())) {
                throw new IllegalArgumentException("the " + equation.name() + " equation needs the setting "
                        + s.name() + " (" + s.description() + ")");
            }
        }
        validate();
        this.settingWarnings = List.copyOf(equation.checkSettings(this));
    }

    private static double[] filled(double v, int n) {
        double[] a = new double[n];
        Arrays.fill(a, v);
        return a;
    }

    private void validate() {
        for (int n : shape) {
            if (n < 1) {
                throw new IllegalArgumentException("every dimension of shape must be >= 1, got "
                        + Arrays.toString(shape));
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
        if (checkEvery < 1) {
            throw new IllegalArgumentException("checkEvery must be >= 1, got " + checkEvery);
        }
        if (checkpointMemory < 0) {
            throw new InvalidSetting("checkpointMemory", "(bytes of checkpoints per shot) must be >= 0 (0 = the least"
                    + " that re-runs each step once), got " + checkpointMemory);
        }
        if (checkpointMemory > 0 && storage != Storage.CHECKPOINTING) {
            throw new InvalidSetting("checkpointMemory", "is the memory of CHECKPOINTING storage, and this run's"
                    + " storage is " + storage + ": choose CHECKPOINTING or leave the budget out");
        }
        if (checkpointMemory > 0 && !(equation instanceof sweep.equation.StepEquation)) {
            throw new InvalidSetting("checkpointMemory", "is a budget of the equation skeleton's checkpointing, which"
                    + " the " + equation.name() + " equation's own solver does not take (it chooses its interval by"
                    + " the square-root rule): leave it out");
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

        /** A refused setting: the builder's name of it (or an equation setting's name) and the reason. */
        public InvalidSetting(String setting, String reason) {
            super(setting + " " + reason);
            this.setting = setting;
            this.reason = reason;
        }

        /**
         * The builder's name of the setting: dh, dt, nt, abcn, order, pmlFreq, pmlReflection, maxVel, threads,
         * checkpointMemory, or the name of an equation's setting (e.g. q_band).
         */
        public String setting() {
            return setting;
        }

        /** What is wrong with it and what to do, without its name. */
        public String reason() {
            return reason;
        }
    }

    /**
     * Largest stable time step for velocity {@code vmax} (see {@link WaveEquation#cflVelocity}) on this grid and order,
     * as the equation's scheme gives it.
     */
    public double maxStableDt(double vmax) {
        return equation.maxStableDt(vmax, dh, order);
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

    /** The wave equation of the run. */
    public WaveEquation equation() {
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
     * Velocity for the CPML profile and the CFL check at construction; 0 = the equation's
     * {@link WaveEquation#cflVelocity} of the model given to each call. Gradients treat the CPML profile as a constant:
     * fix maxVel when comparing against finite differences of the misfit, and in domain decomposition (every tile must
     * use the same profile).
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
     * Bytes a checkpointed gradient ({@link Storage#CHECKPOINTING}) of an equation on the {@code sweep.equation}
     * skeleton may hold per shot for its checkpoints and one segment's tape, for the largest tile; 0 (default): the
     * least memory that re-runs each step once. Results do not depend on it.
     */
    public long checkpointMemory() {
        return checkpointMemory;
    }

    /** The equation's warnings about the settings of this spec, one line each (none: empty). */
    public List<String> settingWarnings() {
        return settingWarnings;
    }

    /**
     * The value of the equation's setting {@code name}: the one given, canonical, or the setting's default; throws
     * IllegalArgumentException for a name the equation does not have.
     */
    public String setting(String name) {
        String v = settings.get(name);
        if (v != null) {
            return v;
        }
        for (Setting s : equation.settings()) {
            if (s.name().equals(name)) {
                return s.defaultValue();
            }
        }
        throw new IllegalArgumentException("the " + equation.name() + " equation has no setting " + name);
    }

    /**
     * The kind of every source of a run, in the equation's spelling (e.g. elastic "explosive"); null when the equation
     * has one kind of source ({@link WaveEquation#sourceTypes} empty).
     */
    public String sourceType() {
        return sourceType;
    }

    /** The fields each receiver records, in record order (default {@link WaveEquation#defaultRecord}). */
    public List<String> recordFields() {
        return recordFields;
    }

    /** The number of fields a record holds per receiver ({@link #recordFields()}): the record's last axis. */
    public int nfield() {
        return recordFields().size();
    }

    /**
     * Per-side absorbing widths of the whole (undecomposed) problem, SWEEP order [z_lo, z_hi, (y_lo, y_hi,) x_lo,
     * x_hi].
     */
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
        long h = 0;
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
        h = 31 * h + settings.hashCode();
        return equation.fingerprint(h, sourceType, recordFields);
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
        b.checkpointMemory = checkpointMemory;
        b.storage = storageGiven ? storage : null;
        b.sourceType = sourceType;
        b.recordFields = recordFields;
        b.settings.putAll(settings);
        return b;
    }

    /** Mutable builder of a {@link PropSpec}; {@link #build()} validates everything. */
    public static final class Builder {
        private WaveEquation equation;
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
        private long checkpointMemory;
        private Storage storage;
        private String sourceType;
        private List<String> recordFields;
        private final Map<String, String> settings = new TreeMap<>();

        private Builder(int[] shape) {
            this.shape = shape.clone();
        }

        /** The wave equation (default: the installed equation named "acoustic"). */
        public Builder equation(WaveEquation e) {
            this.equation = e;
            return this;
        }

        /** The installed wave equation of that name ({@link Equations#named}). */
        public Builder equation(String name) {
            return equation(Equations.named(name));
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

        /** Bytes of checkpoints per shot of a checkpointed gradient ({@link PropSpec#checkpointMemory()}). */
        public Builder checkpointMemory(long bytes) {
            this.checkpointMemory = bytes;
            return this;
        }

        /**
         * Wavefield memory strategy for gradients (default: the equation's first {@link WaveEquation#storages()},
         * BOUNDARY_SAVING for the built-in equations but visco-acoustic).
         */
        public Builder storage(Storage s) {
            this.storage = s;
            return this;
        }

        /** The kind of every source, one of the equation's {@link WaveEquation#sourceTypes} (default its own). */
        public Builder sourceType(String type) {
            this.sourceType = type;
            return this;
        }

        /** The recorded fields, in record order (default {@link WaveEquation#defaultRecord}). */
        public Builder recordFields(List<String> fields) {
            this.recordFields = fields == null ? null : new ArrayList<>(fields);
            return this;
        }

        /** The recorded fields as {@code --record} spells them, e.g. "p,vx,vz". */
        public Builder recordFields(String list) {
            return recordFields(list == null ? null : Arrays.stream(list.split(",", -1)).map(String::trim).toList());
        }

        /**
         * Sets the equation's setting {@code name} (one of {@link WaveEquation#settings()}; null removes it); checked
         * by {@link #build()}.
         */
        public Builder setting(String name, String value) {
            if (value == null) {
                settings.remove(name);
            } else {
                settings.put(name, value);
            }
            return this;
        }

        /**
         * Sets each setting of the equation (as set when this is called) that has no default, is derived from the
         * wavelet's peak frequency ({@link Setting#fromPeakFrequency()}) and was not given, to {@code hz}.
         */
        public Builder settingsFromPeakFrequency(double hz) {
            WaveEquation eq = equation == null ? Equations.named("acoustic") : equation;
            for (Setting s : eq.settings()) {
                if (s.defaultValue() == null && s.fromPeakFrequency() && !settings.containsKey(s.name())) {
                    settings.put(s.name(), Double.toString(hz));
                }
            }
            return this;
        }

        public PropSpec build() {
            if (equation == null) {
                equation = Equations.named("acoustic");
            }
            return new PropSpec(this);
        }
    }
}
