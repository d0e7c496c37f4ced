package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.kernels.Acoustic2D;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 2-D kernels of {@link Acoustic2D} for the Java backend: the same arguments and, per
 * cell, exactly the same sequence of float operations (no fused multiply-add), vectorised across x with the Vector API
 * and with the PML band tests hoisted out of the cell loop (per row for z, per row segment for x). Row tails shorter
 * than a vector are delegated to the portable kernels. Results are bit-identical to {@link Acoustic2D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class CpuKernels2D {
    private CpuKernels2D() {
    }

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    /** Same as {@link Acoustic2D#interior}. */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            int x = x0;
            for (; x + vl <= x1; x += vl) {
                int i = off + z * sz + x;
                FloatVector uc = FloatVector.fromArray(S, u, i);
                FloatVector s = uc.mul(c00);
                for (int k = 1; k <= h; k++) {
                    int o = k * sz;
                    FloatVector tz = FloatVector.fromArray(S, u, i + o).add(FloatVector.fromArray(S, u, i - o)).mul(coef[k]);
                    FloatVector tx = FloatVector.fromArray(S, u, i + k).add(FloatVector.fromArray(S, u, i - k))
                            .mul(coef[cx + k]);
                    s = s.add(tz.add(tx));
                }
                leap(u, un, v2, i, uc, s);
            }
            if (x < x1) {
                Acoustic2D.interior(u, un, v2, coef, geo, z, z + 1, x, x1);
            }
        }
    }

    private static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    /** {@code un = (2u − un) + v2·s}. */
    private static void leap(float[] u, float[] un, float[] v2, int i, FloatVector uc, FloatVector s) {
        uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s)).intoArray(un, i);
    }

    /** Same as {@link Acoustic2D#psi}. */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        int vl = S.length();
        for (int z = z0; z < z1; z++) {
            int row = off + z * sz;
            if (z < zbl || z >= zbh) {
                float a = prof[z];
                float b = prof[nz + z];
                int x = x0;
                for (; x + vl <= x1; x += vl) {
                    int i = row + x;
                    FloatVector d = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        d = d.add(ld(u, i + k * sz).sub(ld(u, i - k * sz)).mul(coef[d1 + k - 1]));
                    }
                    ld(psi, i).mul(a).add(d.mul(b)).intoArray(psi, i);
                }
                if (x < x1) {
                    psiZ(u, psi, prof, coef, geo, z, x, x1);
                }
            }
            // x band: the segments [x0, xbl) and [xbh, x1)
            for (int seg = 0; seg < 2; seg++) {
                int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                int x = xa;
                for (; x + vl <= xe; x += vl) {
                    int i = row + x;
                    FloatVector d = FloatVector.zero(S);
                    for (int k = 1; k <= h; k++) {
                        d = d.add(ld(u, i + k).sub(ld(u, i - k)).mul(coef[dx + k - 1]));
                    }
                    ld(psi, len + i).mul(ld(prof, pax + x)).add(d.mul(ld(prof, pbx + x))).intoArray(psi, len + i);
                }
                for (; x < xe; x++) {
                    int i = row + x;
                    float d = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        d += coef[dx + k - 1] * (u[i + k] - u[i - k]);
                    }
                    psi[len + i] = prof[pax + x] * psi[len + i] + prof[pbx + x] * d;
                }
            }
        }
    }

    /** Scalar z-band psi update of row z over [xa, xe) (tail of the vector loop). */
    private static void psiZ(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z, int xa, int xe) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int nz = geo[Layout.NZ];
        int d1 = Layout.d1(h);
        int row = geo[Layout.OFF0] + z * sz;
        for (int x = xa; x < xe; x++) {
            int i = row + x;
            float d = 0.0f;
            for (int k = 1; k <= h; k++) {
                d += coef[d1 + k - 1] * (u[i + k * sz] - u[i - k * sz]);
            }
            psi[i] = prof[z] * psi[i] + prof[nz + z] * d;
        }
    }

    /** Same as {@link Acoustic2D#pml}. */
    public static void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                           float[] coef, int[] geo, int z0, int z1, int x0, int x1) {
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        for (int z = z0; z < z1; z++) {
            // segments of constant x-band membership: [x0, xbl), [xbl, xbh), [xbh, x1)
            int a = x0;
            int b = Math.min(x1, Math.max(x0, xbl));
            int c = Math.max(b, Math.min(x1, xbh));
            // one call site: C2 inlines the Vector API calls of one copy of the row body only
            for (int seg = 0; seg < 3; seg++) {
                pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, seg == 0 ? a : seg == 1 ? b : c,
                        seg == 0 ? b : seg == 1 ? c : x1, seg != 1);
            }
        }
    }

    private static void pmlRow(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                               float[] coef, int[] geo, int z, int xa, int xe, boolean xb) {
        if (xa >= xe) {
            return;
        }
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
        int cx = 2 * (h + 1);
        int d1 = Layout.d1(h);
        int dx = d1 + 2 * h;
        int pax = 2 * nz + 2 * ny;
        int pbx = pax + geo[Layout.NX];
        float c0z = coef[0];
        float c0x = coef[cx];
        float az = prof[z];
        float bz = prof[nz + z];
        int vl = S.length();
        int x = xa;
        for (; x + vl <= xe; x += vl) {
            int i = off + z * sz + x;
            FloatVector uc = ld(u, i);
            FloatVector tz = uc.mul(c0z);
            FloatVector tx = uc.mul(c0x);
            for (int k = 1; k <= h; k++) {
                tz = tz.add(ld(u, i + k * sz).add(ld(u, i - k * sz)).mul(coef[k]));
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
            if (xb) {
                int j = len + i;
                for (int k = 1; k <= h; k++) {
                    tx = tx.add(ld(psi, j + k).sub(ld(psi, j - k)).mul(coef[dx + k - 1]));
                }
                FloatVector ze = ld(zeta, j).mul(ld(prof, pax + x)).add(tx.mul(ld(prof, pbx + x)));
                ze.intoArray(zeta, j);
                tx = tx.add(ze);
            }
            leap(u, un, v2, i, uc, tz.add(tx));
        }
        if (x < xe) {
            Acoustic2D.pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, x, xe);
        }
    }
}
