package sweep.equation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import sweep.backend.JavaBackend;
import sweep.prop.CellWindow;
import sweep.prop.Cells;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;
import sweep.prop.Storage;
import sweep.prop.WavefieldListener;

/**
 * The solver skeleton of a {@link StepEquation}: everything of an {@link EquationSolver} that does not depend on the
 * equation, around the equation's {@link Step}. It owns the state arrays and their adjoints, the batch of shots and its
 * checks, the wavelet layouts ({@link ShotWavelets}), source injection and receiver sampling at the step's points,
 * the forward, forward-for-gradient, gradient and misfit-and-gradient runs, the tape of {@link Storage#FULL} and the
 * checkpoints of {@link Storage#CHECKPOINTING} (a {@link CheckpointSchedule}: the same arithmetic replayed, so the
 * gradient is FULL's bit for bit), finite-value checks, snapshots, memory accounting, benchmarks and the per-stage
 * view of the step for the conformance kit. One call at a time.
 */
public final class StepSolver implements EquationSolver {
    private final PropSpec spec;
    private final Grid grid;
    private final HaloHook halo;
    private final Step step;
    private final StepEquation eq;
    private final JavaBackend backend;
    private final List<String> stateNames;
    private final int nstate;
    private final int stages;
    private final int sourceStage;
    private final int recordStage;
    private final int[] rotation;
    private final int[] recordSlots;
    private final int tapeRow;
    private final int work;

    private double pmlVelocity;
    private double modelVelocity = Double.NaN;
    private float[] model;
    private float[][] s;
    private float[][] a;
    private float[][] w;
    /** Per shot of the last forwardForGradient: what its adjoint run needs. */
    private final List<Shot> shots = new ArrayList<>();
    /** The tape or checkpoints of the last forwardAndGradient, reused shot by shot. */
    private Shot held;
    private double lastCpu = Double.NaN;

    /** One shot: source cells and wavelets (nsrc, nt), receiver cells, and what the forward run kept. */
    private final class Shot {
        final int[] src;
        final float[] wav;
        final int[] rec;
        /** FULL: a tape row per step; CHECKPOINTING: the rows of one segment. */
        float[][] tape;
        /** CHECKPOINTING: the states held and the step each holds (−1: free). */
        float[][][] states;
        int[] stepOf;

        Shot(int[] src, float[] wav, int[] rec) {
            this.src = src;
            this.wav = wav;
            this.rec = rec;
        }

        long floats() {
            long n = 0;
            if (tape != null) {
                n += (long) tape.length * tapeRow;
            }
            if (states != null) {
                for (float[][] st : states) {
                    if (st != null) {
                        n += (long) nstate * grid.length();
                    }
                }
            }
            return n;
        }
    }

    /** The solver of {@code step} for {@code spec} on {@code grid}, its cut faces filled by {@code halo} (or null). */
    public StepSolver(PropSpec spec, Grid grid, HaloHook halo, Step step) {
        if (!(spec.equation() instanceof StepEquation se)) {
            throw new IllegalArgumentException("a StepSolver serves a StepEquation, not " + spec.equation().name());
        }
        this.spec = spec;
        this.grid = grid;
        this.halo = halo;
        this.step = step;
        this.eq = se;
        this.stateNames = se.state(grid.ndim());
        this.nstate = stateNames.size();
        this.stages = step.stages().size();
        this.sourceStage = step.sourceStage();
        this.recordStage = step.recordStage();
        if (sourceStage < -1 || sourceStage >= stages || recordStage < -1 || recordStage >= stages) {
            throw new IllegalArgumentException("the " + se.name() + " step's source stage " + sourceStage
                    + " and record stage " + recordStage + " must lie in -1.." + (stages - 1));
        }
        this.rotation = step.levelRotation();
        if (rotation != null && !isPermutation(rotation, nstate)) {
            throw new IllegalArgumentException("the " + se.name() + " step's level rotation "
                    + Arrays.toString(rotation) + " is not a permutation of its " + nstate + " state arrays");
        }
        List<String> fields = spec.recordFields();
        this.recordSlots = new int[fields.size()];
        for (int f = 0; f < recordSlots.length; f++) {
            recordSlots[f] = stateNames.indexOf(fields.get(f));
        }
        this.tapeRow = Math.multiplyExact(se.tapeFloatsPerCell(grid.ndim()), grid.nz() * grid.ny() * grid.nx());
        this.work = se.adjointWorkArrays(grid.ndim());
        this.backend = new JavaBackend(spec.threads());
        step.attach(this);
    }

