package sweep.elastic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.backend.CpuKernels;
import sweep.backend.JavaBackend;
import sweep.elastic.kernels.ElasticLayout;
import sweep.elastic.kernels.ElasticSources;
import sweep.equation.EquationSolver;
import sweep.equation.StepStages;
import sweep.kernels.Layout;
import sweep.kernels.Sources;
import sweep.prop.Backends;
import sweep.prop.CellWindow;
import sweep.prop.Cells;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;
import sweep.prop.Storage;
import sweep.prop.WavefieldListener;
import sweep.prop.spi.DeviceStepper;

/**
 * The elastic solver behind {@link Propagator} (the twin of {@code sweep.acoustic.AcousticSolver}): isotropic
 * velocity–stress waves on a staggered grid with C-PML and an optional free surface at z = 0, forward modelling of a
 * batch of shots on the Java backend (or a device stepper) and the exact adjoint gradient dJ/d(vp, vs, rho) and
 * dJ/dwavelet with the spec's {@link Storage}; the spec's source type and recorded fields, models parameter-major
 * ({@code [vp, vs, rho]}, each over {@link #modelWindow()}), gradients {@code (3, cells)}, and the facade's halo hook
 * at every exchange point (each point's fields in one call). Conventions (nodes, time levels, source scaling,
 * receivers, gradient) are those of docs/elastic.md. Gradient memory is allocated only by a gradient-capable call. Not
 * thread-safe: one run at a time. Made by {@link ElasticEquation}, which also takes its memory figures from here.
 */
final class ElasticSolver implements EquationSolver {
    private final PropSpec spec;
    private final Grid grid;
    private final JavaBackend backend;
    private final ElasticHalo halo;
    /** The cells of the global model this solver's model arrays cover (the whole model on one domain). */
    private final CellWindow window;
    private ElasticStepper stepper;
    private double pmlVelocity;
    private double vpMax;
    private ElasticAdjoint adjoint;
    /** The tapes of the last gradient-capable forward run (one per shot). */
    private List<ElasticAdjoint.Tape> tapes = List.of();
    /** The model of the last gradient-capable run (a copy). */
    private ElasticModel gradModel;
    private int recordedFields;
    private double lastCpu = Double.NaN;
    /** The transfer seconds of the last device {@link #timeSteps} shot ({@link #lastTransferSeconds}). */
    private double lastTransfer = Double.NaN;
    /** Whether single-domain runs without a FULL tape step through {@link ElasticStepper#fusedStep} (test hook). */
    private boolean fuse = true;
    /** The device backend chosen by {@link Backends#BACKEND} (null: the Java backend), opened with the first model. */
    private ElasticDeviceStepper device;
    private boolean deviceOpened;
    /** The spec's source type and recorded fields. */
    private final ElasticSource type;
    private final List<ElasticField> fields;
    /** The model of the last call that gave one (a null model reuses it). */
    private ElasticModel last;

    /** A single-domain elastic solver for {@code spec}. */
    ElasticSolver(PropSpec spec) {
        this(spec, Grid.single(spec), (ElasticHalo) null);
    }

    /**
     * A solver for one tile {@code grid} of {@code spec} (the whole model on one domain) whose cut faces {@code halo}
     * fills (null: no neighbours) at each exchange point, each point's fields in one call; the node gradients need
     * the corners too ({@link ElasticEquation#haloPoints}).
     */
    ElasticSolver(PropSpec spec, Grid grid, HaloHook halo) {
        this(spec, grid, halo == null ? null : (ElasticHalo) (point, packed, components) -> {
            if (point == ElasticHalo.Point.NODE_GRADIENT) {
                halo.exchangeWithCorners(packed, components);
            } else {
                halo.exchange(packed, components);
            }
        });
    }

    /**
     * A solver for one tile {@code grid} of {@code spec} whose cut faces are filled by {@code halo} at the points it
     * names (the domain-decomposition layer); sources and receivers are then given in tile-physical coordinates, and
     * models over {@link #modelWindow()} (the tile and the model margin beyond its cut faces).
     */
    ElasticSolver(PropSpec spec, Grid grid, ElasticHalo halo) {
        if (!spec.equation().name().equals("elastic")) {
            throw new IllegalArgumentException("ElasticSolver needs a spec with equation elastic, got "
                    + spec.equation().name() + ": build it with PropSpec.builder(...).equation(\"elastic\")");
        }
        this.type = ElasticSource.parse(spec.sourceType());
        this.fields = ElasticField.parseList(String.join(",", spec.recordFields()), spec.ndim());
        this.spec = spec;
        this.grid = grid;
        this.halo = halo;
        this.window = CellWindow.of(grid, spec.equation().modelMargin(spec.order()));
        this.backend = new JavaBackend(spec.threads());
    }

