package sweep.example.sh;

import sweep.kernels.Parallel;

/**
 * The kernels of the SH step and of its exact transpose: static methods over float arrays and scalars, one
 * {@link Parallel} loop over the rows [z0, z1) of the computational grid, starting at 0 as TornadoVM needs (no objects,
 * allocation, exceptions or calls inside). Every array of the grid has the layout of {@link sweep.prop.Grid}:
 * computational cell (z, x) at {@code base + z·sz + x}, with h = order/2 halo cells on every side. Staggered weights
 * {@code cx[k]}, {@code cz[k]} (k = 1..h) are divided by the spacing. The CPML profiles {@code prof} are
 * {@link sweep.prop.Grid#staggeredProfiles}' of a 2-D grid: z at 0 ({@code a, b, a½, b½} of nz each), x at
 * 4·(nz + 1) ({@code a, b, a½, b½} of nx each). Each kernel writes only cells of its own rows,
 * and reads other rows' cells only from arrays it does not write, so any split of the rows gives the same bits.
 */
public final class ShKernels {
    private ShKernels() {
    }

    /**
     * Velocity step (forward): with dx = D⁻x sxy and dz = D⁻z szy at the vy node, the CPML memory variables
     * pvx ← ax·pvx + bx·dx, pvz ← az·pvz + bz·dz (profiles at the nodes), and vy += bu·(dx + pvx + dz + pvz) with
     * bu = dt/ρ. When {@code taping} is 1 the bracket goes to {@code tape[z·nx + x]}.
     */
    public static void velocity(float[] v, float[] sxy, float[] szy, float[] pvx, float[] pvz, float[] bu,
                                float[] prof, float[] cx, float[] cz, int h, int base, int sz, int nz, int nx, int z0,
                                int z1, float[] tape, int taping) {
        int xp = 4 * (nz + 1);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                float dx = 0f;
                float dz = 0f;
                for (int k = 1; k <= h; k++) {
                    dx += cx[k] * (sxy[i + k - 1] - sxy[i - k]);
                    dz += cz[k] * (szy[i + (k - 1) * sz] - szy[i - k * sz]);
                }
                float px = prof[xp + x] * pvx[i] + prof[xp + nx + x] * dx;
                float pz = prof[z] * pvz[i] + prof[nz + z] * dz;
                pvx[i] = px;
                pvz[i] = pz;
                float br = dx + px + dz + pz;
                v[i] += bu[i] * br;
                if (taping == 1) {
                    tape[z * nx + x] = br;
                }
            }
        }
    }

    /**
     * Stress step (forward): with ex = D⁺x vy at (x+½, z) and ez = D⁺z vy at (x, z+½), psx ← ax½·psx + bx½·ex,
     * psz ← az½·psz + bz½·ez, sxy += mx·(ex + psx), szy += mz·(ez + psz) with mx, mz = dt·μ at the nodes. When
     * {@code taping} is 1 the brackets go to {@code tape[cells + z·nx + x]} and {@code tape[2·cells + ...]}.
     */
    public static void stress(float[] v, float[] sxy, float[] szy, float[] psx, float[] psz, float[] mx, float[] mz,
                              float[] prof, float[] cx, float[] cz, int h, int base, int sz, int nz, int nx, int z0,
                              int z1, float[] tape, int cells, int taping) {
        int xp = 4 * (nz + 1);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                float ex = 0f;
                float ez = 0f;
                for (int k = 1; k <= h; k++) {
                    ex += cx[k] * (v[i + k] - v[i - k + 1]);
                    ez += cz[k] * (v[i + k * sz] - v[i - (k - 1) * sz]);
                }
                float qx = prof[xp + 2 * nx + x] * psx[i] + prof[xp + 3 * nx + x] * ex;
                float qz = prof[2 * nz + z] * psz[i] + prof[3 * nz + z] * ez;
                psx[i] = qx;
                psz[i] = qz;
                float bx = ex + qx;
                float bz = ez + qz;
                sxy[i] += mx[i] * bx;
                szy[i] += mz[i] * bz;
                if (taping == 1) {
                    tape[cells + z * nx + x] = bx;
                    tape[2 * cells + z * nx + x] = bz;
                }
            }
        }
    }

    /**
     * Free surface, velocity image: vy(−j) = vy(j) for j = 1..h (vy even about z = 0, where σzy = μ∂vy/∂z vanishes),
     * in the columns [x0, x1).
     */
    public static void imageVelocity(float[] v, int h, int base, int sz, int x0, int x1) {
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            for (int j = 1; j <= h; j++) {
                v[base - j * sz + x] = v[base + j * sz + x];
            }
        }
    }

    /**
     * Free surface, stress image: szy(−m−½) = −szy(m+½) for m = 0..h−1 (szy odd about z = 0, so zero on the
     * surface), in the columns [x0, x1).
     */
    public static void imageStress(float[] szy, int h, int base, int sz, int x0, int x1) {
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            for (int m = 0; m < h; m++) {
                szy[base - (m + 1) * sz + x] = -szy[base + m * sz + x];
            }
        }
    }

    /**
     * Transpose of the stress step's pointwise part: with the adjoint stresses as, the scaled adjoints
     * ex̄ = mx·as + bx½·P (P = psx̄ + mx·as) and psx̄ ← ax½·P (likewise z), and the node gradients
     * gmx += as·(taped bracket) (likewise z).
     */
    public static void stressAdjointPoint(float[] asxy, float[] aszy, float[] apsx, float[] apsz, float[] mx,
                                          float[] mz, float[] prof, float[] ex, float[] ez, float[] gmx, float[] gmz,
                                          int base, int sz, int nz, int nx, int z0, int z1, float[] tape, int cells) {
        int xp = 4 * (nz + 1);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                int t = cells + z * nx + x;
                float sx = asxy[i];
                float sz2 = aszy[i];
                float px = apsx[i] + mx[i] * sx;
                float pz = apsz[i] + mz[i] * sz2;
                ex[i] = mx[i] * sx + prof[xp + 3 * nx + x] * px;
                ez[i] = mz[i] * sz2 + prof[3 * nz + z] * pz;
                apsx[i] = prof[xp + 2 * nx + x] * px;
                apsz[i] = prof[2 * nz + z] * pz;
                gmx[i] += sx * tape[t];
                gmz[i] += sz2 * tape[t + cells];
            }
        }
    }

    /**
     * Transpose of the stress step's derivatives, gathered at each vy node: av += Σ_k cx[k](ex̄(x−k) − ex̄(x+k−1)) +
     * Σ_k cz[k](ez̄(z−k) − ez̄(z+k−1)), and with a free surface (fs = 1) the transposed velocity image
     * −Σ_{k>z} cz[k]·ez̄(k−z−1) on rows 1..h−1. ex̄, ez̄ are zero outside the nodes (ex̄ holds the neighbour's values
     * in the halo of a cut).
     */
    public static void velocityGather(float[] av, float[] ex, float[] ez, float[] cx, float[] cz, int h, int base,
                                      int sz, int nx, int fs, int z0, int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                float s = 0f;
                for (int k = 1; k <= h; k++) {
                    s += cx[k] * (ex[i - k] - ex[i + k - 1]);
                    s += cz[k] * (ez[i - k * sz] - ez[i + (k - 1) * sz]);
                }
                if (fs == 1 && z >= 1) {
                    for (int k = z + 1; k <= h; k++) {
                        s -= cz[k] * ez[base + (k - z - 1) * sz + x];
                    }
                }
                av[i] += s;
            }
        }
    }

    /**
     * Transpose of the velocity step's pointwise part: with q = bu·av, dx̄ = q + bx·P (P = pvx̄ + q), pvx̄ ← ax·P
     * (likewise z), and the node gradient gb += av·(taped bracket).
     */
    public static void velocityAdjointPoint(float[] av, float[] apvx, float[] apvz, float[] bu, float[] prof,
                                            float[] dx, float[] dz, float[] gb, int base, int sz, int nz, int nx,
                                            int z0, int z1, float[] tape) {
        int xp = 4 * (nz + 1);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                float a = av[i];
                float q = bu[i] * a;
                float px = apvx[i] + q;
                float pz = apvz[i] + q;
                dx[i] = q + prof[xp + nx + x] * px;
                dz[i] = q + prof[nz + z] * pz;
                apvx[i] = prof[xp + x] * px;
                apvz[i] = prof[z] * pz;
                gb[i] += a * tape[z * nx + x];
            }
        }
    }

    /**
     * Transpose of the velocity step's derivatives, gathered at each stress node: asxy += Σ_k cx[k](dx̄(x−k+1) −
     * dx̄(x+k)), aszy += Σ_k cz[k](dz̄(z−k+1) − dz̄(z+k)), and with a free surface (fs = 1) the transposed stress
     * image +Σ_{k>z} cz[k]·dz̄(k−z−1) on rows 0..h−1.
     */
    public static void stressGather(float[] asxy, float[] aszy, float[] dx, float[] dz, float[] cx, float[] cz, int h,
                                    int base, int sz, int nx, int fs, int z0, int z1) {
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                float sx = 0f;
                float s2 = 0f;
                for (int k = 1; k <= h; k++) {
                    sx += cx[k] * (dx[i - k + 1] - dx[i + k]);
                    s2 += cz[k] * (dz[i - (k - 1) * sz] - dz[i + k * sz]);
                }
                if (fs == 1) {
                    for (int k = z + 1; k <= h; k++) {
                        s2 += cz[k] * dz[base + (k - z - 1) * sz + x];
                    }
                }
                asxy[i] += sx;
                aszy[i] += s2;
            }
        }
    }
}
