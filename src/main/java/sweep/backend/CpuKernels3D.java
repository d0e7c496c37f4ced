package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.kernels.Acoustic3D;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 3-D kernels of {@link Acoustic3D} for the Java backend: per cell exactly the same
 * float operations in the same order (no fused multiply-add), vectorised across x with the Vector API, PML band tests
 * hoisted per row (z, y) and per row segment (x), and the interior blocked along y so that the planes the stencil
 * reads stay in cache. Row tails shorter than a vector go to the portable kernels. Bit-identical to {@link Acoustic3D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class CpuKernels3D {
    private CpuKernels3D() {
    }

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    /** Rows (y) per cache block of the interior sweep; 0 or less: no blocking. Property {@code sweep.cpu.yblock}. */
    static final int Y_BLOCK = Integer.getInteger("sweep.cpu.yblock", 16);

    private static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    /** {@code un = (2u − un) + v2·s}. */
    private static void leap(float[] un, float[] v2, int i, FloatVector uc, FloatVector s) {
        uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s)).intoArray(un, i);
    }

    /** Same as {@link Acoustic3D#interior}; the box is swept in blocks of {@code sweep.cpu.yblock} rows along y. */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1) {
        int block = Y_BLOCK > 0 ? Y_BLOCK : Math.max(1, y1 - y0);
        for (int yb = y0; yb < y1; yb += block) {
            int ye = Math.min(y1, yb + block);
            for (int z = z0; z < z1; z++) {
                for (int y = yb; y < ye; y++) {
                    interiorRow(u, un, v2, coef, geo, z, y, x0, x1);
                }
            }
        }
    }

    private static void interiorRow(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z, int y,
                                    int x0, int x1) {
        int h = geo[Layout.H];
        if (h == 4) {
            interiorRow4(u, un, v2, coef, geo, z, y, x0, x1);
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int row = geo[Layout.OFF0] + z * sz + y * sy;
        int vl = S.length();
        int x = x0;
        for (; x + vl <= x1; x += vl) {
            int i = row + x;
            FloatVector uc = ld(u, i);
            FloatVector s = uc.mul(c00);
            for (int k = 1; k <= h; k++) {
                int oz = k * sz;
                int oy = k * sy;
                FloatVector tz = ld(u, i + oz).add(ld(u, i - oz)).mul(coef[k]);
                FloatVector ty = ld(u, i + oy).add(ld(u, i - oy)).mul(coef[cy + k]);
                FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]);
                s = s.add(tz.add(ty).add(tx));
            }
            leap(un, v2, i, uc, s);
        }
        if (x < x1) {
            Acoustic3D.interior(u, un, v2, coef, geo, z, z + 1, y, y + 1, x, x1);
        }
    }

    /** Order 8 (h = 4) interior row with the arm unrolled and the coefficients hoisted. */
    private static void interiorRow4(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z, int y,
                                     int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        float c00 = coef[Layout.c00(4)];
        float z1c = coef[1], z2c = coef[2], z3c = coef[3], z4c = coef[4];
        float y1c = coef[6], y2c = coef[7], y3c = coef[8], y4c = coef[9];
        float x1c = coef[11], x2c = coef[12], x3c = coef[13], x4c = coef[14];
        int row = geo[Layout.OFF0] + z * sz + y * sy;
        int vl = S.length();
        int x = x0;
        for (; x + vl <= x1; x += vl) {
            int i = row + x;
            FloatVector uc = ld(u, i);
            FloatVector s = uc.mul(c00);
            s = s.add(ld(u, i + sz).add(ld(u, i - sz)).mul(z1c).add(ld(u, i + sy).add(ld(u, i - sy)).mul(y1c))
                    .add(ld(u, i + 1).add(ld(u, i - 1)).mul(x1c)));
            s = s.add(ld(u, i + 2 * sz).add(ld(u, i - 2 * sz)).mul(z2c).add(ld(u, i + 2 * sy).add(ld(u, i - 2 * sy))
                    .mul(y2c)).add(ld(u, i + 2).add(ld(u, i - 2)).mul(x2c)));
            s = s.add(ld(u, i + 3 * sz).add(ld(u, i - 3 * sz)).mul(z3c).add(ld(u, i + 3 * sy).add(ld(u, i - 3 * sy))
                    .mul(y3c)).add(ld(u, i + 3).add(ld(u, i - 3)).mul(x3c)));
            s = s.add(ld(u, i + 4 * sz).add(ld(u, i - 4 * sz)).mul(z4c).add(ld(u, i + 4 * sy).add(ld(u, i - 4 * sy))
                    .mul(y4c)).add(ld(u, i + 4).add(ld(u, i - 4)).mul(x4c)));
            leap(un, v2, i, uc, s);
        }
        if (x < x1) {
            Acoustic3D.interior(u, un, v2, coef, geo, z, z + 1, y, y + 1, x, x1);
        }
    }

    /** Same as {@link Acoustic3D#psi}. */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int pay = 2 * nz;
        int pby = pay + ny;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + nx;
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
            for (int y = y0; y < y1; y++) {
                boolean yb = y < geo[Layout.YBL] || y >= geo[Layout.YBH];
                int row = off + z * sz + y * sy;
                if (zb) {
                    psiAxis(u, psi, coef, row, 0, sz, d1, prof[z], prof[nz + z], x0, x1, h, vl);
                }
                if (yb) {
                    psiAxis(u, psi, coef, row, len, sy, d1 + h, prof[pay + y], prof[pby + y], x0, x1, h, vl);
                }
                for (int seg = 0; seg < 2; seg++) {
                    int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                    int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                    int x = xa;
                    int dx = d1 + 2 * h;
                    int p = 2 * len;
                    for (; x + vl <= xe; x += vl) {
                        int i = row + x;
                        FloatVector d = FloatVector.zero(S);
                        for (int k = 1; k <= h; k++) {
                            d = d.add(ld(u, i + k).sub(ld(u, i - k)).mul(coef[dx + k - 1]));
                        }
                        ld(psi, p + i).mul(ld(prof, pax + x)).add(d.mul(ld(prof, pbx + x))).intoArray(psi, p + i);
                    }
                    for (; x < xe; x++) {
                        int i = row + x;
                        float d = 0.0f;
                        for (int k = 1; k <= h; k++) {
                            d += coef[dx + k - 1] * (u[i + k] - u[i - k]);
                        }
                        psi[p + i] = prof[pax + x] * psi[p + i] + prof[pbx + x] * d;
                    }
                }
            }
        }
    }

    /** psi update of one row for an axis (z or y) whose band holds the whole row: stride {@code st}, slot {@code p}. */
    private static void psiAxis(float[] u, float[] psi, float[] coef, int row, int p, int st, int dc, float a, float b,
                                int x0, int x1, int h, int vl) {
        int x = x0;
        for (; x + vl <= x1; x += vl) {
            int i = row + x;
            FloatVector d = FloatVector.zero(S);
            for (int k = 1; k <= h; k++) {
                d = d.add(ld(u, i + k * st).sub(ld(u, i - k * st)).mul(coef[dc + k - 1]));
            }
            ld(psi, p + i).mul(a).add(d.mul(b)).intoArray(psi, p + i);
        }
        for (; x < x1; x++) {
            int i = row + x;
            float d = 0.0f;
            for (int k = 1; k <= h; k++) {
                d += coef[dc + k - 1] * (u[i + k * st] - u[i - k * st]);
            }
            psi[p + i] = a * psi[p + i] + b * d;
        }
    }

    /** Same as {@link Acoustic3D#pml}. */
    public static void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                           float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1) {
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int a = x0;
        int b = Math.min(x1, Math.max(x0, xbl));
        int c = Math.max(b, Math.min(x1, xbh));
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, y, a, b, true);
                pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, y, b, c, false);
                pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, y, c, x1, true);
            }
        }
    }

    private static void pmlRow(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                               float[] coef, int[] geo, int z, int y, int xa, int xe, boolean xb) {
        if (xa >= xe) {
            return;
        }
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
        boolean yb = y < geo[Layout.YBL] || y >= geo[Layout.YBH];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int pay = 2 * nz;
        int pby = pay + ny;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + nx;
        float c0z = coef[0];
        float c0y = coef[cy];
        float c0x = coef[cx];
        float az = prof[z];
        float bz = prof[nz + z];
        float ay = prof[pay + y];
        float by = prof[pby + y];
        int row = geo[Layout.OFF0] + z * sz + y * sy;
        int vl = S.length();
        int x = xa;
        for (; x + vl <= xe; x += vl) {
            int i = row + x;
            FloatVector uc = ld(u, i);
            FloatVector tz = uc.mul(c0z);
            FloatVector ty = uc.mul(c0y);
            FloatVector tx = uc.mul(c0x);
            for (int k = 1; k <= h; k++) {
                tz = tz.add(ld(u, i + k * sz).add(ld(u, i - k * sz)).mul(coef[k]));
                ty = ty.add(ld(u, i + k * sy).add(ld(u, i - k * sy)).mul(coef[cy + k]));
                tx = tx.add(ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]));
            }
            if (zb) {
                for (int k = 1; k <= h; k++) {
                    tz = tz.add(ld(psi, i + k * sz).sub(ld(psi, i - k * sz)).mul(coef[d1 + k - 1]));
                }
                FloatVector ze = ld(zeta, i).mul(az).add(tz.mul(bz));
                ze.intoArray(zeta, i);
                tz = tz.add(ze);
            }
            if (yb) {
                int j = len + i;
                for (int k = 1; k <= h; k++) {
                    ty = ty.add(ld(psi, j + k * sy).sub(ld(psi, j - k * sy)).mul(coef[d1 + h + k - 1]));
                }
                FloatVector ze = ld(zeta, j).mul(ay).add(ty.mul(by));
                ze.intoArray(zeta, j);
                ty = ty.add(ze);
            }
            if (xb) {
                int j = 2 * len + i;
                for (int k = 1; k <= h; k++) {
                    tx = tx.add(ld(psi, j + k).sub(ld(psi, j - k)).mul(coef[d1 + 2 * h + k - 1]));
                }
                FloatVector ze = ld(zeta, j).mul(ld(prof, pax + x)).add(tx.mul(ld(prof, pbx + x)));
                ze.intoArray(zeta, j);
                tx = tx.add(ze);
            }
            leap(un, v2, i, uc, tz.add(ty).add(tx));
        }
        if (x < xe) {
            Acoustic3D.pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, y, y + 1, x, xe);
        }
    }
}
