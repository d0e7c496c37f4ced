package sweep.acoustic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.backend.CpuKernels;
import sweep.backend.JavaBackend;
import sweep.core.Wavelets;
import sweep.equation.EquationSolver;
import sweep.equation.StepStages;
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
 * The acoustic solver behind {@link Propagator}: forward modelling of a batch of shots through a velocity model on one
 * {@link Grid} and its exact adjoint, on the Java backend or a device backend; made by the acoustic equation
 * ({@code sweep.acoustic.AcousticEquation}), which also takes its memory figures from here. Construction is cheap;
 * wavefield buffers are allocated at the first forward call and reused. Not thread-safe: one forward at a time.
 */
final class AcousticSolver implements EquationSolver {
    private final PropSpec spec;
    private final Grid grid;
    private final JavaBackend backend;
    private final HaloHook halo;
    private AcousticStepper stepper;
    /** The device backend chosen by {@link Backends#BACKEND} (null: the Java backend), opened with the model. */
    private AcousticDeviceStepper device;
    private boolean deviceOpened;
    private AcousticAdjoint adjoint;
    /** dJ/d(v²dt²) of a device adjoint run, reused across shots (null until the first). */
    private float[] deviceGrad;
    private float[] model;
    private double pmlVelocity;
    /** Whether {@link #model} is set in full: v²dt², profiles and the device's copy match it. */
    private boolean modelCurrent;
    private boolean overlap;
    /** CPU seconds of the calling thread in the last timeSteps (Java backend). */
    private double lastCpu = Double.NaN;
    /** The transfer seconds of the last device {@link #timeSteps} shot ({@link #lastTransferSeconds}). */
    private double lastTransfer = Double.NaN;
    /** The scattered field of a Born run (null until the first). */
    private AcousticStepper scattered;
    /**
     * The perturbation of v²dt² of a Born run (null until the first), the perturbation it was made from and whether it
     * was made with the current model; the background step's term of a full-storage Born run (null until one).
     */
    private float[] dv2;
    private float[] bornPerturbation;
    private boolean dv2Current;
    private float[] bornTerm;
    /** The tapes of the last gradient-capable forward run, one per shot. */
    private List<AcousticShotTape> tapes = List.of();

    /**
     * A solver for one tile {@code grid} of {@code spec} whose cut faces are filled by {@code halo} (null: no
     * neighbours); sources and receivers are given in tile-physical coordinates.
     */
    AcousticSolver(PropSpec spec, Grid grid, HaloHook halo) {
        this.spec = spec;
        this.grid = grid;
        this.halo = halo;
        this.backend = new JavaBackend(spec.threads());
    }

    /** Wavefield arrays of a solver of {@code g}: v²dt², two time levels and the CPU kernels' per-thread rows. */
    public static long fieldBytes(Grid g) {
        long scratch = !CpuKernels.useCpuKernels() ? 0 : g.ndim == 3 ? AcousticVectorKernels3D.scratchSize(g.geo)
                : AcousticVectorKernels2D.scratchSize();
        return 4L * (3L * g.length() + MemoryEstimate.threads(g) * scratch);
    }

    /** CPML arrays of a solver of {@code g}: the auxiliaries psi and zeta (band slabs per axis) and the profiles. */
    public static long cpmlBytes(Grid g) {
        long aux = g.hasPml() ? 2L * g.auxLength() : 0;
        return 4L * (aux + 2L * (g.nz + g.ny + g.nx) + Grid.PROFILE_PAD);
    }

    /** The adjoint run's own arrays: adjoint levels, gradient, CPML adjoints, rebuilt levels (boundary saving). */
    public static long adjointBytes(Grid g, Storage storage) {
        long len = g.length();
        long pml = g.hasPml() ? g.auxLength() : 0;
        long scratch = CpuKernels.useCpuKernels() ? AcousticVectorAdjointKernels3D.scratchSize(g.geo) : 0;
        long rebuild = storage == Storage.BOUNDARY_SAVING ? 2 * len : 0;
        return 4L * (5 * len + 4 * pml + rebuild + MemoryEstimate.threads(g) * scratch);
    }

