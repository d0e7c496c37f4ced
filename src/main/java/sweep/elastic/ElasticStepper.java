package sweep.elastic;

import java.util.Arrays;
import sweep.backend.CpuKernels;
import sweep.backend.JavaBackend;
import sweep.core.FdWeights;
import sweep.elastic.kernels.ElasticAdjointKernels2D;
import sweep.elastic.kernels.ElasticAdjointKernels3D;
import sweep.elastic.kernels.ElasticKernels2D;
import sweep.elastic.kernels.ElasticKernels3D;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;
import sweep.kernels.Sources;
import sweep.prop.CellWindow;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * The elastic step on the Java backend: holds the packed fields, parameters, CPML profiles and memory variables of
 * one {@link Grid} (arrays as in {@link ElasticLayout}) and runs the sub-steps of {@link ElasticKernels2D} /
 * {@link ElasticKernels3D}, each split by depth rows over the backend's threads (bit-identical for any thread count).
 * Parameters and profiles are derived from global positions, so that a tile of a decomposed run computes each node as
 * one domain would. The velocity and stress sub-steps run the Vector API variants ({@link ElasticVectorKernels2D},
 * {@link ElasticVectorKernels3D}) when {@link CpuKernels#useCpuKernels()} says so, else the portable kernels (the same
 * bits either way).
 */
final class ElasticStepper {
    final Grid g;
    private final JavaBackend backend;
    final int ndim;
    final int h;
    final int len;
    /** Elastic kernel geometry: {@link Layout} slots plus {@link ElasticLayout}'s. */
    final int[] geo;
    /** Staggered weights divided by the spacing, per axis slot. */
    final float[] coef;
    float[] prof;
    /** Velocities, stresses (packed per component), dt/ρ at velocity nodes, dt-scaled moduli, CPML memory variables. */
    final float[] v;
    final float[] s;
    final float[] b;
    final float[] m;
    final float[] psi;
    /** Whether the sub-steps run the Vector API kernels. */
    private final boolean cpu;
    /** Per-thread scratch rows of the Vector API kernels, indexed by chunk. */
    private final float[][] scratch;
    private final JavaBackend.ChunkBody velocityPass;
    private final JavaBackend.ChunkBody stressPass;
    private final JavaBackend.ChunkBody surfaceVelocityPass;
    private final JavaBackend.ChunkBody surfaceStressPass;
    private final JavaBackend.ChunkBody velocityTapedPass;
    private final JavaBackend.ChunkBody stressTapedPass;
    /** The compact term arrays the taped passes write (a gradient-capable FULL run). */
    private float[] tapeV;
    private float[] tapeS;
    /** Rows of one velocity block of the fused step's wavefront. */
    private final int fuseRows;
    private final JavaBackend.ChunkBody fusedPass;
    private final JavaBackend.ChunkBody fusedEdges;
    // the force sources of the current fused step (set by fusedStep for its passes)
    private int[] fuseIdx;
    private int[] fuseRow;
    private float[] fuseSamples;
    private int fuseCount;
    private int fuseNt;
    private int fuseT;

