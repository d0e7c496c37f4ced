package sweep.acoustictti.kernels;

import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.kernels.Parallel;

/**
 * Kernels of one step of the 3-D pseudo-acoustic TTI leapfrog and of its exact transpose, over the rows [z0, z1) of
 * the computational grid: {@link AcousticTtiKernels}' split Z = ½·L + ½·D·(R D), H = ½·L − ½·D·(R D) with the 3-D
 * compact Laplacian L, the centred first differences D along x, y and z, and R = 2·n nᵀ − I per cell, n the unit
 * symmetry axis (ux, uy, uz) = (sin θ cos φ, sin θ sin φ, cos θ) in (x, y, z). The fluxes are
 * R D̃u = 2·n (n·D̃u) − D̃u.
 * The tilt's and the azimuth's gradients use ∂n/∂θ = (tx, ty, tz) = (cos θ cos φ, cos θ sin φ, −sin θ) and
 * ∂n/∂φ = (−uy, ux, 0).
 *
 * <p>Layout, profiles, near flags and weights as {@link AcousticVtiKernels} in 3-D: cell (z, y, x) is array index
 * {@code base + z·sz + y·sy + x}; axis slots 0 = z, 1 = y, 2 = x. The tape (when {@code taping} is 1) holds per step
 * and cell c = (z·ny + y)·nx + x the horizontal H p at {@code c}, the axial Z q at {@code cells + c}, then D̃p along
 * x, y, z at {@code (2..4)·cells + c} and D̃q along x, y, z at {@code (5..7)·cells + c}.
 */
public final class AcousticTti3dKernels {
    private AcousticTti3dKernels() {
    }

