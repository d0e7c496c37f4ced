package sweep.acousticvd.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import sweep.acoustic.tornado.AcousticStepKernels;
import sweep.acousticvd.AcousticVdDeviceStepper;
import sweep.acousticvd.kernels.AcousticVdKernels;
import sweep.acousticvd.kernels.PressureRelaxationKernels;
import sweep.core.Box;
import sweep.elastic.tornado.ElasticStepKernels;
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
 * The TornadoVM backend's variable-density acoustic stepper: one {@link TornadoExecutionPlan} per solver holding the
 * task graphs of the step, built from the portable kernels ({@link AcousticVdKernels}) in the Java solver's order,
 * and for gradient runs the adjoint's ({@link TornadoAcousticVdAdjoint}):
 * <ul>
 * <li>{@code model} (graph 0): uploads dt·K, buoyancies, CPML profiles, weights, geometry and a relaxation's
 * (a {@code sweep.acousticvd.PressureRelaxation}, e.g. visco-acoustic) decays and coefficients; run once per plan and
 * again whenever a new model is set (the plan and its compiled kernels are kept);</li>
 * <li>{@code tape} (graph 1, gradient plans only): gives the tape store its device buffer, and uploads a tape kept on
 * the host for its adjoint run;</li>
 * <li>{@code first} (step 0 of a shot): uploads the shot's sources and receivers and the step counter, zeroes p, v and
 * the memory variables on the device, and runs the step;</li>
 * <li>{@code step} (steps 1..nt−1): the step on {@code first}'s device buffers (the leapfrog updates v and p in place,
 * so one graph serves every later step).</li>
 * </ul>
 * A step is: under checkpointing, the state into checkpoint t/k when t is a multiple of k; record p, velocity update
 * (taped: its brackets into a scratch array), vz images, pressure update (taped likewise; with a relaxation always,
 * then its memory update reads the pressure bracket), record v, sources, surface row and pressure images, then the
 * tape (full storage: the brackets into slot t of the store; boundary saving: p and the velocities outside the rebuilt
 * box into slot t) and the counter. Fields, parameters, memory variables and the tape stay on the device; the record
 * and the last fields come back once per shot.
 *
 * <p>Bit-identical to the Java backend when the JVM runs with {@code -Dtornado.enable.fma=false} (OpenCL programs built
 * with {@code -w} only). One domain only: a decomposed run uses the Java backend.
 */
public final class TornadoAcousticVdStepper implements AcousticVdDeviceStepper {
    /** The shape of the shots a plan serves. */
    private record Key(int count, int nval, int nfield, int nt, Storage tape, int every) {
    }

    private static int planCounter;

    private final GridView g;
    private final boolean strict;
    private final TornadoDevice device;
    private final int ndim;
    private final int nc;
    private int[] geo;
    private float[] coef;
    private int[] box;
    private float[] kdt;
    private float[] bv;
    private float[] prof;
    private float[] p;
    private float[] v;
    private float[] psiV;
    private float[] psiP;
    /** The relaxation's memory variables per pressure node (0 without a relaxation). */
    private int nmech;
    /** With a relaxation: the decays per step α_l, the coefficients c_l per node and the memory variables. */
    private float[] alpha;
    private float[] cmem;
    private float[] mem;
    /**
     * One step's brackets (pressure, then each velocity), stored into the tape after the step under full storage;
     * with a relaxation at least the pressure bracket, which the memory update reads.
     */
    private float[] stepTape;
    private Box all;
    private Box rebuilt;
    private List<Box> ring;
    private int ringCells;
    private final int[] step = new int[1];
    private final float[] touch = new float[1];
    private TornadoExecutionPlan plan;
    private Key key;
    private int[] src;
    private float[] scale;
    private float[] cum;
    private int[] valueIdx;
    private int[] valueIsP;
    private float[] rec;
    /** The tape's device array: full storage every step's brackets, boundary saving every step's ring. */
    private float[] store;
    private int graphTape = -1;
    private int graphFirst;
    private int graphStep;
    private boolean modelOnDevice;
    private boolean tapeAllocated;
    /** The tape whose store the device holds and the host does not have yet, or null. */
    private Tape deviceTape;
    private TornadoAcousticVdAdjoint adjoint;
    private TornadoExecutionResult lastResult;
    private boolean ran;

    public TornadoAcousticVdStepper(GridView g) {
        this.g = g;
        this.ndim = g.ndim();
        this.nc = g.nz() * g.ny() * g.nx();
        this.strict = DevicePlans.strictMath();
        this.device = TornadoDevices.chooseDevice();
    }

