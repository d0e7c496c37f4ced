package sweep.acoustic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the exact discrete adjoint of one 3-D forward step of {@link AcousticKernels3D}, in gather form; the 3-D
 * counterparts of {@link AcousticAdjointKernels2D} (same call sequence), over boxes [z0,z1)×[y0,y1)×[x0,x1).
 */
public final class AcousticAdjointKernels3D {
    private AcousticAdjointKernels3D() {
    }

    /** Transpose of {@link AcousticKernels3D#mirrorTop}. */
    public static void mirrorTopAdjoint(float[] qb, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                for (int k = 1; k <= h; k++) {
                    qb[i + k * sz] = qb[i + k * sz] - qb[i - k * sz];
                    qb[i - k * sz] = 0.0f;
                }
                qb[i] = 0.0f;
            }
        }
    }

    /** {@code w = v2·qb} and {@code grad += qb·d} over the box. */
    public static void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                             int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    w[i] = v2[i] * qb[i];
                    grad[i] = grad[i] + qb[i] * d[i];
                }
            }
        }
    }

    /** Backward zeta recursion in each band; see {@link AcousticAdjointKernels2D#pmlZeta}. */
    public static void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo,
                               int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int az = Layout.aux(0);
        int ay = Layout.aux(1);
        int ax = Layout.aux(2);
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
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
                        int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * geo[az + 2] + y * geo[az + 3] + x;
                        float t = zetab[jz] + w[i];
                        cor[jz] = prof[nz + z] * t;
                        zetab[jz] = prof[z] * t;
                    }
                    if (y < ybl | y >= ybh) {
                        int jy = (y < ybl ? geo[ay] : geo[ay + 1]) + z * geo[ay + 2] + y * geo[ay + 3] + x;
                        float t = zetab[jy] + w[i];
                        cor[jy] = prof[pby + y] * t;
                        zetab[jy] = prof[pay + y] * t;
                    }
                    if (x < xbl | x >= xbh) {
                        int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + y * geo[ax + 3] + x;
                        float t = zetab[jx] + w[i];
                        cor[jx] = prof[pbx + x] * t;
                        zetab[jx] = prof[pax + x] * t;
                    }
                }
            }
        }
    }

    /** Backward psi recursion in each band; see {@link AcousticAdjointKernels2D#pmlPsi}. */
    public static void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
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
                        int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * geo[az + 2] + y * geo[az + 3] + x;
                        float t = psib[jz];
                        for (int k = 1; k <= h; k++) {
                            int zm = z - k;
                            int zp = z + k;
                            float lo = (zm >= 0 & (zm < zbl | zm >= zbh)) ? w[i - k * sz] + cor[jz - k * psz] : 0.0f;
                            float hi = (zp < nz & (zp < zbl | zp >= zbh)) ? w[i + k * sz] + cor[jz + k * psz] : 0.0f;
                            t += coef[d1 + k - 1] * (lo - hi);
                        }
                        pb[jz] = prof[nz + z] * t;
                        psib[jz] = prof[z] * t;
                    }
                    if (y < ybl | y >= ybh) {
                        int jy = (y < ybl ? geo[ay] : geo[ay + 1]) + z * geo[ay + 2] + y * geo[ay + 3] + x;
                        float t = psib[jy];
                        for (int k = 1; k <= h; k++) {
                            int ym = y - k;
                            int yp = y + k;
                            float lo = (ym >= 0 & (ym < ybl | ym >= ybh)) ? w[i - k * sy] + cor[jy - k * psy] : 0.0f;
                            float hi = (yp < ny & (yp < ybl | yp >= ybh)) ? w[i + k * sy] + cor[jy + k * psy] : 0.0f;
                            t += coef[d1 + h + k - 1] * (lo - hi);
                        }
                        pb[jy] = prof[pby + y] * t;
                        psib[jy] = prof[pay + y] * t;
                    }
                    if (x < xbl | x >= xbh) {
                        int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + y * geo[ax + 3] + x;
                        float t = psib[jx];
                        for (int k = 1; k <= h; k++) {
                            int xm = x - k;
                            int xp = x + k;
                            float lo = (xm >= 0 & (xm < xbl | xm >= xbh)) ? w[i - k] + cor[jx - k] : 0.0f;
                            float hi = (xp < nx & (xp < xbl | xp >= xbh)) ? w[i + k] + cor[jx + k] : 0.0f;
                            t += coef[d1 + 2 * h + k - 1] * (lo - hi);
                        }
                        pb[jx] = prof[pbx + x] * t;
                        psib[jx] = prof[pax + x] * t;
                    }
                }
            }
        }
    }

    /** λ^n for cells whose stencil reaches no band; see {@link AcousticAdjointKernels2D#interior}. */
    public static void interior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
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
                    float s = c00 * w[i];
                    for (int k = 1; k <= h; k++) {
                        s += coef[k] * (w[i + k * sz] + w[i - k * sz]) + coef[cy + k] * (w[i + k * sy] + w[i - k * sy])
                                + coef[cx + k] * (w[i + k] + w[i - k]);
                    }
                    qp[i] = (2.0f * qb[i] - qp[i]) + s;
                }
            }
        }
    }

    /** λ^n for cells in or next to a band; see {@link AcousticAdjointKernels2D#general}. */
    public static void general(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                               int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int az = Layout.aux(0);
        int ay = Layout.aux(1);
        int ax = Layout.aux(2);
        int psz = geo[az + 2];
        int psy = geo[ay + 3];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    boolean rz = z < zbl + h | z >= zbh - h;
                    boolean ry = y < ybl + h | y >= ybh - h;
                    boolean rx = x < xbl + h | x >= xbh - h;
                    int jz = rz ? (z < zbl + h ? geo[az] : geo[az + 1]) + z * psz + y * geo[az + 3] + x : 0;
                    int jy = ry ? (y < ybl + h ? geo[ay] : geo[ay + 1]) + z * geo[ay + 2] + y * psy + x : 0;
                    int jx = rx ? (x < xbl + h ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + y * geo[ax + 3] + x : 0;
                    float tz = generalTerm(w, cor, pb, coef, h, 0, d1, i, sz, rz ? 1 : 0, jz, psz);
                    float ty = generalTerm(w, cor, pb, coef, h, cy, d1 + h, i, sy, ry ? 1 : 0, jy, psy);
                    float tx = generalTerm(w, cor, pb, coef, h, cx, d1 + 2 * h, i, 1, rx ? 1 : 0, jx, 1);
                    qp[i] = (2.0f * qb[i] - qp[i]) + ((tz + ty) + tx);
                }
            }
        }
    }

    /**
     * One axis's term of {@link #general} at wavefield index i (stride st along the axis): the Laplacian stencil of
     * {@code w + cor} plus the transposed first derivative of {@code pb}, cor and pb at auxiliary index j (stride pst)
     * when {@code reach} is 1; with 0 (the cell's stencil cannot reach the axis's band, where cor and pb are zero) the
     * literal 0.0f takes their place in the same operations, so the same bits without the reads.
     */
    public static float generalTerm(float[] w, float[] cor, float[] pb, float[] coef, int h, int cb, int db, int i,
                                    int st, int reach, int j, int pst) {
        float t = coef[cb] * (w[i] + (reach != 0 ? cor[j] : 0.0f));
        for (int k = 1; k <= h; k++) {
            float cp = reach != 0 ? cor[j + k * pst] : 0.0f;
            float cm = reach != 0 ? cor[j - k * pst] : 0.0f;
            float pm = reach != 0 ? pb[j - k * pst] : 0.0f;
            float pp = reach != 0 ? pb[j + k * pst] : 0.0f;
            t += coef[cb + k] * ((w[i + k * st] + cp) + (w[i - k * st] + cm)) + coef[db + k - 1] * (pm - pp);
        }
        return t;
    }

    /** Free surface: λ of the ghost planes above the surface; see {@link AcousticAdjointKernels2D#ghostRows}. */
    public static void ghostRows(float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                for (int m = 1; m <= h; m++) {
                    float s = 0.0f;
                    for (int r = 0; r <= h - m; r++) {
                        s += coef[r + m] * w[i + r * sz];
                    }
                    qp[i - m * sz] = s;
                }
            }
        }
    }

    /** Time reversal of the interior leapfrog; see {@link AcousticAdjointKernels2D#reverse}. */
    public static void reverse(float[] u, float[] un, float[] v2, float[] d, int[] geo,
                               int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    un[i] = (2.0f * u[i] + v2[i] * d[i]) - un[i];
                }
            }
        }
    }

    /** Boundary saving, fused over cells of the interior box; see {@link AcousticAdjointKernels2D#rebuildScale}. */
    public static void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad,
                                    float[] coef, int[] geo, int rev, int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int z = z0 + iz;
                    int y = y0 + iy;
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float s = c00 * u[i];
                    for (int k = 1; k <= h; k++) {
                        s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cy + k] * (u[i + k * sy] + u[i - k * sy])
                                + coef[cx + k] * (u[i + k] + u[i - k]);
                    }
                    if (rev != 0) {
                        un[i] = (2.0f * u[i] + v2[i] * s) - un[i];
                    }
                    w[i] = v2[i] * qb[i];
                    grad[i] = grad[i] + qb[i] * s;
                }
            }
        }
    }
}
