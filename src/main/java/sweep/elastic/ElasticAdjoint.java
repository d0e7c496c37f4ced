package sweep.elastic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.backend.JavaBackend;
import sweep.core.Box;
import sweep.elastic.kernels.ElasticAdjointKernels2D;
import sweep.elastic.kernels.ElasticAdjointKernels3D;
import sweep.elastic.kernels.ElasticKernels2D;
import sweep.elastic.kernels.ElasticKernels3D;
import sweep.elastic.kernels.ElasticLayout;
import sweep.elastic.kernels.ElasticSources;
import sweep.equation.StateVector;
import sweep.equation.StepStages;
import sweep.kernels.Layout;
import sweep.kernels.Pack;
import sweep.kernels.Sources;
import sweep.prop.CellWindow;
import sweep.prop.Grid;
import sweep.prop.Storage;

/**
 * The gradient machinery of the elastic solver on one grid (Java backend): the tape a gradient-capable forward run
 * records ({@link Storage#FULL}: the velocity and strain terms of every step; {@link Storage#BOUNDARY_SAVING}: every
 * component on the ring of cells around the rebuilt box at every step, plus the last state), the backward time loop of
 * the transposed sub-steps ({@link ElasticAdjointKernels2D}, {@link ElasticAdjointKernels3D}) that accumulates
 * dJ/d(kernel parameter) per node, and the map of those onto dJ/dvp, dJ/dvs, dJ/drho per cell. Allocated only when a
 * gradient is first asked for.
 *
 * <p>The rebuilt box of boundary saving is the box of cells none of whose nodes lies in a CPML band:
 * [?BL, ?BHH) along each axis (a cut or the free surface bounds it by the tile instead). Its nodes are updated without
 * memory variables, so the leapfrog runs backwards there; the ring is the h cells outside it along each axis (no
 * corners: every stencil is along one axis).
 */
final class ElasticAdjoint {
    /** What one shot's forward run left for its adjoint run. */
    static final class Tape {
        final ElasticSource type;
        /** Injection entries: array index (component slot included) and dt-scaled samples, {@code nt} per entry. */
        final int[] srcIdx;
        final float[] samples;
        /** Physical sources (an explosive source has ndim entries). */
        final int nsrc;
        /** Force sources whose term enters the buoyancy gradient: compact index and samples (see termIndices). */
        final int[] termIdx;
        final float[] termSamples;
        final int[] recIdx;
        final int[] kind;
        final boolean transientBuffers;
        /** FULL: velocity and strain terms of every step (compact). */
        float[][] tv;
        float[][] ts;
        /** BOUNDARY_SAVING: ring of the state after step t, t = 0..nt−2, and the state after the last step. */
        float[][] rings;
        float[] lastV;
        float[] lastS;
        /** The tape of a forward run on a device backend (then the arrays above stay empty), or null. */
        ElasticDeviceTape device;

        Tape(ElasticSource type, int[] srcIdx, float[] samples, int nsrc, int[] termIdx, float[] termSamples,
             int[] recIdx, int[] kind, boolean transientBuffers) {
            this.type = type;
            this.srcIdx = srcIdx;
            this.samples = samples;
            this.nsrc = nsrc;
            this.termIdx = termIdx;
            this.termSamples = termSamples;
            this.recIdx = recIdx;
            this.kind = kind;
            this.transientBuffers = transientBuffers;
        }

        /** Bytes of the tape's own arrays (a transient tape's live in the adjoint's stores: 0 here). */
        long bytes() {
            if (device != null) {
                return device.bytes();
            }
            if (transientBuffers) {
                return 0;
            }
            long n = 0;
            for (float[][] a : new float[][][] {tv, ts, rings}) {
                if (a != null) {
                    for (float[] x : a) {
                        n += x == null ? 0 : x.length;
                    }
                }
            }
            n += (lastV == null ? 0 : lastV.length) + (lastS == null ? 0 : lastS.length);
            return 4 * n;
        }
    }

    private final Grid g;
    private final ElasticStepper fwd;
    private final JavaBackend backend;
    private final Storage storage;
    private final ElasticHalo halo;
    private final int ndim;
    private final int h;
    private final int len;
    private final int nv;
    private final int ns;
    private final int nc;
    private final boolean fs;
    private final int[] geo;
    // adjoint fields and node gradients
    private final float[] vb;
    private final float[] sb;
    private final float[] psib;
    private final float[] gb;
    private final float[] gm;
    // boundary saving: rebuilt fields and the terms of one step
    private final float[] rv;
    private final float[] rs;
    private final float[] tvS;
    private final float[] tsS;
    /** Boxes {z0,z1,y0,y1,x0,x1}: the rebuilt box (null if empty), its ring, and the cells outside it. */
    private final Box inBox;
    private final List<Box> ring;
    private final List<Box> band;
    private final int ringCells;
    /** Per velocity and stress component, {@code geo} with OFF0 moved to the component (for {@link Pack}). */
    private final int[][] geoV;
    private final int[][] geoS;
    private float[][] tvStore = new float[0][];
    private float[][] tsStore = new float[0][];
    private float[][] ringStore = new float[0][];
    private float[] lastVStore;
    private float[] lastSStore;
    /** The model window of the current {@link #addPhysicalGradient} call. */
    private CellWindow window;
    /** Test hook: receives each state the boundary-saving run rebuilds (step t: v at (t−½)dt, σ at t·dt). */
    ElasticListener rebuildListener;

