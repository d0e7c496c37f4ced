package sweep.acoustic.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.acoustic.AcousticDeviceStepper;
import sweep.acoustic.AcousticDeviceTape;
import sweep.core.Box;
import sweep.kernels.Pack;
import sweep.prop.HaloHook;
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
 * The TornadoVM backend's stepper: one {@link TornadoExecutionPlan} per solver (tile) holding a model graph, three
 * task graphs of the same forward time step (sample, CPML auxiliaries per PML box, PML boxes, interior box, injection,
 * free-surface mirror, step counter), built from the portable kernels, and for gradient runs the four graphs of the
 * adjoint step ({@link TornadoAcousticAdjoint}):
 * <ul>
 * <li>{@code model} (graph 0, run once per plan): uploads the model, profiles and weights, which every other graph
 * uses from there ({@code consumeFromDevice});</li>
 * <li>{@code first} (step 0 of a shot): zeroes the wavefields and auxiliaries on the device and uploads the source and
 * receiver indices, wavelets and the step counter (once per shot);</li>
 * <li>{@code even} and {@code odd}: the step with the two wavefield levels in either role (the leapfrog swaps them),
 * using {@code first}'s device buffers ({@code consumeFromDevice}), so nothing travels between steps.</li>
 * </ul>
 * The record stays on the device and comes back once per shot, with the final wavefield (and, when asked for,
 * snapshot levels after the steps that write them). The step index is a device
 * counter ({@link AcousticStepKernels}), since task arguments are fixed when a graph is built.
 *
 * <p>For a gradient the same graphs also record the tape into one device array (see {@link AcousticDeviceTape}), owned
 * by graph {@code tapeIn} (graph 4): it stays on the device for the shot's adjoint run ({@link #backward}, the adjoint
 * graphs of the same plan) and comes to the host only when a later shot of a batch needs its place; {@code tapeIn}
 * uploads it again for its adjoint run. Under domain decomposition (a {@link HaloHook} that exchanges packed strips)
 * each step graph starts by unpacking the strips received after the previous step and ends by packing its cut strips
 * into one send buffer; only those buffers travel between steps.
 *
 * <p>Bit-identical to the Java backend when the JVM runs with {@code -Dtornado.enable.fma=false} (then the OpenCL
 * programs are also built with {@code -w} only, without {@code -cl-mad-enable -cl-fast-relaxed-math}).
 * Device: {@code -Dsweep.tornado.device=i:j} (TornadoVM's backend and device index; default: TornadoVM's default).
 */
public final class TornadoAcousticStepper implements AcousticDeviceStepper {
    /**
     * TornadoVM's limit on the bytecode of one task graph (default 4096 bytes) is too small for a 3-D adjoint step
     * (tens of tasks); raised here unless the JVM was started with {@code -Dtornado.tvm.maxbytecodesize}. TornadoVM
     * reads it once, when its graph compiler first runs, so the launcher and the test configuration also pass it.
     */
    static final String BYTECODE_PROPERTY = "tornado.tvm.maxbytecodesize";

    static {
        if (System.getProperty(BYTECODE_PROPERTY) == null) {
            System.setProperty(BYTECODE_PROPERTY, "65536");
        }
    }


