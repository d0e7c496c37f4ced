package sweep.prop;

import java.util.List;
import sweep.backend.CpuKernels;
import sweep.backend.CpuAcoustic2D;
import sweep.backend.CpuAcoustic3D;
import sweep.backend.JavaBackend;
import sweep.core.Box;
import sweep.kernels.Acoustic2D;
import sweep.kernels.Acoustic3D;
import sweep.kernels.Sources;

/**
 * One time step of the acoustic leapfrog on the Java backend: the CPML auxiliary pass, the update pass (PML slabs and
 * the branch-free interior box), source injection and the free-surface mirror, each pass split by depth rows over
 * the backend's threads. Runs the CPU-specialised kernels when {@link CpuKernels#useCpuKernels()} says so, else the
 * portable ones (bit-identical). Holds the wavefield, model and CPML arrays of one grid.
 */
final class JavaStepper {
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
    /** Whether the CPU-specialised kernels run instead of the portable ones (same bits either way). */
    private final boolean cpu;
    /** Per-thread scratch rows of the CPU kernels, indexed by chunk. */
    private final float[][] scratch;
    // Loop bodies built once, so that a step allocates nothing.
    private final JavaBackend.ChunkBody psiPass;
    private final JavaBackend.ChunkBody updatePass;
    /**
     * CPU kernels: the rows outside the z and y bands go whole through {@link CpuAcoustic3D#innerRows} or
     * {@link CpuAcoustic2D#innerRows} (x-band psi and update fused with the interior of the row), the psi and update
     * passes then cover only the z and y slabs ({@code zyBoxes}); null otherwise.
     */
    private final Box rowsBox;
    private final List<Box> zyBoxes;
    private final JavaBackend.ChunkBody psiPassStep;
    private final List<Box> pmlAll;
    private final List<Box> innerAll;
    /** Overlap: the update split into the cut strips (sent to neighbours) and the rest; built on first use. */
    private Overlap overlap;
    private final JavaBackend.ChunkBody mirrorPass = (c, y0, y1) -> mirrorRows(y0, y1);

    JavaStepper(Grid g, JavaBackend backend) {
        this.g = g;
        this.backend = backend;
        int len = g.length();
        this.pmlBoxes = g.view().pmlBoxes();
        this.interior = g.view().interiorBox();
        this.pmlAll = pmlBoxes;
        this.psiPass = (c, r0, r1) -> psiRows(r0, r1, pmlAll);
        this.innerAll = interior == null ? List.of() : List.of(interior);
        cpu = CpuKernels.useCpuKernels();
        Box rb = null;
        List<Box> zy = pmlBoxes;
        int[] gg = g.geo;
        int zbl = gg[sweep.kernels.Layout.ZBL], zbh = gg[sweep.kernels.Layout.ZBH];
        int ybl = gg[sweep.kernels.Layout.YBL], ybh = gg[sweep.kernels.Layout.YBH];
        if (cpu && zbl < zbh && ybl < ybh && !pmlBoxes.isEmpty()) {
            rb = new Box(zbl, zbh, ybl, ybh, 0, g.nx);
            zy = new java.util.ArrayList<>();
            for (Box b : pmlBoxes) {
                if (!(b.z0() >= zbl && b.z1() <= zbh && b.y0() >= ybl && b.y1() <= ybh)) {
                    zy.add(b);
                }
            }
        }
        this.rowsBox = rb;
        this.zyBoxes = zy;
        final List<Box> zyf = zy;
        this.psiPassStep = rb == null ? psiPass : (c, r0, r1) -> psiRows(r0, r1, zyf);
        this.updatePass = rb == null ? (c, r0, r1) -> updateRows(c, r0, r1, pmlAll, innerAll)
                : (c, r0, r1) -> updateRowsFused(c, r0, r1);
        v2 = new float[len];
        u = new float[len];
        un = new float[len];
        int slots = g.ndim;
        psi = g.hasPml() ? new float[slots * len] : new float[0];
        zeta = g.hasPml() ? new float[slots * len] : new float[0];
        scratch = new float[backend.threads()][!cpu ? 0 : g.ndim == 3 ? CpuAcoustic3D.scratchSize(g.geo)
                : CpuAcoustic2D.scratchSize()];
    }

