package sweep.example.sh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import sweep.backend.JavaBackend;
import sweep.core.FdWeights;
import sweep.equation.EquationSolver;
import sweep.equation.StateVector;
import sweep.equation.StepStages;
import sweep.prop.CellWindow;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;
import sweep.prop.WavefieldListener;

/**
 * The solver of the {@link ShEquation} on one grid (a whole model or one tile of it): forward modelling of a batch of
 * shots and the exact adjoint (the transpose of every sub-step of the discrete step, CPML and free surface included),
 * giving dJ/dvs, dJ/drho and dJ/dwavelet. Step n: vy at (n+½)·dt from the stresses at n·dt and the force w(n·dt), then
 * the stresses at (n+1)·dt; record sample n is vy at (n+½)·dt. Both storages keep the same per-step tape (see
 * README.md). The halo hook is called at each of {@link ShEquation#haloPoints}.
 */
public final class ShSolver implements EquationSolver {
    /** Arrays of the grid counted by {@link ShEquation#fieldBytes}: vy, sxy, szy, dt/ρ, dt·μx, dt·μz. */
    static final int FIELD_ARRAYS = 6;
    /** CPML memory variables: of D⁻x sxy, D⁻z szy, D⁺x vy, D⁺z vy. */
    static final int PSI_ARRAYS = 4;
    /** Adjoint arrays: 3 fields, 4 memory variables, 4 scaled adjoints (ex̄, ez̄, dx̄, dz̄), 3 node gradients. */
    static final int ADJOINT_ARRAYS = 3 + 4 + 4 + 3;
    /** Floats per computational cell and step on the tape. */
    static final int TAPE_FIELDS = 3;

    private final PropSpec spec;
    private final Grid grid;
    private final HaloHook halo;
    private final CellWindow window;
    private final int h;
    private final int nz;
    private final int nx;
    private final int tz;
    private final int tx;
    /** Array index of computational cell (0, 0) and the row stride (the grid's layout). */
    private final int base;
    private final int sz;
    private final int len;
    private final boolean fs;
    /** Whether the tile's low x side is a cut (a neighbour's stress node reaches into this tile's first column). */
    private final boolean lowCut;
    private final float[] cx;
    private final float[] cz;
    private final float invArea;
    /** The project's Java backend: the threads every kernel loop runs on. */
    private final JavaBackend backend;
    /** Global x of the tile's first physical cell. */
    private final int ox;

    private double pmlVelocity;
    /** The model of the last call that gave one, over {@link #window} (vs then rho). */
    private float[] model;
    private float[] v;
    private float[] sxy;
    private float[] szy;
    private float[] bu;
    private float[] mx;
    private float[] mz;
    private float[][] psi;
    private float[][] prof;
    private double profVelocity = Double.NaN;
    /** Adjoint arrays (allocated by the first gradient). */
    private float[][] adj;
    /** Tapes of the last gradient-capable forward run, one per shot, and what each shot's adjoint needs. */
    private final List<Shot> shots = new ArrayList<>();
    /** The tape of the last {@link #forwardAndGradient} (reused shot by shot; counted by {@link #bytesHeld()}). */
    private float[] heldTape;
    private double lastCpu = Double.NaN;

    /** What one taped shot keeps: its tape, source cells and wavelets, receiver cells. */
    private record Shot(float[] tape, int[] src, float[] wavelets, int[] rec) {
    }

