package sweep.fwi;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;
import sweep.io.AtomicFiles;
import sweep.io.InputFiles;
import sweep.io.IoErrors;

/**
 * Full-waveform inversion by L-BFGS with a backtracking (Armijo) line search and bounds. The model may hold several
 * parameters one after the other (acoustic: vp; elastic: vp, vs, rho); each has its bounds, its steepest-descent step
 * size and may be held fixed (not inverted). Every trial model is projected onto the bounds and then onto the models
 * the equation accepts ({@link WaveEquation#projectFeasible}; elastic: 0 &lt;= vs &lt;= 0.865·vp with the fluid
 * cells of the starting model kept at vs = 0). After each
 * iteration the whole optimiser state can be checkpointed, so a resumed run continues exactly as an uninterrupted one
 * would.
 *
 * <p>Parameters of different units and sensitivities are balanced by a per-parameter scaling: a steepest-descent step
 * moves each inverted parameter by at most its own {@link Parameter#maxUpdate()} (each parameter's gradient scaled by
 * its own largest value), and the L-BFGS recursion that follows starts from the same diagonal (one value per
 * parameter) instead of the identity, so it keeps that balance (see {@link Lbfgs#direction(double[], double[], int)}).
 */
public final class Fwi {
    /**
     * One parameter of the model vector: its name (vp, vs, rho), bounds, the largest change of a steepest-descent
     * step (in its own unit) and whether it is inverted (false: it keeps its starting values, its gradient is not
     * applied).
     */
    public record Parameter(String name, double min, double max, double maxUpdate, boolean inverted) {
        public Parameter {
            // the equation's allowed values (positive, or above a signed parameter's lowest) are the job's check
            if (!(max > min) || Double.isInfinite(min) || Double.isInfinite(max)) {
                throw new IllegalArgumentException(name + " bounds need min < max (finite), got [" + min + ", "
                        + max + "]");
            }
            if (!(maxUpdate > 0) || Double.isInfinite(maxUpdate)) {
                throw new IllegalArgumentException("maxUpdate of " + name + " must be positive, got " + maxUpdate);
            }
        }
    }

    /**
     * Inversion settings: the equation, iterations, the model's parameters in the equation's order (one
     * {@link Parameter} per block of the model vector), L-BFGS memory.
     */
    public record Settings(WaveEquation equation, int iterations, List<Parameter> parameters, int memory) {
        public Settings {
            if (iterations < 0) {
                throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
            }
            if (parameters == null || parameters.isEmpty()) {
                throw new IllegalArgumentException("an inversion needs at least one parameter");
            }
            parameters = List.copyOf(parameters);
            if (parameters.stream().noneMatch(Parameter::inverted)) {
                throw new IllegalArgumentException("no parameter is inverted: invert at least one of "
                        + parameters.stream().map(Parameter::name).toList());
            }
            if (memory < 1) {
                throw new IllegalArgumentException("L-BFGS memory must be >= 1, got " + memory);
            }
            List<String> names = parameters.stream().map(Parameter::name).toList();
            if (!names.equals(equation.parameterNames())) {
                throw new IllegalArgumentException("a model of the " + equation.name() + " equation holds "
                        + equation.parameterNames() + " in that order, got " + names);
            }
            if (!(parameters.get(0).min() > 0)) {
                throw new IllegalArgumentException(names.get(0) + " bounds need 0 < min < max, got ["
                        + parameters.get(0).min() + ", " + parameters.get(0).max() + "]");
            }
        }

        /**
         * An acoustic inversion: one inverted parameter vp in [vmin, vmax], steepest-descent steps of at most
         * {@code maxUpdate} m/s.
         */
        public Settings(int iterations, double vmin, double vmax, double maxUpdate, int memory) {
            this(Equations.named("acoustic"), iterations, List.of(velocity(vmin, vmax, maxUpdate)), memory);
        }

        private static Parameter velocity(double vmin, double vmax, double maxUpdate) {
            if (!(vmin > 0 && vmax > vmin)) {
                throw new IllegalArgumentException("velocity bounds need 0 < vmin < vmax, got [" + vmin + ", " + vmax
                        + "]");
            }
            if (!(maxUpdate > 0)) {
                throw new IllegalArgumentException("maxUpdate must be positive, got " + maxUpdate);
            }
            return new Parameter("vp", vmin, vmax, maxUpdate, true);
        }