    /**
     * Wavefield arrays of a solver of {@code g}: velocities, stresses, buoyancy and moduli (packed per component) and
     * the CPU kernels' per-thread rows.
     */
    public static long fieldBytes(Grid g) {
        int nd = g.ndim;
        long scratch = !CpuKernels.useCpuKernels() ? 0 : nd == 3 ? ElasticVectorKernels3D.scratchSize(g.nx)
                : ElasticVectorKernels2D.scratchSize(g.nx);
        return 4L * g.length() * (2L * ElasticLayout.velocities(nd) + ElasticLayout.stresses(nd)
                + ElasticLayout.moduli(nd)) + 4L * MemoryEstimate.threads(g) * scratch;
    }

    /** CPML arrays of a solver of {@code g}: the memory variables on each axis's band slabs and the profiles. */
    public static long cpmlBytes(Grid g) {
        return 4L * (psiFloats(g) + 4L * (g.nz + g.ny + g.nx));
    }

    /**
     * The adjoint run's own arrays (without the tape): adjoint fields, memory-variable adjoints, node gradients and,
     * with boundary saving, the rebuilt fields and one step's terms.
     */
    public static long adjointBytes(Grid g, Storage storage) {
        int nd = g.ndim;
        long nv = ElasticLayout.velocities(nd);
        long ns = ElasticLayout.stresses(nd);
        long len = g.length();
        long n = len * (2 * nv + ns + ElasticLayout.moduli(nd)) + psiFloats(g);
        if (storage == Storage.BOUNDARY_SAVING) {
            n += len * (nv + ns) + (nv + ns) * MemoryEstimate.computationalCells(g);
        }
        return 4L * n;
    }

    /**
     * One shot's tape for {@code nt} steps: FULL keeps every component per step, BOUNDARY_SAVING the ring of h cells
     * around the rebuilt box per step and the last fields.
     */
    public static long tapeBytes(Grid g, Storage storage, int nt) {
        int nd = g.ndim;
        long comps = ElasticLayout.velocities(nd) + ElasticLayout.stresses(nd);
        if (storage == Storage.FULL) {
            return 4L * nt * comps * MemoryEstimate.computationalCells(g);
        }
        return 4L * (Math.max(0, nt - 1) * comps * ringCells(g) + comps * g.length());
    }

    /** Floats of the CPML memory variables ({@link ElasticStepper#elasticGeo}'s slabs). */
    private static long psiFloats(Grid g) {
        int[] geo = ElasticStepper.elasticGeo(g);
        return geo[ElasticLayout.PSI_X] + (long) ElasticLayout.psiPerAxis(g.ndim) * geo[ElasticLayout.SLAB_X];
    }

    /**
     * Cells of the boundary-saving ring: the h cells outside the rebuilt box [?BL, ?BHH) along each axis, no corners
     * (as the elastic adjoint lays it out).
     */
    private static long ringCells(Grid g) {
        int[] geo = ElasticStepper.elasticGeo(g);
        int[] n3 = {g.nz, g.ny, g.nx};
        int[] lo = {geo[Layout.ZBL], geo[Layout.YBL], geo[Layout.XBL]};
        int[] hi = {geo[ElasticLayout.ZBHH], geo[ElasticLayout.YBHH], geo[ElasticLayout.XBHH]};
        for (int s = 0; s < 3; s++) {
            if (hi[s] <= lo[s]) {
                return 0; // no rebuilt box
            }
        }
        long cells = 0;
        for (int s = 0; s < 3; s++) {
            long across = 1;
            for (int o = 0; o < 3; o++) {
                if (o != s) {
                    across *= hi[o] - lo[o];
                }
            }
            cells += across * ((lo[s] - Math.max(0, lo[s] - g.h)) + (Math.min(n3[s], hi[s] + g.h) - hi[s]));
        }
        return cells;
    }

    /**
     * The cells of the global model that the arrays of an {@link ElasticModel} given to this solver cover: the whole
     * model on a single domain; on a tile, the tile widened by {@link sweep.equation.WaveEquation#modelMargin} cells on
     * each side that faces another tile (a node between cells takes cells from both sides).
     */
    @Override
    public CellWindow modelWindow() {
        return window;
    }

    PropSpec spec() {
        return spec;
    }

    @Override
    public Grid grid() {
        return grid;
    }