    /**
     * One shot's tape for {@code nt} steps: FULL keeps a grid-sized term per step, BOUNDARY_SAVING the ring of h cells
     * inside the PML per step (the last two levels are counted in {@link #adjointBytes}).
     */
    public static long tapeBytes(Grid g, Storage storage, int nt) {
        long perStep = storage == Storage.FULL ? g.length() : g.view().ringSize();
        return 4L * nt * perStep;
    }

    @Override
    public CellWindow modelWindow() {
        return CellWindow.of(grid, 0);
    }

    @Override
    public Grid grid() {
        return grid;
    }

    /**
     * Bytes of wavefield, model, CPML, adjoint and tape memory this solver holds now (0 before the first forward);
     * a solver that only ran forward-only calls holds no gradient memory.
     */
    @Override
    public long bytesHeld() {
        long n = stepper == null ? 0 : stepper.bytes();
        if (adjoint != null) {
            n += adjoint.bytes();
        }
        for (AcousticShotTape t : tapes) {
            n += t.bytes();
        }
        if (scattered != null) {
            n += scattered.bytes() - 4L * grid.length(); // its v2 is the background's
            n += 4L * (dv2.length + bornPerturbation.length + (bornTerm == null ? 0 : bornTerm.length));
        }
        return n;
    }