        /**
         * A hash of the iterations, parameters and memory, the same in every JVM (checkpoints hold it; the equation
         * is identified by the spec's fingerprint) and the same as before the settings named their equation.
         */
        @Override
        public int hashCode() {
            return (iterations * 31 + parameters.hashCode()) * 31 + memory;
        }

        /** Equal settings: the same equation (by name), iterations, parameters and memory. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Settings s && s.equation.name().equals(equation.name()) && s.iterations == iterations
                    && s.parameters.equals(parameters) && s.memory == memory;
        }

        /** The same settings with another iteration count. */
        public Settings withIterations(int n) {
            return new Settings(equation, n, parameters, memory);
        }

        /** The number of parameters (blocks of the model vector). */
        public int count() {
            return parameters.size();
        }
    }

    /** One finished iteration: misfit after it, accepted step length, objective evaluations, wall seconds. */
    public record Iteration(int index, double misfit, double step, int evaluations, double seconds) {
    }

    /** The state after some iterations: model, misfit and gradient there, optimiser history, iteration records. */
    public static final class State {
        float[] model;
        float[] grad;
        double misfit;
        double initialMisfit;
        final Lbfgs lbfgs;
        final List<Iteration> history = new ArrayList<>();
        /**
         * The per-parameter diagonal of the current L-BFGS episode, relative to the first parameter that moves (set
         * by each steepest-descent step; see {@link Lbfgs#direction(double[], double[], int)}).
         */
        double[] scale;

        State(float[] model, int memory) {
            this(model, memory, 1);
        }

        State(float[] model, int memory, int parameters) {
            this(model, memory, parameters, Lbfgs.InnerProduct.SEQUENTIAL);
        }

        State(float[] model, int memory, int parameters, Lbfgs.InnerProduct inner) {
            this.model = model.clone();
            this.grad = new float[model.length];
            this.lbfgs = new Lbfgs(memory, inner);
            this.scale = new double[parameters];
            Arrays.fill(scale, 1.0);
        }

        public float[] model() {
            return model.clone();
        }

        public float[] gradient() {
            return grad.clone();
        }

        public double misfit() {
            return misfit;
        }

        /** Misfit of the starting model. */
        public double initialMisfit() {
            return initialMisfit;
        }

        public List<Iteration> history() {
            return List.copyOf(history);
        }
    }

    private Fwi() {
    }

    /**
     * Where the state is checkpointed after each iteration: {@code write} is false on all MPI ranks but one (every
     * rank reads it on {@code resume}). {@code job} identifies what is inverted (settings, data); resuming from a
     * checkpoint written for another job is an error.
     */
    public record Checkpoint(Path file, boolean resume, boolean write, long job) {
        /** A checkpoint of an unnamed job (job id 0). */
        public Checkpoint(Path file, boolean resume, boolean write) {
            this(file, resume, write, 0L);
        }
    }

    /**
     * Runs the inversion from {@code start} (or from the checkpoint when it exists and resuming was asked for), calling
     * {@code onIteration} after each iteration; {@code checkpoint} may be null. {@code start} is the objective's
     * {@link Objective#tile()} of the starting model (the whole model on one domain), the settings' parameters one
     * after the other; the elastic fluid cells are those of vs = 0 in {@code start}. The state's arrays are of that
     * tile too. Collective under MPI; every sum runs in an order independent of the tiling ({@link ModelTile}).
     */
    public static State run(Objective objective, float[] start, Settings s, Checkpoint checkpoint,
                            Consumer<Iteration> onIteration) {
        return run(objective, start, s, checkpoint, null, onIteration);
    }