    /**
     * Bytes of field, parameter, CPML, adjoint and tape memory this solver holds now (0 before the first forward); a
     * solver that only ran forward-only calls holds no gradient memory.
     */
    @Override
    public long bytesHeld() {
        long n = stepper == null ? 0 : stepper.bytes();
        if (adjoint != null) {
            n += adjoint.bytes();
        }
        for (ElasticAdjoint.Tape t : tapes) {
            n += t.bytes();
        }
        return n;
    }

    /**
     * Sets the CPML profile velocity when the spec leaves maxVel at 0 (a decomposed run passes the global largest vp so
     * that every tile builds the same profile); 0 restores the model's own largest vp.
     */
    @Override
    public void setPmlVelocity(double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("PML velocity must be >= 0 and finite, got " + v);
        }
        this.pmlVelocity = v;
    }

    /**
     * Forward modelling without snapshots; see
     * {@link #forward(float[], int[][][], ElasticSource, int[][][], List, ElasticModel, int, ElasticListener)}.
     */
    Record forward(float[] wavelet, int[][][] sources, ElasticSource type, int[][][] receivers,
                          List<ElasticField> fields, ElasticModel model) {
        return forward(wavelet, sources, type, receivers, fields, model, 0, null);
    }

    /**
     * Runs B shots and returns their records {@code (B, nt, nrec, nfield)}, fields in the order of {@code fields}:
     * sample t holds p at t·dt and velocities at (t+½)·dt, each at its own node of the receiver's cell.
     *
     * @param wavelet   source time function w (moment rate for explosive sources, force for fx/fy/fz; sample t is
     *                  w(t·dt)): {@code nt} values shared, {@code (B, nt)} or {@code (B, nsrc, nt)} (see
     *                  {@link ShotWavelets})
     * @param sources   per shot, source cells (x, z) or (x, y, z) of the physical model
     * @param type      the kind of every source of the run
     * @param receivers per shot, receiver cells, same convention; every shot has the same number of receivers
     * @param fields    the recorded fields, in record order (p, vx, vz, and vy in 3-D)
     * @param model     vp, vs, rho in the spec's physical shape (on a tile: over {@link #modelWindow()})
     * @param snapshotEvery when positive, {@code listener} receives the fields every so many steps
     * @param listener  snapshot receiver, or null
     */
    Record forward(float[] wavelet, int[][][] sources, ElasticSource type, int[][][] receivers,
                          List<ElasticField> fields, ElasticModel model, int snapshotEvery, ElasticListener listener) {
        tapes = List.of();
        check(sources, type, receivers, fields, model);
        setModel(model);
        return run(wavelet, sources, type, receivers, fields, snapshotEvery, listener, null, false);
    }

    /**
     * A gradient-capable forward run: as {@link #forward(float[], int[][][], ElasticSource, int[][][], List,
     * ElasticModel)} (same records, bit for bit), and keeps what {@link #elasticGradient(float[])} needs (see
     * {@link Storage} and docs/elastic.md; memory grows with the batch size B).
     */
    Record forwardForGradient(float[] wavelet, int[][][] sources, ElasticSource type, int[][][] receivers,
                                     List<ElasticField> fields, ElasticModel model) {
        tapes = List.of();
        check(sources, type, receivers, fields, model);
        setModel(model);
        keepModel(model);
        List<ElasticAdjoint.Tape> kept = new ArrayList<>();
        Record r = run(wavelet, sources, type, receivers, fields, 0, null, kept, false);
        tapes = kept;
        return r;
    }

    /**
     * The adjoint run of the last {@link #forwardForGradient} call: for a residual dJ/drecord of the record's shape
     * {@code (B, nt, nrec, nfield)}, returns dJ/dvp, dJ/dvs, dJ/drho (parameter-major, each of the physical shape,
     * summed over shots in shot order) and dJ/dwavelet {@code (B, nt)} (summed over each shot's sources).
     */
    ElasticGradient elasticGradient(float[] residual) {
        if (tapes.isEmpty()) {
            throw new IllegalStateException("gradient() needs a preceding forwardForGradient() call on this solver");
        }
        int nt = spec.nt();
        int shots = tapes.size();
        int nval = tapes.get(0).recIdx.length;
        if (residual == null || residual.length != shots * nt * nval) {
            throw new IllegalArgumentException("residual has " + (residual == null ? "no" : residual.length)
                    + " values; the last forward's record (" + shots + ", " + nt + ", " + nval / recordedFields + ", "
                    + recordedFields + ") needs " + shots * nt * nval);
        }
        float[] total = new float[3 * grid.tz * grid.ty * grid.tx];
        float[] wbarAll = new float[shots * nt];
        for (int b = 0; b < shots; b++) {
            float[] res = Arrays.copyOfRange(residual, b * nt * nval, (b + 1) * nt * nval);
            shotGradient(tapes.get(b), res, total, wbarAll, b);
        }
        return new ElasticGradient(total, wbarAll, Double.NaN);
    }

    /**
     * Forward run, misfit against {@code observed} (the record's shape) and adjoint run, shot by shot (memory of one
     * shot's tape at a time, reused across shots). Returns the misfit summed over shots in double (every recorded
     * field counts, unweighted), dJ/dvp, dJ/dvs, dJ/drho and dJ/dwavelet.
     */
    ElasticGradient forwardAndGradient(float[] wavelet, int[][][] sources, ElasticSource type,
                                              int[][][] receivers, List<ElasticField> fields, ElasticModel model,
                                              float[] observed, Misfit misfit) {
        tapes = List.of();
        int shots = check(sources, type, receivers, fields, model);
        int nt = spec.nt();
        int nval = receivers[0].length * fields.size();
        if (observed == null || observed.length != shots * nt * nval) {
            throw new IllegalArgumentException("observed data have " + (observed == null ? "no" : observed.length)
                    + " values; expected shape (" + shots + ", " + nt + ", " + receivers[0].length + ", "
                    + fields.size() + ")");
        }
        if (misfit == null) {
            throw new IllegalArgumentException("misfit is missing: use Misfit.L2");
        }
        setModel(model);
        keepModel(model);
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        float[] total = new float[3 * grid.tz * grid.ty * grid.tx];
        float[] wbarAll = new float[shots * nt];
        double j = 0;
        for (int b = 0; b < shots; b++) {
            List<ElasticAdjoint.Tape> kept = new ArrayList<>();
            float[] wb = ShotWavelets.of(wavelet, stride, b, sources[b].length, nt);
            // the tape lives in the adjoint's buffers: its adjoint run follows at once
            Record r = run(wb, new int[][][] {sources[b]}, type, new int[][][] {receivers[b]}, fields, 0, null, kept,
                    true);
            float[] obs = Arrays.copyOfRange(observed, b * nt * nval, (b + 1) * nt * nval);
            float[] res = new float[nt * nval];
            j += misfit.forShot(sources[b], receivers[b]).evaluate(r.data(), obs, res);
            shotGradient(kept.get(0), res, total, wbarAll, b);
        }
        return new ElasticGradient(total, wbarAll, j);
    }

    /** Test hook: the adjoint machinery of this solver, created on first use (after a forward call set the model). */
    ElasticAdjoint adjointMachinery() {
        if (adjoint == null) {
            adjoint = new ElasticAdjoint(grid, stepper, backend, spec.storage(), halo);
        }
        return adjoint;
    }

    /** Test hook: a listener for the states a boundary-saving adjoint run rebuilds. */
    void rebuildListener(ElasticListener l) {
        adjoint.rebuildListener = l;
    }

    private void shotGradient(ElasticAdjoint.Tape tape, float[] res, float[] total, float[] wbarAll, int b) {
        int nt = spec.nt();
        float[] wbar = new float[tape.nsrc * nt];
        if (tape.device != null) {
            // the adjoint run on the device: node gradients into the adjoint's arrays, dJ/dwavelet formed here
            float[] entries = new float[tape.srcIdx.length * nt];
            float[][] node = adjoint.nodeGradients();
            device.backward(tape.device, res, nt, entries, node[0], node[1]);
            adjoint.waveletGradient(tape, entries, nt, wbar);
        } else {
            adjoint.backward(tape, res, nt, wbar);
        }
        for (int s = 0; s < tape.nsrc; s++) {
            for (int t = 0; t < nt; t++) {
                wbarAll[b * nt + t] += wbar[s * nt + t];
            }
        }
        adjoint.addPhysicalGradient(gradModel.vp(), gradModel.vs(), gradModel.rho(), window, total);
    }

    /** A copy of the model of a gradient-capable run, for the map of node gradients onto (vp, vs, rho). */
    private void keepModel(ElasticModel model) {
        gradModel = new ElasticModel(model.vp().clone(), model.vs().clone(), model.rho().clone());
    }

    private int check(int[][][] sources, ElasticSource type, int[][][] receivers, List<ElasticField> fields,
                      ElasticModel model) {
        int shots = Cells.checkShots(sources, receivers);
        if (type == null) {
            throw new IllegalArgumentException("source type is missing: use explosive, fx, fz or (3-D) fy");
        }
        if (type == ElasticSource.FY && grid.ndim != 3) {
            throw new IllegalArgumentException("source type fy needs a 3-D model; this one is 2-D: use explosive, fx or fz");
        }
        ElasticField.check(fields, grid.ndim);
        if (model == null) {
            throw new IllegalArgumentException("elastic model (vp, vs, rho) is missing");
        }
        return shots;
    }

    /**
     * The time loop over B shots (model set); with {@code kept} non-null also records a tape per shot into it (in the
     * adjoint's reusable buffers when {@code transientTape}). The taped sub-steps are the plain ones plus stores.
     */
    private Record run(float[] wavelet, int[][][] sources, ElasticSource type, int[][][] receivers,
                       List<ElasticField> fields, int snapshotEvery, ElasticListener listener,
                       List<ElasticAdjoint.Tape> kept, boolean transientTape) {
        int nt = spec.nt();
        int ndim = grid.ndim;
        int shots = sources.length;
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        int len = stepper.len;
        int nf = fields.size();
        int nrec = receivers[0].length;
        double cell = 1;
        for (double d : spec.dh()) {
            cell *= d;
        }
        double dt = spec.dt();
        if (kept != null && adjoint == null) {
            adjoint = new ElasticAdjoint(grid, stepper, backend, spec.storage(), halo, device == null);
        }
        boolean full = spec.storage() == Storage.FULL;
        recordedFields = nf;
        float[] out = new float[shots * nt * nrec * nf];
        float[] rec = new float[nt * nrec * nf];
        for (int sh = 0; sh < shots; sh++) {
            int[] cells = grid.cellIndices(sources[sh], "source", sh);
            int nsrc = cells.length;
            float[] sw = ShotWavelets.of(wavelet, stride, sh, nsrc, nt);
            int[] srcIdx;
            float[] samples;
            if (type == ElasticSource.EXPLOSIVE) {
                // every normal stress at the source node: dt·w/dV subtracted (added negated), source by source
                srcIdx = new int[nsrc * ndim];
                samples = new float[nsrc * ndim * nt];
                for (int k = 0; k < nsrc; k++) {
                    for (int c = 0; c < ndim; c++) {
                        int e = k * ndim + c;
                        srcIdx[e] = c * len + cells[k];
                        for (int t = 0; t < nt; t++) {
                            samples[e * nt + t] = (float) (-dt * sw[k * nt + t] / cell);
                        }
                    }
                }
            } else {
                int slot = type == ElasticSource.FX ? 0 : type == ElasticSource.FY ? 1 : ndim - 1;
                srcIdx = new int[nsrc];
                samples = new float[nsrc * nt];
                for (int k = 0; k < nsrc; k++) {
                    srcIdx[k] = slot * len + cells[k];
                    for (int t = 0; t < nt; t++) {
                        samples[k * nt + t] = (float) (sw[k * nt + t] / cell);
                    }
                }
            }
            int[] rc = grid.cellIndices(receivers[sh], "receiver", sh);
            int[] recIdx = new int[nrec * nf];
            int[] kind = new int[nrec * nf];
            for (int r = 0; r < nrec; r++) {
                for (int f = 0; f < nf; f++) {
                    ElasticField fd = fields.get(f);
                    int slot = fd == ElasticField.VX ? 0 : fd == ElasticField.VY ? 1 : ndim - 1;
                    recIdx[r * nf + f] = fd == ElasticField.P ? rc[r] : slot * len + rc[r];
                    kind[r * nf + f] = fd == ElasticField.P ? 0 : 1;
                }
            }
            ElasticAdjoint.Tape tape = kept == null ? null
                    : adjoint.newTape(type, srcIdx, samples, nsrc, recIdx, kind, nt, transientTape);
            if (device != null) {
                deviceShot(sh, type, srcIdx, samples, recIdx, kind, tape, rec, snapshotEvery, listener);
                if (tape != null) {
                    kept.add(tape);
                }
                System.arraycopy(rec, 0, out, sh * nt * nrec * nf, nt * nrec * nf);
                continue;
            }
            ElasticStepper st = stepper;
            st.reset();
            int nval = nrec * nf;
            int count = srcIdx.length;
            // one pass for both sub-steps where nothing runs between them but the force sources and the images
            boolean fused = fuse && halo == null && !(tape != null && full);
            boolean force = type != ElasticSource.EXPLOSIVE;
            int[] forceRows = force ? st.rows(srcIdx) : null;
            for (int t = 0; t < nt; t++) {
                if (fused) {
                    // p from σ(t·dt) before the stress update, the velocities after the velocity update
                    ElasticSources.sample(st.v, st.s, recIdx, kind, rec, nval, ndim, len, t);
                    st.fusedStep(srcIdx, forceRows, samples, force ? count : 0, nt, t);
                    sampleVelocities(st.v, recIdx, kind, rec, nval, t);
                } else {
                    stepSeparately(st, tape, full, type, srcIdx, samples, count, recIdx, kind, rec, nval, t);
                }
                if (type == ElasticSource.EXPLOSIVE) {
                    Sources.add(st.s, srcIdx, samples, count, nt, t);
                }
                st.surfaceStressStep();
                if (halo != null) {
                    halo.exchange(ElasticHalo.Point.FORWARD_STRESS, st.s, st.s.length / len);
                }
                if (tape != null && !full) {
                    adjoint.saveState(tape, t, nt);
                }
                int done = t + 1;
                if (done % spec.checkEvery() == 0 || done == nt) {
                    st.checkFinite(done, sh, vpMax);
                }
                if (listener != null && snapshotEvery > 0 && done % snapshotEvery == 0) {
                    listener.snapshot(sh, done, st.physicalFields());
                }
            }
            if (tape != null) {
                kept.add(tape);
            }
            System.arraycopy(rec, 0, out, sh * nt * nval, nt * nval);
        }
        return new Record(out, shots, nt, nrec, nf);
    }

    /** The velocity entries of record sample t: each velocity receiver's node, as {@link ElasticSources#sample}. */
    private static void sampleVelocities(float[] v, int[] recIdx, int[] kind, float[] rec, int nval, int t) {
        for (int j = 0; j < nval; j++) {
            if (kind[j] != 0) {
                rec[t * nval + j] = v[recIdx[j]];
            }
        }
    }

    /**
     * Sub-steps (1) and (2) and the velocity part of (3) one after another: the velocity update (taped with FULL
     * storage), force sources, images, the halo exchange of a decomposed run, the record, the stress update.
     */
    private void stepSeparately(ElasticStepper st, ElasticAdjoint.Tape tape, boolean full, ElasticSource type,
                                int[] srcIdx, float[] samples, int count, int[] recIdx, int[] kind, float[] rec,
                                int nval, int t) {
        int nt = spec.nt();
        int ndim = grid.ndim;
        if (tape != null && full) {
            st.velocityStep(adjoint.velocityTerms(tape, t, nt));
        } else {
            st.velocityStep();
        }
        if (type != ElasticSource.EXPLOSIVE) {
            Sources.inject(st.v, st.b, srcIdx, samples, count, nt, t);
            if (tape != null && full) {
                adjoint.addForceTerms(tape, t, nt);
            }
        }
        st.surfaceVelocityStep();
        if (halo != null) {
            halo.exchange(ElasticHalo.Point.FORWARD_VELOCITY, st.v, ndim);
        }
        ElasticSources.sample(st.v, st.s, recIdx, kind, rec, nval, ndim, st.len, t);
        if (tape != null && full) {
            st.stressStep(adjoint.strainTerms(tape, t));
        } else {
            st.stressStep();
        }
    }

    /** Validates the model, checks the CFL condition and sets parameters, profiles and {@link #vpMax}. */
    private void setModel(ElasticModel model) {
        double vpMax = model.validate(window, window.isWhole(spec.shape()));
        spec.checkCfl(vpMax);
        double pmlVel = spec.maxVel() > 0 ? spec.maxVel() : pmlVelocity > 0 ? pmlVelocity : vpMax;
        if (stepper == null) {
            stepper = new ElasticStepper(grid, backend);
        }
        stepper.setModel(model.vp(), model.vs(), model.rho(), window, pmlVel);
        this.vpMax = vpMax;
        if (!deviceOpened) {
            // one domain only: a decomposed run stays on Java under auto, is refused under tornado
            device = Backends.openOneDomain(ElasticDeviceStepper.class, grid, halo != null, "elastic");
            deviceOpened = true;
        }
        if (device != null) {
            device.setModel(stepper.geo, stepper.coef, stepper.b, stepper.m, stepper.prof);
        }
    }

    /**
     * One shot on the device: the record into {@code rec}, the last fields into the Java stepper's arrays (snapshots
     * likewise) and, with a tape, the device's tape into it.
     */
    private void deviceShot(int sh, ElasticSource type, int[] srcIdx, float[] samples, int[] recIdx, int[] kind,
                            ElasticAdjoint.Tape tape, float[] rec, int snapshotEvery, ElasticListener listener) {
        int nt = spec.nt();
        ElasticStepper st = stepper;
        ElasticShot shot = new ElasticShot(srcIdx, samples, type == ElasticSource.EXPLOSIVE, recIdx, kind,
                tape == null ? new int[0] : tape.termIdx, tape == null ? new float[0] : tape.termSamples);
        ElasticDeviceTape dt = tape == null ? null : new ElasticDeviceTape(spec.storage(), shot);
        boolean snap = listener != null && snapshotEvery > 0;
        float[] r = device.shot(shot, nt, dt, snap ? snapshotEvery : 0, snap ? (done, v, s) -> {
            System.arraycopy(v, 0, st.v, 0, st.v.length);
            System.arraycopy(s, 0, st.s, 0, st.s.length);
            listener.snapshot(sh, done, st.physicalFields());
        } : null);
        if (tape != null) {
            tape.device = dt;
        }
        System.arraycopy(r, 0, rec, 0, r.length);
        System.arraycopy(device.velocities(), 0, st.v, 0, st.v.length);
        System.arraycopy(device.stresses(), 0, st.s, 0, st.s.length);
        st.checkFinite(nt, sh, vpMax);
    }

    /** The backend the time steps run on: the Java backend or the device (known once a model was set). */
    @Override
    public String backendDescription() {
        return (device != null ? device.describe() : "Java backend (" + backend.threads() + " threads)") + ", elastic";
    }

    /**
     * Benchmark hook: sets {@code model}, zeroes the fields, then times {@code steps} steps of one explosive shot at
     * the tile's centre with no receivers (the project's Ricker at 10 Hz), halo exchanges of a decomposed run included;
     * returns the seconds the steps took (on a device: its steady steps, see {@link #lastTransferSeconds}).
     */
    double timeSteps(ElasticModel model, int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be >= 1, got " + steps);
        }
        setModel(model);
        ElasticStepper st = stepper;
        int ndim = grid.ndim;
        int centre = grid.index(grid.tz / 2, grid.ty / 2, grid.tx / 2);
        int[] srcIdx = new int[ndim];
        float[] samples = new float[ndim * steps];
        float[] w = sweep.core.Wavelets.ricker(10, steps, spec.dt());
        double cell = 1;
        for (double d : spec.dh()) {
            cell *= d;
        }
        for (int c = 0; c < ndim; c++) {
            srcIdx[c] = c * st.len + centre;
            for (int t = 0; t < steps; t++) {
                samples[c * steps + t] = (float) (-spec.dt() * w[t] / cell);
            }
        }
        if (device != null) {
            // one shot on the device; the time loop alone is steps 1..steps-1 (the first uploads the zeroed fields),
            // scaled to all the steps; the rest of the shot is its transfer time
            ElasticShot shot = new ElasticShot(srcIdx, samples, true, new int[0], new int[0], new int[0],
                    new float[0]);
            long t0 = System.nanoTime();
            device.shot(shot, steps, null, 0, null);
            double sec = (System.nanoTime() - t0) * 1e-9;
            double steady = DeviceStepper.steadySeconds(device.lastStepLoopSeconds(), steps);
            System.arraycopy(device.velocities(), 0, st.v, 0, st.v.length);
            System.arraycopy(device.stresses(), 0, st.s, 0, st.s.length);
            st.checkFinite(steps, 0, vpMax);
            lastCpu = Double.NaN;
            lastTransfer = Double.isNaN(steady) ? Double.NaN : Math.max(0, sec - steady);
            return Double.isNaN(steady) ? sec : steady;
        }
        lastTransfer = Double.NaN;
        st.reset();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int t = 0; t < steps; t++) {
            if (fuse && halo == null) {
                st.fusedStep(null, null, null, 0, steps, t);
            } else {
                st.velocityStep();
                st.surfaceVelocityStep();
                if (halo != null) {
                    halo.exchange(ElasticHalo.Point.FORWARD_VELOCITY, st.v, ndim);
                }
                st.stressStep();
            }
            Sources.add(st.s, srcIdx, samples, ndim, steps, t);
            st.surfaceStressStep();
            if (halo != null) {
                halo.exchange(ElasticHalo.Point.FORWARD_STRESS, st.s, st.s.length / st.len);
            }
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        long c1 = mx.getCurrentThreadCpuTime();
        lastCpu = c0 < 0 || c1 < 0 ? Double.NaN : (c1 - c0) * 1e-9;
        st.checkFinite(steps, 0, vpMax);
        return sec;
    }

    /**
     * CPU seconds the calling thread spent in the steps of the last {@link #timeSteps} call (on one thread all the
     * work: a figure that time the scheduler gave to other processes does not inflate); NaN when unsupported.
     */
    @Override
    public double lastStepsCpuSeconds() {
        return lastCpu;
    }

    /** Cells updated per time step: the computational grid, PML pads included. */
    @Override
    public long cellsPerStep() {
        return (long) grid.nz * grid.ny * grid.nx;
    }

    /** Whether the sub-steps run the Vector API kernels (known once a model was set; false before). */
    boolean cpuKernels() {
        return stepper != null && stepper.cpuKernels();
    }

    /** Test hook: steps through the fused velocity-stress pass where it applies (default), or sub-step by sub-step. */
    void fuseSubSteps(boolean on) {
        fuse = on;
    }

    /** Test hook: the stepper of the last run (fields after its last step). */
    ElasticStepper stepper() {
        return stepper;
    }

    /** The (vp, vs, rho) of a parameter-major model array, or the last one for null. */
    private ElasticModel model(float[] m) {
        if (m == null) {
            if (last == null) {
                throw new IllegalArgumentException("no elastic model given and none set by an earlier call: pass the"
                        + " model (vp, vs, rho one after the other) on the first call");
            }
            return last;
        }
        CellWindow w = window;
        int n = w.cells();
        if (m.length != 3 * n) {
            throw new IllegalArgumentException("elastic model has " + m.length + " values; it needs vp, vs and rho one"
                    + " after the other, 3 x " + n + " = " + 3 * n + " for the " + (w.isWhole(spec.shape()) ? "shape "
                    : "model window ") + Arrays.toString(w.shape()));
        }
        if (last != null && equalsParts(m, n)) {
            return last; // the same values as the last call: no copies (a benchmark or a line search repeats a model)
        }
        last = new ElasticModel(Arrays.copyOfRange(m, 0, n), Arrays.copyOfRange(m, n, 2 * n),
                Arrays.copyOfRange(m, 2 * n, 3 * n));
        return last;
    }

    /** Whether the parameter-major model {@code m} holds the last model's vp, vs and rho ({@code n} cells each). */
    private boolean equalsParts(float[] m, int n) {
        return Arrays.equals(m, 0, n, last.vp(), 0, n) && Arrays.equals(m, n, 2 * n, last.vs(), 0, n)
                && Arrays.equals(m, 2 * n, 3 * n, last.rho(), 0, n);
    }

    @Override
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                          WavefieldListener listener) {
        if (listener != null && snapshotEvery > 0) {
            // the single field of the facade's snapshots: the particle speed |v| (the velocities come first)
            int nd = spec.ndim();
            return forward(wavelet, sources, type, receivers, fields, model(model), snapshotEvery, (shot, done, f) -> {
                float[] speed = new float[f[0].length];
                for (int i = 0; i < speed.length; i++) {
                    double s = 0;
                    for (int c = 0; c < nd; c++) {
                        s += (double) f[c][i] * f[c][i];
                    }
                    speed[i] = (float) Math.sqrt(s);
                }
                listener.snapshot(shot, done, speed);
            });
        }
        return forward(wavelet, sources, type, receivers, fields, model(model));
    }

    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model) {
        return forwardForGradient(wavelet, sources, type, receivers, fields, model(model));
    }

    /**
     * The step's stages (see {@link ElasticAdjoint#stepStages}); velocities are scaled by the model's mean impedance
     * ρ·vp, so that velocities, stresses and memory variables all weigh in a random state.
     */
    @Override
    public StepStages stepStages(float[] model) {
        ElasticModel m = model(model);
        setModel(m);
        double impedance = 0;
        for (int i = 0; i < m.vp().length; i++) {
            impedance += (double) m.vp()[i] * m.rho()[i];
        }
        return adjointMachinery().stepStages(impedance / m.vp().length);
    }

    @Override
    public Gradient gradient(float[] residual) {
        ElasticGradient g = elasticGradient(residual);
        return new Gradient(g.parameters(), 3, g.wavelet(), g.misfit());
    }

    @Override
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                       float[] observed, Misfit misfit) {
        ElasticGradient g = forwardAndGradient(wavelet, sources, type, receivers, fields,
                model(model), observed, misfit);
        return new Gradient(g.parameters(), 3, g.wavelet(), g.misfit());
    }

    @Override
    public double timeSteps(float[] model, int steps) {
        return timeSteps(model(model), steps);
    }

    @Override
    public double lastTransferSeconds() {
        return lastTransfer;
    }

    @Override
    public void setOverlap(boolean on) {
        // the elastic step has no overlapped path: it always updates, then exchanges (the bit-exact reference)
    }

    @Override
    public void rebuildListener(WavefieldListener l) {
        throw new UnsupportedOperationException("the elastic rebuild listener takes several components:"
                + " rebuildListener(ElasticListener)");
    }

    @Override
    public void close() {
        if (device != null) {
            device.close();
            device = null;
        }
        backend.close();
    }
}
