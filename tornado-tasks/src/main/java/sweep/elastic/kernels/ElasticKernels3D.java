package sweep.elastic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the 3-D isotropic elastic velocity–stress leapfrog on a staggered grid with first-order C-PML and a
 * stress-free surface at z = 0: the 3-D counterparts of {@link ElasticKernels2D} (which describes the scheme, the CPML
 * form and the free-surface rule), over boxes [z0,z1)×[y0,y1)×[x0,x1). Arrays as in {@link ElasticLayout}.
 */
public final class ElasticKernels3D {
    private ElasticKernels3D() {
    }

    /**
     * Velocity sub-step: {@code vx += dt/ρ·(∂x σxx + ∂y σxy + ∂z σxz)} at (x+½, y, z),
     * {@code vy += dt/ρ·(∂x σxy + ∂y σyy + ∂z σyz)} at (x, y+½, z), {@code vz += dt/ρ·(∂x σxz + ∂y σyz + ∂z σzz)} at
     * (x, y, z+½), each derivative corrected by its CPML memory variable where its node lies in a band.
     */
    public static void velocity(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int s1 = len;
        int s2 = 2 * len;
        int s3 = 3 * len;
        int s4 = 4 * len;
        int s5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                boolean yInt = y < ybl | y >= ybh;
                boolean yHalf = y < ybl | y >= ybhh;
                int jy = y < ybl ? y : y - ybhh + ybl;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float dxxx = 0.0f;
                    float dyxy = 0.0f;
                    float dzxz = 0.0f;
                    float dxxy = 0.0f;
                    float dyyy = 0.0f;
                    float dzyz = 0.0f;
                    float dxxz = 0.0f;
                    float dyyz = 0.0f;
                    float dzzz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        dxxx += ck * (s[i + k] - s[i - k + 1]);
                        dyxy += cyk * (s[s3 + i + (k - 1) * sy] - s[s3 + i - k * sy]);
                        dzxz += czk * (s[s4 + i + (k - 1) * sz] - s[s4 + i - k * sz]);
                        dxxy += ck * (s[s3 + i + k - 1] - s[s3 + i - k]);
                        dyyy += cyk * (s[s1 + i + k * sy] - s[s1 + i - (k - 1) * sy]);
                        dzyz += czk * (s[s5 + i + (k - 1) * sz] - s[s5 + i - k * sz]);
                        dxxz += ck * (s[s4 + i + k - 1] - s[s4 + i - k]);
                        dyyz += cyk * (s[s5 + i + (k - 1) * sy] - s[s5 + i - k * sy]);
                        dzzz += czk * (s[s2 + i + k * sz] - s[s2 + i - (k - 1) * sz]);
                    }
                    boolean xInt = x < xbl | x >= xbh;
                    boolean xHalf = x < xbl | x >= xbhh;
                    if (xInt | xHalf) {
                        int q = px + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                        if (xHalf) {
                            float p = prof[fx + 2 * nx + x] * psi[q] + prof[fx + 3 * nx + x] * dxxx;
                            psi[q] = p;
                            dxxx = dxxx + p;
                        }
                        if (xInt) {
                            float a = prof[fx + x];
                            float bb = prof[fx + nx + x];
                            float p1 = a * psi[q + slx] + bb * dxxy;
                            psi[q + slx] = p1;
                            dxxy = dxxy + p1;
                            float p2 = a * psi[q + 2 * slx] + bb * dxxz;
                            psi[q + 2 * slx] = p2;
                            dxxz = dxxz + p2;
                        }
                    }
                    if (yInt | yHalf) {
                        int q = py + (z * wy + jy) * nx + x;
                        if (yInt) {
                            float a = prof[fy + y];
                            float bb = prof[fy + ny + y];
                            float p0 = a * psi[q] + bb * dyxy;
                            psi[q] = p0;
                            dyxy = dyxy + p0;
                            float p2 = a * psi[q + 2 * sly] + bb * dyyz;
                            psi[q + 2 * sly] = p2;
                            dyyz = dyyz + p2;
                        }
                        if (yHalf) {
                            float p = prof[fy + 2 * ny + y] * psi[q + sly] + prof[fy + 3 * ny + y] * dyyy;
                            psi[q + sly] = p;
                            dyyy = dyyy + p;
                        }
                    }
                    if (zInt | zHalf) {
                        int q = pz + (jz * ny + y) * nx + x;
                        if (zInt) {
                            float a = prof[z];
                            float bb = prof[nz + z];
                            float p0 = a * psi[q] + bb * dzxz;
                            psi[q] = p0;
                            dzxz = dzxz + p0;
                            float p1 = a * psi[q + slz] + bb * dzyz;
                            psi[q + slz] = p1;
                            dzyz = dzyz + p1;
                        }
                        if (zHalf) {
                            float p = prof[2 * nz + z] * psi[q + 2 * slz] + prof[3 * nz + z] * dzzz;
                            psi[q + 2 * slz] = p;
                            dzzz = dzzz + p;
                        }
                    }
                    v[i] = v[i] + b[i] * (dxxx + dyxy + dzxz);
                    v[len + i] = v[len + i] + b[len + i] * (dxxy + dyyy + dzyz);
                    v[2 * len + i] = v[2 * len + i] + b[2 * len + i] * (dxxz + dyyz + dzzz);
                }
            }
        }
    }

    /**
     * Stress sub-step: with exx, eyy, ezz the normal strain rates at (x, y, z),
     * {@code σxx += dt(λ+2μ)·exx + dtλ·(eyy + ezz)} (and cyclically σyy, σzz), {@code σxy += dtμxy·(∂y vx + ∂x vy)},
     * {@code σxz += dtμxz·(∂z vx + ∂x vz)}, {@code σyz += dtμyz·(∂z vy + ∂y vz)}; CPML memory variables as in
     * {@link #velocity}.
     */
    public static void stress(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int v1 = len;
        int v2 = 2 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                boolean yInt = y < ybl | y >= ybh;
                boolean yHalf = y < ybl | y >= ybhh;
                int jy = y < ybl ? y : y - ybhh + ybl;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float exx = 0.0f;
                    float eyy = 0.0f;
                    float ezz = 0.0f;
                    float eyx = 0.0f;
                    float exy = 0.0f;
                    float ezx = 0.0f;
                    float exz = 0.0f;
                    float ezy = 0.0f;
                    float eyz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        exx += ck * (v[i + k - 1] - v[i - k]);
                        eyy += cyk * (v[v1 + i + (k - 1) * sy] - v[v1 + i - k * sy]);
                        ezz += czk * (v[v2 + i + (k - 1) * sz] - v[v2 + i - k * sz]);
                        eyx += cyk * (v[i + k * sy] - v[i - (k - 1) * sy]);
                        exy += ck * (v[v1 + i + k] - v[v1 + i - k + 1]);
                        ezx += czk * (v[i + k * sz] - v[i - (k - 1) * sz]);
                        exz += ck * (v[v2 + i + k] - v[v2 + i - k + 1]);
                        ezy += czk * (v[v1 + i + k * sz] - v[v1 + i - (k - 1) * sz]);
                        eyz += cyk * (v[v2 + i + k * sy] - v[v2 + i - (k - 1) * sy]);
                    }
                    boolean xInt = x < xbl | x >= xbh;
                    boolean xHalf = x < xbl | x >= xbhh;
                    if (xInt | xHalf) {
                        int q = px + 3 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                        if (xInt) {
                            float p = prof[fx + x] * psi[q] + prof[fx + nx + x] * exx;
                            psi[q] = p;
                            exx = exx + p;
                        }
                        if (xHalf) {
                            float a = prof[fx + 2 * nx + x];
                            float bb = prof[fx + 3 * nx + x];
                            float p4 = a * psi[q + slx] + bb * exy;
                            psi[q + slx] = p4;
                            exy = exy + p4;
                            float p5 = a * psi[q + 2 * slx] + bb * exz;
                            psi[q + 2 * slx] = p5;
                            exz = exz + p5;
                        }
                    }
                    if (yInt | yHalf) {
                        int q = py + 3 * sly + (z * wy + jy) * nx + x;
                        if (yInt) {
                            float p = prof[fy + y] * psi[q] + prof[fy + ny + y] * eyy;
                            psi[q] = p;
                            eyy = eyy + p;
                        }
                        if (yHalf) {
                            float a = prof[fy + 2 * ny + y];
                            float bb = prof[fy + 3 * ny + y];
                            float p4 = a * psi[q + sly] + bb * eyx;
                            psi[q + sly] = p4;
                            eyx = eyx + p4;
                            float p5 = a * psi[q + 2 * sly] + bb * eyz;
                            psi[q + 2 * sly] = p5;
                            eyz = eyz + p5;
                        }
                    }
                    if (zInt | zHalf) {
                        int q = pz + 3 * slz + (jz * ny + y) * nx + x;
                        if (zInt) {
                            float p = prof[z] * psi[q] + prof[nz + z] * ezz;
                            psi[q] = p;
                            ezz = ezz + p;
                        }
                        if (zHalf) {
                            float a = prof[2 * nz + z];
                            float bb = prof[3 * nz + z];
                            float p4 = a * psi[q + slz] + bb * ezx;
                            psi[q + slz] = p4;
                            ezx = ezx + p4;
                            float p5 = a * psi[q + 2 * slz] + bb * ezy;
                            psi[q + 2 * slz] = p5;
                            ezy = ezy + p5;
                        }
                    }
                    float lam = m[i];
                    float l2m = m[len + i];
                    s[i] = s[i] + (l2m * exx + lam * (eyy + ezz));
                    s[len + i] = s[len + i] + (l2m * eyy + lam * (exx + ezz));
                    s[2 * len + i] = s[2 * len + i] + (l2m * ezz + lam * (exx + eyy));
                    s[3 * len + i] = s[3 * len + i] + m[2 * len + i] * (eyx + exy);
                    s[4 * len + i] = s[4 * len + i] + m[3 * len + i] * (ezx + exz);
                    s[5 * len + i] = s[5 * len + i] + m[4 * len + i] * (ezy + eyz);
                }
            }
        }
    }

    /**
     * Velocity images of the free surface over rows y of [y0, y1) and columns [x0, x1): vx(−k) = −vx(k),
     * vy(−k) = −vy(k), vz(−k+½) = vz(k−½) for k = 1..h. Run after the velocity sub-step and the force sources.
     */
    public static void freeSurfaceVelocity(float[] v, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                for (int k = 1; k <= h; k++) {
                    v[i - k * sz] = -v[i + k * sz];
                    v[len + i - k * sz] = -v[len + i + k * sz];
                    v[2 * len + i - k * sz] = v[2 * len + i + (k - 1) * sz];
                }
            }
        }
    }

    /**
     * Stress rule of the free surface over rows y of [y0, y1) and columns [x0, x1): σzz(0) = 0 and, for k = 1..h,
     * σzz(−k) = −σzz(k), σxz(−k+½) = −σxz(k−½), σyz(−k+½) = −σyz(k−½). Run after the stress sub-step and the
     * explosive sources.
     */
    public static void freeSurfaceStress(float[] s, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                s[2 * len + i] = 0.0f;
                for (int k = 1; k <= h; k++) {
                    s[2 * len + i - k * sz] = -s[2 * len + i + k * sz];
                    s[4 * len + i - k * sz] = -s[4 * len + i + (k - 1) * sz];
                    s[5 * len + i - k * sz] = -s[5 * len + i + (k - 1) * sz];
                }
            }
        }
    }
}
