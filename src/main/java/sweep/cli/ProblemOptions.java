package sweep.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sweep.core.Wavelets;
import sweep.equation.Equations;
import sweep.equation.Parameter;
import sweep.equation.Setting;
import sweep.equation.WaveEquation;
import sweep.io.ModelFiles;
import sweep.io.Npy;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * The options shared by {@code forward} and {@code gradient}: equation, model, grid, time axis, acquisition and
 * wavelet.
 */
public final class ProblemOptions {
    /** The command this mixin belongs to: the parameter options live there ({@link #addParameterOptions}). */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--equation", defaultValue = "acoustic", description = "the wave equation (default acoustic:"
            + " constant density, --vp); 'sweep equations' lists the installed ones with their parameters, recordable"
            + " fields and source types")
    String equation;

    @Option(names = "--source-type", description = "the kind of every source, of the equation's source types"
            + " (e.g. elastic: explosive (default), fx, fz, or in 3-D fy; see 'sweep equations')")
    String sourceType;

    @Option(names = "--record", description = "recorded fields in record order, of the equation's recordable fields"
            + " (default: the equation's default record, e.g. p; see 'sweep equations')")
    String record;

    @Option(names = "--dh", required = true, split = ",",
            description = "grid spacing in m: one value, or one per axis in model order (z,[y,]x)")
    double[] dh;

    @Option(names = "--dt", required = true, description = "time step in s")
    double dt;

    @Option(names = "--nt", required = true, description = "number of time steps")
    int nt;

    @Option(names = "--order", defaultValue = "8", description = "even spatial order 2..16 (default ${DEFAULT-VALUE})")
    int order;

    @Option(names = "--abcn", defaultValue = "20", description = "CPML width in cells (default ${DEFAULT-VALUE})")
    int abcn;

    @Option(names = "--free-surface", description = "free surface (image method) on the top face")
    boolean freeSurface;

    @Option(names = "--pml-freq", defaultValue = "25", description = "CPML frequency in Hz (default ${DEFAULT-VALUE})")
    double pmlFreq;

    @Option(names = "--max-vel", defaultValue = "0",
            description = "velocity for the CPML profile, m/s (default: the model's maximum)")
    double maxVel;

    @Option(names = "--sources", required = true,
            description = "source cells .npy, int32/int64 (B, nsrc, ndim), coordinates (x,z) or (x,y,z)")
    Path sources;

    @Option(names = "--receivers", required = true,
            description = "receiver cells .npy, int32/int64 (B, nrec, ndim), coordinates (x,z) or (x,y,z)")
    Path receivers;

    @ArgGroup(exclusive = true, multiplicity = "1")
    WaveletChoice wavelet;

    /** Exactly one of --ricker and --wavelet. */
    static final class WaveletChoice {
        @Option(names = "--ricker", description = "Ricker wavelet of this peak frequency (Hz)")
        Double ricker;

        @Option(names = "--wavelet", description = "wavelet .npy, float32 (nt,) or (B, nt)")
        Path file;
    }

    @Option(names = "--threads", defaultValue = "0", description = "Java backend threads, 0 = all cores")
    int threads;

    /**
     * The problem read from the files named by the options: the spec is built (and so checked). {@code model} is the
     * parameter-major model (the equation's parameters one after the other), null when the run is decomposed: each rank
     * reads its tile of each of {@code files} then (the parameters' files, in the equation's order).
     */
    record Problem(PropSpec spec, float[] model, List<Path> files, int[] shape, int[][][] sources, int[][][] receivers,
                   float[] wavelet) {
        /** The option of parameter k's file, e.g. --vp. */
        String option(int k) {
            return "--" + spec.equation().parameterNames().get(k);
        }
    }