    // arrays of the current pass, read by the loop bodies (built once: a step allocates nothing)
    private float[] cTv;
    private float[] cTs;
    private float[] cRingField;
    private float[] cRingBuf;
    private boolean cRingPack;
    private int[][] cRingGeos;
    private int cRingBase;
    private final JavaBackend.ChunkBody stressAdjPass;
    private final JavaBackend.ChunkBody velocityAdjPass;
    private final JavaBackend.ChunkBody stressPsiPass;
    private final JavaBackend.ChunkBody velocityPsiPass;
    private final JavaBackend.ChunkBody stressImagesPass;
    private final JavaBackend.ChunkBody velocityImagesPass;
    private final JavaBackend.ChunkBody surfaceStressAdjPass;
    private final JavaBackend.ChunkBody surfaceVelocityAdjPass;
    private final JavaBackend.ChunkBody rebuildStressPass;
    private final JavaBackend.ChunkBody rebuildVelocityPass;
    private final JavaBackend.ChunkBody surfaceStressPass;
    private final JavaBackend.ChunkBody surfaceVelocityPass;
    private final JavaBackend.ChunkBody ringPass;

    ElasticAdjoint(Grid g, ElasticStepper fwd, JavaBackend backend, Storage storage, ElasticHalo halo) {
        this(g, fwd, backend, storage, halo, true);
    }