    ElasticStepper(Grid g, JavaBackend backend) {
        this.g = g;
        this.backend = backend;
        this.ndim = g.ndim;
        this.h = g.h;
        this.geo = elasticGeo(g);
        this.len = geo[Layout.LEN];
        this.coef = weights(g);
        v = new float[checkedLength(ElasticLayout.velocities(ndim), "velocity")];
        s = new float[checkedLength(ElasticLayout.stresses(ndim), "stress")];
        b = new float[v.length];
        m = new float[checkedLength(ElasticLayout.moduli(ndim), "moduli")];
        psi = new float[(int) psiLength(geo, ndim)]; // elasticGeo checked the size
        int ny = g.ny;
        int nx = g.nx;
        cpu = CpuKernels.useCpuKernels();
        scratch = new float[backend.threads()][!cpu ? 0 : ndim == 2 ? ElasticVectorKernels2D.scratchSize(g.nx)
                : ElasticVectorKernels3D.scratchSize(g.nx)];
        if (ndim == 2 && cpu) {
            velocityPass = (c, z0, z1) -> ElasticVectorKernels2D.velocity(v, s, b, psi, prof, coef, geo, z0, z1, 0, nx,
                    scratch[c]);
            stressPass = (c, z0, z1) -> ElasticVectorKernels2D.stress(v, s, m, psi, prof, coef, geo, z0, z1, 0, nx,
                    scratch[c]);
        } else if (ndim == 2) {
            velocityPass = (c, z0, z1) -> ElasticKernels2D.velocity(v, s, b, psi, prof, coef, geo, z0, z1, 0, nx);
            stressPass = (c, z0, z1) -> ElasticKernels2D.stress(v, s, m, psi, prof, coef, geo, z0, z1, 0, nx);
        } else if (cpu) {
            velocityPass = (c, z0, z1) -> ElasticVectorKernels3D.velocity(v, s, b, psi, prof, coef, geo, z0, z1, 0, ny,
                    0, nx,
                    scratch[c]);
            stressPass = (c, z0, z1) -> ElasticVectorKernels3D.stress(v, s, m, psi, prof, coef, geo, z0, z1, 0, ny, 0,
                    nx,
                    scratch[c]);
        } else {
            velocityPass = (c, z0, z1) -> ElasticKernels3D.velocity(v, s, b, psi, prof, coef, geo, z0, z1, 0, ny, 0,
                    nx);
            stressPass = (c, z0, z1) -> ElasticKernels3D.stress(v, s, m, psi, prof, coef, geo, z0, z1, 0, ny, 0, nx);
        }
        if (ndim == 2) {
            surfaceVelocityPass = (c, x0, x1) -> ElasticKernels2D.freeSurfaceVelocity(v, geo, x0, x1);
            surfaceStressPass = (c, x0, x1) -> ElasticKernels2D.freeSurfaceStress(s, geo, x0, x1);
            velocityTapedPass = (c, z0, z1) -> ElasticAdjointKernels2D.velocityTaped(v, s, b, psi, prof, coef, geo,
                    tapeV, z0,
                    z1, 0, nx);
            stressTapedPass = (c, z0, z1) -> ElasticAdjointKernels2D.stressTaped(v, s, m, psi, prof, coef, geo, tapeS,
                    z0, z1,
                    0, nx);
        } else {
            surfaceVelocityPass = (c, y0, y1) -> ElasticKernels3D.freeSurfaceVelocity(v, geo, y0, y1, 0, nx);
            surfaceStressPass = (c, y0, y1) -> ElasticKernels3D.freeSurfaceStress(s, geo, y0, y1, 0, nx);
            velocityTapedPass = (c, z0, z1) -> ElasticAdjointKernels3D.velocityTaped(v, s, b, psi, prof, coef, geo,
                    tapeV, z0,
                    z1, 0, ny, 0, nx);
            stressTapedPass = (c, z0, z1) -> ElasticAdjointKernels3D.stressTaped(v, s, m, psi, prof, coef, geo, tapeS,
                    z0, z1,
                    0, ny, 0, nx);
        }
        // 2-D: rows of a thousand cells, blocks of the CPU kernels' size; 3-D: planes, kept few so that the planes the
        // stress update reads back are still cached
        fuseRows = ndim == 2 ? 16 : 2;
        fusedPass = this::fusedChunk;
        fusedEdges = this::fusedEdgeRows;
    }