    /**
     * Adds to every subcommand of {@code cl} that mixes in these options one option {@code --NAME} (a float32 .npy
     * file) per parameter of every installed equation ({@link Equations#installed()}), so that an equation from another
     * jar brings its model options along.
     */
    static void addParameterOptions(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            if (spec.mixins().values().stream().noneMatch(m -> m.userObject() instanceof ProblemOptions)) {
                continue;
            }
            Map<String, List<String>> users = new LinkedHashMap<>();
            Map<String, Parameter> first = new LinkedHashMap<>();
            for (WaveEquation e : Equations.installed().values()) {
                for (Parameter p : e.parametersOfEveryDimension()) {
                    users.computeIfAbsent(p.name(), k -> new ArrayList<>()).add(e.name());
                    first.putIfAbsent(p.name(), p);
                }
            }
            for (Parameter p : first.values()) {
                String name = "--" + p.name();
                if (spec.findOption(name) != null) {
                    continue;
                }
                spec.addOption(OptionSpec.builder(name).type(Path.class).paramLabel("FILE")
                        .description(p.description() + ", " + p.unit() + ": float32 .npy or SEG-Y, (nz,nx) or (nz,ny,nx)"
                                + " (--equation " + String.join(", ", users.get(p.name())) + ")").build());
            }
            Map<String, Setting> settings = new LinkedHashMap<>();
            for (WaveEquation e : Equations.installed().values()) {
                for (Setting st : e.settings()) {
                    users.computeIfAbsent(st.option(), k -> new ArrayList<>()).add(e.name());
                    settings.putIfAbsent(st.option(), st);
                }
            }
            for (Setting st : settings.values()) {
                if (spec.findOption(st.option()) == null) {
                    spec.addOption(OptionSpec.builder(st.option()).type(String.class).paramLabel("VALUE")
                            .description(st.description() + " (--equation " + String.join(", ",
                                    users.get(st.option())) + ")").build());
                }
            }
        }
    }

    /** The value given to the option of an equation setting, or null. */
    private String settingValue(Setting st) {
        OptionSpec o = command.findOption(st.option());
        return o == null ? null : o.getValue();
    }

    /**
     * Puts the equation's settings into {@code b}: those given as options, and each one without a default that the
     * command line derives from the wavelet's peak frequency (--ricker's, or that of shot 0's trace of {@code nt}
     * samples in {@code w}); a setting option of another equation is refused, naming the equations that take it.
     */
    private void addSettings(PropSpec.Builder b, WaveEquation eq, float[] w, int nt) {
        for (WaveEquation other : Equations.installed().values()) {
            for (Setting st : other.settings()) {
                String v = settingValue(st);
                if (v != null && eq.settings().stream().noneMatch(x -> x.name().equals(st.name()))) {
                    List<String> takers = Equations.installed().values().stream()
                            .filter(e -> e.settings().stream().anyMatch(x -> x.name().equals(st.name())))
                            .map(WaveEquation::name).toList();
                    throw new IllegalArgumentException(st.option() + " is an option of --equation " + String.join(
                            " or ", takers) + "; this run is " + eq.name() + ": drop " + st.option());
                }
            }
        }
        boolean derived = false;
        for (Setting st : eq.settings()) {
            String v = settingValue(st);
            if (v != null) {
                try {
                    b.setting(st.name(), eq.checkSetting(st.name(), v));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(st.option() + ": " + e.getMessage());
                }
            } else if (st.defaultValue() == null && st.fromPeakFrequency()) {
                derived = true;
            }
        }
        if (derived) {
            if (wavelet.ricker != null) {
                checkRicker(wavelet.ricker, dt, "--ricker");
            }
            try {
                b.settingsFromPeakFrequency(wavelet.ricker != null ? wavelet.ricker
                        : Wavelets.peakFrequency(w, 0, nt, dt));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--wavelet: " + e.getMessage() + ": give the settings "
                        + String.join(", ", eq.settings().stream().filter(Setting::fromPeakFrequency)
                        .map(Setting::option).toList()));
            }
        }
    }

    /** The file given to parameter option {@code --name}, or null. */
    private Path parameterFile(String name) {
        OptionSpec o = command.findOption("--" + name);
        return o == null ? null : o.getValue();
    }

    /** The parameter files given, by option, in the order of the command's options. */
    private Map<String, Path> givenParameterFiles() {
        Map<String, Path> given = new LinkedHashMap<>();
        for (WaveEquation e : Equations.installed().values()) {
            for (String p : e.parametersOfEveryDimension().stream().map(Parameter::name).toList()) {
                Path f = parameterFile(p);
                if (f != null) {
                    given.putIfAbsent("--" + p, f);
                }
            }
        }
        return given;
    }

    /** The input files by option, for the check that no output overwrites one. */
    Map<String, Path> inputs() {
        Map<String, Path> in = new LinkedHashMap<>(givenParameterFiles());
        in.put("--sources", sources);
        in.put("--receivers", receivers);
        if (wavelet != null && wavelet.file != null) {
            in.put("--wavelet", wavelet.file);
        }
        return in;
    }

    /** The equation of --equation; an unknown name lists the installed ones. */
    WaveEquation waveEquation() {
        try {
            return Equations.named(equation);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--equation: " + e.getMessage());
        }
    }

    /**
     * Reads and checks every input file; errors name the option, the file and what was seen. Before anything big is
     * allocated, the memory of the run is estimated and checked against the heap. When {@code decomposed}, only the
     * model's header is read here: each rank reads and checks its tile, and checks its memory, once its tile is known.
     * {@code gradient} says whether the run is a gradient, {@code storage} its wavefield storage (null: the
     * equation's default).
     */
    Problem load(boolean gradient, Storage storage, boolean decomposed) {
        return load(gradient, storage, 0, decomposed);
    }

    /** As {@link #load(boolean, Storage, boolean)}, with a checkpoint memory budget in bytes (0: the least). */
    Problem load(boolean gradient, Storage storage, long checkpointMemory, boolean decomposed) {
        checkThreads(threads, "--threads");
        WaveEquation named = waveEquation();
        refuseOtherParameters(named, 0); // before any file is read
        String firstOption = "--" + named.parameterNames().get(0);
        Path firstFile = parameterFile(named.parameterNames().get(0));
        if (firstFile == null) {
            parameterFiles(named); // says what is missing
        }
        float[] v = null;
        int[] shape;
        if (decomposed) {
            shape = ModelFiles.shape(firstFile, firstOption);
        } else {
            Npy.Array model = ModelFiles.read(firstFile, firstOption, null);
            shape = model.shape();
            v = model.asFloat32();
        }
        if (shape.length != 2 && shape.length != 3 || Arrays.stream(shape).anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException(firstOption + ": " + firstFile + ": shape " + Arrays.toString(shape)
                    + " must be (nz, nx) or (nz, ny, nx) with at least one cell along each axis");
        }
        int ndim = shape.length;
        try {
            named.checkDimension(ndim);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(firstOption + ": " + firstFile + ": " + e.getMessage());
        }
        // the parameters of the model's dimension (acoustic-tti's 3-D models take the azimuth too)
        WaveEquation eq = named.inDimensions(ndim);
        List<Path> files = parameterFiles(eq, ndim);
        List<String> params = eq.parameterNames();
        for (int k = 1; k < files.size(); k++) {
            sameShape(files.get(k), "--" + params.get(k), shape, firstOption, params);
        }
        for (int k = 0; k < files.size(); k++) {
            ModelFiles.checkSpacing(files.get(k), "--" + params.get(k), dh[0], "--dh");
        }
        int[][][] src = coords(sources, "--sources", ndim);
        int[][][] rec = coords(receivers, "--receivers", ndim);
        checkCells(src, shape, "--sources: " + sources);
        checkCells(rec, shape, "--receivers: " + receivers);
        PropSpec.Builder b = PropSpec.builder(shape).equation(eq).dh(dh).dt(dt).nt(nt).order(order).abcn(abcn)
                .freeSurface(freeSurface).pmlFreq(pmlFreq).maxVel(maxVel).threads(threads)
                .checkpointMemory(checkpointMemory);
        if (gradient && storage != null) {
            b.storage(storage);
        }
        b.sourceType(sourceType(eq, ndim)).recordFields(recordFields(eq, ndim));
        // a wavelet file is read before the memory check only when a setting derives from its peak frequency
        float[] w = wavelet.ricker == null && needsPeakFrequency(eq) ? waveletFile(nt, src.length) : null;
        addSettings(b, eq, w, nt);
        PropSpec spec = b.build();
        spec.settingWarnings().forEach(line -> Main.warnOnce(command.name(), line));
        int shots = src.length;
        int nrec = rec[0].length;
        long waveletFloats = wavelet.ricker != null ? nt : Math.max(nt, (long) shots * nt);
        if (!decomposed) {
            Grid grid = Grid.single(spec);
            MemoryEstimate need = !gradient ? MemoryEstimate.forward(spec, grid, shots, nrec, waveletFloats)
                    : MemoryEstimate.gradient(spec, grid, shots, nrec, waveletFloats);
            need.requireHeap("this run");
        }
        float[] model = decomposed ? null : stackedModel(eq, v, files, shape);
        if (wavelet.ricker != null) {
            checkRicker(wavelet.ricker, dt, "--ricker");
            w = Wavelets.ricker(wavelet.ricker, nt, dt);
        } else if (w == null) {
            w = waveletFile(nt, src.length);
        }
        return new Problem(spec, model, files, shape, src, rec, w);
    }

    /** Whether the equation has a setting the run does not give that derives from the wavelet's peak frequency. */
    private boolean needsPeakFrequency(WaveEquation eq) {
        return eq.settings().stream().anyMatch(st -> st.defaultValue() == null && st.fromPeakFrequency()
                && settingValue(st) == null);
    }

    /** The wavelet file of --wavelet, checked: (nt,) or (shots, nt), finite. */
    private float[] waveletFile(int nt, int shots) {
        Npy.Array wa = Npy.readFloat32(wavelet.file, "--wavelet");
        int[] ws = wa.shape();
        if ((ws.length != 1 && ws.length != 2) || ws[ws.length - 1] != nt || (ws.length == 2 && ws[0] != shots)) {
            throw new IllegalArgumentException("--wavelet: " + wavelet.file + ": shape " + Arrays.toString(ws)
                    + " must be (nt,) or (B, nt) with nt=" + nt + " and B=" + shots);
        }
        float[] w = wa.asFloat32();
        checkFiniteWavelet(w, ws.length == 2 ? nt : 0, "--wavelet: " + wavelet.file);
        return w;
    }

    /**
     * Refuses a NaN or Inf in a wavelet, naming its sample, or its (shot, sample) when the wavelet holds one trace of
     * {@code nt} samples per shot ({@code nt} > 0); {@code what} names the option or key and the file.
     */
    static void checkFiniteWavelet(float[] w, int nt, String what) {
        for (int i = 0; i < w.length; i++) {
            if (!Float.isFinite(w[i])) {
                throw new IllegalArgumentException(what + " holds " + w[i] + " at " + (nt > 0 ? "(shot, sample) = ("
                        + i / nt + ", " + i % nt + ")" : "sample " + i) + ": a wavelet must be finite; fix that"
                        + " sample");
            }
        }
    }

    /**
     * Refuses a Ricker peak frequency that is not positive and finite or that lies at or above the Nyquist frequency
     * 1/(2 dt) of the time step (its samples would alias); {@code what} names the option or key.
     */
    static void checkRicker(double freq, double dt, String what) {
        double nyquist = 0.5 / dt;
        if (!(freq > 0 && freq < nyquist)) {
            throw new IllegalArgumentException(what + ": " + freq + " Hz must be positive and below the Nyquist"
                    + " frequency of dt = " + dt + " s, " + PropSpec.roundedDown(nyquist) + " Hz (and a Ricker wavelet"
                    + " has energy up to about 3 times its peak): lower the frequency or the time step");
        }
    }

    /**
     * The files of the equation's parameters, in its order: each one's option is needed, and a parameter option of
     * another equation is refused (naming the equations that take it).
     */
    private List<Path> parameterFiles(WaveEquation eq) {
        return parameterFiles(eq, 0);
    }

    /**
     * {@link #parameterFiles(WaveEquation)} of an {@code ndim}-D model (0: not known yet): a parameter the equation
     * takes in another dimension only is refused, naming that dimension.
     */
    private List<Path> parameterFiles(WaveEquation eq, int ndim) {
        refuseOtherParameters(eq, ndim);
        List<Path> files = new ArrayList<>();
        for (Parameter p : eq.parameters()) {
            Path f = parameterFile(p.name());
            if (f == null) {
                throw new IllegalArgumentException((eq.parameterCount() == 1 ? "" : "--equation " + eq.name() + " ")
                        + "needs --" + p.name() + " (" + p.description() + ", " + p.unit() + ", float32 .npy or SEG-Y"
                        + (files.isEmpty() ? " (nz, nx) or (nz, ny, nx)" : " of the shape of --"
                        + eq.parameterNames().get(0)) + ")");
            }
            files.add(f);
        }
        return files;
    }

    /**
     * Refuses a parameter option no dimension of {@code eq} takes (naming the equations that take it) and, for an
     * {@code ndim}-D model (0: not known yet), one that {@code eq} takes in another dimension only.
     */
    private void refuseOtherParameters(WaveEquation eq, int ndim) {
        for (Map.Entry<String, Path> g : givenParameterFiles().entrySet()) {
            String name = g.getKey().substring(2);
            List<Integer> in = eq.dimensionsWithParameter(name);
            if (ndim > 0 && !in.isEmpty() && !in.contains(ndim)) {
                throw new IllegalArgumentException(g.getKey() + " is a parameter of --equation " + eq.name() + " in "
                        + String.join(" and ", in.stream().map(d -> d + "-D").toList()) + " models; this model is "
                        + ndim + "-D: drop " + g.getKey());
            }
            if (in.isEmpty()) {
                List<String> takers = Equations.installed().values().stream()
                        .filter(e -> !e.dimensionsWithParameter(name).isEmpty()).map(WaveEquation::name).toList();
                throw new IllegalArgumentException(g.getKey() + " is an option of --equation " + String.join(" or ",
                        takers) + "; this run is " + eq.name()
                                + (command.findOption("--equation").originalStringValues()
                        .isEmpty() ? " (the default)" : "")
                        + ": add --equation " + takers.get(0) + ", or drop " + g.getKey());
            }
        }
    }

    /** The source type of --source-type (null: the equation's default), checked against the model's dimensions. */
    private String sourceType(WaveEquation eq, int ndim) {
        if (sourceType == null) {
            return null;
        }
        if (eq.sourceTypes(ndim).isEmpty()) {
            throw new IllegalArgumentException("--source-type is an option of an equation with several kinds of source"
                    + " (" + String.join(", ", Equations.installed().values().stream()
                    .filter(e -> e.dimensions().contains(ndim) && !e.sourceTypes(ndim).isEmpty())
                    .map(WaveEquation::name).toList()) + "); this run is "
                    + eq.name() + ", which has one: drop --source-type");
        }
        try {
            return eq.checkSourceType(sourceType, ndim);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--source-type: " + e.getMessage());
        }
    }

    /** The recorded fields of --record (null: the equation's default), checked against the equation. */
    private List<String> recordFields(WaveEquation eq, int ndim) {
        if (record == null) {
            return null;
        }
        try {
            return eq.checkRecord(Arrays.stream(record.split(",", -1)).map(String::trim).toList(), ndim);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--record: " + e.getMessage());
        }
    }

    /** Refuses a parameter file whose shape is not the first parameter's (reads its header only). */
    private static void sameShape(Path file, String what, int[] shape, String firstOption, List<String> params) {
        int[] s = ModelFiles.shape(file, what);
        if (!Arrays.equals(s, shape)) {
            throw new IllegalArgumentException(what + ": " + file + ": shape " + Arrays.toString(s) + " differs from"
                    + " " + firstOption + "'s " + Arrays.toString(shape) + ": " + String.join(", ", params)
                    + " must have the same shape, (nz, nx) or (nz, ny, nx)");
        }
    }

    /**
     * The model of a single-domain run, the parameters one after the other ({@code first}: the first one's values,
     * read already), each cell checked by the equation with the file and the cell's position named in the message.
     */
    private float[] stackedModel(WaveEquation eq, float[] first, List<Path> files, int[] shape) {
        if (files.size() == 1) {
            eq.checkModel(first, shape, null, null, names(eq));
            return first;
        }
        int n = first.length;
        float[] m = new float[Math.multiplyExact(files.size(), n)];
        System.arraycopy(first, 0, m, 0, n);
        for (int k = 1; k < files.size(); k++) {
            float[] v = ModelFiles.read(files.get(k), "--" + eq.parameterNames().get(k), shape).asFloat32();
            System.arraycopy(v, 0, m, k * n, n);
        }
        eq.checkModel(m, shape, null, null, names(eq));
        return m;
    }

    /** "--vp: file" etc., one per parameter of {@code eq} (the run's equation), for messages about its cells. */
    String[] names(WaveEquation eq) {
        return eq.parameterNames().stream().map(p -> "--" + p + ": " + parameterFile(p)).toArray(String[]::new);
    }

    /** The most threads per core that {@link #checkThreads} accepts. */
    static final int MAX_THREADS_PER_CORE = 4;

    /**
     * Refuses {@code threads} below 0 or above {@link #MAX_THREADS_PER_CORE} times the cores this process may use (each
     * time step is split among the threads: thousands of them make a step thousands of times slower), and warns on
     * stderr above the cores.
     */
    static void checkThreads(int threads, String flag) {
        int cores = Runtime.getRuntime().availableProcessors();
        if (threads < 0) {
            throw new IllegalArgumentException(flag + " " + threads + " is negative: give the number of threads, or 0"
                    + " for all cores");
        }
        if (threads > MAX_THREADS_PER_CORE * cores) {
            throw new IllegalArgumentException(flag + " " + threads + " is more than " + MAX_THREADS_PER_CORE
                    + " threads for each of the " + cores + " core(s) this process may use: give at most "
                    + MAX_THREADS_PER_CORE * cores + ", or 0 for all cores (under mpirun with ranks bound to cores,"
                    + " add --bind-to none to give each rank more)");
        }
        if (threads > cores) {
            System.err.println("sweep: warning: " + flag + " " + threads + " is more than the " + cores + " core(s)"
                    + " this process may use: the extra threads only compete for them and slow the run down");
        }
    }

    /**
     * Refuses a cell outside the model of {@code shape} (z first; cells are (x, z) or (x, y, z)), on every path: a
     * decomposed run's padded grid is wider than the model, and a cell in its pad would otherwise be accepted.
     * {@code what} names the option and file.
     */
    static void checkCells(int[][][] cells, int[] shape, String what) {
        int nd = shape.length;
        String axes = nd == 2 ? "(x, z)" : "(x, y, z)";
        for (int b = 0; b < cells.length; b++) {
            for (int p = 0; p < cells[b].length; p++) {
                int[] c = cells[b][p];
                for (int k = 0; k < nd; k++) {
                    if (c[k] < 0 || c[k] >= shape[nd - 1 - k]) {
                        String limits = "x < " + shape[nd - 1] + (nd == 3 ? ", y < " + shape[1] : "") + ", z < "
                                + shape[0];
                        throw new IllegalArgumentException(what + ": cell " + p + " of shot " + b + " at " + axes
                                + " = " + Arrays.toString(c).replace('[', '(').replace(']', ')') + " lies outside the"
                                + " model " + Arrays.toString(shape) + " (z first): cells are " + axes + " indices"
                                + " with 0 <= " + limits);
                    }
                }
            }
        }
    }

    /** Reads a (B, n, ndim) integer coordinate file; every shot needs at least one cell. */
    static int[][][] coords(Path path, String what, int ndim) {
        Npy.Array a = Npy.readInts(path, what, new int[] {-1, -1, ndim});
        int[] s = a.shape();
        if (s[0] < 1) {
            throw new IllegalArgumentException(what + ": " + path + " holds no shot (B = 0)");
        }
        if (s[1] < 1) {
            String cell = what.contains("source") ? "source" : "receiver";
            throw new IllegalArgumentException(what + ": " + path + " has shape " + Arrays.toString(s) + ": no " + cell
                    + " in any shot; every shot needs at least one");
        }
        int[] d = a.asInt32();
        int[][][] c = new int[s[0]][s[1]][ndim];
        for (int b = 0; b < s[0]; b++) {
            for (int p = 0; p < s[1]; p++) {
                for (int k = 0; k < ndim; k++) {
                    c[b][p][k] = d[(b * s[1] + p) * ndim + k];
                }
            }
        }
        return c;
    }

    /** The labels of the fields a record of {@code spec} holds per receiver, in record order (acoustic: p). */
    static List<String> fieldLabels(PropSpec spec) {
        return spec.recordFields();
    }

    /**
     * Refuses a record file {@code file} whose shape is not {@code (shots, nt, nrec, fields)} (reads its header only),
     * saying where each figure comes from.
     */
    static void checkRecordShape(Path file, String what, int shots, int nt, int nrec, List<String> fields) {
        int[] s = Npy.headerFloat32(file, what, null).shape();
        int[] want = {shots, nt, nrec, fields.size()};
        if (!Arrays.equals(s, want)) {
            throw new IllegalArgumentException(what + ": " + file + " has shape " + Arrays.toString(s) + "; expected "
                    + Arrays.toString(want) + " = (B, nt, nrec, nfield): B shots of --sources, nt of --nt, nrec"
                    + " receivers per shot of --receivers, nfield the fields " + String.join(",", fields)
                    + (fields.size() > 1 || !fields.get(0).equals("p") ? " of --record" : "") + "; check that the"
                    + " file was modelled with these options");
        }
    }

    /**
     * Throws when the record {@code data} (B, nt, nrec, nfield) read from {@code file} holds NaN or Inf, naming the
     * file and the (shot, sample, receiver) of the first such value, and its field when a receiver records several.
     */
    static void checkFiniteRecord(float[] data, int nt, int nrec, List<String> fields, Path file, String what) {
        int nfield = fields.size();
        for (int i = 0; i < data.length; i++) {
            if (!Float.isFinite(data[i])) {
                long j = i / nfield;
                throw nonFiniteRecord(data[i], j / ((long) nrec * nt), (j / nrec) % nt, j % nrec, fields, i % nfield,
                        file, what);
            }
        }
    }

    /**
     * The error for a NaN or Inf {@code value} at (shot, sample, receiver) and field {@code field} of a record file.
     */
    static IllegalArgumentException nonFiniteRecord(float value, long shot, long sample, long receiver,
                                                    List<String> fields, int field, Path file, String what) {
        return new IllegalArgumentException(what + ": " + file + " holds " + value + " at (shot, sample, receiver) = ("
                + shot + ", " + sample + ", " + receiver + ")" + (fields.size() > 1 ? ", field " + fields.get(field)
                : "") + ": observed data must be finite; fix or remove that trace");
    }
}