    private final GridView g;
    /** The kernels of the grid's dimension, as tasks. */
    private final AcousticTasks tasks;
    /** Domain decomposition: the tile's halo hook (null on one domain), its strips and the pack buffers. */
    private final HaloHook halo;
    private final List<Box> sendBoxes;
    private final List<Box> recvBoxes;
    private final float[] sendBuf;
    private final float[] recvBuf;
    private final boolean strict;
    private final TornadoDevice device;
    private final float[] a;
    private final float[] b;
    private final float[] psi;
    private final float[] zeta;
    private final float[] v2;
    /** psi and zeta as passed to the tape's Laplacian: stand-ins on a grid without PML (never read there). */
    private final float[] psiArg;
    private final float[] zetaArg;
    private float[] prof;
    private final int[] step = new int[1];
    private int[] srcIdx;
    private int[] recIdx;
    private float[] wavelet;
    private float[] rec;
    private TornadoExecutionPlan plan;
    private int planNsrc = -1;
    private int planNrec = -1;
    private int planNt = -1;
    /** The tape the current plan records: null (forward only), FULL or BOUNDARY_SAVING. */
    private Storage planTape;
    /** The tape store on the device (nt slots) and, for FULL, the scratch array of one step's term. */
    private float[] store;
    /** The tape whose store the device holds and the host does not have yet (its {@code store} is null), or null. */
    private AcousticDeviceTape deviceTape;
    /** Whether the current plan's {@code tapeIn} graph (graph 4, gradient plans only) has run once. */
    private boolean tapeAllocated;
    private float[] term;
    private TornadoAcousticAdjoint adjoint;
    /** Whether the current plan's {@code model} graph (graph 0) has run, i.e. the model is on the device. */
    private boolean modelOnDevice;
    /** The one-element array the {@code model} graph's only task writes (a graph needs a task). */
    private final float[] touch = new float[1];
    /** Likewise for the {@code tapeIn} graph. */
    private final float[] tapeTouch = new float[1];
    private TornadoExecutionResult lastResult;
    /** Seconds of the last shot's steps after the first ({@link #lastStepLoopSeconds}). */
    private double lastLoop = Double.NaN;
    private float[] lastField;
    private static int planCounter;

    public TornadoAcousticStepper(GridView g, HaloHook halo) {
        this.g = g;
        this.tasks = AcousticTasks.of(g.ndim());
        this.halo = halo;
        this.sendBoxes = halo == null || halo.sendBoxes() == null ? List.of() : boxes(halo.sendBoxes());
        this.recvBoxes = halo == null || halo.recvBoxes() == null ? List.of() : boxes(halo.recvBoxes());
        this.sendBuf = new float[Math.max(Box.volume(sendBoxes), 1)];
        this.recvBuf = new float[Math.max(Box.volume(recvBoxes), 1)];
        this.strict = DevicePlans.strictMath();
        this.device = TornadoDevices.chooseDevice();
        int len = g.length();
        a = new float[len];
        b = new float[len];
        v2 = new float[len];
        psi = g.hasPml() ? new float[g.auxLength()] : null;
        zeta = g.hasPml() ? new float[g.auxLength()] : null;
        psiArg = psi != null ? psi : new float[1];
        zetaArg = zeta != null ? zeta : new float[1];
    }

    /** The halo hook's boxes {z0, z1, y0, y1, x0, x1} as boxes. */
    static List<Box> boxes(int[][] bounds) {
        return Arrays.stream(bounds).map(Box::of).toList();
    }

    TornadoDevice device() {
        return device;
    }

    boolean strict() {
        return strict;
    }

    @Override
    public double lastStepLoopSeconds() {
        return lastLoop;
    }

    @Override
    public String describe() {
        return DevicePlans.describe(device, strict);
    }

    @Override
    public void setModel(float[] v2src, float[] profSrc) {
        if (prof != null && Arrays.equals(v2, v2src) && Arrays.equals(prof, profSrc)) {
            // the same model again (Propagator sets it again after a new PML velocity that left the profiles as they
            // were): keep the plan, its compiled graphs and a tape it holds
            return;
        }
        System.arraycopy(v2src, 0, v2, 0, v2.length);
        prof = profSrc.clone();
        closePlan(); // the model travels once per plan (graph 0)
    }

