package sweep.elastic;

import static sweep.elastic.ElasticVectorRows.block;
import static sweep.elastic.ElasticVectorRows.clamp;
import static sweep.elastic.ElasticVectorRows.deriv;
import static sweep.elastic.ElasticVectorRows.derivX;

import sweep.backend.CpuKernels;
import sweep.elastic.kernels.ElasticKernels2D;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 2-D elastic sub-steps of {@link ElasticKernels2D} for the Java backend: the same
 * arguments (plus a scratch array) and, per cell, exactly the same sequence of float operations (no fused
 * multiply-add), vectorised across x with the Vector API. The CPML band tests are hoisted out of the cell loops: per
 * row for z, per row segment for x (segments of constant band membership: [0, XBL), [XBL, XBHH), [XBHH, XBH), [XBH,
 * NX)); each segment runs the loops of {@link ElasticVectorRows}. Segments shorter than a vector go to the portable
 * kernel. Bit-identical to {@link ElasticKernels2D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class ElasticVectorKernels2D {
    private ElasticVectorKernels2D() {
    }

    /** Floats of scratch per thread the kernels need on a grid of computational width {@code nx}. */
    public static int scratchSize(int nx) {
        return ElasticVectorRows.scratchSize(nx);
    }

    /** Same as {@link ElasticKernels2D#velocity}; {@code t}: at least {@link #scratchSize} floats, one per thread. */
    public static void velocity(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, int x0, int x1, float[] t) {
        int c1 = clamp(geo[Layout.XBL], x0, x1);
        int c2 = clamp(geo[ElasticLayout.XBHH], c1, x1);
        int c3 = clamp(geo[Layout.XBH], c2, x1);
        int d1 = clamp(geo[Layout.ZBL], z0, z1);
        int d2 = clamp(geo[ElasticLayout.ZBHH], d1, z1);
        int d3 = clamp(geo[Layout.ZBH], d2, z1);
        for (int zs = 0; zs < 4; zs++) {
            int za = zs == 0 ? z0 : zs == 1 ? d1 : zs == 2 ? d2 : d3;
            int ze = zs == 0 ? d1 : zs == 1 ? d2 : zs == 2 ? d3 : z1;
            int rb = ElasticVectorRows.blockRows(x1 - x0);
            for (int zb = za; zb < ze; zb += rb) {
                int zn = Math.min(ze, zb + rb);
                for (int seg = 0; seg < 4; seg++) {
                    int xa = seg == 0 ? x0 : seg == 1 ? c1 : seg == 2 ? c2 : c3;
                    int xe = seg == 0 ? c1 : seg == 1 ? c2 : seg == 2 ? c3 : x1;
                    if (xe - xa >= ElasticVectorRows.S.length()) {
                        velocityBlock(v, s, b, psi, prof, coef, geo, zb, zn, xa, xe, t);
                    } else if (xe > xa) {
                        ElasticKernels2D.velocity(v, s, b, psi, prof, coef, geo, zb, zn, xa, xe);
                    }
                }
            }
        }
    }

    /** Same as {@link ElasticKernels2D#stress}; {@code t}: at least {@link #scratchSize} floats, one per thread. */
    public static void stress(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int x0, int x1, float[] t) {
        int c1 = clamp(geo[Layout.XBL], x0, x1);
        int c2 = clamp(geo[ElasticLayout.XBHH], c1, x1);
        int c3 = clamp(geo[Layout.XBH], c2, x1);
        int d1 = clamp(geo[Layout.ZBL], z0, z1);
        int d2 = clamp(geo[ElasticLayout.ZBHH], d1, z1);
        int d3 = clamp(geo[Layout.ZBH], d2, z1);
        for (int zs = 0; zs < 4; zs++) {
            int za = zs == 0 ? z0 : zs == 1 ? d1 : zs == 2 ? d2 : d3;
            int ze = zs == 0 ? d1 : zs == 1 ? d2 : zs == 2 ? d3 : z1;
            int rb = ElasticVectorRows.blockRows(x1 - x0);
            for (int zb = za; zb < ze; zb += rb) {
                int zn = Math.min(ze, zb + rb);
                for (int seg = 0; seg < 4; seg++) {
                    int xa = seg == 0 ? x0 : seg == 1 ? c1 : seg == 2 ? c2 : c3;
                    int xe = seg == 0 ? c1 : seg == 1 ? c2 : seg == 2 ? c3 : x1;
                    if (xe - xa >= ElasticVectorRows.S.length()) {
                        stressBlock(v, s, m, psi, prof, coef, geo, zb, zn, xa, xe, t);
                    } else if (xe > xa) {
                        ElasticKernels2D.stress(v, s, m, psi, prof, coef, geo, zb, zn, xa, xe);
                    }
                }
            }
        }
    }

    private static void velocityBlock(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef,
                                      int[] geo, int z, int ze, int xa, int xe, float[] t) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int xbl = geo[Layout.XBL];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        boolean zI = z < zbl | z >= geo[Layout.ZBH];
        boolean zH = z < zbl | z >= zbhh;
        boolean xI = xa < xbl | xa >= geo[Layout.XBH];
        boolean xH = xa < xbl | xa >= xbhh;
        int i = geo[Layout.OFF0] + z * sz + xa;
        int n = xe - xa;
        int rows = ze - z;
        int wx = geo[ElasticLayout.WX];
        int rl = ElasticVectorRows.rowLength(nx);
        int qx = geo[ElasticLayout.PSI_X] + z * wx + (xa < xbl ? xa : xa - xbhh + xbl);
        int qz = geo[ElasticLayout.PSI_Z] + (z < zbl ? z : z - zbhh + zbl) * nx + xa;
        int slx = geo[ElasticLayout.SLAB_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int fx = 4 * nz + 4 * geo[Layout.NY] + xa;
        int cx = 2 * h;
        int b1 = block(rl, 1);
        // vx = vx + b·(∂x σxx + ∂z σxz): D+ along x (half band, x slot 0), D− along z (integer band, z slot 0)
        if (h == 4 && !(xH | zI)) {
            ElasticVectorRows.velocity2x4(v, b, i, sz, n, rows, s, i, cx, s, 2 * len + i - sz, sz, 0, coef, t);
        } else if (h == 4 && !zI) {
            derivX(s, i, sz, coef, cx, h, n, rows, t, 0, rl, true, psi, qx, wx, prof, fx + 2 * nx, fx + 3 * nx, t);
            ElasticVectorRows.shear4s(v, b, i, i, sz, n, rows, s, 2 * len + i - sz, sz, 0, coef, t, rl);
        } else if (h == 4 && !xH) {
            deriv(s, 2 * len + i - sz, sz, sz, coef, 0, h, n, rows, t, 0, rl, true, psi, qz, nx, prof, z, nz + z, 1,
                    t);
            ElasticVectorRows.shear4s(v, b, i, i, sz, n, rows, s, i, 1, cx, coef, t, rl);
        } else {
            derivX(s, i, sz, coef, cx, h, n, rows, t, 0, rl, xH, psi, qx, wx, prof, fx + 2 * nx, fx + 3 * nx, t);
            deriv(s, 2 * len + i - sz, sz, sz, coef, 0, h, n, rows, t, b1, rl, zI, psi, qz, nx, prof, z, nz + z, 1,
                    t);
            ElasticVectorRows.velocity(v, b, i, sz, n, rows, false, t, rl);
        }
        // vz = vz + b·(∂x σxz + ∂z σzz): D− along x (integer band, x slot 1), D+ along z (half band, z slot 1)
        if (h == 4 && !(xI | zH)) {
            ElasticVectorRows.velocity2x4(v, b, len + i, sz, n, rows, s, 2 * len + i - 1, cx, s, len + i, sz, 0, coef,
                    t);
        } else if (h == 4 && !zH) {
            derivX(s, 2 * len + i - 1, sz, coef, cx, h, n, rows, t, 0, rl, true, psi, qx + slx, wx, prof, fx, fx + nx,
                    t);
            ElasticVectorRows.shear4s(v, b, len + i, len + i, sz, n, rows, s, len + i, sz, 0, coef, t, rl);
        } else if (h == 4 && !xI) {
            deriv(s, len + i, sz, sz, coef, 0, h, n, rows, t, 0, rl, true, psi, qz + slz, nx, prof, 2 * nz + z,
                    3 * nz + z, 1, t);
            ElasticVectorRows.shear4s(v, b, len + i, len + i, sz, n, rows, s, 2 * len + i - 1, 1, cx, coef, t, rl);
        } else {
            derivX(s, 2 * len + i - 1, sz, coef, cx, h, n, rows, t, 0, rl, xI, psi, qx + slx, wx, prof, fx, fx + nx,
                    t);
            deriv(s, len + i, sz, sz, coef, 0, h, n, rows, t, b1, rl, zH, psi, qz + slz, nx, prof, 2 * nz + z,
                    3 * nz + z, 1, t);
            ElasticVectorRows.velocity(v, b, len + i, sz, n, rows, false, t, rl);
        }
    }

    private static void stressBlock(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef,
                                    int[] geo, int z, int ze, int xa, int xe, float[] t) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int xbl = geo[Layout.XBL];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        boolean zI = z < zbl | z >= geo[Layout.ZBH];
        boolean zH = z < zbl | z >= zbhh;
        boolean xI = xa < xbl | xa >= geo[Layout.XBH];
        boolean xH = xa < xbl | xa >= xbhh;
        int i = geo[Layout.OFF0] + z * sz + xa;
        int n = xe - xa;
        int rows = ze - z;
        int wx = geo[ElasticLayout.WX];
        int rl = ElasticVectorRows.rowLength(nx);
        int qx = geo[ElasticLayout.PSI_X] + z * wx + (xa < xbl ? xa : xa - xbhh + xbl);
        int qz = geo[ElasticLayout.PSI_Z] + (z < zbl ? z : z - zbhh + zbl) * nx + xa;
        int slx = geo[ElasticLayout.SLAB_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int fx = 4 * nz + 4 * geo[Layout.NY] + xa;
        int cx = 2 * h;
        int b1 = block(rl, 1);
        // σxx, σzz from exx = ∂x vx (D−, integer band, x slot 2) and ezz = ∂z vz (D−, integer band, z slot 2)
        if (h == 4 && !(xI | zI)) {
            ElasticVectorRows.normal2x4(v, s, m, i, sz, len, sz, n, rows, coef, h, t);
        } else if (h == 4 && !zI) {
            derivX(v, i - 1, sz, coef, cx, h, n, rows, t, 0, rl, true, psi, qx + 2 * slx, wx, prof, fx, fx + nx, t);
            ElasticVectorRows.normal2x4s(s, m, i, sz, len, i, len + i, n, rows, v, len + i - sz, sz, 0, coef, t, rl);
        } else if (h == 4 && !xI) {
            deriv(v, len + i - sz, sz, sz, coef, 0, h, n, rows, t, 0, rl, true, psi, qz + 2 * slz, nx, prof, z, nz + z,
                    1, t);
            ElasticVectorRows.normal2x4s(s, m, i, sz, len, len + i, i, n, rows, v, i - 1, 1, cx, coef, t, rl);
        } else {
            derivX(v, i - 1, sz, coef, cx, h, n, rows, t, 0, rl, xI, psi, qx + 2 * slx, wx, prof, fx, fx + nx, t);
            deriv(v, len + i - sz, sz, sz, coef, 0, h, n, rows, t, b1, rl, zI, psi, qz + 2 * slz, nx, prof, z, nz + z,
                    1, t);
            ElasticVectorRows.normal2(s, m, i, sz, len, n, rows, t, rl);
        }
        // σxz from ∂z vx (D+, half band, z slot 3) + ∂x vz (D+, half band, x slot 3)
        if (h == 4 && !(zH | xH)) {
            ElasticVectorRows.shear4(s, m, 2 * len + i, 2 * len + i, sz, n, rows, v, i, sz, 0, v, len + i, 1, cx, coef,
                    t);
        } else if (h == 4 && !xH) {
            deriv(v, i, sz, sz, coef, 0, h, n, rows, t, 0, rl, true, psi, qz + 3 * slz, nx, prof, 2 * nz + z,
                    3 * nz + z, 1, t);
            ElasticVectorRows.shear4s(s, m, 2 * len + i, 2 * len + i, sz, n, rows, v, len + i, 1, cx, coef, t, rl);
        } else if (h == 4 && !zH) {
            derivX(v, len + i, sz, coef, cx, h, n, rows, t, 0, rl, true, psi, qx + 3 * slx, wx, prof, fx + 2 * nx,
                    fx + 3 * nx, t);
            ElasticVectorRows.shear4s(s, m, 2 * len + i, 2 * len + i, sz, n, rows, v, i, sz, 0, coef, t, rl);
        } else {
            deriv(v, i, sz, sz, coef, 0, h, n, rows, t, 0, rl, zH, psi, qz + 3 * slz, nx, prof, 2 * nz + z, 3 * nz + z,
                    1, t);
            derivX(v, len + i, sz, coef, cx, h, n, rows, t, b1, rl, xH, psi, qx + 3 * slx, wx, prof, fx + 2 * nx,
                    fx + 3 * nx, t);
            ElasticVectorRows.shear(s, m, 2 * len + i, 2 * len + i, sz, n, rows, t, rl);
        }
    }
}
