package sweep.elastic.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.acoustic.tornado.AcousticStepKernels;
import sweep.core.Box;
import sweep.elastic.ElasticDeviceTape;
import sweep.elastic.ElasticShot;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;
import sweep.prop.Storage;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The TornadoVM backend's elastic adjoint time loop for one grid: the Java backend's sequence
 * ({@code sweep.elastic.ElasticAdjoint}: for boundary saving the rebuild of step t, then the transposed step IS^T, E^T,
 * S^T with its image rows and memory variables, record^T, IV^T, F^T, V^T likewise) as three task graphs that
 * {@link TornadoElasticStepper} puts into its own plan after the forward graphs, on the model and tape buffers of its
 * tape graph:
 * <ul>
 * <li>{@code first} (t = nt−1): uploads per shot the injection entries, samples, receivers, the residual and, for
 * boundary saving, the state after the last step; zeroes the adjoint fields and node gradients on the device;</li>
 * <li>{@code step} (t = nt−2..1) on {@code first}'s buffers;</li>
 * <li>{@code last} (t = 0, boundary saving): the rebuild ends in the zero state, set exactly.</li>
 * </ul>
 * Only the node gradients and the adjoint values at the injection entries come back, once per shot (the host maps
 * the former onto vp, vs, rho and forms dJ/dwavelet from the latter in double, as the Java backend does).
 */
final class TornadoElasticAdjoint {
    private final TornadoElasticStepper f;
    private final Storage storage;
    private final int ndim;
    private final int nv;
    private final int ns;
    private final float[] vb;
    private final float[] sb;
    private final float[] psib;
    private final float[] gb;
    private final float[] gm;
    /** One step's velocity and strain terms: from the tape (full) or written by the rebuild (boundary saving). */
    private final float[] tvA;
    private final float[] tsA;
    /** Boundary saving: the rebuilt velocities and stresses (unused otherwise). */
    private final float[] rv;
    private final float[] rs;
    private final int[] step = new int[1];
    private final float[] touch = new float[1];
    private int[] srcIdx;
    private float[] samples;
    private int[] recIdx;
    private int[] kind;
    private int[] termIdx;
    private float[] termSamples;
    private float[] res;
    private float[] srcAdj;
    private int count;
    private int nval;
    private int terms;
    private int graphFirst;
    private int graphStep;
    private int graphLast;

    TornadoElasticAdjoint(TornadoElasticStepper f, Storage storage) {
        this.f = f;
        this.storage = storage;
        int[] geo = f.geo();
        this.ndim = geo[Layout.NDIM];
        this.nv = ElasticLayout.velocities(ndim);
        this.ns = ElasticLayout.stresses(ndim);
        int len = geo[Layout.LEN];
        vb = new float[nv * len];
        sb = new float[ns * len];
        psib = new float[Math.max(1, TornadoElasticStepper.psiLength(geo))];
        gb = new float[nv * len];
        gm = new float[ElasticLayout.moduli(ndim) * len];
        tvA = new float[nv * f.cells()];
        tsA = new float[ns * f.cells()];
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        rv = bs ? new float[nv * len] : null;
        rs = bs ? new float[ns * len] : null;
    }

    Storage storage() {
        return storage;
    }

