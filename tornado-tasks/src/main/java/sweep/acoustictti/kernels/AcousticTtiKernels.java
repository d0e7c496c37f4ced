package sweep.acoustictti.kernels;

import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.kernels.Parallel;

/**
 * Kernels of one step of the pseudo-acoustic TTI leapfrog p_tt = vp²[(1 + 2ε)·H p + √(1 + 2δ)·Z q],
 * q_tt = vp²[√(1 + 2δ)·H p + Z q] in 2-D and of its exact transpose, over the rows [z0, z1) of the computational
 * grid. The rotated operators are split into an isotropic and a traceless part, Z = ½·L + ½·D·(R D) and
 * H = ½·L − ½·D·(R D): L the compact second-derivative Laplacian of {@code acoustic-vti}'s stencils and CPML, D the
 * centred first differences with their CPML, R = [[−cos 2θ, sin 2θ], [sin 2θ, cos 2θ]] in (x, z) per cell (n nᵀ =
 * ½(I + R), n = (sin θ, cos θ) the symmetry axis). A step is {@link #gradient} (the fluxes F_p = R D̃p,
 * F_q = R D̃q), {@link #update} (their divergence and L into the leapfrog) and the compact CPML's memory stage
 * ({@link AcousticVtiKernels#memory}).
 *
 * <p>Layout and weights as {@link AcousticVtiKernels} (2-D: sy = 0, ny = 1; z the axis slot 0 and x slot 2):
 * cell (z, x) is array index {@code base + z·sz + x}; {@code prof} holds the CPML decay a and update b of z from
 * offset 0 and of x from offset 4·(nz + 1); {@code c} the second-derivative weights over dh² at {@code s·(h + 1) + k}
 * and the centred first-derivative weights over dh at {@code (3 + s)·(h + 1) + k}. The CPML first difference is
 * D̃u = Du + ψ with ψ ← a·ψ + b·Du in the band (ψ of the first pass, ξ of the second).
 *
 * <p>The tape (when {@code taping} is 1) holds per step and cell c = z·nx + x the horizontal H p at {@code c}, the
 * axial Z q at {@code cells + c}, then D̃p along x and z and D̃q along x and z at {@code (2..5)·cells + c}.
 */
public final class AcousticTtiKernels {
    private AcousticTtiKernels() {
    }

