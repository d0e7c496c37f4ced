package sweep.acoustic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import sweep.backend.JavaBackend;
import sweep.core.Box;
import sweep.kernels.Layout;
import sweep.kernels.Sources;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.PropSpec;

/**
 * One time step of the acoustic leapfrog on the Java backend: the CPML auxiliary pass, the update pass (PML slabs and
 * the branch-free interior box), source injection and the free-surface mirror, each pass split by depth rows over
 * the backend's threads, each pass a loop over boxes calling the solver's {@link AcousticKernelSet} (Vector API or
 * portable, per {@link AcousticKernelSet#forJavaBackend}; bit-identical). Holds the wavefield, model and CPML arrays of
 * one grid.
 */
final class AcousticStepper {
    private final Grid g;
    private final JavaBackend backend;
    private final List<Box> pmlBoxes;
    private final Box interior;
    final float[] v2;
    /** Current time level u^n. */
    float[] u;
    /** Previous level u^{n-1}; becomes u^{n+1} during a step. */
    float[] un;
    final float[] psi;
    final float[] zeta;
    float[] prof;
    /** The kernel set: Vector API or portable, for this grid's dimension (same bits either way). */
    private final AcousticKernelSet kernels;
    /** Per-thread scratch rows of the CPU kernels, indexed by chunk. */
    private final float[][] scratch;
    // Loop bodies built once, so that a step allocates nothing.
    private final JavaBackend.ChunkBody psiPass;
    private final JavaBackend.ChunkBody updatePass;
    /**
     * Vector API kernels: the rows outside the z and y bands go whole through {@link AcousticKernelSet#innerRows}
     * (x-band psi and update fused with the interior of the row), the psi and update
     * passes then cover only the z and y slabs ({@code zyBoxes}); null otherwise.
     */
    private final Box rowsBox;
    private final List<Box> zyBoxes;
    private final JavaBackend.ChunkBody psiPassStep;
    /** psi pass of {@link #step}: {@link #psiPassStep} less the z slabs whose psi runs inside the update pass. */
    private final JavaBackend.ChunkBody psiPassSerial;
    private final List<Box> pmlAll;
    private final List<Box> innerAll;
    /** Overlap: the update split into the cut strips (sent to neighbours) and the rest; built on first use. */
    private Overlap overlap;
    private final JavaBackend.ChunkBody mirrorPass = (c, y0, y1) -> mirrorRows(y0, y1);
    private final JavaBackend.ChunkBody pmlUpdatePass;
    /** The scattered field and δ(v²dt²) of the running {@link #bornInterior}, read by {@link #bornPass}. */
    private AcousticStepper bornScattered;
    private float[] bornDv2;
    /** Per-thread rows of {@link AcousticKernelSet#bornInterior}'s scratch, made by the first Born step. */
    private float[][] bornScratch;
    private final JavaBackend.ChunkBody bornPass = this::bornRows;
    /** The secondary source of {@link #stepScattered}, read by {@link #addPass}. */
    private float[] addDv2;
    private float[] addTerm;
    private final JavaBackend.ChunkBody addPass = (c, a, b) -> {
        for (int i = a; i < b; i++) {
            un[i] += addDv2[i] * addTerm[i];
        }
    };
    /** The level {@link #mirror} works on, read by its loop body. */
    private float[] mirrorLevel;

    AcousticStepper(Grid g, JavaBackend backend) {
        this(g, backend, new float[g.length()]);
    }

