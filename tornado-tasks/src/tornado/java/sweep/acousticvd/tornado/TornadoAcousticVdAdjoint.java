package sweep.acousticvd.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.acoustic.tornado.AcousticStepKernels;
import sweep.acousticvd.AcousticVdDeviceStepper.Shot;
import sweep.acousticvd.AcousticVdDeviceStepper.Tape;
import sweep.acousticvd.kernels.AcousticVdAdjointKernels;
import sweep.acousticvd.kernels.AcousticVdKernels;
import sweep.acousticvd.kernels.PressureRelaxationKernels;
import sweep.core.Box;
import sweep.elastic.tornado.ElasticStepKernels;
import sweep.kernels.Layout;
import sweep.prop.Storage;
import sweep.tornado.DevicePlans;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The TornadoVM backend's variable-density acoustic adjoint time loop for one grid: the Java solver's sequence
 * ({@code sweep.acousticvd.AcousticVdSolver#adjoint}: surface^T, the values at the sources, the memory update's and
 * the pressure update's transposes, record^T, for boundary saving the rebuild of p, the velocity update's transpose,
 * the rebuild of v) as task graphs that {@link TornadoAcousticVdStepper} puts into its own plan after the forward
 * graphs, on the model and tape buffers of its tape graph:
 * <ul>
 * <li>{@code first} (t = nt−1): uploads per shot the sources, receivers, the residual and, for boundary saving, the
 * state after the last step; zeroes the adjoint fields and node gradients on the device (under checkpointing it
 * runs no step);</li>
 * <li>{@code step} (t = nt−2..1; under checkpointing every t) on {@code first}'s buffers;</li>
 * <li>{@code last} (t = 0, boundary saving): no rebuild, as on the host;</li>
 * <li>{@code restore} and {@code replay} (checkpointing): per segment, last to first, its checkpoint restored and its
 * steps re-run with their brackets into a segment tape, which the segment's adjoint steps then read.</li>
 * </ul>
 * Only the node gradients and p̄ at the sources come back, once per shot (the host maps the former onto vp and rho, or
 * through the relaxation onto its parameters, and forms dJ/dwavelet from the latter in double, as the Java solver
 * does).
 */
final class TornadoAcousticVdAdjoint {
    private final TornadoAcousticVdStepper f;
    private final Storage storage;
    private final int ndim;
    private final float[] pb;
    private final float[] vb;
    private final float[] psiVb;
    private final float[] psiPb;
    private final float[] e;
    private final float[] d;
    private final float[] gk;
    private final float[] gb;
    /** With a relaxation: the memory variables' adjoints, dJ/dc_l per node and the memory's adjoint bracket. */
    private final int nmech;
    private final float[] memb;
    private final float[] gc;
    private final float[] divBar;
    /** One step's brackets: from the tape (full) or formed from the rebuilt fields (boundary saving). */
    private final float[] tapeA;
    /** Boundary saving: the rebuilt pressure and velocities (unused otherwise). */
    private final float[] rp;
    private final float[] rv;
    /**
     * Checkpointing: the re-run state (p, velocities, both CPML memories, memory variables, as the forward stepper's
     * {@code state()}), one step's brackets, the segment's brackets (allocated per plan) and the re-run's step counter.
     */
    private final float[][] replay;
    private final float[] replayBrackets;
    private float[] segment;
    private final int[] replayStep = new int[1];
    private int every;
    private final int[] step = new int[1];
    private final float[] touch = new float[1];
    private int[] src;
    private float[] scale;
    private float[] cum;
    private int[] valueIdx;
    private int[] valueIsP;
    private float[] res;
    private float[] srcAdj;
    private int count;
    private int nval;
    private int nfield;
    private int graphFirst;
    private int graphStep;
    private int graphLast;
    private int graphRestore;
    private int graphReplay;

    TornadoAcousticVdAdjoint(TornadoAcousticVdStepper f, Storage storage) {
        this.f = f;
        this.storage = storage;
        int[] geo = f.geo();
        this.ndim = geo[Layout.NDIM];
        int len = geo[Layout.LEN];
        pb = new float[len];
        vb = new float[ndim * len];
        psiVb = new float[geo[Layout.AUX_LEN]];
        psiPb = new float[geo[Layout.AUX_LEN]];
        e = new float[ndim * len];
        d = new float[ndim * len];
        gk = new float[len];
        gb = new float[ndim * len];
        nmech = f.mechanisms();
        memb = new float[Math.max(1, nmech * len)];
        gc = new float[Math.max(1, nmech * len)];
        divBar = new float[nmech > 0 ? f.cells() : 1];
        tapeA = new float[(1 + ndim) * f.cells()];
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        rp = bs ? new float[len] : null;
        rv = bs ? new float[ndim * len] : null;
        boolean cp = storage == Storage.CHECKPOINTING;
        float[][] forward = f.state();
        replay = new float[cp ? forward.length : 0][];
        for (int k = 0; k < replay.length; k++) {
            replay[k] = new float[forward[k].length];
        }
        replayBrackets = cp ? new float[(1 + ndim) * f.cells()] : null;
    }

    Storage storage() {
        return storage;
    }

    /**
     * Appends this adjoint's graphs for shots of {@code count} sources, {@code nval} recorded values of
     * {@code nfield} fields and {@code nt} steps ({@code every} steps between checkpoints under checkpointing) to
     * {@code graphs}; graph {@code carrier} keeps the model and tape arrays ({@code carried}) on the device, which
     * these graphs consume and persist in turn.
     */
    void addGraphs(List<ImmutableTaskGraph> graphs, String carrier, Object[] carried, int count, int nval, int nfield,
                   int nt, int every, int id) {
        this.every = every;
        this.count = count;
        this.nval = nval;
        this.nfield = nfield;
        src = new int[Math.max(count, 1)];
        scale = new float[Math.max(count, 1)];
        cum = new float[Math.max(count * nt, 1)];
        valueIdx = new int[Math.max(nval, 1)];
        valueIsP = new int[Math.max(nval, 1)];
        res = new float[Math.max(nval * nt, 1)];
        srcAdj = new float[Math.max(count * nt, 1)];
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        List<Object> perShot = new ArrayList<>(List.of(src, scale, cum, valueIdx, valueIsP, res, step));
        if (bs) {
            perShot.add(rp);
            perShot.add(rv);
        }
        List<Object> all = new ArrayList<>(Arrays.asList(carried));
        all.addAll(perShot);
        List<float[]> zeroed = new ArrayList<>(List.of(pb, vb, psiVb, psiPb, e, d, gk, gb, tapeA, srcAdj));
        if (nmech > 0) {
            zeroed.addAll(List.of(memb, gc, divBar));
        }
        boolean cp = storage == Storage.CHECKPOINTING;
        if (cp) {
            segment = new float[DevicePlans.storeLength((long) every * replayBrackets.length,
                    "acoustic-vd checkpoint segment")];
            zeroed.addAll(Arrays.asList(replay));
            zeroed.addAll(List.of(replayBrackets, segment));
        }
        all.addAll(zeroed);
        if (cp) {
            all.add(replayStep);
        }
        Object[] allArr = all.toArray();
        String firstName = "vdadjFirst" + id;
        TaskGraph first = new TaskGraph(firstName).consumeFromDevice(carrier, carried)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, perShot.toArray());
        int z = 0;
        for (float[] a : zeroed) {
            first.task("zero" + z++, AcousticStepKernels::zero, a, a.length);
        }
        if (cp) {
            // every step runs in the step graph, after its segment's re-run; this puts the counter on the device
            first.task("segment", AcousticVdStepKernels::segmentStart, replayStep, step, every);
        } else {
            addStep(first, nt - 1 > 0, nt, false);
        }
        first.persistOnDevice(allArr);
        graphFirst = graphs.size();
        graphs.add(first.snapshot());
        if (cp) {
            addReplayGraphs(graphs, firstName, allArr, nt, id);
        }
        TaskGraph mid = new TaskGraph("vdadjStep" + id).consumeFromDevice(firstName, allArr);
        addStep(mid, true, nt, true);
        mid.persistOnDevice(allArr);
        graphStep = graphs.size();
        graphs.add(mid.snapshot());
        graphLast = graphStep;
        if (bs && nt > 1) {
            TaskGraph last = new TaskGraph("vdadjLast" + id).consumeFromDevice(firstName, allArr);
            addStep(last, false, nt, true);
            last.persistOnDevice(allArr);
            graphLast = graphs.size();
            graphs.add(last.snapshot());
        }
    }

    /**
     * The tasks of adjoint step t (counter {@code step[0]} = t) in the Java solver's order; {@code rebuild}: boundary
     * saving rebuilds p^t and v^{t−½} (not after step 0). {@code later}: a graph after the first, whose arrays are read
     * before they are written (so their device contents are kept).
     */
    private void addStep(TaskGraph t, boolean rebuild, int nt, boolean later) {
        int[] geo = f.geo();
        float[] coef = f.coef();
        float[] kdt = f.kdt();
        float[] bv = f.buoyancy();
        float[] prof = f.profiles();
        float[] store = f.store();
        boolean fs = f.grid().freeSurface();
        int fsi = fs ? 1 : 0;
        int ny = f.grid().ny();
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        Box a = f.allBox();
        Box in = f.rebuiltBox();
        if (later) {
            t.task("touchTape", AcousticStepKernels::touch, tapeA, touch);
            t.task("touchPb", AcousticStepKernels::touch, pb, touch);
            t.task("touchSrc", AcousticStepKernels::touch, srcAdj, touch);
            if (nmech > 0) {
                t.task("touchDivBar", AcousticStepKernels::touch, divBar, touch);
            }
        }
        if (fs) {
            t.task("surfacePb", AcousticVdAdjointKernels::zeroSurface, pb, geo, 0, ny);
        }
        if (count > 0) {
            t.task("sources", AcousticVdStepKernels::gatherAt, pb, src, srcAdj, count, step);
        }
        if (bs) {
            t.task("bracketsP", AcousticVdAdjointKernels::brackets, rp, rv, coef, geo, 0, a.z0(), a.z1(), a.y0(),
                    a.y1(), a.x0(), a.x1(), tapeA, 0);
        } else if (storage == Storage.CHECKPOINTING) {
            t.task("load", AcousticVdStepKernels::loadFromSegment, segment, tapeA, (1 + ndim) * f.cells(), every,
                    step);
        } else {
            t.task("load", AcousticStepKernels::loadAt, store, tapeA, (1 + ndim) * f.cells(), step);
        }
        if (nmech > 0) {
            t.task("memoryTranspose", PressureRelaxationKernels::memoryTranspose, pb, memb, f.memoryCoefficients(),
                    f.alpha(), tapeA, 0, gc, divBar, geo, nmech, a.z0(), a.z1(), a.y0(), a.y1(), a.x0(), a.x1());
        }
        t.task("pressurePoint", AcousticVdAdjointKernels::pressurePoint, pb, psiPb, kdt, prof, e, gk, geo, a.z0(),
                a.z1(), a.y0(), a.y1(), a.x0(), a.x1(), tapeA, 0, nmech > 0 ? divBar : tapeA, nmech > 0 ? 1 : 0);
        t.task("velocityGather", AcousticVdAdjointKernels::velocityGather, vb, e, coef, geo, fsi, a.z0(), a.z1(),
                a.y0(), a.y1(), a.x0(), a.x1());
        if (nval > 0) {
            t.task("residual", AcousticVdStepKernels::addResidual, pb, vb, valueIdx, valueIsP, res, nval / nfield,
                    nfield, step);
        }
        int cells = f.ringCells();
        int slot = (1 + ndim) * cells;
        if (bs && rebuild) {
            if (count > 0) {
                t.task("unSources", AcousticVdStepKernels::uninject, rp, src, scale, cum, count, nt, step);
            }
            if (in != null) {
                t.task("rebuildP", AcousticVdAdjointKernels::reversePressure, rp, rv, kdt, coef, geo, in.z0(), in.z1(),
                        in.y0(), in.y1(), in.x0(), in.x1());
            }
            unpackRing(t, "ringP", rp, store, 0, slot, cells, 1, geo);
            if (fs) {
                t.task("surfaceRp", AcousticVdKernels::zeroSurface, rp, geo, 0, ny);
                t.task("imagesRp", AcousticVdKernels::pressureImages, rp, geo, 0, ny);
            }
        }
        if (bs) {
            t.task("bracketsV", AcousticVdAdjointKernels::brackets, rp, rv, coef, geo, 1, a.z0(), a.z1(), a.y0(),
                    a.y1(), a.x0(), a.x1(), tapeA, 0);
        }
        t.task("velocityPoint", AcousticVdAdjointKernels::velocityPoint, vb, psiVb, bv, prof, d, gb, geo, a.z0(),
                a.z1(), a.y0(), a.y1(), a.x0(), a.x1(), tapeA, 0);
        t.task("pressureGather", AcousticVdAdjointKernels::pressureGather, pb, d, coef, geo, fsi, a.z0(), a.z1(),
                a.y0(), a.y1(), a.x0(), a.x1());
        if (bs && rebuild) {
            if (in != null) {
                t.task("rebuildV", AcousticVdAdjointKernels::reverseVelocity, rp, rv, bv, coef, geo, in.z0(), in.z1(),
                        in.y0(), in.y1(), in.x0(), in.x1());
            }
            unpackRing(t, "ringV", rv, store, cells, slot, cells, ndim, geo);
            if (fs) {
                t.task("imagesRv", AcousticVdKernels::velocityImages, rv, geo, 0, ny);
            }
        }
        t.task("retreat", AcousticStepKernels::retreat, step);
    }

    /**
     * Checkpointing's two graphs besides the adjoint step: {@code restore} puts the re-run counter at the first step
     * of the segment that holds the next adjoint step and the re-run state at that segment's checkpoint;
     * {@code replay} runs one forward step of the segment (the Java solver's sub-steps, sources included, no record)
     * with its brackets into the segment's slot of that step.
     */
    private void addReplayGraphs(List<ImmutableTaskGraph> graphs, String firstName, Object[] allArr, int nt, int id) {
        TaskGraph restore = new TaskGraph("vdadjRestore" + id).consumeFromDevice(firstName, allArr);
        restore.task("segment", AcousticVdStepKernels::segmentStart, replayStep, step, every);
        int slot = 0;
        for (float[] r : replay) {
            slot += r.length;
        }
        int off = 0;
        int q = 0;
        for (float[] r : replay) {
            restore.task("touch" + q, AcousticStepKernels::touch, r, touch);
            restore.task("restore" + q++, AcousticVdStepKernels::restoreAt, f.store(), r, r.length, off, slot, every,
                    replayStep);
            off += r.length;
        }
        restore.persistOnDevice(allArr);
        graphRestore = graphs.size();
        graphs.add(restore.snapshot());
        TaskGraph t = new TaskGraph("vdadjReplay" + id).consumeFromDevice(firstName, allArr);
        t.task("touchSegment", AcousticStepKernels::touch, segment, touch);
        float[] mem = nmech > 0 ? replay[4] : null;
        f.addUpdates(t, replay[0], replay[1], replay[2], replay[3], mem, replayBrackets, 1, 1);
        f.addSourcesAndSurface(t, replay[0], src, scale, cum, count, nt, replayStep);
        t.task("store", AcousticVdStepKernels::storeInSegment, replayBrackets, segment, replayBrackets.length, every,
                replayStep);
        t.task("advance", AcousticStepKernels::advance, replayStep);
        t.persistOnDevice(allArr);
        graphReplay = graphs.size();
        graphs.add(t.snapshot());
    }

    /** Tasks unpacking every ring box of {@code ncomp} components of {@code fld} from the previous step's slot. */
    private void unpackRing(TaskGraph t, String name, float[] fld, float[] store, int base, int slot, int cells,
                            int ncomp, int[] geo) {
        int off = base;
        int q = 0;
        for (Box r : f.ringBoxes()) {
            t.task(name + q++, ElasticStepKernels::unpackRingBefore, fld, store, off, slot, cells, ncomp, geo, r.z0(),
                    r.z1(), r.y0(), r.y1(), r.x0(), r.x1(), step);
            off += (int) r.volume();
        }
    }

    /**
     * The adjoint run of {@code tape} on {@code plan} (its graphs for this tape's shape added, model and tape on the
     * device); see {@link sweep.acousticvd.AcousticVdDeviceStepper#backward}. Returns the last graph's result.
     */
    TornadoExecutionResult backward(TornadoExecutionPlan plan, Tape tape, float[] residual, int nt,
                                    float[] srcAdjoint, float[] gkOut, float[] gbOut, float[] gcOut) {
        Shot shot = tape.shot;
        System.arraycopy(shot.src(), 0, src, 0, count);
        System.arraycopy(shot.scale(), 0, scale, 0, count);
        System.arraycopy(shot.cum(), 0, cum, 0, count * nt);
        System.arraycopy(shot.valueIdx(), 0, valueIdx, 0, nval);
        System.arraycopy(shot.valueIsP(), 0, valueIsP, 0, nval);
        System.arraycopy(residual, 0, res, 0, nval * nt);
        if (storage == Storage.BOUNDARY_SAVING) {
            System.arraycopy(tape.lastP, 0, rp, 0, rp.length);
            System.arraycopy(tape.lastV, 0, rv, 0, rv.length);
        }
        step[0] = nt - 1;
        TornadoExecutionResult last = null;
        if (storage == Storage.CHECKPOINTING) {
            // segments last to first: its checkpoint restored, its steps re-run with their brackets into the
            // segment, then run backwards
            plan.withGraph(graphFirst).execute();
            for (int c = (nt - 1) / every; c >= 0; c--) {
                int n0 = c * every;
                int n1 = Math.min(nt, n0 + every);
                plan.withGraph(graphRestore).execute();
                for (int n = n0; n < n1; n++) {
                    plan.withGraph(graphReplay).execute();
                }
                for (int n = n1 - 1; n >= n0; n--) {
                    last = plan.withGraph(graphStep).execute();
                }
            }
        } else {
            for (int t = nt - 1; t >= 0; t--) {
                int graph = t == nt - 1 ? graphFirst : t == 0 ? graphLast : graphStep;
                last = plan.withGraph(graph).execute();
            }
        }
        List<Object> out = new ArrayList<>(List.of(gk, gb));
        if (count > 0) {
            out.add(srcAdj);
        }
        if (nmech > 0) {
            out.add(gc);
        }
        last.transferToHost(out.toArray());
        if (count > 0) {
            System.arraycopy(srcAdj, 0, srcAdjoint, 0, count * nt);
        }
        plan.clearProfiles();
        System.arraycopy(gk, 0, gkOut, 0, gk.length);
        System.arraycopy(gb, 0, gbOut, 0, gb.length);
        if (nmech > 0) {
            System.arraycopy(gc, 0, gcOut, 0, gc.length);
        }
        return last;
    }
}
