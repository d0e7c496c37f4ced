package sweep.acoustic.tornado;

import java.util.ArrayList;
import java.util.List;
import sweep.acoustic.AcousticAdjointArrays;
import sweep.acoustic.AcousticDeviceStepper;
import sweep.acoustic.AcousticDeviceTape;
import sweep.core.Box;
import sweep.prop.HaloHook;
import sweep.prop.Storage;
import sweep.prop.spi.GridView;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The TornadoVM backend's adjoint (gradient) time loop for one grid: the portable sequence of {@code AcousticAdjoint}
 * (free-surface mirror adjoint, the forward term d^n, scale and imaging condition, zeta recursion, dJ/dwavelet, psi
 * recursion, λ^n interior and general, ghost rows, residual injection) as four task graphs that
 * {@link TornadoAcousticStepper} puts into its own {@link TornadoExecutionPlan}, after its forward graphs (one plan per
 * solver or tile; the model, profiles and weights are on the device once, from the plan's {@code model} graph):
 * <ul>
 * <li>{@code first} (n = nt−1): uploads per shot the source/receiver indices, wavelet, transposed residual and, for
 * boundary saving, the last two forward levels (the tape is the stepper's device array); zeroes the adjoint fields on
 * the device;</li>
 * <li>{@code even}/{@code odd}: the steps n = nt−2..1 with the fields in either role (λ and q̄ swap every step, as do
 * the two rebuilt forward levels), on {@code first}'s device buffers;</li>
 * <li>{@code last} (n = 0): the step without the rebuild of u^{−1}.</li>
 * </ul>
 * Only dJ/d(v²dt²) and dJ/dwavelet come back, once per shot. With boundary saving the forward level u^{n−1} is rebuilt
 * on the device from u^n, u^{n+1} and the saved ring (the reversed leapfrog on the interior box). Bit-identical to the
 * Java backend under strict math. Under domain decomposition each step runs as two graphs, before and after the
 * exchanges of the rebuilt level and of w (AcousticAdjoint's), which pack and unpack the cut strips on the device.
 */
final class TornadoAcousticAdjoint {
    private final GridView g;
    /** The kernels of the grid's dimension, as tasks. */
    private final AcousticTasks tasks;
    private final Storage storage;
    /** The adjoint run's arrays (absent ones of length 1: a task cannot take an empty array). */
    private final AcousticAdjointArrays adj;
    /** Stand-ins for the forward CPML fields, which the Laplacian on the interior box never reads. */
    private final float[] dummy = new float[1];
    private final float[] dummy2 = new float[1];
    private final int[] step = new int[1];
    private float[] v2;
    private float[] prof;
    private float[] coef;
    private int[] geo;
    private int[] srcIdx;
    private int[] recIdx;
    private float[] wavelet;
    private float[] resT;
    private float[] wbar;
    private float[] store;
    /** Index of this adjoint's first graph in the stepper's plan. */
    private int graph0;
    /** Domain decomposition: the tile's halo hook (null on one domain), its strips and the pack buffers of w and u. */
    private final HaloHook halo;
    private final List<Box> sendBoxes;
    private final List<Box> recvBoxes;
    private final float[] sendW;
    private final float[] recvW;
    private final float[] sendU;
    private final float[] recvU;

    /**
     * @param halo the tile's halo hook with packed strips ({@link HaloHook#sendBoxes()} not null), or null on one
     *             domain
     */
    TornadoAcousticAdjoint(GridView g, Storage storage, HaloHook halo) {
        this.g = g;
        this.tasks = AcousticTasks.of(g.ndim());
        this.storage = storage;
        this.halo = halo;
        this.sendBoxes = halo == null ? List.of() : TornadoAcousticStepper.boxes(halo.sendBoxes());
        this.recvBoxes = halo == null ? List.of() : TornadoAcousticStepper.boxes(halo.recvBoxes());
        int ns = Math.max(Box.volume(sendBoxes), 1);
        int nr = Math.max(Box.volume(recvBoxes), 1);
        this.sendW = new float[ns];
        this.recvW = new float[nr];
        boolean bsu = storage == Storage.BOUNDARY_SAVING && !sendBoxes.isEmpty();
        this.sendU = bsu ? new float[ns] : new float[1];
        this.recvU = bsu ? new float[nr] : new float[1];
        this.adj = new AcousticAdjointArrays(g, storage, 1);
    }

    Storage storage() {
        return storage;
    }

    /**
     * See {@link AcousticDeviceStepper#backward}; {@code plan} is the stepper's, holding the graphs {@link #addGraphs}
     * added for shots of this tape's shape, with its model graph already run.
     */
    void backward(TornadoExecutionPlan plan, AcousticDeviceTape tape, float[] residualT, int nt, float[] gradOut,
                  float[] wbarOut) {
        int nsrc = tape.srcIdx.length;
        int nrec = tape.recIdx.length;
        System.arraycopy(tape.srcIdx, 0, srcIdx, 0, nsrc);
        System.arraycopy(tape.recIdx, 0, recIdx, 0, nrec);
        System.arraycopy(tape.wavelet, 0, wavelet, 0, nsrc * nt);
        System.arraycopy(residualT, 0, resT, 0, nrec * nt);
        if (storage == Storage.BOUNDARY_SAVING) {
            System.arraycopy(tape.last, 0, adj.unxt, 0, adj.unxt.length);
            System.arraycopy(tape.beforeLast, 0, adj.ucur, 0, adj.ucur.length);
        }
        step[0] = nt - 1;
        TornadoExecutionResult last = null;
        boolean dd = !sendBoxes.isEmpty();
        for (int n = nt - 1; n >= 0; n--) {
            int k = nt - 1 - n;
            int graph = n == nt - 1 ? 0 : n == 0 ? 3 : (k % 2 == 0 ? 1 : 2);
            if (!dd) {
                last = plan.withGraph(graph0 + graph).execute();
                continue;
            }
            // the step in two graphs around the exchanges of AcousticAdjoint's step: the rebuilt level u^{n−1}
            // (boundary
            // saving, n > 0) and the scaled adjoint field w; only the packed strips travel
            plan.withGraph(graph0 + 2 * graph).execute();
            if (storage == Storage.BOUNDARY_SAVING && n > 0) {
                halo.exchangePacked(sendU, recvU);
            }
            halo.exchangePacked(sendW, recvW);
            last = plan.withGraph(graph0 + 2 * graph + 1).execute();
        }
        last.transferToHost(adj.grad, wbar);
        plan.clearProfiles();
        for (int i = 0; i < adj.grad.length; i++) {
            gradOut[i] += adj.grad[i];
        }
        System.arraycopy(wbar, 0, wbarOut, 0, nsrc * nt);
    }

    /**
     * Appends this adjoint's four graphs (first, even, odd, last step; under domain decomposition two graphs each, the
     * step before and after its halo exchanges) for shots of {@code nsrc} sources, {@code nrec} receivers and
     * {@code nt} steps to {@code graphs}; {@code v2} and {@code prof} (with the grid's {@code coef} and {@code geo})
     * are the model arrays, {@code store} the tape; graph {@code tapeIn} keeps them on the device ({@code carried}:
     * all it persists, which these graphs consume and persist in turn).
     */
    void addGraphs(List<ImmutableTaskGraph> graphs, String tapeIn, Object[] carried, float[] v2, float[] prof,
                   float[] store, int nsrc, int nrec, int nt, int id) {
        this.v2 = v2;
        this.prof = prof;
        this.store = store;
        coef = g.coef();
        geo = g.geo();
        graph0 = graphs.size();
        srcIdx = new int[Math.max(nsrc, 1)];
        recIdx = new int[Math.max(nrec, 1)];
        wavelet = new float[Math.max(nsrc * nt, 1)];
        resT = new float[Math.max(nrec * nt, 1)];
        wbar = new float[Math.max(nsrc * nt, 1)];
        String first = "adjFirst" + id;
        // the adjoint fields are zeroed on the device (first tasks of the first graph); what travels per shot is the
        // tape, the indices, the wavelet, the residual and the step counter
        List<Object> shot = new ArrayList<>(List.of(srcIdx, recIdx, wavelet, resT, step));
        if (storage == Storage.BOUNDARY_SAVING) {
            shot.add(adj.ucur);
            shot.add(adj.unxt);
        }
        Object[] perShot = shot.toArray();
        List<Object> all = new ArrayList<>(shot);
        for (Object o : carried) {
            if (!all.contains(o)) {
                all.add(o);
            }
        }
        all.addAll(List.of(adj.qb, adj.qp, adj.w, adj.grad, adj.d, adj.cor, adj.pb, adj.psib, adj.zetab, dummy, dummy2,
                wbar));
        Object[] allArr = all.toArray();
        boolean dd = !sendBoxes.isEmpty();
        TaskGraph t0 = new TaskGraph(first).consumeFromDevice(tapeIn, carried)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, dummy, dummy2)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, perShot);
        int z = 0;
        for (float[] f : new float[][] {adj.qb, adj.qp, adj.w, adj.grad, adj.d, adj.cor, adj.pb, adj.psib,
            adj.zetab}) {
            t0.task("zero" + z++, AcousticStepKernels::zero, f, f.length);
        }
        if (dd) {
            // the first graph ends at the exchanges; the arrays only the second part uses must still get their device
            // buffers here, where every later graph consumes them from (a stand-in receives the value read)
            t0.task("touchWbar", AcousticStepKernels::touch, wbar, dummy2);
            t0.task("touchRes", AcousticStepKernels::touch, resT, dummy2);
            t0.task("touchRec", AcousticStepKernels::touchInt, recIdx, dummy2);
        }
        boolean lastEven = (nt - 1) % 2 == 0;
        String[] names = {"adjEven", "adjOdd", "adjLast"};
        for (int v = 0; v < 4; v++) {
            TaskGraph t = v == 0 ? t0 : new TaskGraph(names[v - 1] + id).consumeFromDevice(first, allArr);
            boolean even = v < 2 || (v == 3 && lastEven);
            boolean rebuild = v == 0 ? nt - 1 > 0 : v != 3;
            float[] lam = even ? adj.qb : adj.qp;
            float[] qprev = even ? adj.qp : adj.qb;
            float[] cur = even ? adj.ucur : adj.unxt;
            float[] nxt = even ? adj.unxt : adj.ucur;
            addStepBeforeExchange(t, lam, cur, nxt, rebuild, nsrc, nt);
            if (dd) {
                AcousticTasks.pack(t, "packW", adj.w, sendW, geo, sendBoxes);
                if (rebuild && storage == Storage.BOUNDARY_SAVING) {
                    AcousticTasks.pack(t, "packU", nxt, sendU, geo, sendBoxes);
                }
                t.transferToHost(DataTransferMode.EVERY_EXECUTION, rebuild && storage == Storage.BOUNDARY_SAVING
                        ? new Object[] {sendW, sendU} : new Object[] {sendW});
                t.persistOnDevice(allArr);
                graphs.add(t.snapshot());
                t = new TaskGraph("adjAfter" + v + "x" + id).consumeFromDevice(first, allArr);
                t.transferToDevice(DataTransferMode.EVERY_EXECUTION, rebuild && storage == Storage.BOUNDARY_SAVING
                        ? new Object[] {recvW, recvU} : new Object[] {recvW});
                AcousticTasks.unpackHalo(t, "unpackW", adj.w, recvW, geo, recvBoxes, step);
                if (rebuild && storage == Storage.BOUNDARY_SAVING) {
                    AcousticTasks.unpackHalo(t, "unpackU", nxt, recvU, geo, recvBoxes, step);
                }
            }
            addStepAfterExchange(t, lam, qprev, nsrc, nrec, nt);
            t.persistOnDevice(allArr);
            graphs.add(t.snapshot());
        }
    }

    /**
     * The tasks of adjoint step n (counter {@code step[0]} = n) up to the exchanges: the forward term d^n, the scaled
     * adjoint field w and the zeta recursion (it reads w at its own cell only); λ^{n+1} in {@code lam}. Boundary
     * saving: u^n in {@code cur}, u^{n+1} in {@code nxt}, rebuilt in place into u^{n−1} when {@code rebuild}.
     */
    private void addStepBeforeExchange(TaskGraph t, float[] lam, float[] cur, float[] nxt, boolean rebuild, int nsrc,
                                       int nt) {
        boolean fs = g.freeSurface();
        if (fs) {
            tasks.mirrorTopAdjoint(t, "mirrorAdj", lam, geo, 0, g.ny(), 0, g.nx());
        }
        if (storage == Storage.FULL) {
            t.task("load", AcousticStepKernels::loadAt, store, adj.d, g.length(), step);
        } else {
            if (nsrc > 0) {
                t.task("clearSrc", AcousticStepKernels::clearAt, adj.d, srcIdx, nsrc);
            }
            Box q = g.interiorBox();
            if (q != null) {
                tasks.laplacian(t, "lap", cur, dummy, dummy2, coef, geo, adj.d, q);
            }
            if (rebuild) {
                if (nsrc > 0) {
                    t.task("uninject", AcousticStepKernels::uninjectAt, nxt, v2, srcIdx, wavelet, nsrc, nt, step);
                }
                if (q != null) {
                    tasks.reverse(t, "reverse", cur, nxt, v2, adj.d, geo, q);
                }
                int off = 0;
                int k = 0;
                for (Box r : g.ringBoxes()) {
                    t.task("unring" + k++, AcousticStepKernels::unpackRingBefore, nxt, store, off, g.ringSize(), geo,
                            r.z0(),
                            r.z1(), r.y0(), r.y1(), r.x0(), r.x1(), step);
                    off += (int) r.volume();
                }
                if (fs) {
                    tasks.mirrorTop(t, "mirror", nxt, geo, 0, g.ny(), 0, g.nx());
                }
            }
            if (nsrc > 0) {
                t.task("addSrc", AcousticStepKernels::addAt, adj.d, srcIdx, wavelet, nsrc, nt, step);
            }
        }
        tasks.scale(t, "scale", lam, v2, adj.w, adj.grad, adj.d, geo, g.allBox());
        int k = 0;
        for (Box b : g.pmlBoxes()) {
            tasks.pmlZeta(t, "zeta" + k++, adj.w, adj.zetab, adj.cor, prof, geo, b);
        }
    }

    /**
     * The tasks of adjoint step n after the exchanges: dJ/dwavelet, the psi recursion, λ^n into {@code qprev} (which
     * held q̄^{n+1}), the free-surface ghost rows, the residual injection and the counter.
     */
    private void addStepAfterExchange(TaskGraph t, float[] lam, float[] qprev, int nsrc, int nrec, int nt) {
        if (nsrc > 0) {
            t.task("wbar", AcousticStepKernels::sampleWbar, adj.w, srcIdx, wbar, nsrc, nt, step);
        }
        int k = 0;
        for (Box b : g.pmlBoxes()) {
            tasks.pmlPsi(t, "psi" + k++, adj.w, adj.cor, adj.psib, adj.pb, prof, coef, geo, b);
        }
        if (g.stencilClearBox() != null) {
            tasks.adjointInterior(t, "interior", qprev, lam, adj.w, coef, geo, g.stencilClearBox());
        }
        k = 0;
        for (Box o : g.stencilClearOuter()) {
            tasks.adjointGeneral(t, "general" + k++, qprev, lam, adj.w, adj.cor, adj.pb, coef, geo, o);
        }
        if (g.freeSurface()) {
            tasks.ghostRows(t, "ghost", qprev, adj.w, coef, geo, 0, g.ny(), 0, g.nx());
        }
        if (nrec > 0) {
            t.task("residual", AcousticStepKernels::addAt, qprev, recIdx, resT, nrec, nt, step);
        }
        t.task("retreat", AcousticStepKernels::retreat, step);
    }
}