    /**
     * A stepper of {@code g} that reads its v²dt² from {@code v2} (a grid-sized array another stepper of the same grid
     * fills: the scattered field of a Born run shares the background's).
     */
    AcousticStepper(Grid g, JavaBackend backend, float[] v2) {
        this.g = g;
        this.backend = backend;
        int len = g.length();
        this.pmlBoxes = g.view().pmlBoxes();
        this.interior = g.view().interiorBox();
        this.pmlAll = pmlBoxes;
        this.psiPass = (c, r0, r1) -> psiRows(c, r0, r1, pmlAll);
        this.innerAll = interior == null ? List.of() : List.of(interior);
        kernels = AcousticKernelSet.forJavaBackend(g.ndim);
        Box rb = null;
        List<Box> zy = pmlBoxes;
        int[] gg = g.geo;
        int zbl = gg[Layout.ZBL], zbh = gg[Layout.ZBH];
        int ybl = gg[Layout.YBL], ybh = gg[Layout.YBH];
        if (kernels.vector() && zbl < zbh && ybl < ybh && !pmlBoxes.isEmpty()) {
            // 3-D: the y slabs between the z slabs go through the row passes too, plane by plane (their psi and update
            // then run there instead of in two passes over the whole grid)
            int ya = g.ndim == 3 ? 0 : ybl;
            int ye = g.ndim == 3 ? g.ny : ybh;
            rb = new Box(zbl, zbh, ya, ye, 0, g.nx);
            zy = new ArrayList<>();
            for (Box b : pmlBoxes) {
                if (!(b.z0() >= zbl && b.z1() <= zbh && b.y0() >= ya && b.y1() <= ye)) {
                    zy.add(b);
                }
            }
        }
        this.rowsBox = rb;
        this.zyBoxes = zy;
        final List<Box> zyf = zy;
        this.psiPassStep = rb == null ? psiPass : (c, r0, r1) -> psiRows(c, r0, r1, zyf);
        this.psiPassSerial = rb == null ? psiPass : (c, r0, r1) -> psiRowsNotLagged(c, r0, r1);
        this.updatePass = rb == null ? (c, r0, r1) -> updateRows(c, r0, r1, pmlAll, innerAll)
                : (c, r0, r1) -> updateRowsFused(c, r0, r1);
        this.pmlUpdatePass = (c, r0, r1) -> updateRows(c, r0, r1, pmlAll, List.of());
        this.v2 = v2;
        u = new float[len];
        un = new float[len];
        psi = g.hasPml() ? new float[g.auxLength()] : new float[0];
        zeta = g.hasPml() ? new float[g.auxLength()] : new float[0];
        scratch = new float[backend.threads()][kernels.forwardScratch(g.geo)];
    }

    /** The kernel set this stepper runs (the adjoint runs the same). */
    AcousticKernelSet kernels() {
        return kernels;
    }

    /** Bytes held by the arrays of this stepper. */
    long bytes() {
        long n = v2.length + u.length + un.length + psi.length + zeta.length + (prof == null ? 0 : prof.length);
        for (float[] row : scratch) {
            n += row.length;
        }
        return 4L * n;
    }

    void setProfiles(float[] prof) {
        this.prof = prof;
    }

    /**
     * Zeroes the wavefields and the CPML auxiliaries for a new shot, in parallel; of psi and zeta only the band cells,
     * the only cells the kernels write.
     */
    void reset() {
        backend.parallelFor(0, u.length, (a, b) -> {
            Arrays.fill(u, a, b, 0f);
            Arrays.fill(un, a, b, 0f);
        });
        backend.parallelFor(0, g.nz, (z0, z1) -> {
            g.clearBandCells(psi, z0, z1);
            g.clearBandCells(zeta, z0, z1);
        });
    }

    /** Advances u^n → u^{n+1}, injecting {@code wavelet[s·nt + n]} at each source. */
    void step(int n, int[] srcIdx, float[] wavelet, int nsrc, int nt) {
        update();
        endStep(n, srcIdx, wavelet, nsrc, nt, v2);
    }

    /**
     * The end of a step whose update has run: injects {@code scale[i]·wavelet[s·nt + n]} at each source cell i
     * ({@code scale} v²dt², or δ(v²dt²) for a Born run's scattered field), applies the free-surface mirror and makes
     * the new level current.
     */
    void endStep(int n, int[] srcIdx, float[] wavelet, int nsrc, int nt, float[] scale) {
        final float[] nu = un;
        if (nsrc > 0) {
            Sources.inject(nu, scale, srcIdx, wavelet, nsrc, nt, n);
        }
        if (g.spec.freeSurface()) {
            mirror(nu);
        }
        un = u;
        u = nu;
    }

    /** The update of {@link #step} on the PML boxes alone (psi, then the update), the interior box left as it is. */
    void updatePml() {
        if (!pmlBoxes.isEmpty()) {
            backend.parallelFor(0, g.nz, psiPass);
            backend.parallelFor(0, g.nz, pmlUpdatePass);
        }
    }

    /**
     * The interior box's update of a Born step, this stepper the background and {@code sc} the scattered field: both
     * fields in one pass ({@link AcousticKernelSet#bornInterior}), {@code dv2} the perturbation of v²dt².
     */
    void bornInterior(AcousticStepper sc, float[] dv2) {
        if (interior == null) {
            return;
        }
        bornScattered = sc;
        bornDv2 = dv2;
        if (bornScratch == null) {
            bornScratch = new float[backend.threads()][g.nx];
        }
        backend.parallelFor(0, g.nz, bornPass);
        bornScattered = null;
        bornDv2 = null;
    }