    /**
     * Runs B shots and returns their records {@code (B, nt, nrec, 1)} of pressure at the receivers, sample t being
     * the wavefield at time {@code t·dt} (zero before the source acts).
     *
     * @param wavelet   source time function: {@code nt} values shared by all shots, {@code (B, nt)} one per shot or
     *                  {@code (B, nsrc, nt)} one per source (see {@link ShotWavelets})
     * @param sources   per shot, source cells as grid indices (x, z) in 2-D or (x, y, z) in 3-D of the physical model
     * @param receivers per shot, receiver cells, same convention; every shot has the same number of receivers
     * @param vp        velocity model, physical shape of the spec (z first, x fastest), m/s; null reuses the model of
     *                  the previous call
     * @param snapshotEvery when positive, {@code listener} receives the wavefield every so many steps
     * @param listener  snapshot receiver, or null
     */
    @Override
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] vp, int snapshotEvery,
                          WavefieldListener listener) {
        tapes = List.of();
        return run(wavelet, sources, receivers, vp, snapshotEvery, listener, null, false);
    }

    /**
     * A gradient-capable forward run: as
     * {@link #forward(float[], int[][][], int[][][], float[], int, WavefieldListener)}, and keeps what
     * {@link #gradient(float[])} needs (see {@link Storage}; memory grows with the batch size B).
     */
    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] vp) {
        List<AcousticShotTape> kept = new ArrayList<>();
        Record r = run(wavelet, sources, receivers, vp, 0, null, kept, false);
        tapes = kept;
        return r;
    }

    /**
     * The adjoint run of the last {@link #forwardForGradient} call: for a residual dJ/drecord of shape
     * {@code (B, nt, nrec, 1)}, returns dJ/dvp (physical shape, summed over shots in shot order) and dJ/dwavelet
     * {@code (B, nt)}.
     */
    @Override
    public Gradient gradient(float[] residual) {
        if (tapes.isEmpty()) {
            throw new IllegalStateException("gradient() needs a preceding forwardForGradient() call on this solver");
        }
        int nt = spec.nt();
        int shots = tapes.size();
        int nrec = tapes.get(0).recIdx().length;
        if (residual == null || residual.length != shots * nt * nrec) {
            throw new IllegalArgumentException("residual has " + (residual == null ? "no" : residual.length)
                    + " values; the last forward's record (" + shots + ", " + nt + ", " + nrec + ", 1) needs "
                    + shots * nt * nrec);
        }
        float[] total = new float[grid.tz * grid.ty * grid.tx];
        float[] wbarAll = new float[shots * nt];
        for (int b = 0; b < shots; b++) {
            float[] res = new float[nt * nrec];
            System.arraycopy(residual, b * nt * nrec, res, 0, nt * nrec);
            shotGradient(tapes.get(b), res, total, wbarAll, b);
        }
        return new Gradient(total, wbarAll, Double.NaN);
    }

    /**
     * Forward run, misfit against {@code observed} (same shape as the record) and adjoint run, shot by shot (memory of
     * one shot's tape at a time). Returns the misfit summed over shots in double, dJ/dvp and dJ/dwavelet.
     */
    @Override
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] vp,
                                       float[] observed, Misfit misfit) {
        int nt = spec.nt();
        int shots = Cells.checkShots(sources, receivers);
        int nrec = receivers[0].length;
        if (observed == null || observed.length != shots * nt * nrec) {
            throw new IllegalArgumentException("observed data have " + (observed == null ? "no" : observed.length)
                    + " values; expected shape (" + shots + ", " + nt + ", " + nrec + ", 1)");
        }
        float[] total = new float[grid.tz * grid.ty * grid.tx];
        float[] wbarAll = new float[shots * nt];
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        double j = 0;
        tapes = List.of();
        for (int b = 0; b < shots; b++) {
            List<AcousticShotTape> kept = new ArrayList<>();
            float[] wb = ShotWavelets.of(wavelet, stride, b, sources[b].length, nt);
            // the tape lives in the adjoint's buffers: its adjoint run follows at once
            Record r = run(wb, new int[][][] {sources[b]}, new int[][][] {receivers[b]}, b == 0 ? vp : null, 0, null,
                    kept, true); // (null: the model the first shot set)
            float[] obs = new float[nt * nrec];
            System.arraycopy(observed, b * nt * nrec, obs, 0, nt * nrec);
            float[] res = new float[nt * nrec];
            j += misfit.forShot(sources[b], receivers[b]).evaluate(r.data(), obs, res);
            shotGradient(kept.get(0), res, total, wbarAll, b);
        }
        return new Gradient(total, wbarAll, j);
    }

    /**
     * The Born record: the derivative of the {@link #forward} record with respect to vp in the direction {@code dvp}
     * (the tile's physical shape), the exact linearisation of the discrete step, CPML and free surface included. The
     * background and the scattered field advance together on the Java backend; each step the scattered field gets the
     * secondary source δ(v²dt²)·(Laplacian-plus-source term of the background step) over the cells where the
     * spec's storage keeps the gradient (FULL: every cell; BOUNDARY_SAVING: outside the PML pads, and the source
     * cells), so that the {@link #gradient} of the same storage is its exact adjoint. With boundary saving the interior
     * box runs both fields in one pass that computes the background's Laplacian once
     * ({@link AcousticKernelSet#bornInterior}).
     */
    @Override
    public Record born(float[] wavelet, int[][][] sources, int[][][] receivers, float[] vp, float[] dvp) {
        int nt = spec.nt();
        int shots = Cells.checkShots(sources, receivers);
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        setModel(vp);
        int cells = grid.tz * grid.ty * grid.tx;
        if (dvp == null || dvp.length != cells) {
            throw new IllegalArgumentException("the perturbation has " + (dvp == null ? "no" : dvp.length)
                    + " values; the (tile) shape " + shapeString() + " needs " + cells);
        }
        tapes = List.of();
        if (scattered == null) {
            scattered = new AcousticStepper(grid, backend, stepper.v2);
            dv2 = new float[grid.length()];
        }
        scattered.setProfiles(stepper.prof);
        if (!dv2Current || !Arrays.equals(dvp, bornPerturbation)) {
            fillPadded(dvp, dv2, 2.0 * spec.dt() * spec.dt(), model);
            bornPerturbation = dvp.clone();
            dv2Current = true;
        }
        // boundary saving: the secondary source only in the interior box (and at the sources), where the fused
        // kernel computes the background's Laplacian once for both fields; full storage: everywhere, by the
        // Laplacian-term kernel between the two steps
        boolean fused = spec.storage() == Storage.BOUNDARY_SAVING;
        AcousticTapeRecorder terms = fused ? null : new AcousticTapeRecorder(grid, stepper, backend, spec.storage(),
                null, null);
        List<sweep.core.Box> boxes = List.of(grid.view().allBox());
        if (!fused && bornTerm == null) {
            bornTerm = new float[grid.length()]; // zero outside the cells the term kernel writes
        }
        int nrec = receivers[0].length;
        float[] out = new float[shots * nt * nrec];
        float[] rec = new float[nt * nrec];
        for (int b = 0; b < shots; b++) {
            int[] srcIdx = grid.cellIndices(sources[b], "source", b);
            int[] recIdx = grid.cellIndices(receivers[b], "receiver", b);
            float[] sw = ShotWavelets.of(wavelet, stride, b, srcIdx.length, nt);
            stepper.reset();
            scattered.reset();
            for (int n = 0; n < nt; n++) {
                Sources.sample(scattered.u, recIdx, rec, nrec, n);
                if (fused) {
                    // the PML boxes of both fields, then their interior in one pass (no secondary source in the
                    // pads), then the sources: the background's v²dt²·w, the scattered field's δ(v²dt²)·w
                    stepper.updatePml();
                    scattered.updatePml();
                    stepper.bornInterior(scattered, dv2);
                    stepper.endStep(n, srcIdx, sw, srcIdx.length, nt, stepper.v2);
                    scattered.endStep(n, srcIdx, sw, srcIdx.length, nt, dv2);
                    if (halo != null) {
                        halo.exchange(stepper.u);
                    }
                } else {
                    advance(n, srcIdx, sw, srcIdx.length, nt);
                    for (int i : srcIdx) {
                        bornTerm[i] = 0f;
                    }
                    terms.term(stepper.un, bornTerm, boxes);
                    Sources.add(bornTerm, srcIdx, sw, srcIdx.length, nt, n);
                    scattered.stepScattered(dv2, bornTerm);
                }
                if (halo != null) {
                    halo.exchange(scattered.u);
                }
                int done = n + 1;
                if (done % spec.checkEvery() == 0 || done == nt) {
                    stepper.checkFinite(done, b);
                    scattered.checkFinite(done, b);
                }
            }
            if (!fused) {
                for (int i : srcIdx) {
                    bornTerm[i] = 0f;
                }
            }
            System.arraycopy(rec, 0, out, b * nt * nrec, nt * nrec);
        }
        return new Record(out, shots, nt, nrec, 1);
    }

    /**
     * Fills {@code out} on the computational grid from the tile-physical {@code phys}: each cell takes its clamped
     * physical cell's {@code scale·phys·by} (pad cells repeat the edge cell), as {@link #setModel} fills v²dt².
     */
    private void fillPadded(float[] phys, float[] out, double scale, float[] by) {
        backend.parallelFor(0, grid.nz, (z0, z1) -> {
            for (int z = z0; z < z1; z++) {
                int pz = Math.min(Math.max(z - grid.pz0, 0), grid.tz - 1);
                for (int y = 0; y < grid.ny; y++) {
                    int py = Math.min(Math.max(y - grid.py0, 0), grid.ty - 1);
                    for (int x = 0; x < grid.nx; x++) {
                        int px = Math.min(Math.max(x - grid.px0, 0), grid.tx - 1);
                        int k = (pz * grid.ty + py) * grid.tx + px;
                        out[grid.compIndex(z, y, x)] = (float) ((double) phys[k] * by[k] * scale);
                    }
                }
            }
        });
    }

    @Override
    public void rebuildListener(WavefieldListener l) {
        adjoint.rebuildListener = l;
    }

    private void shotGradient(AcousticShotTape tape, float[] res, float[] total, float[] wbarAll, int b) {
        int nt = spec.nt();
        int nrec = tape.recIdx().length;
        int nsrc = tape.srcIdx().length;
        float[] resT = new float[nrec * nt];
        for (int t = 0; t < nt; t++) {
            for (int r = 0; r < nrec; r++) {
                resT[r * nt + t] = res[t * nrec + r];
            }
        }
        float[] wbar = new float[nsrc * nt];
        float[] gv2;
        if (tape instanceof AcousticShotTape.OnDevice dt) {
            if (deviceGrad == null) {
                deviceGrad = new float[grid.length()];
            }
            gv2 = deviceGrad;
            Arrays.fill(gv2, 0f); // the device run adds into it
            device.backward(dt.tape(), resT, nt, gv2, wbar);
        } else if (tape instanceof AcousticTape jt) {
            gv2 = adjoint.backward(jt, resT, nt, wbar);
        } else {
            throw new IllegalStateException("unknown tape " + tape); // unreachable: AcousticShotTape is sealed
        }
        for (int s = 0; s < nsrc; s++) {
            for (int t = 0; t < nt; t++) {
                wbarAll[b * nt + t] += wbar[s * nt + t];
            }
        }
        addPhysicalGradient(gv2, total);
    }

    /**
     * Adds dJ/dvp on the tile's physical cells, from dJ/d(v²dt²) on the computational grid, into {@code total}: pad
     * cells are summed onto the edge cell in double, in (z, y, x) order, one physical row at a time.
     */
    private void addPhysicalGradient(float[] gv2, float[] total) {
        backend.parallelFor(0, grid.tz, (pz0, pz1) -> addPhysicalGradient(gv2, total, pz0, pz1));
    }

    /** {@link #addPhysicalGradient(float[], float[])} on the physical rows pz of [pz0, pz1). */
    private void addPhysicalGradient(float[] gv2, float[] total, int pz0, int pz1) {
        double[] acc = new double[grid.tx];
        double dt2 = spec.dt() * spec.dt();
        // x in [xa, xe): one physical cell each; the pad cells on either side go onto the edge cell
        int xa = Math.min(Math.max(grid.px0, 0), grid.nx);
        int xe = Math.max(xa, Math.min(grid.px0 + grid.tx, grid.nx));
        for (int pz = pz0; pz < pz1; pz++) {
            int[] zs = padRange(pz, grid.pz0, grid.tz, grid.nz);
            for (int py = 0; py < grid.ty; py++) {
                int[] ys = padRange(py, grid.py0, grid.ty, grid.ny);
                Arrays.fill(acc, 0.0);
                for (int z = zs[0]; z < zs[1]; z++) {
                    for (int y = ys[0]; y < ys[1]; y++) {
                        int c0 = grid.compIndex(z, y, 0);
                        for (int x = 0; x < xa; x++) {
                            acc[Math.min(Math.max(x - grid.px0, 0), grid.tx - 1)] += gv2[c0 + x];
                        }
                        for (int x = xa; x < xe; x++) {
                            acc[x - grid.px0] += gv2[c0 + x];
                        }
                        for (int x = xe; x < grid.nx; x++) {
                            acc[Math.min(Math.max(x - grid.px0, 0), grid.tx - 1)] += gv2[c0 + x];
                        }
                    }
                }
                int a0 = (pz * grid.ty + py) * grid.tx;
                for (int px = 0; px < grid.tx; px++) {
                    total[a0 + px] += (float) (acc[px] * 2.0 * model[a0 + px] * dt2);
                }
            }
        }
    }

    /**
     * The computational indices [lo, hi) along one axis whose cells map onto physical index p (tile origin p0 in
     * computational cells, t physical and n computational cells): the physical cell itself, and the pad cells before
     * the first or after the last one.
     */
    private static int[] padRange(int p, int p0, int t, int n) {
        int lo = p == 0 ? 0 : p0 + p;
        int hi = p == t - 1 ? n : p0 + p + 1;
        return new int[] {Math.max(0, lo), Math.min(n, hi)};
    }

    /** The step's stages on the Java backend (see {@link AcousticAdjoint#stepStages}). */
    @Override
    public StepStages stepStages(float[] vp) {
        setModel(vp);
        if (adjoint == null) {
            adjoint = new AcousticAdjoint(grid, stepper, backend, spec.storage(), halo);
        }
        return adjoint.stepStages();
    }

    private Record run(float[] wavelet, int[][][] sources, int[][][] receivers, float[] vp, int snapshotEvery,
                       WavefieldListener listener, List<AcousticShotTape> kept, boolean transientTape) {
        int nt = spec.nt();
        int shots = Cells.checkShots(sources, receivers);
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        setModel(vp);
        AcousticDeviceStepper dev = device;
        if (dev != null && halo != null && halo.sendBoxes() == null) {
            if (!Backends.auto()) {
                throw new UnsupportedOperationException("the TornadoVM backend (" + Backends.BACKEND + "=tornado)"
                        + " needs a halo hook that exchanges packed strips; this one needs " + Backends.BACKEND
                        + "=java (or auto)");
            }
            dev = null; // auto: the Java backend does what the device cannot yet
        }
        if (kept != null && dev == null && adjoint == null) {
            adjoint = new AcousticAdjoint(grid, stepper, backend, spec.storage(), halo);
        }
        int nrec = receivers[0].length;
        float[] out = new float[shots * nt * nrec];
        float[] rec = new float[nt * nrec];
        for (int b = 0; b < shots; b++) {
            int[] srcIdx = grid.cellIndices(sources[b], "source", b);
            int[] recIdx = grid.cellIndices(receivers[b], "receiver", b);
            float[] sw = ShotWavelets.of(wavelet, stride, b, srcIdx.length, nt);
            if (dev != null) {
                AcousticDeviceTape dt = kept == null ? null : new AcousticDeviceTape(spec.storage(), srcIdx, recIdx,
                        sw);
                int shot = b;
                boolean snap = listener != null && snapshotEvery > 0;
                float[] r = dev.shot(srcIdx, sw, recIdx, nt, dt, snap ? snapshotEvery : 0,
                        snap ? (done, field) -> listener.snapshot(shot, done, stepper.physicalCopy(field)) : null);
                if (dt != null) {
                    kept.add(new AcousticShotTape.OnDevice(dt));
                }
                System.arraycopy(dev.wavefield(), 0, stepper.u, 0, stepper.u.length);
                stepper.checkFinite(nt, b);
                System.arraycopy(r, 0, out, b * nt * nrec, nt * nrec);
                continue;
            }
            AcousticTape tape = kept == null ? null : new AcousticTape(srcIdx, recIdx, sw, transientTape);
            stepper.reset();
            for (int n = 0; n < nt; n++) {
                Sources.sample(stepper.u, recIdx, rec, nrec, n);
                advance(n, srcIdx, sw, srcIdx.length, nt);
                int done = n + 1;
                if (done % spec.checkEvery() == 0 || done == nt) {
                    stepper.checkFinite(done, b);
                }
                if (tape != null) {
                    adjoint.recorder().record(tape, n, nt);
                }
                if (listener != null && snapshotEvery > 0 && done % snapshotEvery == 0) {
                    listener.snapshot(b, done, stepper.physicalCopy());
                }
            }
            if (tape != null) {
                kept.add(tape);
            }
            System.arraycopy(rec, 0, out, b * nt * nrec, nt * nrec);
        }
        return new Record(out, shots, nt, nrec, 1);
    }

    /**
     * For benchmarks: sets the model, then times {@code steps} time steps (halo exchange included) of one shot with a
     * source at the centre of the tile and no receivers; returns the seconds of the time loop alone (model set-up
     * excluded).
     */
    @Override
    public double timeSteps(float[] vp, int steps) {
        setModel(vp);
        int[] src = {grid.index(grid.tz / 2, grid.ty / 2, grid.tx / 2)};
        float[] w = Wavelets.ricker(10, steps, spec.dt());
        if (device != null && (halo == null || halo.sendBoxes() != null)) {
            // one shot on the device; the time loop alone is steps 1..steps-1 (the first uploads the zeroed fields),
            // scaled to all the steps; the rest of the shot is its transfer time
            long t0 = System.nanoTime();
            device.shot(src, w, new int[0], steps);
            double sec = (System.nanoTime() - t0) * 1e-9;
            double steady = DeviceStepper.steadySeconds(device.lastStepLoopSeconds(), steps);
            System.arraycopy(device.wavefield(), 0, stepper.u, 0, stepper.u.length);
            stepper.checkFinite(steps, 0);
            lastCpu = Double.NaN;
            lastTransfer = Double.isNaN(steady) ? Double.NaN : Math.max(0, sec - steady);
            return Double.isNaN(steady) ? sec : steady;
        }
        stepper.reset();
        if (halo != null) {
            halo.synchronize(); // the set-up (model tile, reset) ends at different times on the ranks
        }
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int n = 0; n < steps; n++) {
            advance(n, src, w, 1, steps);
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        long c1 = mx.getCurrentThreadCpuTime();
        lastCpu = c0 < 0 || c1 < 0 ? Double.NaN : (c1 - c0) * 1e-9;
        lastTransfer = Double.NaN;
        stepper.checkFinite(steps, 0);
        return sec;
    }

    /**
     * CPU seconds the calling thread spent in the steps of the last {@link #timeSteps} call on the Java backend (on one
     * thread all the work); NaN on a device or when unsupported.
     */
    @Override
    public double lastStepsCpuSeconds() {
        return lastCpu;
    }

    @Override
    public double lastTransferSeconds() {
        return lastTransfer;
    }

    /**
     * The backend this solver runs forward records on: "Java backend (N threads)" or the TornadoVM device (chosen when
     * the model is first set, e.g. by a forward call or {@link #timeSteps}; before that: the Java backend).
     */
    @Override
    public String backendDescription() {
        return device != null ? device.describe() : "Java backend (" + backend.threads() + " threads)";
    }

    /** Cells updated per time step: the computational grid, PML pads included. */
    @Override
    public long cellsPerStep() {
        return (long) grid.nz * grid.ny * grid.nx;
    }

    /**
     * Sets the velocity used for the CPML profile when the spec leaves maxVel at 0 (the domain-decomposition layer
     * passes the global model's maximum so every tile builds the same profile); 0 restores the model's own maximum.
     */
    @Override
    public void setPmlVelocity(double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("PML velocity must be >= 0 and finite, got " + v);
        }
        this.pmlVelocity = v;
        modelCurrent = false; // the profiles change: the next call sets its model in full
    }

    /**
     * With a halo hook: hide the halo exchange behind the update of the cells away from the cuts, or run the serial
     * path (update, then exchange; the default, since the overlap measured no faster on few cores: see
     * docs/performance.md). Both give the same bits.
     */
    @Override
    public void setOverlap(boolean on) {
        this.overlap = on;
    }

    /** One time step plus, under domain decomposition, the halo exchange of the new level. */
    private void advance(int n, int[] srcIdx, float[] sw, int nsrc, int nt) {
        if (halo == null) {
            stepper.step(n, srcIdx, sw, nsrc, nt);
        } else if (overlap && stepper.canOverlap(halo)) {
            stepper.stepOverlapped(n, srcIdx, sw, nsrc, nt, halo);
        } else {
            stepper.step(n, srcIdx, sw, nsrc, nt);
            halo.exchange(stepper.u);
        }
    }

    /**
     * Sets the model, or keeps the previous one when {@code vp} is null: validates it, checks the CFL condition, fills
     * v²dt² into the padded grid and sets the CPML profiles; a model equal to the last one set (and no new PML velocity
     * since) leaves all of that as it is.
     */
    private void setModel(float[] vp) {
        if (vp == null) {
            if (model == null) {
                throw new IllegalArgumentException("no velocity model given and none set by an earlier call:"
                        + " pass the model on the first call");
            }
            return;
        }
        int cells = grid.tz * grid.ty * grid.tx;
        if (vp == null || vp.length != cells) {
            throw new IllegalArgumentException("velocity model has " + (vp == null ? "no" : vp.length)
                    + " values; the (tile) shape " + shapeString() + " needs " + cells);
        }
        if (modelCurrent && Arrays.equals(model, vp)) {
            return; // the same model as the last call: checked, and its v²dt² and profiles are in place
        }
        // checked at the boundary: the facade (one domain) or ModelParallel (tiles) validated it and its CFL condition
        double vmax = 0;
        for (float v : vp) {
            vmax = Math.max(vmax, v);
        }
        modelCurrent = false; // until the model is set in full
        if (model == null || model.length != vp.length) {
            model = new float[vp.length];
        }
        System.arraycopy(vp, 0, model, 0, vp.length);
        dv2Current = false; // δ(v²dt²) = 2·v·δv·dt² depends on the model
        double pmlVel = spec.maxVel() > 0 ? spec.maxVel() : pmlVelocity > 0 ? pmlVelocity : vmax;
        if (stepper == null) {
            stepper = new AcousticStepper(grid, backend);
        }
        float[] v2 = stepper.v2;
        fillPadded(vp, v2, spec.dt() * spec.dt(), vp);
        float[] prof = grid.profiles(pmlVel);
        stepper.setProfiles(prof);
        if (!deviceOpened) {
            device = Backends.open(AcousticDeviceStepper.class, grid, halo);
            deviceOpened = true;
        }
        if (device != null) {
            device.setModel(v2, prof);
        }
        modelCurrent = true;
    }

    private String shapeString() {
        return grid.ndim == 2 ? "(" + grid.tz + ", " + grid.tx + ")" : "(" + grid.tz + ", " + grid.ty + ", " + grid.tx
                + ")";
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
