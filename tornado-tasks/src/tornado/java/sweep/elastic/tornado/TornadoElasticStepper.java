package sweep.elastic.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import sweep.acoustic.tornado.AcousticStepKernels;
import sweep.core.Box;
import sweep.elastic.ElasticDeviceStepper;
import sweep.elastic.ElasticDeviceTape;
import sweep.elastic.ElasticShot;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;
import sweep.prop.Storage;
import sweep.prop.spi.GridView;
import sweep.tornado.DevicePlans;
import sweep.tornado.TornadoDevices;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The TornadoVM backend's elastic stepper: one {@link TornadoExecutionPlan} per solver holding the task graphs of the
 * elastic step, built from the portable kernels ({@link ElasticTasks}) in the Java backend's order, and for gradient
 * runs the adjoint's ({@link TornadoElasticAdjoint}):
 * <ul>
 * <li>{@code model} (graph 0): uploads buoyancy, moduli, CPML profiles, weights and geometry; run once per plan and
 * again whenever a new model is set (the plan and its compiled kernels are kept);</li>
 * <li>{@code tape} (graph 1, gradient plans only): gives the tape stores their device buffers, and uploads a tape kept
 * on the host for its adjoint run;</li>
 * <li>{@code first} (step 0 of a shot): uploads the shot's injection entries, samples, receivers and the step counter,
 * zeroes velocities, stresses and memory variables on the device, and runs the step;</li>
 * <li>{@code step} (steps 1..nt−1): the step on {@code first}'s device buffers. The elastic leapfrog updates v and σ in
 * place, so one graph serves every later step.</li>
 * </ul>
 * A step is: velocity sub-step (taped: its terms into a scratch array), force sources (and their tape terms), velocity
 * images, receivers, stress sub-step (taped likewise), explosive sources, stress rule, then the tape (full storage:
 * the terms into slot n of the stores; boundary saving: every component on the ring into slot n) and the counter.
 * Fields, parameters, memory variables and the tape stay on the device; the record and the last fields come back once
 * per shot. A tape stays on the device for the shot's adjoint run and comes to the host only when another shot needs
 * its place.
 *
 * <p>Bit-identical to the Java backend when the JVM runs with {@code -Dtornado.enable.fma=false} (OpenCL programs built
 * with {@code -w} only). One domain only: a decomposed elastic run uses the Java backend.
 */
public final class TornadoElasticStepper implements ElasticDeviceStepper {
    /** The shape of the shots a plan serves. */
    private record Key(int count, int nval, int terms, int nt, boolean explosive, Storage tape) {
    }

    private static int planCounter;

    private final GridView g;
    private final ElasticTasks tasks;
    private final boolean strict;
    private final TornadoDevice device;
    private final int ndim;
    private final int nv;
    private final int ns;
    private final int nc;
    /** The grid's elastic geometry and weights (copies; set by the first {@link #setModel}). */
    private int[] geo;
    private float[] coef;
    private float[] b;
    private float[] m;
    private float[] prof;
    private float[] v;
    private float[] s;
    private float[] psi;
    /** Full storage: one step's velocity and strain terms (compact), stored into the tape after the step. */
    private float[] tv;
    private float[] ts;
    private Box all;
    private Box top;
    private Box inBox;
    private List<Box> band;
    private List<Box> ring;
    private int ringCells;
    private final int[] step = new int[1];
    private final float[] touch = new float[1];
    // the current plan and its shot arrays
    private TornadoExecutionPlan plan;
    private Key key;
    private int[] srcIdx;
    private float[] samples;
    private int[] recIdx;
    private int[] kind;
    private int[] termIdx;
    private float[] termSamples;
    private float[] rec;
    /** The tape's device arrays: full storage {velocity terms, strain terms}; boundary saving {ring}. */
    private float[][] stores;
    private int graphTape = -1;
    private int graphFirst;
    private int graphStep;
    private boolean modelOnDevice;
    private boolean tapeAllocated;
    /** The tape whose stores the device holds and the host does not have yet, or null. */
    private ElasticDeviceTape deviceTape;
    private TornadoElasticAdjoint adjoint;
    private TornadoExecutionResult lastResult;
    private boolean ran;