    @Override
    public String describe() {
        return DevicePlans.describe(device, strict);
    }

    @Override
    public void setModel(int[] geoSrc, float[] coefSrc, int[] boxSrc, float[] kdtSrc, float[] bvSrc,
                         float[] profSrc, float[] alphaSrc, float[] cmemSrc) {
        int mech = alphaSrc == null ? 0 : alphaSrc.length;
        if (geo == null) {
            init(geoSrc, coefSrc, boxSrc, profSrc.length, mech);
        } else if (!Arrays.equals(geo, geoSrc) || !Arrays.equals(coef, coefSrc) || !Arrays.equals(box, boxSrc)
                || mech != nmech) {
            throw new IllegalArgumentException("the geometry, weights, rebuilt box or memory variables of this"
                    + " stepper's grid changed: a device stepper serves one grid");
        }
        int cmemLength = cmemSrc == null ? 0 : cmemSrc.length;
        if (kdtSrc.length != kdt.length || bvSrc.length != bv.length || profSrc.length != prof.length
                || nmech > 0 && cmemLength != cmem.length) {
            throw new IllegalArgumentException("acoustic-vd parameters of lengths " + kdtSrc.length + ", "
                    + bvSrc.length + ", " + profSrc.length + ", " + cmemLength + " do not fit the grid (" + kdt.length
                    + ", " + bv.length + ", " + prof.length + ", " + (nmech > 0 ? cmem.length : 0) + ")");
        }
        if (modelOnDevice && Arrays.equals(kdt, kdtSrc) && Arrays.equals(bv, bvSrc) && Arrays.equals(prof, profSrc)
                && (nmech == 0 || Arrays.equals(alpha, alphaSrc) && Arrays.equals(cmem, cmemSrc))) {
            return; // the same model: the device has it, and a tape it holds stays valid
        }
        System.arraycopy(kdtSrc, 0, kdt, 0, kdt.length);
        System.arraycopy(bvSrc, 0, bv, 0, bv.length);
        System.arraycopy(profSrc, 0, prof, 0, prof.length);
        if (nmech > 0) {
            System.arraycopy(alphaSrc, 0, alpha, 0, nmech);
            System.arraycopy(cmemSrc, 0, cmem, 0, cmem.length);
        }
        modelOnDevice = false;
        deviceTape = null;
    }

    private void init(int[] geoSrc, float[] coefSrc, int[] boxSrc, int profLength, int mech) {
        if (geoSrc.length != Layout.GEO_SIZE || geoSrc[Layout.NDIM] != ndim || geoSrc[Layout.NZ] != g.nz()
                || geoSrc[Layout.NY] != g.ny() || geoSrc[Layout.NX] != g.nx() || boxSrc.length != 6) {
            throw new IllegalArgumentException("the acoustic-vd geometry does not describe this stepper's grid");
        }
        geo = geoSrc.clone();
        coef = coefSrc.clone();
        box = boxSrc.clone();
        int len = geo[Layout.LEN];
        kdt = new float[len];
        bv = new float[ndim * len];
        prof = new float[profLength];
        p = new float[len];
        v = new float[ndim * len];
        psiV = new float[geo[Layout.AUX_LEN]];
        psiP = new float[geo[Layout.AUX_LEN]];
        nmech = mech;
        alpha = new float[Math.max(1, mech)];
        cmem = new float[Math.max(1, mech * len)];
        mem = new float[Math.max(1, mech * len)];
        all = new Box(0, g.nz(), 0, g.ny(), 0, g.nx());
        rebuilt = Box.orNull(box[0], box[1], box[2], box[3], box[4], box[5]);
        // boundary saving keeps every cell outside the rebuilt box (sweep.acousticvd.AcousticVdSolver's ring)
        ring = rebuilt == null ? List.of(all) : List.copyOf(g.outerBoxes(box[0], box[1], box[2], box[3], box[4],
                box[5]));
        ringCells = Box.volume(ring);
    }

    /** Seconds of the last shot's steps after the first ({@link #lastStepLoopSeconds}). */
    private double lastLoop = Double.NaN;

    @Override
    public double lastStepLoopSeconds() {
        return lastLoop;
    }