    /**
     * Phase 1 of {@link #fusedStep} on one chunk [z0, z1) of rows: the velocity sub-step on blocks of rows in order,
     * each followed by its force sources and by the stress sub-step on the rows h behind it, which need no velocity
     * row past the block (rows [z0 + h, z1 − h) only: the others read or are read across the chunk's edges).
     */
    private void fusedChunk(int c, int z0, int z1) {
        int next = z0 + h;
        int end = z1 - h;
        for (int zb = z0; zb < z1; zb += fuseRows) {
            int ze = Math.min(z1, zb + fuseRows);
            velocityPass.run(c, zb, ze);
            for (int k = 0; k < fuseCount; k++) {
                int zr = fuseRow[k];
                if (zr >= zb && zr < ze) {
                    int i = fuseIdx[k];
                    v[i] = v[i] + b[i] * fuseSamples[k * fuseNt + fuseT];
                }
            }
            int se = Math.min(end, ze - h);
            if (se > next) {
                stressPass.run(c, next, se);
                next = se;
            }
        }
    }

    /** Phase 2 of {@link #fusedStep}: the stress sub-step on the rows within h of the chunk's edges. */
    private void fusedEdgeRows(int c, int z0, int z1) {
        int a = Math.min(z1, z0 + h);
        stressPass.run(c, z0, a);
        stressPass.run(c, Math.max(a, z1 - h), z1);
    }

    /**
     * Sub-step (1) with the force sources and the free-surface velocity images, then sub-step (3) without sources:
     * the same operations on every cell as {@link #velocityStep}, {@link Sources#inject}, {@link #surfaceVelocityStep}
     * and {@link #stressStep} in turn, so the same bits, but each thread runs the stress update a few rows behind its
     * velocity update, while the stress and velocity rows are still in cache (the two sub-steps otherwise stream every
     * field twice). The rows within h of a thread's chunk edges, which read or are read across the edge, follow after
     * all velocity rows and the images. Force sources: array indices {@code idx} (component offset included), their
     * depth rows {@code row} and samples {@code samples[k·nt + t]}, added in list order as {@link Sources#inject}
     * does. For a single domain only (no halo exchange between the sub-steps) and without a FULL tape.
     */
    void fusedStep(int[] idx, int[] row, float[] samples, int count, int nt, int t) {
        fuseIdx = idx;
        fuseRow = row;
        fuseSamples = samples;
        fuseCount = count;
        fuseNt = nt;
        fuseT = t;
        backend.parallelFor(0, g.nz, fusedPass);
        surfaceVelocityStep();
        backend.parallelFor(0, g.nz, fusedEdges);
        fuseIdx = null;
        fuseRow = null;
        fuseSamples = null;
    }

    /** Depth row of each array index (component offset included) of {@code idx}. */
    int[] rows(int[] idx) {
        int[] out = new int[idx.length];
        int off = geo[Layout.OFF0];
        int sz = geo[Layout.SZ];
        for (int k = 0; k < idx.length; k++) {
            out[k] = Math.floorDiv(idx[k] % len - off, sz);
        }
        return out;
    }

    /** Whether the sub-steps run the Vector API kernels. */
    boolean cpuKernels() {
        return cpu;
    }

