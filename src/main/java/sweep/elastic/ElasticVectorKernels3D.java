package sweep.elastic;

import static sweep.elastic.ElasticVectorRows.block;
import static sweep.elastic.ElasticVectorRows.clamp;
import static sweep.elastic.ElasticVectorRows.deriv;
import static sweep.elastic.ElasticVectorRows.derivX;

import sweep.backend.CpuKernels;
import sweep.elastic.kernels.ElasticKernels3D;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 3-D elastic sub-steps of {@link ElasticKernels3D} for the Java backend, built as
 * {@link ElasticVectorKernels2D} is: per cell the same float operations in the same order, vectorised across x, band
 * tests hoisted out of the cell loops. A plane z is cut into blocks of at most {@link ElasticVectorRows#RB} rows y of
 * one y-band segment ([0, YBL), [YBL, YBHH), [YBHH, YBH), [YBH, NY)) and one x-band segment, so that all cells of a
 * block have the same memory variables; each block runs the loops of {@link ElasticVectorRows}, a block narrower than a
 * vector the portable kernel. Bit-identical to {@link ElasticKernels3D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class ElasticVectorKernels3D {
    private ElasticVectorKernels3D() {
    }

    /** Floats of scratch per thread the kernels need on a grid of computational width {@code nx}. */
    public static int scratchSize(int nx) {
        return ElasticVectorRows.scratchSize(nx);
    }

    /** Same as {@link ElasticKernels3D#velocity}; {@code t}: at least {@link #scratchSize} floats, one per thread. */
    public static void velocity(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1, float[] t) {
        sweep(v, s, b, psi, prof, coef, geo, z0, z1, y0, y1, x0, x1, t, true);
    }

    /** Same as {@link ElasticKernels3D#stress}; {@code t}: at least {@link #scratchSize} floats, one per thread. */
    public static void stress(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int y0, int y1, int x0, int x1, float[] t) {
        sweep(v, s, m, psi, prof, coef, geo, z0, z1, y0, y1, x0, x1, t, false);
    }

    /** The blocks of the box, velocity ({@code p} = b) or stress ({@code p} = m) sub-step. */
    private static void sweep(float[] v, float[] s, float[] p, float[] psi, float[] prof, float[] coef, int[] geo,
                              int z0, int z1, int y0, int y1, int x0, int x1, float[] t, boolean velocity) {
        int c1 = clamp(geo[Layout.XBL], x0, x1);
        int c2 = clamp(geo[ElasticLayout.XBHH], c1, x1);
        int c3 = clamp(geo[Layout.XBH], c2, x1);
        int d1 = clamp(geo[Layout.YBL], y0, y1);
        int d2 = clamp(geo[ElasticLayout.YBHH], d1, y1);
        int d3 = clamp(geo[Layout.YBH], d2, y1);
        int vl = ElasticVectorRows.S.length();
        int rb = ElasticVectorRows.blockRows(c2 - c1);
        for (int z = z0; z < z1; z++) {
            for (int ys = 0; ys < 4; ys++) {
                int ya = ys == 0 ? y0 : ys == 1 ? d1 : ys == 2 ? d2 : d3;
                int ye = ys == 0 ? d1 : ys == 1 ? d2 : ys == 2 ? d3 : y1;
                for (int yb = ya; yb < ye; yb += rb) {
                    int yn = Math.min(ye, yb + rb);
                    for (int xs = 0; xs < 4; xs++) {
                        int xa = xs == 0 ? x0 : xs == 1 ? c1 : xs == 2 ? c2 : c3;
                        int xe = xs == 0 ? c1 : xs == 1 ? c2 : xs == 2 ? c3 : x1;
                        if (xe - xa >= vl && velocity) {
                            velocityBlock(v, s, p, psi, prof, coef, geo, z, yb, yn, xa, xe, t);
                        } else if (xe - xa >= vl) {
                            stressBlock(v, s, p, psi, prof, coef, geo, z, yb, yn, xa, xe, t);
                        } else if (xe > xa && velocity) {
                            ElasticKernels3D.velocity(v, s, p, psi, prof, coef, geo, z, z + 1, yb, yn, xa, xe);
                        } else if (xe > xa) {
                            ElasticKernels3D.stress(v, s, p, psi, prof, coef, geo, z, z + 1, yb, yn, xa, xe);
                        }
                    }
                }
            }
        }
    }

    /**
     * Memory-variable geometry of a block (plane z, rows [ya, ye) of one y segment, cells [xa, xe) of one x segment):
     * band flags, the slab index of variable 0 at (ya, xa) per axis and its row stride, profile offsets.
     */
    private static final class Block {
        boolean xI;
        boolean xH;
        boolean yI;
        boolean yH;
        boolean zI;
        boolean zH;
        int qx;
        int qy;
        int qz;
        int wx;
        /** prof offsets: x integer and half decay at xa; y integer and half decay at ya; z integer and half decay. */
        int pxI;
        int pxH;
        int pyI;
        int pyH;
        int pzI;
        int pzH;
    }

    private static void geometry(int[] geo, int z, int ya, int xa, Block g) {
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int ybl = geo[Layout.YBL];
        int xbl = geo[Layout.XBL];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        g.xI = xa < xbl | xa >= geo[Layout.XBH];
        g.xH = xa < xbl | xa >= xbhh;
        g.yI = ya < ybl | ya >= geo[Layout.YBH];
        g.yH = ya < ybl | ya >= ybhh;
        g.zI = z < zbl | z >= geo[Layout.ZBH];
        g.zH = z < zbl | z >= zbhh;
        g.wx = geo[ElasticLayout.WX];
        g.qx = geo[ElasticLayout.PSI_X] + (z * ny + ya) * g.wx + (xa < xbl ? xa : xa - xbhh + xbl);
        g.qy = geo[ElasticLayout.PSI_Y] + (z * geo[ElasticLayout.WY] + (ya < ybl ? ya : ya - ybhh + ybl)) * nx + xa;
        g.qz = geo[ElasticLayout.PSI_Z] + ((z < zbl ? z : z - zbhh + zbl) * ny + ya) * nx + xa;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        g.pxI = fx + xa;
        g.pxH = fx + 2 * nx + xa;
        g.pyI = fy + ya;
        g.pyH = fy + 2 * ny + ya;
        g.pzI = z;
        g.pzH = 2 * nz + z;
    }

    private static void velocityBlock(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef,
                                      int[] geo, int z, int ya, int ye, int xa, int xe, float[] t) {
        int len = geo[Layout.LEN];
        int sy = geo[Layout.SY];
        int sz = geo[Layout.SZ];
        int slx = geo[ElasticLayout.SLAB_X];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slz = geo[ElasticLayout.SLAB_Z];
        Block g = new Block();
        geometry(geo, z, ya, xa, g);
        int i = geo[Layout.OFF0] + z * sz + ya * sy + xa;
        // vx: ∂x σxx (D+, x half band, slot 0), ∂y σxy (D−, y integer band, slot 0), ∂z σxz (D−, z integer, slot 0)
        component(v, b, i, s, i, 3 * len + i - sy, 4 * len + i - sz, g.xH, g.qx, g.pxH, g.yI, g.qy, g.pyI, g.zI,
                g.qz, g.pzI, psi, prof, coef, geo, g, ye - ya, xe - xa, t);
        // vy: ∂x σxy (D−, x integer, slot 1), ∂y σyy (D+, y half, slot 1), ∂z σyz (D−, z integer, slot 1)
        component(v, b, len + i, s, 3 * len + i - 1, len + i, 5 * len + i - sz, g.xI, g.qx + slx, g.pxI, g.yH,
                g.qy + sly, g.pyH, g.zI, g.qz + slz, g.pzI, psi, prof, coef, geo, g, ye - ya, xe - xa, t);
        // vz: ∂x σxz (D−, x integer, slot 2), ∂y σyz (D−, y integer, slot 2), ∂z σzz (D+, z half, slot 2)
        component(v, b, 2 * len + i, s, 4 * len + i - 1, 5 * len + i - sy, 2 * len + i, g.xI, g.qx + 2 * slx, g.pxI,
                g.yI, g.qy + 2 * sly, g.pyI, g.zH, g.qz + 2 * slz, g.pzH, psi, prof, coef, geo, g, ye - ya, xe - xa,
                t);
    }

    /**
     * One velocity component over a block: f[fi + …] += b[fi + …]·((Dx + Dy) + Dz), Dx the difference of s along x at
     * ox (memory variable in the x band: {@code bx}, slab index qx, profile pax), Dy along y at oy, Dz along z at oz.
     * Order 8: the differences without memory variable inline, at most one from the scratch; else the pipeline.
     */
    private static void component(float[] f, float[] b, int fi, float[] s, int ox, int oy, int oz, boolean bx, int qx,
                                  int pax, boolean by, int qy, int pay, boolean bz, int qz, int paz, float[] psi,
                                  float[] prof, float[] coef, int[] geo, Block g, int rows, int n, float[] t) {
        int h = geo[Layout.H];
        int sy = geo[Layout.SY];
        int sz = geo[Layout.SZ];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int rl = ElasticVectorRows.rowLength(nx);
        int cx = 2 * h;
        int bands = (bx ? 1 : 0) + (by ? 1 : 0) + (bz ? 1 : 0);
        if (h == 4 && bands == 0) {
            ElasticVectorRows.velocity3x4(f, b, fi, sy, n, rows, s, ox, cx, s, oy, sy, h, s, oz, sz, 0, coef, t);
        } else if (h == 4 && bands == 1 && bx) {
            derivX(s, ox, sy, coef, cx, h, n, rows, t, 0, rl, true, psi, qx, g.wx, prof, pax, pax + nx, t);
            ElasticVectorRows.velocity3x4s(f, b, fi, sy, n, rows, s, oy, sy, h, s, oz, sz, 0, coef, t, rl);
        } else if (h == 4 && bands == 1 && by) {
            deriv(s, oy, sy, sy, coef, h, h, n, rows, t, 0, rl, true, psi, qy, nx, prof, pay, pay + ny, 1, t);
            ElasticVectorRows.velocity3x4s(f, b, fi, sy, n, rows, s, ox, 1, cx, s, oz, sz, 0, coef, t, rl);
        } else if (h == 4 && bands == 1) {
            deriv(s, oz, sy, sz, coef, 0, h, n, rows, t, 0, rl, true, psi, qz, nx, prof, paz, paz + nz, 0, t);
            ElasticVectorRows.velocity3x4t(f, b, fi, sy, n, rows, s, ox, cx, s, oy, sy, h, coef, t, rl);
        } else {
            derivX(s, ox, sy, coef, cx, h, n, rows, t, 0, rl, bx, psi, qx, g.wx, prof, pax, pax + nx, t);
            deriv(s, oy, sy, sy, coef, h, h, n, rows, t, block(rl, 1), rl, by, psi, qy, nx, prof, pay, pay + ny, 1,
                    t);
            deriv(s, oz, sy, sz, coef, 0, h, n, rows, t, block(rl, 2), rl, bz, psi, qz, nx, prof, paz, paz + nz, 0,
                    t);
            ElasticVectorRows.velocity(f, b, fi, sy, n, rows, true, t, rl);
        }
    }

    private static void stressBlock(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef,
                                    int[] geo, int z, int ya, int ye, int xa, int xe, float[] t) {
        int h = geo[Layout.H];
        int len = geo[Layout.LEN];
        int sy = geo[Layout.SY];
        int sz = geo[Layout.SZ];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int slx = geo[ElasticLayout.SLAB_X];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slz = geo[ElasticLayout.SLAB_Z];
        Block g = new Block();
        geometry(geo, z, ya, xa, g);
        int i = geo[Layout.OFF0] + z * sz + ya * sy + xa;
        int n = xe - xa;
        int rows = ye - ya;
        int rl = ElasticVectorRows.rowLength(nx);
        int b1 = block(rl, 1);
        int b2 = block(rl, 2);
        int cx = 2 * h;
        // normal strain rates exx, eyy, ezz (D−, integer bands, slot 3 of each axis)
        if (h == 4 && !(g.xI | g.yI | g.zI)) {
            ElasticVectorRows.normal3x4(v, s, m, i, sy, len, sy, sz, n, rows, coef, h, t);
        } else {
            derivX(v, i - 1, sy, coef, cx, h, n, rows, t, 0, rl, g.xI, psi, g.qx + 3 * slx, g.wx, prof, g.pxI,
                    g.pxI + nx, t);
            deriv(v, len + i - sy, sy, sy, coef, h, h, n, rows, t, b1, rl, g.yI, psi, g.qy + 3 * sly, nx, prof,
                    g.pyI, g.pyI + ny, 1, t);
            deriv(v, 2 * len + i - sz, sy, sz, coef, 0, h, n, rows, t, b2, rl, g.zI, psi, g.qz + 3 * slz, nx, prof,
                    g.pzI, g.pzI + nz, 0, t);
            ElasticVectorRows.normal3(s, m, i, sy, len, n, rows, t, rl);
        }
        // σxy: ∂y vx (D+, y half, y slot 4) + ∂x vy (D+, x half, x slot 4)
        shearComponent(s, m, 3 * len + i, 2 * len + i, v, i, sy, h, g.yH, g.qy + 4 * sly, nx, g.pyH, g.pyH + ny, 1,
                false, len + i, g.xH, g.qx + 4 * slx, g.pxH, psi, prof, coef, geo, g, rows, n, t);
        // σxz: ∂z vx (D+, z half, z slot 4) + ∂x vz (D+, x half, x slot 5)
        shearComponent(s, m, 4 * len + i, 3 * len + i, v, i, sz, 0, g.zH, g.qz + 4 * slz, nx, g.pzH, g.pzH + nz, 0,
                false, 2 * len + i, g.xH, g.qx + 5 * slx, g.pxH, psi, prof, coef, geo, g, rows, n, t);
        // σyz: ∂z vy (D+, z half, z slot 5) + ∂y vz (D+, y half, y slot 5): no x difference
        shearComponent(s, m, 5 * len + i, 4 * len + i, v, len + i, sz, 0, g.zH, g.qz + 5 * slz, nx, g.pzH, g.pzH + nz,
                0, true, 2 * len + i, g.yH, g.qy + 5 * sly, g.pyH, psi, prof, coef, geo, g, rows, n, t);
    }

    /**
     * One shear stress over a block: s[si + …] += m[mi + …]·(D0 + D1), D0 the difference of v at o0 along st0 (weights
     * at c0, a y or z band row's memory variable: b0, q0 with row stride qs0, profile pa0/pb0 with row step ps0), D1 at
     * o1 along x, or along y when {@code yNotX} (its memory variable b1, q1, profile pa1). Order 8: the differences
     * without memory variable inline, at most one from the scratch; else the pipeline.
     */
    private static void shearComponent(float[] s, float[] m, int si, int mi, float[] v, int o0, int st0, int c0,
                                       boolean b0, int q0, int qs0, int pa0, int pb0, int ps0, boolean yNotX, int o1,
                                       boolean b1, int q1, int pa1, float[] psi, float[] prof, float[] coef,
                                       int[] geo, Block g, int rows, int n, float[] t) {
        int h = geo[Layout.H];
        int sy = geo[Layout.SY];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int rl = ElasticVectorRows.rowLength(nx);
        int st1 = yNotX ? sy : 1;
        int c1 = yNotX ? h : 2 * h;
        if (h == 4 && !b0 && !b1) {
            ElasticVectorRows.shear4(s, m, si, mi, sy, n, rows, v, o0, st0, c0, v, o1, st1, c1, coef, t);
            return;
        }
        if (h == 4 && !(b0 && b1)) {
            if (b0) {
                deriv(v, o0, sy, st0, coef, c0, h, n, rows, t, 0, rl, true, psi, q0, qs0, prof, pa0, pb0, ps0, t);
                ElasticVectorRows.shear4s(s, m, si, mi, sy, n, rows, v, o1, st1, c1, coef, t, rl);
            } else {
                second(v, o1, yNotX, true, q1, pa1, psi, prof, coef, geo, g, rows, n, t, 0);
                ElasticVectorRows.shear4s(s, m, si, mi, sy, n, rows, v, o0, st0, c0, coef, t, rl);
            }
            return;
        }
        deriv(v, o0, sy, st0, coef, c0, h, n, rows, t, 0, rl, b0, psi, q0, qs0, prof, pa0, pb0, ps0, t);
        second(v, o1, yNotX, b1, q1, pa1, psi, prof, coef, geo, g, rows, n, t, block(rl, 1));
        ElasticVectorRows.shear(s, m, si, mi, sy, n, rows, t, rl);
    }

    /** The second difference of a shear stress (along x, or y when {@code yNotX}) into the scratch at {@code out}. */
    private static void second(float[] v, int o1, boolean yNotX, boolean band, int q1, int pa1, float[] psi,
                               float[] prof, float[] coef, int[] geo, Block g, int rows, int n, float[] t, int out) {
        int h = geo[Layout.H];
        int sy = geo[Layout.SY];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int rl = ElasticVectorRows.rowLength(nx);
        if (yNotX) {
            deriv(v, o1, sy, sy, coef, h, h, n, rows, t, out, rl, band, psi, q1, nx, prof, pa1, pa1 + ny, 1, t);
        } else {
            derivX(v, o1, sy, coef, 2 * h, h, n, rows, t, out, rl, band, psi, q1, g.wx, prof, pa1, pa1 + nx, t);
        }
    }
}