    /**
     * As {@link #run(Objective, float[], Settings, Checkpoint, Consumer)}, calling {@code onStart} (may be null) with
     * the misfit of the starting model once it is known (evaluated, or read from the checkpoint) and before the first
     * iteration.
     */
    public static State run(Objective objective, float[] start, Settings s, Checkpoint checkpoint,
                            DoubleConsumer onStart, Consumer<Iteration> onIteration) {
        int count = s.count();
        ModelTile tile = objective.tile();
        if (start.length % count != 0 || tile.parameters() != count || start.length != tile.length()) {
            throw new IllegalArgumentException("the model holds " + start.length + " values, not " + count
                    + " parameters " + s.parameters().stream().map(Parameter::name).toList() + " of "
                    + tile.cells() + " cells each");
        }
        int cells = start.length / count;
        State st = null;
        int evaluatedFor = -1; // the iteration whose objective st.misfit and st.grad belong to
        long startId = tile.fingerprint(start);
        if (checkpoint != null && checkpoint.resume() && Files.exists(checkpoint.file())) {
            // null: the checkpoint began from another starting model (an earlier band has since run further): the
            // inversion starts afresh from this one and overwrites it
            st = load(checkpoint.file(), s.memory(), tile, checkpoint.job(), startId);
            if (st != null) {
                checkIterations(checkpoint.file(), st.history.size(), s.iterations());
            }
        }
        if (st == null) {
            st = new State(project(toDouble(start), start, start, s, cells), s.memory(), count, tile);
            objective.beginIteration(1);
            st.misfit = objective.evaluate(st.model, st.grad);
            freeze(st.grad, s, cells);
            st.initialMisfit = st.misfit;
            evaluatedFor = 1;
        }
        if (onStart != null) {
            onStart.accept(st.initialMisfit);
        }
        while (st.history.size() < s.iterations()) {
            long t0 = System.nanoTime();
            int evals = 0;
            int index = st.history.size() + 1;
            if (index != evaluatedFor && objective.beginIteration(index)) {
                st.misfit = objective.evaluate(st.model, st.grad);
                freeze(st.grad, s, cells);
                evals++;
            }
            evaluatedFor = -1;
            double[] g = toDouble(st.grad);
            double[] d = st.lbfgs.direction(g, st.scale, cells);
            if (d == null || st.lbfgs.dot(g, d) >= 0) {
                st.lbfgs.reset();
                d = steepest(g, s, cells, st, tile);
            }
            double step = 0;
            float[] trial = null;
            float[] tgrad = new float[st.model.length];
            double tmis = Double.NaN;
            for (int attempt = 0; attempt < 2 && trial == null; attempt++) {
                double t = 1;
                for (int k = 0; k < 8; k++, t *= 0.5) {
                    double[] xt = new double[st.model.length];
                    for (int i = 0; i < xt.length; i++) {
                        xt[i] = st.model[i] + t * d[i];
                    }
                    float[] x = project(xt, st.model, start, s, cells);
                    double[] moved = new double[x.length];
                    for (int i = 0; i < x.length; i++) {
                        moved[i] = (double) x[i] - st.model[i];
                    }
                    double decrease = st.lbfgs.dot(g, moved);
                    double f = objective.evaluate(x, tgrad);
                    freeze(tgrad, s, cells);
                    evals++;
                    if (f <= st.misfit + 1e-4 * decrease && f < st.misfit) {
                        trial = x;
                        tmis = f;
                        step = t;
                        break;
                    }
                }
                if (trial == null) {
                    if (st.lbfgs.size() == 0) {
                        break;
                    }
                    st.lbfgs.reset();
                    d = steepest(g, s, cells, st, tile);
                }
            }
            if (trial == null) {
                // no descent found along the steepest direction either: the inversion has converged here
                st.history.add(new Iteration(index, st.misfit, 0, evals, (System.nanoTime() - t0) * 1e-9));
            } else {
                double[] sv = new double[trial.length];
                double[] yv = new double[trial.length];
                for (int i = 0; i < sv.length; i++) {
                    sv[i] = (double) trial[i] - st.model[i];
                    yv[i] = (double) tgrad[i] - st.grad[i];
                }
                st.lbfgs.update(sv, yv);
                st.model = trial;
                st.grad = tgrad;
                st.misfit = tmis;
                st.history.add(new Iteration(index, tmis, step, evals, (System.nanoTime() - t0) * 1e-9));
            }
            if (checkpoint != null && (checkpoint.write() || !tile.isWhole())) {
                save(st, checkpoint.file(), checkpoint.job(), startId, tile, checkpoint.write());
            }
            if (onIteration != null) {
                onIteration.accept(st.history.get(st.history.size() - 1));
            }
        }
        return st;
    }

