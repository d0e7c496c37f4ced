package sweep.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import sweep.core.Wavelets;
import sweep.fwi.EncodedObjective;
import sweep.fwi.Fwi;
import sweep.fwi.GradientConditioner;
import sweep.fwi.Inversion;
import sweep.fwi.ModelTile;
import sweep.io.InputFiles;
import sweep.io.IoErrors;
import sweep.io.ModelFiles;
import sweep.io.Npy;
import sweep.models.DefaultModels;
import sweep.equation.Equations;
import sweep.equation.FwiExample;
import sweep.equation.Parameter;
import sweep.equation.Setting;
import sweep.equation.WaveEquation;
import sweep.prop.Cells;
import sweep.prop.DataWindow;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * The settings of an FWI job: read from a JSON job file (see {@link #KEYS}), overridden by command-line flags, then
 * resolved into models, acquisition, time axis, bands and mesh. Every error names the job-file key (or flag) and the
 * file it concerns. Absent settings take the built-in demo's values (the {@link DefaultModels#fwi2d} model, six
 * surface shots, a 5 Hz Ricker wavelet, 3 s of data).
 */
final class FwiJob {
    /** The value of key 'wavelet' that asks for the wavelet to be estimated. */
    static final String ESTIMATE = "estimate";
    /** The default share of the largest illumination added before dividing by it (key precondition_epsilon). */
    static final double DEFAULT_PRECONDITION_EPSILON = 0.01;

    /** The job-file keys and what each holds. */
    static final Map<String, String> KEYS = keys();

    private static Map<String, String> keys() {
        Map<String, String> k = new LinkedHashMap<>();
        k.put("equation", "the wave equation: \"acoustic\" (default), \"elastic\" (models vp, vs, rho; see"
                + " docs/elastic.md) or another installed one ('sweep equations')");
        k.put("vp_true", "true model .npy or SEG-Y (float32 (nz,nx) or (nz,ny,nx), m/s), or \"default\" (built-in"
                + " 2-D model)");
        k.put("vp_start", "starting model .npy or SEG-Y (default: vp_true smoothed; required in 3-D and with observed"
                + " data)");
        for (Map.Entry<String, List<WaveEquation>> e : otherParameters().entrySet()) {
            String p = e.getKey();
            String users = String.join(", ", e.getValue().stream().map(WaveEquation::name).toList());
            Parameter q = parameter(e.getValue().get(0), p);
            k.put(p + "_true", users + ": true " + p + " .npy or SEG-Y (" + q.unit() + "), same shape as vp_true");
            k.put(p + "_start", users + ": starting " + p + " .npy or SEG-Y (default: " + p + "_true smoothed; needed"
                    + " with vp_start)");
        }
        k.put("invert", "parameters to invert, of the equation's (default: acoustic [\"vp\"], elastic [\"vp\","
                + " \"vs\"]); the others keep their starting values");
        k.put("source_type", "the kind of every source, of the equation's (elastic: \"explosive\" (default), \"fx\""
                + " or \"fz\")");
        k.put("record", "recorded fields, of the equation's (elastic: any of p, vx, vz, default \"vx,vz\": p would"
                + " dominate the misfit by (rho c)^2)");
        k.put("dh", "grid spacing in m: a number or one per axis (default 20 for the built-in model)");
        k.put("smooth", "smoothing length in m of the default starting model (default 250)");
        k.put("observed", "observed data .npy (B, nt, nrec) or (B, nt, nrec, 1) (default: modelled from vp_true)");
        k.put("sources", "source cells .npy (B, nsrc, ndim), x first (default: a surface line of 'shots' shots)");
        k.put("receivers", "receiver cells .npy (B, nrec, ndim) (default: every second cell along the surface)");
        k.put("shots", "number of surface shots when no 'sources' file is given (default 6)");
        k.put("wavelet", "wavelet .npy (nt,) or (B, nt), or \"estimate\": each band estimates one wavelet for every"
                + " shot at its starting model, from a Ricker wavelet of 'ricker' Hz (default: that Ricker wavelet)");
        k.put("ricker", "Ricker peak frequency in Hz (default 5)");
        k.put("dt", "time step in s (default: 0.8 of the stable limit at vmax)");
        k.put("nt", "number of time steps (or give 'time')");
        k.put("time", "record length in s (default 3)");
        k.put("order", "even spatial order 2..16 (default 8)");
        k.put("abcn", "CPML width in cells (default 20)");
        k.put("free_surface", "free surface on top (default true)");
        k.put("bands", "low-pass corners in Hz, low to high (0 = unfiltered), or objects {cutoff, iterations}"
                + " (default [0]); a band's own iterations win over 'iterations', --iterations over both");
        k.put("iterations", "L-BFGS iterations per band (default 10); the flag --iterations overrides it and the"
                + " bands' own counts");
        k.put("filter_order", "Butterworth order of the band filters (default 4)");
        k.put("supershots", "encoded supershots (0 = off, default); must divide the shot count");
        k.put("seed", "seed of the supershot codes (default 1)");
        k.put("vmin", "lower velocity bound in m/s (default 1400)");
        k.put("vmax", "upper velocity bound in m/s, also the CPML profile velocity (default 4700)");
        k.put("max_update", "largest vp change of a steepest-descent step, m/s (default 100)");
        for (Map.Entry<String, List<WaveEquation>> e : otherParameters().entrySet()) {
            String p = e.getKey();
            String users = String.join(", ", e.getValue().stream().map(WaveEquation::name).toList());
            Parameter q = parameter(e.getValue().get(0), p);
            String unit = q.dimensionless() ? "" : ", " + q.unit();
            k.put(p + "_min", users + ": lower " + p + " bound" + unit + " (default "
                    + defaults(e.getValue(), p, Parameter::fwiMin) + ")");
            k.put(p + "_max", users + ": upper " + p + " bound" + unit + " (default "
                    + defaults(e.getValue(), p, Parameter::fwiMax) + ")");
            k.put("max_update_" + p, users + ": largest " + p + " change of a steepest-descent step" + unit
                    + " (default " + defaults(e.getValue(), p, Parameter::fwiMaxUpdate) + ")");
        }
        Map<String, List<String>> settingUsers = new LinkedHashMap<>();
        Map<String, Setting> settings = new LinkedHashMap<>();
        for (WaveEquation e : Equations.installed().values()) {
            for (Setting st : e.settings()) {
                settingUsers.computeIfAbsent(st.name(), n -> new ArrayList<>()).add(e.name());
                settings.putIfAbsent(st.name(), st);
            }
        }
        for (Setting st : settings.values()) {
            k.put(st.name(), String.join(", ", settingUsers.get(st.name())) + ": " + st.description()
                    + (st.defaultValue() != null ? " (default " + st.defaultValue() + ")"
                    : st.fromPeakFrequency() ? "; a string, number or list (default from 'ricker')" : ""));
        }
        k.put("memory", "L-BFGS memory (default 5)");
        k.put("misfit", "\"l2\", \"ncc\", \"envelope\" or \"awi\"; " + MisfitChoice.HELP);
        k.put("offsets", "[min, max] source-receiver offsets in m whose traces the misfit uses, synthetic and observed"
                + " alike (default: all)");
        k.put("mute_velocity", "m/s: every sample earlier than mute_time + |offset| / mute_velocity is muted in the"
                + " synthetic and observed data and the adjoint source (default: no mute)");
        k.put("mute_time", "s, the time of the mute line at zero offset (default 0)");
        k.put("mute_taper", "s, the half-cosine ramp before the mute line and after the tail mute line (default 0.1)");
        k.put("tail_mute_velocity", "m/s: every sample later than tail_mute_time + |offset| / tail_mute_velocity is"
                + " muted in the synthetic and observed data and the adjoint source, e.g. to keep the early arrivals"
                + " (default: none)");
        k.put("tail_mute_time", "s, the time of the tail mute line at zero offset (default 0)");
        k.put("mute_rows", "top rows whose gradient is zeroed (default: the built-in model's water layer; on a model"
                + " file the top rows at one velocity below 1600 m/s, its water layer; else 0)");
        k.put("precondition", "\"illumination\" (default): each band's gradients divided by the source illumination"
                + " at its starting model (sum over shots and steps of the source wavefield squared, plus"
                + " 'precondition_epsilon' of its maximum); \"none\"");
        k.put("precondition_epsilon", "share of the largest illumination added before dividing (default "
                + plain(DEFAULT_PRECONDITION_EPSILON) + ")");
        k.put("smooth_gradient", "Gaussian smoothing of the gradient, standard deviation in m: one length or one per"
                + " axis in model order (default 0: none)");
        k.put("source_taper", "radius in m of a cosine taper of the gradient around every source (default: 5 cells"
                + " on a model file, none on a built-in model)");
        k.put("gradient_mask", "mask .npy or SEG-Y (float32, the model's shape, values 0..1) the gradient is multiplied"
                + " by (default: none)");
        k.put("storage", "\"boundary\", \"full\" or \"checkpoint\", those the equation has (default: its first;"
                + " boundary, checkpoint for visco-acoustic)");
        k.put("checkpoint_memory", "with storage \"checkpoint\" on an equation of the step skeleton: the most memory"
                + " per shot for checkpoints and one segment's tape, e.g. \"512M\" or bytes (default: the least that"
                + " re-runs each step once)");
        k.put("mesh", "\"auto\" (balanced grid) or {\"py\":.., \"px\":.., \"shot_groups\":..} (default auto)");
        k.put("threads", "Java backend threads per rank, 0 = all cores (default 0)");
        k.put("out", "output folder, relative to the working directory (default fwi-out)");
        return Collections.unmodifiableMap(k);
    }

    /**
     * The parameters of the installed equations other than vp (whose keys are vp_true, vp_start, vmin, vmax and
     * max_update), each with the equations that have it: their job-file keys are NAME_true, NAME_start, NAME_min,
     * NAME_max and max_update_NAME.
     */
    private static Map<String, List<WaveEquation>> otherParameters() {
        Map<String, List<WaveEquation>> m = new LinkedHashMap<>();
        for (WaveEquation e : Equations.installed().values()) {
            for (Parameter q : e.parametersOfEveryDimension()) {
                String p = q.name();
                if (!p.equals("vp")) {
                    m.computeIfAbsent(p, x -> new ArrayList<>()).add(e);
                }
            }
        }
        return m;
    }

    private static Parameter parameter(WaveEquation e, String name) {
        return e.parametersOfEveryDimension().stream().filter(q -> q.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * The default {@code of} parameter {@code p} for the equations {@code users}: one number when they agree, else
     * each value with its equations ("1000 (acoustic-vd, visco-acoustic), 900 (elastic)").
     */
    private static String defaults(List<WaveEquation> users, String p, ToDoubleFunction<Parameter> of) {
        Map<String, List<String>> byValue = new LinkedHashMap<>();
        for (WaveEquation e : users) {
            byValue.computeIfAbsent(plain(of.applyAsDouble(parameter(e, p))), v -> new ArrayList<>()).add(e.name());
        }
        if (byValue.size() == 1) {
            return byValue.keySet().iterator().next();
        }
        List<String> parts = new ArrayList<>();
        byValue.forEach((v, names) -> parts.add(v + " (" + String.join(", ", names) + ")"));
        return String.join(", ", parts);
    }

    /** A number as a job file would give it: 300, not 300.0. */
    private static String plain(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    /** The job-file keys of a parameter's bounds and step: vmin, vmax, max_update for vp, else NAME_min and so on. */
    private static String[] boundKeys(String name) {
        return name.equals("vp") ? new String[] {"vmin", "vmax", "max_update"}
                : new String[] {name + "_min", name + "_max", "max_update_" + name};
    }

    /** Values given so far, by key: JsonElement from the job file or from a flag; later puts override. */
    private final Map<String, JsonElement> given = new HashMap<>();
    /** Where each given value came from, for messages: "job.json: key 'dh'" or "--dh". */
    private final Map<String, String> origin = new HashMap<>();
    /** The keys set by command-line flags (they override the job file, per-band iterations included). */
    private final Set<String> flags = new HashSet<>();
    private Path base = Path.of("");

    /** Reads a job file; relative input paths in it are resolved against the file's folder. */
    static FwiJob read(Path file) {
        FwiJob job = new FwiJob();
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("--job: " + file + " is a directory, not a job file");
        }
        InputFiles.requireRegular(file, "--job");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("--job: cannot read the job file " + file + ": " + IoErrors.reason(file, e),
                    e);
        }
        JsonElement root;
        try {
            rejectDuplicateKeys(text, file);
            root = JsonParser.parseString(text);
        } catch (IOException | JsonParseException e) {
            throw new IllegalArgumentException("--job: " + file + " is not valid JSON: " + jsonProblem(e));
        }
        if (!root.isJsonObject()) {
            throw new IllegalArgumentException("--job: " + file + " must hold a JSON object {\"key\": value, ...}");
        }
        Path parent = file.toAbsolutePath().getParent();
        job.base = parent == null ? Path.of("") : parent;
        for (Map.Entry<String, JsonElement> e : root.getAsJsonObject().entrySet()) {
            if (!KEYS.containsKey(e.getKey())) {
                throw new IllegalArgumentException(file + ": unknown key '" + e.getKey() + "'; known keys: "
                        + String.join(", ", new TreeSet<>(KEYS.keySet())));
            }
            job.given.put(e.getKey(), e.getValue());
            job.origin.put(e.getKey(), file.getFileName() + ": key '" + e.getKey() + "'");
        }
        return job;
    }

    /**
     * Throws when an object of the JSON text holds a key twice (JSON parsers keep one of them silently), naming the
     * key and where it is ("$.mesh.px").
     */
    private static void rejectDuplicateKeys(String text, Path file) throws IOException {
        JsonReader r = new JsonReader(new StringReader(text));
        r.setStrictness(Strictness.LENIENT); // as JsonParser reads it
        Deque<Set<String>> names = new ArrayDeque<>();
        while (true) {
            switch (r.peek()) {
                case BEGIN_OBJECT -> {
                    r.beginObject();
                    names.push(new HashSet<>());
                }
                case END_OBJECT -> {
                    r.endObject();
                    names.pop();
                }
                case BEGIN_ARRAY -> r.beginArray();
                case END_ARRAY -> r.endArray();
                case NAME -> {
                    String where = r.getPath();
                    String name = r.nextName();
                    if (!names.peek().add(name)) {
                        throw new IllegalArgumentException(file + ": key '" + name + "' appears twice"
                                + (where.equals("$.") || where.equals("$") ? "" : " (at " + where + ")")
                                + "; give each key once");
                    }
                }
                case END_DOCUMENT -> {
                    return;
                }
                default -> r.skipValue();
            }
        }
    }

    /** A JSON parse failure in one line, without the Java exception class the parser's message may start with. */
    private static String jsonProblem(Exception e) {
        Throwable t = e instanceof JsonParseException && e.getCause() != null ? e.getCause() : e;
        String m = String.valueOf(t.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** An empty job (every setting at its default). */
    static FwiJob empty() {
        return new FwiJob();
    }

    /** Sets {@code key} from command-line flag {@code flag} unless {@code value} is null (flag not given). */
    FwiJob flag(String key, String flag, Object value) {
        if (value == null) {
            return this;
        }
        JsonElement e;
        if (value instanceof Number n) {
            e = new JsonPrimitive(n);
        } else if (value instanceof Boolean b) {
            e = new JsonPrimitive(b);
        } else if (value instanceof double[] d) {
            JsonArray a = new JsonArray();
            for (double v : d) {
                a.add(v);
            }
            e = d.length == 1 && !key.equals("bands") ? new JsonPrimitive(d[0]) : a;
        } else if (value instanceof Path p) {
            if (p.toString().isBlank()) { // made absolute, an empty path would name the current folder
                throw new IllegalArgumentException(flag + ": is empty: give a path");
            }
            e = new JsonPrimitive(p.toAbsolutePath().toString());
        } else {
            e = new JsonPrimitive(value.toString());
        }
        given.put(key, e);
        origin.put(key, flag);
        flags.add(key);
        return this;
    }

    /** Sets the mesh from flags when any of them was given. */
    FwiJob mesh(MeshOptions m) {
        if (m.py == null && m.px == null && m.shotGroups == null) {
            return this;
        }
        JsonObject o = new JsonObject();
        o.addProperty("py", m.py == null ? 1 : m.py);
        o.addProperty("px", m.px == null ? 1 : m.px);
        o.addProperty("shot_groups", m.shotGroups == null ? 1 : m.shotGroups);
        if (m.py == null && m.px == null) {
            o = new JsonObject();
            o.addProperty("shot_groups", m.shotGroups);
        }
        given.put("mesh", o);
        origin.put("mesh", "--py/--px/--shot-groups");
        return this;
    }

    private IllegalArgumentException error(String key, String problem) {
        return new IllegalArgumentException(origin.getOrDefault(key, key) + ": " + problem);
    }

    boolean has(String key) {
        return given.containsKey(key);
    }

    /** The illumination preconditioner's epsilon of the keys precondition and precondition_epsilon; 0: none. */
    double preconditionEpsilon() {
        String p = string("precondition", "illumination");
        double eps = number("precondition_epsilon", DEFAULT_PRECONDITION_EPSILON);
        if (!(eps > 0) || Double.isInfinite(eps)) {
            throw error("precondition_epsilon", "must be > 0 and finite, got " + eps);
        }
        return switch (p) {
            case "illumination" -> eps;
            case "none" -> {
                if (has("precondition_epsilon")) {
                    throw error("precondition_epsilon", "is set, but \"precondition\" is \"none\": remove one");
                }
                yield 0;
            }
            default -> throw error("precondition", "must be \"illumination\" or \"none\", got \"" + p + "\"");
        };
    }

    /** Whether the job asks for the wavelet to be estimated ("wavelet": "estimate") rather than given. */
    boolean estimatesWavelet() {
        JsonElement e = given.get("wavelet");
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()
                && e.getAsString().equals(ESTIMATE);
    }

    /** Whether the job gives a wavelet file. */
    private boolean waveletFile() {
        return has("wavelet") && !estimatesWavelet();
    }

    /** Where {@code key}'s value came from (for messages). */
    String where(String key) {
        return origin.getOrDefault(key, key);
    }

    /*
     * One type rule for every numeric setting: a number key takes a finite JSON number, an integer key a JSON number
     * without a fraction; a string (even "3"), a boolean or anything else is refused, naming the file and the key.
     */

    private double number(String key, double dflt) {
        JsonElement e = given.get(key);
        return e == null ? dflt : number(e, key, "");
    }

    /** {@code e} as a number, refused as {@code key}'s {@code field} (a field name and a space, or empty). */
    private double number(JsonElement e, String key, String field) {
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw error(key, field + "must be a number, got " + e + unquote(e));
        }
        double v = e.getAsDouble();
        if (!Double.isFinite(v)) {
            throw error(key, field + "must be finite, got " + e);
        }
        return v;
    }

    /** What to do about a value that is not a JSON number: drop the quotes of a string. */
    private static String unquote(JsonElement e) {
        return e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() ? "; write it as a JSON number, without quotes"
                : "";
    }

    private int integer(String key, int dflt) {
        JsonElement e = given.get(key);
        return e == null ? dflt : (int) integer(e, key, "", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** {@code e} as an integer in [min, max], refused as {@code key}'s {@code field} (as in {@link #number}). */
    private long integer(JsonElement e, String key, String field, long min, long max) {
        BigDecimal v = null;
        try {
            v = e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber() ? e.getAsBigDecimal() : null;
        } catch (NumberFormatException tooLarge) { // an exponent beyond what BigDecimal holds
            throw error(key, field + "must lie in [" + min + ", " + max + "], got " + e);
        }
        if (v == null || v.stripTrailingZeros().scale() > 0) {
            throw error(key, field + "must be an integer, got " + e
                    + (v != null ? "; write a whole number" : unquote(e)));
        }
        if (v.compareTo(BigDecimal.valueOf(min)) < 0 || v.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw error(key, field + "must lie in [" + min + ", " + max + "], got " + e);
        }
        return v.longValueExact();
    }

    private boolean bool(String key, boolean dflt) {
        JsonElement e = given.get(key);
        if (e == null) {
            return dflt;
        }
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
            throw error(key, "must be true or false, got " + e);
        }
        return e.getAsBoolean();
    }

    /** Key checkpoint_memory: bytes, or a size such as "512M" (0 when absent). */
    private long checkpointMemory() {
        JsonElement e = given.get("checkpoint_memory");
        if (e == null) {
            return 0;
        }
        String text = e.isJsonPrimitive() ? e.getAsString() : e.toString();
        try {
            return MemoryEstimate.parseBytes(text, "checkpoint_memory");
        } catch (IllegalArgumentException ex) {
            throw error("checkpoint_memory", "must be bytes or a size such as \"512M\" or \"2G\", got " + e);
        }
    }

    private String string(String key, String dflt) {
        JsonElement e = given.get(key);
        if (e == null) {
            return dflt;
        }
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw error(key, "must be a string, got " + e);
        }
        return e.getAsString();
    }

    /** A file named by {@code key}, resolved against the job file's folder; it must exist. */
    private Path file(String key) {
        String s = string(key, null);
        if (s == null) {
            return null;
        }
        Path p = base.resolve(s);
        if (Files.isDirectory(p)) {
            throw error(key, p + " is a directory, not a file");
        }
        if (!Files.exists(p)) {
            throw error(key, "file " + p + " not found");
        }
        return p;
    }

    /**
     * The input files the job names (the model files of every installed equation's parameters, data, acquisition,
     * wavelet and gradient mask), by where they were given.
     */
    Map<String, Path> inputFiles() {
        Map<String, Path> in = new LinkedHashMap<>();
        Set<String> keys = new LinkedHashSet<>(List.of("vp_true", "vp_start"));
        for (WaveEquation e : Equations.installed().values()) {
            for (String p : e.parametersOfEveryDimension().stream().map(Parameter::name).toList()) {
                keys.add(p + "_true");
                keys.add(p + "_start");
            }
        }
        keys.addAll(List.of("observed", "sources", "receivers", "wavelet", "gradient_mask"));
        for (String key : keys) {
            JsonElement e = given.get(key);
            if (e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()
                    && !(key.equals("vp_true") && e.getAsString().equals("default"))
                    && !(key.equals("wavelet") && estimatesWavelet())) {
                in.put(where(key), base.resolve(e.getAsString()));
            }
        }
        return in;
    }

    /** The output folder (not required to exist), relative to the working directory. */
    Path out() {
        String out = string("out", "fwi-out");
        if (out.isBlank()) {
            throw error("out", "is empty: give the output folder (default fwi-out)");
        }
        return Path.of(out);
    }

    /** The mesh: null for auto, else {shot groups, py, px} (0 where a factor is left to the balanced grid). */
    int[] mesh() {
        JsonElement e = given.get("mesh");
        if (e == null || (e.isJsonPrimitive() && "auto".equals(e.getAsString()))) {
            return null;
        }
        if (!e.isJsonObject()) {
            throw error("mesh", "must be \"auto\" or an object {\"py\":.., \"px\":.., \"shot_groups\":..}, got " + e);
        }
        int[] m = {1, 0, 0};
        boolean tiles = false;
        for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().entrySet()) {
            int idx = switch (f.getKey()) {
                case "shot_groups" -> 0;
                case "py" -> 1;
                case "px" -> 2;
                default -> throw error("mesh", "unknown field '" + f.getKey() + "' (known: py, px, shot_groups)");
            };
            m[idx] = (int) integer(f.getValue(), "mesh", f.getKey() + " ", 1, Integer.MAX_VALUE);
            tiles |= idx > 0;
        }
        if (tiles) {
            m[1] = Math.max(m[1], 1);
            m[2] = Math.max(m[2], 1);
        }
        return m;
    }

    /**
     * Everything an FWI run needs, checked for consistency. The models and the gradient mask are read tile by tile
     * once the run knows its tile: {@code trueModel} (null when not known), {@code start} and {@code conditioner}
     * (which reads the mask's tile) take it.
     */
    record Resolved(ModelInput trueModel, ModelInput start, int[] shape, double[] dh, PropSpec spec, float[] wavelet,
                    int[][][] sources, int[][][] receivers, float[] observed, Inversion.Options options, int muteRows,
                    Function<ModelTile, GradientConditioner> conditioner, int[] mesh, Path out, String description,
                    MisfitChoice misfit, List<String> defaults, DataWindow window) {
        /** The job's misfit for records of {@link #spec}, inside its data window when it has one. */
        Misfit windowedMisfit() {
            Misfit m = misfit.of(spec.nt());
            return window == null ? m : window.around(m, spec);
        }
    }

    /**
     * A model of the job (true or starting; every parameter, one after the other) that each rank reads only its tile
     * of: a built-in model, model files, or a smoothed model.
     */
    interface ModelInput {
        /** The cells of {@code tile} (every parameter), checked. Collective over the tile's ranks. */
        float[] tile(ModelTile tile);
    }

    /** The models step: which model files, the grid, the true and starting models, the velocity bounds. */
    private record Models(WaveEquation equation, FwiExample example, Path trueFile, Path startFile, Path obsFile,
                          int[] shape, double[] dh,
                          ModelInput trueModel, ModelInput start, int muteRows, String muteNote, double vmin,
                          double vmax) {
        int ndim() {
            return shape.length;
        }

        boolean builtin() {
            return example != null;
        }

        String description() {
            return builtin() ? example.description() : (trueFile != null ? trueFile : startFile).getFileName()
                    .toString();
        }
    }

    /** The acquisition step: source and receiver cells per shot. */
    private record Shots(int[][][] sources, int[][][] receivers) {
        int count() {
            return sources.length;
        }

        int receiversPerShot() {
            return receivers[0].length;
        }
    }

    /**
     * Reads the files and checks every setting against the others, step by step: models, time axis, acquisition,
     * memory, wavelet, observed data, bands and the optimiser's settings.
     */
    Resolved resolve() {
        MisfitChoice misfit = misfit();
        Models m = models();
        PropSpec spec = timeAxis(m);
        Shots shots = acquisition(m);
        long waveletFloats = waveletFile() ? (long) shots.count() * spec.nt() : spec.nt();
        try {
            MemoryEstimate.fwiData(spec, shots.count(), shots.receiversPerShot(), waveletFloats)
                    .requireHeap("this FWI's data (record, wavelet, observed data)");
        } catch (IllegalArgumentException e) { // the time axis sizes the data: name its key when the job gives it
            if (has("nt") || has("time")) {
                throw error(has("nt") ? "nt" : "time", e.getMessage());
            }
            throw e;
        }
        float[] w = wavelet(spec, shots.count());
        float[] observed = observed(m, spec, shots);
        Inversion.Options options = inversion(m, spec, shots);
        List<Fwi.Parameter> bounds = options.settings().parameters();
        ModelInput trueModel = m.trueModel() == null ? null : withinBounds(m.trueModel(), m.shape(), bounds);
        ModelInput start = m.trueModel() == null ? withinBounds(m.start(), m.shape(), bounds) : m.start();
        // the defaults a model file gets, which the run prints
        List<String> defaults = new ArrayList<>();
        if (m.muteNote() != null) {
            defaults.add(m.muteNote());
        }
        if (!m.builtin() && !has("source_taper")) {
            defaults.add("source_taper " + new java.math.BigDecimal(Double.toString(defaultSourceTaper(m)))
                    .stripTrailingZeros().toPlainString() + " m (" + SOURCE_TAPER_CELLS + " cells)");
        }
        return new Resolved(trueModel, start, m.shape(), m.dh(), spec, w, shots.sources(), shots.receivers(),
                observed, options, m.muteRows(), conditioner(m, shots), mesh(), out(), m.description(), misfit,
                List.copyOf(defaults), window(options.supershots()));
    }

    /**
     * The data window of keys offsets, mute_velocity, mute_time, mute_taper, tail_mute_velocity and tail_mute_time,
     * or null when the job gives none;
     * refused with supershots (an encoded shot has no one offset).
     */
    private DataWindow window(int supershots) {
        double[] off = numbers("offsets");
        boolean mute = has("mute_velocity");
        boolean tail = has("tail_mute_velocity");
        if (has("tail_mute_time") && !tail) {
            throw error("tail_mute_time", "needs 'tail_mute_velocity'");
        }
        if (has("mute_time") && !mute) {
            throw error("mute_time", "needs 'mute_velocity'");
        }
        if (has("mute_taper") && !mute && !tail) {
            throw error("mute_taper", "needs 'mute_velocity' or 'tail_mute_velocity'");
        }
        if (off == null && !mute && !tail) {
            return null;
        }
        String key = off != null ? "offsets" : mute ? "mute_velocity" : "tail_mute_velocity";
        if (supershots > 0) {
            throw error(key, "a data window needs each shot on its own: set 'supershots' to 0");
        }
        if (off != null && (off.length != 2 || !(off[0] >= 0) || !(off[1] >= off[0]))) {
            throw error("offsets", "must be [min, max] in m with 0 <= min <= max, got " + given.get("offsets"));
        }
        double v = mute ? number("mute_velocity", 0) : 0;
        if (mute && !(v > 0) || Double.isInfinite(v)) {
            throw error("mute_velocity", "must be a positive velocity in m/s, got " + given.get("mute_velocity"));
        }
        double vt = tail ? number("tail_mute_velocity", 0) : 0;
        if (tail && !(vt > 0) || Double.isInfinite(vt)) {
            throw error("tail_mute_velocity", "must be a positive velocity in m/s, got "
                    + given.get("tail_mute_velocity"));
        }
        double t0 = number("mute_time", 0);
        double tt = number("tail_mute_time", 0);
        double taper = number("mute_taper", mute || tail ? 0.1 : 0);
        if (!Double.isFinite(t0) || !Double.isFinite(tt)) {
            throw error(Double.isFinite(t0) ? "tail_mute_time" : "mute_time", "must be a finite time in s, got "
                    + (Double.isFinite(t0) ? tt : t0));
        }
        if (!(taper >= 0) || Double.isInfinite(taper)) {
            throw error("mute_taper", "must be a finite time in s >= 0, got " + taper);
        }
        return new DataWindow(off == null ? 0 : off[0], off == null ? Double.POSITIVE_INFINITY : off[1], v, t0,
                taper, vt, tt);
    }

    /** The misfit of key {@code misfit} (default l2). */
    private MisfitChoice misfit() {
        return MisfitChoice.parse(string("misfit", "l2"), where("misfit"));
    }

    /** The equation of the job-file key 'equation' (default acoustic). */
    WaveEquation equation() {
        String e = string("equation", "acoustic");
        try {
            return Equations.named(e);
        } catch (IllegalArgumentException x) {
            throw error("equation", x.getMessage());
        }
    }

    private Models models() {
        WaveEquation named = equation();
        List<String> params = named.parameterNames();
        for (Map.Entry<String, List<WaveEquation>> e : otherParameters().entrySet()) {
            if (!named.dimensionsWithParameter(e.getKey()).isEmpty()) {
                continue;
            }
            String p = e.getKey();
            for (String key : List.of(p + "_true", p + "_start", p + "_min", p + "_max", "max_update_" + p)) {
                if (has(key)) {
                    String other = e.getValue().get(0).name();
                    throw error(key, "is a setting of the " + String.join(" or ", e.getValue().stream()
                            .map(WaveEquation::name).toList()) + " equation: add \"equation\": \"" + other
                            + "\" (--equation " + other + ") or drop it");
                }
            }
        }
        if (named.dimensions().stream().allMatch(d -> named.sourceTypes(d).isEmpty()) && has("source_type")) {
            throw error("source_type", "the " + named.name() + " equation has one kind of source: drop it");
        }
        Path trueFile = null;
        boolean builtin;
        String vt = string("vp_true", null);
        Path startFile = file("vp_start");
        Path obsFile = file("observed");
        if (vt == null) {
            builtin = startFile == null && obsFile == null;
            if (!builtin && obsFile == null) {
                throw error("vp_start", "a starting model needs 'vp_true' or 'observed' data to invert");
            }
        } else if (vt.equals("default")) {
            builtin = true;
        } else {
            builtin = false;
            trueFile = file("vp_true");
        }
        double[] dh = spacing(builtin);
        ModelInput trueModel = null;
        int[] shape;
        FwiExample example = null;
        if (builtin) {
            if (dh.length != 1 && !(dh.length == 2 && dh[0] == dh[1])) {
                throw error("dh", "the built-in model takes one spacing, got " + Arrays.toString(dh));
            }
            example = (named.dimensions().contains(2) ? named.inDimensions(2) : named).fwiExample(dh[0]);
            if (example == null) {
                throw error("vp_true", "the " + named.name() + " equation has no built-in model:"
                        + " give the model files (" + String.join(", ", params.stream().map(p -> p + "_true")
                        .toList()) + ")");
            }
            for (String p : params.subList(1, params.size())) {
                for (String key : List.of(p + "_true", p + "_start")) {
                    if (has(key)) {
                        throw error(key, example.description() + " brings its own " + String.join(" and ",
                                params.subList(1, params.size())) + ": give 'vp_true' as a file too, or drop '" + key
                                + "'");
                    }
                }
            }
            FwiExample ex = example;
            trueModel = t -> t.slice(ex.trueModel()); // a built-in model is small: made whole, then cut
            shape = example.shape();
        } else if (trueFile != null) {
            shape = ModelFiles.shape(trueFile, where("vp_true"));
        } else {
            shape = ModelFiles.shape(startFile, where("vp_start"));
        }
        if (shape.length != 2 && shape.length != 3) {
            throw error(trueFile != null ? "vp_true" : "vp_start", "model shape " + Arrays.toString(shape)
                    + " must be (nz, nx) or (nz, ny, nx)");
        }
        // the parameters of the model's dimension (acoustic-tti's 3-D models take the azimuth too)
        WaveEquation eq = named.inDimensions(shape.length);
        for (Parameter q : named.parametersOfEveryDimension()) {
            if (eq.parameterNames().contains(q.name())) {
                continue;
            }
            String p = q.name();
            for (String key : List.of(p + "_true", p + "_start", p + "_min", p + "_max", "max_update_" + p)) {
                if (has(key)) {
                    throw error(key, "is a parameter of the " + named.name() + " equation in " + String.join(" and ",
                            named.dimensionsWithParameter(p).stream().map(d -> d + "-D").toList()) + " models; this"
                            + " model is " + shape.length + "-D: drop it");
                }
            }
        }
        params = eq.parameterNames();
        if (trueFile != null) {
            trueModel = fileInput(eq, parameterFiles(eq, trueFile, "_true", shape, dh[0]), "_true");
        }
        int ndim = shape.length;
        if (dh.length != 1 && dh.length != ndim) {
            throw error("dh", "needs one spacing or " + ndim + " (one per axis), got " + Arrays.toString(dh));
        }
        int water = builtin ? example.waterRows() : 0;
        String muteNote = null;
        if (!builtin && !has("mute_rows")) {
            Path f = trueFile != null ? trueFile : startFile;
            String key = trueFile != null ? "vp_true" : "vp_start";
            float[] top = new float[1];
            water = waterLayer(f, where(key), shape, top);
            if (water > 0) {
                muteNote = "mute_rows " + water + " (the top rows of " + key + " at one velocity, " + top[0]
                        + " m/s: water)";
            }
        }
        int muteRows = integer("mute_rows", water);
        if (muteRows < 0 || muteRows >= shape[0]) {
            throw error("mute_rows", "must lie in [0, " + shape[0] + "), got " + muteRows);
        }
        int count = eq.parameterCount();
        ModelInput start;
        if (startFile != null) {
            int[] s = ModelFiles.shape(startFile, where("vp_start"));
            if (!Arrays.equals(s, shape)) {
                throw error("vp_start", startFile + " has shape " + Arrays.toString(s) + " but the model is "
                        + Arrays.toString(shape) + (trueFile != null ? " (" + trueFile + ")" : ""));
            }
            start = fileInput(eq, parameterFiles(eq, startFile, "_start", shape, dh[0]), "_start");
        } else if (ndim == 3) {
            throw error("vp_true", "3-D models need a starting model: give 'vp_start'");
        } else {
            for (String p : params.subList(1, params.size())) {
                if (has(p + "_start")) {
                    throw error(p + "_start", "give 'vp_start' with it (the starting model holds " + String.join(", ",
                            params) + ")");
                }
            }
            double smooth = number("smooth", builtin ? example.smoothMetres() : 250);
            if (!(smooth > 0)) {
                throw error("smooth", "must be positive, got " + smooth);
            }
            // linear smoothing with the same weights for every parameter keeps vs < 0.865 vp of every cell
            FwiExample ex = example;
            int rows = muteRows;
            start = builtin ? t -> t.slice(ex.startModel(smooth / dh[0], rows))
                    : smoothed(trueModel, shape, smooth / dh[0], muteRows);
        }
        double vmin = number("vmin", eq.parameters().get(0).fwiMin());
        double vmax = number("vmax", eq.parameters().get(0).fwiMax());
        if (!(vmin > 0 && vmax > vmin)) {
            throw error(has("vmin") ? "vmin" : "vmax", "bounds need 0 < vmin < vmax, got [" + vmin + ", " + vmax + "]");
        }
        return new Models(eq, example, trueFile, startFile, obsFile, shape, dh, trueModel, start, muteRows, muteNote,
                vmin, vmax);
    }

    /** The slowest velocity a water layer may have, m/s (sea water is about 1450 to 1560). */
    static final double WATER_VELOCITY_MAX = 1600;

    /**
     * The water layer of a model file's first parameter: the rows from the top whose cells all hold the first cell's
     * velocity, when that is below {@link #WATER_VELOCITY_MAX} (0 otherwise, and never every row); reads those rows and
     * the next only. {@code velocity[0]} receives the water's velocity.
     */
    static int waterLayer(Path file, String what, int[] shape, float[] velocity) {
        int nz = shape[0];
        int[][] index = new int[shape.length][];
        float v0 = Float.NaN;
        int rows = 0;
        while (rows < nz - 1) {
            index[0] = new int[] {rows};
            float[] row = ModelFiles.readSelection(file, what, shape, index);
            if (rows == 0) {
                v0 = row[0];
                if (!(v0 < WATER_VELOCITY_MAX)) {
                    return 0;
                }
            }
            boolean same = true;
            for (float v : row) {
                same &= v == v0;
            }
            if (!same) {
                break;
            }
            rows++;
        }
        velocity[0] = v0;
        return rows;
    }

    /**
     * The files of a model: {@code first} (the first parameter) and the equation's other parameters, each from its key
     * NAME{@code suffix} (required, of the model's {@code shape}: checked from the headers; a SEG-Y file's sample
     * interval checked against the depth spacing {@code dz}).
     */
    private List<Path> parameterFiles(WaveEquation eq, Path first, String suffix, int[] shape, double dz) {
        List<String> params = eq.parameterNames();
        List<Path> files = new ArrayList<>(List.of(first));
        for (int k = 1; k < params.size(); k++) {
            String key = params.get(k) + suffix;
            if (!has(key)) {
                throw error(key, "is required with " + params.get(0) + suffix + " " + first + " when the equation is "
                        + eq.name() + " (the model holds " + String.join(", ", params) + ")");
            }
            Path f = file(key);
            int[] s = ModelFiles.shape(f, where(key));
            if (!Arrays.equals(s, shape)) {
                throw error(key, f + " has shape " + Arrays.toString(s) + " but " + params.get(0) + " is "
                        + Arrays.toString(shape));
            }
            files.add(f);
        }
        for (int k = 0; k < params.size(); k++) {
            ModelFiles.checkSpacing(files.get(k), where(params.get(k) + suffix), dz, where("dh"));
        }
        return files;
    }

    /**
     * The model in {@code files} (one per parameter), each rank reading its tile's bytes only; values checked by the
     * equation's rules, the message naming each parameter's key NAME{@code suffix} and the global position.
     */
    private ModelInput fileInput(WaveEquation eq, List<Path> files, String suffix) {
        List<String> params = eq.parameterNames();
        String[] names = params.stream().map(p -> where(p + suffix)).toArray(String[]::new);
        return t -> {
            int n = t.cells();
            float[] m = new float[Math.multiplyExact(files.size(), n)];
            for (int k = 0; k < files.size(); k++) {
                System.arraycopy(t.read(files.get(k), names[k]), 0, m, k * n, n);
            }
            eq.checkModel(m, t.shape(), t.offset(), null, names);
            return m;
        };
    }

    /**
     * A 2-D model smoothed as {@link DefaultModels#smoothParameters} does (each parameter with the same weights, the
     * top {@code keepRows} rows kept), tile by tile: each rank smooths its tile from its neighbours' columns within
     * the reach, the same values as the whole model's smoothing.
     */
    private static ModelInput smoothed(ModelInput model, int[] shape, double sigma, int keepRows) {
        return t -> {
            float[] v = model.tile(t);
            int n = t.cells();
            int nz = shape[0];
            int width = t.shape()[1];
            int x0 = t.offset()[1];
            int reach = DefaultModels.smoothReach(sigma);
            int[] range = t.widenedRange(1, reach);
            float[] out = new float[v.length];
            for (int k = 0; k < v.length / n; k++) {
                float[] wide = t.widened(Arrays.copyOfRange(v, k * n, (k + 1) * n), 1, reach);
                System.arraycopy(DefaultModels.smoothColumns(wide, nz, range[0], range[1], shape[1], x0, width, sigma,
                        keepRows), 0, out, k * n, n);
            }
            return out;
        };
    }

    /**
     * {@code model}, refused when a parameter's largest value lies above its upper bound: vp's always (the CPML
     * profile velocity), another parameter's when it is inverted; the message names the bound's key and the first
     * cell with that value.
     */
    private ModelInput withinBounds(ModelInput model, int[] shape, List<Fwi.Parameter> bounds) {
        List<Parameter> params = equation().inDimensions(shape.length).parameters();
        return t -> {
            float[] v = model.tile(t);
            for (int k = 0; k < bounds.size(); k++) {
                Fwi.Parameter b = bounds.get(k);
                if (k > 0 && !b.inverted()) {
                    continue;
                }
                ModelTile.Peak top = t.peak(v, k);
                if (top.value() > b.max()) {
                    String at = Cells.position(shape, top.index(), null);
                    String key = boundKeys(b.name())[1];
                    throw error(key, k == 0 ? "the model reaches " + (double) top.value() + " m/s at " + at
                            + ", above vmax=" + b.max() + " (the CPML profile velocity and upper bound): raise vmax"
                            : "the model's " + b.name() + " reaches " + (double) top.value() + " "
                            + params.get(k).unit() + " at " + at + ", above " + key + "=" + b.max() + ": raise " + key);
                }
            }
            return v;
        };
    }

    /** The time-axis step: order, CPML, free surface, dt (default: 0.8 of the stable limit), nt or time, storage. */
    private PropSpec timeAxis(Models m) {
        int[] shape = m.shape();
        double[] dh = m.dh();
        double vmax = m.vmax();
        // each setting goes to the spec on its own, with a valid dt and nt, so that one it refuses is named by its key;
        // the dt is small enough for any setting checked against the run's dt (a frequency below Nyquist) to pass here
        // and be checked with the job's dt below
        PropSpec.Builder b = PropSpec.builder(shape).equation(m.equation()).dh(dh).dt(1e-7).nt(1);
        equationSettings(b, m.equation());
        int order = integer("order", 8);
        setting(b, "order", () -> b.order(order));
        int abcn = integer("abcn", 20);
        setting(b, "abcn", () -> b.abcn(abcn));
        b.freeSurface(bool("free_surface", true));
        int threads = integer("threads", 0);
        setting(b, "threads", () -> b.threads(threads));
        WaveEquation eq = m.equation();
        if (has("source_type")) {
            String sourceType = string("source_type", null);
            setting(b, "source_type", () -> b.sourceType(eq.checkSourceType(sourceType, m.ndim())));
        }
        String record = string("record", String.join(",", eq.fwiRecord(m.ndim())));
        setting(b, "record", () -> b.recordFields(record));
        double dt;
        if (has("dt")) {
            dt = number("dt", 0);
        } else {
            dt = Math.floor(0.8 * b.build().maxStableDt(vmax) * 1e4) / 1e4;
        }
        int nt;
        if (has("nt") && has("time")) {
            throw error("time", "give either 'nt' or 'time', not both");
        } else if (has("nt")) {
            nt = integer("nt", 0);
        } else {
            double time = number("time", m.builtin() ? m.example().time() : 3.0);
            if (!(time > 0)) {
                throw error("time", "must be positive, got " + time);
            }
            nt = (int) Math.ceil(time / dt);
        }
        String st = string("storage", null);
        Storage storage = st == null ? null : switch (st.toLowerCase(Locale.ROOT)) {
            case "boundary" -> Storage.BOUNDARY_SAVING;
            case "full" -> Storage.FULL;
            case "checkpoint" -> Storage.CHECKPOINTING;
            default -> throw error("storage", "must be \"boundary\", \"full\" or \"checkpoint\", got \"" + st + "\"");
        };
        PropSpec spec;
        try {
            spec = b.maxVel(vmax).dt(dt).nt(nt).storage(storage).checkpointMemory(checkpointMemory()).build();
        } catch (PropSpec.InvalidSetting e) {
            String key = switch (e.setting()) {
                case "nt" -> has("nt") ? "nt" : "time";
                case "maxVel" -> "vmax";
                case "checkpointMemory" -> "checkpoint_memory";
                default -> e.setting();
            };
            throw error(key, e.setting() + " " + Main.optionWords(e));
        }
        spec.settingWarnings().forEach(line -> Main.warnOnce("fwi", line));
        if (dt > spec.maxStableDt(vmax)) {
            throw error("dt", "dt=" + dt + " s is unstable at vmax=" + vmax + " m/s; the largest stable dt is "
                    + spec.maxStableDt(vmax) + " s");
        }
        return spec;
    }

    /**
     * The equation's settings: each one the job gives (a string, a number, or a list of numbers joined by commas), a
     * setting of another equation refused; those derived from the wavelet's peak frequency take the 'ricker' one (a
     * job with a wavelet file gives them).
     */
    private void equationSettings(PropSpec.Builder b, WaveEquation eq) {
        for (WaveEquation other : Equations.installed().values()) {
            for (Setting st : other.settings()) {
                if (has(st.name()) && eq.settings().stream().noneMatch(x -> x.name().equals(st.name()))) {
                    throw error(st.name(), "is a setting of another equation; this job's is " + eq.name()
                            + ": remove the key");
                }
            }
        }
        b.settingsFromPeakFrequency(number("ricker", 5)); // those the job gives replace these below
        for (Setting st : eq.settings()) {
            if (has(st.name())) {
                JsonElement e = given.get(st.name());
                String v;
                if (e.isJsonArray()) {
                    List<String> parts = new ArrayList<>();
                    for (JsonElement x : e.getAsJsonArray()) {
                        parts.add(Double.toString(number(x, st.name(), "")));
                    }
                    v = String.join(",", parts);
                } else if (e.isJsonPrimitive()) {
                    v = e.getAsString();
                } else {
                    throw error(st.name(), "must be a string, a number or a list of numbers, got " + e);
                }
                setting(b, st.name(), () -> b.setting(st.name(), v));
            } else if (st.defaultValue() == null && st.fromPeakFrequency() && waveletFile()) {
                throw error(st.name(), "is needed with a wavelet file (" + st.description() + ")");
            }
        }
    }

    /** Applies the setting of {@code key} to {@code b} and builds: a value the spec refuses is named by its key. */
    private void setting(PropSpec.Builder b, String key, Runnable apply) {
        try {
            apply.run();
            b.build();
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage());
        }
    }

    /** The acquisition step: source and receiver files, or a surface line of 'shots' shots. */
    private Shots acquisition(Models m) {
        int[] shape = m.shape();
        int ndim = m.ndim();
        int[][][] src;
        int[][][] rec;
        if (has("sources") != has("receivers")) {
            throw error(has("sources") ? "receivers" : "sources", "'sources' and 'receivers' go together: give both"
                    + " files or neither (a surface line)");
        }
        if (has("sources")) {
            src = ProblemOptions.coords(file("sources"), where("sources"), ndim);
            rec = ProblemOptions.coords(file("receivers"), where("receivers"), ndim);
            if (rec.length != src.length) {
                throw error("receivers", "holds " + rec.length + " shots but 'sources' holds " + src.length);
            }
            ProblemOptions.checkCells(src, shape, where("sources"));
            ProblemOptions.checkCells(rec, shape, where("receivers"));
        } else {
            int shots = integer("shots", 6);
            if (shots < 1) {
                throw error("shots", "must be >= 1, got " + shots);
            }
            int nx = shape[ndim - 1];
            int y = ndim == 3 ? shape[1] / 2 : 0;
            src = new int[shots][][];
            rec = new int[shots][][];
            int nrec = (nx + 1) / 2;
            // a built-in model says where its receivers lie (elastic: on the sea floor, where the shear waves are)
            int rz = m.builtin() ? m.example().receiverRow() : 1;
            for (int s = 0; s < shots; s++) {
                int sx = (int) Math.round((s + 0.5) * nx / shots);
                src[s] = new int[][] {ndim == 3 ? new int[] {sx, y, 1} : new int[] {sx, 1}};
                rec[s] = new int[nrec][];
                for (int r = 0; r < nrec; r++) {
                    rec[s][r] = ndim == 3 ? new int[] {2 * r, y, rz} : new int[] {2 * r, rz};
                }
            }
        }
        int nrec = rec[0].length;
        for (int s = 1; s < src.length; s++) {
            if (rec[s].length != nrec) {
                throw error("receivers", "every shot needs the same number of receivers: shot 0 has " + nrec
                        + ", shot " + s + " has " + rec[s].length);
            }
        }
        return new Shots(src, rec);
    }

    /**
     * The wavelet step: a wavelet file of (nt,) or (B, nt), or a Ricker wavelet (also the start of an estimated one).
     */
    private float[] wavelet(PropSpec spec, int shots) {
        int nt = spec.nt();
        if (waveletFile() && has("ricker")) {
            throw error("ricker", "give either 'wavelet' or 'ricker', not both");
        } else if (waveletFile()) {
            Path wf = file("wavelet");
            Npy.Array a = Npy.readFloat32(wf, where("wavelet"));
            int[] ws = a.shape();
            if (!((ws.length == 1 && ws[0] == nt) || (ws.length == 2 && ws[0] == shots && ws[1] == nt))) {
                throw error("wavelet", wf + " has shape " + Arrays.toString(ws) + "; expected (" + nt + ",) or ("
                        + shots + ", " + nt + ") for nt=" + nt + " and " + shots + " shots");
            }
            float[] w = a.asFloat32();
            ProblemOptions.checkFiniteWavelet(w, ws.length == 2 ? nt : 0, where("wavelet") + ": " + wf);
            return w;
        }
        double f = number("ricker", 5);
        ProblemOptions.checkRicker(f, spec.dt(), where("ricker"));
        return Wavelets.ricker(f, nt, spec.dt());
    }

    /** The observed data: read (shape and finiteness checked), or null to be modelled from the true model. */
    private float[] observed(Models m, PropSpec spec, Shots a) {
        Path obsFile = m.obsFile();
        int shots = a.count();
        int nt = spec.nt();
        int nrec = a.receiversPerShot();
        int nf = spec.nfield();
        if (obsFile == null) {
            if (m.trueModel() == null) {
                throw error("observed", "no observed data and no true model to model them from");
            }
            return null;
        }
        Npy.Array o = Npy.readFloat32(obsFile, where("observed"));
        int[] os = o.shape();
        boolean ok = ((os.length == 3 && nf == 1) || (os.length == 4 && os[3] == nf)) && os[0] == shots
                && os[1] == nt && os[2] == nrec;
        if (!ok) {
            throw error("observed", obsFile + " has shape " + Arrays.toString(os) + "; expected (" + shots + ", "
                    + nt + ", " + nrec + ", " + nf + ")" + (nf == 1 ? " or (" + shots + ", " + nt + ", " + nrec + ")"
                    : " (the fields of 'record')") + ": B from 'sources', nt from the time axis, nrec from"
                    + " 'receivers'");
        }
        float[] data = o.asFloat32();
        ProblemOptions.checkFiniteRecord(data, nt, nrec, ProblemOptions.fieldLabels(spec), obsFile,
                where("observed"));
        return data;
    }

    /** The bands and the optimiser's settings (supershots, filter, seed, step, memory). */
    private Inversion.Options inversion(Models m, PropSpec spec, Shots shots) {
        List<Inversion.Band> bands = bands(integer("iterations", 10), 0.5 / spec.dt());
        int supershots = integer("supershots", 0);
        if (supershots < 0 || (supershots > 0 && shots.count() % supershots != 0)) {
            throw error("supershots", "must be 0 (off) or divide the " + shots.count() + " shots, got "
                    + supershots);
        }
        if (supershots > 0) {
            try {
                EncodedObjective.check(shots.sources(), shots.receivers(), supershots);
            } catch (IllegalArgumentException e) {
                throw error("supershots", e.getMessage());
            }
        }
        int filterOrder = integer("filter_order", 4);
        if (filterOrder < 1 || filterOrder > 16) {
            throw error("filter_order", "must be 1..16, got " + filterOrder);
        }
        long seed = has("seed") ? integer(given.get("seed"), "seed", "", Long.MIN_VALUE, Long.MAX_VALUE) : 1;
        WaveEquation eq = m.equation();
        double maxUpdate = number("max_update", eq.parameters().get(0).fwiMaxUpdate());
        int memory = integer("memory", 5);
        if (memory < 1) {
            throw error("memory", "must be >= 1, got " + memory);
        }
        List<String> invert = invert(eq);
        List<Fwi.Parameter> params = new ArrayList<>();
        params.add(parameter(eq.parameters().get(0), m.vmin(), m.vmax(), maxUpdate, invert, "max_update"));
        for (int k = 1; k < eq.parameterCount(); k++) {
            Parameter q = eq.parameters().get(k);
            String[] keys = boundKeys(q.name());
            double max = number(keys[1], q.fwiMax());
            params.add(parameter(q, number(keys[0], q.fwiMin()), max, number(keys[2], q.fwiMaxUpdate()), invert,
                    keys[2]));
        }
        Fwi.Settings settings = new Fwi.Settings(eq, 0, params, memory);
        return new Inversion.Options(bands, supershots, seed, filterOrder, settings, estimatesWavelet(),
                preconditionEpsilon());
    }

    /** The parameters to invert (key 'invert'): a list of names of the equation's parameters, or one string. */
    List<String> invert(WaveEquation eq) {
        List<String> names = eq.parameterNames();
        JsonElement e = given.get("invert");
        if (e == null) {
            return eq.defaultInversion();
        }
        List<String> out = new ArrayList<>();
        List<JsonElement> items = new ArrayList<>();
        if (e.isJsonArray()) {
            e.getAsJsonArray().forEach(items::add);
        } else if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()) {
            for (String p : e.getAsString().split(",")) {
                items.add(new JsonPrimitive(p.trim()));
            }
        } else {
            throw error("invert", "must be a list of parameter names, e.g. [\"vp\", \"vs\"], got " + e);
        }
        for (JsonElement item : items) {
            String p = item.isJsonPrimitive() && item.getAsJsonPrimitive().isString()
                    ? item.getAsString().trim().toLowerCase(Locale.ROOT) : null;
            if (p == null || !names.contains(p)) {
                throw error("invert", "unknown parameter " + item + " for the " + eq.name().toLowerCase(Locale.ROOT)
                        + " equation (known: " + String.join(", ", names) + ")");
            }
            if (out.contains(p)) {
                throw error("invert", "names " + p + " twice");
            }
            out.add(p);
        }
        if (out.isEmpty()) {
            throw error("invert", "names no parameter: invert at least one of " + names);
        }
        return out;
    }

    /**
     * One parameter's bounds and step, the error naming {@code stepKey} or the bounds' keys: the bounds lie in the
     * parameter's allowed values (at or above 0 for a positive one, above its lowest value for a signed one).
     */
    private Fwi.Parameter parameter(Parameter q, double min, double max, double maxUpdate, List<String> invert,
                                    String stepKey) {
        String name = q.name();
        String lo = boundKeys(name)[0];
        String hi = boundKeys(name)[1];
        double floor = Math.max(q.lowest(), 0);
        boolean low = q.lowest() < 0 ? min > q.lowest() : min >= floor;
        if (!(low && max > min && max < q.highest())) {
            String range = q.lowest() < 0 ? q.lowest() + " < " : "0 <= ";
            throw error(has(lo) ? lo : hi, "bounds need " + range + lo + " < " + hi
                    + (q.highest() < Double.POSITIVE_INFINITY ? " < " + q.highest() : "") + ", got [" + min + ", "
                    + max + "]");
        }
        if (!(maxUpdate > 0)) {
            throw error(stepKey, "must be positive, got " + maxUpdate);
        }
        return new Fwi.Parameter(name, min, max, maxUpdate, invert.contains(name));
    }

    private double[] spacing(boolean builtin) {
        double[] d = numbers("dh");
        if (d == null) {
            if (!builtin) {
                throw new IllegalArgumentException("dh: the grid spacing is required with model files (job-file key"
                        + " 'dh' or --dh)");
            }
            return new double[] {20};
        }
        for (double v : d) {
            if (!(v > 0) || Double.isInfinite(v)) {
                throw error("dh", "spacings must be positive, got " + given.get("dh"));
            }
        }
        return d;
    }

    /** The number or array of numbers of {@code key}, or null when the job does not give it. */
    private double[] numbers(String key) {
        JsonElement e = given.get(key);
        if (e == null) {
            return null;
        }
        if (!e.isJsonArray()) {
            return new double[] {number(key, 0)};
        }
        JsonArray a = e.getAsJsonArray();
        double[] d = new double[a.size()];
        for (int i = 0; i < d.length; i++) {
            JsonElement v = a.get(i);
            if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
                throw error(key, "must hold numbers, got " + e);
            }
            d[i] = v.getAsDouble();
        }
        return d;
    }

    /** Cells of the source taper's default radius on a model file (none on a built-in model). */
    static final int SOURCE_TAPER_CELLS = 5;

    /** The default of key source_taper: 0 on a built-in model, {@link #SOURCE_TAPER_CELLS} cells of x on a file. */
    private static double defaultSourceTaper(Models m) {
        return m.builtin() ? 0 : SOURCE_TAPER_CELLS * m.dh()[m.dh().length - 1];
    }

    /**
     * What is done to the gradient before the optimiser sees it: the keys smooth_gradient (one length or one per
     * axis), source_taper and gradient_mask, with the muted rows.
     */
    private Function<ModelTile, GradientConditioner> conditioner(Models m, Shots shots) {
        int[] shape = m.shape();
        int ndim = shape.length;
        double[] smooth = null;
        double[] lengths = numbers("smooth_gradient");
        if (lengths != null) {
            if (lengths.length != 1 && lengths.length != ndim) {
                throw error("smooth_gradient", "needs one length or " + ndim + " (one per axis in model order), got "
                        + Arrays.toString(lengths));
            }
            smooth = new double[ndim];
            for (int a = 0; a < ndim; a++) {
                smooth[a] = lengths.length == 1 ? lengths[0] : lengths[a];
                if (!(smooth[a] >= 0) || Double.isInfinite(smooth[a])) {
                    throw error("smooth_gradient", "lengths must be >= 0 metres and finite, got "
                            + Arrays.toString(lengths));
                }
            }
        }
        double taper = number("source_taper", defaultSourceTaper(m));
        if (!(taper >= 0) || Double.isInfinite(taper)) {
            throw error("source_taper", "must be >= 0 metres and finite, got " + taper);
        }
        Path f = file("gradient_mask");
        if (f != null) {
            int[] s = ModelFiles.shape(f, where("gradient_mask"));
            if (!Arrays.equals(s, shape)) {
                throw error("gradient_mask", f + " has shape " + Arrays.toString(s) + " but the model is "
                        + Arrays.toString(shape));
            }
        }
        double[] smoothing = smooth;
        return t -> {
            float[] mask = f == null ? null : t.read(f, where("gradient_mask"));
            for (int i = 0; mask != null && i < mask.length; i++) {
                if (!(mask[i] >= 0 && mask[i] <= 1)) {
                    throw error("gradient_mask", f + ": " + mask[i] + " at " + Cells.position(shape, t.globalIndex(i),
                            null) + " lies outside [0, 1]");
                }
            }
            return GradientConditioner.of(shape, m.dh(), m.muteRows(), smoothing, taper, shots.sources(), mask, t);
        };
    }

    private List<Inversion.Band> bands(int iterations, double nyquist) {
        if (iterations < 0) {
            throw error("iterations", "must be >= 0, got " + iterations);
        }
        JsonElement e = given.get("bands");
        List<Inversion.Band> out = new ArrayList<>();
        if (e == null) {
            out.add(new Inversion.Band(0, iterations));
            return out;
        }
        if (!e.isJsonArray() || e.getAsJsonArray().isEmpty()) {
            throw error("bands", "must be a non-empty list of corner frequencies in Hz or of {cutoff, iterations}");
        }
        double last = 0;
        for (JsonElement b : e.getAsJsonArray()) {
            double cutoff;
            int it = iterations;
            if (b.isJsonPrimitive() && b.getAsJsonPrimitive().isNumber()) {
                cutoff = b.getAsDouble();
            } else if (b.isJsonObject() && b.getAsJsonObject().has("cutoff")) {
                JsonObject o = b.getAsJsonObject();
                for (String f : o.keySet()) {
                    if (!f.equals("cutoff") && !f.equals("iterations")) {
                        throw error("bands", "unknown field '" + f + "' in " + b + " (known: cutoff, iterations)");
                    }
                }
                cutoff = number(o.get("cutoff"), "bands", "cutoff ");
                if (o.has("iterations") && !flags.contains("iterations")) { // --iterations wins over the job file
                    it = (int) integer(o.get("iterations"), "bands", "iterations ", 0, Integer.MAX_VALUE);
                }
            } else {
                throw error("bands", "entries must be numbers (Hz) or {\"cutoff\": Hz, \"iterations\": n}, got " + b);
            }
            if (!(cutoff >= 0) || cutoff >= nyquist) {
                throw error("bands", "corner " + cutoff + " Hz must lie in [0, " + nyquist + ") Hz (the Nyquist"
                        + " frequency of dt); 0 means unfiltered");
            }
            double eff = cutoff == 0 ? Double.POSITIVE_INFINITY : cutoff;
            if (eff < last) {
                throw error("bands", "must run from low to high frequency (0 = unfiltered goes last), got " + e);
            }
            last = eff;
            out.add(new Inversion.Band(cutoff, it));
        }
        return out;
    }
}