    @Override
    public float[] shot(Shot shot, int nt, Tape tape, int every, Snapshots snapshots) {
        if (geo == null) {
            throw new IllegalStateException("no acoustic-vd model set on this device stepper: call setModel first");
        }
        Storage mode = tape == null ? null : tape.storage;
        Key k = keyOf(shot, nt, tape);
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
                lastResult.transferToHost(p);
                snapshots.at(n + 1, p);
            }
        }
        lastLoop = nt > 1 ? (System.nanoTime() - loopStart) * 1e-9 : Double.NaN;
        ran = true;
        if (lastResult != null) {
            if (k.nval > 0) {
                lastResult.transferToHost(rec, p, v);
            } else {
                lastResult.transferToHost(p, v);
            }
        }
        plan.clearProfiles();
        if (tape != null) {
            tape.stores = null; // on the device until another shot needs its place (flushTape)
            deviceTape = tape;
            if (mode == Storage.BOUNDARY_SAVING) {
                tape.lastP = p.clone();
                tape.lastV = v.clone();
            }
        }
        return Arrays.copyOf(rec, nt * k.nval);
    }

    private static Key keyOf(Shot shot, int nt, Tape tape) {
        return new Key(shot.src().length, shot.valueIdx().length, shot.nfield(), nt,
                tape == null ? null : tape.storage, tape == null ? 0 : tape.checkpointEvery);
    }

    /** Copies a shot's entries into the plan's arrays (uploaded by the first step's graph). */
    private void load(Shot shot, int nt) {
        int count = shot.src().length;
        System.arraycopy(shot.src(), 0, src, 0, count);
        System.arraycopy(shot.scale(), 0, scale, 0, count);
        System.arraycopy(shot.cum(), 0, cum, 0, count * nt);
        System.arraycopy(shot.valueIdx(), 0, valueIdx, 0, shot.valueIdx().length);
        System.arraycopy(shot.valueIsP(), 0, valueIsP, 0, shot.valueIsP().length);
    }

    @Override
    public float[] pressure() {
        return ran ? p.clone() : new float[geo[Layout.LEN]];
    }

    @Override
    public float[] velocities() {
        return ran ? v.clone() : new float[ndim * geo[Layout.LEN]];
    }

    /**
     * Makes the current plan the one for shots of this shape (building it when the last one differs) and puts the
     * model (graph 0) and, for a gradient plan, the tape store (graph 1) on the device when they are not there.
     */
    private void preparePlan(Key k) {
        if (plan == null || !k.equals(key)) {
            closePlan();
            buildPlan(k);
        }
        if (!modelOnDevice) {
            lastResult = plan.withGraph(0).execute();
            modelOnDevice = true;
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
            lastResult.transferToHost(store);
            deviceTape.stores = new float[][] {store.clone()};
            deviceTape = null;
        }
    }

    private void buildPlan(Key k) {
        key = k;
        int nt = k.nt;
        src = new int[Math.max(k.count, 1)];
        scale = new float[Math.max(k.count, 1)];
        cum = new float[Math.max(k.count * nt, 1)];
        valueIdx = new int[Math.max(k.nval, 1)];
        valueIsP = new int[Math.max(k.nval, 1)];
        rec = new float[Math.max(k.nval * nt, 1)];
        store = null;
        stepTape = new float[k.tape == Storage.FULL ? (1 + ndim) * nc : nmech > 0 ? nc : 1];
        if (k.tape == Storage.FULL) {
            store = new float[DevicePlans.storeLength((long) nt * (1 + ndim) * nc, "acoustic-vd bracket")];
        } else if (k.tape == Storage.BOUNDARY_SAVING) {
            // one slot per step (the last one unused: the last state is kept whole)
            store = new float[Math.max(1, DevicePlans.storeLength((long) nt * (1 + ndim) * ringCells,
                    "acoustic-vd ring"))];
        } else if (k.tape == Storage.CHECKPOINTING) {
            store = new float[DevicePlans.storeLength((long) (nt + k.every - 1) / k.every * stateLength(),
                    "acoustic-vd checkpoint")];
        }
        int id = ++planCounter;
        Object[] modelArr = nmech > 0 ? new Object[] {kdt, bv, prof, coef, geo, alpha, cmem}
                : new Object[] {kdt, bv, prof, coef, geo};
        String modelName = "vdmodel" + id;
        TaskGraph mg = DevicePlans.touchAll(new TaskGraph(modelName)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, modelArr), modelArr, touch);
        mg.persistOnDevice(modelArr);
        List<ImmutableTaskGraph> graphs = new ArrayList<>();
        graphs.add(mg.snapshot());
        // TornadoVM hands consumed buffers over from the graph executed just before: every graph that can run before
        // another carries the model arrays (and the tape store) on
        Object[] carried = modelArr;
        String carrier = modelName;
        graphTape = -1;
        if (store != null) {
            carried = Arrays.copyOf(modelArr, modelArr.length + 1);
            carried[modelArr.length] = store;
            String tapeName = "vdtape" + id;
            TaskGraph tg = new TaskGraph(tapeName).consumeFromDevice(modelName, modelArr)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, store);
            tg.task("touch", AcousticStepKernels::touch, store, touch);
            tg.persistOnDevice(carried);
            graphTape = graphs.size();
            graphs.add(tg.snapshot());
            carrier = tapeName;
        }
        Object[] perShot = {src, scale, cum, valueIdx, valueIsP, step};
        List<Object> allList = new ArrayList<>(Arrays.asList(carried));
        allList.addAll(Arrays.asList(perShot));
        allList.addAll(List.of(p, v, psiV, psiP, rec, stepTape));
        if (nmech > 0) {
            allList.add(mem);
        }
        Object[] allArr = allList.toArray();
        String firstName = "vdfirst" + id;
        TaskGraph first = new TaskGraph(firstName).consumeFromDevice(carrier, carried)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, perShot);
        first.task("zeroP", AcousticStepKernels::zero, p, p.length);
        first.task("zeroV", AcousticStepKernels::zero, v, v.length);
        first.task("zeroPsiV", AcousticStepKernels::zero, psiV, psiV.length);
        first.task("zeroPsiP", AcousticStepKernels::zero, psiP, psiP.length);
        if (nmech > 0) {
            first.task("zeroMem", AcousticStepKernels::zero, mem, mem.length);
        }
        addStep(first);
        first.persistOnDevice(allArr);
        graphFirst = graphs.size();
        graphs.add(first.snapshot());
        TaskGraph stepGraph = new TaskGraph("vdstep" + id).consumeFromDevice(firstName, allArr);
        addStep(stepGraph);
        stepGraph.persistOnDevice(allArr);
        graphStep = graphs.size();
        graphs.add(stepGraph.snapshot());
        if (k.tape != null) {
            if (adjoint == null || adjoint.storage() != k.tape) {
                adjoint = new TornadoAcousticVdAdjoint(this, k.tape);
            }
            adjoint.addGraphs(graphs, carrier, carried, k.count, k.nval, k.nfield, nt, k.every, id);
        }
        plan = DevicePlans.plan(graphs, device, strict);
        modelOnDevice = false;
        tapeAllocated = false;
    }

    /** The tasks of one forward step, in the Java solver's order (sweep.acousticvd.AcousticVdSolver's time loop). */
    private void addStep(TaskGraph t) {
        Key k = key;
        int taping = k.tape == Storage.FULL ? 1 : 0;
        int tapingP = nmech > 0 ? 1 : taping; // the memory update reads the pressure bracket
        if (k.tape == Storage.CHECKPOINTING) {
            int off = 0;
            int q = 0;
            for (float[] f : state()) {
                t.task("save" + q++, AcousticVdStepKernels::saveAt, f, store, f.length, off, stateLength(), k.every,
                        step);
                off += f.length;
            }
        }
        if (k.nval > 0) {
            t.task("recordP", AcousticVdStepKernels::sample, p, v, valueIdx, valueIsP, rec, k.nval, 1, step);
        }
        addUpdates(t, p, v, psiV, psiP, mem, stepTape, taping, tapingP);
        if (k.nval > 0) {
            t.task("recordV", AcousticVdStepKernels::sample, p, v, valueIdx, valueIsP, rec, k.nval, 0, step);
        }
        addSourcesAndSurface(t, p, src, scale, cum, k.count, k.nt, step);
        if (k.tape == Storage.FULL) {
            t.task("store", AcousticStepKernels::storeAt, stepTape, store, (1 + ndim) * nc, step);
        } else if (k.tape == Storage.BOUNDARY_SAVING) {
            int slot = (1 + ndim) * ringCells;
            int off = 0;
            int q = 0;
            for (Box r : ring) {
                t.task("ringP" + q, ElasticStepKernels::packRing, p, store, off, slot, ringCells, 1, geo, r.z0(),
                        r.z1(), r.y0(), r.y1(), r.x0(), r.x1(), step);
                t.task("ringV" + q++, ElasticStepKernels::packRing, v, store, ringCells + off, slot, ringCells, ndim,
                        geo, r.z0(), r.z1(), r.y0(), r.y1(), r.x0(), r.x1(), step);
                off += (int) r.volume();
            }
        }
        t.task("advance", AcousticStepKernels::advance, step);
    }

    /**
     * The updates of one step on the state (p, v, psiV, psiP, mem), in the Java solver's order: velocity, vz images,
     * pressure, the relaxation's memory; the velocity brackets into {@code brackets} when {@code tapingV} is 1, the
     * pressure bracket when {@code tapingP} is 1 (always with a relaxation: its memory update reads it). The forward
     * step's and the checkpoint re-run's ({@link TornadoAcousticVdAdjoint}).
     */
    void addUpdates(TaskGraph t, float[] p, float[] v, float[] psiV, float[] psiP, float[] mem, float[] brackets,
                    int tapingV, int tapingP) {
        Box a = all;
        t.task("velocity", AcousticVdKernels::velocity, p, v, bv, psiV, prof, coef, geo, a.z0(), a.z1(), a.y0(),
                a.y1(), a.x0(), a.x1(), brackets, 0, tapingV);
        if (g.freeSurface()) {
            t.task("imagesV", AcousticVdKernels::velocityImages, v, geo, 0, g.ny());
        }
        t.task("pressure", AcousticVdKernels::pressure, p, v, kdt, psiP, prof, coef, geo, a.z0(), a.z1(), a.y0(),
                a.y1(), a.x0(), a.x1(), brackets, 0, tapingP);
        if (nmech > 0) {
            t.task("memory", PressureRelaxationKernels::memory, p, mem, cmem, alpha, brackets, 0, geo, nmech, a.z0(),
                    a.z1(), a.y0(), a.y1(), a.x0(), a.x1());
        }
    }

    /**
     * The end of one step on the pressure {@code p}: the {@code count} sources of step {@code step[0]}, then a free
     * surface's pressure row and images. The forward step's and the checkpoint re-run's.
     */
    void addSourcesAndSurface(TaskGraph t, float[] p, int[] sources, float[] scales, float[] cumulative, int count,
                              int nt, int[] step) {
        if (count > 0) {
            t.task("sources", AcousticVdStepKernels::inject, p, sources, scales, cumulative, count, nt, step);
        }
        if (g.freeSurface()) {
            t.task("surfaceP", AcousticVdKernels::zeroSurface, p, geo, 0, g.ny());
            t.task("imagesP", AcousticVdKernels::pressureImages, p, geo, 0, g.ny());
        }
    }

    @Override
    public void backward(Tape tape, float[] residual, int nt, float[] srcAdjoint, float[] gkOut, float[] gbOut,
                         float[] gcOut) {
        Objects.requireNonNull(tape, "tape");
        preparePlan(keyOf(tape.shot, nt, tape));
        if (tape != deviceTape) {
            if (tape.stores == null) {
                throw new IllegalStateException("this acoustic-vd tape is no longer held (a new model was set after"
                        + " its forward run): run the gradient-capable forward again");
            }
            flushTape(); // a tape kept on the host: back to the device, in the store's place
            System.arraycopy(tape.stores[0], 0, store, 0, store.length);
            lastResult = plan.withGraph(graphTape).execute();
        }
        lastResult = adjoint.backward(plan, tape, residual, nt, srcAdjoint, gkOut, gbOut, gcOut);
    }

    // what the adjoint reads of the forward stepper (the same arrays: one plan)
    GridView grid() {
        return g;
    }

    int[] geo() {
        return geo;
    }

    float[] coef() {
        return coef;
    }

    float[] kdt() {
        return kdt;
    }

    float[] buoyancy() {
        return bv;
    }

    float[] profiles() {
        return prof;
    }

    int mechanisms() {
        return nmech;
    }

    /** The state a checkpoint keeps, in its order: p, the velocities, both CPML memories, the memory variables. */
    float[][] state() {
        return nmech > 0 ? new float[][] {p, v, psiV, psiP, mem} : new float[][] {p, v, psiV, psiP};
    }

    /** The floats of one checkpoint. */
    int stateLength() {
        int n = 0;
        for (float[] f : state()) {
            n += f.length;
        }
        return n;
    }

    float[] alpha() {
        return alpha;
    }

    float[] memoryCoefficients() {
        return cmem;
    }

    float[] store() {
        return store;
    }

    Box allBox() {
        return all;
    }

    Box rebuiltBox() {
        return rebuilt;
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