    ShSolver(PropSpec spec, Grid grid, HaloHook halo) {
        this.spec = spec;
        this.grid = grid;
        this.halo = halo;
        this.window = CellWindow.of(grid, spec.equation().modelMargin(spec.order()));
        this.h = FdWeights.halfWidth(spec.order());
        this.nz = grid.nz();
        this.nx = grid.nx();
        int[] ts = grid.tileShape();
        this.tz = ts[0];
        this.tx = ts[1];
        this.ox = grid.tileOffset()[1];
        this.lowCut = ox > 0;
        // the grid's layout (a halo of order/2 = grid.haloWidth() cells around the computational box)
        this.sz = grid.strideZ();
        this.base = grid.compIndex(0, 0, 0);
        this.len = grid.length();
        this.fs = spec.freeSurface();
        double[] dh = spec.dh();
        double[] c = FdWeights.staggered(spec.order());
        this.cx = new float[h + 1];
        this.cz = new float[h + 1];
        for (int k = 1; k <= h; k++) {
            cz[k] = (float) (c[k] / dh[0]);
            cx[k] = (float) (c[k] / dh[1]);
        }
        this.invArea = (float) (1.0 / (dh[0] * dh[1]));
        this.backend = new JavaBackend(spec.threads());
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
        if (v != null) {
            n += (long) FIELD_ARRAYS * len + (long) PSI_ARRAYS * len + 4L * (nz + nx);
        }
        if (adj != null) {
            n += (long) ADJOINT_ARRAYS * len;
        }
        for (Shot s : shots) {
            n += s.tape.length;
        }
        if (heldTape != null) {
            n += heldTape.length;
        }
        return 4 * n;
    }

    // ---------------------------------------------------------------------------------------------------- model