    /**
     * The gradient machinery of grid {@code g}; with {@code hostRun} false the adjoint run happens on a device backend,
     * and only the tapes' source terms, the node gradients (which the device fills) and their map onto (vp, vs, rho)
     * are used here: the adjoint fields and rebuild buffers are not allocated.
     */
    ElasticAdjoint(Grid g, ElasticStepper fwd, JavaBackend backend, Storage storage, ElasticHalo halo,
                   boolean hostRun) {
        this.g = g;
        this.fwd = fwd;
        this.backend = backend;
        this.storage = storage;
        this.halo = halo;
        this.ndim = g.ndim;
        this.h = g.h;
        this.geo = fwd.geo;
        this.len = fwd.len;
        this.nv = ElasticLayout.velocities(ndim);
        this.ns = ElasticLayout.stresses(ndim);
        this.nc = g.nz * g.ny * g.nx;
        this.fs = geo[ElasticLayout.FS] == 1;
        vb = new float[hostRun ? fwd.v.length : 0];
        sb = new float[hostRun ? fwd.s.length : 0];
        psib = new float[hostRun ? fwd.psi.length : 0];
        gb = new float[fwd.b.length];
        gm = new float[fwd.m.length];
        int[] n3 = {g.nz, g.ny, g.nx};
        int[] lo = {geo[Layout.ZBL], geo[Layout.YBL], geo[Layout.XBL]};
        int[] hi = {geo[ElasticLayout.ZBHH], geo[ElasticLayout.YBHH], geo[ElasticLayout.XBHH]};
        inBox = Box.orNull(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
        band = g.view().outerBoxes(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
        ring = new ArrayList<>();
        if (inBox != null) {
            int[] in = {inBox.z0(), inBox.z1(), inBox.y0(), inBox.y1(), inBox.x0(), inBox.x1()};
            for (int s = 0; s < 3; s++) {
                if (in[2 * s] > 0) {
                    int[] b = in.clone();
                    b[2 * s] = Math.max(0, in[2 * s] - h);
                    b[2 * s + 1] = in[2 * s];
                    ring.add(Box.of(b));
                }
                if (in[2 * s + 1] < n3[s]) {
                    int[] b = in.clone();
                    b[2 * s] = in[2 * s + 1];
                    b[2 * s + 1] = Math.min(n3[s], in[2 * s + 1] + h);
                    ring.add(Box.of(b));
                }
            }
        }
        ringCells = Box.volume(ring);
        boolean bs = storage == Storage.BOUNDARY_SAVING && hostRun;
        rv = bs ? new float[fwd.v.length] : new float[0];
        rs = bs ? new float[fwd.s.length] : new float[0];
        tvS = bs ? new float[nv * nc] : new float[0];
        tsS = bs ? new float[ns * nc] : new float[0];
        geoV = new int[nv][];
        geoS = new int[ns][];
        for (int c = 0; c < nv; c++) {
            geoV[c] = componentGeo(c);
        }
        for (int c = 0; c < ns; c++) {
            geoS[c] = componentGeo(c);
        }
        float[] coef = fwd.coef;
        int nx = g.nx;
        int ny = g.ny;
        if (ndim == 2) {
            stressAdjPass = (c, z0, z1) -> ElasticAdjointKernels2D.stressAdjoint(vb, sb, fwd.m, psib, fwd.prof, coef,
                    geo,
                    cTs, gm, z0, z1, 0, nx);
            velocityAdjPass = (c, z0, z1) -> ElasticAdjointKernels2D.velocityAdjoint(sb, vb, fwd.b, psib, fwd.prof,
                    coef,
                    geo, cTv, gb, z0, z1, 0, nx);
            stressPsiPass = (c, z0, z1) -> bandRows(z0, z1, (b, za, zb) -> ElasticAdjointKernels2D.stressPsiAdjoint(sb,
                    fwd.m,
                    psib, fwd.prof, geo, za, zb, b.x0(), b.x1()));
            velocityPsiPass = (c, z0, z1) -> bandRows(z0, z1, (b, za,
                    zb) -> ElasticAdjointKernels2D.velocityPsiAdjoint(vb,
                    fwd.b, psib, fwd.prof, geo, za, zb, b.x0(), b.x1()));
            stressImagesPass = (c, x0, x1) -> ElasticAdjointKernels2D.stressAdjointImages(vb, sb, fwd.m, psib, fwd.prof,
                    coef,
                    geo, x0, x1);
            velocityImagesPass = (c, x0, x1) -> ElasticAdjointKernels2D.velocityAdjointImages(sb, vb, fwd.b, psib,
                    fwd.prof,
                    coef, geo, x0, x1);
            surfaceStressAdjPass = (c, x0, x1) -> ElasticAdjointKernels2D.freeSurfaceStressAdjoint(sb, geo, x0, x1);
            surfaceVelocityAdjPass = (c, x0, x1) -> ElasticAdjointKernels2D.freeSurfaceVelocityAdjoint(vb, geo, x0, x1);
            rebuildStressPass = (c, z0, z1) -> inRows(z0, z1, (b, za, zb) -> ElasticAdjointKernels2D.rebuildStress(rv,
                    rs,
                    fwd.m, coef, geo, tsS, za, zb, b.x0(), b.x1()));
            rebuildVelocityPass = (c, z0, z1) -> inRows(z0, z1, (b, za,
                    zb) -> ElasticAdjointKernels2D.rebuildVelocity(rv, rs,
                    fwd.b, coef, geo, tvS, za, zb, b.x0(), b.x1()));
            surfaceStressPass = (c, x0, x1) -> ElasticKernels2D.freeSurfaceStress(rs, geo, x0, x1);
            surfaceVelocityPass = (c, x0, x1) -> ElasticKernels2D.freeSurfaceVelocity(rv, geo, x0, x1);
        } else {
            stressAdjPass = (c, z0, z1) -> ElasticAdjointKernels3D.stressAdjoint(vb, sb, fwd.m, psib, fwd.prof, coef,
                    geo,
                    cTs, gm, z0, z1, 0, ny, 0, nx);
            velocityAdjPass = (c, z0, z1) -> ElasticAdjointKernels3D.velocityAdjoint(sb, vb, fwd.b, psib, fwd.prof,
                    coef,
                    geo, cTv, gb, z0, z1, 0, ny, 0, nx);
            stressPsiPass = (c, z0, z1) -> bandRows(z0, z1, (b, za, zb) -> ElasticAdjointKernels3D.stressPsiAdjoint(sb,
                    fwd.m,
                    psib, fwd.prof, geo, za, zb, b.y0(), b.y1(), b.x0(), b.x1()));
            velocityPsiPass = (c, z0, z1) -> bandRows(z0, z1, (b, za,
                    zb) -> ElasticAdjointKernels3D.velocityPsiAdjoint(vb,
                    fwd.b, psib, fwd.prof, geo, za, zb, b.y0(), b.y1(), b.x0(), b.x1()));
            stressImagesPass = (c, y0, y1) -> ElasticAdjointKernels3D.stressAdjointImages(vb, sb, fwd.m, psib, fwd.prof,
                    coef,
                    geo, y0, y1, 0, nx);
            velocityImagesPass = (c, y0, y1) -> ElasticAdjointKernels3D.velocityAdjointImages(sb, vb, fwd.b, psib,
                    fwd.prof,
                    coef, geo, y0, y1, 0, nx);
            surfaceStressAdjPass = (c, y0, y1) -> ElasticAdjointKernels3D.freeSurfaceStressAdjoint(sb, geo, y0, y1, 0,
                    nx);
            surfaceVelocityAdjPass = (c, y0, y1) -> ElasticAdjointKernels3D.freeSurfaceVelocityAdjoint(vb, geo, y0, y1,
                    0, nx);
            rebuildStressPass = (c, z0, z1) -> inRows(z0, z1, (b, za, zb) -> ElasticAdjointKernels3D.rebuildStress(rv,
                    rs,
                    fwd.m, coef, geo, tsS, za, zb, b.y0(), b.y1(), b.x0(), b.x1()));
            rebuildVelocityPass = (c, z0, z1) -> inRows(z0, z1, (b, za,
                    zb) -> ElasticAdjointKernels3D.rebuildVelocity(rv, rs,
                    fwd.b, coef, geo, tvS, za, zb, b.y0(), b.y1(), b.x0(), b.x1()));
            surfaceStressPass = (c, y0, y1) -> ElasticKernels3D.freeSurfaceStress(rs, geo, y0, y1, 0, nx);
            surfaceVelocityPass = (c, y0, y1) -> ElasticKernels3D.freeSurfaceVelocity(rv, geo, y0, y1, 0, nx);
        }
        ringPass = (c, z0, z1) -> ringRows(z0, z1);
    }

    /** A kernel over the part of one box that lies in rows [za, zb). */
    private interface BoxRows {
        void run(Box box, int za, int zb);
    }

    private void bandRows(int z0, int z1, BoxRows body) {
        for (Box b : band) {
            int za = Math.max(b.z0(), z0);
            int zb = Math.min(b.z1(), z1);
            if (za < zb) {
                body.run(b, za, zb);
            }
        }
    }

    private void inRows(int z0, int z1, BoxRows body) {
        if (inBox != null) {
            int za = Math.max(inBox.z0(), z0);
            int zb = Math.min(inBox.z1(), z1);
            if (za < zb) {
                body.run(inBox, za, zb);
            }
        }
    }

    private int[] componentGeo(int c) {
        int[] gc = geo.clone();
        gc[Layout.OFF0] += c * len;
        return gc;
    }

    /** Bytes of the adjoint's fields, node gradients, rebuild buffers and transient tape stores. */
    long bytes() {
        long n = (long) vb.length + sb.length + psib.length + gb.length + gm.length + rv.length + rs.length
                + tvS.length + tsS.length;
        for (float[][] st : new float[][][] {tvStore, tsStore, ringStore}) {
            for (float[] a : st) {
                n += a.length;
            }
        }
        n += (lastVStore == null ? 0 : lastVStore.length) + (lastSStore == null ? 0 : lastSStore.length);
        return 4 * n;
    }

    /**
     * A tape for one shot. Force sources enter the buoyancy gradient through the term of their node: with FULL every
     * such node, with boundary saving those in the rebuilt box (no node outside it gets a gradient).
     */
    Tape newTape(ElasticSource type, int[] srcIdx, float[] samples, int nsrc, int[] recIdx, int[] kind, int nt,
                 boolean transientBuffers) {
        int[] termIdx = new int[0];
        float[] termSamples = new float[0];
        if (type != ElasticSource.EXPLOSIVE) {
            int[] ti = new int[srcIdx.length];
            float[] tsm = new float[srcIdx.length * nt];
            int n = 0;
            for (int e = 0; e < srcIdx.length; e++) {
                int[] c = cellOf(srcIdx[e]);
                if (storage == Storage.FULL || inBox(c)) {
                    ti[n] = c[0] * nc + (c[1] * g.ny + c[2]) * g.nx + c[3];
                    System.arraycopy(samples, e * nt, tsm, n * nt, nt);
                    n++;
                }
            }
            termIdx = Arrays.copyOf(ti, n);
            termSamples = Arrays.copyOf(tsm, n * nt);
        }
        return new Tape(type, srcIdx, samples, nsrc, termIdx, termSamples, recIdx, kind, transientBuffers);
    }

    /** {component, z, y, x} of array index i of a packed field (computational coordinates). */
    private int[] cellOf(int i) {
        int c = i / len;
        int r = i - c * len - geo[Layout.OFF0];
        int sz = geo[Layout.SZ];
        int z = Math.floorDiv(r, sz);
        r -= z * sz;
        if (ndim == 2) {
            return new int[] {c, z, 0, r};
        }
        int sy = geo[Layout.SY];
        int y = Math.floorDiv(r, sy);
        return new int[] {c, z, y, r - y * sy};
    }

    private boolean inBox(int[] c) {
        return inBox != null && inBox.contains(c[1], c[2], c[3]);
    }

    /** FULL: the compact velocity-term array of step t that the taped velocity pass writes. */
    float[] velocityTerms(Tape tape, int t, int nt) {
        if (tape.tv == null) {
            tape.tv = tape.transientBuffers ? store(true, nt) : new float[nt][];
            tape.ts = tape.transientBuffers ? store(false, nt) : new float[nt][];
        }
        if (tape.tv[t] == null) {
            tape.tv[t] = new float[nv * nc];
            tape.ts[t] = new float[ns * nc];
        }
        return tape.tv[t];
    }

    /** FULL: the compact strain-term array of step t (after {@link #velocityTerms}). */
    float[] strainTerms(Tape tape, int t) {
        return tape.ts[t];
    }

    /** FULL: adds the force samples of step t into its velocity terms (the multiplier of dt/ρ at the node). */
    void addForceTerms(Tape tape, int t, int nt) {
        Sources.add(tape.tv[t], tape.termIdx, tape.termSamples, tape.termIdx.length, nt, t);
    }

    private float[][] store(boolean velocity, int nt) {
        float[][] st = velocity ? tvStore : tsStore;
        if (st.length != nt) {
            if (velocity) {
                tvStore = new float[0][];
            } else {
                tsStore = new float[0][];
            }
            st = new float[nt][];
            int n = (velocity ? nv : ns) * nc;
            for (int t = 0; t < nt; t++) {
                st[t] = new float[n];
            }
            if (velocity) {
                tvStore = st;
            } else {
                tsStore = st;
            }
        }
        return st;
    }

    /** BOUNDARY_SAVING: called after forward step t (all sub-steps, images and exchanges done). */
    void saveState(Tape tape, int t, int nt) {
        if (tape.rings == null) {
            if (tape.transientBuffers) {
                if (ringStore.length != nt - 1) {
                    ringStore = new float[0][];
                    float[][] r = new float[Math.max(0, nt - 1)][];
                    for (int k = 0; k < r.length; k++) {
                        r[k] = new float[(nv + ns) * ringCells];
                    }
                    ringStore = r;
                }
                tape.rings = ringStore;
            } else {
                tape.rings = new float[Math.max(0, nt - 1)][];
            }
        }
        if (t < nt - 1) {
            if (tape.rings[t] == null) {
                tape.rings[t] = new float[(nv + ns) * ringCells];
            }
            ringCopy(fwd.v, fwd.s, tape.rings[t], true);
        } else {
            if (tape.transientBuffers) {
                if (lastVStore == null) {
                    lastVStore = new float[fwd.v.length];
                    lastSStore = new float[fwd.s.length];
                }
                tape.lastV = lastVStore;
                tape.lastS = lastSStore;
            } else {
                tape.lastV = new float[fwd.v.length];
                tape.lastS = new float[fwd.s.length];
            }
            System.arraycopy(fwd.v, 0, tape.lastV, 0, fwd.v.length);
            System.arraycopy(fwd.s, 0, tape.lastS, 0, fwd.s.length);
        }
    }

    /** Copies the ring cells of every component of v (first) and s to (pack) or from buf. */
    private void ringCopy(float[] v, float[] s, float[] buf, boolean pack) {
        ringCopy(v, true, buf, pack);
        ringCopy(s, false, buf, pack);
    }

    /** Copies the ring cells of the velocity ({@code isV}) or stress components of f to or from their part of buf. */
    private void ringCopy(float[] f, boolean isV, float[] buf, boolean pack) {
        cRingField = f;
        cRingGeos = isV ? geoV : geoS;
        cRingBase = isV ? 0 : nv * ringCells;
        cRingBuf = buf;
        cRingPack = pack;
        backend.parallelFor(0, g.nz, ringPass);
        cRingField = null;
        cRingBuf = null;
    }

    private void ringRows(int r0, int r1) {
        int off = cRingBase;
        for (int[] gc : cRingGeos) {
            for (Box b : ring) {
                int za = Math.max(b.z0(), r0);
                int zb = Math.min(b.z1(), r1);
                if (za < zb) {
                    int o = off + (za - b.z0()) * (b.y1() - b.y0()) * (b.x1() - b.x0());
                    if (cRingPack) {
                        Pack.pack(cRingField, cRingBuf, o, gc, za, zb, b.y0(), b.y1(), b.x0(), b.x1());
                    } else {
                        Pack.unpack(cRingField, cRingBuf, o, gc, za, zb, b.y0(), b.y1(), b.x0(), b.x1());
                    }
                }
                off += (int) b.volume();
            }
        }
    }

    /**
     * Runs the adjoint of one shot's forward run for {@code res} (the residual, {@code (nt, nval)} flat as the record),
     * writes dJ/dwavelet per physical source into {@code wbar} ({@code (nsrc, nt)}) and leaves the node gradients in
     * {@link #gb} and {@link #gm} for {@link #addPhysicalGradient}.
     */
    void backward(Tape tape, float[] res, int nt, float[] wbar) {
        clear(vb);
        clear(sb);
        clear(psib);
        clear(gb);
        clear(gm);
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        if (bs) {
            System.arraycopy(tape.lastV, 0, rv, 0, rv.length);
            System.arraycopy(tape.lastS, 0, rs, 0, rs.length);
        }
        for (int t = nt - 1; t >= 0; t--) {
            if (bs) {
                rebuild(tape, t, nt);
                transposedStep(tape, res, t, nt, wbar, tvS, tsS);
            } else {
                transposedStep(tape, res, t, nt, wbar, tape.tv[t], tape.ts[t]);
            }
        }
        cTv = null;
        cTs = null;
    }

    /**
     * The transpose of forward step t on (v̄, σ̄, ψ̄), accumulating the node gradients with the step's terms
     * {@code tv}, {@code ts}: IS^T, E^T, S^T, record^T, IV^T, F^T, V^T. A null tape means no sources and receivers.
     */
    private void transposedStep(Tape tape, float[] res, int t, int nt, float[] wbar, float[] tv, float[] ts) {
        cTv = tv;
        cTs = ts;
        double cell = cellVolume();
        double dt = g.spec.dt();
        boolean explosive = tape != null && tape.type == ElasticSource.EXPLOSIVE;
        boolean force = tape != null && !explosive;
        // IS^T, E^T
        if (fs) {
            surface(surfaceStressAdjPass);
        }
        if (explosive) {
            for (int k = 0; k < tape.nsrc; k++) {
                double acc = 0;
                for (int c = 0; c < ndim; c++) {
                    acc += sb[tape.srcIdx[k * ndim + c]];
                }
                wbar[k * nt + t] = (float) (-dt / cell * acc);
            }
        }
        if (halo != null) {
            halo.exchange(ElasticHalo.Point.ADJOINT_STRESS, sb, ns);
        }
        // S^T (gather into v̄, moduli gradient), its image rows, then the strain memory variables
        backend.parallelFor(0, g.nz, stressAdjPass);
        if (fs) {
            surface(stressImagesPass);
        }
        backend.parallelFor(0, g.nz, stressPsiPass);
        // record^T, IV^T, F^T
        if (tape != null) {
            ElasticSources.sampleAdjoint(vb, sb, tape.recIdx, tape.kind, res, tape.recIdx.length, ndim, len, t);
        }
        if (fs) {
            surface(surfaceVelocityAdjPass);
        }
        if (force) {
            float[] b = fwd.b;
            for (int k = 0; k < tape.nsrc; k++) {
                int i = tape.srcIdx[k];
                wbar[k * nt + t] = (float) ((double) b[i] * vb[i] / cell);
            }
        }
        if (halo != null) {
            halo.exchange(ElasticHalo.Point.ADJOINT_VELOCITY, vb, nv);
        }
        // V^T (gather into σ̄, buoyancy gradient), its image rows, then the stress-derivative memory variables
        backend.parallelFor(0, g.nz, velocityAdjPass);
        if (fs) {
            surface(velocityImagesPass);
        }
        backend.parallelFor(0, g.nz, velocityPsiPass);
        cTv = null;
        cTs = null;
    }

    /**
     * Test hook: {@code n} transposed steps without sources or receivers on the adjoint fields as they are (set
     * through {@link #adjointFields()}), then the transpose of the free-surface rule that made the initial state's
     * images: the adjoint of the linear map of n homogeneous forward steps from a state whose images were set.
     */
    void transposeSteps(int n) {
        float[] tv = new float[nv * nc];
        float[] ts = new float[ns * nc];
        for (int t = n - 1; t >= 0; t--) {
            transposedStep(null, null, t, n, null, tv, ts);
        }
        if (fs) {
            surface(surfaceStressAdjPass);
        }
    }

    /**
     * The homogeneous step as the stages of {@link StepStages} (for the conformance kit): velocity (V, its CPML memory
     * variables included, then with a free surface the velocity images IV) and stress (S, then the surface rule IS),
     * each transposed by the passes {@link #transposedStep} runs for it (V's transpose gathers from image rows that
     * IV's transpose has just cleared, so the two are one stage). The state: every computational node of every
     * velocity and stress component and, with a free surface, the h image rows above z = 0 of those the surface stages
     * set (every velocity; the stresses with a z index), then every memory variable; velocities of magnitude
     * 1/{@code impedance}, stresses 1, memory variables as {@link #psiScale} says. Uses the forward stepper's and this
     * adjoint's arrays; valid until the solver's next run.
     */
    StepStages stepStages(double impedance) {
        ElasticStepper st = fwd;
        int zTop = fs ? -h : 0;
        int[] nodes = new int[(g.nz - zTop) * g.ny * g.nx];
        int n = 0;
        for (int z = zTop; z < g.nz; z++) {
            for (int y = 0; y < g.ny; y++) {
                for (int x = 0; x < g.nx; x++) {
                    nodes[n++] = g.compIndex(z, y, x);
                }
            }
        }
        int[] rows = Arrays.copyOfRange(nodes, (0 - zTop) * g.ny * g.nx, nodes.length);
        StateVector.Builder b = StateVector.builder();
        String[] vNames = ndim == 2 ? new String[] {"vx", "vz"} : new String[] {"vx", "vy", "vz"};
        for (int c = 0; c < nv; c++) {
            b.part(vNames[c], st.v, vb, shifted(nodes, c * len), 1 / impedance, false);
        }
        String[] sNames = ndim == 2 ? new String[] {"sxx", "szz", "sxz"}
                : new String[] {"sxx", "syy", "szz", "sxy", "sxz", "syz"};
        for (int c = 0; c < ns; c++) {
            // the surface rule sets the images of the stresses with a z index (the only ones a step reads)
            boolean imaged = sNames[c].indexOf('z') > 0;
            b.part(sNames[c], st.s, sb, shifted(imaged ? nodes : rows, c * len), 1, false);
        }
        int perAxis = ElasticLayout.psiPerAxis(ndim);
        int[] base = {geo[ElasticLayout.PSI_Z], geo[ElasticLayout.PSI_Y], geo[ElasticLayout.PSI_X]};
        int[] slab = {geo[ElasticLayout.SLAB_Z], geo[ElasticLayout.SLAB_Y], geo[ElasticLayout.SLAB_X]};
        String axes = "zyx";
        for (int a = 0; a < 3; a++) {
            for (int slot = 0; slot < perAxis && slab[a] > 0; slot++) {
                int[] e = new int[slab[a]];
                for (int i = 0; i < e.length; i++) {
                    e[i] = base[a] + slot * slab[a] + i;
                }
                b.part("memory " + axes.charAt(a) + slot, st.psi, psib, e, psiScale(slot, impedance), false);
            }
        }
        float[] tv = new float[nv * nc];
        float[] ts = new float[ns * nc];
        List<String> names = fs ? List.of("velocity (V, then the images IV)", "stress (S, then the surface rule IS)")
                : List.of("velocity (V)", "stress (S)");
        return StepStages.of(names, b.build(), stage -> {
            if (stage == 0) {
                st.velocityStep();
                st.surfaceVelocityStep();
            } else {
                st.stressStep();
                st.surfaceStressStep();
            }
        }, stage -> {
            cTv = tv;
            cTs = ts;
            if (stage == 0) {
                if (fs) {
                    surface(surfaceVelocityAdjPass);
                }
                backend.parallelFor(0, g.nz, velocityAdjPass);
                if (fs) {
                    surface(velocityImagesPass);
                }
                backend.parallelFor(0, g.nz, velocityPsiPass);
            } else {
                if (fs) {
                    surface(surfaceStressAdjPass);
                }
                backend.parallelFor(0, g.nz, stressAdjPass);
                if (fs) {
                    surface(stressImagesPass);
                }
                backend.parallelFor(0, g.nz, stressPsiPass);
            }
            cTv = null;
            cTs = null;
        });
    }

    /**
     * Typical magnitude of the memory variables of slot {@code slot}: slots below ndim hold stress derivatives
     * (about σ/dh, σ of magnitude 1), the others strain rates (about v/dh, v of magnitude 1/impedance).
     */
    private double psiScale(int slot, double impedance) {
        return slot < ndim ? 0.1 : 0.1 / impedance;
    }

    private static int[] shifted(int[] idx, int by) {
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i] + by;
        }
        return out;
    }