    public TornadoElasticStepper(GridView g) {
        this.g = g;
        this.ndim = g.ndim();
        this.tasks = ElasticTasks.of(ndim);
        this.nv = ElasticLayout.velocities(ndim);
        this.ns = ElasticLayout.stresses(ndim);
        this.nc = g.nz() * g.ny() * g.nx();
        this.strict = DevicePlans.strictMath();
        this.device = TornadoDevices.chooseDevice();
    }

    @Override
    public String describe() {
        return DevicePlans.describe(device, strict);
    }

    @Override
    public void setModel(int[] geoSrc, float[] coefSrc, float[] bSrc, float[] mSrc, float[] profSrc) {
        if (geo == null) {
            init(geoSrc, coefSrc);
        } else if (!Arrays.equals(geo, geoSrc) || !Arrays.equals(coef, coefSrc)) {
            throw new IllegalArgumentException("the elastic geometry or weights of this stepper's grid changed: a"
                    + " device stepper serves one grid");
        }
        if (bSrc.length != b.length || mSrc.length != m.length || profSrc.length != prof.length) {
            throw new IllegalArgumentException("elastic parameters of lengths " + bSrc.length + ", " + mSrc.length
                    + ", " + profSrc.length + " do not fit the grid (" + b.length + ", " + m.length + ", " + prof.length
                    + ")");
        }
        if (modelOnDevice && Arrays.equals(b, bSrc) && Arrays.equals(m, mSrc) && Arrays.equals(prof, profSrc)) {
            return; // the same model: the device has it, and a tape it holds stays valid
        }
        System.arraycopy(bSrc, 0, b, 0, b.length);
        System.arraycopy(mSrc, 0, m, 0, m.length);
        System.arraycopy(profSrc, 0, prof, 0, prof.length);
        // the model graph uploads it before the next shot; a tape of the old model has no adjoint run any more
        modelOnDevice = false;
        deviceTape = null;
    }

    private void init(int[] geoSrc, float[] coefSrc) {
        if (geoSrc.length != ElasticLayout.GEO_SIZE || geoSrc[Layout.NDIM] != ndim || geoSrc[Layout.NZ] != g.nz()
                || geoSrc[Layout.NY] != g.ny() || geoSrc[Layout.NX] != g.nx()) {
            throw new IllegalArgumentException("the elastic geometry does not describe this stepper's grid");
        }
        geo = geoSrc.clone();
        coef = coefSrc.clone();
        int len = geo[Layout.LEN];
        b = new float[nv * len];
        m = new float[ElasticLayout.moduli(ndim) * len];
        prof = new float[4 * (g.nz() + g.ny() + g.nx())];
        v = new float[nv * len];
        s = new float[ns * len];
        psi = new float[Math.max(1, psiLength(geo))];
        int[] n = {g.nz(), g.ny(), g.nx()};
        int[] in = {geo[Layout.ZBL], geo[ElasticLayout.ZBHH], geo[Layout.YBL], geo[ElasticLayout.YBHH],
            geo[Layout.XBL], geo[ElasticLayout.XBHH]};
        all = new Box(0, n[0], 0, n[1], 0, n[2]);
        top = new Box(0, 1, 0, n[1], 0, n[2]);
        // the rebuilt box of boundary saving, the band boxes around it and its ring, as sweep.elastic.ElasticAdjoint's
        inBox = Box.orNull(in[0], in[1], in[2], in[3], in[4], in[5]);
        band = List.copyOf(g.outerBoxes(in[0], in[1], in[2], in[3], in[4], in[5]));
        List<Box> r = new ArrayList<>();
        if (inBox != null) {
            int h = geo[Layout.H];
            for (int a = 0; a < 3; a++) {
                if (in[2 * a] > 0) {
                    int[] q = in.clone();
                    q[2 * a] = Math.max(0, in[2 * a] - h);
                    q[2 * a + 1] = in[2 * a];
                    r.add(Box.of(q));
                }
                if (in[2 * a + 1] < n[a]) {
                    int[] q = in.clone();
                    q[2 * a] = in[2 * a + 1];
                    q[2 * a + 1] = Math.min(n[a], in[2 * a + 1] + h);
                    r.add(Box.of(q));
                }
            }
        }
        ring = List.copyOf(r);
        ringCells = Box.volume(ring);
    }

    static int psiLength(int[] geo) {
        long n = geo[ElasticLayout.PSI_X]
                + (long) ElasticLayout.psiPerAxis(geo[Layout.NDIM]) * geo[ElasticLayout.SLAB_X];
        return (int) n;
    }