    /**
     * The steepest-descent direction scaled per parameter: parameter k moves by at most its maxUpdate
     * (−g·maxUpdate/max|g| over its cells; 0 for a parameter not inverted or whose gradient vanishes). Sets the
     * state's L-BFGS diagonal to these factors relative to the first parameter that moves.
     */
    private static double[] steepest(double[] g, Settings s, int cells, State st, ModelTile tile) {
        int count = s.count();
        double[] factor = new double[count];
        double ref = 0;
        for (int k = 0; k < count; k++) {
            Parameter p = s.parameters().get(k);
            double m = tile.maxAbs(g, k);
            factor[k] = p.inverted() && m > 0 ? p.maxUpdate() / m : 0;
            if (ref == 0) {
                ref = factor[k];
            }
        }
        double[] d = new double[g.length];
        for (int k = 0; k < count; k++) {
            double f = factor[k];
            for (int i = k * cells; i < (k + 1) * cells; i++) {
                d[i] = f == 0 ? 0 : -g[i] * f;
            }
            st.scale[k] = ref == 0 ? 1 : f / ref;
        }
        return d;
    }

    /** Zeroes the gradient of the parameters that are not inverted. */
    private static void freeze(float[] grad, Settings s, int cells) {
        for (int k = 0; k < s.count(); k++) {
            if (!s.parameters().get(k).inverted()) {
                Arrays.fill(grad, k * cells, (k + 1) * cells, 0f);
            }
        }
    }

    /**
     * {@code x} projected onto the feasible models: each inverted parameter clipped to its bounds, a parameter not
     * inverted taken from {@code fixed}, then the equation's own rules ({@link WaveEquation#projectFeasible}, with the
     * starting model {@code start} as the reference, e.g. of elastic fluid cells).
     */
    static float[] project(double[] x, float[] fixed, float[] start, Settings s, int cells) {
        float[] o = new float[x.length];
        int n = s.count();
        boolean[] inverted = new boolean[n];
        double[] min = new double[n];
        double[] max = new double[n];
        for (int k = 0; k < n; k++) {
            Parameter p = s.parameters().get(k);
            inverted[k] = p.inverted();
            min[k] = p.min();
            max[k] = p.max();
            for (int i = k * cells; i < (k + 1) * cells; i++) {
                o[i] = p.inverted() ? (float) Math.min(p.max(), Math.max(p.min(), x[i])) : fixed[i];
            }
        }
        s.equation().projectFeasible(o, start, inverted, min, max, cells);
        return o;
    }

