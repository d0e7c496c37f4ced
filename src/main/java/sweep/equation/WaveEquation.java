package sweep.equation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.HaloPoint;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * A wave equation as the layers above its solver see it: its parameters, wavefield components, what receivers record
 * and sources inject, model checks, the stable time step, halo exchanges, model margin, memory, and the factory of its
 * solver. The propagator facade, domain decomposition, memory estimate, FWI and the command line work from these
 * declarations alone and never ask which equation they run. An implementation has a public no-argument constructor, is
 * listed in {@code META-INF/services/sweep.equation.WaveEquation} and is found by {@link Equations#named}; instances
 * are stateless and compared by {@link #name()}.
 */
public interface WaveEquation {
    /** The name {@code --equation} and the job-file key {@code equation} take: lower case, e.g. "acoustic". */
    String name();

    /** One line: what the equation models and how (printed by {@code sweep equations}). */
    String description();

    /**
     * The model parameters in the order of a parameter-major model array or gradient (each of the model's shape, z
     * first, x fastest); each is a command-line option {@code --name} of a float32 .npy or SEG-Y file.
     */
    List<Parameter> parameters();

    /** The names of {@link #parameters()}, in order. */
    default List<String> parameterNames() {
        return parameters().stream().map(Parameter::name).toList();
    }

    /** The number of {@link #parameters()}. */
    default int parameterCount() {
        return parameters().size();
    }

    /**
     * This equation as it runs {@code ndim}-D models ({@code ndim} one of {@link #dimensions()}): itself (the default)
     * unless its parameters depend on the dimension, as {@code acoustic-tti}'s 3-D models add the azimuth phi. A
     * {@link PropSpec} holds its shape's equation, so every layer after the spec sees the parameters of its model;
     * the code that reads model files before a spec exists asks for it once it knows the model's dimension.
     */
    default WaveEquation inDimensions(int ndim) {
        return this;
    }

    /**
     * The parameters of every dimension the equation runs ({@link #inDimensions} of each of {@link #dimensions()}),
     * in the order of the lowest dimension's list, then those the higher ones add, each name once: the command-line
     * options and job-file keys the equation brings.
     */
    default List<Parameter> parametersOfEveryDimension() {
        List<Parameter> all = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int d : dimensions()) {
            for (Parameter p : inDimensions(d).parameters()) {
                if (!names.contains(p.name())) {
                    names.add(p.name());
                    all.add(p);
                }
            }
        }
        return List.copyOf(all);
    }

    /**
     * The dimensions in which this equation has the parameter {@code name} (empty when it has none): for a message
     * that refuses a parameter the model's dimension does not take.
     */
    default List<Integer> dimensionsWithParameter(String name) {
        return dimensions().stream().filter(d -> inDimensions(d).parameterNames().contains(name)).toList();
    }

    /**
     * The space dimensions the equation runs, ascending: 2 and 3 by default; e.g. [2] for an equation of the x-z plane.
     * The methods below that take {@code ndim} are called only with one of these.
     */
    default List<Integer> dimensions() {
        return List.of(2, 3);
    }

    /**
     * Throws IllegalArgumentException, saying which dimensions the equation runs, when {@code ndim} is not one of
     * {@link #dimensions()}; {@link PropSpec} calls it when a spec is built.
     */
    default void checkDimension(int ndim) {
        List<Integer> dims = dimensions();
        if (!dims.contains(ndim)) {
            String runs = String.join(" and ", dims.stream().map(d -> d + "-D").toList());
            throw new IllegalArgumentException("the " + name() + " equation runs " + runs + " models only, got a "
                    + ndim + "-D model: give a " + (dims.contains(2) ? "(nz, nx)" : "(nz, ny, nx)") + " model or"
                    + " choose another equation (installed: " + String.join(", ", Equations.names()) + ")");
        }
    }

    /** The run settings of the equation beside its parameters (default: none). */
    default List<Setting> settings() {
        return List.of();
    }

    /**
     * The canonical form of {@code value} for setting {@code name} (one of {@link #settings()}); throws
     * IllegalArgumentException saying what is allowed otherwise. The default accepts no setting.
     */
    default String checkSetting(String name, String value) {
        throw new IllegalArgumentException("the " + name() + " equation has no setting " + name);
    }

    /**
     * Checks the settings of a run together with the rest of its spec, once each has passed {@link #checkSetting}
     * (e.g. a frequency that the time step cannot carry): throws {@link PropSpec.InvalidSetting} naming the setting
     * otherwise; returns one line for each setting that is allowed but likely not meant, which the command line prints
     * once as a warning. The default accepts every combination and warns of none.
     */
    default List<String> checkSettings(PropSpec spec) {
        return List.of();
    }

    /**
     * The wavefield storages of a gradient the solver supports, the default first (default: boundary saving, then
     * full storage).
     */
    default List<Storage> storages() {
        return List.of(Storage.BOUNDARY_SAVING, Storage.FULL);
    }

    /** The wavefield components the step advances in {@code ndim} dimensions, each one array of the grid. */
    List<String> fields(int ndim);

    /** What a receiver can record in {@code ndim} dimensions, in the spelling of {@code --record}. */
    List<String> recordable(int ndim);

    /** What receivers record when the run does not say (a sub-list of {@link #recordable}). */
    List<String> defaultRecord(int ndim);

    /**
     * The kinds of source ({@code --source-type}) in {@code ndim} dimensions; empty when the equation has one kind of
     * source only (then {@code --source-type} is refused).
     */
    List<String> sourceTypes(int ndim);

    /** The source type of a run that does not say; null when {@link #sourceTypes} is empty. */
    String defaultSourceType(int ndim);

    /**
     * The canonical spelling of source type {@code type} for an {@code ndim}-dimensional run; throws
     * IllegalArgumentException naming the allowed types otherwise. The default matches {@link #sourceTypes} in any
     * case.
     */
    default String checkSourceType(String type, int ndim) {
        List<String> allowed = sourceTypes(ndim);
        if (allowed.isEmpty()) {
            throw new IllegalArgumentException("the " + name() + " equation has one kind of source: leave the source"
                    + " type unset, got '" + type + "'");
        }
        String t = type == null ? "" : type.trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(t)) {
            throw new IllegalArgumentException("unknown " + name() + " source type '" + type + "': use "
                    + String.join(", ", allowed));
        }
        return t;
    }

    /**
     * The recorded fields of {@code list} for an {@code ndim}-dimensional run, canonical and in record order; throws
     * IllegalArgumentException for an empty list, an unknown or repeated field. The default matches
     * {@link #recordable} in any case.
     */
    default List<String> checkRecord(List<String> list, int ndim) {
        List<String> allowed = recordable(ndim);
        if (list == null || list.isEmpty()) {
            throw new IllegalArgumentException("the list of recorded fields is empty: give e.g. "
                    + String.join(",", defaultRecord(ndim)));
        }
        List<String> out = new ArrayList<>();
        for (String f : list) {
            String c = f == null ? "" : f.trim().toLowerCase(Locale.ROOT);
            if (!allowed.contains(c)) {
                throw new IllegalArgumentException("unknown recorded field '" + f + "': the " + name() + " equation"
                        + " records " + String.join(", ", allowed));
            }
            if (out.contains(c)) {
                throw new IllegalArgumentException("recorded field " + c + " is listed twice: list each field once");
            }
            out.add(c);
        }
        return List.copyOf(out);
    }

    /**
     * Throws IllegalArgumentException at the first unusable value of a parameter-major {@code model} (each parameter
     * {@code cells} = product of {@code shape} values): the message names the array ({@code names}, one per parameter,
     * e.g. "--vp: vp.npy"), the value, its position in the global model and the allowed range. {@code origin} is the
     * global position of the array's first cell (null: 0); cells whose global position reaches {@code physical} on some
     * axis (a pad to a mesh) are not checked (null: every cell is).
     */
    void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names);

    /**
     * The velocity the stable time step of a parameter-major {@code model} ({@code cells} values per parameter)
     * depends on; also the velocity of the CPML profile. The default is the largest value of the first parameter
     * (acoustic and elastic: vp).
     */
    default double cflVelocity(float[] model, int cells) {
        double m = 0;
        for (int i = 0; i < cells; i++) {
            m = Math.max(m, model[i]);
        }
        return m;
    }

    /**
     * {@link #cflVelocity(float[], int)} of a run of {@code spec}, whose settings it may depend on (e.g. the fastest
     * velocity of an attenuating medium depends on its fitted solids); the default ignores the spec.
     */
    default double cflVelocity(float[] model, int cells, PropSpec spec) {
        return cflVelocity(model, cells);
    }

    /** The largest stable time step for velocity {@code vmax} on spacings {@code dh} at spatial order {@code order}. */
    double maxStableDt(double vmax, double[] dh, int order);

    /**
     * The CPML auxiliary arrays the solver keeps per axis in {@code ndim} dimensions (for the memory estimate and the
     * documentation of the layout).
     */
    int pmlAuxiliariesPerAxis(int ndim);

    /**
     * The halo exchanges of one run in the order a step meets them: each names the fields its sub-step reads across a
     * tile cut, which one message per neighbour carries.
     */
    List<HaloPoint> haloPoints(int ndim);

    /** The most components one halo exchange of this equation carries ({@link #haloPoints}). */
    default int maxExchangeComponents(int ndim) {
        int m = 0;
        for (HaloPoint p : haloPoints(ndim)) {
            m = Math.max(m, p.fields().size());
        }
        return m;
    }

    /**
     * How many cells of the model beyond a tile's cut faces the tile's solver reads at spatial order {@code order}: 0
     * when a cell's parameters are its own.
     */
    int modelMargin(int order);

    /**
     * Whether the grid may shift its interior so that a row's first interior vector is aligned (pays for kernels that
     * start their vectors there; see {@link Grid}).
     */
    default boolean alignsInteriorRows() {
        return false;
    }

    /**
     * The solver of {@code spec} on one tile {@code grid} whose cut faces {@code halo} fills (null: no neighbours):
     * the Java solver, or the device solver when one is selected and the equation has one.
     */
    EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo);

    /**
     * Whether the solver offers the Born operator ({@link EquationSolver#born}: linearised modelling, and with the
     * gradient as its adjoint, reverse-time migration and least-squares migration). Default false.
     */
    default boolean hasBornOperator() {
        return false;
    }

    /**
     * Throws IllegalArgumentException, naming the equations that have one, when this equation has no Born operator;
     * {@code what} names the job, e.g. "sweep born".
     */
    default void requireBornOperator(String what) {
        if (!hasBornOperator()) {
            List<String> with = Equations.installed().values().stream().filter(WaveEquation::hasBornOperator)
                    .map(WaveEquation::name).toList();
            throw new IllegalArgumentException(what + " needs the Born operator, which the " + name() + " equation does"
                    + " not have yet: use --equation " + String.join(" or ", with));
        }
    }

    /** Whether a device (TornadoVM) solver exists for this equation in a build made with {@code -Ptornado}. */
    boolean hasDeviceSolver();

    /**
     * Bytes of the wavefield arrays (and per-thread scratch of the CPU kernels) a solver of {@code g} holds after its
     * first forward run.
     */
    long fieldBytes(Grid g);

    /** Bytes of the CPML arrays (auxiliaries and profiles) of a solver of {@code g}. */
    long cpmlBytes(Grid g);

    /** Bytes of the adjoint run's own arrays (without the tape) of a solver of {@code g}. */
    long adjointBytes(Grid g, Storage storage);

    /** Bytes of one shot's tape of {@code nt} steps in {@code storage}. */
    long tapeBytes(Grid g, Storage storage, int nt);

    /**
     * How a gradient of {@code nt} steps in {@code storage} on {@code g} keeps its forward run, in words for a run's
     * report (e.g. the checkpoint schedule); null when there is nothing to say beyond the storage's name (default).
     */
    default String storagePlan(Grid g, Storage storage, int nt) {
        return null;
    }

    /**
     * Floats per model cell a run holds for its model: the caller's arrays and the solver's copies (for the memory
     * estimate).
     */
    int modelFloatsPerCell();

    /**
     * A homogeneous model of {@code cells} cells for {@code sweep bench}, parameter-major: typical values of a rock.
     * The default takes each parameter's mid-range of its FWI bounds.
     */
    default float[] benchmarkModel(int cells) {
        float[] m = new float[parameterCount() * cells];
        for (int k = 0; k < parameterCount(); k++) {
            Parameter q = parameters().get(k);
            java.util.Arrays.fill(m, k * cells, (k + 1) * cells, (float) (0.5 * (q.fwiMin() + q.fwiMax())));
        }
        return m;
    }

    /**
     * The least memory traffic of one cell update in {@code ndim} dimensions, in bytes (fields read and written,
     * parameters read): the bandwidth bound of {@code sweep bench}. The default counts every field read and written
     * once and the model once per step.
     */
    default int bytesPerCellUpdate(int ndim) {
        return 4 * (2 * fields(ndim).size() + modelFloatsPerCell());
    }

    /**
     * The parameters an inversion updates when the job does not say (a sub-list of {@link #parameterNames()}).
     */
    List<String> defaultInversion();

    /**
     * Makes an inversion's trial model feasible for the equation, in place, after each inverted parameter was clipped
     * to its bounds and each fixed one reset (elastic: vs = 0 on the fluid cells of {@code start}, vs below
     * vp·√3/2). {@code inverted[k]}, {@code min[k]}, {@code max[k]} are per parameter; the model holds {@code cells}
     * values per parameter. The default changes nothing.
     */
    default void projectFeasible(float[] model, float[] start, boolean[] inverted, double[] min, double[] max,
                                 int cells) {
    }

    /** The fields an inversion's receivers record when the job does not say (default {@link #defaultRecord}). */
    default List<String> fwiRecord(int ndim) {
        return defaultRecord(ndim);
    }

    /**
     * The built-in example model of an inversion at spacing {@code dh} (2-D), used when a job names no model file;
     * null when the equation has none.
     */
    default FwiExample fwiExample(double dh) {
        return null;
    }

    /**
     * Mixes this equation and its run settings into {@code h}, a hash of a spec's other settings (see
     * {@link PropSpec#fingerprint()}): the default mixes the name, the source type and the recorded fields.
     */
    default long fingerprint(long h, String sourceType, List<String> record) {
        long f = 31 * h + name().hashCode();
        f = 31 * f + (sourceType == null ? 0 : sourceType.hashCode());
        return 31 * f + (record == null ? 0 : record.hashCode());
    }
}
