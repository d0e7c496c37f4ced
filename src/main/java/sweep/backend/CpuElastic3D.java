package sweep.backend;

import static sweep.backend.ElasticRows.block;
import static sweep.backend.ElasticRows.clamp;
import static sweep.backend.ElasticRows.deriv;
import static sweep.backend.ElasticRows.derivX;

import sweep.kernels.Elastic3D;
import sweep.kernels.ElasticLayout;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 3-D elastic sub-steps of {@link Elastic3D} for the Java backend, built as
 * {@link CpuElastic2D} is: per cell the same float operations in the same order, vectorised across x, band tests
 * hoisted out of the cell loops. A plane z is cut into blocks of at most {@link ElasticRows#RB} rows y of one y-band
 * segment ([0, YBL), [YBL, YBHH), [YBHH, YBH), [YBH, NY)) and one x-band segment, so that all cells of a block have the
 * same memory variables; each block runs the loops of {@link ElasticRows}, a block narrower than a vector the portable
 * kernel. Bit-identical to {@link Elastic3D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class CpuElastic3D {
    private CpuElastic3D() {
    }

    /** Floats of scratch per thread the kernels need on a grid of computational width {@code nx}. */
    public static int scratchSize(int nx) {
        return ElasticRows.scratchSize(nx);
    }

    /** Same as {@link Elastic3D#velocity}; {@code t}: at least {@link #scratchSize} floats, one per thread. */
    public static void velocity(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1, float[] t) {
        sweep(v, s, b, psi, prof, coef, geo, z0, z1, y0, y1, x0, x1, t, true);
    }

    /** Same as {@link Elastic3D#stress}; {@code t}: at least {@link #scratchSize} floats, one per thread. */
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
        int vl = ElasticRows.S.length();
        int rb = ElasticRows.blockRows(c2 - c1);
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
                            Elastic3D.velocity(v, s, p, psi, prof, coef, geo, z, z + 1, yb, yn, xa, xe);
                        } else if (xe > xa) {
                            Elastic3D.stress(v, s, p, psi, prof, coef, geo, z, z + 1, yb, yn, xa, xe);
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
        int rl = ElasticRows.rowLength(nx);
        int b1 = block(rl, 1);
        int b2 = block(rl, 2);
        int cx = 2 * h;
        // vx: ∂x σxx (D+, x half band, slot 0), ∂y σxy (D−, y integer band, slot 0), ∂z σxz (D−, z integer, slot 0)
        if (h == 4 && !(g.xH | g.yI | g.zI)) {
            ElasticRows.velocity3x4(v, b, i, sy, n, rows, s, i, 1, cx, s, 3 * len + i - sy, sy, h, s,
                    4 * len + i - sz, sz, 0, coef, t);
        } else {
            derivX(s, i, sy, coef, cx, h, n, rows, t, 0, rl, g.xH, psi, g.qx, g.wx, prof, g.pxH, g.pxH + nx, t);
            deriv(s, 3 * len + i - sy, sy, sy, coef, h, h, n, rows, t, b1, rl, g.yI, psi, g.qy, nx, prof, g.pyI,
                    g.pyI + ny, 1, t);
            deriv(s, 4 * len + i - sz, sy, sz, coef, 0, h, n, rows, t, b2, rl, g.zI, psi, g.qz, nx, prof, g.pzI,
                    g.pzI + nz, 0, t);
            ElasticRows.velocity(v, b, i, sy, n, rows, true, t, rl);
        }
        // vy: ∂x σxy (D−, x integer, slot 1), ∂y σyy (D+, y half, slot 1), ∂z σyz (D−, z integer, slot 1)
        if (h == 4 && !(g.xI | g.yH | g.zI)) {
            ElasticRows.velocity3x4(v, b, len + i, sy, n, rows, s, 3 * len + i - 1, 1, cx, s, len + i, sy, h, s,
                    5 * len + i - sz, sz, 0, coef, t);
        } else {
            derivX(s, 3 * len + i - 1, sy, coef, cx, h, n, rows, t, 0, rl, g.xI, psi, g.qx + slx, g.wx, prof, g.pxI,
                    g.pxI + nx, t);
            deriv(s, len + i, sy, sy, coef, h, h, n, rows, t, b1, rl, g.yH, psi, g.qy + sly, nx, prof, g.pyH,
                    g.pyH + ny, 1, t);
            deriv(s, 5 * len + i - sz, sy, sz, coef, 0, h, n, rows, t, b2, rl, g.zI, psi, g.qz + slz, nx, prof, g.pzI,
                    g.pzI + nz, 0, t);
            ElasticRows.velocity(v, b, len + i, sy, n, rows, true, t, rl);
        }
        // vz: ∂x σxz (D−, x integer, slot 2), ∂y σyz (D−, y integer, slot 2), ∂z σzz (D+, z half, slot 2)
        if (h == 4 && !(g.xI | g.yI | g.zH)) {
            ElasticRows.velocity3x4(v, b, 2 * len + i, sy, n, rows, s, 4 * len + i - 1, 1, cx, s, 5 * len + i - sy,
                    sy, h, s, 2 * len + i, sz, 0, coef, t);
        } else {
            derivX(s, 4 * len + i - 1, sy, coef, cx, h, n, rows, t, 0, rl, g.xI, psi, g.qx + 2 * slx, g.wx, prof,
                    g.pxI, g.pxI + nx, t);
            deriv(s, 5 * len + i - sy, sy, sy, coef, h, h, n, rows, t, b1, rl, g.yI, psi, g.qy + 2 * sly, nx, prof,
                    g.pyI, g.pyI + ny, 1, t);
            deriv(s, 2 * len + i, sy, sz, coef, 0, h, n, rows, t, b2, rl, g.zH, psi, g.qz + 2 * slz, nx, prof, g.pzH,
                    g.pzH + nz, 0, t);
            ElasticRows.velocity(v, b, 2 * len + i, sy, n, rows, true, t, rl);
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
        int rl = ElasticRows.rowLength(nx);
        int b1 = block(rl, 1);
        int b2 = block(rl, 2);
        int cx = 2 * h;
        // normal strain rates exx, eyy, ezz (D−, integer bands, slot 3 of each axis); a loop with the three
        // differences and the three updates passes C2's inlining budget: always through the scratch
        derivX(v, i - 1, sy, coef, cx, h, n, rows, t, 0, rl, g.xI, psi, g.qx + 3 * slx, g.wx, prof, g.pxI,
                g.pxI + nx, t);
        deriv(v, len + i - sy, sy, sy, coef, h, h, n, rows, t, b1, rl, g.yI, psi, g.qy + 3 * sly, nx, prof, g.pyI,
                g.pyI + ny, 1, t);
        deriv(v, 2 * len + i - sz, sy, sz, coef, 0, h, n, rows, t, b2, rl, g.zI, psi, g.qz + 3 * slz, nx, prof,
                g.pzI, g.pzI + nz, 0, t);
        ElasticRows.normal3(s, m, i, sy, len, n, rows, t, rl);
        // σxy: ∂y vx (D+, y half, y slot 4) + ∂x vy (D+, x half, x slot 4)
        if (h == 4 && !(g.yH | g.xH)) {
            ElasticRows.shear4(s, m, 3 * len + i, 2 * len + i, sy, n, rows, v, i, sy, h, v, len + i, 1, cx, coef, t);
        } else {
            deriv(v, i, sy, sy, coef, h, h, n, rows, t, 0, rl, g.yH, psi, g.qy + 4 * sly, nx, prof, g.pyH, g.pyH + ny,
                    1, t);
            derivX(v, len + i, sy, coef, cx, h, n, rows, t, b1, rl, g.xH, psi, g.qx + 4 * slx, g.wx, prof, g.pxH,
                    g.pxH + nx, t);
            ElasticRows.shear(s, m, 3 * len + i, 2 * len + i, sy, n, rows, t, rl);
        }
        // σxz: ∂z vx (D+, z half, z slot 4) + ∂x vz (D+, x half, x slot 5)
        if (h == 4 && !(g.zH | g.xH)) {
            ElasticRows.shear4(s, m, 4 * len + i, 3 * len + i, sy, n, rows, v, i, sz, 0, v, 2 * len + i, 1, cx, coef,
                    t);
        } else {
            deriv(v, i, sy, sz, coef, 0, h, n, rows, t, 0, rl, g.zH, psi, g.qz + 4 * slz, nx, prof, g.pzH, g.pzH + nz,
                    0, t);
            derivX(v, 2 * len + i, sy, coef, cx, h, n, rows, t, b1, rl, g.xH, psi, g.qx + 5 * slx, g.wx, prof, g.pxH,
                    g.pxH + nx, t);
            ElasticRows.shear(s, m, 4 * len + i, 3 * len + i, sy, n, rows, t, rl);
        }
        // σyz: ∂z vy (D+, z half, z slot 5) + ∂y vz (D+, y half, y slot 5)
        if (h == 4 && !(g.zH | g.yH)) {
            ElasticRows.shear4(s, m, 5 * len + i, 4 * len + i, sy, n, rows, v, len + i, sz, 0, v, 2 * len + i, sy, h,
                    coef, t);
        } else {
            deriv(v, len + i, sy, sz, coef, 0, h, n, rows, t, 0, rl, g.zH, psi, g.qz + 5 * slz, nx, prof, g.pzH,
                    g.pzH + nz, 0, t);
            deriv(v, 2 * len + i, sy, sy, coef, h, h, n, rows, t, b1, rl, g.yH, psi, g.qy + 5 * sly, nx, prof, g.pyH,
                    g.pyH + ny, 1, t);
            ElasticRows.shear(s, m, 5 * len + i, 4 * len + i, sy, n, rows, t, rl);
        }
    }
}