    /** The node gradients {dJ/d(dt/ρ), dJ/d(dt·moduli)} (live arrays, layouts of b and m): a device run fills them. */
    float[][] nodeGradients() {
        return new float[][] {gb, gm};
    }

    /**
     * dJ/dwavelet of a device run into {@code wbar} ({@code (nsrc, nt)}) from the adjoint values it gathered at the
     * injection entries ({@code entries[t·count + e]}: σ̄ after IS^T for explosive sources, v̄ before V^T for forces),
     * with {@link #transposedStep}'s expressions, in double.
     */
    void waveletGradient(Tape tape, float[] entries, int nt, float[] wbar) {
        double cell = cellVolume();
        double dt = g.spec.dt();
        int count = tape.srcIdx.length;
        boolean explosive = tape.type == ElasticSource.EXPLOSIVE;
        float[] b = fwd.b;
        for (int t = 0; t < nt; t++) {
            for (int k = 0; k < tape.nsrc; k++) {
                if (explosive) {
                    double acc = 0;
                    for (int c = 0; c < ndim; c++) {
                        acc += entries[t * count + k * ndim + c];
                    }
                    wbar[k * nt + t] = (float) (-dt / cell * acc);
                } else {
                    int i = tape.srcIdx[k];
                    wbar[k * nt + t] = (float) ((double) b[i] * entries[t * count + k] / cell);
                }
            }
        }
    }

