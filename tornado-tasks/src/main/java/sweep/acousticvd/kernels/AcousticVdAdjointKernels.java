package sweep.acousticvd.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the exact discrete adjoint (transpose) of {@link AcousticVdKernels}' step, in gather form: every kernel
 * writes only its own cells, and only scaled adjoint fields cross a tile cut. Each sub-step's transpose is a pointwise
 * kernel (the model and CPML factors, forming the scaled adjoints e or d and accumulating the node gradients from the
 * taped brackets) and a gather (the transposed derivative reads, the free-surface images folded back). Arrays and
 * slots as in {@link AcousticVdKernels}; the scaled adjoints e, d are packed per component like the velocities and
 * are zero outside the computational cells (but in the halo of a cut, which the neighbour fills). The four transposes
 * of the step run on the cells [z0, z1) × [y0, y1) × [x0, x1) (y0 = 0, y1 = 1 in 2-D), any split giving the same bits.
 */
public final class AcousticVdAdjointKernels {
    private AcousticVdAdjointKernels() {
    }

    /**
     * Transpose of the pressure update's pointwise part, for the adjoint pressure p̄ (its surface row already cleared
     * with a free surface): Q = −(dt·K)·p̄ (plus {@code extra} of the cell when {@code withExtra} is 1: what else the
     * step did with the bracket, e.g. the visco-acoustic memory variables; indexed as the tape), per axis a e_a = Q,
     * and in the axis's band P = ψ̄_a + Q, e_a = Q + b_a·P, ψ̄_a ← a_a·P; and the node gradient
     * dJ/d(dt·K) += −p̄·(the taped pressure bracket).
     */
    public static void pressurePoint(float[] pb, float[] psib, float[] kdt, float[] prof, float[] e, float[] gk,
                                     int[] geo, int z0, int z1, int y0, int y1, int x0, int x1, float[] tape,
                                     int tapeOff, float[] extra, int withExtra) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int gz = Layout.aux(0);
        int gy = Layout.aux(1);
        int gx = Layout.aux(2);
        int zbl = geo[Layout.ZBL];
        int ybl = geo[Layout.YBL];
        int xbl = geo[Layout.XBL];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int py = 4 * nz;
        int px = 4 * (nz + ny);
        int lz = (ndim - 1) * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float a = pb[i];
                    float q = -(kdt[i] * a);
                    if (withExtra == 1) {
                        q = q + extra[(z * ny + y) * nx + x];
                    }
                    e[i] = q;
                    if (prof[px + x] != 0.0f) {
                        int jx = (x < xbl + h ? geo[gx] : geo[gx + 1]) + z * geo[gx + 2] + y * geo[gx + 3] + x;
                        float r = psib[jx] + q;
                        e[i] = q + prof[px + nx + x] * r;
                        psib[jx] = prof[px + x] * r;
                    }
                    if (ndim == 3) {
                        int j = len + i;
                        e[j] = q;
                        if (prof[py + y] != 0.0f) {
                            int jy = (y < ybl + h ? geo[gy] : geo[gy + 1]) + z * geo[gy + 2] + y * geo[gy + 3] + x;
                            float r = psib[jy] + q;
                            e[j] = q + prof[py + ny + y] * r;
                            psib[jy] = prof[py + y] * r;
                        }
                    }
                    int j = lz + i;
                    e[j] = q;
                    if (prof[z] != 0.0f) {
                        int jz = (z < zbl + h ? geo[gz] : geo[gz + 1]) + z * geo[gz + 2] + y * geo[gz + 3] + x;
                        float r = psib[jz] + q;
                        e[j] = q + prof[nz + z] * r;
                        psib[jz] = prof[z] * r;
                    }
                    gk[i] = gk[i] - a * tape[tapeOff + (z * ny + y) * nx + x];
                }
            }
        }
    }

    /**
     * Transpose of the pressure update's derivatives D⁻_a, gathered at each velocity node:
     * v̄_a += Σ_k c_k (e_a(−k+1) − e_a(+k)) along a; with a free surface ({@code fs} 1) also the transposed vz images,
     * v̄z(m) −= Σ_{z=0}^{H−m−1} c_{m+z+1}·e_z(z) on rows m = 0..H−1.
     */
    public static void velocityGather(float[] vb, float[] e, float[] coef, int[] geo, int fs, int z0, int z1, int y0,
                                      int y1, int x0, int x1) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int lz = (ndim - 1) * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float s = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        s += coef[2 * h + k - 1] * (e[i - k + 1] - e[i + k]);
                    }
                    vb[i] = vb[i] + s;
                    if (ndim == 3) {
                        int j = len + i;
                        s = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            s += coef[h + k - 1] * (e[j - (k - 1) * sy] - e[j + k * sy]);
                        }
                        vb[j] = vb[j] + s;
                    }
                    int j = lz + i;
                    s = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        s += coef[k - 1] * (e[j - (k - 1) * sz] - e[j + k * sz]);
                    }
                    if (fs == 1) {
                        int top = lz + off + y * sy + x;
                        for (int r = 0; r <= h - z - 1; r++) {
                            s -= coef[z + r] * e[top + r * sz];
                        }
                    }
                    vb[j] = vb[j] + s;
                }
            }
        }
    }

    /**
     * Transpose of the velocity update's pointwise part, per component a: Q = −(dt/ρ̄)·v̄_a, d_a = Q, and in the
     * band of its axis P = ψ̄_a + Q, d_a = Q + b½·P, ψ̄_a ← a½·P; and the node gradient dJ/d(dt/ρ̄) += −v̄_a·(the
     * taped velocity bracket).
     */
    public static void velocityPoint(float[] vb, float[] psib, float[] bv, float[] prof, float[] d, float[] gb,
                                     int[] geo, int z0, int z1, int y0, int y1, int x0, int x1, float[] tape,
                                     int tapeOff) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int cells = nz * ny * nx;
        int py = 4 * nz;
        int px = 4 * (nz + ny);
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    int c = (z * ny + y) * nx + x;
                    for (int a = 0; a < ndim; a++) {
                        int j = a * len + i;
                        // the profile of component a's axis at its half node
                        float pa = a == ndim - 1 ? prof[2 * nz + z] : a == 0 ? prof[px + 2 * nx + x]
                                : prof[py + 2 * ny + y];
                        float pbh = a == ndim - 1 ? prof[3 * nz + z] : a == 0 ? prof[px + 3 * nx + x]
                                : prof[py + 3 * ny + y];
                        float w = vb[j];
                        float q = -(bv[j] * w);
                        d[j] = q;
                        if (pa != 0.0f) {
                            // component a's CPML memory: axis slot z (a = ndim − 1), x (a = 0) or y
                            int s = a == ndim - 1 ? 0 : a == 0 ? 2 : 1;
                            int cs = s == 0 ? z : s == 2 ? x : y;
                            int g = Layout.aux(s);
                            int jb = (cs < geo[Layout.ZBL + 2 * s] + h ? geo[g] : geo[g + 1]) + z * geo[g + 2]
                                    + y * geo[g + 3] + x;
                            float r = psib[jb] + q;
                            d[j] = q + pbh * r;
                            psib[jb] = pa * r;
                        }
                        gb[j] = gb[j] - w * tape[tapeOff + (1 + a) * cells + c];
                    }
                }
            }
        }
    }

    /**
     * Transpose of the velocity update's derivatives D⁺_a, gathered at each pressure node:
     * p̄ += Σ_a Σ_k c_k (d_a(−k) − d_a(+k−1)) along a; with a free surface ({@code fs} 1) also the transposed pressure
     * images, p̄(m) += Σ_{z=0}^{H−m−1} c_{m+z+1}·d_z(z) on rows m = 1..H−1.
     */
    public static void pressureGather(float[] pb, float[] d, float[] coef, int[] geo, int fs, int z0, int z1, int y0,
                                      int y1, int x0, int x1) {
        int ndim = geo[Layout.NDIM];
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int lz = (ndim - 1) * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float s = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        s += coef[2 * h + k - 1] * (d[i - k] - d[i + k - 1]);
                    }
                    if (ndim == 3) {
                        int j = len + i;
                        for (int k = 1; k <= h; k++) {
                            s += coef[h + k - 1] * (d[j - k * sy] - d[j + (k - 1) * sy]);
                        }
                    }
                    int j = lz + i;
                    for (int k = 1; k <= h; k++) {
                        s += coef[k - 1] * (d[j - k * sz] - d[j + (k - 1) * sz]);
                    }
                    if (fs == 1 & z >= 1) {
                        int top = lz + off + y * sy + x;
                        for (int r = 0; r <= h - z - 1; r++) {
                            s += coef[z + r] * d[top + r * sz];
                        }
                    }
                    pb[i] = pb[i] + s;
                }
            }
        }
    }

    /** Transpose of {@link AcousticVdKernels#zeroSurface}: p̄ = 0 on the surface row, columns y in [y0, y1). */
    public static void zeroSurface(float[] pb, int[] geo, int y0, int y1) {
        AcousticVdKernels.zeroSurface(pb, geo, y0, y1);
    }
    /**
     * Boundary saving: the previous pressure level on the box [z0, z1) × [y0, y1) × [x0, x1) (cells outside every CPML
     * band), p ← p + (dt·K)·Σ_a D⁻_a v_a, the source already taken out.
     */
    public static void reversePressure(float[] p, float[] v, float[] kdt, float[] coef, int[] geo, int z0, int z1,
                                       int y0, int y1, int x0, int x1) {
        int ndim = geo[Layout.NDIM];
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
                    p[i] = p[i] + kdt[i] * divergence(v, coef, geo, ndim, i);
                }
            }
        }
    }

    /** Boundary saving: the previous velocities on the box (as {@link #reversePressure}), v_a += (dt/ρ̄)·D⁺_a p. */
    public static void reverseVelocity(float[] p, float[] v, float[] bv, float[] coef, int[] geo, int z0, int z1,
                                       int y0, int y1, int x0, int x1) {
        int ndim = geo[Layout.NDIM];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    for (int a = 0; a < ndim; a++) {
                        int j = a * len + i;
                        v[j] = v[j] + bv[j] * gradient(p, coef, geo, ndim, a, i);
                    }
                }
            }
        }
    }

    /**
     * Boundary saving: the brackets of a step from the rebuilt fields, into {@code tape} as the forward kernels tape
     * them but without the CPML memory variables (exact outside the bands): the pressure bracket Σ_a D⁻_a v_a when
     * {@code which} is 0, the velocity brackets D⁺_a p when it is 1.
     */
    public static void brackets(float[] p, float[] v, float[] coef, int[] geo, int which, int z0, int z1, int y0,
                                int y1, int x0, int x1, float[] tape, int tapeOff) {
        int ndim = geo[Layout.NDIM];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int cells = nz * ny * nx;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    int c = (z * ny + y) * nx + x;
                    if (which == 0) {
                        tape[tapeOff + c] = divergence(v, coef, geo, ndim, i);
                    } else {
                        for (int a = 0; a < ndim; a++) {
                            tape[tapeOff + (1 + a) * cells + c] = gradient(p, coef, geo, ndim, a, i);
                        }
                    }
                }
            }
        }
    }

    /** Σ_a D⁻_a v_a at node i, summed as the forward pressure kernel sums it (x, then y, then z). */
    private static float divergence(float[] v, float[] coef, int[] geo, int ndim, int i) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int len = geo[Layout.LEN];
        float d = 0.0f;
        for (int k = 1; k <= h; k++) {
            d += coef[2 * h + k - 1] * (v[i + k - 1] - v[i - k]);
        }
        float div = d;
        if (ndim == 3) {
            int j = len + i;
            d = 0.0f;
            for (int k = 1; k <= h; k++) {
                d += coef[h + k - 1] * (v[j + (k - 1) * sy] - v[j - k * sy]);
            }
            div = div + d;
        }
        int j = (ndim - 1) * len + i;
        d = 0.0f;
        for (int k = 1; k <= h; k++) {
            d += coef[k - 1] * (v[j + (k - 1) * sz] - v[j - k * sz]);
        }
        return div + d;
    }

    /** D⁺_a p at the velocity node of component a of cell i (a = 0 x, the last z, 1 y in 3-D). */
    private static float gradient(float[] p, float[] coef, int[] geo, int ndim, int a, int i) {
        int h = geo[Layout.H];
        int stride = a == ndim - 1 ? geo[Layout.SZ] : a == 0 ? 1 : geo[Layout.SY];
        int slot = a == ndim - 1 ? 0 : a == 0 ? 2 : 1;
        float d = 0.0f;
        for (int k = 1; k <= h; k++) {
            d += coef[slot * h + k - 1] * (p[i + k * stride] - p[i - (k - 1) * stride]);
        }
        return d;
    }
}
