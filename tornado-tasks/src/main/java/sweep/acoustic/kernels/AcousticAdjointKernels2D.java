package sweep.acoustic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the exact discrete adjoint (transpose) of one 2-D forward step of {@link AcousticKernels2D}, in gather
 * form: every kernel writes only its own cells. One backward step n, with {@code qb} holding λ^{n+1} and {@code qp}
 * holding q̄^{n+1}: {@link #mirrorTopAdjoint} (free surface) turns qb into q̄^n; {@link #scale} forms w = v²dt²·q̄ and
 * accumulates the gradient; {@link #pmlZeta} and {@link #pmlPsi} run the CPML auxiliaries backwards in the bands;
 * {@link #interior}, {@link #general} and {@link #ghostRows} overwrite qp with λ^n. Arrays as in {@link Layout};
 * {@code cor} and {@code pb} are per-axis scratch fields that must be zero outside their bands.
 */
public final class AcousticAdjointKernels2D {
    private AcousticAdjointKernels2D() {
    }

    /**
     * Transpose of {@link AcousticKernels2D#mirrorTop}: folds the ghost rows into the rows they mirror and clears them.
     */
    public static void mirrorTopAdjoint(float[] qb, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            for (int k = 1; k <= h; k++) {
                qb[i + k * sz] = qb[i + k * sz] - qb[i - k * sz];
                qb[i - k * sz] = 0.0f;
            }
            qb[i] = 0.0f;
        }
    }

    /** {@code w = v2·qb} and {@code grad += qb·d} (d: the forward step's Laplacian term plus source) over the box. */
    public static void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                             int z0, int z1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                w[i] = v2[i] * qb[i];
                grad[i] = grad[i] + qb[i] * d[i];
            }
        }
    }

    /** Backward zeta recursion in each band: {@code t = zetab + w; cor = b·t; zetab = a·t}. */
    public static void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo,
                               int z0, int z1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int az = Layout.aux(0);
        int ax = Layout.aux(2);
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                if (z < zbl | z >= zbh) {
                    int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * geo[az + 2] + x;
                    float t = zetab[jz] + w[i];
                    cor[jz] = prof[nz + z] * t;
                    zetab[jz] = prof[z] * t;
                }
                if (x < xbl | x >= xbh) {
                    int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + x;
                    float t = zetab[jx] + w[i];
                    cor[jx] = prof[pbx + x] * t;
                    zetab[jx] = prof[pax + x] * t;
                }
            }
        }
    }

    /**
     * Backward psi recursion in each band: {@code t = psib + Dᵀ(band·(w + cor)); pb = b·t; psib = a·t}, where Dᵀ is
     * the transpose of the first-derivative stencil and band() zeroes cells outside the axis's band.
     */
    public static void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int az = Layout.aux(0);
        int ax = Layout.aux(2);
        int psz = geo[az + 2];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + nx;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                if (z < zbl | z >= zbh) {
                    int jz = (z < zbl ? geo[az] : geo[az + 1]) + z * geo[az + 2] + x;
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
                if (x < xbl | x >= xbh) {
                    int jx = (x < xbl ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + x;
                    float t = psib[jx];
                    for (int k = 1; k <= h; k++) {
                        int xm = x - k;
                        int xp = x + k;
                        float lo = (xm >= 0 & (xm < xbl | xm >= xbh)) ? w[i - k] + cor[jx - k] : 0.0f;
                        float hi = (xp < nx & (xp < xbl | xp >= xbh)) ? w[i + k] + cor[jx + k] : 0.0f;
                        t += coef[dx + k - 1] * (lo - hi);
                    }
                    pb[jx] = prof[pbx + x] * t;
                    psib[jx] = prof[pax + x] * t;
                }
            }
        }
    }

    /**
     * λ^n for cells whose stencil reaches no PML band: {@code qp = (2·qb − qp) + L w} (L the symmetric Laplacian
     * stencil, summed as in {@link AcousticKernels2D#interior}).
     */
    public static void interior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
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
                float s = c00 * w[i];
                for (int k = 1; k <= h; k++) {
                    s += coef[k] * (w[i + k * sz] + w[i - k * sz]) + coef[cx + k] * (w[i + k] + w[i - k]);
                }
                qp[i] = (2.0f * qb[i] - qp[i]) + s;
            }
        }
    }

    /**
     * λ^n for cells in or next to a band: per axis the Laplacian stencil of {@code w + cor_a} plus the transposed
     * first derivative of {@code pb_a}; {@code qp = (2·qb − qp) + Σ_a}.
     */
    public static void general(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
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
        int psz = geo[az + 2];
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                boolean rz = z < zbl + h | z >= zbh - h;
                boolean rx = x < xbl + h | x >= xbh - h;
                int jz = rz ? (z < zbl + h ? geo[az] : geo[az + 1]) + z * psz + x : 0;
                int jx = rx ? (x < xbl + h ? geo[ax] : geo[ax + 1]) + z * geo[ax + 2] + x : 0;
                float tz = AcousticAdjointKernels3D.generalTerm(w, cor, pb, coef, h, 0, d1, i, sz, rz ? 1 : 0, jz, psz);
                float tx = AcousticAdjointKernels3D.generalTerm(w, cor, pb, coef, h, cx, dx, i, 1, rx ? 1 : 0, jx, 1);
                qp[i] = (2.0f * qb[i] - qp[i]) + (tz + tx);
            }
        }
    }

    /**
     * Free surface: λ of the ghost rows above the surface, the transposed reads of the rows below them,
     * {@code qp(−m) = Σ_{r=0}^{h−m} c_z(r+m)·w(r)} (no z band at a free-surface top, so cor_z is zero there).
     */
    public static void ghostRows(float[] qp, float[] w, float[] coef, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            for (int m = 1; m <= h; m++) {
                float s = 0.0f;
                for (int r = 0; r <= h - m; r++) {
                    s += coef[r + m] * w[i + r * sz];
                }
                qp[i - m * sz] = s;
            }
        }
    }

    /** Time reversal of the interior leapfrog: {@code un = (2u + v2·d) − un}, d the Laplacian term of u. */
    public static void reverse(float[] u, float[] un, float[] v2, float[] d, int[] geo, int z0, int z1, int x0,
            int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                un[i] = (2.0f * u[i] + v2[i] * d[i]) - un[i];
            }
        }
    }

    /**
     * Boundary saving, fused over cells of the interior box (outside every band): with {@code d} the Laplacian term
     * of {@code u} (as {@link AcousticKernels2D#laplacian} forms it, kept in a register), the time reversal
     * {@code un = (2u + v2·d) − un} when {@code rev} is non-zero, then {@code w = v2·qb} and {@code grad += qb·d}:
     * per cell the same float operations as {@link AcousticKernels2D#laplacian}, {@link #reverse} and {@link #scale} in
     * sequence (source cells, whose d also holds the wavelet, must be redone by the caller).
     */
    public static void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad,
                                    float[] coef, int[] geo, int rev, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int z = z0 + iz;
                int x = x0 + ix;
                int i = off + z * sz + x;
                float s = c00 * u[i];
                for (int k = 1; k <= h; k++) {
                    s += coef[k] * (u[i + k * sz] + u[i - k * sz]) + coef[cx + k] * (u[i + k] + u[i - k]);
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