    /** Whether this stepper runs the CPU-specialised kernels. */
    boolean cpuKernels() {
        return cpu;
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
     * Zeroes the wavefields and the CPML auxiliaries for a new shot, in parallel; of psi and zeta only the band cells
     * of each axis slot, the only cells the kernels write.
     */
    void reset() {
        backend.parallelFor(0, u.length, (a, b) -> {
            java.util.Arrays.fill(u, a, b, 0f);
            java.util.Arrays.fill(un, a, b, 0f);
        });
        backend.parallelFor(0, g.nz, (z0, z1) -> {
            g.clearBandSlots(psi, z0, z1);
            g.clearBandSlots(zeta, z0, z1);
        });
    }

    /** Advances u^n → u^{n+1}, injecting {@code wavelet[s·nt + n]} at each source. */
    void step(int n, int[] srcIdx, float[] wavelet, int nsrc, int nt) {
        if (!pmlBoxes.isEmpty()) {
            backend.parallelFor(0, g.nz, psiPassStep);
        }
        backend.parallelFor(0, g.nz, updatePass);
        final float[] nu = un;
        if (nsrc > 0) {
            Sources.inject(nu, v2, srcIdx, wavelet, nsrc, nt, n);
        }
        if (g.spec.freeSurface()) {
            if (g.ndim == 2) {
                Acoustic2D.mirrorTop(nu, g.geo, 0, g.nx);
            } else {
                backend.parallelFor(0, g.ny, mirrorPass);
            }
        }
        un = u;
        u = nu;
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
            backend.parallelFor(0, g.nz, psiPass);
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
        final List<Box> pmlStrip = new java.util.ArrayList<>();
        final List<Box> pmlRest = new java.util.ArrayList<>();
        final List<Box> innerStrip = new java.util.ArrayList<>();
        final List<Box> innerRest = new java.util.ArrayList<>();
        final List<Box> columnsStrip = new java.util.ArrayList<>();
        final List<Box> columnsRest = new java.util.ArrayList<>();
        final JavaBackend.ChunkBody updateStrip;
        final JavaBackend.ChunkBody updateRest;
        private int[] cachedSrc;
        private boolean[] srcInStrip;

        Overlap(boolean[] cut) {
            this.cut = cut.clone();
            split(pmlBoxes, pmlStrip, pmlRest);
            split(innerAll, innerStrip, innerRest);
            split(List.of(new Box(0, 1, 0, g.ny, 0, g.nx)), columnsStrip, columnsRest);
            updateStrip = (c, r0, r1) -> updateRows(c, r0, r1, pmlStrip, innerStrip);
            updateRest = (c, r0, r1) -> updateRows(c, r0, r1, pmlRest, innerRest);
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
                        boolean s = inStrip(p.y0(), g.ny, h, cut[2], cut[3]) || inStrip(p.x0(), g.nx, h, cut[4], cut[5]);
                        (s ? strip : rest).add(p);
                    }
                }
            }
        }

        private int[] limits(int lo, int hi, int n, int h, boolean cutLo, boolean cutHi) {
            java.util.TreeSet<Integer> t = new java.util.TreeSet<>(List.of(lo, hi));
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
                int sz = g.geo[sweep.kernels.Layout.SZ];
                int sy = g.geo[sweep.kernels.Layout.SY];
                for (int s = 0; s < nsrc; s++) {
                    int rem = srcIdx[s] % sz;
                    int y = g.ndim == 3 ? rem / sy - g.h : 0;
                    int x = (g.ndim == 3 ? rem % sy : rem) - g.h;
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
                if (g.ndim == 2) {
                    Acoustic2D.mirrorTop(nu, g.geo, c.x0(), c.x1());
                } else {
                    Acoustic3D.mirrorTop(nu, g.geo, c.y0(), c.y1(), c.x0(), c.x1());
                }
            }
        }
    }

    /** 3-D free-surface mirror of the new level over rows y in [y0, y1). */
    private void mirrorRows(int y0, int y1) {
        Acoustic3D.mirrorTop(un, g.geo, y0, y1, 0, g.nx);
    }

    /** CPML auxiliary pass over depth rows [r0, r1) of the given PML boxes. */
    private void psiRows(int r0, int r1, List<Box> boxes) {
        final float[] cu = u;
        final int[] geo = g.geo;
        final float[] coef = g.coef;
        for (Box b : boxes) {
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                if (g.ndim == 2) {
                    if (cpu) {
                        CpuAcoustic2D.psi(cu, psi, prof, coef, geo, z0, z1, b.x0(), b.x1());
                    } else {
                        Acoustic2D.psi(cu, psi, prof, coef, geo, z0, z1, b.x0(), b.x1());
                    }
                } else if (cpu) {
                    CpuAcoustic3D.psi(cu, psi, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
                } else {
                    Acoustic3D.psi(cu, psi, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
                }
            }
        }
    }

    /** Update pass of {@link #step} with {@link #rowsBox}: the z and y slabs, then the rows outside those bands. */
    private void updateRowsFused(int chunk, int r0, int r1) {
        updateRows(chunk, r0, r1, zyBoxes, List.of());
        Box b = rowsBox;
        int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
        if (z0 < z1) {
            if (g.ndim == 2) {
                CpuAcoustic2D.innerRows(u, un, v2, psi, zeta, prof, g.coef, g.geo, z0, z1, b.x0(), b.x1(), scratch[chunk]);
            } else {
                CpuAcoustic3D.innerRows(u, un, v2, psi, zeta, prof, g.coef, g.geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1(),
                        scratch[chunk]);
            }
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
                if (g.ndim == 2) {
                    if (cpu) {
                        CpuAcoustic2D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b.x0(), b.x1());
                    } else {
                        Acoustic2D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b.x0(), b.x1());
                    }
                } else if (cpu) {
                    CpuAcoustic3D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1(),
                            scratch[chunk]);
                } else {
                    Acoustic3D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
                }
            }
        }
        for (Box b : innerList) {
            int z0 = Math.max(b.z0(), r0), z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                if (g.ndim == 2) {
                    if (cpu) {
                        CpuAcoustic2D.interior(cu, nu, v2, coef, geo, z0, z1, b.x0(), b.x1());
                    } else {
                        Acoustic2D.interior(cu, nu, v2, coef, geo, z0, z1, b.x0(), b.x1());
                    }
                } else if (cpu) {
                    CpuAcoustic3D.interior(cu, nu, v2, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
                } else {
                    Acoustic3D.interior(cu, nu, v2, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
                }
            }
        }
    }

    /** Throws when the current wavefield holds NaN or Inf. */
    void checkFinite(int step, int shot) {
        final float[] cu = u;
        backend.parallelFor(0, cu.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                if (!Float.isFinite(cu[i])) {
                    throw new IllegalStateException("wavefield of shot " + shot + " became non-finite (NaN/Inf) by step "
                            + step + ": the run is unstable; lower dt (largest stable: "
                            + String.format("%g", g.spec.maxStableDt(maxOf(v2, g.spec.dt()))) + " s) or check the model"
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