    /** Test hook: the adjoint fields {v̄, σ̄, ψ̄} (live arrays). */
    float[][] adjointFields() {
        return new float[][] {vb, sb, psib};
    }

    /**
     * Boundary saving: from the state after step t in (rv, rs), forms the strain terms of step t (of v at (t+½)dt)
     * and rebuilds σ at t·dt, then the velocity terms (of σ at t·dt, plus the force samples) and rebuilds v at
     * (t−½)dt, each on the rebuilt box; the ring comes from the tape, the images from the free-surface rule, the cut
     * halos from the exchange hook. Step 0 ends in the zero state, set exactly.
     */
    private void rebuild(Tape tape, int t, int nt) {
        boolean explosive = tape.type == ElasticSource.EXPLOSIVE;
        int count = tape.srcIdx.length;
        if (explosive) {
            for (int e = count - 1; e >= 0; e--) {
                int i = tape.srcIdx[e];
                rs[i] = rs[i] - tape.samples[e * nt + t];
            }
        }
        backend.parallelFor(0, g.nz, rebuildStressPass);
        if (t == 0) {
            clear(rs);
        } else {
            ringCopy(rs, false, tape.rings[t - 1], false);
            if (fs) {
                surface(surfaceStressPass);
            }
            if (halo != null) {
                halo.exchange(ElasticHalo.Point.REBUILT_STRESS, rs, ns);
            }
        }
        if (!explosive) {
            Sources.uninject(rv, fwd.b, tape.srcIdx, tape.samples, count, nt, t);
        }
        backend.parallelFor(0, g.nz, rebuildVelocityPass);
        Sources.add(tvS, tape.termIdx, tape.termSamples, tape.termIdx.length, nt, t);
        if (t == 0) {
            clear(rv);
        } else {
            ringCopy(rv, true, tape.rings[t - 1], false);
            if (fs) {
                surface(surfaceVelocityPass);
            }
            if (halo != null) {
                halo.exchange(ElasticHalo.Point.REBUILT_VELOCITY, rv, nv);
            }
        }
        if (rebuildListener != null) {
            rebuildListener.snapshot(0, t, physical(rv, rs));
        }
    }