    private void setModel(float[] m) {
        // the facade (one domain) or ModelParallel (tiles) has checked the model's length and values and the CFL
        // condition, and set the PML velocity (EquationSolver's contract)
        if (m == null) {
            if (model == null) {
                throw new IllegalArgumentException("no " + ShEquation.NAME + " model given and none set by an earlier"
                        + " call: pass the model (vs then rho) on the first call");
            }
        } else {
            model = m.clone();
        }
        if (v == null) {
            v = new float[len];
            sxy = new float[len];
            szy = new float[len];
            bu = new float[len];
            mx = new float[len];
            mz = new float[len];
            psi = new float[PSI_ARRAYS][len];
            prof = new float[8][];
        }
        double dt = spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                double r = rho(z, x);
                double mu = mu(z, x);
                bu[i] = (float) (dt / r);
                mx[i] = (float) (dt * harmonic(mu, mu(z, x + 1)));
                mz[i] = (float) (dt * harmonic(mu, mu(z + 1, x)));
            }
        }
        double vmax = spec.maxVel() > 0 ? spec.maxVel() : pmlVelocity > 0 ? pmlVelocity
                : spec.equation().cflVelocity(model, window.cells());
        if (vmax != profVelocity) {
            profiles(vmax);
            profVelocity = vmax;
        }
    }

    /** 2ab/(a + b): the shear modulus of two cells in series (a stress node between them). */
    static double harmonic(double a, double b) {
        return 2 * a * b / (a + b);
    }

    /** The window index of the model cell of computational cell (z, x): the physical cell, pads edge-replicated. */
    private int cell(int z, int x) {
        int[] shape = spec.shape();
        int gz = Math.max(0, Math.min(shape[0] - 1, grid.globalIndex(0, z)));
        int gx = Math.max(0, Math.min(shape[1] - 1, grid.globalIndex(1, x)));
        return window.index(gz, 0, gx);
    }

    private double rho(int z, int x) {
        return model[window.cells() + cell(z, x)];
    }

    private double mu(int z, int x) {
        int c = cell(z, x);
        double s = model[c];
        return model[window.cells() + c] * s * s;
    }

    /**
     * The CPML profiles a, b at the nodes and half nodes along z and x, from global positions: σ = σmax·f², α =
     * π·pmlFreq·(1 − f), f the depth into the band in widths (at most 1), a = exp(−(σ + α)dt), b = σ/(σ + α)(a − 1).
     */
    private void profiles(double vmax) {
        int[] shape = spec.shape();
        int[] gw = spec.globalPmlWidths();
        double[] dh = spec.dh();
        for (int half = 0; half < 2; half++) {
            float[][] zp = profile(0, nz, shape[0] + gw[0] + gw[1], gw[0], gw[1], dh[0], half * 0.5, vmax);
            float[][] xp = profile(1, nx, shape[1] + gw[2] + gw[3], gw[2], gw[3], dh[1], half * 0.5, vmax);
            prof[4 * half] = xp[0];
            prof[4 * half + 1] = xp[1];
            prof[4 * half + 2] = zp[0];
            prof[4 * half + 3] = zp[1];
        }
    }

    /**
     * The profiles a, b of the {@code n} computational cells along model axis {@code axis} (global computational size
     * {@code gn}, global band widths {@code wlo}, {@code whi}), at the nodes ({@code shift} 0) or half nodes (½).
     */
    private float[][] profile(int axis, int n, int gn, int wlo, int whi, double d, double shift, double vmax) {
        float[] a = new float[n];
        float[] b = new float[n];
        for (int i = 0; i < n; i++) {
            double p = grid.globalIndex(axis, i) + wlo + shift; // the global computational position
            double f;
            int w;
            if (p < wlo) {
                w = wlo;
                f = (wlo - p) / w;
            } else if (p > gn - whi - 1) {
                w = whi;
                f = (p - (gn - whi - 1)) / w;
            } else {
                continue;
            }
            f = Math.min(1, f);
            double sigma = -3.0 * vmax * Math.log(spec.pmlReflection()) / (2.0 * w * d) * f * f;
            double alpha = Math.PI * spec.pmlFreq() * (1 - f);
            double ea = Math.exp(-(sigma + alpha) * spec.dt());
            a[i] = (float) ea;
            b[i] = (float) (sigma + alpha > 0 ? sigma / (sigma + alpha) * (ea - 1) : 0);
        }
        return new float[][] {a, b};
    }

    // ---------------------------------------------------------------------------------------------------- shots

    /** The wavelets of shot b's sources, (nsrc, nt), from any of {@link ShotWavelets}' layouts (checked). */
    private float[] wavelets(float[] w, int[][][] sources, int b) {
        int nt = spec.nt();
        return ShotWavelets.of(w, ShotWavelets.stride(w, sources, nt), b, sources[b].length, nt);
    }

    private int checkBatch(int[][][] sources, int[][][] receivers) {
        if (sources == null || receivers == null || sources.length == 0 || sources.length != receivers.length) {
            throw new IllegalArgumentException("sources and receivers need the same number B >= 1 of shots, got "
                    + (sources == null ? "none" : sources.length) + " and "
                    + (receivers == null ? "none" : receivers.length));
        }
        for (int[][] r : receivers) {
            if (r.length != receivers[0].length) {
                throw new IllegalArgumentException("every shot needs the same number of receivers: " + r.length
                        + " and " + receivers[0].length);
            }
        }
        return sources.length;
    }

    @Override
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m, int snapshotEvery,
                          WavefieldListener listener) {
        shots.clear();
        heldTape = null;
        checkBatch(sources, receivers);
        setModel(m);
        return run(wavelet, sources, receivers, snapshotEvery, listener, false);
    }

    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m) {
        shots.clear();
        heldTape = null;
        checkBatch(sources, receivers);
        setModel(m);
        return run(wavelet, sources, receivers, 0, null, true);
    }

    private Record run(float[] wavelet, int[][][] sources, int[][][] receivers, int every, WavefieldListener l,
                       boolean tape) {
        int nb = sources.length;
        int nt = spec.nt();
        int nrec = receivers[0].length;
        float[] data = new float[nb * nt * nrec];
        for (int b = 0; b < nb; b++) {
            int[] src = grid.cellIndices(sources[b], "source", b);
            int[] rec = grid.cellIndices(receivers[b], "receiver", b);
            float[] w = wavelets(wavelet, sources, b);
            float[] t = tape ? new float[TAPE_FIELDS * nt * nz * nx] : null;
            float[] r = shot(src, w, rec, t, b, every, l, nt);
            System.arraycopy(r, 0, data, b * nt * nrec, nt * nrec);
            if (tape) {
                shots.add(new Shot(t, src, w, rec));
            }
        }
        return new Record(data, nb, nt, nrec, 1);
    }

    /**
     * One shot forward of {@code nt} steps (wavelets {@code w} (nsrc, nt)): its record (nt, nrec); fills {@code tape}
     * when not null.
     */
    private float[] shot(int[] src, float[] w, int[] rec, float[] tape, int b, int every, WavefieldListener l,
                         int nt) {
        int cells = nz * nx;
        float[] out = new float[nt * rec.length];
        Arrays.fill(v, 0f);
        Arrays.fill(sxy, 0f);
        Arrays.fill(szy, 0f);
        for (float[] p : psi) {
            Arrays.fill(p, 0f);
        }
        float[] dummy = new float[1];
        int taping = tape == null ? 0 : 1;
        float[] tp = tape == null ? dummy : tape;
        for (int n = 0; n < nt; n++) {
            int off = n * TAPE_FIELDS * cells;
            parallel((z0, z1) -> ShKernels.velocity(v, sxy, szy, psi[0], psi[1], bu, prof[0], prof[1], prof[2],
                    prof[3], cx, cz, h, base, sz, nx, z0, z1, tp, off, taping));
            for (int s = 0; s < src.length; s++) {
                float f = w[s * nt + n] * invArea;
                v[src[s]] += bu[src[s]] * f;
                if (tape != null) {
                    int c = src[s] - base;
                    tape[off + (c / sz) * nx + c % sz] += f;
                }
            }
            if (fs) {
                ShKernels.imageVelocity(v, h, base, sz, 0, nx);
            }
            exchange(v);
            for (int r = 0; r < rec.length; r++) {
                out[n * rec.length + r] = v[rec[r]];
            }
            if (l != null && every > 0 && n % every == 0) {
                l.snapshot(b, n, physical(v));
            }
            parallel((z0, z1) -> ShKernels.stress(v, sxy, szy, psi[2], psi[3], mx, mz, prof[4], prof[5], prof[6],
                    prof[7], cx, cz, h, base, sz, nx, z0, z1, tp, off + cells, cells, taping));
            if (fs) {
                ShKernels.imageStress(szy, h, base, sz, 0, nx);
            }
            exchange(sxy);
            if ((n + 1) % spec.checkEvery() == 0 || n == nt - 1) {
                checkFinite(n);
            }
        }
        return out;
    }

    private void exchange(float[] f) {
        if (halo != null) {
            halo.exchange(f);
        }
    }

    private void checkFinite(int n) {
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                float a = v[base + z * sz + x];
                if (!Float.isFinite(a)) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "the %s wavefield vy is not finite (%s)"
                            + " at computational cell (z, x) = (%d, %d) after step %d: the run is unstable (lower dt)",
                            ShEquation.NAME, a, z, x, n));
                }
            }
        }
    }

    /** The tile-physical cells of a field, z first. */
    private float[] physical(float[] f) {
        float[] o = new float[tz * tx];
        for (int z = 0; z < tz; z++) {
            System.arraycopy(f, grid.index(z, 0, 0), o, z * tx, tx);
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
        int nrec = shots.get(0).rec.length;
        int per = nt * nrec;
        if (residual == null || residual.length != shots.size() * per) {
            throw new IllegalArgumentException("residual has " + (residual == null ? "no" : residual.length)
                    + " values; the last forward's record (" + shots.size() + ", " + nt + ", " + nrec + ", 1) needs "
                    + shots.size() * per);
        }
        float[] total = new float[2 * tz * tx];
        float[] wbar = new float[shots.size() * nt];
        for (int b = 0; b < shots.size(); b++) {
            float[] g = adjoint(shots.get(b), Arrays.copyOfRange(residual, b * per, (b + 1) * per), wbar, b);
            for (int i = 0; i < total.length; i++) {
                total[i] += g[i];
            }
        }
        return new Gradient(total, 2, wbar, Double.NaN);
    }

    @Override
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] m,
                                       float[] observed, Misfit misfit) {
        shots.clear();
        heldTape = null;
        int nb = checkBatch(sources, receivers);
        setModel(m);
        int nt = spec.nt();
        int nrec = receivers[0].length;
        int per = nt * nrec;
        if (observed == null || observed.length != nb * per) {
            throw new IllegalArgumentException("observed data have " + (observed == null ? "no" : observed.length)
                    + " values; expected shape (" + nb + ", " + nt + ", " + nrec + ", 1)");
        }
        float[] total = new float[2 * tz * tx];
        float[] wbar = new float[nb * nt];
        float[] t = new float[TAPE_FIELDS * nt * nz * nx];
        double j = 0;
        for (int b = 0; b < nb; b++) {
            int[] src = grid.cellIndices(sources[b], "source", b);
            int[] rec = grid.cellIndices(receivers[b], "receiver", b);
            float[] w = wavelets(wavelet, sources, b);
            float[] syn = shot(src, w, rec, t, b, 0, null, nt);
            float[] res = new float[per];
            j += misfit.evaluate(syn, Arrays.copyOfRange(observed, b * per, (b + 1) * per), res);
            float[] g = adjoint(new Shot(t, src, w, rec), res, wbar, b);
            for (int i = 0; i < total.length; i++) {
                total[i] += g[i];
            }
        }
        heldTape = t; // one shot's tape, reused shot by shot, stays held for the next call
        return new Gradient(total, 2, wbar, j);
    }

    /**
     * The adjoint run of one taped shot for residual {@code res} (nt, nrec): writes dJ/dwavelet into
     * {@code wbar[b·nt ..]} and returns dJ/dvs then dJ/drho on the tile's cells.
     */
    private float[] adjoint(Shot s, float[] res, float[] wbar, int b) {
        int nt = spec.nt();
        int cells = nz * nx;
        if (adj == null) {
            adj = new float[ADJOINT_ARRAYS][len];
        }
        for (float[] a : adj) {
            Arrays.fill(a, 0f);
        }
        float[] av = adj[0];
        float[] asxy = adj[1];
        float[] aszy = adj[2];
        float[] apvx = adj[3];
        float[] apvz = adj[4];
        float[] apsx = adj[5];
        float[] apsz = adj[6];
        float[] ex = adj[7];
        float[] ez = adj[8];
        float[] dx = adj[9];
        float[] dz = adj[10];
        float[] gb = adj[11];
        float[] gmx = adj[12];
        float[] gmz = adj[13];
        float[] tape = s.tape;
        int fsi = fs ? 1 : 0;
        int nrec = s.rec.length;
        for (int n = nt - 1; n >= 0; n--) {
            int off = n * TAPE_FIELDS * cells;
            parallel((z0, z1) -> ShKernels.stressAdjointPoint(asxy, aszy, apsx, apsz, mx, mz, prof[4], prof[5],
                    prof[6], prof[7], ex, ez, gmx, gmz, base, sz, nx, z0, z1, tape, off + cells, cells));
            exchange(ex);
            parallel((z0, z1) -> ShKernels.velocityGather(av, ex, ez, cx, cz, h, base, sz, nx, fsi, z0, z1));
            for (int r = 0; r < nrec; r++) {
                av[s.rec[r]] += res[n * nrec + r];
            }
            float wb = 0f;
            for (int k = 0; k < s.src.length; k++) {
                wb += bu[s.src[k]] * invArea * av[s.src[k]];
            }
            wbar[b * nt + n] = wb;
            parallel((z0, z1) -> ShKernels.velocityAdjointPoint(av, apvx, apvz, bu, prof[0], prof[1], prof[2],
                    prof[3], dx, dz, gb, base, sz, nx, z0, z1, tape, off));
            exchange(dx);
            parallel((z0, z1) -> ShKernels.stressGather(asxy, aszy, dx, dz, cx, cz, h, base, sz, nx, fsi, z0, z1));
        }
        exchange(gmx);
        return cellGradient(gb, gmx, gmz);
    }

    /**
     * The step's two stages for the conformance kit's per-stage dot-product test, on the state vy, sxy, szy and the
     * four memory variables at the computational cells: velocity (the stress images, then the velocity kernel; its
     * transpose is {@link #adjoint}'s velocityAdjointPoint and stressGather, which folds the images back) and stress
     * (the velocity images, then the stress kernel; transposed by stressAdjointPoint and velocityGather). Velocities
     * weigh 1/(ρ·vs) of the mean model, stresses 1, memory variables of stress derivatives 1/dh, of velocity
     * derivatives 1/(ρ·vs·dh).
     */
    @Override
    public StepStages stepStages(float[] m) {
        setModel(m);
        if (adj == null) {
            adj = new float[ADJOINT_ARRAYS][len];
        }
        int cells = window.cells();
        double impedance = 0;
        for (int c = 0; c < cells; c++) {
            impedance += (double) model[c] * model[cells + c];
        }
        impedance /= cells;
        double dh = spec.dh()[0];
        int[] nodes = new int[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                nodes[z * nx + x] = base + z * sz + x;
            }
        }
        StateVector state = StateVector.builder()
                .part("vy", v, adj[0], nodes, 1 / impedance, false)
                .part("sxy", sxy, adj[1], nodes, 1, false)
                .part("szy", szy, adj[2], nodes, 1, false)
                .part("pvx", psi[0], adj[3], nodes, 1 / dh, false)
                .part("pvz", psi[1], adj[4], nodes, 1 / dh, false)
                .part("psx", psi[2], adj[5], nodes, 1 / (impedance * dh), false)
                .part("psz", psi[3], adj[6], nodes, 1 / (impedance * dh), false)
                .build();
        float[] tape = new float[TAPE_FIELDS * nz * nx];
        int fsi = fs ? 1 : 0;
        return StepStages.of(List.of("velocity", "stress"), state, stage -> {
            if (stage == 0) {
                if (fs) {
                    ShKernels.imageStress(szy, h, base, sz, 0, nx);
                }
                parallel((z0, z1) -> ShKernels.velocity(v, sxy, szy, psi[0], psi[1], bu, prof[0], prof[1], prof[2],
                        prof[3], cx, cz, h, base, sz, nx, z0, z1, tape, 0, 0));
            } else {
                if (fs) {
                    ShKernels.imageVelocity(v, h, base, sz, 0, nx);
                }
                parallel((z0, z1) -> ShKernels.stress(v, sxy, szy, psi[2], psi[3], mx, mz, prof[4], prof[5], prof[6],
                        prof[7], cx, cz, h, base, sz, nx, z0, z1, tape, 0, nz * nx, 0));
            }
        }, stage -> {
            float[][] a = adj;
            if (stage == 0) {
                parallel((z0, z1) -> ShKernels.velocityAdjointPoint(a[0], a[3], a[4], bu, prof[0], prof[1], prof[2],
                        prof[3], a[9], a[10], a[11], base, sz, nx, z0, z1, tape, 0));
                parallel((z0, z1) -> ShKernels.stressGather(a[1], a[2], a[9], a[10], cx, cz, h, base, sz, nx, fsi, z0,
                        z1));
            } else {
                parallel((z0, z1) -> ShKernels.stressAdjointPoint(a[1], a[2], a[5], a[6], mx, mz, prof[4], prof[5],
                        prof[6], prof[7], a[7], a[8], a[12], a[13], base, sz, nx, z0, z1, tape, nz * nx, nz * nx));
                parallel((z0, z1) -> ShKernels.velocityGather(a[0], a[7], a[8], cx, cz, h, base, sz, nx, fsi, z0,
                        z1));
            }
        });
    }

    /**
     * dJ/dvs and dJ/drho of the tile's cells from the node gradients dJ/d(dt/ρ), dJ/d(dt·μx), dJ/d(dt·μz): each node's
     * share goes to the cells its coefficient was made of (the pads' to the edge cells they replicate), in
     * row-major order of the nodes, the node left of a low cut (in the halo) included.
     */
    private float[] cellGradient(float[] gb, float[] gmx, float[] gmz) {
        int n = tz * tx;
        double[] gmu = new double[n];
        double[] grho = new double[n];
        double dt = spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int x = lowCut ? -1 : 0; x < nx; x++) {
                int i = base + z * sz + x;
                if (x >= 0) {
                    double r = rho(z, x);
                    add(grho, z, x, gb[i] * (-dt / (r * r)));
                }
                double a = mu(z, x);
                double c = mu(z, x + 1);
                double s2 = (a + c) * (a + c);
                add(gmu, z, x, gmx[i] * dt * 2 * c * c / s2);
                add(gmu, z, x + 1, gmx[i] * dt * 2 * a * a / s2);
                if (x >= 0) {
                    double e = mu(z + 1, x);
                    double s3 = (a + e) * (a + e);
                    add(gmu, z, x, gmz[i] * dt * 2 * e * e / s3);
                    add(gmu, z + 1, x, gmz[i] * dt * 2 * a * a / s3);
                }
            }
        }
        float[] out = new float[2 * n];
        for (int z = 0; z < tz; z++) {
            for (int x = 0; x < tx; x++) {
                int k = z * tx + x;
                int c = window.index(z, 0, ox + x);
                double vs = model[c];
                double r = model[window.cells() + c];
                out[k] = (float) (gmu[k] * 2 * r * vs);
                out[n + k] = (float) (grho[k] + gmu[k] * vs * vs);
            }
        }
        return out;
    }

    /** Adds {@code g} to the tile cell of computational cell (z, x), when that cell is the tile's. */
    private void add(double[] acc, int z, int x, double g) {
        int[] shape = spec.shape();
        int pz = Math.max(0, Math.min(shape[0] - 1, grid.globalIndex(0, z)));
        int px = Math.max(0, Math.min(shape[1] - 1, grid.globalIndex(1, x))) - ox;
        if (px >= 0 && px < tx) {
            acc[pz * tx + px] += g;
        }
    }

    // ---------------------------------------------------------------------------------------------------- the rest

    @Override
    public double timeSteps(float[] m, int steps) {
        setModel(m);
        int[] src = {base + (nz / 2) * sz + nx / 2};
        float[] w = new float[steps];
        if (steps > 0) {
            w[0] = 1f;
        }
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpu = backend.threads() == 1 && mx.isCurrentThreadCpuTimeSupported();
        long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
        long t0 = System.nanoTime();
        shot(src, w, new int[0], null, 0, 0, null, steps);
        double s = (System.nanoTime() - t0) * 1e-9;
        lastCpu = cpu ? (mx.getCurrentThreadCpuTime() - c0) * 1e-9 : Double.NaN;
        return s;
    }

    @Override
    public double lastStepsCpuSeconds() {
        return lastCpu;
    }

    @Override
    public String backendDescription() {
        return "Java (" + backend.threads() + " threads), " + ShEquation.NAME + " example solver";
    }

    @Override
    public void setPmlVelocity(double vel) {
        if (!(vel >= 0) || Double.isInfinite(vel)) {
            throw new IllegalArgumentException("PML velocity must be >= 0 and finite, got " + vel);
        }
        pmlVelocity = vel;
    }

    @Override
    public void close() {
        backend.close();
    }

    /**
     * Runs {@code k} over the rows [0, nz) on the project's Java backend: contiguous row ranges over its persistent
     * threads (no task per loop); a cell's arithmetic never depends on the split.
     */
    private void parallel(JavaBackend.RangeBody k) {
        backend.parallelFor(0, nz, k);
    }
}