    /**
     * Advances a scattered field by one step of the linearised (Born) leapfrog: the update of {@link #step} plus the
     * secondary source {@code dv2·term} at every cell ({@code term} the background step's Laplacian-plus-source term,
     * {@code dv2} the perturbation of v²dt²), then the free-surface mirror.
     */
    void stepScattered(float[] dv2, float[] term) {
        update();
        final float[] nu = un;
        addDv2 = dv2;
        addTerm = term;
        backend.parallelFor(0, nu.length, addPass);
        addDv2 = null;
        addTerm = null;
        if (g.spec.freeSurface()) {
            mirror(nu);
        }
        un = u;
        u = nu;
    }

    /** The update of {@link #step} without its sources and mirror: u^{n+1} into {@link #un}, CPML included. */
    void update() {
        if (!pmlBoxes.isEmpty()) {
            backend.parallelFor(0, g.nz, psiPassSerial);
        }
        backend.parallelFor(0, g.nz, updatePass);
    }

    /** The free-surface mirror of {@link #step} on the level {@code level}. */
    void mirror(float[] level) {
        mirrorLevel = level;
        backend.parallelFor(0, g.ny, mirrorPass);
        mirrorLevel = null;
    }

    /** Whether {@link #stepOverlapped} can split this grid for {@code halo} (it reports its cut sides). */
    boolean canOverlap(HaloHook halo) {
        return halo.cutSides() != null;
    }

    /**
     * The same step as {@link #step} followed by a halo exchange, with communication hidden behind computation:
     * the cells of the cut strips are updated (and their sources and free-surface columns applied) first, the
     * exchange starts, the rest of the grid is updated, then the exchange completes. Every cell sees the same
     * operations in the same order as in the serial path, so the bits are the same.
     */
    void stepOverlapped(int n, int[] srcIdx, float[] wavelet, int nsrc, int nt, HaloHook halo) {
        if (overlap == null) {
            overlap = new Overlap(halo.cutSides());
        }
        Overlap o = overlap;
        if (!pmlBoxes.isEmpty()) {
            backend.parallelFor(0, g.nz, psiPassStep);
        }
        final float[] nu = un;
        backend.parallelFor(0, g.nz, o.updateStrip);
        o.inject(nu, srcIdx, wavelet, nsrc, nt, n, true);
        o.mirror(nu, true);
        halo.begin(nu);
        backend.parallelFor(0, g.nz, o.updateRest);
        o.inject(nu, srcIdx, wavelet, nsrc, nt, n, false);
        o.mirror(nu, false);
        halo.end();
        un = u;
        u = nu;
    }

    /** The strip/rest split of the update, the sources and the free-surface columns for one set of cut sides. */
    private final class Overlap {
        final boolean[] cut;
        final List<Box> pmlStrip = new ArrayList<>();
        final List<Box> pmlRest = new ArrayList<>();
        final List<Box> innerStrip = new ArrayList<>();
        final List<Box> innerRest = new ArrayList<>();
        final List<Box> columnsStrip = new ArrayList<>();
        final List<Box> columnsRest = new ArrayList<>();
        final JavaBackend.ChunkBody updateStrip;
        final JavaBackend.ChunkBody updateRest;
        private int[] cachedSrc;
        private boolean[] srcInStrip;

        /** With the fused row passes ({@code rowsBox}): its pieces in and out of the cut strips. */
        final List<Box> rowsStrip = new ArrayList<>();
        final List<Box> rowsRest = new ArrayList<>();

        Overlap(boolean[] cut) {
            this.cut = cut.clone();
            split(List.of(new Box(0, 1, 0, g.ny, 0, g.nx)), columnsStrip, columnsRest);
            if (rowsBox == null) {
                split(pmlBoxes, pmlStrip, pmlRest);
                split(innerAll, innerStrip, innerRest);
            } else {
                // as the serial step: the z and y slabs through the PML kernels, the rows between them fused (x-band
                // psi and update with the interior), each cut into its strip and rest pieces
                split(zyBoxes, pmlStrip, pmlRest);
                split(List.of(rowsBox), rowsStrip, rowsRest);
            }
            updateStrip = (c, r0, r1) -> update(c, r0, r1, pmlStrip, innerStrip, rowsStrip);
            updateRest = (c, r0, r1) -> update(c, r0, r1, pmlRest, innerRest, rowsRest);
        }

