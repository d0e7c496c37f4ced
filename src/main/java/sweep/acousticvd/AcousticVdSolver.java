package sweep.acousticvd;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import sweep.acousticvd.kernels.AcousticVdAdjointKernels;
import sweep.acousticvd.kernels.AcousticVdKernels;
import sweep.acousticvd.kernels.PressureRelaxationKernels;
import sweep.backend.CpuKernels;
import sweep.backend.JavaBackend;
import sweep.core.FdWeights;
import sweep.equation.EquationSolver;
import sweep.equation.StateVector;
import sweep.equation.StepStages;
import sweep.kernels.Layout;
import sweep.prop.Backends;
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
import sweep.prop.spi.DeviceStepper;

/**
 * The Java solver of the variable-density acoustic equation on one grid (the whole model or one tile): the
 * velocity–pressure leapfrog of {@link AcousticVdKernels} and its exact adjoint ({@link AcousticVdAdjointKernels})
 * from a tape of every step's brackets, on the project's Java backend.
 *
 * <p>A step: the velocities from (n−½)dt to (n+½)dt (then, with a free surface, the vz images), the record (p at
 * n·dt, the velocities at (n+½)dt), the pressure to (n+1)dt, the source, then the free surface (p = 0 on the surface
 * row, odd p images). A pressure source adds vp²dt²·Σ_{m≤n} w_m at its cell in step n (vp its cell's): with a constant
 * rho, p then obeys the {@code acoustic} equation's ∂²p/∂t² = vp²(∇²p + w δ), and both records agree. dt·K at a node
 * is its cell's ρ·vp²·dt; the buoyancy dt/ρ̄ at a velocity node uses the arithmetic mean ρ̄ of the two cells beside it
 * (the effective density of layers crossed in series), edge cells repeated into the CPML pads.
 *
 * <p>With a {@link PressureRelaxation} (an equation built on this one, e.g. visco-acoustic) the pressure nodes also
 * carry its memory variables: their update follows the pressure kernel on the same rows, its transpose precedes the
 * pressure kernel's, and the model holds the equation's further parameters after vp and rho; full storage or
 * checkpointing (boundary saving cannot run the memory update backwards).
 */
final class AcousticVdSolver implements EquationSolver {
    private final PropSpec spec;
    /** The model's shape ({@code spec.shape()}, which copies), read per cell by {@link #cell} and {@link #add}. */
    private final int[] shape;
    /** The memory variables at the pressure nodes of an equation built on this solver; null for acoustic-vd. */
    private final PressureRelaxation relax;
    /** Their number per node (0 without). */
    private final int nmech;
    /** The equation's parameters per model cell (vp and rho first). */
    private final int npar;
    private final Grid grid;
    private final HaloHook halo;
    private final CellWindow window;
    private final int ndim;
    private final int h;
    private final int nz;
    private final int ny;
    private final int nx;
    private final int len;
    private final int[] geo;
    private final float[] coef;
    private final boolean fs;
    /** Boundary saving: the tape keeps a ring of the fields per step, the adjoint rebuilds the rest backwards. */
    private final boolean bs;
    /** Checkpointing: the tape keeps the state every {@link #cpEvery} steps, the adjoint re-runs each segment. */
    private final boolean cp;
    /** Checkpointing: steps between checkpoints ({@link #checkpointInterval}); 0 otherwise. */
    private final int cpEvery;
    /** The rebuilt box {z0, z1, y0, y1, x0, x1}: the cells outside every CPML band ({@link #rebuiltBox}). */
    private final int[] box;
    /** The array indices of the ring: the computational cells outside {@link #box}. */
    private final int[] ring;
    private final JavaBackend backend;
    /** Whether the step runs the Vector API kernels ({@link CpuKernels#useCpuKernels()}). */
    private final boolean vector = CpuKernels.useCpuKernels();
    /** Rows per block of {@link #fusedStep}'s velocity pass (its pressure pass follows each block). */
    private final int fuseRows;
    private final JavaBackend.RangeBody fusedPass = this::fusedChunk;
    private final JavaBackend.RangeBody fusedEdges = this::fusedEdgeRows;
    // the arguments of the running fused step, read by its loop bodies
    private float[] fuseTape;
    private int fuseOff;
    private int fuseTaping;

    private double pmlVelocity;
    /** The model of the last call that gave one, over {@link #window} (vp then rho). */
    private float[] model;
    private float[] p;
    private float[] v;
    private float[] kdt;
    private float[] bv;
    private float[] psiV;
    private float[] psiP;
    private float[] prof;
    /** With a relaxation: the memory variables, their coefficients per node and constants, the divergence scratch. */
    private float[] mem;
    private float[] cmem;
    private float[] constants;
    private float[] divScratch;
    private double profVelocity = Double.NaN;
    /** Adjoint arrays (allocated by the first gradient): p̄, v̄, ψ̄v, ψ̄p, e, d, the node gradients gK and gb. */
    private float[] pb;
    private float[] vb;
    private float[] psiVb;
    private float[] psiPb;
    private float[] e;
    private float[] d;
    private float[] gk;
    private float[] gb;
    /** With a relaxation: the memory variables' adjoints, dJ/dc_l per node and the memory's adjoint bracket. */
    private float[] memb;
    private float[] gc;
    private float[] divBar;
    /** Boundary saving: the brackets of the step being run backwards, formed from the rebuilt fields. */
    private float[] stepTape;
    /** The tapes of the last gradient-capable forward run, one per shot. */
    private final List<Shot> shots = new ArrayList<>();
    /** The tape of the last {@link #forwardAndGradient} (reused shot by shot; counted by {@link #bytesHeld()}). */
    private float[] heldTape;
    private double lastCpu = Double.NaN;
    /** The transfer seconds of the last device {@link #timeSteps} shot ({@link #lastTransferSeconds}). */
    private double lastTransfer = Double.NaN;
    /** The device backend chosen by {@link Backends#BACKEND} (null: the Java backend), opened with the first model. */
    private AcousticVdDeviceStepper device;
    private boolean deviceOpened;

    /**
     * What one shot keeps: its host tape (or null), source cells, source scales vp²dt², cumulative wavelets,
     * receivers, and on a device backend its device tape (or null).
     */
    private record Shot(float[] tape, int[] src, float[] scale, float[] cum, int[] rec,
                        AcousticVdDeviceStepper.Tape onDevice) {
    }

    AcousticVdSolver(PropSpec spec, Grid grid, HaloHook halo, PressureRelaxation relax) {
        this.spec = spec;
        this.shape = spec.shape();
        this.relax = relax;
        this.nmech = relax == null ? 0 : relax.mechanisms();
        this.npar = spec.equation().parameterCount();
        this.grid = grid;
        this.halo = halo;
        this.window = CellWindow.of(grid, spec.equation().modelMargin(spec.order()));
        this.ndim = grid.ndim();
        this.h = FdWeights.halfWidth(spec.order());
        this.nz = grid.nz();
        this.ny = grid.ny();
        this.nx = grid.nx();
        this.len = grid.length();
        this.geo = grid.geo();
        this.fs = spec.freeSurface();
        this.bs = spec.storage() == Storage.BOUNDARY_SAVING;
        if (bs && relax != null) {
            throw new IllegalArgumentException("the " + spec.equation().name() + " equation's memory variables cannot"
                    + " be run backwards: use full storage or checkpointing");
        }
        this.cp = spec.storage() == Storage.CHECKPOINTING;
        this.cpEvery = cp ? checkpointInterval(grid, spec.nt(), nmech) : 0;
        this.box = rebuiltBox(grid);
        this.ring = bs ? ringIndices() : new int[0];
        double[] dh = spec.dh();
        double[] c = FdWeights.staggered(spec.order());
        this.coef = new float[3 * h];
        for (int k = 1; k <= h; k++) {
            coef[k - 1] = (float) (c[k] / dh[0]);
            if (ndim == 3) {
                coef[h + k - 1] = (float) (c[k] / dh[1]);
            }
            coef[2 * h + k - 1] = (float) (c[k] / dh[ndim - 1]);
        }
        this.backend = new JavaBackend(spec.threads());
        this.fuseRows = ndim == 2 ? 16 : 2;
    }