    @Override
    public float[] shot(int[] src, float[] w, int[] rcv, int nt, AcousticDeviceTape tape, int every,
            Snapshots snapshots) {
        int nsrc = src.length;
        int nrec = rcv.length;
        Storage mode = tape == null ? null : tape.storage;
        preparePlan(nsrc, nrec, nt, mode);
        flushTape();
        System.arraycopy(src, 0, srcIdx, 0, nsrc);
        System.arraycopy(rcv, 0, recIdx, 0, nrec);
        System.arraycopy(w, 0, wavelet, 0, nsrc * nt);
        step[0] = 0; // the fields and auxiliaries are zeroed on the device by the first step's graph
        Arrays.fill(recvBuf, 0f);
        long loopStart = 0;
        for (int n = 0; n < nt; n++) {
            if (n == 1) {
                loopStart = System.nanoTime();
            }
            lastResult = plan.withGraph(n == 0 ? 1 : (n % 2 == 0 ? 2 : 3)).execute();
            if (every > 0 && (n + 1) % every == 0) {
                // u^{n+1}: the level step n wrote (it read a when n is even)
                float[] written = n % 2 == 0 ? b : a;
                lastResult.transferToHost(written);
                snapshots.at(n + 1, written);
            }
            if (!sendBoxes.isEmpty()) {
                // only the packed strips travel: device -> host (sendBuf), MPI, host -> device (recvBuf, unpacked
                // into the level the next step reads, as its first task)
                halo.exchangePacked(sendBuf, recvBuf);
            }
        }
        lastLoop = nt > 1 ? (System.nanoTime() - loopStart) * 1e-9 : Double.NaN;
        // u^nt: step n reads level (n even ? a : b) and writes the other.
        lastField = nt % 2 == 0 ? a : b;
        float[] other = lastField == a ? b : a;
        if (lastResult != null) {
            // one transfer of everything that comes back per shot (the record only when a task writes it)
            List<Object> back = new ArrayList<>();
            if (nrec > 0) {
                back.add(rec);
            }
            back.add(lastField);
            if (mode == Storage.BOUNDARY_SAVING) {
                back.add(other);
            }
            lastResult.transferToHost(back.toArray());
        }
        plan.clearProfiles();
        if (!recvBoxes.isEmpty()) {
            // the last exchange's halo, as the Java stepper's field has it
            int off = 0;
            for (Box q : recvBoxes) {
                Pack.unpack(lastField, recvBuf, off, g.geo(), q.z0(), q.z1(), q.y0(), q.y1(), q.x0(), q.x1());
                off += (int) q.volume();
            }
        }
        if (tape != null) {
            // the store stays on the device until another shot needs its place (flushTape)
            tape.store = null;
            deviceTape = tape;
            if (mode == Storage.BOUNDARY_SAVING) {
                tape.last = lastField.clone();
                tape.beforeLast = other.clone();
            }
        }
        return Arrays.copyOf(rec, nt * nrec);
    }

    @Override
    public float[] wavefield() {
        return lastField == null ? new float[a.length] : lastField.clone();
    }

    /**
     * Makes the current plan the one for shots of this shape and tape mode (building it when the last one differs)
     * and puts the model on the device (graph 0) once per plan.
     */
    private void preparePlan(int nsrc, int nrec, int nt, Storage mode) {
        if (plan == null || nsrc != planNsrc || nrec != planNrec || nt != planNt || mode != planTape) {
            closePlan();
            buildPlan(nsrc, nrec, nt, mode);
        }
        if (!modelOnDevice) {
            plan.withGraph(0).execute();
            modelOnDevice = true;
        }
        if (mode != null && !tapeAllocated) {
            plan.withGraph(4).execute(); // gives the store its device buffer (uploads the host array once)
            tapeAllocated = true;
        }
    }

    /** Copies the tape the device holds for an earlier shot to the host, before its place is used again. */
    private void flushTape() {
        if (deviceTape != null) {
            lastResult.transferToHost(store);
            deviceTape.store = store.clone();
            deviceTape = null;
        }
    }