        private void update(int chunk, int r0, int r1, List<Box> pml, List<Box> inner, List<Box> rows) {
            updateRows(chunk, r0, r1, pml, inner);
            for (Box b : rows) {
                int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
                if (z0 < z1) {
                    kernels.innerRows(u, un, v2, psi, zeta, prof, g.coef, g.geo, z0, z1, b, scratch[chunk]);
                }
            }
        }

        /** Cuts each box at the strip limits along y and x; a piece is a strip piece when it lies in a cut strip. */
        private void split(List<Box> boxes, List<Box> strip, List<Box> rest) {
            int h = g.h;
            for (Box b : boxes) {
                int[] ys = limits(b.y0(), b.y1(), g.ny, h, cut[2], cut[3]);
                int[] xs = limits(b.x0(), b.x1(), g.nx, h, cut[4], cut[5]);
                for (int iy = 0; iy + 1 < ys.length; iy++) {
                    for (int ix = 0; ix + 1 < xs.length; ix++) {
                        Box p = new Box(b.z0(), b.z1(), ys[iy], ys[iy + 1], xs[ix], xs[ix + 1]);
                        boolean s = inStrip(p.y0(), g.ny, h, cut[2], cut[3]) || inStrip(p.x0(), g.nx, h, cut[4],
                                cut[5]);
                        (s ? strip : rest).add(p);
                    }
                }
            }
        }

        private int[] limits(int lo, int hi, int n, int h, boolean cutLo, boolean cutHi) {
            TreeSet<Integer> t = new TreeSet<>(List.of(lo, hi));
            if (cutLo && h > lo && h < hi) {
                t.add(h);
            }
            if (cutHi && n - h > lo && n - h < hi) {
                t.add(n - h);
            }
            return t.stream().mapToInt(Integer::intValue).toArray();
        }

        private boolean inStrip(int c, int n, int h, boolean cutLo, boolean cutHi) {
            return (cutLo && c < h) || (cutHi && c >= n - h);
        }

        /** Injects, in list order, the sources whose cell lies (or does not lie) in a cut strip. */
        void inject(float[] nu, int[] srcIdx, float[] wavelet, int nsrc, int nt, int n, boolean strips) {
            if (srcIdx != cachedSrc) {
                srcInStrip = new boolean[nsrc];
                int sz = g.geo[Layout.SZ];
                int sy = g.geo[Layout.SY];
                for (int s = 0; s < nsrc; s++) {
                    int rem = (srcIdx[s] - g.geo[Layout.OFF0]) % sz; // the cell's offset within its plane (2-D: row)
                    int y = g.ndim == 3 ? rem / sy : 0;
                    int x = g.ndim == 3 ? rem % sy : rem;
                    srcInStrip[s] = inStrip(y, g.ny, g.h, cut[2], cut[3]) || inStrip(x, g.nx, g.h, cut[4], cut[5]);
                }
                cachedSrc = srcIdx;
            }
            for (int s = 0; s < nsrc; s++) {
                if (srcInStrip[s] == strips) {
                    int i = srcIdx[s];
                    nu[i] = nu[i] + v2[i] * wavelet[s * nt + n];
                }
            }
        }

        void mirror(float[] nu, boolean strips) {
            if (!g.spec.freeSurface()) {
                return;
            }
            for (Box c : strips ? columnsStrip : columnsRest) {
                kernels.mirrorTop(nu, g.geo, c.y0(), c.y1(), c.x0(), c.x1());
            }
        }
    }

    /** Rows [r0, r1) of the interior box through {@link AcousticKernelSet#bornInterior}, on chunk c's Born scratch. */
    private void bornRows(int c, int r0, int r1) {
        int z0 = Math.max(interior.z0(), r0);
        int z1 = Math.min(interior.z1(), r1);
        if (z0 < z1) {
            kernels.bornInterior(u, un, bornScattered.u, bornScattered.un, v2, bornDv2, g.coef, g.geo, z0, z1,
                    interior, bornScratch[c]);
        }
    }

    /** Free-surface mirror of {@link #mirrorLevel} over rows y in [y0, y1). */
    private void mirrorRows(int y0, int y1) {
        kernels.mirrorTop(mirrorLevel, g.geo, y0, y1, 0, g.nx);
    }