    /**
     * Appends this adjoint's graphs for shots of {@code count} injection entries, {@code nval} recorded values,
     * {@code terms} force terms and {@code nt} steps to {@code graphs}; graph {@code carrier} keeps the model and tape
     * arrays ({@code carried}) on the device, which these graphs consume and persist in turn.
     */
    void addGraphs(List<ImmutableTaskGraph> graphs, String carrier, Object[] carried, int count, int nval, int terms,
                   int nt, boolean explosive, int id) {
        this.count = count;
        this.nval = nval;
        this.terms = terms;
        srcIdx = new int[Math.max(count, 1)];
        samples = new float[Math.max(count * nt, 1)];
        recIdx = new int[Math.max(nval, 1)];
        kind = new int[Math.max(nval, 1)];
        termIdx = new int[Math.max(terms, 1)];
        termSamples = new float[Math.max(terms * nt, 1)];
        res = new float[Math.max(nval * nt, 1)];
        srcAdj = new float[Math.max(count * nt, 1)];
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        List<Object> perShot = new ArrayList<>(List.of(srcIdx, samples, recIdx, kind, termIdx, termSamples, res,
                step));
        if (bs) {
            perShot.add(rv);
            perShot.add(rs);
        }
        List<Object> all = new ArrayList<>(Arrays.asList(carried));
        all.addAll(perShot);
        all.addAll(List.of(vb, sb, psib, gb, gm, tvA, tsA, srcAdj));
        Object[] allArr = all.toArray();
        String firstName = "eadjFirst" + id;
        TaskGraph first = new TaskGraph(firstName).consumeFromDevice(carrier, carried)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, perShot.toArray());
        int z = 0;
        for (float[] a : new float[][] {vb, sb, psib, gb, gm, tvA, tsA}) {
            first.task("zero" + z++, AcousticStepKernels::zero, a, a.length);
        }
        addStep(first, nt - 1 > 0, nt, explosive, false);
        first.persistOnDevice(allArr);
        graphFirst = graphs.size();
        graphs.add(first.snapshot());
        TaskGraph mid = new TaskGraph("eadjStep" + id).consumeFromDevice(firstName, allArr);
        addStep(mid, true, nt, explosive, true);
        mid.persistOnDevice(allArr);
        graphStep = graphs.size();
        graphs.add(mid.snapshot());
        graphLast = graphStep;
        if (bs && nt > 1) {
            TaskGraph last = new TaskGraph("eadjLast" + id).consumeFromDevice(firstName, allArr);
            addStep(last, false, nt, explosive, true);
            last.persistOnDevice(allArr);
            graphLast = graphs.size();
            graphs.add(last.snapshot());
        }
    }

    /**
     * The tasks of adjoint step t (counter {@code step[0]} = t): for boundary saving the rebuild (with the ring of the
     * previous step when {@code ring}, else the exact zero state of step 0), for full storage the terms of step t from
     * the tape, then the transposed step, then the counter. {@code later}: a graph after the first, whose term arrays
     * are read before the rebuild writes part of them (so their device contents are kept).
     */
    private void addStep(TaskGraph t, boolean ring, int nt, boolean explosive, boolean later) {
        int[] geo = f.geo();
        float[] coef = f.coef();
        float[] b = f.buoyancy();
        float[] m = f.moduli();
        float[] prof = f.profiles();
        float[][] stores = f.stores();
        ElasticTasks k = f.tasks();
        boolean fs = geo[ElasticLayout.FS] == 1;
        Box top = f.topRow();
        Box in = f.rebuiltBox();
        int len = geo[Layout.LEN];
        int nc = f.cells();
        if (storage == Storage.BOUNDARY_SAVING) {
            if (later) {
                t.task("touchTs", AcousticStepKernels::touch, tsA, touch);
                t.task("touchTv", AcousticStepKernels::touch, tvA, touch);
            }
            int cells = f.ringCells();
            int slot = (nv + ns) * cells;
            if (explosive && count > 0) {
                t.task("unExplode", ElasticStepKernels::subtractAt, rs, srcIdx, samples, count, nt, step);
            }
            if (in != null) {
                k.rebuildStress(t, "rebuildS", rv, rs, m, coef, geo, tsA, in);
            }
            if (ring) {
                unpackRing(t, "ringS", rs, stores[0], nv * cells, slot, cells, ns, geo);
                if (fs) {
                    k.freeSurfaceStress(t, "imagesRs", rs, geo, top);
                }
            } else {
                t.task("clearRs", AcousticStepKernels::zero, rs, rs.length);
            }
            if (!explosive && count > 0) {
                t.task("unForce", AcousticStepKernels::uninjectAt, rv, b, srcIdx, samples, count, nt, step);
            }
            if (in != null) {
                k.rebuildVelocity(t, "rebuildV", rv, rs, b, coef, geo, tvA, in);
            }
            if (terms > 0) {
                t.task("forceTerms", AcousticStepKernels::addAt, tvA, termIdx, termSamples, terms, nt, step);
            }
            if (ring) {
                unpackRing(t, "ringV", rv, stores[0], 0, slot, cells, nv, geo);
                if (fs) {
                    k.freeSurfaceVelocity(t, "imagesRv", rv, geo, top);
                }
            } else {
                t.task("clearRv", AcousticStepKernels::zero, rv, rv.length);
            }
        } else {
            t.task("loadV", AcousticStepKernels::loadAt, stores[0], tvA, nv * nc, step);
            t.task("loadS", AcousticStepKernels::loadAt, stores[1], tsA, ns * nc, step);
        }
        // IS^T, E^T (the values at the entries), S^T, its image rows and memory variables
        if (fs) {
            k.freeSurfaceStressAdjoint(t, "surfaceSb", sb, geo, top);
        }
        if (explosive && count > 0) {
            t.task("srcS", ElasticStepKernels::gatherAt, sb, srcIdx, srcAdj, count, step);
        }
        k.stressAdjoint(t, "stressAdj", vb, sb, m, psib, prof, coef, geo, tsA, gm, f.allBox());
        if (fs) {
            k.stressAdjointImages(t, "stressAdjImages", vb, sb, m, psib, prof, coef, geo, top);
        }
        int q = 0;
        for (Box r : f.bandBoxes()) {
            k.stressPsiAdjoint(t, "stressPsi" + q++, sb, m, psib, prof, geo, r);
        }
        // record^T, IV^T, F^T (the values at the entries), V^T, its image rows and memory variables
        if (nval > 0) {
            t.task("residual", ElasticStepKernels::sampleAdjointAt, vb, sb, recIdx, kind, res, nval, ndim, len, step);
        }
        if (fs) {
            k.freeSurfaceVelocityAdjoint(t, "surfaceVb", vb, geo, top);
        }
        if (!explosive && count > 0) {
            t.task("srcV", ElasticStepKernels::gatherAt, vb, srcIdx, srcAdj, count, step);
        }
        k.velocityAdjoint(t, "velocityAdj", sb, vb, b, psib, prof, coef, geo, tvA, gb, f.allBox());
        if (fs) {
            k.velocityAdjointImages(t, "velocityAdjImages", sb, vb, b, psib, prof, coef, geo, top);
        }
        q = 0;
        for (Box r : f.bandBoxes()) {
            k.velocityPsiAdjoint(t, "velocityPsi" + q++, vb, b, psib, prof, geo, r);
        }
        t.task("retreat", AcousticStepKernels::retreat, step);
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
     * device); see {@link sweep.elastic.ElasticDeviceStepper#backward}. Returns the last graph's result.
     */
    TornadoExecutionResult backward(TornadoExecutionPlan plan, ElasticDeviceTape tape, float[] residual, int nt,
                                    float[] srcAdjoint, float[] gbOut, float[] gmOut) {
        ElasticShot shot = tape.shot;
        System.arraycopy(shot.srcIdx, 0, srcIdx, 0, count);
        System.arraycopy(shot.samples, 0, samples, 0, count * nt);
        System.arraycopy(shot.recIdx, 0, recIdx, 0, nval);
        System.arraycopy(shot.kind, 0, kind, 0, nval);
        System.arraycopy(shot.termIdx, 0, termIdx, 0, terms);
        System.arraycopy(shot.termSamples, 0, termSamples, 0, terms * nt);
        System.arraycopy(residual, 0, res, 0, nval * nt);
        if (storage == Storage.BOUNDARY_SAVING) {
            System.arraycopy(tape.lastV, 0, rv, 0, rv.length);
            System.arraycopy(tape.lastS, 0, rs, 0, rs.length);
        }
        step[0] = nt - 1;
        TornadoExecutionResult last = null;
        for (int t = nt - 1; t >= 0; t--) {
            int graph = t == nt - 1 ? graphFirst : t == 0 ? graphLast : graphStep;
            last = plan.withGraph(graph).execute();
        }
        if (count > 0) {
            last.transferToHost(gb, gm, srcAdj);
            System.arraycopy(srcAdj, 0, srcAdjoint, 0, count * nt);
        } else {
            last.transferToHost(gb, gm);
        }
        plan.clearProfiles();
        System.arraycopy(gb, 0, gbOut, 0, gb.length);
        System.arraycopy(gm, 0, gmOut, 0, gm.length);
        return last;
    }
}
