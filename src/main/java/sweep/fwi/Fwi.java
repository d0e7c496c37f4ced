package sweep.fwi;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import sweep.io.AtomicFiles;

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
        java.util.Arrays.fill(grad, 0, Math.min(rows, shape[0]) * plane, 0f);
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
        State st;
        int evaluatedFor; // the iteration whose objective st.misfit and st.grad belong to
        if (checkpoint != null && checkpoint.resume() && Files.exists(checkpoint.file())) {
            st = load(checkpoint.file(), s.memory(), start.length, checkpoint.job());
            evaluatedFor = -1;
        } else {
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
                save(st, checkpoint.file(), checkpoint.job());
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

    private static final int MAGIC = 0x53574632; // "SWF2"

    /** Writes the state atomically (see {@link AtomicFiles}). */
    static void save(State st, Path file, long job) {
        AtomicFiles.writeStream(file, "FWI checkpoint", raw -> {
            DataOutputStream out = new DataOutputStream(raw);
            out.writeInt(MAGIC);
            out.writeLong(job);
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
        });
    }

    static State load(Path file, int memory, int cells, long job) {
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException("checkpoint " + file + " is not an FWI checkpoint of this program");
            }
            if (in.readLong() != job) {
                throw new IllegalArgumentException("checkpoint " + file + " was written by a different job (other"
                        + " options or data): resume with the same job, or start afresh without --resume");
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
                st.history.add(new Iteration(in.readInt(), in.readDouble(), in.readDouble(), in.readInt(), in.readDouble()));
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + e.getMessage(), e);
        }
    }
}