    /**
     * The first pass: the fluxes fp = R D̃p and fq = R D̃q (x, y, z components), the ψ of each band (sp of p, sq of
     * q) updated on the way.
     */
    public static void gradient(float[] p, float[] q, float[] fpx, float[] fpy, float[] fpz, float[] fqx, float[] fqy,
                                float[] fqz, float[] spx, float[] spy, float[] spz, float[] sqx, float[] sqy,
                                float[] sqz, float[] ux, float[] uy, float[] uz, float[] prof, float[] c, int h,
                                int base, int sz, int sy, int nz, int ny, int nx, int z0, int z1, float[] tape,
                                int taping) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    gradientCell(p, q, fpx, fpy, fpz, fqx, fqy, fqz, spx, spy, spz, sqx, sqy, sqz, ux, uy, uz, prof,
                            c, h, base, sz, sy, nz, ny, nx, z0 + iz, y, x, tape, taping);
                }
            }
        }
    }

    /** {@link #gradient} of cell (z, y, x). */
    public static void gradientCell(float[] p, float[] q, float[] fpx, float[] fpy, float[] fpz, float[] fqx,
                                    float[] fqy, float[] fqz, float[] spx, float[] spy, float[] spz, float[] sqx,
                                    float[] sqy, float[] sqz, float[] ux, float[] uy, float[] uz, float[] prof,
                                    float[] c, int h, int base, int sz, int sy, int nz, int ny, int nx, int z, int y,
                                    int x, float[] tape, int taping) {
        int i = base + z * sz + y * sy + x;
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        float gpx = 0.0f;
        float gpy = 0.0f;
        float gpz = 0.0f;
        float gqx = 0.0f;
        float gqy = 0.0f;
        float gqz = 0.0f;
        for (int k = 1; k <= h; k++) {
            float cz = c[3 * (h + 1) + k];
            float cy = c[4 * (h + 1) + k];
            float cx = c[5 * (h + 1) + k];
            gpx += cx * (p[i + k] - p[i - k]);
            gpy += cy * (p[i + k * sy] - p[i - k * sy]);
            gpz += cz * (p[i + k * sz] - p[i - k * sz]);
            gqx += cx * (q[i + k] - q[i - k]);
            gqy += cy * (q[i + k * sy] - q[i - k * sy]);
            gqz += cz * (q[i + k * sz] - q[i - k * sz]);
        }
        float ax = prof[ox + x];
        if (ax != 0.0f) {
            float bx = prof[ox + nx + x];
            float t = ax * spx[i] + bx * gpx;
            spx[i] = t;
            gpx += t;
            t = ax * sqx[i] + bx * gqx;
            sqx[i] = t;
            gqx += t;
        }
        float ay = prof[oy + y];
        if (ay != 0.0f) {
            float by = prof[oy + ny + y];
            float t = ay * spy[i] + by * gpy;
            spy[i] = t;
            gpy += t;
            t = ay * sqy[i] + by * gqy;
            sqy[i] = t;
            gqy += t;
        }
        float az = prof[z];
        if (az != 0.0f) {
            float bz = prof[nz + z];
            float t = az * spz[i] + bz * gpz;
            spz[i] = t;
            gpz += t;
            t = az * sqz[i] + bz * gqz;
            sqz[i] = t;
            gqz += t;
        }
        float nxi = ux[i];
        float nyi = uy[i];
        float nzi = uz[i];
        float dp = 2.0f * (nxi * gpx + nyi * gpy + nzi * gpz);
        float dq = 2.0f * (nxi * gqx + nyi * gqy + nzi * gqz);
        fpx[i] = dp * nxi - gpx;
        fpy[i] = dp * nyi - gpy;
        fpz[i] = dp * nzi - gpz;
        fqx[i] = dq * nxi - gqx;
        fqy[i] = dq * nyi - gqy;
        fqz[i] = dq * nzi - gqz;
        if (taping == 1) {
            int cells = nz * ny * nx;
            int kc = (z * ny + y) * nx + x;
            tape[2 * cells + kc] = gpx;
            tape[3 * cells + kc] = gpy;
            tape[4 * cells + kc] = gpz;
            tape[5 * cells + kc] = gqx;
            tape[6 * cells + kc] = gqy;
            tape[7 * cells + kc] = gqz;
        }
    }

    /**
     * The second pass: H p = ½(L p − D̃·fp), Z q = ½(L q + D̃·fq) (the compact CPML's ζ and the divergence's ξ updated
     * on the way) into pp ← 2p − pp + ah·Hp + an·Zq, qp ← 2q − qp + an·Hp + a0·Zq. The compact CPML's ψ and ζ come
     * per field and axis (p along x, y, z, then q), the fluxes and their ξ in the order of {@link #gradient}.
     */
    public static void update(float[] p, float[] q, float[] pp, float[] qp, float[] psiPx, float[] zetaPx,
                              float[] psiPy, float[] zetaPy, float[] psiPz, float[] zetaPz, float[] psiQx,
                              float[] zetaQx, float[] psiQy, float[] zetaQy, float[] psiQz, float[] zetaQz,
                              float[] fpx, float[] fpy, float[] fpz, float[] fqx, float[] fqy, float[] fqz,
                              float[] xpx, float[] xpy, float[] xpz, float[] xqx, float[] xqy, float[] xqz,
                              float[] ah, float[] an, float[] a0, float[] prof, int[] near, float[] c, int h,
                              int base, int sz, int sy, int nz, int ny, int nx, int z0, int z1, float[] tape,
                              int taping) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    updateCell(p, q, pp, qp, psiPx, zetaPx, psiPy, zetaPy, psiPz, zetaPz, psiQx, zetaQx, psiQy,
                            zetaQy, psiQz, zetaQz, fpx, fpy, fpz, fqx, fqy, fqz, xpx, xpy, xpz, xqx, xqy, xqz, ah, an,
                            a0, prof, near, c, h, base, sz, sy, nz, ny, nx, z0 + iz, y, x, tape, taping);
                }
            }
        }
    }

    /** {@link #update} of cell (z, y, x). */
    public static void updateCell(float[] p, float[] q, float[] pp, float[] qp, float[] psiPx, float[] zetaPx,
                                  float[] psiPy, float[] zetaPy, float[] psiPz, float[] zetaPz, float[] psiQx,
                                  float[] zetaQx, float[] psiQy, float[] zetaQy, float[] psiQz, float[] zetaQz,
                                  float[] fpx, float[] fpy, float[] fpz, float[] fqx, float[] fqy, float[] fqz,
                                  float[] xpx, float[] xpy, float[] xpz, float[] xqx, float[] xqy, float[] xqz,
                                  float[] ah, float[] an, float[] a0, float[] prof, int[] near, float[] c, int h,
                                  int base, int sz, int sy, int nz, int ny, int nx, int z, int y, int x, float[] tape,
                                  int taping) {
        int i = base + z * sz + y * sy + x;
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        float lp = AcousticVtiKernels.term(p, psiPx, zetaPx, i, 1, x, nx, ox, nz + ny, 2, prof, near, c, h)
                + AcousticVtiKernels.term(p, psiPy, zetaPy, i, sy, y, ny, oy, nz, 1, prof, near, c, h)
                + AcousticVtiKernels.term(p, psiPz, zetaPz, i, sz, z, nz, 0, 0, 0, prof, near, c, h);
        float lq = AcousticVtiKernels.term(q, psiQx, zetaQx, i, 1, x, nx, ox, nz + ny, 2, prof, near, c, h)
                + AcousticVtiKernels.term(q, psiQy, zetaQy, i, sy, y, ny, oy, nz, 1, prof, near, c, h)
                + AcousticVtiKernels.term(q, psiQz, zetaQz, i, sz, z, nz, 0, 0, 0, prof, near, c, h);
        float dpx = 0.0f;
        float dpy = 0.0f;
        float dpz = 0.0f;
        float dqx = 0.0f;
        float dqy = 0.0f;
        float dqz = 0.0f;
        for (int k = 1; k <= h; k++) {
            float cz = c[3 * (h + 1) + k];
            float cy = c[4 * (h + 1) + k];
            float cx = c[5 * (h + 1) + k];
            dpx += cx * (fpx[i + k] - fpx[i - k]);
            dpy += cy * (fpy[i + k * sy] - fpy[i - k * sy]);
            dpz += cz * (fpz[i + k * sz] - fpz[i - k * sz]);
            dqx += cx * (fqx[i + k] - fqx[i - k]);
            dqy += cy * (fqy[i + k * sy] - fqy[i - k * sy]);
            dqz += cz * (fqz[i + k * sz] - fqz[i - k * sz]);
        }
        float ax = prof[ox + x];
        if (ax != 0.0f) {
            float bx = prof[ox + nx + x];
            float t = ax * xpx[i] + bx * dpx;
            xpx[i] = t;
            dpx += t;
            t = ax * xqx[i] + bx * dqx;
            xqx[i] = t;
            dqx += t;
        }
        float ay = prof[oy + y];
        if (ay != 0.0f) {
            float by = prof[oy + ny + y];
            float t = ay * xpy[i] + by * dpy;
            xpy[i] = t;
            dpy += t;
            t = ay * xqy[i] + by * dqy;
            xqy[i] = t;
            dqy += t;
        }
        float az = prof[z];
        if (az != 0.0f) {
            float bz = prof[nz + z];
            float t = az * xpz[i] + bz * dpz;
            xpz[i] = t;
            dpz += t;
            t = az * xqz[i] + bz * dqz;
            xqz[i] = t;
            dqz += t;
        }
        float lh = 0.5f * (lp - (dpx + dpy + dpz));
        float lz = 0.5f * (lq + (dqx + dqy + dqz));
        pp[i] = 2.0f * p[i] - pp[i] + ah[i] * lh + an[i] * lz;
        qp[i] = 2.0f * q[i] - qp[i] + an[i] * lh + a0[i] * lz;
        if (taping == 1) {
            int kc = (z * ny + y) * nx + x;
            tape[kc] = lh;
            tape[nz * ny * nx + kc] = lz;
        }
    }

    /**
     * The transpose of {@link #update}, pointwise part: from the adjoints P̄, Q̄ of the new levels, the adjoints of
     * the compact second derivatives into w0..w5 (p along x, y, z, then q; ζ̄ transposed on the way) and of the raw
     * divergences into w6..w11 (the same order; ξ̄ transposed), the coefficients' gradients gh += P̄·Hp,
     * gn += P̄·Zq + Q̄·Hp, g0 += Q̄·Zq from the tape, p̄ += 2P̄, q̄ += 2Q̄, and the previous levels' adjoints become
     * −P̄, −Q̄.
     */
    public static void updateAdjointPoint(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar,
                                          float[] zetaPxBar, float[] zetaPyBar, float[] zetaPzBar, float[] zetaQxBar,
                                          float[] zetaQyBar, float[] zetaQzBar, float[] xpxBar, float[] xpyBar,
                                          float[] xpzBar, float[] xqxBar, float[] xqyBar, float[] xqzBar, float[] ah,
                                          float[] an, float[] a0, float[] prof, float[] w0, float[] w1, float[] w2,
                                          float[] w3, float[] w4, float[] w5, float[] w6, float[] w7, float[] w8,
                                          float[] w9, float[] w10, float[] w11, float[] gh, float[] gn, float[] g0,
                                          int base, int sz, int sy, int nz, int ny, int nx, int z0, int z1,
                                          float[] tape) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    updateAdjointPointCell(pbar, qbar, ppbar, qpbar, zetaPxBar, zetaPyBar, zetaPzBar, zetaQxBar,
                            zetaQyBar, zetaQzBar, xpxBar, xpyBar, xpzBar, xqxBar, xqyBar, xqzBar, ah, an, a0, prof, w0,
                            w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, gh, gn, g0, base, sz, sy, nz, ny, nx, z0 + iz,
                            y, x, tape);
                }
            }
        }
    }

    /** {@link #updateAdjointPoint} of cell (z, y, x). */
    public static void updateAdjointPointCell(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar,
                                              float[] zetaPxBar, float[] zetaPyBar, float[] zetaPzBar,
                                              float[] zetaQxBar, float[] zetaQyBar, float[] zetaQzBar, float[] xpxBar,
                                              float[] xpyBar, float[] xpzBar, float[] xqxBar, float[] xqyBar,
                                              float[] xqzBar, float[] ah, float[] an, float[] a0, float[] prof,
                                              float[] w0, float[] w1, float[] w2, float[] w3, float[] w4, float[] w5,
                                              float[] w6, float[] w7, float[] w8, float[] w9, float[] w10, float[] w11,
                                              float[] gh, float[] gn, float[] g0, int base, int sz, int sy, int nz,
                                              int ny, int nx, int z, int y, int x, float[] tape) {
        int i = base + z * sz + y * sy + x;
        int kc = (z * ny + y) * nx + x;
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        float pb = ppbar[i];
        float qb = qpbar[i];
        float t1 = tape[kc];
        float t2 = tape[nz * ny * nx + kc];
        gh[i] += pb * t1;
        gn[i] += pb * t2 + qb * t1;
        g0[i] += qb * t2;
        float lh = 0.5f * (ah[i] * pb + an[i] * qb);
        float lz = 0.5f * (an[i] * pb + a0[i] * qb);
        float ax = prof[ox + x];
        float bx = prof[ox + nx + x];
        float ay = prof[oy + y];
        float by = prof[oy + ny + y];
        float az = prof[z];
        float bz = prof[nz + z];
        w0[i] = AcousticVtiKernels.termAdjoint(lh, zetaPxBar, i, ax, bx);
        w1[i] = AcousticVtiKernels.termAdjoint(lh, zetaPyBar, i, ay, by);
        w2[i] = AcousticVtiKernels.termAdjoint(lh, zetaPzBar, i, az, bz);
        w3[i] = AcousticVtiKernels.termAdjoint(lz, zetaQxBar, i, ax, bx);
        w4[i] = AcousticVtiKernels.termAdjoint(lz, zetaQyBar, i, ay, by);
        w5[i] = AcousticVtiKernels.termAdjoint(lz, zetaQzBar, i, az, bz);
        w6[i] = AcousticVtiKernels.termAdjoint(-lh, xpxBar, i, ax, bx);
        w7[i] = AcousticVtiKernels.termAdjoint(-lh, xpyBar, i, ay, by);
        w8[i] = AcousticVtiKernels.termAdjoint(-lh, xpzBar, i, az, bz);
        w9[i] = AcousticVtiKernels.termAdjoint(lz, xqxBar, i, ax, bx);
        w10[i] = AcousticVtiKernels.termAdjoint(lz, xqyBar, i, ay, by);
        w11[i] = AcousticVtiKernels.termAdjoint(lz, xqzBar, i, az, bz);
        pbar[i] += 2.0f * pb;
        qbar[i] += 2.0f * qb;
        ppbar[i] = -pb;
        qpbar[i] = -qb;
    }

    /**
     * The transpose of {@link #update}, gathering part (after w0..w11 hold their neighbours' values across a cut):
     * p̄ += Σ L_aᵀ w(p, a), q̄ += Σ L_aᵀ w(q, a), the compact CPML's ψ̄ += D_aᵀ w at its band cells, and the fluxes'
     * adjoints f̄ += D_aᵀ w6..w11.
     */
    public static void updateAdjointGather(float[] pbar, float[] qbar, float[] psiPxBar, float[] psiPyBar,
                                           float[] psiPzBar, float[] psiQxBar, float[] psiQyBar, float[] psiQzBar,
                                           float[] fpxBar, float[] fpyBar, float[] fpzBar, float[] fqxBar,
                                           float[] fqyBar, float[] fqzBar, float[] w0, float[] w1, float[] w2,
                                           float[] w3, float[] w4, float[] w5, float[] w6, float[] w7, float[] w8,
                                           float[] w9, float[] w10, float[] w11, float[] prof, float[] c, int h,
                                           int base, int sz, int sy, int nz, int ny, int nx, int z0, int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    updateAdjointGatherCell(pbar, qbar, psiPxBar, psiPyBar, psiPzBar, psiQxBar, psiQyBar, psiQzBar,
                            fpxBar, fpyBar, fpzBar, fqxBar, fqyBar, fqzBar, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10,
                            w11, prof, c, h, base, sz, sy, nz, ny, nx, z0 + iz, y, x);
                }
            }
        }
    }

    /** {@link #updateAdjointGather} of cell (z, y, x). */
    public static void updateAdjointGatherCell(float[] pbar, float[] qbar, float[] psiPxBar, float[] psiPyBar,
                                               float[] psiPzBar, float[] psiQxBar, float[] psiQyBar, float[] psiQzBar,
                                               float[] fpxBar, float[] fpyBar, float[] fpzBar, float[] fqxBar,
                                               float[] fqyBar, float[] fqzBar, float[] w0, float[] w1, float[] w2,
                                               float[] w3, float[] w4, float[] w5, float[] w6, float[] w7, float[] w8,
                                               float[] w9, float[] w10, float[] w11, float[] prof, float[] c, int h,
                                               int base, int sz, int sy, int nz, int ny, int nx, int z, int y,
                                               int x) {
        int i = base + z * sz + y * sy + x;
        pbar[i] += AcousticVtiKernels.secondTransposed(w0, i, 1, 2, c, h)
                + AcousticVtiKernels.secondTransposed(w1, i, sy, 1, c, h)
                + AcousticVtiKernels.secondTransposed(w2, i, sz, 0, c, h);
        qbar[i] += AcousticVtiKernels.secondTransposed(w3, i, 1, 2, c, h)
                + AcousticVtiKernels.secondTransposed(w4, i, sy, 1, c, h)
                + AcousticVtiKernels.secondTransposed(w5, i, sz, 0, c, h);
        if (prof[4 * (nz + ny) + x] != 0.0f) {
            psiPxBar[i] += AcousticVtiKernels.firstTransposed(w0, i, 1, 2, c, h);
            psiQxBar[i] += AcousticVtiKernels.firstTransposed(w3, i, 1, 2, c, h);
        }
        if (prof[4 * nz + y] != 0.0f) {
            psiPyBar[i] += AcousticVtiKernels.firstTransposed(w1, i, sy, 1, c, h);
            psiQyBar[i] += AcousticVtiKernels.firstTransposed(w4, i, sy, 1, c, h);
        }
        if (prof[z] != 0.0f) {
            psiPzBar[i] += AcousticVtiKernels.firstTransposed(w2, i, sz, 0, c, h);
            psiQzBar[i] += AcousticVtiKernels.firstTransposed(w5, i, sz, 0, c, h);
        }
        fpxBar[i] += AcousticVtiKernels.firstTransposed(w6, i, 1, 2, c, h);
        fpyBar[i] += AcousticVtiKernels.firstTransposed(w7, i, sy, 1, c, h);
        fpzBar[i] += AcousticVtiKernels.firstTransposed(w8, i, sz, 0, c, h);
        fqxBar[i] += AcousticVtiKernels.firstTransposed(w9, i, 1, 2, c, h);
        fqyBar[i] += AcousticVtiKernels.firstTransposed(w10, i, sy, 1, c, h);
        fqzBar[i] += AcousticVtiKernels.firstTransposed(w11, i, sz, 0, c, h);
    }

    /**
     * The transpose of {@link #gradient}, pointwise part: from the fluxes' adjoints (then zeroed: the pass overwrites
     * the fluxes) the adjoints of the six raw first differences into wpx, wpy, wpz, wqx, wqy, wqz (ψ̄ transposed on
     * the way; R is symmetric), and the angles' gradients gt += Σ f̄ᵀ (∂R/∂θ) D̃u, gf += Σ f̄ᵀ (∂R/∂φ) D̃u (radians)
     * from the tape, ∂R/∂θ = 2(∂n nᵀ + n ∂nᵀ).
     */
    public static void gradientAdjointPoint(float[] fpxBar, float[] fpyBar, float[] fpzBar, float[] fqxBar,
                                            float[] fqyBar, float[] fqzBar, float[] spxBar, float[] spyBar,
                                            float[] spzBar, float[] sqxBar, float[] sqyBar, float[] sqzBar,
                                            float[] ux, float[] uy, float[] uz, float[] tx, float[] ty, float[] tz,
                                            float[] prof, float[] wpx, float[] wpy, float[] wpz, float[] wqx,
                                            float[] wqy, float[] wqz, float[] gt, float[] gf, int base, int sz, int sy,
                                            int nz, int ny, int nx, int z0, int z1, float[] tape) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    gradientAdjointPointCell(fpxBar, fpyBar, fpzBar, fqxBar, fqyBar, fqzBar, spxBar, spyBar, spzBar,
                            sqxBar, sqyBar, sqzBar, ux, uy, uz, tx, ty, tz, prof, wpx, wpy, wpz, wqx, wqy, wqz, gt, gf,
                            base, sz, sy, nz, ny, nx, z0 + iz, y, x, tape);
                }
            }
        }
    }

    /** {@link #gradientAdjointPoint} of cell (z, y, x). */
    public static void gradientAdjointPointCell(float[] fpxBar, float[] fpyBar, float[] fpzBar, float[] fqxBar,
                                                float[] fqyBar, float[] fqzBar, float[] spxBar, float[] spyBar,
                                                float[] spzBar, float[] sqxBar, float[] sqyBar, float[] sqzBar,
                                                float[] ux, float[] uy, float[] uz, float[] tx, float[] ty,
                                                float[] tz, float[] prof, float[] wpx, float[] wpy, float[] wpz,
                                                float[] wqx, float[] wqy, float[] wqz, float[] gt, float[] gf,
                                                int base, int sz, int sy, int nz, int ny, int nx, int z, int y, int x,
                                                float[] tape) {
        int i = base + z * sz + y * sy + x;
        int cells = nz * ny * nx;
        int kc = (z * ny + y) * nx + x;
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        float a1 = fpxBar[i];
        float a2 = fpyBar[i];
        float a3 = fpzBar[i];
        float e1 = fqxBar[i];
        float e2 = fqyBar[i];
        float e3 = fqzBar[i];
        fpxBar[i] = 0.0f;
        fpyBar[i] = 0.0f;
        fpzBar[i] = 0.0f;
        fqxBar[i] = 0.0f;
        fqyBar[i] = 0.0f;
        fqzBar[i] = 0.0f;
        float gpx = tape[2 * cells + kc];
        float gpy = tape[3 * cells + kc];
        float gpz = tape[4 * cells + kc];
        float gqx = tape[5 * cells + kc];
        float gqy = tape[6 * cells + kc];
        float gqz = tape[7 * cells + kc];
        float nxi = ux[i];
        float nyi = uy[i];
        float nzi = uz[i];
        float mx = tx[i];
        float my = ty[i];
        float mz = tz[i];
        // n·f̄ and n·D̃u, ∂n/∂θ·f̄ and ∂n/∂θ·D̃u, ∂n/∂φ·f̄ and ∂n/∂φ·D̃u, of p and of q
        float np = nxi * a1 + nyi * a2 + nzi * a3;
        float nq = nxi * e1 + nyi * e2 + nzi * e3;
        float dp = nxi * gpx + nyi * gpy + nzi * gpz;
        float dq = nxi * gqx + nyi * gqy + nzi * gqz;
        float tp = mx * a1 + my * a2 + mz * a3;
        float tq = mx * e1 + my * e2 + mz * e3;
        float sp = mx * gpx + my * gpy + mz * gpz;
        float sq = mx * gqx + my * gqy + mz * gqz;
        float fp = nxi * a2 - nyi * a1;
        float fq = nxi * e2 - nyi * e1;
        float rp = nxi * gpy - nyi * gpx;
        float rq = nxi * gqy - nyi * gqx;
        gt[i] += 2.0f * (tp * dp + np * sp + tq * dq + nq * sq);
        gf[i] += 2.0f * (fp * dp + np * rp + fq * dq + nq * rq);
        float ax = prof[ox + x];
        float bx = prof[ox + nx + x];
        float ay = prof[oy + y];
        float by = prof[oy + ny + y];
        float az = prof[z];
        float bz = prof[nz + z];
        float hp = 2.0f * np;
        float hq = 2.0f * nq;
        wpx[i] = AcousticVtiKernels.termAdjoint(hp * nxi - a1, spxBar, i, ax, bx);
        wpy[i] = AcousticVtiKernels.termAdjoint(hp * nyi - a2, spyBar, i, ay, by);
        wpz[i] = AcousticVtiKernels.termAdjoint(hp * nzi - a3, spzBar, i, az, bz);
        wqx[i] = AcousticVtiKernels.termAdjoint(hq * nxi - e1, sqxBar, i, ax, bx);
        wqy[i] = AcousticVtiKernels.termAdjoint(hq * nyi - e2, sqyBar, i, ay, by);
        wqz[i] = AcousticVtiKernels.termAdjoint(hq * nzi - e3, sqzBar, i, az, bz);
    }

    /**
     * The transpose of {@link #gradient}, gathering part (after the w hold their neighbours' values across a cut):
     * p̄ += Dxᵀ wpx + Dyᵀ wpy + Dzᵀ wpz, q̄ likewise.
     */
    public static void gradientAdjointGather(float[] pbar, float[] qbar, float[] wpx, float[] wpy, float[] wpz,
                                             float[] wqx, float[] wqy, float[] wqz, float[] c, int h, int base, int sz,
                                             int sy, int ny, int nx, int z0, int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    int i = base + (z0 + iz) * sz + y * sy + x;
                    pbar[i] += AcousticVtiKernels.firstTransposed(wpx, i, 1, 2, c, h)
                            + AcousticVtiKernels.firstTransposed(wpy, i, sy, 1, c, h)
                            + AcousticVtiKernels.firstTransposed(wpz, i, sz, 0, c, h);
                    qbar[i] += AcousticVtiKernels.firstTransposed(wqx, i, 1, 2, c, h)
                            + AcousticVtiKernels.firstTransposed(wqy, i, sy, 1, c, h)
                            + AcousticVtiKernels.firstTransposed(wqz, i, sz, 0, c, h);
                }
            }
        }
    }
}