    /** Seconds of the last shot's steps after the first ({@link #lastStepLoopSeconds}). */
    private double lastLoop = Double.NaN;

    @Override
    public double lastStepLoopSeconds() {
        return lastLoop;
    }

    @Override
    public float[] shot(ElasticShot shot, int nt, ElasticDeviceTape tape, int every, Snapshots snapshots) {
        if (geo == null) {
            throw new IllegalStateException("no elastic model set on this device stepper: call setModel first");
        }
        Storage mode = tape == null ? null : tape.storage;
        Key k = keyOf(shot, nt, mode);
        preparePlan(k);
        flushTape();
        load(shot, nt);
        step[0] = 0;
        long loopStart = 0;
        for (int n = 0; n < nt; n++) {
            if (n == 1) {
                loopStart = System.nanoTime();
            }
            lastResult = plan.withGraph(n == 0 ? graphFirst : graphStep).execute();
            if (every > 0 && (n + 1) % every == 0) {
                lastResult.transferToHost(v, s);
                snapshots.at(n + 1, v, s);
            }
        }
        lastLoop = nt > 1 ? (System.nanoTime() - loopStart) * 1e-9 : Double.NaN;
        ran = true;
        if (lastResult != null) {
            List<Object> back = new ArrayList<>();
            if (k.nval > 0) {
                back.add(rec);
            }
            back.add(v);
            back.add(s);
            lastResult.transferToHost(back.toArray());
        }
        plan.clearProfiles();
        if (tape != null) {
            tape.stores = null; // on the device until another shot needs its place (flushTape)
            deviceTape = tape;
            if (mode == Storage.BOUNDARY_SAVING) {
                tape.lastV = v.clone();
                tape.lastS = s.clone();
            }
        }
        return Arrays.copyOf(rec, nt * k.nval);
    }

    private static Key keyOf(ElasticShot shot, int nt, Storage mode) {
        return new Key(shot.srcIdx.length, shot.recIdx.length, mode == null ? 0 : shot.termIdx.length, nt,
                shot.explosive, mode);
    }

    /** Copies a shot's entries into the plan's arrays (uploaded by the first step's graph). */
    private void load(ElasticShot shot, int nt) {
        System.arraycopy(shot.srcIdx, 0, srcIdx, 0, shot.srcIdx.length);
        System.arraycopy(shot.samples, 0, samples, 0, shot.srcIdx.length * nt);
        System.arraycopy(shot.recIdx, 0, recIdx, 0, shot.recIdx.length);
        System.arraycopy(shot.kind, 0, kind, 0, shot.kind.length);
        if (key.terms > 0) {
            System.arraycopy(shot.termIdx, 0, termIdx, 0, key.terms);
            System.arraycopy(shot.termSamples, 0, termSamples, 0, key.terms * nt);
        }
    }

    @Override
    public float[] velocities() {
        return ran ? v.clone() : new float[nv * geo[Layout.LEN]];
    }

    @Override
    public float[] stresses() {
        return ran ? s.clone() : new float[ns * geo[Layout.LEN]];
    }

    /**
     * Makes the current plan the one for shots of this shape (building it when the last one differs) and puts the
     * model (graph 0) and, for a gradient plan, the tape stores (graph 1) on the device when they are not there.
     */
    private void preparePlan(Key k) {
        if (plan == null || !k.equals(key)) {
            closePlan();
            buildPlan(k);
        }
        if (!modelOnDevice) {
            lastResult = plan.withGraph(0).execute();
            modelOnDevice = true;
            // the graphs after the model graph take its buffers in the order of the first shot: model, tape, first
            tapeAllocated = false;
        }
        if (graphTape >= 0 && !tapeAllocated) {
            lastResult = plan.withGraph(graphTape).execute();
            tapeAllocated = true;
        }
    }

    /** Copies the tape the device holds for an earlier shot to the host, before its place is used again. */
    private void flushTape() {
        if (deviceTape != null) {
            lastResult.transferToHost((Object[]) stores);
            float[][] copy = new float[stores.length][];
            for (int i = 0; i < stores.length; i++) {
                copy[i] = stores[i].clone();
            }
            deviceTape.stores = copy;
            deviceTape = null;
        }
    }

