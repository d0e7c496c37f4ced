package sweep.acoustic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the 3-D constant-density acoustic leapfrog with CPML (Pasalic–McGarry form) and the image-method free
 * surface; the 3-D counterparts of {@link AcousticKernels2D}, over boxes [z0,z1)×[y0,y1)×[x0,x1). See {@link Layout}.
 */
public final class AcousticKernels3D {
    private AcousticKernels3D() {
    }

    /** Interior update (no PML on any axis); see {@link AcousticKernels2D#interior}. */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float s = c00 * u[i];
                    for (int k = 1; k <= h; k++) {
                        s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cy + k] * (u[i + k * sy] + u[i - k * sy])
                                + coef[cx + k] * (u[i + k] + u[i - k]);
                    }
                    un[i] = (2.0f * u[i] - un[i]) + v2[i] * s;
                }
            }
        }
    }

    /** The interior update of a Born run, both fields in one pass; see {@link AcousticKernels2D#bornInterior}. */
    public static void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                    float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float s = c00 * u[i];
                    float ss = c00 * us[i];
                    for (int k = 1; k <= h; k++) {
                        s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cy + k] * (u[i + k * sy] + u[i - k * sy])
                                + coef[cx + k] * (u[i + k] + u[i - k]);
                        ss += coef[k] * (us[i + k * sz] + us[i - k * sz]) + coef[cy + k] * (us[i + k * sy]
                                + us[i - k * sy]) + coef[cx + k] * (us[i + k] + us[i - k]);
                    }
                    un[i] = (2.0f * u[i] - un[i]) + v2[i] * s;
                    uns[i] = ((2.0f * us[i] - uns[i]) + v2[i] * ss) + dv2[i] * s;
                }
            }
        }
    }

    /** CPML auxiliary update for cells of the box inside each axis's band; see {@link AcousticKernels2D#psi}. */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int az = Layout.aux(0);
        int ay = Layout.aux(1);
        int ax = Layout.aux(2);
        int psz = geo[az + 2];
        int psy = geo[ay + 3];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int pay = 2 * nz;
        int pby = pay + ny;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + nx;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    if (z < zbl | z >= zbh) {
                        int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * psz + y * geo[az + 3] + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += coef[d1 + k - 1] * (u[i + k * sz] - u[i - k * sz]);
                        }
                        psi[jz] = prof[z] * psi[jz] + prof[nz + z] * d;
                    }
                    if (y < ybl | y >= ybh) {
                        int jy = (y < ybl ? geo[ay] : geo[ay + 1]) + z * geo[ay + 2] + y * psy + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += coef[d1 + h + k - 1] * (u[i + k * sy] - u[i - k * sy]);
                        }
                        psi[jy] = prof[pay + y] * psi[jy] + prof[pby + y] * d;
                    }
                    if (x < xbl | x >= xbh) {
                        int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + y * geo[ax + 3] + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += coef[d1 + 2 * h + k - 1] * (u[i + k] - u[i - k]);
                        }
                        psi[jx] = prof[pax + x] * psi[jx] + prof[pbx + x] * d;
                    }
                }
            }
        }
    }

    /** Update of cells inside at least one PML band; see {@link AcousticKernels2D#pml}. */
    public static void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                           float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int az = Layout.aux(0);
        int ay = Layout.aux(1);
        int ax = Layout.aux(2);
        int psz = geo[az + 2];
        int psy = geo[ay + 3];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int pay = 2 * nz;
        int pby = pay + ny;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + nx;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float tz = coef[0] * u[i];
                    float ty = coef[cy] * u[i];
                    float tx = coef[cx] * u[i];
                    for (int k = 1; k <= h; k++) {
                        tz += coef[k] * (u[i + k * sz] + u[i - k * sz]);
                        ty += coef[cy + k] * (u[i + k * sy] + u[i - k * sy]);
                        tx += coef[cx + k] * (u[i + k] + u[i - k]);
                    }
                    if (z < zbl | z >= zbh) {
                        int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * psz + y * geo[az + 3] + x;
                        for (int k = 1; k <= h; k++) {
                            tz += coef[d1 + k - 1] * (psi[jz + k * psz] - psi[jz - k * psz]);
                        }
                        zeta[jz] = prof[z] * zeta[jz] + prof[nz + z] * tz;
                        tz = tz + zeta[jz];
                    }
                    if (y < ybl | y >= ybh) {
                        int jy = (y < ybl ? geo[ay] : geo[ay + 1]) + z * geo[ay + 2] + y * psy + x;
                        for (int k = 1; k <= h; k++) {
                            ty += coef[d1 + h + k - 1] * (psi[jy + k * psy] - psi[jy - k * psy]);
                        }
                        zeta[jy] = prof[pay + y] * zeta[jy] + prof[pby + y] * ty;
                        ty = ty + zeta[jy];
                    }
                    if (x < xbl | x >= xbh) {
                        int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + y * geo[ax + 3] + x;
                        for (int k = 1; k <= h; k++) {
                            tx += coef[d1 + 2 * h + k - 1] * (psi[jx + k] - psi[jx - k]);
                        }
                        zeta[jx] = prof[pax + x] * zeta[jx] + prof[pbx + x] * tx;
                        tx = tx + zeta[jx];
                    }
                    un[i] = (2.0f * u[i] - un[i]) + v2[i] * ((tz + ty) + tx);
                }
            }
        }
    }

    /** Image-method free surface on the top face z = 0; see {@link AcousticKernels2D#mirrorTop}. */
    public static void mirrorTop(float[] u, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                u[i] = 0.0f;
                for (int k = 1; k <= h; k++) {
                    u[i - k * sz] = -u[i + k * sz];
                }
            }
        }
    }

    /** Laplacian term of the update, PML terms included; see {@link AcousticKernels2D#laplacian}. */
    public static void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d,
                                 int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int az = Layout.aux(0);
        int ay = Layout.aux(1);
        int ax = Layout.aux(2);
        int psz = geo[az + 2];
        int psy = geo[ay + 3];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    boolean inZ = z < zbl | z >= zbh;
                    boolean inY = y < ybl | y >= ybh;
                    boolean inX = x < xbl | x >= xbh;
                    if (!inZ & !inY & !inX) {
                        float s = c00 * u[i];
                        for (int k = 1; k <= h; k++) {
                            s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cy + k] * (u[i + k * sy]
                                    + u[i - k * sy])
                                    + coef[cx + k] * (u[i + k] + u[i - k]);
                        }
                        d[i] = s;
                    } else {
                        float tz = coef[0] * u[i];
                        float ty = coef[cy] * u[i];
                        float tx = coef[cx] * u[i];
                        for (int k = 1; k <= h; k++) {
                            tz += coef[k] * (u[i + k * sz] + u[i - k * sz]);
                            ty += coef[cy + k] * (u[i + k * sy] + u[i - k * sy]);
                            tx += coef[cx + k] * (u[i + k] + u[i - k]);
                        }
                        if (inZ) {
                            int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * psz + y * geo[az + 3] + x;
                            for (int k = 1; k <= h; k++) {
                                tz += coef[d1 + k - 1] * (psi[jz + k * psz] - psi[jz - k * psz]);
                            }
                            tz = tz + zeta[jz];
                        }
                        if (inY) {
                            int jy = (y < ybl ? geo[ay] : geo[ay + 1]) + z * geo[ay + 2] + y * psy + x;
                            for (int k = 1; k <= h; k++) {
                                ty += coef[d1 + h + k - 1] * (psi[jy + k * psy] - psi[jy - k * psy]);
                            }
                            ty = ty + zeta[jy];
                        }
                        if (inX) {
                            int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + y * geo[ax + 3] + x;
                            for (int k = 1; k <= h; k++) {
                                tx += coef[d1 + 2 * h + k - 1] * (psi[jx + k] - psi[jx - k]);
                            }
                            tx = tx + zeta[jx];
                        }
                        d[i] = (tz + ty) + tx;
                    }
                }
            }
        }
    }
}