    private static double[] toDouble(float[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }

    /** Magic number of the checkpoints before checksums ("SWF2"), recognised to say so. */
    private static final int MAGIC_UNCHECKED = 0x53574632;
    /** Magic number of checkpoints with a checksum but one parameter only ("SWF3"), recognised to say so. */
    private static final int MAGIC_ONE_PARAMETER = 0x53574633;
    /**
     * Magic number of checkpoints whose model fingerprints were a hash in cell order ("SWF4"), recognised to say so
     * (their bands' starting models could not be recognised any more).
     */
    private static final int MAGIC_ORDERED_FINGERPRINT = 0x53574634;
    /**
     * Magic number of checkpoints with a trailing payload length and CRC32C, the per-parameter L-BFGS diagonal and
     * model fingerprints that do not depend on the tiling ({@link ModelTile#fingerprint}) ("SWF5").
     */
    private static final int MAGIC = 0x53574635;
    /** Magic, then after the payload its length (long) and CRC32C (int). */
    private static final int FRAME = 4 + 8 + 4;

    /** A 64-bit fingerprint of a whole model ({@link ModelTile#fingerprint}: the same for every tiling of it). */
    static long fingerprint(float[] v) {
        return ModelTile.fingerprintOfWhole(v);
    }

    /**
     * Writes the state atomically (see {@link AtomicFiles}): a magic number, the payload (job, fingerprint of the
     * band's starting model, optimiser state, its arrays as global arrays), then the payload's length and its CRC32C,
     * so that a truncated or corrupted file is recognised as such on reading. Under MPI every rank of the tiles calls
     * it (each array is gathered in turn: no rank holds more than one global array at a time); only where
     * {@code write} (the tiles' root) is the file written.
     */
    static void save(State st, Path file, long job, long startId, ModelTile tile, boolean write) {
        if (!write) {
            try {
                writePayload(null, st, job, startId, tile);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        if (!tile.isRoot()) {
            throw new IllegalStateException("an FWI checkpoint is written by the root of the tiles");
        }
        AtomicFiles.writeStream(file, "FWI checkpoint", raw -> {
            DataOutputStream head = new DataOutputStream(raw);
            head.writeInt(MAGIC);
            head.flush();
            CheckedOutputStream checked = new CheckedOutputStream(raw, new CRC32C());
            DataOutputStream out = new DataOutputStream(checked);
            writePayload(out, st, job, startId, tile);
            out.flush();
            long n = (long) tile.parameters() * tile.globalCells();
            head.writeLong(8 + 8 + 4 + 8 * n + 16 + 4 + 32L * st.history.size() + 4 + st.lbfgs.size() * (16 * n + 8)
                    + 4 + 8L * st.scale.length);
            head.writeInt((int) checked.getChecksum().getValue());
            head.flush();
        });
    }

    /** The payload of a checkpoint to {@code out} (null: only this rank's part of the gathers). */
    private static void writePayload(DataOutputStream out, State st, long job, long startId, ModelTile tile)
            throws IOException {
        long n = (long) tile.parameters() * tile.globalCells();
        if (out != null) {
            out.writeLong(job);
            out.writeLong(startId);
            out.writeInt(Math.toIntExact(n));
        }
        tile.write(out, st.model);
        tile.write(out, st.grad);
        if (out != null) {
            out.writeDouble(st.misfit);
            out.writeDouble(st.initialMisfit);
            out.writeInt(st.history.size());
            for (Iteration it : st.history) {
                out.writeInt(it.index());
                out.writeDouble(it.misfit());
                out.writeDouble(it.step());
                out.writeInt(it.evaluations());
                out.writeDouble(it.seconds());
            }
            out.writeInt(st.lbfgs.size());
        }
        for (Lbfgs.Pair p : st.lbfgs.pairs()) {
            tile.write(out, p.s());
            tile.write(out, p.y());
            if (out != null) {
                out.writeDouble(p.rho());
            }
        }
        if (out != null) {
            out.writeInt(st.scale.length);
            for (double v : st.scale) {
                out.writeDouble(v);
            }
        }
    }

    /**
     * Reads a checkpoint written by {@link #save}, this tile's part of its arrays; null when it began from another
     * starting model than {@code startId} (stale: an earlier band has changed since). A file of another job, an older
     * format, or one that is truncated or corrupted (length or CRC32C not matching) is an
     * {@link IllegalArgumentException} naming it.
     */
    static State load(Path file, int memory, ModelTile tile, long job, long startId) {
        verify(file);
        try (DataInputStream in = open(file, 4)) {
            return readPayload(in, file, memory, tile, job, startId);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + IoErrors.reason(file, e), e);
        }
    }

    /** What a checkpoint holds, for checks made before a run: its band's starting model, iterations, its model. */
    public record Summary(long startId, int iterations, long modelId) {
    }

    /**
     * Checks a checkpoint as {@link #load} does (format, length and CRC32C, job, cells and parameters; the same
     * messages) and returns what it holds, reading its arrays without keeping them: the fingerprints of its band's
     * starting model and of its model (see {@link #fingerprint}) and its iteration count.
     */
    public static Summary inspect(Path file, int cells, int parameters, long job) {
        verify(file);
        try (DataInputStream in = open(file, 4)) {
            requireJob(in.readLong(), job, file);
            long startId = in.readLong();
            int n = in.readInt();
            requireCells(n, cells, file);
            long h = 0;
            for (int i = 0; i < n; i++) {
                h ^= ModelTile.cellHash(i, in.readInt());
            }
            in.skipNBytes(4L * n + 16); // gradient, misfit, initial misfit
            int iterations = in.readInt();
            in.skipNBytes(32L * iterations);
            in.skipNBytes(in.readInt() * (16L * n + 8)); // the L-BFGS pairs
            requireParameters(in.readInt(), parameters, file);
            return new Summary(startId, iterations, h);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + IoErrors.reason(file, e), e);
        }
    }

    /** Refuses a checkpoint {@code file} holding {@code held} iterations when a run asks for fewer. */
    public static void checkIterations(Path file, int held, int asked) {
        if (held > asked) {
            throw new IllegalArgumentException("checkpoint " + file + " already holds " + held + " iterations, more"
                    + " than the " + asked + " this run asks for: resume with at least " + held + " iterations, or"
                    + " start afresh without --resume");
        }
    }

    /**
     * Checks a checkpoint's frame: the magic number of this version, and a payload whose length and CRC32C match its
     * trailer; an {@link IllegalArgumentException} naming the file otherwise.
     */
    private static void verify(Path file) {
        String fresh = ": start afresh without --resume (or delete " + file + ")";
        InputFiles.requireRegular(file, "checkpoint");
        try {
            long size = Files.size(file);
            long payload = size - FRAME;
            try (DataInputStream in = open(file, 0)) {
                int magic = size >= 4 ? in.readInt() : 0;
                if (magic == MAGIC_UNCHECKED || magic == MAGIC_ONE_PARAMETER || magic == MAGIC_ORDERED_FINGERPRINT) {
                    throw new IllegalArgumentException("checkpoint " + file + " was written by an earlier version of"
                            + " sweep (" + (magic == MAGIC_UNCHECKED ? "without a checksum" : magic
                            == MAGIC_ONE_PARAMETER ? "one parameter only" : "model fingerprints in cell order")
                            + ")" + fresh);
                }
                if (magic != MAGIC) {
                    throw new IllegalArgumentException("checkpoint " + file + " is not an FWI checkpoint of this"
                            + " program" + (size < 4 ? " (" + size + " bytes: truncated?)" : "") + fresh);
                }
            }
            long storedLength = -1;
            int storedCrc = 0;
            if (payload >= 0) {
                try (DataInputStream in = open(file, size - 12)) {
                    storedLength = in.readLong();
                    storedCrc = in.readInt();
                }
            }
            if (payload < 0 || storedLength != payload) {
                throw new IllegalArgumentException("checkpoint " + file + " is incomplete or damaged (" + size
                        + " bytes, which its trailer does not account for: truncated?)" + fresh);
            }
            CRC32C crc = new CRC32C();
            try (CheckedInputStream in = new CheckedInputStream(open(file, 4), crc)) {
                byte[] buf = new byte[1 << 16];
                for (long left = payload; left > 0; ) {
                    int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (n < 0) {
                        throw new EOFException();
                    }
                    left -= n;
                }
            }
            if ((int) crc.getValue() != storedCrc) {
                throw new IllegalArgumentException("checkpoint " + file + " is corrupted (its CRC32C checksum does not"
                        + " match its content)" + fresh);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + IoErrors.reason(file, e), e);
        }
    }

    private static DataInputStream open(Path file, long offset) throws IOException {
        InputStream raw = Files.newInputStream(file);
        raw.skipNBytes(offset);
        return new DataInputStream(new BufferedInputStream(raw, 1 << 16));
    }

    private static State readPayload(DataInputStream in, Path file, int memory, ModelTile tile, long job,
                                     long startId) throws IOException {
        requireJob(in.readLong(), job, file);
        if (in.readLong() != startId) {
            return null;
        }
        int n = in.readInt();
        int parameters = tile.parameters();
        requireCells(n, Math.toIntExact(parameters * tile.globalCells()), file);
        State st = new State(tile.readFloats(in, parameters), memory, parameters, tile);
        st.grad = tile.readFloats(in, parameters);
        st.misfit = in.readDouble();
        st.initialMisfit = in.readDouble();
        int h = in.readInt();
        for (int i = 0; i < h; i++) {
            st.history.add(new Iteration(in.readInt(), in.readDouble(), in.readDouble(), in.readInt(),
                    in.readDouble()));
        }
        int pairs = in.readInt();
        for (int k = 0; k < pairs; k++) {
            double[] sv = tile.readDoubles(in, parameters);
            double[] yv = tile.readDoubles(in, parameters);
            st.lbfgs.restore(new Lbfgs.Pair(sv, yv, in.readDouble()));
        }
        int k = in.readInt();
        requireParameters(k, parameters, file);
        for (int i = 0; i < k; i++) {
            st.scale[i] = in.readDouble();
        }
        return st;
    }

    private static void requireJob(long got, long job, Path file) {
        if (got != job) {
            throw new IllegalArgumentException("checkpoint " + file + " was written by a different job (other"
                    + " options or data): resume with the same job, or start afresh without --resume");
        }
    }

    private static void requireCells(int n, int cells, Path file) {
        if (n != cells) {
            throw new IllegalArgumentException("checkpoint " + file + " holds a model of " + n + " cells; this run's"
                    + " model has " + cells + ": resume with the same job, or start afresh without --resume");
        }
    }

    private static void requireParameters(int k, int parameters, Path file) {
        if (k != parameters) {
            throw new IllegalArgumentException("checkpoint " + file + " holds " + k + " parameters; this run's model"
                    + " has " + parameters + ": resume with the same job, or start afresh without --resume");
        }
    }
}