    /** The first pass: the fluxes fpx, fpz of p and fqx, fqz of q, the ψ of each band updated on the way. */
    public static void gradient(float[] p, float[] q, float[] fpx, float[] fpz, float[] fqx, float[] fqz,
                                float[] spx, float[] spz, float[] sqx, float[] sqz, float[] rc, float[] rs,
                                float[] prof, float[] c, int h, int base, int sz, int nz, int nx, int z0, int z1,
                                float[] tape, int taping) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int x = 0; x < nx; x++) {
                gradientCell(p, q, fpx, fpz, fqx, fqz, spx, spz, sqx, sqz, rc, rs, prof, c, h, base, sz, nz, nx,
                        z0 + iz, x, tape, taping);
            }
        }
    }

    /** {@link #gradient} of cell (z, x); rc = cos 2θ, rs = sin 2θ. */
    public static void gradientCell(float[] p, float[] q, float[] fpx, float[] fpz, float[] fqx, float[] fqz,
                                    float[] spx, float[] spz, float[] sqx, float[] sqz, float[] rc, float[] rs,
                                    float[] prof, float[] c, int h, int base, int sz, int nz, int nx, int z, int x,
                                    float[] tape, int taping) {
        int ox = 4 * (nz + 1);
        int o1z = 3 * (h + 1);
        int o1x = 5 * (h + 1);
        int i = base + z * sz + x;
        float gpx = 0.0f;
        float gpz = 0.0f;
        float gqx = 0.0f;
        float gqz = 0.0f;
        for (int k = 1; k <= h; k++) {
            float cx = c[o1x + k];
            float cz = c[o1z + k];
            gpx += cx * (p[i + k] - p[i - k]);
            gpz += cz * (p[i + k * sz] - p[i - k * sz]);
            gqx += cx * (q[i + k] - q[i - k]);
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
        fpx[i] = rs[i] * gpz - rc[i] * gpx;
        fpz[i] = rs[i] * gpx + rc[i] * gpz;
        fqx[i] = rs[i] * gqz - rc[i] * gqx;
        fqz[i] = rs[i] * gqx + rc[i] * gqz;
        if (taping == 1) {
            int cells = nz * nx;
            int k = z * nx + x;
            tape[2 * cells + k] = gpx;
            tape[3 * cells + k] = gpz;
            tape[4 * cells + k] = gqx;
            tape[5 * cells + k] = gqz;
        }
    }

    /**
     * The second pass: H p = ½(L p − D̃·F_p), Z q = ½(L q + D̃·F_q) (the compact CPML's ζ and the divergence's ξ
     * updated on the way) into pp ← 2p − pp + ah·Hp + an·Zq, qp ← 2q − qp + an·Hp + a0·Zq (the new level over the
     * previous one). {@code lm} holds the compact CPML's ψ and ζ of p along x, of p along z, of q along x, of q along
     * z (8 arrays), {@code f} the fluxes fpx, fpz, fqx, fqz, {@code xi} their ξ in the same order.
     */
    public static void update(float[] p, float[] q, float[] pp, float[] qp, float[] psiPx, float[] zetaPx,
                              float[] psiPz, float[] zetaPz, float[] psiQx, float[] zetaQx, float[] psiQz,
                              float[] zetaQz, float[] fpx, float[] fpz, float[] fqx, float[] fqz, float[] xpx,
                              float[] xpz, float[] xqx, float[] xqz, float[] ah, float[] an, float[] a0, float[] prof,
                              int[] near, float[] c, int h, int base, int sz, int nz, int nx, int z0, int z1,
                              float[] tape, int taping) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int x = 0; x < nx; x++) {
                updateCell(p, q, pp, qp, psiPx, zetaPx, psiPz, zetaPz, psiQx, zetaQx, psiQz, zetaQz, fpx, fpz, fqx,
                        fqz, xpx, xpz, xqx, xqz, ah, an, a0, prof, near, c, h, base, sz, nz, nx, z0 + iz, x, tape,
                        taping);
            }
        }
    }

    /** {@link #update} of cell (z, x). */
    public static void updateCell(float[] p, float[] q, float[] pp, float[] qp, float[] psiPx, float[] zetaPx,
                                  float[] psiPz, float[] zetaPz, float[] psiQx, float[] zetaQx, float[] psiQz,
                                  float[] zetaQz, float[] fpx, float[] fpz, float[] fqx, float[] fqz, float[] xpx,
                                  float[] xpz, float[] xqx, float[] xqz, float[] ah, float[] an, float[] a0,
                                  float[] prof, int[] near, float[] c, int h, int base, int sz, int nz, int nx, int z,
                                  int x, float[] tape, int taping) {
        int ox = 4 * (nz + 1);
        int o1z = 3 * (h + 1);
        int o1x = 5 * (h + 1);
        int i = base + z * sz + x;
        float lp = AcousticVtiKernels.term(p, psiPx, zetaPx, i, 1, x, nx, ox, nz + 1, 2, prof, near, c, h)
                + AcousticVtiKernels.term(p, psiPz, zetaPz, i, sz, z, nz, 0, 0, 0, prof, near, c, h);
        float lq = AcousticVtiKernels.term(q, psiQx, zetaQx, i, 1, x, nx, ox, nz + 1, 2, prof, near, c, h)
                + AcousticVtiKernels.term(q, psiQz, zetaQz, i, sz, z, nz, 0, 0, 0, prof, near, c, h);
        float dpx = 0.0f;
        float dpz = 0.0f;
        float dqx = 0.0f;
        float dqz = 0.0f;
        for (int k = 1; k <= h; k++) {
            float cx = c[o1x + k];
            float cz = c[o1z + k];
            dpx += cx * (fpx[i + k] - fpx[i - k]);
            dpz += cz * (fpz[i + k * sz] - fpz[i - k * sz]);
            dqx += cx * (fqx[i + k] - fqx[i - k]);
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
        float lh = 0.5f * (lp - (dpx + dpz));
        float lz = 0.5f * (lq + (dqx + dqz));
        pp[i] = 2.0f * p[i] - pp[i] + ah[i] * lh + an[i] * lz;
        qp[i] = 2.0f * q[i] - qp[i] + an[i] * lh + a0[i] * lz;
        if (taping == 1) {
            int k = z * nx + x;
            tape[k] = lh;
            tape[nz * nx + k] = lz;
        }
    }

    /**
     * The transpose of {@link #update}, pointwise part: from the adjoints P̄, Q̄ of the new levels, the adjoints of
     * the compact second derivatives into w[0..3] (p along x, p along z, q along x, q along z; ζ̄ transposed on the
     * way) and of the raw divergences into w[4..7] (the same order; ξ̄ transposed), the coefficients' gradients
     * gh += P̄·Hp, gn += P̄·Zq + Q̄·Hp, g0 += Q̄·Zq from the tape, p̄ += 2P̄, q̄ += 2Q̄, and the previous levels'
     * adjoints become −P̄, −Q̄.
     */
    public static void updateAdjointPoint(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar, float[] zetaPxBar,
                                          float[] zetaPzBar, float[] zetaQxBar, float[] zetaQzBar, float[] xpxBar,
                                          float[] xpzBar, float[] xqxBar, float[] xqzBar, float[] ah, float[] an,
                                          float[] a0, float[] prof, float[] w0, float[] w1, float[] w2, float[] w3,
                                          float[] w4, float[] w5, float[] w6, float[] w7, float[] gh, float[] gn,
                                          float[] g0, int base, int sz, int nz, int nx, int z0, int z1,
                                          float[] tape) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int x = 0; x < nx; x++) {
                updateAdjointPointCell(pbar, qbar, ppbar, qpbar, zetaPxBar, zetaPzBar, zetaQxBar, zetaQzBar, xpxBar,
                        xpzBar, xqxBar, xqzBar, ah, an, a0, prof, w0, w1, w2, w3, w4, w5, w6, w7, gh, gn, g0, base, sz,
                        nz, nx, z0 + iz, x, tape);
            }
        }
    }

    /** {@link #updateAdjointPoint} of cell (z, x). */
    public static void updateAdjointPointCell(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar,
                                              float[] zetaPxBar, float[] zetaPzBar, float[] zetaQxBar,
                                              float[] zetaQzBar, float[] xpxBar, float[] xpzBar, float[] xqxBar,
                                              float[] xqzBar, float[] ah, float[] an, float[] a0, float[] prof,
                                              float[] w0, float[] w1, float[] w2, float[] w3, float[] w4, float[] w5,
                                              float[] w6, float[] w7, float[] gh, float[] gn, float[] g0, int base,
                                              int sz, int nz, int nx, int z, int x, float[] tape) {
        int ox = 4 * (nz + 1);
        int i = base + z * sz + x;
        int k = z * nx + x;
        float pb = ppbar[i];
        float qb = qpbar[i];
        float t1 = tape[k];
        float t2 = tape[nz * nx + k];
        gh[i] += pb * t1;
        gn[i] += pb * t2 + qb * t1;
        g0[i] += qb * t2;
        float lh = 0.5f * (ah[i] * pb + an[i] * qb);
        float lz = 0.5f * (an[i] * pb + a0[i] * qb);
        float ax = prof[ox + x];
        float bx = prof[ox + nx + x];
        float az = prof[z];
        float bz = prof[nz + z];
        w0[i] = AcousticVtiKernels.termAdjoint(lh, zetaPxBar, i, ax, bx);
        w1[i] = AcousticVtiKernels.termAdjoint(lh, zetaPzBar, i, az, bz);
        w2[i] = AcousticVtiKernels.termAdjoint(lz, zetaQxBar, i, ax, bx);
        w3[i] = AcousticVtiKernels.termAdjoint(lz, zetaQzBar, i, az, bz);
        w4[i] = AcousticVtiKernels.termAdjoint(-lh, xpxBar, i, ax, bx);
        w5[i] = AcousticVtiKernels.termAdjoint(-lh, xpzBar, i, az, bz);
        w6[i] = AcousticVtiKernels.termAdjoint(lz, xqxBar, i, ax, bx);
        w7[i] = AcousticVtiKernels.termAdjoint(lz, xqzBar, i, az, bz);
        pbar[i] += 2.0f * pb;
        qbar[i] += 2.0f * qb;
        ppbar[i] = -pb;
        qpbar[i] = -qb;
    }

    /**
     * The transpose of {@link #update}, gathering part (after w[0..7] hold their neighbours' values across a cut):
     * p̄ += L_xᵀ w0 + L_zᵀ w1, q̄ += L_xᵀ w2 + L_zᵀ w3, the compact CPML's ψ̄ += Dᵀ w at its band cells, and the
     * fluxes' adjoints f̄px += Dxᵀ w4, f̄pz += Dzᵀ w5, f̄qx += Dxᵀ w6, f̄qz += Dzᵀ w7.
     */
    public static void updateAdjointGather(float[] pbar, float[] qbar, float[] psiPxBar, float[] psiPzBar,
                                           float[] psiQxBar, float[] psiQzBar, float[] fpxBar, float[] fpzBar,
                                           float[] fqxBar, float[] fqzBar, float[] w0, float[] w1, float[] w2,
                                           float[] w3, float[] w4, float[] w5, float[] w6, float[] w7, float[] prof,
                                           float[] c, int h, int base, int sz, int nz, int nx, int z0, int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int x = 0; x < nx; x++) {
                updateAdjointGatherCell(pbar, qbar, psiPxBar, psiPzBar, psiQxBar, psiQzBar, fpxBar, fpzBar, fqxBar,
                        fqzBar, w0, w1, w2, w3, w4, w5, w6, w7, prof, c, h, base, sz, nz, nx, z0 + iz, x);
            }
        }
    }

    /** {@link #updateAdjointGather} of cell (z, x). */
    public static void updateAdjointGatherCell(float[] pbar, float[] qbar, float[] psiPxBar, float[] psiPzBar,
                                               float[] psiQxBar, float[] psiQzBar, float[] fpxBar, float[] fpzBar,
                                               float[] fqxBar, float[] fqzBar, float[] w0, float[] w1, float[] w2,
                                               float[] w3, float[] w4, float[] w5, float[] w6, float[] w7,
                                               float[] prof, float[] c, int h, int base, int sz, int nz, int nx, int z,
                                               int x) {
        int i = base + z * sz + x;
        pbar[i] += AcousticVtiKernels.secondTransposed(w0, i, 1, 2, c, h)
                + AcousticVtiKernels.secondTransposed(w1, i, sz, 0, c, h);
        qbar[i] += AcousticVtiKernels.secondTransposed(w2, i, 1, 2, c, h)
                + AcousticVtiKernels.secondTransposed(w3, i, sz, 0, c, h);
        if (prof[4 * (nz + 1) + x] != 0.0f) {
            psiPxBar[i] += AcousticVtiKernels.firstTransposed(w0, i, 1, 2, c, h);
            psiQxBar[i] += AcousticVtiKernels.firstTransposed(w2, i, 1, 2, c, h);
        }
        if (prof[z] != 0.0f) {
            psiPzBar[i] += AcousticVtiKernels.firstTransposed(w1, i, sz, 0, c, h);
            psiQzBar[i] += AcousticVtiKernels.firstTransposed(w3, i, sz, 0, c, h);
        }
        fpxBar[i] += AcousticVtiKernels.firstTransposed(w4, i, 1, 2, c, h);
        fpzBar[i] += AcousticVtiKernels.firstTransposed(w5, i, sz, 0, c, h);
        fqxBar[i] += AcousticVtiKernels.firstTransposed(w6, i, 1, 2, c, h);
        fqzBar[i] += AcousticVtiKernels.firstTransposed(w7, i, sz, 0, c, h);
    }

    /**
     * The transpose of {@link #gradient}, pointwise part: from the fluxes' adjoints (then zeroed: the pass overwrites
     * the fluxes) the adjoints of the four raw first differences into wpx, wpz, wqx, wqz (ψ̄ transposed on the way),
     * and the tilt's gradient gt += F̄_pᵀ (dR/dθ) D̃p + F̄_qᵀ (dR/dθ) D̃q (θ in radians) from the tape.
     */
    public static void gradientAdjointPoint(float[] fpxBar, float[] fpzBar, float[] fqxBar, float[] fqzBar,
                                            float[] spxBar, float[] spzBar, float[] sqxBar, float[] sqzBar,
                                            float[] rc, float[] rs, float[] prof, float[] wpx, float[] wpz,
                                            float[] wqx, float[] wqz, float[] gt, int base, int sz, int nz, int nx,
                                            int z0, int z1, float[] tape) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int x = 0; x < nx; x++) {
                gradientAdjointPointCell(fpxBar, fpzBar, fqxBar, fqzBar, spxBar, spzBar, sqxBar, sqzBar, rc, rs,
                        prof, wpx, wpz, wqx, wqz, gt, base, sz, nz, nx, z0 + iz, x, tape);
            }
        }
    }

    /** {@link #gradientAdjointPoint} of cell (z, x). */
    public static void gradientAdjointPointCell(float[] fpxBar, float[] fpzBar, float[] fqxBar, float[] fqzBar,
                                                float[] spxBar, float[] spzBar, float[] sqxBar, float[] sqzBar,
                                                float[] rc, float[] rs, float[] prof, float[] wpx, float[] wpz,
                                                float[] wqx, float[] wqz, float[] gt, int base, int sz, int nz, int nx,
                                                int z, int x, float[] tape) {
        int ox = 4 * (nz + 1);
        int cells = nz * nx;
        int i = base + z * sz + x;
        int k = z * nx + x;
        float a = fpxBar[i];
        float b = fpzBar[i];
        float e = fqxBar[i];
        float f = fqzBar[i];
        fpxBar[i] = 0.0f;
        fpzBar[i] = 0.0f;
        fqxBar[i] = 0.0f;
        fqzBar[i] = 0.0f;
        float gpx = tape[2 * cells + k];
        float gpz = tape[3 * cells + k];
        float gqx = tape[4 * cells + k];
        float gqz = tape[5 * cells + k];
        float s = 2.0f * rs[i];
        float co = 2.0f * rc[i];
        gt[i] += a * (s * gpx + co * gpz) + b * (co * gpx - s * gpz) + e * (s * gqx + co * gqz)
                + f * (co * gqx - s * gqz);
        float ax = prof[ox + x];
        float bx = prof[ox + nx + x];
        float az = prof[z];
        float bz = prof[nz + z];
        wpx[i] = AcousticVtiKernels.termAdjoint(rs[i] * b - rc[i] * a, spxBar, i, ax, bx);
        wpz[i] = AcousticVtiKernels.termAdjoint(rs[i] * a + rc[i] * b, spzBar, i, az, bz);
        wqx[i] = AcousticVtiKernels.termAdjoint(rs[i] * f - rc[i] * e, sqxBar, i, ax, bx);
        wqz[i] = AcousticVtiKernels.termAdjoint(rs[i] * e + rc[i] * f, sqzBar, i, az, bz);
    }

    /**
     * The transpose of {@link #gradient}, gathering part (after the w hold their neighbours' values across a cut):
     * p̄ += Dxᵀ wpx + Dzᵀ wpz, q̄ += Dxᵀ wqx + Dzᵀ wqz.
     */
    public static void gradientAdjointGather(float[] pbar, float[] qbar, float[] wpx, float[] wpz, float[] wqx,
                                             float[] wqz, float[] c, int h, int base, int sz, int nx, int z0,
                                             int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int x = 0; x < nx; x++) {
                int i = base + (z0 + iz) * sz + x;
                pbar[i] += AcousticVtiKernels.firstTransposed(wpx, i, 1, 2, c, h)
                        + AcousticVtiKernels.firstTransposed(wpz, i, sz, 0, c, h);
                qbar[i] += AcousticVtiKernels.firstTransposed(wqx, i, 1, 2, c, h)
                        + AcousticVtiKernels.firstTransposed(wqz, i, sz, 0, c, h);
            }
        }
    }

    /**
     * The free surface's even images above row 0 of a vertical flux: u(−m) = u(m), m = 1..h, in every column (2-D:
     * sy = 0, ny = 1).
     */
    public static void imageTopEven(float[] u, int h, int base, int sz, int sy, int ny, int nx) {
        for (@Parallel int y = 0; y < ny; y++) {
            for (@Parallel int x = 0; x < nx; x++) {
                int i = base + y * sy + x;
                for (int m = 1; m <= h; m++) {
                    u[i - m * sz] = u[i + m * sz];
                }
            }
        }
    }

    /**
     * The transpose of an image above row 0 read by a centred z difference: the reads of u(−m) = sign·u(m) by rows
     * 0..h − 1 folded onto rows 1..h, ū(m) −= sign·Σ_{k = m..h} d_k·w(k − m) (sign −1 for a field's odd images, 1 for
     * a flux's even ones), in every column (2-D: sy = 0, ny = 1).
     */
    public static void imageTopFold(float[] ubar, float[] w, float[] c, int h, int base, int sz, int sy, int ny,
                                    int nx, float sign) {
        int o1z = 3 * (h + 1);
        for (@Parallel int y = 0; y < ny; y++) {
            for (@Parallel int x = 0; x < nx; x++) {
                int i = base + y * sy + x;
                for (int m = 1; m <= h; m++) {
                    float r = 0.0f;
                    for (int k = m; k <= h; k++) {
                        r += c[o1z + k] * w[i + (k - m) * sz];
                    }
                    ubar[i + m * sz] -= sign * r;
                }
            }
        }
    }
}