    private int checkedLength(int slots, String what) {
        long n = (long) slots * len;
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the packed " + what + " array needs " + n + " floats (" + slots
                    + " components of " + len + "), beyond Java's array limit: split the model across ranks");
        }
        return (int) n;
    }

    /** The elastic kernel geometry of {@code g}: its acoustic {@code geo} extended by {@link ElasticLayout}'s slots. */
    static int[] elasticGeo(Grid g) {
        int[] base = g.geo();
        int[] geo = Arrays.copyOf(base, ElasticLayout.GEO_SIZE);
        int[] n = {g.nz, g.ny, g.nx};
        int[] bl = {base[Layout.ZBL], base[Layout.YBL], base[Layout.XBL]};
        int[] bh = {base[Layout.ZBH], base[Layout.YBH], base[Layout.XBH]};
        int[] w = new int[3];
        int[] bhh = new int[3];
        for (int a = 0; a < 3; a++) {
            bhh[a] = bh[a] < n[a] ? bh[a] - 1 : n[a];
            w[a] = bl[a] + n[a] - bhh[a];
        }
        int k = ElasticLayout.psiPerAxis(g.ndim);
        long slabZ = (long) w[0] * g.ny * g.nx;
        long slabY = (long) g.nz * w[1] * g.nx;
        long slabX = (long) g.nz * g.ny * w[2];
        long psiY = k * slabZ;
        long psiX = psiY + k * slabY;
        long total = psiX + k * slabX;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the CPML memory variables need " + total + " floats, beyond Java's"
                    + " array limit: narrow the absorbing width or split the model across ranks");
        }
        geo[ElasticLayout.FS] = g.spec.freeSurface() && g.globalAxis(0)[0] == 0 ? 1 : 0;
        geo[ElasticLayout.ZBHH] = bhh[0];
        geo[ElasticLayout.YBHH] = bhh[1];
        geo[ElasticLayout.XBHH] = bhh[2];
        geo[ElasticLayout.WZ] = w[0];
        geo[ElasticLayout.WY] = w[1];
        geo[ElasticLayout.WX] = w[2];
        geo[ElasticLayout.PSI_Z] = 0;
        geo[ElasticLayout.PSI_Y] = (int) psiY;
        geo[ElasticLayout.PSI_X] = (int) psiX;
        geo[ElasticLayout.SLAB_Z] = (int) slabZ;
        geo[ElasticLayout.SLAB_Y] = (int) slabY;
        geo[ElasticLayout.SLAB_X] = (int) slabX;
        return geo;
    }

    private static long psiLength(int[] geo, int ndim) {
        return geo[ElasticLayout.PSI_X] + (long) ElasticLayout.psiPerAxis(ndim) * geo[ElasticLayout.SLAB_X];
    }

    /** Staggered weights c_k/dh per axis slot (z, y, x) at {@code slot·h + k − 1}; the y slot is 0 in 2-D. */
    static float[] weights(Grid g) {
        double[] c = FdWeights.staggered(g.spec.order());
        double[] dh = g.spec.dh();
        int h = g.h;
        float[] coef = new float[3 * h];
        for (int a = 0; a < g.ndim; a++) {
            int slot = g.ndim == 2 && a == 1 ? 2 : a;
            for (int k = 1; k <= h; k++) {
                coef[slot * h + k - 1] = (float) (c[k] / dh[a]);
            }
        }
        return coef;
    }

    /**
     * Fills buoyancy and moduli from the GLOBAL model (the spec's physical shape, checked by the caller) and sets the
     * CPML profiles for {@code pmlVel}. Each node takes its cells by global index, the edge cell repeated beyond the
     * model (PML pads included): ρ at a velocity node is the mean of its two cells; λ and λ+2μ at a normal-stress node
     * are its cell's (on a free-surface row the surface moduli 2λμ/(λ+2μ) and that + 2μ); μ at a shear node is the
     * harmonic mean of its four cells, 0 if any is 0. All in double, times dt, rounded once to float. The halo cells
     * are filled too (the forward step never reads them; an adjoint step that forms b·v̄ or m·σ̄ at a neighbour across
     * a tile cut can).
     */
    void setModel(float[] vp, float[] vs, float[] rho, double pmlVel) {
        setModel(vp, vs, rho, new CellWindow(new int[ndim], g.spec.shape()), pmlVel);
    }

    /**
     * As {@link #setModel(float[], float[], float[], double)} with the model given over {@code w}, a window of the
     * global model that holds every cell this grid's nodes are formed from (a tile's cells and the equation's model
     * margin beyond its cut faces, {@link CellWindow#of}); cells are still chosen by global index.
     */
    void setModel(float[] vp, float[] vs, float[] rho, CellWindow w, double pmlVel) {
        int[] shape = g.spec.shape();
        int gnz = shape[0];
        int gny = ndim == 3 ? shape[1] : 1;
        int gnx = shape[ndim - 1];
        // window-relative cell indices: clamp to the model by global index, then shift by the window's origin
        int wy0 = ndim == 3 ? w.origin()[1] : 0;
        int wx0 = w.origin()[ndim - 1];
        int wny = ndim == 3 ? w.shape()[1] : 1;
        int wnx = w.shape()[ndim - 1];
        int oz = g.globalAxis(0)[0] - g.globalAxis(0)[2];
        int oy = g.globalAxis(1)[0] - g.globalAxis(1)[2];
        int ox = g.globalAxis(2)[0] - g.globalAxis(2)[2];
        double dt = g.spec.dt();
        boolean fs = geo[ElasticLayout.FS] == 1;
        int yh = ndim == 3 ? h : 0;
        backend.parallelFor(-h, g.nz + h, (z0, z1) -> {
            for (int z = z0; z < z1; z++) {
                int cz0 = clamp(oz + z, gnz);
                int cz1 = clamp(oz + z + 1, gnz);
                boolean surface = fs && z == 0;
                for (int y = -yh; y < g.ny + yh; y++) {
                    int cy0 = clamp(oy + y, gny) - wy0;
                    int cy1 = clamp(oy + y + 1, gny) - wy0;
                    for (int x = -h; x < g.nx + h; x++) {
                        int cx0 = clamp(ox + x, gnx) - wx0;
                        int cx1 = clamp(ox + x + 1, gnx) - wx0;
                        int i = g.compIndex(z, y, x);
                        int c = (cz0 * wny + cy0) * wnx + cx0;
                        double r = rho[c];
                        double mu = mu(vs, rho, c);
                        double l2m = r * (double) vp[c] * vp[c];
                        double lam = l2m - 2 * mu;
                        if (surface) {
                            lam = 2 * lam * mu / l2m;
                            l2m = lam + 2 * mu;
                        }
                        m[i] = (float) (dt * lam);
                        m[len + i] = (float) (dt * l2m);
                        int cxp = (cz0 * wny + cy0) * wnx + cx1;
                        int czp = (cz1 * wny + cy0) * wnx + cx0;
                        b[i] = (float) (dt / ((r + rho[cxp]) / 2));
                        b[(ndim - 1) * len + i] = (float) (dt / ((r + rho[czp]) / 2));
                        if (ndim == 2) {
                            m[2 * len + i] = (float) (dt * harmonic(mu, mu(vs, rho, cxp), mu(vs, rho, czp),
                                    mu(vs, rho, (cz1 * wny + cy0) * wnx + cx1)));
                        } else {
                            int cyp = (cz0 * wny + cy1) * wnx + cx0;
                            b[len + i] = (float) (dt / ((r + rho[cyp]) / 2));
                            m[2 * len + i] = (float) (dt * harmonic(mu, mu(vs, rho, cxp), mu(vs, rho, cyp),
                                    mu(vs, rho, (cz0 * wny + cy1) * wnx + cx1)));
                            m[3 * len + i] = (float) (dt * harmonic(mu, mu(vs, rho, cxp), mu(vs, rho, czp),
                                    mu(vs, rho, (cz1 * wny + cy0) * wnx + cx1)));
                            m[4 * len + i] = (float) (dt * harmonic(mu, mu(vs, rho, cyp), mu(vs, rho, czp),
                                    mu(vs, rho, (cz1 * wny + cy1) * wnx + cx0)));
                        }
                    }
                }
            }
        });
        prof = g.staggeredProfiles(pmlVel);
    }

    private static int clamp(int i, int n) {
        return Math.max(0, Math.min(n - 1, i));
    }

    private static double mu(float[] vs, float[] rho, int c) {
        return (double) rho[c] * vs[c] * vs[c];
    }

    /** Harmonic mean of four moduli, 0 when any is 0. */
    static double harmonic(double a, double b, double c, double d) {
        if (a == 0 || b == 0 || c == 0 || d == 0) {
            return 0;
        }
        return 4.0 / (1.0 / a + 1.0 / b + 1.0 / c + 1.0 / d);
    }

    /** Zeroes fields and memory variables for a new shot (in parallel). */
    void reset() {
        backend.parallelFor(0, v.length, (a, e) -> Arrays.fill(v, a, e, 0f));
        backend.parallelFor(0, s.length, (a, e) -> Arrays.fill(s, a, e, 0f));
        backend.parallelFor(0, psi.length, (a, e) -> Arrays.fill(psi, a, e, 0f));
    }

    /** Sub-step (1) without sources: v from (t−½)dt to (t+½)dt with σ(t·dt). */
    void velocityStep() {
        backend.parallelFor(0, g.nz, velocityPass);
    }

    /**
     * {@link #velocityStep} that also writes the step's velocity terms into {@code tv} (compact,
     * ElasticAdjointKernels2D).
     */
    void velocityStep(float[] tv) {
        tapeV = tv;
        backend.parallelFor(0, g.nz, velocityTapedPass);
        tapeV = null;
    }

    /** {@link #stressStep} that also writes the step's strain terms into {@code ts} (compact). */
    void stressStep(float[] ts) {
        tapeS = ts;
        backend.parallelFor(0, g.nz, stressTapedPass);
        tapeS = null;
    }

    /** Sub-step (3) without sources: σ from t·dt to (t+1)dt with v((t+½)dt). */
    void stressStep() {
        backend.parallelFor(0, g.nz, stressPass);
    }

    /** The velocity images of the free surface (after sub-step (1) and the force sources); a no-op without one. */
    void surfaceVelocityStep() {
        if (geo[ElasticLayout.FS] == 1) {
            surface(surfaceVelocityPass);
        }
    }

    /** The stress rule of the free surface (after sub-step (3) and the explosive sources); a no-op without one. */
    void surfaceStressStep() {
        if (geo[ElasticLayout.FS] == 1) {
            surface(surfaceStressPass);
        }
    }

    private void surface(JavaBackend.ChunkBody pass) {
        if (ndim == 2) {
            pass.run(0, 0, g.nx); // one row of cells: not worth a parallel loop
        } else {
            backend.parallelFor(0, g.ny, pass);
        }
    }

    /** Throws when a velocity or stress holds NaN or Inf. */
    void checkFinite(int step, int shot, double vpMax) {
        for (float[] f : new float[][] {v, s}) {
            backend.parallelFor(0, f.length, (from, to) -> {
                for (int i = from; i < to; i++) {
                    if (!Float.isFinite(f[i])) {
                        throw new IllegalStateException("elastic wavefield of shot " + shot + " became non-finite"
                                + " (NaN/Inf) by step " + step + ": the run is unstable; lower dt (largest stable: "
                                + PropSpec.roundedDown(g.spec.maxStableDt(vpMax)) + " s) or check the model and"
                                + " wavelet for extreme values");
                    }
                }
            });
        }
    }

    /** Bytes held by this stepper's arrays. */
    long bytes() {
        long n = v.length + s.length + b.length + m.length + psi.length + (prof == null ? 0 : prof.length);
        for (float[] row : scratch) {
            n += row.length;
        }
        return 4L * n;
    }

    /** Physical copies of every component: velocities, then stresses (order of {@link ElasticListener}). */
    float[][] physicalFields() {
        int nv = ElasticLayout.velocities(ndim);
        int ns = ElasticLayout.stresses(ndim);
        float[][] out = new float[nv + ns][];
        for (int c = 0; c < nv; c++) {
            out[c] = physicalCopy(v, c * len);
        }
        for (int c = 0; c < ns; c++) {
            out[nv + c] = physicalCopy(s, c * len);
        }
        return out;
    }

    private float[] physicalCopy(float[] f, int base) {
        float[] out = new float[g.tz * g.ty * g.tx];
        int k = 0;
        for (int z = 0; z < g.tz; z++) {
            for (int y = 0; y < g.ty; y++) {
                System.arraycopy(f, base + g.index(z, y, 0), out, k, g.tx);
                k += g.tx;
            }
        }
        return out;
    }
}