    /**
     * The cells outside every CPML band, where a step can be run backwards, as the box {z0, z1, y0, y1, x0, x1}
     * (y0 = 0, y1 = 1 in 2-D): along each axis the cells whose node and half node both lie outside the bands (on the
     * high side the half node of the last cell before a band lies in it).
     */
    static int[] rebuiltBox(Grid g) {
        int[] n3 = {g.nz(), g.ny(), g.nx()};
        int[] out = new int[6];
        for (int s = 0; s < 3; s++) {
            if (g.ndim() == 2 && s == 1) {
                out[2] = 0;
                out[3] = 1;
                continue;
            }
            int[] ga = g.globalAxis(s);
            int first = ga[0];
            int size = ga[1];
            int lo = ga[2];
            int hiStart = ga[3] > 0 ? size - ga[3] - 1 : size;
            out[2 * s] = Math.max(0, Math.min(n3[s], lo - first));
            out[2 * s + 1] = Math.max(out[2 * s], Math.min(n3[s], hiStart - first));
        }
        return out;
    }

    /** The computational cells of {@code g} outside {@link #rebuiltBox}: what boundary saving keeps per step. */
    static long ringCells(Grid g) {
        int[] b = rebuiltBox(g);
        return (long) g.nz() * g.ny() * g.nx() - (long) (b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4]);
    }

    private int[] ringIndices() {
        int[] out = new int[(int) ringCells(grid)];
        int k = 0;
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    boolean in = z >= box[0] && z < box[1] && y >= box[2] && y < box[3] && x >= box[4] && x < box[5];
                    if (!in) {
                        out[k++] = grid.compIndex(z, y, x);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Floats of one shot's tape of {@code nt} steps for {@code storage}, with {@code nmech} memory variables per node:
     * FULL the brackets of every step; BOUNDARY_SAVING the ring of every step and the last state; CHECKPOINTING the
     * states of its checkpoints and the brackets of one segment.
     */
    static long tapeFloats(Grid g, Storage storage, int nt, int nmech) {
        int nd = g.ndim();
        if (storage == Storage.BOUNDARY_SAVING) {
            return (1L + nd) * (ringCells(g) * nt + g.length());
        }
        long step = (1L + nd) * g.nz() * g.ny() * g.nx();
        if (storage == Storage.CHECKPOINTING) {
            int k = checkpointInterval(g, nt, nmech);
            return (nt + k - 1) / k * stateFloats(g, nmech) + k * step;
        }
        return nt * step;
    }

    /**
     * Floats of the forward run's state that a checkpoint keeps: p, the velocities, both CPML memories (band slabs),
     * and the {@code nmech} memory variables per node.
     */
    static long stateFloats(Grid g, int nmech) {
        return (1L + g.ndim() + nmech) * g.length() + 2L * g.auxLength();
    }

    /**
     * Steps between checkpoints for {@code nt} steps: k = √(nt·state/brackets of a step), rounded, in [1, nt], which
     * makes the ⌈nt/k⌉ checkpoints and the k steps of brackets of one segment together about smallest. The ratio is
     * taken per computational cell (the halo left out), so that every rank of a decomposed run, whatever its tile,
     * re-runs the same segments (their halo exchanges must pair up).
     */
    static int checkpointInterval(Grid g, int nt, int nmech) {
        int nd = g.ndim();
        long k = Math.round(Math.sqrt(nt * (1.0 + 3 * nd + nmech) / (1.0 + nd)));
        return (int) Math.max(1, Math.min(nt, k));
    }

    /** Arrays of the grid's length the forward run holds: p, the velocities, dt·K, the buoyancies. */
    static int fieldArrays(int ndim) {
        return 2 + 2 * ndim;
    }

    /**
     * Arrays of the grid's length the adjoint run holds: p̄, gK, and per axis v̄, e, d, gb (besides the CPML adjoints
     * ψ̄v, ψ̄p in band slabs, {@link Grid#auxLength()} each).
     */
    static int adjointArrays(int ndim) {
        return 2 + 4 * ndim;
    }

    @Override
    public Grid grid() {
        return grid;
    }

    @Override
    public CellWindow modelWindow() {
        return window;
    }

    @Override
    public long bytesHeld() {
        long n = 0;
        if (p != null) {
            n += (long) fieldArrays(ndim) * len + 2L * grid.auxLength() + prof.length;
            if (nmech > 0) {
                n += 2L * nmech * len + divScratch.length;
            }
        }
        if (pb != null) {
            n += (long) adjointArrays(ndim) * len + 2L * grid.auxLength();
            if (nmech > 0) {
                n += 2L * nmech * len + divBar.length;
            }
        } else if (gk != null) {
            n += (1L + ndim + nmech) * len; // a device backend's node gradients
        }
        if (stepTape != null) {
            n += stepTape.length;
        }
        for (Shot s : shots) {
            n += s.tape != null ? s.tape.length : s.onDevice.bytes() / 4;
        }
        if (heldTape != null) {
            n += heldTape.length;
        }
        return 4 * n;
    }

    // ---------------------------------------------------------------------------------------------------- model

    /** Sets dt·K, the buoyancies and the profiles from {@code m} (checked by the caller), or keeps them for null. */
    private void setModel(float[] m) {
        if (m == null) {
            if (model == null) {
                throw new IllegalArgumentException("no " + spec.equation().name() + " model given and none set by an"
                        + " earlier call: pass the model (" + String.join(", ", spec.equation().parameterNames())
                        + " one after the other) on the first call");
            }
            return;
        }
        int cells = window.cells();
        if (m.length != npar * cells) {
            throw new IllegalArgumentException(spec.equation().name() + " model has " + m.length + " values; it needs "
                    + String.join(", ", spec.equation().parameterNames()) + " one after the other, " + npar + " x "
                    + cells + " = " + npar * cells);
        }
        if (model != null && Arrays.equals(model, m)) {
            return;
        }
        model = m.clone();
        if (p == null) {
            p = new float[len];
            v = new float[ndim * len];
            kdt = new float[len];
            bv = new float[ndim * len];
            psiV = new float[grid.auxLength()];
            psiP = new float[grid.auxLength()];
            if (nmech > 0) {
                mem = new float[nmech * len];
                cmem = new float[nmech * len];
                divScratch = new float[nz * ny * nx];
                constants = relax.constants();
            }
        }
        double dt = spec.dt();
        backend.parallelFor(0, nz, (z0, z1) -> {
            double[] par = new double[npar];
            double[] out = new double[1 + nmech];
            for (int z = z0; z < z1; z++) {
                for (int y = 0; y < ny; y++) {
                    for (int x = 0; x < nx; x++) {
                        int i = grid.compIndex(z, y, x);
                        int c = cell(z, y, x);
                        double vp = model[c];
                        double r = model[cells + c];
                        if (relax == null) {
                            kdt[i] = (float) (dt * r * vp * vp);
                        } else {
                            for (int k = 0; k < npar; k++) {
                                par[k] = model[k * cells + c];
                            }
                            relax.coefficients(par, out);
                            kdt[i] = (float) out[0];
                            for (int l = 0; l < nmech; l++) {
                                cmem[l * len + i] = (float) out[1 + l];
                            }
                        }
                        for (int a = 0; a < ndim; a++) {
                            int n = neighbour(z, y, x, a);
                            bv[a * len + i] = (float) (dt * 2 / (r + model[cells + n]));
                        }
                    }
                }
            }
        });
        profVelocity = Double.NaN;
        setProfiles();
    }

    private void setProfiles() {
        double vmax = spec.maxVel() > 0 ? spec.maxVel() : pmlVelocity > 0 ? pmlVelocity
                : spec.equation().cflVelocity(model, window.cells(), spec);
        if (vmax != profVelocity) {
            prof = grid.staggeredProfiles(vmax);
            profVelocity = vmax;
        }
        if (!deviceOpened) {
            // one domain only: a decomposed run stays on Java under auto, is refused under tornado
            device = Backends.openOneDomain(AcousticVdDeviceStepper.class, grid, halo != null, AcousticVdEquation.NAME);
            deviceOpened = true;
        }
        if (device != null) {
            device.setModel(geo, coef, box, kdt, bv, prof, constants, cmem);
        }
    }

    /**
     * The window index of the model cell of computational cell (z, y, x): its physical cell, the edge cell repeated
     * into the pads; y is 0 in 2-D.
     */
    private int cell(int z, int y, int x) {
        int gz = clamp(grid.globalIndex(0, z), shape[0]);
        int gx = clamp(grid.globalIndex(ndim - 1, x), shape[ndim - 1]);
        int gy = ndim == 3 ? clamp(grid.globalIndex(1, y), shape[1]) : 0;
        return window.index(gz, gy, gx);
    }

    /** The window index of the cell after computational cell (z, y, x) along component a's axis (x, (y), z). */
    private int neighbour(int z, int y, int x, int a) {
        if (a == ndim - 1) {
            return cell(z + 1, y, x);
        }
        return a == 0 ? cell(z, y, x + 1) : cell(z, y + 1, x);
    }

    private static int clamp(int i, int n) {
        return Math.max(0, Math.min(n - 1, i));
    }

    // ---------------------------------------------------------------------------------------------------- shots

    @Override
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m, int snapshotEvery,
                          WavefieldListener listener) {
        shots.clear();
        heldTape = null;
        Cells.checkShots(sources, receivers);
        setModel(m);
        return run(wavelet, sources, receivers, snapshotEvery, listener, false);
    }

    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m) {
        shots.clear();
        heldTape = null;
        Cells.checkShots(sources, receivers);
        setModel(m);
        return run(wavelet, sources, receivers, 0, null, true);
    }

    private Record run(float[] wavelet, int[][][] sources, int[][][] receivers, int every, WavefieldListener l,
                       boolean taped) {
        int nb = sources.length;
        int nt = spec.nt();
        int nrec = receivers[0].length;
        int nf = spec.nfield();
        float[] data = new float[nb * nt * nrec * nf];
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        for (int b = 0; b < nb; b++) {
            Shot s = shotOf(wavelet, stride, sources, receivers, b, taped && device == null ? newTape() : null, taped);
            float[] r = shot(s, b, every, l, nt);
            System.arraycopy(r, 0, data, b * nt * nrec * nf, r.length);
            if (taped) {
                shots.add(s);
            }
        }
        return new Record(data, nb, nt, nrec, nf);
    }

    private float[] newTape() {
        long n = tapeFloats(grid, spec.storage(), spec.nt(), nmech);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("one shot's tape of " + n + " floats does not fit a Java array: use"
                    + " a storage that keeps less (" + String.join(", ", spec.equation().storages().stream()
                    .map(x -> x.name().toLowerCase(Locale.ROOT).replace('_', ' ')).toList()) + "), fewer steps or"
                    + " more ranks");
        }
        return new float[(int) n];
    }

    /**
     * Shot b's cells, source scales and cumulative wavelets, with the host tape {@code tape} (or null); on a device
     * backend with a device tape when {@code taped}.
     */
    private Shot shotOf(float[] wavelet, int stride, int[][][] sources, int[][][] receivers, int b, float[] tape,
                        boolean taped) {
        int nt = spec.nt();
        int[] src = grid.cellIndices(sources[b], "source", b);
        int[] rec = grid.cellIndices(receivers[b], "receiver", b);
        float[] w = ShotWavelets.of(wavelet, stride, b, src.length, nt);
        float[] scale = new float[src.length];
        float[] cum = new float[w.length];
        double dt = spec.dt();
        for (int k = 0; k < src.length; k++) {
            double vp = model[cellOfIndex(src[k])];
            scale[k] = (float) (vp * vp * dt * dt);
            double acc = 0;
            for (int n = 0; n < nt; n++) {
                acc += w[k * nt + n];
                cum[k * nt + n] = (float) acc;
            }
        }
        AcousticVdDeviceStepper.Tape dev = device != null && taped
                ? new AcousticVdDeviceStepper.Tape(spec.storage(), deviceShot(src, scale, cum, rec), cpEvery) : null;
        return new Shot(tape, src, scale, cum, rec, dev);
    }

    /** A shot's entries as a device stepper takes them: the recorded values in the record's order. */
    private AcousticVdDeviceStepper.Shot deviceShot(int[] src, float[] scale, float[] cum, int[] rec) {
        List<String> fields = spec.recordFields();
        int nf = fields.size();
        int[] idx = new int[rec.length * nf];
        int[] isP = new int[idx.length];
        for (int r = 0; r < rec.length; r++) {
            for (int f = 0; f < nf; f++) {
                idx[r * nf + f] = fieldIndex(fields.get(f), rec[r]);
                isP[r * nf + f] = fields.get(f).equals("p") ? 1 : 0;
            }
        }
        return new AcousticVdDeviceStepper.Shot(src, scale, cum, idx, isP, nf);
    }

    /** The window index of the model cell of the array index {@code i} of a computational cell. */
    private int cellOfIndex(int i) {
        int[] c = coordinates(i);
        return cell(c[0], c[1], c[2]);
    }

    /** The computational (z, y, x) of array index {@code i} (y = 0 in 2-D). */
    private int[] coordinates(int i) {
        int r = i - geo[Layout.OFF0];
        int z = Math.floorDiv(r, geo[Layout.SZ]);
        r -= z * geo[Layout.SZ];
        int y = ndim == 3 ? Math.floorDiv(r, geo[Layout.SY]) : 0;
        return new int[] {z, y, r - y * geo[Layout.SY]};
    }

    /** The array index of recorded field {@code name} at computational cell index i. */
    private int fieldIndex(String name, int i) {
        return switch (name) {
            case "p" -> i;
            case "vx" -> i;
            case "vy" -> len + i;
            default -> (ndim - 1) * len + i;
        };
    }

    /**
     * One shot forward of {@code nt} steps: its record (nt, nrec, nfield); fills the shot's tape when it has one.
     * Snapshots of p go to {@code l} every {@code every} steps.
     */
    private float[] shot(Shot s, int b, int every, WavefieldListener l, int nt) {
        if (device != null) {
            return deviceRun(s, b, every, l, nt);
        }
        List<String> fields = spec.recordFields();
        int nf = fields.size();
        int nrec = s.rec.length;
        float[] out = new float[nt * nrec * nf];
        int[][] at = new int[nf][nrec];
        boolean[] isP = new boolean[nf];
        for (int f = 0; f < nf; f++) {
            isP[f] = fields.get(f).equals("p");
            for (int r = 0; r < nrec; r++) {
                at[f][r] = fieldIndex(fields.get(f), s.rec[r]);
            }
        }
        clear(p);
        clear(v);
        clear(psiV);
        clear(psiP);
        if (nmech > 0) {
            clear(mem);
        }
        boolean full = s.tape != null && !bs && !cp;
        float[] tape = full ? s.tape : new float[1];
        int taping = full ? 1 : 0;
        int per = (1 + ndim) * nz * ny * nx;
        for (int n = 0; n < nt; n++) {
            if (s.tape != null && cp && n % cpEvery == 0) {
                copyState(s.tape, n / cpEvery, false);
            }
            record(out, at, isP, true, n);
            advance(tape, taping * n * per, taping);
            record(out, at, isP, false, n);
            finishStep(s, n);
            if (s.tape != null && bs) {
                copyRing(s.tape, n, false, 0, ndim + 1);
            }
            int done = n + 1;
            if (done % spec.checkEvery() == 0 || done == nt) {
                checkFinite(done, b);
            }
            if (l != null && every > 0 && done % every == 0) {
                l.snapshot(b, done, physical(p));
            }
        }
        if (s.tape != null && bs) {
            int last = (1 + ndim) * ring.length * nt;
            System.arraycopy(p, 0, s.tape, last, len);
            System.arraycopy(v, 0, s.tape, last + len, ndim * len);
        }
        return out;
    }

    /**
     * The velocity and pressure updates of a step (with the memory variables), their brackets into {@code tape} from
     * {@code off} when {@code taping} is 1.
     */
    private void advance(float[] tape, int off, int taping) {
        if (halo == null) {
            fusedStep(tape, off, taping);
        } else {
            backend.parallelFor(0, nz, (z0, z1) -> velocityRows(z0, z1, tape, off, taping));
            if (fs) {
                backend.parallelFor(0, ny, (y0, y1) -> AcousticVdKernels.velocityImages(v, geo, y0, y1));
            }
            halo.exchange(v, ndim);
            backend.parallelFor(0, nz, (z0, z1) -> pressureRows(z0, z1, tape, off, taping));
        }
    }

    /** The end of step n of shot s after {@link #advance}: its sources, the free surface's row and images, the halo. */
    private void finishStep(Shot s, int n) {
        int nt = spec.nt();
        for (int k = 0; k < s.src.length; k++) {
            p[s.src[k]] += s.scale[k] * s.cum[k * nt + n];
        }
        surfaceAndHalo();
    }

    /** The free surface's pressure row and images, then the pressure's halo exchange. */
    private void surfaceAndHalo() {
        if (fs) {
            backend.parallelFor(0, ny, (y0, y1) -> {
                AcousticVdKernels.zeroSurface(p, geo, y0, y1);
                AcousticVdKernels.pressureImages(p, geo, y0, y1);
            });
        }
        if (halo != null) {
            halo.exchange(p);
        }
    }

    /**
     * Checkpointing: copies the state before a step (p, the velocities, both CPML memories, the memory variables) into
     * checkpoint {@code slot} of the tape, or back from it ({@code restore}).
     */
    private void copyState(float[] tape, int slot, boolean restore) {
        long o = slot * stateFloats(grid, nmech);
        for (float[] f : nmech > 0 ? new float[][] {p, v, psiV, psiP, mem} : new float[][] {p, v, psiV, psiP}) {
            if (restore) {
                System.arraycopy(tape, (int) o, f, 0, f.length);
            } else {
                System.arraycopy(f, 0, tape, (int) o, f.length);
            }
            o += f.length;
        }
    }

    /** One shot on the device: its record; the last fields into p and v (snapshots likewise), its tape kept. */
    private float[] deviceRun(Shot s, int b, int every, WavefieldListener l, int nt) {
        boolean snap = l != null && every > 0;
        AcousticVdDeviceStepper.Shot shot = s.onDevice != null ? s.onDevice.shot
                : deviceShot(s.src, s.scale, s.cum, s.rec);
        float[] r = device.shot(shot, nt, s.onDevice, snap ? every : 0,
                snap ? (done, pp) -> l.snapshot(b, done, physical(pp)) : null);
        System.arraycopy(device.pressure(), 0, p, 0, len);
        System.arraycopy(device.velocities(), 0, v, 0, ndim * len);
        checkFinite(nt, b);
        return r;
    }

    /** Boundary saving: the pressure ({@code which} 0) or velocity (1) brackets of the rows [z0, z1) into the tape. */
    private void bracketRows(int which, int z0, int z1, float[] tape) {
        if (vector) {
            AcousticVdVectorAdjointKernels.brackets(p, v, coef, geo, which, z0, z1, tape, 0);
        } else {
            AcousticVdAdjointKernels.brackets(p, v, coef, geo, which, z0, z1, 0, ny, 0, nx, tape, 0);
        }
    }

    /** The pointwise transpose of the pressure update on the rows [z0, z1) (Vector API or portable: the same bits). */
    private void pressurePointRows(int z0, int z1, float[] tape, int off) {
        float[] extra = nmech > 0 ? divBar : tape;
        int with = nmech > 0 ? 1 : 0;
        if (vector) {
            AcousticVdVectorAdjointKernels.pressurePoint(pb, psiPb, kdt, prof, e, gk, geo, z0, z1, tape, off, extra,
                    with);
        } else {
            AcousticVdAdjointKernels.pressurePoint(pb, psiPb, kdt, prof, e, gk, geo, z0, z1, 0, ny, 0, nx, tape, off,
                    extra, with);
        }
    }

    /**
     * With a relaxation, before {@link #pressurePointRows}: the transpose of the memory update on the rows [z0, z1),
     * its share of the adjoint bracket into {@link #divBar}, dJ/dc_l into {@link #gc}; the divergence brackets of the
     * step in {@code div} from {@code off}.
     */
    private void memoryTransposeRows(int z0, int z1, float[] div, int off) {
        if (nmech > 0) {
            if (vector) {
                PressureRelaxationVectorKernels.memoryTranspose(pb, memb, cmem, constants, div, off, gc, divBar, geo,
                        nmech, z0, z1);
            } else {
                PressureRelaxationKernels.memoryTranspose(pb, memb, cmem, constants, div, off, gc, divBar, geo, nmech,
                        z0, z1, 0, ny, 0, nx);
            }
        }
    }

    /** The pointwise transpose of the velocity update on the rows [z0, z1). */
    private void velocityPointRows(int z0, int z1, float[] tape, int off) {
        if (vector) {
            AcousticVdVectorAdjointKernels.velocityPoint(vb, psiVb, bv, prof, d, gb, geo, z0, z1, tape, off);
        } else {
            AcousticVdAdjointKernels.velocityPoint(vb, psiVb, bv, prof, d, gb, geo, z0, z1, 0, ny, 0, nx, tape, off);
        }
    }

    /** The transposed derivatives of the pressure update, gathered into the adjoint velocities of rows [z0, z1). */
    private void velocityGatherRows(int z0, int z1) {
        int fsi = fs ? 1 : 0;
        if (vector) {
            AcousticVdVectorAdjointKernels.velocityGather(vb, e, coef, geo, fsi, z0, z1);
        } else {
            AcousticVdAdjointKernels.velocityGather(vb, e, coef, geo, fsi, z0, z1, 0, ny, 0, nx);
        }
    }

    /** The transposed derivatives of the velocity update, gathered into the adjoint pressure of rows [z0, z1). */
    private void pressureGatherRows(int z0, int z1) {
        int fsi = fs ? 1 : 0;
        if (vector) {
            AcousticVdVectorAdjointKernels.pressureGather(pb, d, coef, geo, fsi, z0, z1);
        } else {
            AcousticVdAdjointKernels.pressureGather(pb, d, coef, geo, fsi, z0, z1, 0, ny, 0, nx);
        }
    }

    /** Samples step n's pressure (before the step: p at n·dt) or velocities (after it: at (n+½)·dt) into the record. */
    private void record(float[] out, int[][] at, boolean[] isP, boolean pressure, int n) {
        int nf = at.length;
        for (int f = 0; f < nf; f++) {
            if (isP[f] == pressure) {
                float[] a = pressure ? p : v;
                for (int r = 0; r < at[f].length; r++) {
                    out[(n * at[f].length + r) * nf + f] = a[at[f][r]];
                }
            }
        }
    }

    /**
     * The velocity and pressure updates of a step on one domain (no halo exchange between them), each thread running
     * the pressure update h rows behind its velocity update while the rows are still in cache (the two updates
     * otherwise stream p and v twice): the same operations on every cell as the velocity pass, the vz images and the
     * pressure pass in turn, so the same bits. The pressure rows within h of a thread's chunk edges, which read
     * velocities or write pressures across the edge, follow after all velocity rows and the images.
     */
    private void fusedStep(float[] tape, int off, int taping) {
        fuseTape = tape;
        fuseOff = off;
        fuseTaping = taping;
        backend.parallelFor(0, nz, fusedPass);
        if (fs) {
            backend.parallelFor(0, ny, (y0, y1) -> AcousticVdKernels.velocityImages(v, geo, y0, y1));
        }
        backend.parallelFor(0, nz, fusedEdges);
        fuseTape = null;
    }

    /** Phase 1 of {@link #fusedStep} on the rows [z0, z1): velocity rows in blocks, pressure rows h behind. */
    private void fusedChunk(int z0, int z1) {
        int next = z0 + h;
        int end = z1 - h;
        for (int zb = z0; zb < z1; zb += fuseRows) {
            int ze = Math.min(z1, zb + fuseRows);
            velocityRows(zb, ze, fuseTape, fuseOff, fuseTaping);
            int se = Math.min(end, ze - h);
            if (se > next) {
                pressureRows(next, se, fuseTape, fuseOff, fuseTaping);
                next = se;
            }
        }
    }

    /** Phase 2 of {@link #fusedStep}: the pressure rows within h of the chunk's edges. */
    private void fusedEdgeRows(int z0, int z1) {
        int a = Math.min(z1, z0 + h);
        pressureRows(z0, a, fuseTape, fuseOff, fuseTaping);
        pressureRows(Math.max(a, z1 - h), z1, fuseTape, fuseOff, fuseTaping);
    }

    /**
     * Boundary saving: copies the ring of the fields c in [c0, c1) (0 p, then each velocity) of the state after step
     * n into the tape's slot n, or back from it ({@code restore}).
     */
    private void copyRing(float[] tape, int n, boolean restore, int c0, int c1) {
        int r = ring.length;
        int base = (1 + ndim) * r * n;
        for (int c = c0; c < c1; c++) {
            float[] f = c == 0 ? p : v;
            int shift = c == 0 ? 0 : (c - 1) * len;
            int o = base + c * r;
            for (int k = 0; k < r; k++) {
                if (restore) {
                    f[shift + ring[k]] = tape[o + k];
                } else {
                    tape[o + k] = f[shift + ring[k]];
                }
            }
        }
    }

    /** The velocity step on the rows [z0, z1): Vector API kernels or portable ones (the same bits). */
    private void velocityRows(int z0, int z1, float[] tape, int off, int taping) {
        if (vector) {
            AcousticVdVectorKernels.velocity(p, v, bv, psiV, prof, coef, geo, z0, z1, tape, off, taping);
        } else {
            AcousticVdKernels.velocity(p, v, bv, psiV, prof, coef, geo, z0, z1, 0, ny, 0, nx, tape, off, taping);
        }
    }

    /** The pressure step on the rows [z0, z1): Vector API kernels or portable ones (the same bits). */
    private void pressureRows(int z0, int z1, float[] tape, int off, int taping) {
        float[] t = tape;
        int o = off;
        int tp = taping;
        if (nmech > 0 && taping == 0) { // the memory update reads the divergence: into the scratch
            t = divScratch;
            o = 0;
            tp = 1;
        }
        if (vector) {
            AcousticVdVectorKernels.pressure(p, v, kdt, psiP, prof, coef, geo, z0, z1, t, o, tp);
        } else {
            AcousticVdKernels.pressure(p, v, kdt, psiP, prof, coef, geo, z0, z1, 0, ny, 0, nx, t, o, tp);
        }
        if (nmech > 0) {
            if (vector) {
                PressureRelaxationVectorKernels.memory(p, mem, cmem, constants, t, o, geo, nmech, z0, z1);
            } else {
                PressureRelaxationKernels.memory(p, mem, cmem, constants, t, o, geo, nmech, z0, z1, 0, ny, 0, nx);
            }
        }
    }

    private void clear(float[] a) {
        backend.parallelFor(0, a.length, (lo, hi) -> Arrays.fill(a, lo, hi, 0f));
    }

    /**
     * Throws at the first non-finite pressure, naming its cell: rows in parallel, each scanned as one run of the array
     * (the largest magnitude of a row is NaN or infinite when one of its values is).
     */
    private void checkFinite(int step, int shot) {
        backend.parallelFor(0, nz, (z0, z1) -> {
            for (int z = z0; z < z1; z++) {
                for (int y = 0; y < ny; y++) {
                    int row = grid.compIndex(z, y, 0);
                    float m = 0.0f;
                    for (int x = 0; x < nx; x++) {
                        m = Math.max(m, Math.abs(p[row + x]));
                    }
                    if (!(m <= Float.MAX_VALUE)) {
                        int x = 0;
                        while (Float.isFinite(p[row + x])) {
                            x++;
                        }
                        throw new IllegalStateException(String.format(Locale.ROOT, "the %s pressure is not finite"
                                + " (%s) at computational cell (z, y, x) = (%d, %d, %d) after step %d of shot %d: the"
                                + " run is unstable; lower dt, or check the model and wavelet for extreme values",
                                spec.equation().name(), p[row + x], z, y, x, step, shot));
                    }
                }
            }
        });
    }

    /** The tile-physical cells of a field, z first. */
    private float[] physical(float[] f) {
        int[] ts = grid.tileShape();
        int ty = ndim == 3 ? ts[1] : 1;
        int tx = ts[ndim - 1];
        float[] o = new float[ts[0] * ty * tx];
        for (int z = 0; z < ts[0]; z++) {
            for (int y = 0; y < ty; y++) {
                System.arraycopy(f, grid.index(z, y, 0), o, (z * ty + y) * tx, tx);
            }
        }
        return o;
    }

    // ---------------------------------------------------------------------------------------------------- adjoint

    @Override
    public Gradient gradient(float[] residual) {
        if (shots.isEmpty()) {
            throw new IllegalStateException("gradient() needs a preceding forwardForGradient() call on this solver");
        }
        int nt = spec.nt();
        int per = nt * shots.get(0).rec.length * spec.nfield();
        if (residual == null || residual.length != shots.size() * per) {
            throw new IllegalArgumentException("residual has " + (residual == null ? "no" : residual.length)
                    + " values; the last forward's record (" + shots.size() + ", " + nt + ", "
                    + shots.get(0).rec.length + ", " + spec.nfield() + ") needs " + shots.size() * per);
        }
        float[] total = new float[npar * tileCells()];
        float[] wbar = new float[shots.size() * nt];
        for (int b = 0; b < shots.size(); b++) {
            adjoint(shots.get(b), Arrays.copyOfRange(residual, b * per, (b + 1) * per), wbar, b, total);
        }
        return new Gradient(total, npar, wbar, Double.NaN);
    }

    @Override
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m,
                                       float[] observed, Misfit misfit) {
        shots.clear();
        heldTape = null;
        int nb = Cells.checkShots(sources, receivers);
        setModel(m);
        int nt = spec.nt();
        int per = nt * receivers[0].length * spec.nfield();
        if (observed == null || observed.length != nb * per) {
            throw new IllegalArgumentException("observed data have " + (observed == null ? "no" : observed.length)
                    + " values; expected shape (" + nb + ", " + nt + ", " + receivers[0].length + ", "
                    + spec.nfield() + ")");
        }
        float[] total = new float[npar * tileCells()];
        float[] wbar = new float[nb * nt];
        float[] t = device == null ? newTape() : null;
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        double j = 0;
        for (int b = 0; b < nb; b++) {
            Shot s = shotOf(wavelet, stride, sources, receivers, b, t, true);
            float[] syn = shot(s, b, 0, null, nt);
            float[] res = new float[per];
            j += misfit.forShot(sources[b], receivers[b]).evaluate(syn, Arrays.copyOfRange(observed, b * per,
                    (b + 1) * per), res);
            adjoint(s, res, wbar, b, total);
        }
        heldTape = t; // one shot's tape, reused shot by shot, stays held for the next call
        return new Gradient(total, npar, wbar, j);
    }

    private int tileCells() {
        int n = 1;
        for (int t : grid.tileShape()) {
            n *= t;
        }
        return n;
    }

    private void allocateAdjoint() {
        if (bs && stepTape == null) {
            stepTape = new float[(1 + ndim) * nz * ny * nx];
        }
        if (pb == null) {
            pb = new float[len];
            vb = new float[ndim * len];
            psiVb = new float[grid.auxLength()];
            psiPb = new float[grid.auxLength()];
            e = new float[ndim * len];
            d = new float[ndim * len];
            gk = new float[len];
            gb = new float[ndim * len];
            if (nmech > 0) {
                memb = new float[nmech * len];
                gc = new float[nmech * len];
                divBar = new float[nz * ny * nx];
            }
        }
    }

    /**
     * The adjoint run of one taped shot for residual {@code res} (nt, nrec, nfield): writes dJ/dwavelet into
     * {@code wbar[b·nt ..]} and adds dJ/dvp, dJ/drho of the tile's cells into {@code total}.
     */
    private void adjoint(Shot s, float[] res, float[] wbar, int b, float[] total) {
        if (s.onDevice != null) {
            deviceAdjoint(s, res, wbar, b, total);
            return;
        }
        int nt = spec.nt();
        allocateAdjoint();
        for (float[] a : new float[][] {pb, vb, psiVb, psiPb, e, d, gk, gb}) {
            clear(a);
        }
        if (nmech > 0) {
            clear(memb);
            clear(gc);
        }
        float[] tape = bs ? stepTape : s.tape;
        int per = bs ? 0 : (1 + ndim) * nz * ny * nx;
        if (bs) {
            int last = (1 + ndim) * ring.length * nt;
            System.arraycopy(s.tape, last, p, 0, len);
            System.arraycopy(s.tape, last + len, v, 0, ndim * len);
        }
        double[] cumBar = new double[s.src.length * nt];
        // dJ/d(source scale vp²dt²) per source: the source term moves with the vp of its cell
        double[] scaleBar = new double[s.src.length];
        if (cp) {
            // segments last to first: the state at the segment's start restored, its steps re-run with their
            // brackets into the segment's part of the tape, then run backwards
            int segments = (nt + cpEvery - 1) / cpEvery;
            int base = (int) (segments * stateFloats(grid, nmech));
            for (int c = segments - 1; c >= 0; c--) {
                int n0 = c * cpEvery;
                int n1 = Math.min(nt, n0 + cpEvery);
                copyState(s.tape, c, true);
                for (int n = n0; n < n1; n++) {
                    advance(tape, base + (n - n0) * per, 1);
                    finishStep(s, n);
                }
                for (int n = n1 - 1; n >= n0; n--) {
                    adjointStep(s, res, n, tape, base + (n - n0) * per, cumBar, scaleBar);
                }
            }
        } else {
            for (int n = nt - 1; n >= 0; n--) {
                adjointStep(s, res, n, tape, n * per, cumBar, scaleBar);
            }
        }
        addWaveletGradient(cumBar, s.src.length, wbar, b);
        if (halo != null) {
            halo.exchange(gb, ndim);
        }
        addCellGradient(total, s.src, scaleBar);
    }

    /**
     * Step n of {@link #adjoint} backwards: the transposes of the sources, the pressure update (with the memory
     * variables) and the velocity update, the residual of step n injected; the step's brackets at {@code tape[off]}
     * (boundary saving: formed from the rebuilt fields, which it also steps back).
     */
    private void adjointStep(Shot s, float[] res, int n, float[] tape, int off, double[] cumBar, double[] scaleBar) {
        int nt = spec.nt();
        List<String> fields = spec.recordFields();
        int nf = fields.size();
        int nrec = s.rec.length;
        if (fs) {
            backend.parallelFor(0, ny, (y0, y1) -> AcousticVdAdjointKernels.zeroSurface(pb, geo, y0, y1));
        }
        for (int k = 0; k < s.src.length; k++) {
            cumBar[k * nt + n] += (double) s.scale[k] * pb[s.src[k]];
            scaleBar[k] += (double) s.cum[k * nt + n] * pb[s.src[k]];
        }
        if (bs) {
            backend.parallelFor(0, nz, (z0, z1) -> bracketRows(0, z0, z1, tape));
        }
        if (nmech > 0) {
            backend.parallelFor(0, nz, (z0, z1) -> memoryTransposeRows(z0, z1, tape, off));
        }
        backend.parallelFor(0, nz, (z0, z1) -> pressurePointRows(z0, z1, tape, off));
        if (halo != null) {
            halo.exchange(e, ndim);
        }
        backend.parallelFor(0, nz, (z0, z1) -> velocityGatherRows(z0, z1));
        for (int f = 0; f < nf; f++) {
            float[] a = fields.get(f).equals("p") ? pb : vb;
            for (int r = 0; r < nrec; r++) {
                a[fieldIndex(fields.get(f), s.rec[r])] += res[(n * nrec + r) * nf + f];
            }
        }
        if (bs && n > 0) {
            rebuildPressure(s, n);
        }
        if (bs) {
            backend.parallelFor(0, nz, (z0, z1) -> bracketRows(1, z0, z1, tape));
        }
        backend.parallelFor(0, nz, (z0, z1) -> velocityPointRows(z0, z1, tape, off));
        if (halo != null) {
            halo.exchange(d, ndim);
        }
        backend.parallelFor(0, nz, (z0, z1) -> pressureGatherRows(z0, z1));
        if (bs && n > 0) {
            rebuildVelocity(s, n);
        }
    }

    /** dJ/dw_m = Σ_{n >= m} dJ/dC_n, summed over the shot's sources, into {@code wbar[b·nt ..]}. */
    private void addWaveletGradient(double[] cumBar, int count, float[] wbar, int b) {
        int nt = spec.nt();
        for (int k = 0; k < count; k++) {
            double acc = 0;
            for (int n = nt - 1; n >= 0; n--) {
                acc += cumBar[k * nt + n];
                wbar[b * nt + n] += (float) acc;
            }
        }
    }

    /**
     * {@link #adjoint} on the device: the node gradients and p̄ at the sources come back, the rest is formed here as
     * on the Java backend.
     */
    private void deviceAdjoint(Shot s, float[] res, float[] wbar, int b, float[] total) {
        int nt = spec.nt();
        int count = s.src.length;
        if (gk == null) {
            gk = new float[len];
            gb = new float[ndim * len];
            gc = nmech > 0 ? new float[nmech * len] : null;
        }
        float[] atSources = new float[count * nt];
        device.backward(s.onDevice, res, nt, atSources, gk, gb, gc);
        double[] cumBar = new double[count * nt];
        double[] scaleBar = new double[count];
        for (int n = nt - 1; n >= 0; n--) {
            for (int k = 0; k < count; k++) {
                float q = atSources[n * count + k];
                cumBar[k * nt + n] += (double) s.scale[k] * q;
                scaleBar[k] += (double) s.cum[k * nt + n] * q;
            }
        }
        addWaveletGradient(cumBar, count, wbar, b);
        addCellGradient(total, s.src, scaleBar);
    }

    /**
     * Boundary saving: p^n from p^{n+1} and v^{n+½} (in p and v): the sources of step n taken out, the pressure step
     * run backwards on the rebuilt box, the ring of step n−1 restored, the free surface's row and images, the halo.
     */
    private void rebuildPressure(Shot s, int n) {
        int nt = spec.nt();
        for (int k = s.src.length - 1; k >= 0; k--) {
            p[s.src[k]] -= s.scale[k] * s.cum[k * nt + n];
        }
        backend.parallelFor(box[0], box[1], (z0, z1) -> {
            if (vector) {
                AcousticVdVectorAdjointKernels.reversePressure(p, v, kdt, coef, geo, z0, z1, box[2], box[3], box[4],
                        box[5]);
            } else {
                AcousticVdAdjointKernels.reversePressure(p, v, kdt, coef, geo, z0, z1, box[2], box[3], box[4], box[5]);
            }
        });
        copyRing(s.tape, n - 1, true, 0, 1);
        surfaceAndHalo();
    }

    /**
     * Boundary saving: v^{n−½} from v^{n+½} and p^n: the velocity step run backwards on the rebuilt box, the ring of
     * step n−1 restored, the vz images of a free surface, the halo.
     */
    private void rebuildVelocity(Shot s, int n) {
        backend.parallelFor(box[0], box[1], (z0, z1) -> {
            if (vector) {
                AcousticVdVectorAdjointKernels.reverseVelocity(p, v, bv, coef, geo, z0, z1, box[2], box[3], box[4],
                        box[5]);
            } else {
                AcousticVdAdjointKernels.reverseVelocity(p, v, bv, coef, geo, z0, z1, box[2], box[3], box[4], box[5]);
            }
        });
        copyRing(s.tape, n - 1, true, 1, ndim + 1);
        if (fs) {
            backend.parallelFor(0, ny, (y0, y1) -> AcousticVdKernels.velocityImages(v, geo, y0, y1));
        }
        if (halo != null) {
            halo.exchange(v, ndim);
        }
    }

    /**
     * Adds dJ/dvp and dJ/drho of the tile's cells into {@code total} from the node gradients dJ/d(dt·K) and
     * dJ/d(dt/ρ̄): each node's share goes to the cells its coefficient was made of (the pads' to the edge cells they
     * repeat), the buoyancy node before a low cut (in the halo, the neighbour's) included; and the share of each
     * source's scale vp²dt² ({@code scaleBar}) to its cell's vp.
     */
    private void addCellGradient(float[] total, int[] src, double[] scaleBar) {
        int cells = window.cells();
        int n = tileCells();
        double[][] g = new double[npar][n];
        double[] gvp = g[0];
        double[] grho = g[1];
        double dt = spec.dt();
        double[] par = new double[npar];
        double[] gcl = new double[nmech];
        double[] out = new double[npar];
        int[] off = grid.tileOffset();
        boolean lowX = off[ndim - 1] > 0;
        boolean lowY = ndim == 3 && off[1] > 0;
        for (int z = 0; z < nz; z++) {
            for (int y = lowY ? -1 : 0; y < ny; y++) {
                for (int x = lowX ? -1 : 0; x < nx; x++) {
                    int i = grid.compIndex(z, y, x);
                    boolean own = x >= 0 && y >= 0;
                    if (own && relax == null) {
                        int c = cell(z, y, x);
                        double vp = model[c];
                        double r = model[cells + c];
                        add(gvp, z, y, x, gk[i] * dt * r * 2 * vp);
                        add(grho, z, y, x, gk[i] * dt * vp * vp);
                    } else if (own) {
                        int c = cell(z, y, x);
                        for (int k = 0; k < npar; k++) {
                            par[k] = model[k * cells + c];
                        }
                        for (int l = 0; l < nmech; l++) {
                            gcl[l] = gc[l * len + i];
                        }
                        relax.gradient(par, gk[i], gcl, out);
                        for (int k = 0; k < npar; k++) {
                            add(g[k], z, y, x, out[k]);
                        }
                    }
                    for (int a = 0; a < ndim; a++) {
                        // the z and (3-D) the other in-plane node of a halo cell are the neighbour's own
                        boolean inHalo = x < 0 || y < 0;
                        if (inHalo && !(a == 0 && x < 0 && y >= 0 || a == 1 && ndim == 3 && y < 0 && x >= 0)) {
                            continue;
                        }
                        double r1 = model[cells + cell(z, y, x)];
                        int[] q = next(z, y, x, a);
                        double r2 = model[cells + cell(q[0], q[1], q[2])];
                        double dd = gb[a * len + i] * (-2 * dt / ((r1 + r2) * (r1 + r2)));
                        add(grho, z, y, x, dd);
                        add(grho, q[0], q[1], q[2], dd);
                    }
                }
            }
        }
        for (int k = 0; k < src.length; k++) {
            int[] c = coordinates(src[k]);
            double vp = model[cell(c[0], c[1], c[2])];
            add(gvp, c[0], c[1], c[2], scaleBar[k] * 2 * vp * dt * dt);
        }
        for (int q = 0; q < npar; q++) {
            for (int k = 0; k < n; k++) {
                total[q * n + k] += (float) g[q][k];
            }
        }
    }

    /** The computational cell after (z, y, x) along component a's axis. */
    private int[] next(int z, int y, int x, int a) {
        if (a == ndim - 1) {
            return new int[] {z + 1, y, x};
        }
        return a == 0 ? new int[] {z, y, x + 1} : new int[] {z, y + 1, x};
    }

    /** Adds {@code g} to the tile cell of computational cell (z, y, x) (a pad's to its edge cell) if the tile's. */
    private void add(double[] acc, int z, int y, int x, double g) {
        int[] off = grid.tileOffset();
        int[] ts = grid.tileShape();
        int pz = clamp(grid.globalIndex(0, z), shape[0]) - off[0];
        int px = clamp(grid.globalIndex(ndim - 1, x), shape[ndim - 1]) - off[ndim - 1];
        int py = ndim == 3 ? clamp(grid.globalIndex(1, y), shape[1]) - off[1] : 0;
        int ty = ndim == 3 ? ts[1] : 1;
        int tx = ts[ndim - 1];
        if (pz >= 0 && pz < ts[0] && py >= 0 && py < ty && px >= 0 && px < tx) {
            acc[(pz * ty + py) * tx + px] += g;
        }
    }

    // ---------------------------------------------------------------------------------------------------- the rest

    /**
     * The step's two stages for the conformance kit, on the state p, the velocities and the memory variables at the
     * computational cells: velocity (the pressure images, then the velocity kernel; transposed by velocityPoint and
     * pressureGather, which folds the images back) and pressure (the vz images, the pressure kernel, p = 0 on a free
     * surface; transposed by clearing p̄ there, pressurePoint and velocityGather), the memory update of a relaxation
     * after the pressure kernel (transposed before pressurePoint). Velocities weigh 1/(ρ·vp) of the mean model,
     * pressures and the relaxation's memory variables 1, CPML memory variables of pressure derivatives 1/dh, of
     * velocity derivatives 1/(ρ·vp·dh).
     */
    @Override
    public StepStages stepStages(float[] m) {
        setModel(m);
        allocateAdjoint();
        int cells = window.cells();
        double impedance = 0;
        for (int c = 0; c < cells; c++) {
            impedance += (double) model[c] * model[cells + c];
        }
        impedance /= cells;
        double dh = spec.dh()[0];
        int[] nodes = new int[nz * ny * nx];
        int k = 0;
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    nodes[k++] = grid.compIndex(z, y, x);
                }
            }
        }
        StateVector.Builder sv = StateVector.builder().part("p", p, pb, nodes, 1, false);
        String[] axes = ndim == 3 ? new String[] {"x", "y", "z"} : new String[] {"x", "z"};
        for (int a = 0; a < ndim; a++) {
            int[] comp = shifted(nodes, a * len);
            sv.part("v" + axes[a], v, vb, comp, 1 / impedance, false);
            // component a's axis slot in the CPML auxiliaries: x (a = 0), z (the last), y
            // (the bands and h cells beyond: node and half-node profiles both lie there)
            int[] band = grid.auxCells(a == 0 ? 2 : a == ndim - 1 ? 0 : 1, grid.haloWidth());
            sv.part("psi of dp/d" + axes[a], psiV, psiVb, band, 1 / dh, false);
            sv.part("psi of dv" + axes[a] + "/d" + axes[a], psiP, psiPb, band, 1 / (impedance * dh), false);
        }
        for (int l = 0; l < nmech; l++) {
            sv.part("memory " + l, mem, memb, shifted(nodes, l * len), 1, false);
        }
        float[] tape = newTapeOfOneStep();
        return StepStages.of(List.of("velocity", "pressure"), sv.build(), stage -> {
            if (stage == 0) {
                if (fs) {
                    backend.parallelFor(0, ny, (y0, y1) -> AcousticVdKernels.pressureImages(p, geo, y0, y1));
                }
                backend.parallelFor(0, nz, (z0, z1) -> velocityRows(z0, z1, tape, 0, 0));
            } else {
                if (fs) {
                    backend.parallelFor(0, ny, (y0, y1) -> AcousticVdKernels.velocityImages(v, geo, y0, y1));
                }
                backend.parallelFor(0, nz, (z0, z1) -> pressureRows(z0, z1, tape, 0, 0));
                if (fs) {
                    backend.parallelFor(0, ny, (y0, y1) -> AcousticVdKernels.zeroSurface(p, geo, y0, y1));
                }
            }
        }, stage -> {
            if (stage == 0) {
                backend.parallelFor(0, nz, (z0, z1) -> velocityPointRows(z0, z1, tape, 0));
                backend.parallelFor(0, nz, (z0, z1) -> pressureGatherRows(z0, z1));
            } else {
                if (fs) {
                    backend.parallelFor(0, ny, (y0, y1) -> AcousticVdAdjointKernels.zeroSurface(pb, geo, y0, y1));
                }
                backend.parallelFor(0, nz, (z0, z1) -> memoryTransposeRows(z0, z1, divScratch, 0));
                backend.parallelFor(0, nz, (z0, z1) -> pressurePointRows(z0, z1, tape, 0));
                backend.parallelFor(0, nz, (z0, z1) -> velocityGatherRows(z0, z1));
            }
        });
    }

    private float[] newTapeOfOneStep() {
        return new float[(1 + ndim) * nz * ny * nx];
    }

    private static int[] shifted(int[] idx, int by) {
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i] + by;
        }
        return out;
    }

    @Override
    public double timeSteps(float[] m, int steps) {
        setModel(m);
        int[] src = {grid.compIndex(nz / 2, ny / 2, nx / 2)};
        float[] w = new float[Math.max(steps, 1)];
        w[0] = 1f;
        Shot s = new Shot(null, src, new float[] {1f}, w, new int[0], null);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = backend.threads() == 1 && mx.isCurrentThreadCpuTimeSupported();
        long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
        long t0 = System.nanoTime();
        shot(s, 0, 0, null, steps);
        double sec = (System.nanoTime() - t0) * 1e-9;
        double steady = device != null ? DeviceStepper.steadySeconds(device.lastStepLoopSeconds(), steps)
                : Double.NaN;
        if (!Double.isNaN(steady)) {
            // on a device, the time loop alone: steps 1..steps-1 scaled to all the steps (the first uploads)
            lastTransfer = Math.max(0, sec - steady);
            lastCpu = Double.NaN;
            return steady;
        }
        lastTransfer = Double.NaN;
        lastCpu = cpu ? (mx.getCurrentThreadCpuTime() - c0) * 1e-9 : Double.NaN;
        return sec;
    }

    @Override
    public double lastTransferSeconds() {
        return lastTransfer;
    }

    @Override
    public double lastStepsCpuSeconds() {
        return lastCpu;
    }

    @Override
    public String backendDescription() {
        if (device != null) {
            return device.describe();
        }
        return "Java (" + backend.threads() + " threads" + (vector ? ", Vector API" : "") + ")";
    }

    @Override
    public void setPmlVelocity(double vel) {
        if (!(vel >= 0) || Double.isInfinite(vel)) {
            throw new IllegalArgumentException("PML velocity must be >= 0 and finite, got " + vel);
        }
        pmlVelocity = vel;
        if (model != null) {
            setProfiles();
        }
    }

    @Override
    public void close() {
        if (device != null) {
            device.close();
            device = null;
            deviceOpened = false;
        }
        backend.close();
    }
}
