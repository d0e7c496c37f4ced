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
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import sweep.io.AtomicFiles;
import sweep.io.IoErrors;

/**
 * Full-waveform inversion by L-BFGS with a backtracking (Armijo) line search and velocity bounds (each trial model is
 * clipped to [vmin, vmax]). After each iteration the whole optimiser state can be checkpointed, so a resumed run
 * continues exactly as an uninterrupted one would.
 */
public final class Fwi {
    /** Inversion settings. {@code maxUpdate}: the largest velocity change (m/s) of a steepest-descent step. */
    public record Settings(int iterations, double vmin, double vmax, double maxUpdate, int memory) {
        public Settings {
            if (iterations < 0) {
                throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
            }
            if (!(vmin > 0 && vmax > vmin)) {
                throw new IllegalArgumentException("velocity bounds need 0 < vmin < vmax, got [" + vmin + ", " + vmax + "]");
            }
            if (!(maxUpdate > 0)) {
                throw new IllegalArgumentException("maxUpdate must be positive, got " + maxUpdate);
            }
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

        State(float[] model, int memory) {
            this.model = model.clone();
            this.grad = new float[model.length];
            this.lbfgs = new Lbfgs(memory);
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

    /** Zeroes the gradient of the top {@code rows} rows (all x, all y) of a z-first model. */
    static void mute(float[] grad, int[] shape, int rows) {
        int plane = grad.length / shape[0];
        Arrays.fill(grad, 0, Math.min(rows, shape[0]) * plane, 0f);
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
     * {@code onIteration} after each iteration; {@code checkpoint} may be null.
     */
    public static State run(Objective objective, float[] start, Settings s, Checkpoint checkpoint,
                            Consumer<Iteration> onIteration) {
        State st = null;
        int evaluatedFor = -1; // the iteration whose objective st.misfit and st.grad belong to
        long startId = fingerprint(start);
        if (checkpoint != null && checkpoint.resume() && Files.exists(checkpoint.file())) {
            // null: the checkpoint began from another starting model (an earlier band has since run further): the
            // inversion starts afresh from this one and overwrites it
            st = load(checkpoint.file(), s.memory(), start.length, checkpoint.job(), startId);
            if (st != null && st.history.size() > s.iterations()) {
                throw new IllegalArgumentException("checkpoint " + checkpoint.file() + " already holds "
                        + st.history.size() + " iterations, more than the " + s.iterations() + " this run asks for:"
                        + " resume with at least " + st.history.size() + " iterations, or start afresh without"
                        + " --resume");
            }
        }
        if (st == null) {
            st = new State(clip(start, s), s.memory());
            objective.beginIteration(1);
            st.misfit = objective.evaluate(st.model, st.grad);
            st.initialMisfit = st.misfit;
            evaluatedFor = 1;
        }
        while (st.history.size() < s.iterations()) {
            long t0 = System.nanoTime();
            int evals = 0;
            int index = st.history.size() + 1;
            if (index != evaluatedFor && objective.beginIteration(index)) {
                st.misfit = objective.evaluate(st.model, st.grad);
                evals++;
            }
            evaluatedFor = -1;
            double[] g = toDouble(st.grad);
            double[] d = st.lbfgs.direction(g);
            if (d == null || Lbfgs.dot(g, d) >= 0) {
                st.lbfgs.reset();
                d = steepest(g, s.maxUpdate());
            }
            double step = 0;
            float[] trial = null;
            float[] tgrad = new float[st.model.length];
            double tmis = Double.NaN;
            for (int attempt = 0; attempt < 2 && trial == null; attempt++) {
                double t = 1;
                for (int k = 0; k < 8; k++, t *= 0.5) {
                    float[] x = new float[st.model.length];
                    double decrease = 0;
                    for (int i = 0; i < x.length; i++) {
                        x[i] = (float) Math.min(s.vmax(), Math.max(s.vmin(), st.model[i] + t * d[i]));
                        decrease += g[i] * ((double) x[i] - st.model[i]);
                    }
                    double f = objective.evaluate(x, tgrad);
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
                    d = steepest(g, s.maxUpdate());
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
            if (checkpoint != null && checkpoint.write()) {
                save(st, checkpoint.file(), checkpoint.job(), startId);
            }
            if (onIteration != null) {
                onIteration.accept(st.history.get(st.history.size() - 1));
            }
        }
        return st;
    }

    private static double[] steepest(double[] g, double maxUpdate) {
        double m = 0;
        for (double v : g) {
            m = Math.max(m, Math.abs(v));
        }
        double[] d = new double[g.length];
        if (m == 0) {
            return d;
        }
        for (int i = 0; i < g.length; i++) {
            d[i] = -g[i] * (maxUpdate / m);
        }
        return d;
    }

    private static float[] clip(float[] v, Settings s) {
        float[] o = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            o[i] = (float) Math.min(s.vmax(), Math.max(s.vmin(), v[i]));
        }
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
    /** Magic number of checkpoints with a trailing payload length and CRC32C ("SWF3"). */
    private static final int MAGIC = 0x53574633;
    /** Magic, then after the payload its length (long) and CRC32C (int). */
    private static final int FRAME = 4 + 8 + 4;

    /** A 64-bit fingerprint of a model (FNV-1a over the bits of its values). */
    static long fingerprint(float[] v) {
        long h = 0xcbf29ce484222325L;
        for (float x : v) {
            h = (h ^ Float.floatToRawIntBits(x)) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Writes the state atomically (see {@link AtomicFiles}): a magic number, the payload (job, fingerprint of the
     * band's starting model, optimiser state), then the payload's length and its CRC32C, so that a truncated or
     * corrupted file is recognised as such on reading.
     */
    static void save(State st, Path file, long job, long startId) {
        AtomicFiles.writeStream(file, "FWI checkpoint", raw -> {
            DataOutputStream head = new DataOutputStream(raw);
            head.writeInt(MAGIC);
            head.flush();
            CheckedOutputStream checked = new CheckedOutputStream(raw, new CRC32C());
            DataOutputStream out = new DataOutputStream(checked);
            out.writeLong(job);
            out.writeLong(startId);
            out.writeInt(st.model.length);
            for (float v : st.model) {
                out.writeFloat(v);
            }
            for (float v : st.grad) {
                out.writeFloat(v);
            }
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
            for (Lbfgs.Pair p : st.lbfgs.pairs()) {
                for (double v : p.s()) {
                    out.writeDouble(v);
                }
                for (double v : p.y()) {
                    out.writeDouble(v);
                }
                out.writeDouble(p.rho());
            }
            out.flush();
            long n = st.model.length;
            head.writeLong(8 + 8 + 4 + 8 * n + 16 + 4 + 32L * st.history.size() + 4 + st.lbfgs.size() * (16 * n + 8));
            head.writeInt((int) checked.getChecksum().getValue());
            head.flush();
        });
    }

    /**
     * Reads a checkpoint written by {@link #save}; null when it began from another starting model than
     * {@code startId} (stale: an earlier band has changed since). A file of another job, an older format, or one that
     * is truncated or corrupted (length or CRC32C not matching) is an {@link IllegalArgumentException} naming it.
     */
    static State load(Path file, int memory, int cells, long job, long startId) {
        String fresh = ": start afresh without --resume (or delete " + file + ")";
        try {
            long size = Files.size(file);
            long payload = size - FRAME;
            try (DataInputStream in = open(file, 0)) {
                int magic = size >= 4 ? in.readInt() : 0;
                if (magic == MAGIC_UNCHECKED) {
                    throw new IllegalArgumentException("checkpoint " + file + " was written by an earlier version of"
                            + " sweep (without a checksum)" + fresh);
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
            try (DataInputStream in = open(file, 4)) {
                return readPayload(in, file, memory, cells, job, startId);
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

    private static State readPayload(DataInputStream in, Path file, int memory, int cells, long job, long startId)
            throws IOException {
        if (in.readLong() != job) {
            throw new IllegalArgumentException("checkpoint " + file + " was written by a different job (other"
                    + " options or data): resume with the same job, or start afresh without --resume");
        }
        if (in.readLong() != startId) {
            return null;
        }
        int n = in.readInt();
        if (n != cells) {
            throw new IllegalArgumentException("checkpoint " + file + " holds a model of " + n + " cells; this run's"
                    + " model has " + cells + ": resume with the same job, or start afresh without --resume");
        }
        State st = new State(new float[n], memory);
        for (int i = 0; i < n; i++) {
            st.model[i] = in.readFloat();
        }
        for (int i = 0; i < n; i++) {
            st.grad[i] = in.readFloat();
        }
        st.misfit = in.readDouble();
        st.initialMisfit = in.readDouble();
        int h = in.readInt();
        for (int i = 0; i < h; i++) {
            st.history.add(new Iteration(in.readInt(), in.readDouble(), in.readDouble(), in.readInt(),
                    in.readDouble()));
        }
        int pairs = in.readInt();
        for (int k = 0; k < pairs; k++) {
            double[] sv = new double[n];
            double[] yv = new double[n];
            for (int i = 0; i < n; i++) {
                sv[i] = in.readDouble();
            }
            for (int i = 0; i < n; i++) {
                yv[i] = in.readDouble();
            }
            st.lbfgs.restore(new Lbfgs.Pair(sv, yv, in.readDouble()));
        }
        return st;
    }
}