    private static boolean isPermutation(int[] p, int n) {
        if (p.length != n) {
            return false;
        }
        boolean[] seen = new boolean[n];
        for (int i : p) {
            if (i < 0 || i >= n || seen[i]) {
                return false;
            }
            seen[i] = true;
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------ for the Step

    JavaBackend backend() {
        return backend;
    }

    HaloHook halo() {
        return halo;
    }

    double pmlVelocity() {
        return modelVelocity;
    }

    float modelValue(int i) {
        return model[i];
    }

    int recordSlot(int field) {
        int slot = recordSlots[field];
        if (slot < 0) {
            throw new IllegalStateException("the " + eq.name() + " step records " + spec.recordFields().get(field)
                    + ", which is not one of its state arrays " + stateNames + ": its Step must override sample");
        }
        return slot;
    }

    // ------------------------------------------------------------------------------------------ sizes

    /** Bytes of one step's tape on {@code g}. */
    static long tapeBytesPerStep(Grid g) {
        StepEquation e = (StepEquation) g.spec.equation();
        return 4L * e.tapeFloatsPerCell(g.ndim()) * g.nz() * g.ny() * g.nx();
    }

    /** Bytes of one checkpoint (every state array) on {@code g}. */
    static long stateBytes(Grid g) {
        StepEquation e = (StepEquation) g.spec.equation();
        return 4L * e.state(g.ndim()).size() * g.length();
    }

    /**
     * The checkpoint schedule of {@code nt} steps on {@code g}: planned for the largest tile of its spec (the tile's
     * shape with the full PML on every side, halo and row padding allowed for), so that every tile of a mesh, each
     * with its own grid, plans the same steps; the budget is the spec's {@link PropSpec#checkpointMemory()}.
     */
    public static CheckpointSchedule schedule(Grid g, int nt) {
        StepEquation e = (StepEquation) g.spec.equation();
        int[] t = g.tileShape();
        int[] w = g.spec.globalPmlWidths();
        int h = g.haloWidth();
        long cells = 1;
        long withHalo = 1;
        for (int axis = 0; axis < t.length; axis++) {
            long n = t[axis] + w[2 * axis] + w[2 * axis + 1];
            cells *= n;
            withHalo *= n + 2L * h + (axis == t.length - 1 ? 32 : 2);
        }
        long state = 4L * e.state(g.ndim()).size() * withHalo;
        long tape = 4L * e.tapeFloatsPerCell(g.ndim()) * cells;
        return CheckpointSchedule.plan(nt, state, tape, g.spec.checkpointMemory());
    }

    // ------------------------------------------------------------------------------------------ contract

    @Override
    public Grid grid() {
        return grid;
    }

    @Override
    public CellWindow modelWindow() {
        return step.window();
    }

    @Override
    public long bytesHeld() {
        if (s == null) {
            return 0;
        }
        long n = (long) nstate * grid.length() + step.heldFloats();
        if (a != null) {
            n += (long) (nstate + work) * grid.length();
        }
        for (Shot sh : shots) {
            n += sh.floats();
        }
        if (held != null) {
            n += held.floats();
        }
        return 4 * n;
    }

    @Override
    public void setPmlVelocity(double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("PML velocity must be >= 0 and finite, got " + v);
        }
        pmlVelocity = v;
    }

    /** Takes the model of a call (null: the last one), allocates the state and sets the step's coefficients. */
    private void setModel(float[] m) {
        if (m == null && model == null) {
            throw new IllegalArgumentException("no " + eq.name() + " model given and none set by an earlier call: pass"
                    + " the model (" + String.join(", ", eq.parameterNames()) + ") on the first call");
        }
        if (s == null) {
            s = new float[nstate][grid.length()];
        }
        boolean changed = m != null;
        if (m != null) {
            model = m.clone();
        }
        double v = spec.maxVel() > 0 ? spec.maxVel() : pmlVelocity > 0 ? pmlVelocity
                : eq.cflVelocity(model, step.window().cells(), spec);
        if (changed || v != modelVelocity) {
            modelVelocity = v;
            step.setModel();
        }
    }

    private void clearShots() {
        shots.clear();
        held = null;
    }

    private Shot shot(float[] wavelet, int stride, int[][][] sources, int[][][] receivers, int b) {
        return new Shot(grid.cellIndices(sources[b], "source", b), ShotWavelets.of(wavelet, stride, b,
                sources[b].length, spec.nt()), grid.cellIndices(receivers[b], "receiver", b));
    }

    @Override
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m, int snapshotEvery,
                          WavefieldListener listener) {
        clearShots();
        int nb = Cells.checkShots(sources, receivers);
        int stride = ShotWavelets.stride(wavelet, sources, spec.nt());
        setModel(m);
        float[] data = recordArray(nb, receivers[0].length);
        for (int b = 0; b < nb; b++) {
            Shot sh = shot(wavelet, stride, sources, receivers, b);
            firstRun(sh, b, data, b * per(sh), snapshotEvery, listener, false);
        }
        return new Record(data, nb, spec.nt(), receivers[0].length, spec.nfield());
    }

    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m) {
        clearShots();
        int nb = Cells.checkShots(sources, receivers);
        int stride = ShotWavelets.stride(wavelet, sources, spec.nt());
        setModel(m);
        float[] data = recordArray(nb, receivers[0].length);
        for (int b = 0; b < nb; b++) {
            Shot sh = shot(wavelet, stride, sources, receivers, b);
            firstRun(sh, b, data, b * per(sh), 0, null, true);
            shots.add(sh);
        }
        return new Record(data, nb, spec.nt(), receivers[0].length, spec.nfield());
    }

    @Override
    public Gradient gradient(float[] residual) {
        if (shots.isEmpty()) {
            throw new IllegalStateException("gradient() needs a preceding forwardForGradient() call on this solver");
        }
        int nt = spec.nt();
        int per = nt * shots.get(0).rec.length * spec.nfield();
        if (residual == null || residual.length != (long) shots.size() * per) {
            throw new IllegalArgumentException("residual has " + (residual == null ? "no" : residual.length)
                    + " values; the last forward's record (" + shots.size() + ", " + nt + ", "
                    + shots.get(0).rec.length + ", " + spec.nfield() + ") needs " + (long) shots.size() * per);
        }
        for (int i = 0; i < residual.length; i++) {
            if (!Float.isFinite(residual[i])) {
                throw new IllegalArgumentException("the residual holds a non-finite value (" + residual[i] + ") at"
                        + " shot " + i / per + ", sample " + (i % per) / (per / nt) + ": it must be finite");
            }
        }
        float[] total = new float[eq.parameterCount() * step.tileCells()];
        float[] wbar = new float[shots.size() * nt];
        for (int b = 0; b < shots.size(); b++) {
            adjoint(shots.get(b), Arrays.copyOfRange(residual, b * per, (b + 1) * per), wbar, b, total);
        }
        return new Gradient(total, eq.parameterCount(), wbar, Double.NaN);
    }

    @Override
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m,
                                       float[] observed, Misfit misfit) {
        Shot keep = held;
        clearShots();
        int nb = Cells.checkShots(sources, receivers);
        int stride = ShotWavelets.stride(wavelet, sources, spec.nt());
        setModel(m);
        int nt = spec.nt();
        int per = nt * receivers[0].length * spec.nfield();
        if (observed == null || observed.length != (long) nb * per) {
            throw new IllegalArgumentException("observed data have " + (observed == null ? "no" : observed.length)
                    + " values; expected shape (" + nb + ", " + nt + ", " + receivers[0].length + ", " + spec.nfield()
                    + ")");
        }
        float[] total = new float[eq.parameterCount() * step.tileCells()];
        float[] wbar = new float[nb * nt];
        double j = 0;
        for (int b = 0; b < nb; b++) {
            Shot sh = shot(wavelet, stride, sources, receivers, b);
            if (keep != null) { // one shot's tape or checkpoints, reused shot by shot and call by call
                sh.tape = keep.tape;
                sh.states = keep.states;
                sh.stepOf = keep.stepOf;
            }
            float[] syn = new float[per];
            firstRun(sh, b, syn, 0, 0, null, true);
            float[] res = new float[per];
            j += misfit.forShot(sources[b], receivers[b]).evaluate(syn, Arrays.copyOfRange(observed, b * per,
                    (b + 1) * per), res);
            adjoint(sh, res, wbar, b, total);
            keep = sh;
        }
        held = keep;
        return new Gradient(total, eq.parameterCount(), wbar, j);
    }

    /** Values of one shot's record. */
    private int per(Shot sh) {
        return spec.nt() * sh.rec.length * spec.nfield();
    }

    private float[] recordArray(int nb, int nrec) {
        long n = (long) nb * spec.nt() * nrec * spec.nfield();
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the record (" + nb + ", " + spec.nt() + ", " + nrec + ", "
                    + spec.nfield() + ") holds more values than a Java array: run fewer shots at a time");
        }
        return new float[(int) n];
    }

    // ------------------------------------------------------------------------------------------ time loops

    /**
     * The shot's first forward run from the zero state: its record into {@code out} from {@code off}, and with
     * {@code gradient} what the adjoint needs (FULL: every step's tape; CHECKPOINTING: the states of the schedule's
     * first descent).
     */
    private void firstRun(Shot sh, int b, float[] out, int off, int every, WavefieldListener l, boolean gradient) {
        int nt = spec.nt();
        zero(s);
        int[] store = new int[0];
        if (gradient && spec.storage() == Storage.CHECKPOINTING) {
            CheckpointSchedule cs = schedule(grid, nt);
            if (sh.states == null || sh.states.length != cs.slots()) {
                sh.states = new float[cs.slots()][][];
                sh.stepOf = new int[cs.slots()];
            }
            Arrays.fill(sh.stepOf, -1);
            if (sh.tape == null || sh.tape.length != cs.segment()) {
                sh.tape = new float[cs.segment()][tapeRow];
            }
            List<Integer> chain = new ArrayList<>();
            int from = 0;
            for (int free = cs.slots(), mid; (mid = cs.split(from, nt, free)) >= 0; free--) {
                chain.add(mid);
                from = mid;
            }
            store = chain.stream().mapToInt(Integer::intValue).toArray();
        } else if (gradient && (sh.tape == null || sh.tape.length != nt)) {
            sh.tape = new float[nt][tapeRow];
        }
        boolean taping = gradient && spec.storage() == Storage.FULL;
        int next = 0;
        for (int n = 0; n < nt; n++) {
            if (next < store.length && store[next] == n) {
                storeState(sh, n);
                next++;
            }
            forwardStep(sh, n, taping ? sh.tape[n] : null, out, off, every, l, b);
            if ((n + 1) % spec.checkEvery() == 0 || n == nt - 1) {
                checkFinite(n, b);
            }
        }
    }

    private final float[] dummy = new float[1];

    /**
     * Forward step n: the stages, with source sample n injected and record sample n read at the step's points (into
     * {@code out} at {@code off} when not null), the tape row written when not null; then the level rotation.
     */
    private void forwardStep(Shot sh, int n, float[] tape, float[] out, int off, int every, WavefieldListener l,
                             int b) {
        float[] t = tape == null ? dummy : tape;
        int taping = tape == null ? 0 : 1;
        for (int k = -1; k < stages; k++) {
            if (k >= 0) {
                step.forward(k, s, t, taping);
            }
            if (k == sourceStage) {
                int nt = spec.nt();
                for (int i = 0; i < sh.src.length; i++) {
                    step.inject(s, sh.src[i], sh.wav[i * nt + n], t, taping);
                }
            }
            if (k == recordStage && out != null) {
                int nf = spec.nfield();
                int base = off + n * sh.rec.length * nf;
                for (int r = 0; r < sh.rec.length; r++) {
                    for (int f = 0; f < nf; f++) {
                        out[base + r * nf + f] = step.sample(s, f, sh.rec[r]);
                    }
                }
                if (l != null && every > 0 && n % every == 0) {
                    l.snapshot(b, n, physical(s[0]));
                }
            }
        }
        if (rotation != null) {
            float[][] before = s.clone();
            for (int i = 0; i < nstate; i++) {
                s[i] = before[rotation[i]];
            }
        }
    }

    /** Adjoint step n: the rotation's transpose, then the stages' transposes backwards with the residual and dJ/dw. */
    private void adjointStep(Shot sh, int n, float[] tape, float[] res, float[] wbar, int b) {
        if (rotation != null) {
            float[][] after = a.clone();
            for (int i = 0; i < nstate; i++) {
                a[rotation[i]] = after[i];
            }
        }
        int nt = spec.nt();
        int nf = spec.nfield();
        for (int k = stages - 1; k >= -1; k--) {
            if (k == recordStage) {
                int base = n * sh.rec.length * nf;
                for (int r = 0; r < sh.rec.length; r++) {
                    for (int f = 0; f < nf; f++) {
                        step.sampleTranspose(a, f, sh.rec[r], res[base + r * nf + f]);
                    }
                }
            }
            if (k == sourceStage) {
                float g = 0f;
                for (int src : sh.src) {
                    g += step.injectTranspose(a, src);
                }
                wbar[b * nt + n] = g;
            }
            if (k >= 0) {
                step.transpose(k, a, w, tape);
            }
        }
    }

    /** The adjoint run of one shot for its residual {@code res}: dJ/dwavelet into {@code wbar}, the gradient added. */
    private void adjoint(Shot sh, float[] res, float[] wbar, int b, float[] total) {
        if (a == null) {
            a = new float[nstate][grid.length()];
            w = new float[work][grid.length()];
        }
        zero(a);
        zero(w);
        int nt = spec.nt();
        if (spec.storage() == Storage.CHECKPOINTING) {
            CheckpointSchedule cs = schedule(grid, nt);
            reverse(sh, cs, 0, nt, cs.slots(), res, wbar, b);
        } else {
            for (int n = nt - 1; n >= 0; n--) {
                adjointStep(sh, n, sh.tape[n], res, wbar, b);
            }
        }
        float[] g = step.gradient(w);
        for (int i = 0; i < total.length; i++) {
            total[i] += g[i];
        }
    }

    /**
     * Runs the adjoint steps to−1 down to from, the state at {@code from} being held (or zero at 0), with
     * {@code free} slots free: splits where the schedule says, re-runs each segment with its tape.
     */
    private void reverse(Shot sh, CheckpointSchedule cs, int from, int to, int free, float[] res, float[] wbar,
                         int b) {
        int mid = cs.split(from, to, free);
        if (mid < 0) {
            for (int start = from + (to - from - 1) / cs.segment() * cs.segment(); start >= from;
                 start -= cs.segment()) {
                restoreState(sh, from);
                for (int n = from; n < start; n++) {
                    forwardStep(sh, n, null, null, 0, 0, null, b);
                }
                int end = Math.min(to, start + cs.segment());
                for (int n = start; n < end; n++) {
                    forwardStep(sh, n, sh.tape[n - start], null, 0, 0, null, b);
                }
                for (int n = end - 1; n >= start; n--) {
                    adjointStep(sh, n, sh.tape[n - start], res, wbar, b);
                }
            }
            return;
        }
        if (slotOf(sh, mid) < 0) {
            restoreState(sh, from);
            for (int n = from; n < mid; n++) {
                forwardStep(sh, n, null, null, 0, 0, null, b);
            }
            storeState(sh, mid);
        }
        reverse(sh, cs, mid, to, free - 1, res, wbar, b);
        sh.stepOf[slotOf(sh, mid)] = -1;
        reverse(sh, cs, from, mid, free, res, wbar, b);
    }

    private int slotOf(Shot sh, int n) {
        for (int i = 0; i < sh.stepOf.length; i++) {
            if (sh.stepOf[i] == n) {
                return i;
            }
        }
        return -1;
    }

    private void storeState(Shot sh, int n) {
        int slot = slotOf(sh, -1);
        if (slot < 0) {
            throw new IllegalStateException("no free checkpoint slot at step " + n + " (a schedule error)");
        }
        if (sh.states[slot] == null) {
            sh.states[slot] = new float[nstate][grid.length()];
        }
        for (int i = 0; i < nstate; i++) {
            System.arraycopy(s[i], 0, sh.states[slot][i], 0, s[i].length);
        }
        sh.stepOf[slot] = n;
    }

    private void restoreState(Shot sh, int n) {
        if (n == 0) {
            zero(s);
            return;
        }
        float[][] st = sh.states[slotOf(sh, n)];
        for (int i = 0; i < nstate; i++) {
            System.arraycopy(st[i], 0, s[i], 0, s[i].length);
        }
    }

    private void zero(float[][] arrays) {
        backend.parallelFor(0, arrays.length, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                Arrays.fill(arrays[i], 0f);
            }
        });
    }

    /** Refuses a field that is not finite at a computational cell after step n of shot b. */
    private void checkFinite(int n, int b) {
        int nf = eq.fields(grid.ndim()).size();
        for (int f = 0; f < nf; f++) {
            float[] v = s[f];
            for (int z = 0; z < grid.nz(); z++) {
                for (int y = 0; y < grid.ny(); y++) {
                    for (int x = 0; x < grid.nx(); x++) {
                        float c = v[grid.compIndex(z, y, x)];
                        if (!Float.isFinite(c)) {
                            String at = grid.ndim() == 2 ? "(z, x) = (" + z + ", " + x + ")"
                                    : "(z, y, x) = (" + z + ", " + y + ", " + x + ")";
                            throw new IllegalStateException(String.format(Locale.ROOT, "the %s wavefield %s is not"
                                    + " finite (%s) at computational cell %s after step %d of shot %d: the run is"
                                    + " unstable (lower dt)", eq.name(), stateNames.get(f), c, at, n, b));
                        }
                    }
                }
            }
        }
    }

    /** The tile-physical cells of an array of the grid, z first. */
    private float[] physical(float[] f) {
        int[] t = grid.tileShape();
        int tz = t[0];
        int ty = t.length == 3 ? t[1] : 1;
        int tx = t[t.length - 1];
        float[] o = new float[tz * ty * tx];
        for (int z = 0; z < tz; z++) {
            for (int y = 0; y < ty; y++) {
                System.arraycopy(f, grid.index(z, y, 0), o, (z * ty + y) * tx, tx);
            }
        }
        return o;
    }

    // ------------------------------------------------------------------------------------------ the rest

    @Override
    public double timeSteps(float[] m, int steps) {
        clearShots();
        setModel(m);
        Shot sh = new Shot(new int[] {grid.compIndex(grid.nz() / 2, grid.ny() / 2, grid.nx() / 2)},
                new float[Math.max(1, steps)], new int[0]);
        sh.wav[0] = 1f;
        zero(s);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = backend.threads() == 1 && mx.isCurrentThreadCpuTimeSupported();
        long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
        if (halo != null) {
            halo.synchronize();
        }
        long t0 = System.nanoTime();
        for (int n = 0; n < steps; n++) {
            forwardStep(sh, n, null, null, 0, 0, null, 0);
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        lastCpu = cpu ? (mx.getCurrentThreadCpuTime() - c0) * 1e-9 : Double.NaN;
        return sec;
    }

    @Override
    public double lastStepsCpuSeconds() {
        return lastCpu;
    }

    @Override
    public String backendDescription() {
        return "Java (" + backend.threads() + " threads), " + eq.name() + " on the step skeleton";
    }

    /**
     * The stages of the step for the per-stage dot-product test: the state is every state array at the computational
     * cells, each weighted by {@link Step#scale}; stage k runs {@link Step#forward} (no tape) and its transpose
     * {@link Step#transpose} on the adjoint arrays.
     */
    @Override
    public StepStages stepStages(float[] m) {
        clearShots();
        setModel(m);
        if (a == null) {
            a = new float[nstate][grid.length()];
            w = new float[work][grid.length()];
        }
        int[] nodes = new int[grid.nz() * grid.ny() * grid.nx()];
        int k = 0;
        for (int z = 0; z < grid.nz(); z++) {
            for (int y = 0; y < grid.ny(); y++) {
                for (int x = 0; x < grid.nx(); x++) {
                    nodes[k++] = grid.compIndex(z, y, x);
                }
            }
        }
        StateVector.Builder sv = StateVector.builder();
        for (int i = 0; i < nstate; i++) {
            sv.part(stateNames.get(i), s[i], a[i], nodes, step.scale(i), false);
        }
        float[] tape = new float[tapeRow];
        return StepStages.of(step.stages(), sv.build(), st -> step.forward(st, s, dummy, 0),
                st -> step.transpose(st, a, w, tape));
    }

    @Override
    public void close() {
        backend.close();
    }
}
