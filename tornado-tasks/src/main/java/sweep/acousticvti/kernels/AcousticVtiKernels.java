package sweep.acousticvti.kernels;

import sweep.kernels.Parallel;

/**
 * Kernels of one step of the pseudo-acoustic VTI leapfrog p_tt = vp²[(1 + 2ε)·H p + √(1 + 2δ)·Z q],
 * q_tt = vp²[√(1 + 2δ)·H p + Z q] (H the horizontal, Z the vertical second derivative, each with its CPML) and of
 * its exact transpose, in 2-D and 3-D, over the rows [z0, z1) of the computational grid. The x derivative acts on
 * p along x, the y derivative (3-D) along y, the z derivative on q along z.
 *
 * <p>Layout: cell (z, y, x) of the computational grid is array index {@code base + z·sz + y·sy + x} (sy = 0, ny = 1
 * in 2-D), with a halo of h cells. {@code prof} holds per axis slot s (0 = z, 1 = y, 2 = x, n its cell count, from
 * offset 0, 4·nz, 4·(nz + ny)) the CPML decay a and update b at the nodes, then at the half nodes
 * ({@code sweep.prop.Grid#staggeredProfiles}); a cell is in an axis's band where its a is non-zero. {@code near} holds
 * per axis slot (from offset 0, nz, nz + ny) 1 where a band cell lies within h cells along the axis. {@code c} holds
 * per axis slot the second-derivative weights divided by dh² at {@code s·(h + 1) + k} and the centred first-derivative
 * weights divided by dh at {@code (3 + s)·(h + 1) + k}, k = 0..h. The CPML second derivative of u along an axis is
 * W = D²u + D(Kψ) (K: ψ of band cells only), ζ ← a·ζ + b·W and L = W + ζ in the band, L = W elsewhere; the memory
 * stage sets ψ ← a·ψ + b·Du in the band from the current level.
 *
 * <p>The tape (when {@code taping} is 1) holds per step the horizontal L_x (+ L_y) of cell c = (z·ny + y)·nx + x at
 * {@code c} and the vertical L_z at {@code cells + c}.
 */
public final class AcousticVtiKernels {
    private AcousticVtiKernels() {
    }

