package sweep.elastic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the 2-D isotropic elastic velocity–stress leapfrog on a staggered grid (Virieux 1986; Levander 1988
 * for high order) with C-PML in first-order form (Komatitsch &amp; Martin 2007, κ = 1: each spatial derivative ∂ in a
 * band becomes ∂ + ψ with ψ ← a·ψ + b·∂) and a stress-free surface at z = 0. Arrays as in {@link ElasticLayout}.
 *
 * <p>A step is three sub-steps, each over boxes [z0,z1)×[x0,x1) of the computational grid: {@link #velocity}
 * (reads σ, writes v and the ∂σ memory variables), then {@link #stress} (reads v, writes σ and the strain memory
 * variables); with a free surface each is followed by its image kernel, {@link #freeSurfaceVelocity} and
 * {@link #freeSurfaceStress}. A cell's arithmetic depends only on its own (global) position, so any split into boxes
 * gives the same bits.
 *
 * <p><b>Free surface</b> (the host sets {@code geo[FS] = 1}): the surface is the row of normal-stress nodes z = 0,
 * the top PML is absent and the h rows of the halo above it hold images. The wavefield is continued across z = 0
 * as the negative image of a fluid's: stresses σzz and σxz antisymmetric (σzz(−k) = −σzz(k), σxz(−k+½) =
 * −σxz(k−½), and σzz(0) = 0 on the surface nodes, so σxz interpolated onto z = 0 is 0 too: Levander's stress
 * imaging), velocities vx antisymmetric (vx(−k) = −vx(k)) and vz symmetric (vz(−k+½) = vz(k−½)). With vz symmetric
 * the stencil of ∂z vz on the surface row is exactly 0; the normal stresses there use the surface moduli the host
 * stores on that row, λ' = 2λμ/(λ+2μ) and λ'+2μ, so σxx = 4μ(λ+μ)/(λ+2μ)·∂x vx, which is what σzz = 0 implies
 * (∂z vz = −λ/(λ+2μ)·∂x vx). For a fluid (vs = 0) this is the exact image method (p = 0 on the surface); for a
 * solid an approximation whose Rayleigh wave travels at the Rayleigh speed (tests). Everything is linear in the
 * fields; the image kernels only copy (with sign) computational rows into halo rows, and their transposes add halo
 * adjoints back onto those rows.
 */
public final class ElasticKernels2D {
    private ElasticKernels2D() {
    }

    /**
     * Velocity sub-step: {@code vx += dt/ρ·(∂x σxx + ∂z σxz)} at (x+½, z) and {@code vz += dt/ρ·(∂x σxz + ∂z σzz)} at
     * (x, z+½), with the CPML memory variables of each derivative updated first where the derivative's node lies in a
     * band.
     */
    public static void velocity(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int cx = 2 * h;
        int fx = 4 * nz + 4 * ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float dxxx = 0.0f;
                float dzxz = 0.0f;
                float dxxz = 0.0f;
                float dzzz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float cz = coef[k - 1];
                    dxxx += ck * (s[i + k] - s[i - k + 1]);
                    dzxz += cz * (s[2 * len + i + (k - 1) * sz] - s[2 * len + i - k * sz]);
                    dxxz += ck * (s[2 * len + i + k - 1] - s[2 * len + i - k]);
                    dzzz += cz * (s[len + i + k * sz] - s[len + i - (k - 1) * sz]);
                }
                if (x < xbl | x >= xbhh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + z * wx + jx;
                    float p = prof[fx + 2 * nx + x] * psi[q] + prof[fx + 3 * nx + x] * dxxx;
                    psi[q] = p;
                    dxxx = dxxx + p;
                }
                if (x < xbl | x >= xbh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + slx + z * wx + jx;
                    float p = prof[fx + x] * psi[q] + prof[fx + nx + x] * dxxz;
                    psi[q] = p;
                    dxxz = dxxz + p;
                }
                if (zInt) {
                    int q = pz + jz * nx + x;
                    float p = prof[z] * psi[q] + prof[nz + z] * dzxz;
                    psi[q] = p;
                    dzxz = dzxz + p;
                }
                if (zHalf) {
                    int q = pz + slz + jz * nx + x;
                    float p = prof[2 * nz + z] * psi[q] + prof[3 * nz + z] * dzzz;
                    psi[q] = p;
                    dzzz = dzzz + p;
                }
                v[i] = v[i] + b[i] * (dxxx + dzxz);
                v[len + i] = v[len + i] + b[len + i] * (dxxz + dzzz);
            }
        }
    }

    /**
     * Stress sub-step: with exx = ∂x vx, ezz = ∂z vz at (x, z) and the shear rate ∂z vx + ∂x vz at (x+½, z+½),
     * {@code σxx += dt(λ+2μ)·exx + dtλ·ezz}, {@code σzz += dtλ·exx + dt(λ+2μ)·ezz}, {@code σxz += dtμ·(∂z vx + ∂x vz)};
     * CPML memory variables as in {@link #velocity}.
     */
    public static void stress(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int cx = 2 * h;
        int fx = 4 * nz + 4 * ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float exx = 0.0f;
                float ezz = 0.0f;
                float ezx = 0.0f;
                float exz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float cz = coef[k - 1];
                    exx += ck * (v[i + k - 1] - v[i - k]);
                    ezz += cz * (v[len + i + (k - 1) * sz] - v[len + i - k * sz]);
                    ezx += cz * (v[i + k * sz] - v[i - (k - 1) * sz]);
                    exz += ck * (v[len + i + k] - v[len + i - k + 1]);
                }
                if (x < xbl | x >= xbh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + 2 * slx + z * wx + jx;
                    float p = prof[fx + x] * psi[q] + prof[fx + nx + x] * exx;
                    psi[q] = p;
                    exx = exx + p;
                }
                if (x < xbl | x >= xbhh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + 3 * slx + z * wx + jx;
                    float p = prof[fx + 2 * nx + x] * psi[q] + prof[fx + 3 * nx + x] * exz;
                    psi[q] = p;
                    exz = exz + p;
                }
                if (zInt) {
                    int q = pz + 2 * slz + jz * nx + x;
                    float p = prof[z] * psi[q] + prof[nz + z] * ezz;
                    psi[q] = p;
                    ezz = ezz + p;
                }
                if (zHalf) {
                    int q = pz + 3 * slz + jz * nx + x;
                    float p = prof[2 * nz + z] * psi[q] + prof[3 * nz + z] * ezx;
                    psi[q] = p;
                    ezx = ezx + p;
                }
                float lam = m[i];
                float l2m = m[len + i];
                s[i] = s[i] + (l2m * exx + lam * ezz);
                s[len + i] = s[len + i] + (lam * exx + l2m * ezz);
                s[2 * len + i] = s[2 * len + i] + m[2 * len + i] * (ezx + exz);
            }
        }
    }

    /**
     * Velocity images of the free surface over columns [x0, x1): vx(−k) = −vx(k) and vz(−k+½) = vz(k−½) for k = 1..h
     * (halo rows above row 0). Run after the velocity sub-step and the force sources.
     */
    public static void freeSurfaceVelocity(float[] v, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            for (int k = 1; k <= h; k++) {
                v[i - k * sz] = -v[i + k * sz];
                v[len + i - k * sz] = v[len + i + (k - 1) * sz];
            }
        }
    }

    /**
     * Stress rule of the free surface over columns [x0, x1): σzz(0) = 0, and σzz(−k) = −σzz(k), σxz(−k+½) = −σxz(k−½)
     * for k = 1..h. Run after the stress sub-step and the explosive sources.
     */
    public static void freeSurfaceStress(float[] s, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            s[len + i] = 0.0f;
            for (int k = 1; k <= h; k++) {
                s[len + i - k * sz] = -s[len + i + k * sz];
                s[2 * len + i - k * sz] = -s[2 * len + i + (k - 1) * sz];
            }
        }
    }
}