    private void buildPlan(int nsrc, int nrec, int nt, Storage mode) {
        planTape = mode;
        store = null;
        term = null;
        if (mode == Storage.FULL) {
            long n = (long) nt * g.length();
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("full storage on the TornadoVM backend keeps nt x grid = " + n
                        + " floats in one device array (at most 2^31): use boundary saving");
            }
            store = new float[(int) n];
            term = new float[g.length()];
        } else if (mode == Storage.BOUNDARY_SAVING) {
            long n = (long) nt * g.ringSize();
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("boundary saving on the TornadoVM backend keeps nt x ring = " + n
                        + " floats in one device array (at most 2^31): use fewer steps per run");
            }
            store = new float[(int) Math.max(n, 1)];
        }
        srcIdx = new int[Math.max(nsrc, 1)];
        recIdx = new int[Math.max(nrec, 1)];
        wavelet = new float[Math.max(nsrc * nt, 1)];
        rec = new float[Math.max(nrec * nt, 1)];
        int id = ++planCounter;
        String model = "model" + id;
        String first = "first" + id;
        String tapeIn = "tapeIn" + id;
        List<Object> all = new ArrayList<>(List.of(a, b, v2, prof, g.coef(), g.geo(), srcIdx, recIdx, wavelet, rec,
                step));
        if (psi != null) {
            all.add(psi);
            all.add(zeta);
        } else {
            all.add(psiArg);
            all.add(zetaArg);
        }
        if (store != null) {
            all.add(store);
        }
        if (term != null) {
            all.add(term);
        }
        Object[] allArr = all.toArray();
        // graph 0 puts the model, profiles and weights on the device once per plan, for the forward and the adjoint
        // graphs alike
        Object[] modelArr = psi == null ? new Object[] {v2, prof, g.coef(), g.geo(), psiArg, zetaArg}
                : new Object[] {v2, prof, g.coef(), g.geo()};
        TaskGraph m = DevicePlans.touchAll(new TaskGraph(model)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, modelArr), modelArr, touch);
        m.persistOnDevice(modelArr);
        // TornadoVM hands a consumed buffer over from the graph executed just before (by the source's name, else every
        // consumed object): so every graph that can run before another carries the model arrays on (persists them).
        // The tape store's device buffer belongs to graph tapeIn (run after the model graph, and to upload a tape kept
        // on the host); the forward and adjoint graphs use it from there, so a shot's adjoint run reads the tape its
        // forward run left on the device.
        TaskGraph in = null;
        Object[] firstIn = modelArr;
        if (store != null) {
            firstIn = Arrays.copyOf(modelArr, modelArr.length + 1);
            firstIn[modelArr.length] = store;
            in = new TaskGraph(tapeIn).consumeFromDevice(model, modelArr)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, store)
                    .task("touchStore", AcousticStepKernels::touch, store, tapeTouch).persistOnDevice(firstIn);
        }
        TaskGraph t0 = new TaskGraph(first).consumeFromDevice(store != null ? tapeIn : model, firstIn)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, perShot());
        TaskGraph even = new TaskGraph("even" + id).consumeFromDevice(first, allArr);
        TaskGraph odd = new TaskGraph("odd" + id).consumeFromDevice(first, allArr);
        if (!sendBoxes.isEmpty()) {
            for (TaskGraph t : new TaskGraph[] {t0, even, odd}) {
                t.transferToDevice(DataTransferMode.EVERY_EXECUTION, recvBuf);
            }
        }
        // a shot starts from rest: its fields and auxiliaries are zeroed where they live, nothing is uploaded
        t0.task("zeroA", AcousticStepKernels::zero, a, a.length);
        t0.task("zeroB", AcousticStepKernels::zero, b, b.length);
        if (psi != null) {
            t0.task("zeroPsi", AcousticStepKernels::zero, psi, psi.length);
            t0.task("zeroZeta", AcousticStepKernels::zero, zeta, zeta.length);
        }
        addStep(t0, a, b, nsrc, nrec, nt);
        addStep(even, a, b, nsrc, nrec, nt);
        addStep(odd, b, a, nsrc, nrec, nt);
        for (TaskGraph t : new TaskGraph[] {t0, even, odd}) {
            if (!sendBoxes.isEmpty()) {
                t.transferToHost(DataTransferMode.EVERY_EXECUTION, sendBuf);
            }
            t.persistOnDevice(allArr);
        }
        List<ImmutableTaskGraph> graphs = new ArrayList<>(List.of(m.snapshot(), t0.snapshot(), even.snapshot(),
                odd.snapshot()));
        if (mode != null) {
            // graph 4 uploads a tape; the adjoint's graphs (from 5) in the same plan, on the model graph's and the
            // tapeIn graph's device buffers
            graphs.add(in.snapshot());
            if (adjoint == null || adjoint.storage() != mode) {
                adjoint = new TornadoAcousticAdjoint(g, mode, !sendBoxes.isEmpty() ? halo : null);
            }
            adjoint.addGraphs(graphs, tapeIn, firstIn, v2, prof, store, nsrc, nrec, nt, id);
        }
        plan = DevicePlans.plan(graphs, device, strict);
        planNsrc = nsrc;
        planNrec = nrec;
        planNt = nt;
    }

    /** What the first step's graph uploads for every shot: the sources, receivers, wavelets and the step counter. */
    private Object[] perShot() {
        return new Object[] {srcIdx, recIdx, wavelet, step};
    }

    /** The tasks of one step reading level {@code u} and writing {@code un}, in the Java stepper's order. */
    private void addStep(TaskGraph t, float[] u, float[] un, int nsrc, int nrec, int nt) {
        int[] geo = g.geo();
        float[] coef = g.coef();
        // the halo received after the previous step (zeros before step 0)
        AcousticTasks.unpackHalo(t, "unpack", u, recvBuf, geo, recvBoxes, step);
        if (nrec > 0) {
            t.task("sample", AcousticStepKernels::sample, u, recIdx, rec, nrec, step);
        }
        int k = 0;
        for (Box q : g.pmlBoxes()) {
            tasks.psi(t, "psi" + k++, u, psi, prof, coef, geo, q);
        }
        k = 0;
        for (Box q : g.pmlBoxes()) {
            tasks.pml(t, "pml" + k++, u, un, v2, psi, zeta, prof, coef, geo, q);
        }
        if (g.interiorBox() != null) {
            tasks.interior(t, "interior", u, un, v2, coef, geo, g.interiorBox());
        }
        if (nsrc > 0) {
            t.task("inject", AcousticStepKernels::inject, un, v2, srcIdx, wavelet, nsrc, nt, step);
        }
        if (g.freeSurface()) {
            tasks.mirrorTop(t, "mirror", un, geo, 0, g.ny(), 0, g.nx());
        }
        AcousticTasks.pack(t, "pack", un, sendBuf, geo, sendBoxes);
        if (planTape == Storage.FULL) {
            // the step's Laplacian-plus-source term of u^n (AcousticTapeRecorder.record), into slot n of the store
            tasks.laplacian(t, "term", u, psiArg, zetaArg, coef, geo, term, g.allBox());
            if (nsrc > 0) {
                t.task("termSrc", AcousticStepKernels::addAt, term, srcIdx, wavelet, nsrc, nt, step);
            }
            t.task("store", AcousticStepKernels::storeAt, term, store, g.length(), step);
        } else if (planTape == Storage.BOUNDARY_SAVING) {
            int off = 0;
            k = 0;
            for (Box q : g.ringBoxes()) {
                t.task("ring" + k++, AcousticStepKernels::packRing, u, store, off, g.ringSize(), geo, q.z0(), q.z1(),
                        q.y0(),
                        q.y1(), q.x0(), q.x1(), step);
                off += (int) q.volume();
            }
        }
        t.task("advance", AcousticStepKernels::advance, step);
    }

    @Override
    public void backward(AcousticDeviceTape tape, float[] residualT, int nt, float[] gradOut, float[] wbar) {
        // the plan of this tape's shape: after a batch of forward runs of other shapes it is built (and the model
        // uploaded) again, without running its forward graphs
        preparePlan(tape.srcIdx.length, tape.recIdx.length, nt, tape.storage);
        if (tape != deviceTape) {
            // a tape kept on the host (a batch of forward runs): back to the device, in the store's place
            flushTape();
            System.arraycopy(tape.store, 0, store, 0, store.length);
            plan.withGraph(4).execute();
        }
        adjoint.backward(plan, tape, residualT, nt, gradOut, wbar);
    }

    private void closePlan() {
        if (plan != null) {
            flushTape();
            DevicePlans.close(plan);
            plan = null;
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