    /**
     * The update: pp ← 2p − pp + ah·Lh + an·Lz, qp ← 2q − qp + an·Lh + a0·Lz (the new level over the previous one),
     * the ζ of each band updated on the way.
     */
    public static void update(float[] p, float[] q, float[] pp, float[] qp, float[] psix, float[] zetax,
                              float[] psiy, float[] zetay, float[] psiz, float[] zetaz, float[] ah, float[] an,
                              float[] a0, float[] prof, int[] near, float[] c, int h, int base, int sz, int sy,
                              int nz, int ny, int nx, int three, int z0, int z1, float[] tape, int taping) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    updateCell(p, q, pp, qp, psix, zetax, psiy, zetay, psiz, zetaz, ah, an, a0, prof, near, c, h,
                            base, sz, sy, nz, ny, nx, three, z0 + iz, y, x, tape, taping);
                }
            }
        }
    }

    /** {@link #update} of cell (z, y, x). */
    public static void updateCell(float[] p, float[] q, float[] pp, float[] qp, float[] psix, float[] zetax,
                                  float[] psiy, float[] zetay, float[] psiz, float[] zetaz, float[] ah, float[] an,
                                  float[] a0, float[] prof, int[] near, float[] c, int h, int base, int sz, int sy,
                                  int nz, int ny, int nx, int three, int z, int y, int x, float[] tape, int taping) {
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        int i = base + z * sz + y * sy + x;
        float lh;
        float lz;
        if (prof[ox + x] == 0.0f && near[nz + ny + x] == 0 && plainRow(prof, near, nz, three, z, y)) {
            // no CPML term on any axis: the plain stencils (the same arithmetic as term's)
            int o2x = 2 * (h + 1);
            lh = c[o2x] * p[i];
            for (int k = 1; k <= h; k++) {
                lh += c[o2x + k] * (p[i + k] + p[i - k]);
            }
            if (three == 1) {
                int o2y = h + 1;
                float ly = c[o2y] * p[i];
                for (int k = 1; k <= h; k++) {
                    ly += c[o2y + k] * (p[i + k * sy] + p[i - k * sy]);
                }
                lh += ly;
            }
            lz = c[0] * q[i];
            for (int k = 1; k <= h; k++) {
                lz += c[k] * (q[i + k * sz] + q[i - k * sz]);
            }
        } else {
            lh = term(p, psix, zetax, i, 1, x, nx, ox, nz + ny, 2, prof, near, c, h);
            if (three == 1) {
                lh += term(p, psiy, zetay, i, sy, y, ny, oy, nz, 1, prof, near, c, h);
            }
            lz = term(q, psiz, zetaz, i, sz, z, nz, 0, 0, 0, prof, near, c, h);
        }
        pp[i] = 2.0f * p[i] - pp[i] + ah[i] * lh + an[i] * lz;
        qp[i] = 2.0f * q[i] - qp[i] + an[i] * lh + a0[i] * lz;
        if (taping == 1) {
            int k = (z * ny + y) * nx + x;
            tape[k] = lh;
            tape[nz * ny * nx + k] = lz;
        }
    }

    /**
     * Fills {@code near} (per axis slot from offset 0, nz, nz + ny) with 1 where a band cell of that axis lies within
     * h cells along it, from the profiles {@code prof}.
     */
    public static void nearBand(float[] prof, int[] near, int h, int nz, int ny, int nx) {
        int[] n = {nz, ny, nx};
        for (int s = 0, no = 0; s < 3; no += n[s], s++) {
            int po = s == 0 ? 0 : s == 1 ? 4 * nz : 4 * (nz + ny);
            for (int i = 0; i < n[s]; i++) {
                int hit = 0;
                for (int j = Math.max(0, i - h); j <= Math.min(n[s] - 1, i + h); j++) {
                    hit |= prof[po + j] != 0 ? 1 : 0;
                }
                near[no + i] = hit;
            }
        }
    }

    /** Whether row (z, y) lies outside the z (and y) bands and their near cells. */
    public static boolean plainRow(float[] prof, int[] near, int nz, int three, int z, int y) {
        return prof[z] == 0.0f && near[z] == 0 && (three == 0 || prof[4 * nz + y] == 0.0f && near[nz + y] == 0);
    }

    /**
     * L of u along one axis at array index i: stride st, position ia of n along the axis, profiles at po, near flags
     * at no, axis slot s; updates ζ in the band.
     */
    public static float term(float[] u, float[] psi, float[] zeta, int i, int st, int ia, int n, int po, int no,
                             int s, float[] prof, int[] near, float[] c, int h) {
        int o2 = s * (h + 1);
        int o1 = (3 + s) * (h + 1);
        float w = c[o2] * u[i];
        for (int k = 1; k <= h; k++) {
            w += c[o2 + k] * (u[i + k * st] + u[i - k * st]);
        }
        if (near[no + ia] == 1) {
            float d = 0.0f;
            for (int k = 1; k <= h; k++) {
                if (ia + k < n && prof[po + ia + k] != 0.0f) {
                    d += c[o1 + k] * psi[i + k * st];
                }
                if (ia - k >= 0 && prof[po + ia - k] != 0.0f) {
                    d -= c[o1 + k] * psi[i - k * st];
                }
            }
            w += d;
        }
        float a = prof[po + ia];
        if (a != 0.0f) {
            float zt = a * zeta[i] + prof[po + n + ia] * w;
            zeta[i] = zt;
            w += zt;
        }
        return w;
    }

    /** The memory stage along axis slot {@code s}: ψ ← a·ψ + b·Du at the band cells (u the current level). */
    public static void memory(float[] u, float[] psi, float[] prof, float[] c, int h, int base, int sz, int sy,
                              int nz, int ny, int nx, int s, int z0, int z1) {
        int o1 = (3 + s) * (h + 1);
        int st = s == 0 ? sz : s == 1 ? sy : 1;
        int n = s == 0 ? nz : s == 1 ? ny : nx;
        int po = s == 0 ? 0 : s == 1 ? 4 * nz : 4 * (nz + ny);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    int ia = s == 0 ? z : s == 1 ? y : x;
                    float a = prof[po + ia];
                    if (a != 0.0f) {
                        int i = base + z * sz + y * sy + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += c[o1 + k] * (u[i + k * st] - u[i - k * st]);
                        }
                        psi[i] = a * psi[i] + prof[po + n + ia] * d;
                    }
                }
            }
        }
    }

    /**
     * The transpose of {@link #memory}, first part: ū += Dᵀ(b·ψ̄) over the band cells' reads (ψ̄ before its decay).
     */
    public static void memoryAdjointGather(float[] ubar, float[] psibar, float[] prof, int[] near, float[] c, int h,
                                           int base, int sz, int sy, int nz, int ny, int nx, int s, int z0, int z1) {
        int o1 = (3 + s) * (h + 1);
        int st = s == 0 ? sz : s == 1 ? sy : 1;
        int n = s == 0 ? nz : s == 1 ? ny : nx;
        int po = s == 0 ? 0 : s == 1 ? 4 * nz : 4 * (nz + ny);
        int no = s == 0 ? 0 : s == 1 ? nz : nz + ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    int ia = s == 0 ? z : s == 1 ? y : x;
                    if (near[no + ia] == 1) {
                        int i = base + z * sz + y * sy + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            if (ia - k >= 0 && prof[po + ia - k] != 0.0f) {
                                d += c[o1 + k] * (prof[po + n + ia - k] * psibar[i - k * st]);
                            }
                            if (ia + k < n && prof[po + ia + k] != 0.0f) {
                                d -= c[o1 + k] * (prof[po + n + ia + k] * psibar[i + k * st]);
                            }
                        }
                        ubar[i] += d;
                    }
                }
            }
        }
    }

    /** The transpose of {@link #memory}, second part: ψ̄ ← a·ψ̄ at the band cells. */
    public static void memoryAdjointDecay(float[] psibar, float[] prof, int base, int sz, int sy, int nz, int ny,
                                          int nx, int s, int z0, int z1) {
        int n = s == 0 ? nz : s == 1 ? ny : nx;
        int po = s == 0 ? 0 : s == 1 ? 4 * nz : 4 * (nz + ny);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    int ia = s == 0 ? z : s == 1 ? y : x;
                    float a = prof[po + ia];
                    if (a != 0.0f) {
                        int i = base + z * sz + y * sy + x;
                        psibar[i] = a * psibar[i];
                    }
                }
            }
        }
    }

    /**
     * The transpose of {@link #update}, pointwise part: from the adjoints P̄, Q̄ of the new levels, the adjoints of
     * the second derivatives W̄ per axis into wx, wy, wz (ζ̄ transposed on the way) and the coefficients' gradients
     * gh += P̄·Lh, gn += P̄·Lz + Q̄·Lh, g0 += Q̄·Lz from the tape.
     */
    public static void updateAdjointPoint(float[] pbar, float[] qbar, float[] zetaxBar, float[] zetayBar,
                                          float[] zetazBar, float[] ah, float[] an, float[] a0, float[] prof,
                                          float[] wx, float[] wy, float[] wz, float[] gh, float[] gn, float[] g0,
                                          int base, int sz, int sy, int nz, int ny, int nx, int three, int z0, int z1,
                                          float[] tape) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    updateAdjointPointCell(pbar, qbar, zetaxBar, zetayBar, zetazBar, ah, an, a0, prof, wx, wy, wz, gh,
                            gn, g0, base, sz, sy, nz, ny, nx, three, z, y, x, tape);
                }
            }
        }
    }

    /** {@link #updateAdjointPoint} at the cell (z, y, x). */
    public static void updateAdjointPointCell(float[] pbar, float[] qbar, float[] zetaxBar, float[] zetayBar,
                                              float[] zetazBar, float[] ah, float[] an, float[] a0, float[] prof,
                                              float[] wx, float[] wy, float[] wz, float[] gh, float[] gn, float[] g0,
                                              int base, int sz, int sy, int nz, int ny, int nx, int three, int z,
                                              int y, int x, float[] tape) {
        int cells = nz * ny * nx;
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        int i = base + z * sz + y * sy + x;
        int k = (z * ny + y) * nx + x;
        float pb = pbar[i];
        float qb = qbar[i];
        float t1 = tape[k];
        float t2 = tape[cells + k];
        gh[i] += pb * t1;
        gn[i] += pb * t2 + qb * t1;
        g0[i] += qb * t2;
        float lh = ah[i] * pb + an[i] * qb;
        float lz = an[i] * pb + a0[i] * qb;
        wx[i] = termAdjoint(lh, zetaxBar, i, prof[ox + x], prof[ox + nx + x]);
        if (three == 1) {
            wy[i] = termAdjoint(lh, zetayBar, i, prof[oy + y], prof[oy + ny + y]);
        }
        wz[i] = termAdjoint(lz, zetazBar, i, prof[z], prof[nz + z]);
    }

    /** W̄ of one axis from L̄ = g at a cell of decay a, update b: in the band P = ζ̄ + g, W̄ = g + b·P, ζ̄ ← a·P. */
    public static float termAdjoint(float g, float[] zetaBar, int i, float a, float b) {
        if (a != 0.0f) {
            float pz = zetaBar[i] + g;
            zetaBar[i] = a * pz;
            return g + b * pz;
        }
        return g;
    }

    /**
     * The transpose of {@link #update}, gathering part (after wx, wy hold their neighbours' values across a cut):
     * p̄ += 2P̄ + D²ᵀW̄x (+ D²ᵀW̄y), q̄ += 2Q̄ + D²ᵀW̄z, ψ̄ += Dᵀ W̄ at the band cells, and the previous levels'
     * adjoints become −P̄, −Q̄.
     */
    public static void updateAdjointGather(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar, float[] psixBar,
                                           float[] psiyBar, float[] psizBar, float[] wx, float[] wy, float[] wz,
                                           float[] prof, float[] c, int h, int base, int sz, int sy, int nz, int ny,
                                           int nx, int three, int z0, int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    updateAdjointGatherCell(pbar, qbar, ppbar, qpbar, psixBar, psiyBar, psizBar, wx, wy, wz, prof, c,
                            h, base, sz, sy, nz, ny, nx, three, z, y, x);
                }
            }
        }
    }

    /** {@link #updateAdjointGather} at the cell (z, y, x). */
    public static void updateAdjointGatherCell(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar,
                                               float[] psixBar, float[] psiyBar, float[] psizBar, float[] wx,
                                               float[] wy, float[] wz, float[] prof, float[] c, int h, int base,
                                               int sz, int sy, int nz, int ny, int nx, int three, int z, int y,
                                               int x) {
        int i = base + z * sz + y * sy + x;
        float pb = ppbar[i];
        float qb = qpbar[i];
        float gp = 2.0f * pb + secondTransposed(wx, i, 1, 2, c, h);
        if (three == 1) {
            gp += secondTransposed(wy, i, sy, 1, c, h);
        }
        pbar[i] += gp;
        qbar[i] += 2.0f * qb + secondTransposed(wz, i, sz, 0, c, h);
        ppbar[i] = -pb;
        qpbar[i] = -qb;
        if (prof[4 * (nz + ny) + x] != 0.0f) {
            psixBar[i] += firstTransposed(wx, i, 1, 2, c, h);
        }
        if (three == 1 && prof[4 * nz + y] != 0.0f) {
            psiyBar[i] += firstTransposed(wy, i, sy, 1, c, h);
        }
        if (prof[z] != 0.0f) {
            psizBar[i] += firstTransposed(wz, i, sz, 0, c, h);
        }
    }

    /** (D²)ᵀw at i along stride st, axis slot s: the second-derivative stencil is symmetric. */
    public static float secondTransposed(float[] w, int i, int st, int s, float[] c, int h) {
        int o2 = s * (h + 1);
        float r = c[o2] * w[i];
        for (int k = 1; k <= h; k++) {
            r += c[o2 + k] * (w[i + k * st] + w[i - k * st]);
        }
        return r;
    }

    /** Dᵀw at i along stride st, axis slot s: Σ_k d_k (w(i − k) − w(i + k)). */
    public static float firstTransposed(float[] w, int i, int st, int s, float[] c, int h) {
        int o1 = (3 + s) * (h + 1);
        float r = 0.0f;
        for (int k = 1; k <= h; k++) {
            r += c[o1 + k] * (w[i - k * st] - w[i + k * st]);
        }
        return r;
    }

    /** The free surface's odd images above row 0 of u: u(−m) = −u(m), m = 1..h, in every column. */
    public static void imageTop(float[] u, int h, int base, int sz, int sy, int ny, int nx) {
        for (@Parallel int y = 0; y < ny; y++) {
            for (@Parallel int x = 0; x < nx; x++) {
                int i = base + y * sy + x;
                for (int m = 1; m <= h; m++) {
                    u[i - m * sz] = -u[i + m * sz];
                }
            }
        }
    }

    /**
     * The transpose of {@link #imageTop} before the z stencil of the update: the reads of the image rows by rows
     * 0..h − 1 folded onto rows 1..h, ū(m) −= Σ_{k = m..h} c_k·W̄z(k − m).
     */
    public static void imageTopAdjoint(float[] ubar, float[] wz, float[] c, int h, int base, int sz, int sy, int ny,
                                       int nx) {
        for (@Parallel int y = 0; y < ny; y++) {
            for (@Parallel int x = 0; x < nx; x++) {
                int i = base + y * sy + x;
                for (int m = 1; m <= h; m++) {
                    float r = 0.0f;
                    for (int k = m; k <= h; k++) {
                        r += c[k] * wz[i + (k - m) * sz];
                    }
                    ubar[i + m * sz] -= r;
                }
            }
        }
    }

    /** Row 0 of u set to 0 in every column (the free surface; its own transpose). */
    public static void zeroTop(float[] u, int base, int sy, int ny, int nx) {
        for (@Parallel int y = 0; y < ny; y++) {
            for (@Parallel int x = 0; x < nx; x++) {
                u[base + y * sy + x] = 0.0f;
            }
        }
    }
}
