package sweep.prop;

import java.util.List;
import sweep.backend.CpuKernels;
import sweep.backend.CpuKernels2D;
import sweep.backend.CpuKernels3D;
import sweep.backend.JavaBackend;
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
    private final List<int[]> pmlBoxes;
    private final int[] interior;
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
    private final JavaBackend.ChunkBody psiPass = (c, r0, r1) -> psiRows(r0, r1);
    private final JavaBackend.ChunkBody updatePass = (c, r0, r1) -> updateRows(c, r0, r1);
    private final JavaBackend.ChunkBody mirrorPass = (c, y0, y1) -> mirrorRows(y0, y1);

    JavaStepper(Grid g, JavaBackend backend) {
        this.g = g;
        this.backend = backend;
        int len = g.length();
        this.pmlBoxes = g.pmlBoxes();
        this.interior = g.interiorBox();
        v2 = new float[len];
        u = new float[len];
        un = new float[len];
        int slots = g.ndim;
        psi = g.hasPml() ? new float[slots * len] : new float[0];
        zeta = g.hasPml() ? new float[slots * len] : new float[0];
        cpu = CpuKernels.useCpuKernels();
        scratch = new float[backend.threads()][cpu && g.ndim == 3 ? CpuKernels3D.scratchSize(g.geo) : 0];
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

    void reset() {
        java.util.Arrays.fill(u, 0f);
        java.util.Arrays.fill(un, 0f);
        java.util.Arrays.fill(psi, 0f);
        java.util.Arrays.fill(zeta, 0f);
    }

    /** Advances u^n → u^{n+1}, injecting {@code wavelet[s·nt + n]} at each source. */
    void step(int n, int[] srcIdx, float[] wavelet, int nsrc, int nt) {
        if (!pmlBoxes.isEmpty()) {
            backend.parallelFor(0, g.nz, psiPass);
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

    /** 3-D free-surface mirror of the new level over rows y in [y0, y1). */
    private void mirrorRows(int y0, int y1) {
        Acoustic3D.mirrorTop(un, g.geo, y0, y1, 0, g.nx);
    }

    /** CPML auxiliary pass over depth rows [r0, r1) of every PML box. */
    private void psiRows(int r0, int r1) {
        final float[] cu = u;
        final int[] geo = g.geo;
        final float[] coef = g.coef;
        for (int[] b : pmlBoxes) {
            int z0 = Math.max(b[0], r0), z1 = Math.min(b[1], r1);
            if (z0 < z1) {
                if (g.ndim == 2) {
                    if (cpu) {
                        CpuKernels2D.psi(cu, psi, prof, coef, geo, z0, z1, b[4], b[5]);
                    } else {
                        Acoustic2D.psi(cu, psi, prof, coef, geo, z0, z1, b[4], b[5]);
                    }
                } else if (cpu) {
                    CpuKernels3D.psi(cu, psi, prof, coef, geo, z0, z1, b[2], b[3], b[4], b[5]);
                } else {
                    Acoustic3D.psi(cu, psi, prof, coef, geo, z0, z1, b[2], b[3], b[4], b[5]);
                }
            }
        }
    }

    /** Update pass over depth rows [r0, r1): the PML boxes, then the interior box. */
    private void updateRows(int chunk, int r0, int r1) {
        final float[] cu = u;
        final float[] nu = un;
        final int[] geo = g.geo;
        final float[] coef = g.coef;
        for (int[] b : pmlBoxes) {
            int z0 = Math.max(b[0], r0), z1 = Math.min(b[1], r1);
            if (z0 < z1) {
                if (g.ndim == 2) {
                    if (cpu) {
                        CpuKernels2D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b[4], b[5]);
                    } else {
                        Acoustic2D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b[4], b[5]);
                    }
                } else if (cpu) {
                    CpuKernels3D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b[2], b[3], b[4], b[5],
                            scratch[chunk]);
                } else {
                    Acoustic3D.pml(cu, nu, v2, psi, zeta, prof, coef, geo, z0, z1, b[2], b[3], b[4], b[5]);
                }
            }
        }
        if (interior != null) {
            int[] b = interior;
            int z0 = Math.max(b[0], r0), z1 = Math.min(b[1], r1);
            if (z0 < z1) {
                if (g.ndim == 2) {
                    if (cpu) {
                        CpuKernels2D.interior(cu, nu, v2, coef, geo, z0, z1, b[4], b[5]);
                    } else {
                        Acoustic2D.interior(cu, nu, v2, coef, geo, z0, z1, b[4], b[5]);
                    }
                } else if (cpu) {
                    CpuKernels3D.interior(cu, nu, v2, coef, geo, z0, z1, b[2], b[3], b[4], b[5]);
                } else {
                    Acoustic3D.interior(cu, nu, v2, coef, geo, z0, z1, b[2], b[3], b[4], b[5]);
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
