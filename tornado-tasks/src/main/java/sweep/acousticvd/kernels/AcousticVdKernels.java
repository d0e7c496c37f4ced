package sweep.acousticvd.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of one leapfrog step of the variable-density acoustic equation, ∂p/∂t = −K ∇·v, ρ ∂v/∂t = −∇p, on a
 * staggered grid (p at the nodes, vx at (x+½), vy at (y+½), vz at (z+½)), with C-PML on every side and the
 * image-method free surface, in 2-D and 3-D. Each kernel updates the rows [z0, z1) of the computational grid (every y
 * and x), every cell from its own global position only, so any split into row ranges gives the same bits.
 *
 * <p>Arrays have {@link Layout}'s layout; {@code geo} is the grid's geometry. Velocities, their buoyancies dt/ρ̄ and
 * the CPML memory variables are packed per component, component c at {@code c·LEN + i}: c = 0 is x, then y (3-D),
 * the last is z. {@code coef} holds the staggered first-derivative weights divided by dh, axis slot s (0 = z, 1 = y,
 * 2 = x) at {@code s·H + k − 1}, k = 1..H. {@code prof} holds per axis slot, from slot z on, the CPML decay a and
 * update b at the nodes, then at the half nodes: {@code [a(n) b(n) a½(n) b½(n)]}, n the slot's cell count
 * ({@code sweep.prop.Grid#staggeredProfiles}); a = b = 0 outside the bands, where the memory variables stay 0.
 *
 * <p>When {@code taping} is 1 a kernel also writes the bracket it multiplies by the model into {@code tape} (for the
 * gradient): per step, the pressure bracket of cell c = (z·NY + y)·NX + x at {@code tapeOff + c}, the velocity
 * bracket of component a at {@code tapeOff + (1 + a)·cells + c}.
 */
public final class AcousticVdKernels {
    private AcousticVdKernels() {
    }

    /**
     * Velocity update: per component a, d = D⁺_a p (staggered, at the velocity node), the memory variable
     * ψ ← a½·ψ + b½·d and v_a ← v_a − (dt/ρ̄)·(d + ψ).
     */
    public static void velocity(float[] p, float[] v, float[] bv, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, float[] tape, int tapeOff, int taping) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int cells = nz * ny * nx;
        int py = 4 * nz;
        int px = 4 * (nz + ny);
        int lz = (ndim - 1) * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    int i = off + z * sz + y * sy + x;
                    int c = (z * ny + y) * nx + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[2 * h + k - 1] * (p[i + k] - p[i - k + 1]);
                    }
                    float q = prof[px + 2 * nx + x] * psi[i] + prof[px + 3 * nx + x] * d;
                    psi[i] = q;
                    float br = d + q;
                    v[i] = v[i] - bv[i] * br;
                    if (taping == 1) {
                        tape[tapeOff + cells + c] = br;
                    }
                    if (ndim == 3) {
                        int j = len + i;
                        d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += coef[h + k - 1] * (p[i + k * sy] - p[i - (k - 1) * sy]);
                        }
                        q = prof[py + 2 * ny + y] * psi[j] + prof[py + 3 * ny + y] * d;
                        psi[j] = q;
                        br = d + q;
                        v[j] = v[j] - bv[j] * br;
                        if (taping == 1) {
                            tape[tapeOff + 2 * cells + c] = br;
                        }
                    }
                    int j = lz + i;
                    d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[k - 1] * (p[i + k * sz] - p[i - (k - 1) * sz]);
                    }
                    q = prof[2 * nz + z] * psi[j] + prof[3 * nz + z] * d;
                    psi[j] = q;
                    br = d + q;
                    v[j] = v[j] - bv[j] * br;
                    if (taping == 1) {
                        tape[tapeOff + ndim * cells + c] = br;
                    }
                }
            }
        }
    }

    /**
     * Pressure update: per axis a, d = D⁻_a v_a (staggered, at the node), ψ ← a·ψ + b·d, and
     * p ← p − (dt·K)·Σ_a (d + ψ).
     */
    public static void pressure(float[] p, float[] v, float[] kdt, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, float[] tape, int tapeOff, int taping) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int py = 4 * nz;
        int px = 4 * (nz + ny);
        int lz = (ndim - 1) * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    int i = off + z * sz + y * sy + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[2 * h + k - 1] * (v[i + k - 1] - v[i - k]);
                    }
                    float q = prof[px + x] * psi[i] + prof[px + nx + x] * d;
                    psi[i] = q;
                    float div = d + q;
                    if (ndim == 3) {
                        int j = len + i;
                        d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += coef[h + k - 1] * (v[j + (k - 1) * sy] - v[j - k * sy]);
                        }
                        q = prof[py + y] * psi[j] + prof[py + ny + y] * d;
                        psi[j] = q;
                        div = div + (d + q);
                    }
                    int j = lz + i;
                    d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[k - 1] * (v[j + (k - 1) * sz] - v[j - k * sz]);
                    }
                    q = prof[z] * psi[j] + prof[nz + z] * d;
                    psi[j] = q;
                    div = div + (d + q);
                    p[i] = p[i] - kdt[i] * div;
                    if (taping == 1) {
                        tape[tapeOff + (z * ny + y) * nx + x] = div;
                    }
                }
            }
        }
    }

    /** Free surface: p = 0 on the surface row z = 0, over the columns y in [y0, y1) (every x). */
    public static void zeroSurface(float[] p, int[] geo, int y0, int y1) {
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nx = geo[Layout.NX];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (int x = 0; x < nx; x++) {
                p[off + y * sy + x] = 0.0f;
            }
        }
    }

    /**
     * Free surface, the pressure images above it: p(−k) = −p(k), k = 1..H (p odd about z = 0), over the columns y in
     * [y0, y1).
     */
    public static void pressureImages(float[] p, int[] geo, int y0, int y1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nx = geo[Layout.NX];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (int x = 0; x < nx; x++) {
                int i = off + y * sy + x;
                for (int k = 1; k <= h; k++) {
                    p[i - k * sz] = -p[i + k * sz];
                }
            }
        }
    }

    /**
     * Free surface, the vertical-velocity images above it: vz(−½ − m) = vz(½ + m), m = 0..H−1 (vz even about z = 0),
     * over the columns y in [y0, y1).
     */
    public static void velocityImages(float[] v, int[] geo, int y0, int y1) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nx = geo[Layout.NX];
        int lz = (ndim - 1) * len;
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (int x = 0; x < nx; x++) {
                int i = lz + off + y * sy + x;
                for (int m = 0; m < h; m++) {
                    v[i - (m + 1) * sz] = v[i + m * sz];
                }
            }
        }
    }
}