    private float[][] physical(float[] v, float[] s) {
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

    private void surface(JavaBackend.ChunkBody pass) {
        if (ndim == 2) {
            pass.run(0, 0, g.nx);
        } else {
            backend.parallelFor(0, g.ny, pass);
        }
    }

    private void clear(float[] a) {
        backend.parallelFor(0, a.length, (x, y) -> Arrays.fill(a, x, y, 0f));
    }

    private double cellVolume() {
        double cell = 1;
        for (double d : g.spec.dh()) {
            cell *= d;
        }
        return cell;
    }

    /**
     * Adds dJ/dvp, dJ/dvs, dJ/drho of the tile's physical cells, from the node gradients of the last
     * {@link #backward}, into {@code total} ({@code (3, tile cells)}). Each node's gradient goes to the cells its
     * parameter was formed from (the averaging rules of {@link ElasticStepper#setModel}, edge cells repeated: pad
     * nodes fold onto the edge cells), in double: buoyancy dt/ρ̄ with ρ̄ the mean of two cells gives each
     * −dt/(2ρ̄²); λ, λ+2μ at a normal node give the cell's λ and μ (through the surface moduli 2λμ/(λ+2μ) on a free
     * surface row); μ at a shear node, the harmonic mean μh of four cells, gives each μh²/(4μ²) (0 when any cell has
     * μ = 0: then μh stays 0 for any small change); then μ = ρvs², λ = ρvp² − 2μ. Every cell gathers from its nodes,
     * so the result does not depend on the thread count.
     */
    void addPhysicalGradient(float[] vp, float[] vs, float[] rho, float[] total) {
        addPhysicalGradient(vp, vs, rho, new CellWindow(new int[ndim], g.spec.shape()), total);
    }

    /**
     * As {@link #addPhysicalGradient(float[], float[], float[], float[])} with the model given over the window
     * {@code w} of the global model (the window the forward run's parameters were formed from).
     */
    void addPhysicalGradient(float[] vp, float[] vs, float[] rho, CellWindow w, float[] total) {
        window = w;
        if (halo != null) {
            halo.exchange(ElasticHalo.Point.NODE_GRADIENT, gb, nv);
            halo.exchange(ElasticHalo.Point.NODE_GRADIENT, gm, ElasticLayout.moduli(ndim));
        }
        backend.parallelFor(0, g.tz, (pz0, pz1) -> mapRows(vp, vs, rho, total, pz0, pz1));
    }

    /**
     * Per axis slot z, y, x: [computational n, physical tile size, pad p0, low edge?1:0, high edge?1:0, offset, global
     * size, window origin, window size].
     */
    private int[][] axes() {
        int[][] a = new int[3][];
        int[] n3 = {g.nz, g.ny, g.nx};
        int[] t3 = {g.tz, g.ty, g.tx};
        int[] p3 = {g.pz0, g.py0, g.px0};
        int[] shape = g.spec.shape();
        int[] gs = {shape[0], ndim == 3 ? shape[1] : 1, shape[ndim - 1]};
        for (int s = 0; s < 3; s++) {
            int[] ga = g.globalAxis(s);
            int off = ga[0] - ga[2]; // global physical index of computational 0
            int tileOff = off + p3[s];
            int wa = s == 0 ? 0 : s == 1 ? (ndim == 3 ? 1 : -1) : ndim - 1; // the window's axis of slot s
            int wo = wa < 0 ? 0 : window.origin()[wa];
            int wn = wa < 0 ? 1 : window.shape()[wa];
            a[s] = new int[] {n3[s], t3[s], p3[s], tileOff == 0 ? 1 : 0, tileOff + t3[s] == gs[s] ? 1 : 0, off, gs[s],
                wo, wn};
        }
        return a;
    }

    /** Computational nodes [lo, hi) along an axis whose cell at offset d (0 or 1) is physical index p of the tile. */
    private static int lo(int[] ax, int p, int d) {
        return p == 0 && ax[3] == 1 ? 0 : ax[2] + p - d;
    }

    private static int hi(int[] ax, int p, int d) {
        return p == ax[1] - 1 && ax[4] == 1 ? ax[0] : ax[2] + p - d + 1;
    }

    /** The window-relative cell index along an axis of computational index i: clamped to the model, then shifted. */
    private static int cellIdx(int[] ax, int i) {
        return Math.max(0, Math.min(ax[6] - 1, i + ax[5])) - ax[7];
    }

    private void mapRows(float[] vp, float[] vs, float[] rho, float[] total, int pz0, int pz1) {
        int[][] ax = axes();
        int[] az = ax[0];
        int[] ay = ax[1];
        int[] axx = ax[2];
        int gny = ay[8]; // window sizes: cell indices are window-relative
        int gnx = axx[8];
        double dt = g.spec.dt();
        int cells = g.tz * g.ty * g.tx;
        int ml = ElasticLayout.moduli(ndim);
        for (int pz = pz0; pz < pz1; pz++) {
            for (int py = 0; py < g.ty; py++) {
                for (int px = 0; px < g.tx; px++) {
                    int gz = cellIdx(az, az[2] + pz);
                    int gy = cellIdx(ay, ay[2] + py);
                    int gx = cellIdx(axx, axx[2] + px);
                    int gc = (gz * gny + gy) * gnx + gx;
                    double r = rho[gc];
                    double p = vp[gc];
                    double s = vs[gc];
                    double mu = r * s * s;
                    double l2m = r * p * p;
                    double lam = l2m - 2 * mu;
                    double aLam = 0;
                    double aMu = 0;
                    double aRho = 0;
                    // normal nodes (offset 0 on every axis)
                    for (int z = lo(az, pz, 0); z < hi(az, pz, 0); z++) {
                        boolean surface = fs && z == 0;
                        for (int y = lo(ay, py, 0); y < hi(ay, py, 0); y++) {
                            for (int x = lo(axx, px, 0); x < hi(axx, px, 0); x++) {
                                int i = g.compIndex(z, y, x);
                                double gl = gm[i];
                                double g2 = gm[len + i];
                                if (surface) {
                                    double q = (gl + g2) / (l2m * l2m);
                                    aLam += q * 4 * mu * mu;
                                    aMu += q * 2 * lam * lam + 2 * g2;
                                } else {
                                    aLam += gl + g2;
                                    aMu += 2 * g2;
                                }
                            }
                        }
                    }
                    // velocity nodes: component c along axis slot a, cells at offsets 0 and 1 along a
                    for (int c = 0; c < nv; c++) {
                        int a = c == nv - 1 ? 0 : c == 0 ? 2 : 1;
                        for (int d = 0; d <= 1; d++) {
                            int[] dz = {a == 0 ? d : 0, a == 1 ? d : 0, a == 2 ? d : 0};
                            for (int z = lo(az, pz, dz[0]); z < hi(az, pz, dz[0]); z++) {
                                for (int y = lo(ay, py, dz[1]); y < hi(ay, py, dz[1]); y++) {
                                    for (int x = lo(axx, px, dz[2]); x < hi(axx, px, dz[2]); x++) {
                                        double gv = gb[c * len + g.compIndex(z, y, x)];
                                        if (gv == 0) {
                                            continue;
                                        }
                                        int c1 = (cellIdx(az, z) * gny + cellIdx(ay, y)) * gnx + cellIdx(axx, x);
                                        int z2 = cellIdx(az, z + (a == 0 ? 1 : 0));
                                        int y2 = cellIdx(ay, y + (a == 1 ? 1 : 0));
                                        int c2 = (z2 * gny + y2) * gnx + cellIdx(axx, x + (a == 2 ? 1 : 0));
                                        double rm = ((double) rho[c1] + rho[c2]) / 2;
                                        aRho += gv * (-0.5 / (rm * rm));
                                    }
                                }
                            }
                        }
                    }
                    // shear nodes: slot 2.. of m, in the plane of two axes, cells at offsets 0 and 1 along both
                    if (mu > 0) {
                        for (int k = 2; k < ml; k++) {
                            int a1;
                            int a2;
                            if (ndim == 2) {
                                a1 = 2;
                                a2 = 0;
                            } else {
                                a1 = k == 2 ? 2 : k == 3 ? 2 : 1;
                                a2 = k == 2 ? 1 : 0;
                            }
                            for (int d1 = 0; d1 <= 1; d1++) {
                                for (int d2 = 0; d2 <= 1; d2++) {
                                    int[] dd = new int[3];
                                    dd[a1] = d1;
                                    dd[a2] = d2;
                                    for (int z = lo(az, pz, dd[0]); z < hi(az, pz, dd[0]); z++) {
                                        for (int y = lo(ay, py, dd[1]); y < hi(ay, py, dd[1]); y++) {
                                            for (int x = lo(axx, px, dd[2]); x < hi(axx, px, dd[2]); x++) {
                                                double gs = gm[k * len + g.compIndex(z, y, x)];
                                                if (gs == 0) {
                                                    continue;
                                                }
                                                double muh = shearModulus(vs, rho, az, ay, axx, gny, gnx, z, y, x,
                                                        a1, a2);
                                                if (muh > 0) {
                                                    aMu += gs * muh * muh / (4 * mu * mu);
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    aLam *= dt;
                    aMu *= dt;
                    aRho *= dt;
                    int o = (pz * g.ty + py) * g.tx + px;
                    total[o] += (float) (2 * r * p * aLam);
                    total[cells + o] += (float) (2 * r * s * (aMu - 2 * aLam));
                    total[2 * cells + o] += (float) (aLam * (p * p - 2 * s * s) + aMu * s * s + aRho);
                }
            }
        }
    }

    /** The harmonic mean of the four cells around shear node (z, y, x) in the plane of axes a1, a2 (as setModel). */
    private double shearModulus(float[] vs, float[] rho, int[] az, int[] ay, int[] axx, int gny, int gnx, int z, int y,
                                int x, int a1, int a2) {
        double[] mus = new double[4];
        int n = 0;
        for (int d1 = 0; d1 <= 1; d1++) {
            for (int d2 = 0; d2 <= 1; d2++) {
                int[] dd = new int[3];
                dd[a1] = d1;
                dd[a2] = d2;
                int c = (cellIdx(az, z + dd[0]) * gny + cellIdx(ay, y + dd[1])) * gnx + cellIdx(axx, x + dd[2]);
                mus[n++] = (double) rho[c] * vs[c] * vs[c];
            }
        }
        return ElasticStepper.harmonic(mus[0], mus[1], mus[2], mus[3]);
    }
}
