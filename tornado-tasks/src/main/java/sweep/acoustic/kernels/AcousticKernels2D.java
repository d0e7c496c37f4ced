package sweep.acoustic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the 2-D constant-density acoustic leapfrog with CPML (Pasalic–McGarry form) and the image-method free
 * surface. Each kernel updates a box [z0,z1)×[x0,x1) of the computational grid; every cell's arithmetic depends
 * only on its own (global) position, never on the box, so any split of the grid into boxes gives the same bits.
 * See {@link Layout} for the array layouts.
 */
public final class AcousticKernels2D {
    private AcousticKernels2D() {
    }

    /**
     * Interior update (no PML on any axis): {@code un = (2u − un) + v2·(c00·u + Σ_k czk(u↑+u↓) + cxk(u←+u→))}.
     * On entry {@code un} holds the previous time level; on exit the next one.
     */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float s = c00 * u[i];
                for (int k = 1; k <= h; k++) {
                    s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cx + k] * (u[i + k] + u[i - k]);
                }
                un[i] = (2.0f * u[i] - un[i]) + v2[i] * s;
            }
        }
    }

    /**
     * The interior update of a Born run, both fields in one pass: the background {@code u, un} as {@link #interior}
     * does, and the scattered field {@code us, uns} likewise plus the secondary source {@code dv2·s} of the
     * background's Laplacian term s at the same cell: {@code uns = ((2us − uns) + v2·ss) + dv2·s}.
     */
    public static void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                    float[] coef, int[] geo, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float s = c00 * u[i];
                float ss = c00 * us[i];
                for (int k = 1; k <= h; k++) {
                    s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cx + k] * (u[i + k] + u[i - k]);
                    ss += coef[k] * (us[i + k * sz] + us[i - k * sz]) + coef[cx + k] * (us[i + k] + us[i - k]);
                }
                un[i] = (2.0f * u[i] - un[i]) + v2[i] * s;
                uns[i] = ((2.0f * us[i] - uns[i]) + v2[i] * ss) + dv2[i] * s;
            }
        }
    }

    /**
     * CPML auxiliary update {@code psi_a = a·psi_a + b·∂_a u} for the cells of the box inside axis a's band.
     * Must run before {@link #pml} of the same step, which reads ∂_a psi_a.
     */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int az = Layout.aux(0);
        int ax = Layout.aux(2);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                if (z < zbl | z >= zbh) {
                    int j = (z < zbl ? geo[az] : geo[az + 1]) + z * geo[az + 2] + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[d1 + k - 1] * (u[i + k * sz] - u[i - k * sz]);
                    }
                    psi[j] = prof[z] * psi[j] + prof[nz + z] * d;
                }
                if (x < xbl | x >= xbh) {
                    int j = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[dx + k - 1] * (u[i + k] - u[i - k]);
                    }
                    psi[j] = prof[pax + x] * psi[j] + prof[pbx + x] * d;
                }
            }
        }
    }

    /**
     * Update of cells inside at least one PML band: per axis the second derivative, plus ∂_a psi_a and the zeta
     * recursion on axes whose band holds the cell; then the leapfrog as in {@link #interior}.
     */
    public static void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                           float[] coef, int[] geo, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int az = Layout.aux(0);
        int ax = Layout.aux(2);
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float tz = coef[0] * u[i];
                float tx = coef[cx] * u[i];
                for (int k = 1; k <= h; k++) {
                    tz += coef[k] * (u[i + k * sz] + u[i - k * sz]);
                    tx += coef[cx + k] * (u[i + k] + u[i - k]);
                }
                if (z < zbl | z >= zbh) {
                    int sj = geo[az + 2];
                    int j = (z < zbl ? geo[az] : geo[az + 1]) + z * sj + x;
                    for (int k = 1; k <= h; k++) {
                        tz += coef[d1 + k - 1] * (psi[j + k * sj] - psi[j - k * sj]);
                    }
                    zeta[j] = prof[z] * zeta[j] + prof[nz + z] * tz;
                    tz = tz + zeta[j];
                }
                if (x < xbl | x >= xbh) {
                    int j = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + x;
                    for (int k = 1; k <= h; k++) {
                        tx += coef[dx + k - 1] * (psi[j + k] - psi[j - k]);
                    }
                    zeta[j] = prof[pax + x] * zeta[j] + prof[pbx + x] * tx;
                    tx = tx + zeta[j];
                }
                un[i] = (2.0f * u[i] - un[i]) + v2[i] * (tz + tx);
            }
        }
    }

    /**
     * Image-method free surface on the top face (row z = 0): sets p = 0 on the surface and the ghost rows above
     * it to the negated mirror image, {@code u(−k, x) = −u(k, x)}.
     */
    public static void mirrorTop(float[] u, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            u[i] = 0.0f;
            for (int k = 1; k <= h; k++) {
                u[i - k * sz] = -u[i + k * sz];
            }
        }
    }

    /**
     * Writes into {@code d} the Laplacian term of the update at each cell of the box, PML terms included (the value
     * the leapfrog multiplies by v²dt²), with exactly the operations of {@link #interior} and {@link #pml}; call it
     * after a step, when {@code u}, {@code psi} and {@code zeta} hold that step's levels. Used for gradients.
     */
    public static void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d,
                                 int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int az = Layout.aux(0);
        int ax = Layout.aux(2);
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                boolean inZ = z < zbl | z >= zbh;
                boolean inX = x < xbl | x >= xbh;
                if (!inZ & !inX) {
                    float s = c00 * u[i];
                    for (int k = 1; k <= h; k++) {
                        s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cx + k] * (u[i + k] + u[i - k]);
                    }
                    d[i] = s;
                } else {
                    float tz = coef[0] * u[i];
                    float tx = coef[cx] * u[i];
                    for (int k = 1; k <= h; k++) {
                        tz += coef[k] * (u[i + k * sz] + u[i - k * sz]);
                        tx += coef[cx + k] * (u[i + k] + u[i - k]);
                    }
                    if (inZ) {
                        int sj = geo[az + 2];
                        int j = (z < zbl ? geo[az] : geo[az + 1]) + z * sj + x;
                        for (int k = 1; k <= h; k++) {
                            tz += coef[d1 + k - 1] * (psi[j + k * sj] - psi[j - k * sj]);
                        }
                        tz = tz + zeta[j];
                    }
                    if (inX) {
                        int j = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + x;
                        for (int k = 1; k <= h; k++) {
                            tx += coef[dx + k - 1] * (psi[j + k] - psi[j - k]);
                        }
                        tx = tx + zeta[j];
                    }
                    d[i] = tz + tx;
                }
            }
        }
    }
}