    private void buildPlan(Key k) {
        key = k;
        int nt = k.nt;
        srcIdx = new int[Math.max(k.count, 1)];
        samples = new float[Math.max(k.count * nt, 1)];
        recIdx = new int[Math.max(k.nval, 1)];
        kind = new int[Math.max(k.nval, 1)];
        termIdx = new int[Math.max(k.terms, 1)];
        termSamples = new float[Math.max(k.terms * nt, 1)];
        rec = new float[Math.max(k.nval * nt, 1)];
        stores = null;
        tv = null;
        ts = null;
        if (k.tape == Storage.FULL) {
            stores = new float[][] {new float[DevicePlans.storeLength((long) nt * nv * nc, "elastic velocity")],
                new float[DevicePlans.storeLength((long) nt * ns * nc, "elastic strain")]};
            tv = new float[nv * nc];
            ts = new float[ns * nc];
        } else if (k.tape == Storage.BOUNDARY_SAVING) {
            // one slot per step (the last one unused: the last state is kept whole)
            stores = new float[][] {new float[Math.max(1, DevicePlans.storeLength((long) nt * (nv + ns) * ringCells,
                    "elastic ring"))]};
        }
        int id = ++planCounter;
        Object[] modelArr = {b, m, prof, coef, geo};
        String modelName = "emodel" + id;
        TaskGraph mg = DevicePlans.touchAll(new TaskGraph(modelName)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, modelArr), modelArr, touch);
        mg.persistOnDevice(modelArr);
        List<ImmutableTaskGraph> graphs = new ArrayList<>();
        graphs.add(mg.snapshot());
        // TornadoVM hands consumed buffers over from the graph executed just before: every graph that can run before
        // another carries the model arrays (and the tape stores) on
        Object[] carried = modelArr;
        String carrier = modelName;
        graphTape = -1;
        if (stores != null) {
            carried = Arrays.copyOf(modelArr, modelArr.length + stores.length);
            System.arraycopy(stores, 0, carried, modelArr.length, stores.length);
            String tapeName = "etape" + id;
            TaskGraph tg = DevicePlans.touchAll(new TaskGraph(tapeName).consumeFromDevice(modelName, modelArr)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, (Object[]) stores), stores, touch);
            tg.persistOnDevice(carried);
            graphTape = graphs.size();
            graphs.add(tg.snapshot());
            carrier = tapeName;
        }
        List<Object> perShot = new ArrayList<>(List.of(srcIdx, samples, recIdx, kind, termIdx, termSamples, step));
        List<Object> allList = new ArrayList<>(Arrays.asList(carried));
        allList.addAll(perShot);
        allList.addAll(List.of(v, s, psi, rec));
        if (tv != null) {
            allList.add(tv);
            allList.add(ts);
        }
        Object[] allArr = allList.toArray();
        String firstName = "efirst" + id;
        TaskGraph first = new TaskGraph(firstName).consumeFromDevice(carrier, carried)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, perShot.toArray());
        first.task("zeroV", AcousticStepKernels::zero, v, v.length);
        first.task("zeroS", AcousticStepKernels::zero, s, s.length);
        first.task("zeroPsi", AcousticStepKernels::zero, psi, psi.length);
        addStep(first);
        first.persistOnDevice(allArr);
        graphFirst = graphs.size();
        graphs.add(first.snapshot());
        TaskGraph stepGraph = new TaskGraph("estep" + id).consumeFromDevice(firstName, allArr);
        addStep(stepGraph);
        stepGraph.persistOnDevice(allArr);
        graphStep = graphs.size();
        graphs.add(stepGraph.snapshot());
        if (k.tape != null) {
            if (adjoint == null || adjoint.storage() != k.tape) {
                adjoint = new TornadoElasticAdjoint(this, k.tape);
            }
            adjoint.addGraphs(graphs, carrier, carried, k.count, k.nval, k.terms, nt, k.explosive, id);
        }
        plan = DevicePlans.plan(graphs, device, strict);
        modelOnDevice = false;
        tapeAllocated = false;
    }

    /** The tasks of one forward step, in the Java backend's order (sweep.elastic.ElasticSolver's time loop). */
    private void addStep(TaskGraph t) {
        Key k = key;
        boolean fs = geo[ElasticLayout.FS] == 1;
        int len = geo[Layout.LEN];
        boolean full = k.tape == Storage.FULL;
        if (full) {
            tasks.velocityTaped(t, "velocity", v, s, b, psi, prof, coef, geo, tv, all);
        } else {
            tasks.velocity(t, "velocity", v, s, b, psi, prof, coef, geo, all);
        }
        if (!k.explosive && k.count > 0) {
            t.task("force", AcousticStepKernels::inject, v, b, srcIdx, samples, k.count, k.nt, step);
            if (full && k.terms > 0) {
                t.task("forceTerms", AcousticStepKernels::addAt, tv, termIdx, termSamples, k.terms, k.nt, step);
            }
        }
        if (fs) {
            tasks.freeSurfaceVelocity(t, "imagesV", v, geo, top);
        }
        if (k.nval > 0) {
            t.task("record", ElasticStepKernels::sampleAt, v, s, recIdx, kind, rec, k.nval, ndim, len, step);
        }
        if (full) {
            tasks.stressTaped(t, "stress", v, s, m, psi, prof, coef, geo, ts, all);
        } else {
            tasks.stress(t, "stress", v, s, m, psi, prof, coef, geo, all);
        }
        if (k.explosive && k.count > 0) {
            t.task("explosive", AcousticStepKernels::addAt, s, srcIdx, samples, k.count, k.nt, step);
        }
        if (fs) {
            tasks.freeSurfaceStress(t, "imagesS", s, geo, top);
        }
        if (full) {
            t.task("storeV", AcousticStepKernels::storeAt, tv, stores[0], nv * nc, step);
            t.task("storeS", AcousticStepKernels::storeAt, ts, stores[1], ns * nc, step);
        } else if (k.tape == Storage.BOUNDARY_SAVING) {
            int slot = (nv + ns) * ringCells;
            int off = 0;
            int q = 0;
            for (Box r : ring) {
                t.task("ringV" + q, ElasticStepKernels::packRing, v, stores[0], off, slot, ringCells, nv, geo, r.z0(),
                        r.z1(), r.y0(), r.y1(), r.x0(), r.x1(), step);
                t.task("ringS" + q++, ElasticStepKernels::packRing, s, stores[0], nv * ringCells + off, slot,
                        ringCells, ns, geo, r.z0(), r.z1(), r.y0(), r.y1(), r.x0(), r.x1(), step);
                off += (int) r.volume();
            }
        }
        t.task("advance", AcousticStepKernels::advance, step);
    }

    @Override
    public void backward(ElasticDeviceTape tape, float[] residual, int nt, float[] srcAdjoint, float[] gbOut,
                         float[] gmOut) {
        Objects.requireNonNull(tape, "tape");
        // the plan of this tape's shape: after a batch of forward runs of other shapes it is built (and the model
        // uploaded) again, without running its forward graphs
        preparePlan(keyOf(tape.shot, nt, tape.storage));
        if (tape != deviceTape) {
            if (tape.stores == null) {
                throw new IllegalStateException("this elastic tape is no longer held (a new model was set after its"
                        + " forward run): run the gradient-capable forward again");
            }
            flushTape(); // a tape kept on the host: back to the device, in the stores' place
            for (int i = 0; i < stores.length; i++) {
                System.arraycopy(tape.stores[i], 0, stores[i], 0, stores[i].length);
            }
            lastResult = plan.withGraph(graphTape).execute();
        }
        lastResult = adjoint.backward(plan, tape, residual, nt, srcAdjoint, gbOut, gmOut);
    }

    // what the adjoint reads of the forward stepper (the same arrays: one plan)
    GridView grid() {
        return g;
    }

    ElasticTasks tasks() {
        return tasks;
    }

    int[] geo() {
        return geo;
    }

    float[] coef() {
        return coef;
    }

    float[] buoyancy() {
        return b;
    }

    float[] moduli() {
        return m;
    }

    float[] profiles() {
        return prof;
    }

    float[][] stores() {
        return stores;
    }

    Box allBox() {
        return all;
    }

    Box topRow() {
        return top;
    }

    Box rebuiltBox() {
        return inBox;
    }

    List<Box> bandBoxes() {
        return band;
    }

    List<Box> ringBoxes() {
        return ring;
    }

    int ringCells() {
        return ringCells;
    }

    int cells() {
        return nc;
    }

    private void closePlan() {
        if (plan != null) {
            flushTape();
            DevicePlans.close(plan);
            plan = null;
            key = null;
            lastResult = null;
            modelOnDevice = false;
            tapeAllocated = false;
        }
    }

    @Override
    public void close() {
        closePlan();
    }
}