    /** CPML auxiliary pass over depth rows [r0, r1) of the given PML boxes. */
    private void psiRows(int chunk, int r0, int r1, List<Box> boxes) {
        final float[] cu = u;
        for (Box b : boxes) {
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.psi(cu, psi, prof, g.coef, g.geo, z0, z1, b, scratch[chunk]);
            }
        }
    }

    /**
     * Whether the psi of box {@code b} runs inside the update pass of chunk [r0, r1) ({@link #updateLagged}): b lies in
     * a z band (its psi is read only by its own updates: the y- and x-band psi of a plane by that plane, the z-band psi
     * by the band's planes) and wholly in the chunk (no other thread reads it).
     */
    private boolean lagged(Box b, int r0, int r1) {
        return (b.z1() <= g.geo[Layout.ZBL] || b.z0() >= g.geo[Layout.ZBH]) && b.z0() >= r0 && b.z1() <= r1;
    }

    /** psi pass of {@link #step} with {@link #rowsBox}: the z and y slabs whose psi does not run in the update. */
    private void psiRowsNotLagged(int chunk, int r0, int r1) {
        final float[] cu = u;
        for (Box b : zyBoxes) {
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1 && !lagged(b, r0, r1)) {
                kernels.psi(cu, psi, prof, g.coef, g.geo, z0, z1, b, scratch[chunk]);
            }
        }
    }

    /**
     * psi and update of a z slab plane by plane, the psi h planes ahead: plane z is updated once the psi of planes up
     * to z + h (within the slab; beyond it the z-band psi stays zero) is done, so each cell reads the same psi as after
     * a separate psi pass (same bits) while the planes just computed are still in cache.
     */
    private void updateLagged(int chunk, Box b) {
        final float[] cu = u;
        final float[] nu = un;
        int h = g.h;
        int ahead = b.z0();
        for (int z = b.z0(); z < b.z1(); z++) {
            int want = Math.min(b.z1(), z + h + 1);
            if (ahead < want) {
                kernels.psi(cu, psi, prof, g.coef, g.geo, ahead, want, b, scratch[chunk]);
                ahead = want;
            }
            kernels.pml(cu, nu, v2, psi, zeta, prof, g.coef, g.geo, z, z + 1, b, scratch[chunk]);
        }
    }

    /** Update pass of {@link #step} with {@link #rowsBox}: the z and y slabs, then the rows outside those bands. */
    private void updateRowsFused(int chunk, int r0, int r1) {
        final float[] cu = u;
        final float[] nu = un;
        for (Box b : zyBoxes) {
            if (lagged(b, r0, r1)) {
                updateLagged(chunk, b);
                continue;
            }
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.pml(cu, nu, v2, psi, zeta, prof, g.coef, g.geo, z0, z1, b, scratch[chunk]);
            }
        }
        Box b = rowsBox;
        int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
        if (z0 < z1) {
            kernels.innerRows(u, un, v2, psi, zeta, prof, g.coef, g.geo, z0, z1, b, scratch[chunk]);
        }
    }

    /** Update pass over depth rows [r0, r1) of the given PML boxes, then of the given interior boxes. */
    private void updateRows(int chunk, int r0, int r1, List<Box> pmlList, List<Box> innerList) {
        final float[] cu = u;
        final float[] nu = un;
        final int[] geo = g.geo;
        final float[] coef = g.coef;
        for (Box b : pmlList) {
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b, scratch[chunk]);
            }
        }
        for (Box b : innerList) {
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.interior(cu, nu, v2, coef, geo, z0, z1, b, scratch[chunk]);
            }
        }
    }

    /** Throws when the current wavefield holds NaN or Inf. */
    void checkFinite(int step, int shot) {
        final float[] cu = u;
        backend.parallelFor(0, cu.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                if (!Float.isFinite(cu[i])) {
                    throw new IllegalStateException("wavefield of shot " + shot
                            + " became non-finite (NaN/Inf) by step "
                            + step + ": the run is unstable; lower dt (largest stable: "
                            + PropSpec.roundedDown(g.spec.maxStableDt(maxOf(v2, g.spec.dt())))
                                    + " s) or check the model"
                            + " and wavelet for extreme values");
                }
            }
        });
    }

    private static double maxOf(float[] v2, double dt) {
        float m = 0;
        for (float v : v2) {
            m = Math.max(m, v);
        }
        return Math.sqrt(m) / dt;
    }

    /** Copies the tile-physical region of the current wavefield. */
    float[] physicalCopy() {
        return physicalCopy(u);
    }

    /** Copies the tile-physical region of a wavefield array of this grid. */
    float[] physicalCopy(float[] u) {
        float[] out = new float[g.tz * g.ty * g.tx];
        int k = 0;
        for (int z = 0; z < g.tz; z++) {
            for (int y = 0; y < g.ty; y++) {
                int i = g.index(z, y, 0);
                System.arraycopy(u, i, out, k, g.tx);
                k += g.tx;
            }
        }
        return out;
    }
}
