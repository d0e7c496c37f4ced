package sweep.acoustic;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the 3-D kernels of {@link AcousticKernels3D} for the Java backend: per cell exactly the
 * same float operations in the same order (no fused multiply-add), vectorised across x with the Vector API, PML band
 * tests hoisted per row (z, y) and per row segment (x), and the interior blocked along y so that the planes the stencil
 * reads stay in cache. Row tails shorter than a vector go to the portable kernels. Bit-identical to
 * {@link AcousticKernels3D}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
public final class AcousticVectorKernels3D {
    private AcousticVectorKernels3D() {
    }

    private static final VectorSpecies<Float> S = CpuSpecies.S;

    /**
     * Rows (y) per cache block of {@link #interior}; 0 or less: no blocking (property {@code sweep.cpu.yblock}, default
     * 0: whole planes; docs/performance.md). The fused row pass ({@link #innerRows}) is not blocked.
     */
    static final int Y_BLOCK = Integer.getInteger("sweep.cpu.yblock", 0);

    private static FloatVector ld(float[] a, int i) {
        return FloatVector.fromArray(S, a, i);
    }

    /** {@code un = (2u − un) + v2·s}. */
    private static void leap(float[] un, float[] v2, int i, FloatVector uc, FloatVector s) {
        uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s)).intoArray(un, i);
    }

    /** Same as {@link AcousticKernels3D#interior}, with a scratch row of its own (see {@link #scratchSize}). */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1) {
        interior(u, un, v2, coef, geo, z0, z1, y0, y1, x0, x1, new float[scratchSize(geo)]);
    }

    /**
     * Same as {@link AcousticKernels3D#interior}, given the calling thread's {@code scratch} of at least
     * {@link #scratchSize} floats; optionally swept in blocks of {@code sweep.cpu.yblock} rows along y.
     */
    public static void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1, float[] scratch) {
        int block = Y_BLOCK > 0 ? Y_BLOCK : Math.max(1, y1 - y0);
        boolean rows = geo[Layout.H] == 4;
        for (int yb = y0; yb < y1; yb += block) {
            int ye = Math.min(y1, yb + block);
            for (int z = z0; z < z1; z++) {
                for (int y = yb; y < ye; y++) {
                    if (rows) {
                        interiorRow4(u, un, v2, coef, geo, z, y, x0, x1, scratch);
                    } else {
                        interiorRow(u, un, v2, coef, geo, z, y, x0, x1);
                    }
                }
            }
        }
    }

    /** Row segment [xa, xe) of (z, y) of {@link #interior} through the h = 4 row passes. */
    private static void interiorRow4(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z, int y, int xa,
                                     int xe, float[] t) {
        int n = xe - xa;
        if (n <= 0) {
            return;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int i0 = geo[Layout.OFF0] + z * sz + y * sy + xa;
        AcousticVectorRows3D.interiorFirst(u, t, coef, i0, n, sz, sy);
        if (AcousticVectorRows3D.exact(n)) {
            AcousticVectorRows3D.interiorLeap(u, un, v2, t, coef, i0, n, sz, sy, un, i0);
        } else {
            int w = AcousticVectorRows3D.whole(n);
            AcousticVectorRows3D.interiorLeap(u, un, v2, t, coef, i0, n, sz, sy, t, w);
            AcousticVectorRows3D.copy(t, w, un, i0, n);
        }
    }

    /**
     * Update of a PML row segment [xa, xe) of (z, y) through the h = 4 row passes: the three axis sums, the CPML terms
     * of the band axes (zb, yb, xb), the leapfrog. False when the x profiles of the segment's last vector would run
     * past {@code prof} (then nothing is done and the caller takes another path).
     */
    private static boolean pmlRow4(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                   float[] coef, int[] geo, int z, int y, int xa, int xe, boolean zb, boolean yb,
                                   boolean xb, float[] t) {
        int n = xe - xa;
        if (n <= 0) {
            return true;
        }
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int w = AcousticVectorRows3D.whole(n);
        int pax = 2 * nz + 2 * ny + xa;
        int pbx = pax + nx;
        if (xb && pbx + w > prof.length) {
            return false;
        }
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int i0 = geo[Layout.OFF0] + z * sz + y * sy + xa;
        // psi and zeta of each band axis at the auxiliary index of cell i0
        int jz = zb ? Layout.auxShift(geo, 0, z, y, xa) + i0 : 0;
        int jy = yb ? Layout.auxShift(geo, 1, z, y, xa) + i0 : 0;
        int jx = xb ? Layout.auxShift(geo, 2, z, y, xa) + i0 : 0;
        boolean ex = AcousticVectorRows3D.exact(n);
        int spare = 3 * w;
        int bands = (zb ? 1 : 0) + (yb ? 1 : 0) + (xb ? 1 : 0);
        if (bands == 1) {
            // one band axis: its whole term in one pass, then the other two axes and the leapfrog in a second
            if (zb) {
                AcousticVectorRows3D.axisBand(u, psi, zeta, jz, t, 0, coef, 0, AcousticVectorRows3D.DZ, sz, prof[z],
                        prof[nz + z], i0, n, ex ? zeta : t, ex ? jz : spare);
                if (!ex) {
                    AcousticVectorRows3D.copy(t, spare, zeta, jz, n);
                }
                AcousticVectorRows3D.leapOne(u, un, v2, t, 0, coef, AcousticVectorRows3D.CY, sy,
                        AcousticVectorRows3D.CX, 1, 0, i0, n,
                        ex ? un : t, ex ? i0 : spare);
            } else if (yb) {
                int pay = 2 * nz + y;
                AcousticVectorRows3D.axisBand(u, psi, zeta, jy, t, 0, coef, AcousticVectorRows3D.CY,
                        AcousticVectorRows3D.DY, sy, prof[pay], prof[pay + ny], i0, n, ex ? zeta : t, ex ? jy : spare);
                if (!ex) {
                    AcousticVectorRows3D.copy(t, spare, zeta, jy, n);
                }
                AcousticVectorRows3D.leapOne(u, un, v2, t, 0, coef, 0, sz, AcousticVectorRows3D.CX, 1, 1, i0, n,
                        ex ? un : t, ex ? i0 : spare);
            } else {
                AcousticVectorRows3D.axisBandX(u, psi, zeta, jx, t, 0, coef, prof, pax, pbx, i0, n,
                        ex ? zeta : t, ex ? jx : spare);
                if (!ex) {
                    AcousticVectorRows3D.copy(t, spare, zeta, jx, n);
                }
                AcousticVectorRows3D.leapOne(u, un, v2, t, 0, coef, 0, sz, AcousticVectorRows3D.CY, sy, 2, i0, n,
                        ex ? un : t, ex ? i0 : spare);
            }
            if (!ex) {
                AcousticVectorRows3D.copy(t, spare, un, i0, n);
            }
            return true;
        }
        AcousticVectorRows3D.second(u, t, 0, coef, 0, i0, n, sz);
        AcousticVectorRows3D.second(u, t, w, coef, AcousticVectorRows3D.CY, i0, n, sy);
        AcousticVectorRows3D.second(u, t, 2 * w, coef, AcousticVectorRows3D.CX, i0, n, 1);
        if (zb) {
            AcousticVectorRows3D.band(psi, zeta, jz, t, 0, coef, AcousticVectorRows3D.DZ, sz, prof[z], prof[nz + z], n,
                    ex ? zeta : t, ex ? jz : spare);
            if (!ex) {
                AcousticVectorRows3D.copy(t, spare, zeta, jz, n);
            }
        }
        if (yb) {
            int pay = 2 * nz + y;
            AcousticVectorRows3D.band(psi, zeta, jy, t, w, coef, AcousticVectorRows3D.DY, sy, prof[pay], prof[pay + ny],
                    n, ex ? zeta : t, ex ? jy : spare);
            if (!ex) {
                AcousticVectorRows3D.copy(t, spare, zeta, jy, n);
            }
        }
        if (xb) {
            AcousticVectorRows3D.bandX(psi, zeta, jx, t, 2 * w, coef, prof, pax, pbx, n,
                    ex ? zeta : t, ex ? jx : spare);
            if (!ex) {
                AcousticVectorRows3D.copy(t, spare, zeta, jx, n);
            }
        }
        AcousticVectorRows3D.finish(u, un, v2, t, w, i0, n, ex ? un : t, ex ? i0 : spare);
        if (!ex) {
            AcousticVectorRows3D.copy(t, spare, un, i0, n);
        }
        return true;
    }

    /**
     * x-axis psi of a row segment [xa, xe) of (z, y) through the h = 4 row pass; false (nothing done) when the x
     * profiles of the last vector would run past {@code prof}.
     */
    private static boolean psiRowX4(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z, int y, int xa,
                                    int xe, float[] t) {
        int n = xe - xa;
        if (n <= 0) {
            return true;
        }
        int w = AcousticVectorRows3D.whole(n);
        int pax = 2 * geo[Layout.NZ] + 2 * geo[Layout.NY] + xa;
        int pbx = pax + geo[Layout.NX];
        if (pbx + w > prof.length) {
            return false;
        }
        int i0 = geo[Layout.OFF0] + z * geo[Layout.SZ] + y * geo[Layout.SY] + xa;
        int p = Layout.auxShift(geo, 2, z, y, xa) + i0;
        if (AcousticVectorRows3D.exact(n)) {
            AcousticVectorRows3D.psiRowX(u, psi, p, coef, prof, pax, pbx, i0, n, psi, p);
        } else {
            AcousticVectorRows3D.psiRowX(u, psi, p, coef, prof, pax, pbx, i0, n, t, 0);
            AcousticVectorRows3D.copy(t, 0, psi, p, n);
        }
        return true;
    }

    /** psi of a row [x0, x1) for an axis with row-constant profile (a, b), stride st, auxiliary index p + i0, h = 4. */
    private static void psiRow4(float[] u, float[] psi, float[] coef, int db, int st, float a, float b, int i0, int p,
                                int n, float[] t) {
        if (n <= 0) {
            return;
        }
        if (AcousticVectorRows3D.exact(n)) {
            AcousticVectorRows3D.psiRow(u, psi, p + i0, coef, db, st, a, b, i0, n, psi, p + i0);
        } else {
            AcousticVectorRows3D.psiRow(u, psi, p + i0, coef, db, st, a, b, i0, n, t, 0);
            AcousticVectorRows3D.copy(t, 0, psi, p + i0, n);
        }
    }

    /**
     * Same as {@link AcousticKernels3D#bornInterior}: per row, whole vectors from x0, the tail shorter than a vector
     * through the portable kernel (each cell reads only its own un and uns, so the vectors may write in place).
     * {@code scratch}: at least x1 − x0 floats, one per thread.
     */
    public static void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                    float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1,
                                    float[] scratch) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int cy = h + 1;
        int cx = 2 * (h + 1);
        float c00 = coef[Layout.c00(h)];
        int vl = S.length();
        int full = x0 + ((x1 - x0) / vl) * vl;
        if (h == 4) {
            bornInterior8(u, un, us, uns, v2, dv2, coef, geo, z0, z1, y0, y1, x0, full, scratch);
        } else {
            for (int z = z0; z < z1; z++) {
                for (int y = y0; y < y1; y++) {
                    int row = geo[Layout.OFF0] + z * sz + y * sy;
                    for (int x = x0; x < full; x += vl) {
                        int i = row + x;
                        FloatVector uc = ld(u, i);
                        FloatVector sc = ld(us, i);
                        FloatVector s = uc.mul(c00);
                        FloatVector ss = sc.mul(c00);
                        for (int k = 1; k <= h; k++) {
                            int oz = k * sz;
                            int oy = k * sy;
                            float cz = coef[k];
                            float cyk = coef[cy + k];
                            float cxk = coef[cx + k];
                            FloatVector tz = ld(u, i + oz).add(ld(u, i - oz)).mul(cz);
                            FloatVector ty = ld(u, i + oy).add(ld(u, i - oy)).mul(cyk);
                            FloatVector tx = ld(u, i + k).add(ld(u, i - k)).mul(cxk);
                            s = s.add(tz.add(ty).add(tx));
                            FloatVector tzs = ld(us, i + oz).add(ld(us, i - oz)).mul(cz);
                            FloatVector tys = ld(us, i + oy).add(ld(us, i - oy)).mul(cyk);
                            FloatVector txs = ld(us, i + k).add(ld(us, i - k)).mul(cxk);
                            ss = ss.add(tzs.add(tys).add(txs));
                        }
                        FloatVector vv = ld(v2, i);
                        uc.mul(2.0f).sub(ld(un, i)).add(vv.mul(s)).intoArray(un, i);
                        sc.mul(2.0f).sub(ld(uns, i)).add(vv.mul(ss)).add(ld(dv2, i).mul(s)).intoArray(uns, i);
                    }
                }
            }
        }
        if (full < x1) {
            AcousticKernels3D.bornInterior(u, un, us, uns, v2, dv2, coef, geo, z0, z1, y0, y1, full, x1);
        }
    }

    /**
     * The whole vectors [x0, full) of every row of {@link #bornInterior} at order 8, as the 2-D kernels' order-8 Born
     * interior: per row the background, which parks its stencil sums in a row of scratch, then the scattered field,
     * which reads them for its secondary source; the same operations in the same order as the general loop.
     */
    private static void bornInterior8(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                      float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int full,
                                      float[] t) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                int i0 = geo[Layout.OFF0] + z * sz + y * sy + x0;
                int i1 = i0 + full - x0;
                bornRow8(u, un, v2, null, t, coef, sz, sy, i0, i1);
                bornRow8(us, uns, v2, dv2, t, coef, sz, sy, i0, i1);
            }
        }
    }

    /**
     * One field of {@link #bornInterior8} on the cells [i0, i1) of a row: the background ({@code dv2} null), its
     * stencil sums into t from 0, or the scattered field, plus dv2 times the background's sums in t. The loop over k
     * is written out and the weights broadcast once (the product by a broadcast weight is the product by the weight);
     * the loop runs over the cell index and every index is i plus or minus one loop invariant, and the loads call
     * {@code FloatVector.fromArray} directly (docs/equations.md, fast CPU kernels).
     */
    private static void bornRow8(float[] u, float[] un, float[] v2, float[] dv2, float[] t, float[] coef, int sz,
                                 int sy, int i0, int i1) {
        FloatVector w0 = FloatVector.broadcast(S, coef[Layout.c00(4)]);
        FloatVector z1 = FloatVector.broadcast(S, coef[1]);
        FloatVector z2 = FloatVector.broadcast(S, coef[2]);
        FloatVector z3 = FloatVector.broadcast(S, coef[3]);
        FloatVector z4 = FloatVector.broadcast(S, coef[4]);
        FloatVector y1 = FloatVector.broadcast(S, coef[6]);
        FloatVector y2 = FloatVector.broadcast(S, coef[7]);
        FloatVector y3 = FloatVector.broadcast(S, coef[8]);
        FloatVector y4 = FloatVector.broadcast(S, coef[9]);
        FloatVector x1 = FloatVector.broadcast(S, coef[11]);
        FloatVector x2 = FloatVector.broadcast(S, coef[12]);
        FloatVector x3 = FloatVector.broadcast(S, coef[13]);
        FloatVector x4 = FloatVector.broadcast(S, coef[14]);
        FloatVector two = FloatVector.broadcast(S, 2.0f);
        boolean background = dv2 == null;
        int z2o = 2 * sz;
        int z3o = 3 * sz;
        int z4o = 4 * sz;
        int y2o = 2 * sy;
        int y3o = 3 * sy;
        int y4o = 4 * sy;
        int vl = S.length();
        for (int i = i0; i < i1; i += vl) {
            FloatVector c = FloatVector.fromArray(S, u, i);
            FloatVector s = c.mul(w0);
            s = s.add(FloatVector.fromArray(S, u, i + sz).add(FloatVector.fromArray(S, u, i - sz)).mul(z1)
                    .add(FloatVector.fromArray(S, u, i + sy).add(FloatVector.fromArray(S, u, i - sy)).mul(y1))
                    .add(FloatVector.fromArray(S, u, i + 1).add(FloatVector.fromArray(S, u, i - 1)).mul(x1)));
            s = s.add(FloatVector.fromArray(S, u, i + z2o).add(FloatVector.fromArray(S, u, i - z2o)).mul(z2)
                    .add(FloatVector.fromArray(S, u, i + y2o).add(FloatVector.fromArray(S, u, i - y2o)).mul(y2))
                    .add(FloatVector.fromArray(S, u, i + 2).add(FloatVector.fromArray(S, u, i - 2)).mul(x2)));
            s = s.add(FloatVector.fromArray(S, u, i + z3o).add(FloatVector.fromArray(S, u, i - z3o)).mul(z3)
                    .add(FloatVector.fromArray(S, u, i + y3o).add(FloatVector.fromArray(S, u, i - y3o)).mul(y3))
                    .add(FloatVector.fromArray(S, u, i + 3).add(FloatVector.fromArray(S, u, i - 3)).mul(x3)));
            s = s.add(FloatVector.fromArray(S, u, i + z4o).add(FloatVector.fromArray(S, u, i - z4o)).mul(z4)
                    .add(FloatVector.fromArray(S, u, i + y4o).add(FloatVector.fromArray(S, u, i - y4o)).mul(y4))
                    .add(FloatVector.fromArray(S, u, i + 4).add(FloatVector.fromArray(S, u, i - 4)).mul(x4)));
            FloatVector next = c.mul(two).sub(FloatVector.fromArray(S, un, i)).add(FloatVector.fromArray(S, v2, i)
                    .mul(s));
            if (background) {
                next.intoArray(un, i);
                s.intoArray(t, i - i0);
            } else {
                next.add(FloatVector.fromArray(S, dv2, i).mul(FloatVector.fromArray(S, t, i - i0))).intoArray(un, i);
            }
        }
    }

    private static void interiorRow(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z, int y,
                                    int x0, int x1) {
        int h = geo[Layout.H];
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
            AcousticKernels3D.interior(u, un, v2, coef, geo, z, z + 1, y, y + 1, x, x1);
        }
    }

    /**
     * {@link AcousticKernels3D#psi} followed by {@link AcousticKernels3D#pml} and {@link AcousticKernels3D#interior}
     * over whole rows [x0, x1) of a box whose planes z lie outside the z bands, plane by plane. Rows outside the y
     * bands: per row, the x-band segment on the low side (its psi, then its update), the interior segment, then the
     * x-band segment on the high side. Rows inside a y band (if the box has any): the psi of all of the plane's y-band
     * rows first, then their updates around the interior rows. Outside the z bands the psi a cell's update reads lies
     * in the same plane (y axis) or row (x axis), so each cell sees the operations of the separate passes in the same
     * order (same bits), while the plane's memory is streamed once and its y-band psi rows stay in cache. The psi pass
     * must then skip these cells. {@code scratch} as for {@link #pml}.
     */
    public static void innerRows(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                 float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1,
                                 float[] scratch) {
        int ylo = Math.min(y1, Math.max(y0, geo[Layout.YBL]));
        int yhi = Math.max(ylo, Math.min(y1, geo[Layout.YBH]));
        if (ylo == y0 && yhi == y1) {
            innerPlanes(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, y0, y1, x0, x1, scratch);
            return;
        }
        for (int z = z0; z < z1; z++) {
            if (y0 < ylo) {
                psi(u, psi, prof, coef, geo, z, z + 1, y0, ylo, x0, x1, scratch);
            }
            if (yhi < y1) {
                psi(u, psi, prof, coef, geo, z, z + 1, yhi, y1, x0, x1, scratch);
            }
            if (y0 < ylo) {
                pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, y0, ylo, x0, x1, scratch);
            }
            if (ylo < yhi) {
                innerPlanes(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, ylo, yhi, x0, x1, scratch);
            }
            if (yhi < y1) {
                pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, yhi, y1, x0, x1, scratch);
            }
        }
    }

    /** {@link #innerRows} over rows that all lie outside the y bands. */
    private static void innerPlanes(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                    float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1,
                                    float[] scratch) {
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int a = x0;
        int b = Math.min(x1, Math.max(x0, xbl));
        int c = Math.max(b, Math.min(x1, xbh));
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        if (geo[Layout.H] == 4) {
            innerRows4(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, y0, y1, a, b, c, x1, scratch);
            return;
        }
        int ahead = TOUCH_AHEAD;
        float acc = 0f;
        for (int z = z0; z < z1; z++) {
            for (int y = y0; y < y1; y++) {
                if (ahead > 0) {
                    acc += touchAhead(psi, zeta, geo, z, y, z1, y0, y1, ahead, a, b, c, x1);
                }
                bandRowX(u, un, v2, psi, zeta, prof, coef, geo, z, y, a, b, scratch);
                if (b < c) {
                    interiorRow(u, un, v2, coef, geo, z, y, b, c);
                }
                bandRowX(u, un, v2, psi, zeta, prof, coef, geo, z, y, c, x1, scratch);
            }
        }
        sink = acc;
    }

    /**
     * {@link #innerRows} at h = 4, plane by plane: the two x-band segments (psi, then update; in column passes when
     * one to four vectors wide), then the interior rows.
     */
    private static void innerRows4(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                   float[] coef, int[] geo, int z0, int z1, int y0, int y1, int a, int b, int c,
                                   int x1, float[] t) {
        for (int z = z0; z < z1; z++) {
            for (int seg = 0; seg < 2; seg++) {
                int xa = seg == 0 ? a : c;
                int xe = seg == 0 ? b : x1;
                if (xe <= xa) {
                    continue;
                }
                if (columns(xe - xa)) {
                    for (int y = y0; y < y1; y += COL_ROWS) {
                        int yr = Math.min(y1, y + COL_ROWS);
                        psiXCols4(u, psi, prof, coef, geo, z, y, yr, xa, xe, t);
                        pmlCols4(u, un, v2, psi, zeta, prof, coef, geo, z, y, yr, xa, xe, false, false, true, t);
                    }
                } else {
                    for (int y = y0; y < y1; y++) {
                        xBandRow4(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, t);
                    }
                }
            }
            for (int y = y0; y < y1; y++) {
                interiorRow4(u, un, v2, coef, geo, z, y, b, c, t);
            }
        }
    }

    /** psi then update of an x-band-only row segment [xa, xe) through the h = 4 row passes (see {@link #innerRows}). */
    private static void xBandRow4(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                  float[] coef, int[] geo, int z, int y, int xa, int xe, float[] t) {
        if (xe <= xa) {
            return;
        }
        if (!psiRowX4(u, psi, prof, coef, geo, z, y, xa, xe, t)
                || !pmlRow4(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, false, false, true, t)) {
            AcousticKernels3D.psi(u, psi, prof, coef, geo, z, z + 1, y, y + 1, xa, xe);
            AcousticKernels3D.pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, y, y + 1, xa, xe);
        }
    }

    /** Rows ahead whose x-band psi/zeta lines {@link #innerRows} touches early (property {@code sweep.cpu.touch}). */
    static final int TOUCH_AHEAD = Integer.getInteger("sweep.cpu.touch", 2);
    /** Keeps the touched values alive (never read). */
    static float sink;

    /**
     * Reads one float of each cache line that the x-band segments [a, b) and [c, x1) of the row {@code ahead} rows
     * after (z, y) in a box [.., z1) × [y0, y1) will use in psi and zeta (their x slot; zeta null: psi only),
     * so that those lines, which no hardware stream brings in, arrive together with this row's misses instead of
     * stalling the later row on their own. Returns their sum, to be kept in {@link #sink}.
     */
    private static float touchAhead(float[] psi, float[] zeta, int[] geo, int z, int y, int z1, int y0, int y1,
                                    int ahead, int a, int b, int c, int x1) {
        int ax = Layout.aux(2);
        int r = CpuKernels.rowAhead(geo[ax], geo[ax + 2], geo[ax + 3], z, y, ahead, y0, y1, z1);
        if (r < 0) {
            return 0f;
        }
        return CpuKernels.touchLines(psi, zeta, r + a, b - a)
                + CpuKernels.touchLines(psi, zeta, r + geo[ax + 1] - geo[ax] + c, x1 - c);
    }

    /** psi then update of an x-band-only row segment [xa, xe) (see {@link #innerRows}). */
    private static void bandRowX(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                 float[] coef, int[] geo, int z, int y, int xa, int xe, float[] t) {
        int n = xe - xa;
        if (n <= 0) {
            return;
        }
        int vl = S.length();
        if (n < vl) {
            AcousticKernels3D.psi(u, psi, prof, coef, geo, z, z + 1, y, y + 1, xa, xe);
            AcousticKernels3D.pml(u, un, v2, psi, zeta, prof, coef, geo, z, z + 1, y, y + 1, xa, xe);
            return;
        }
        int h = geo[Layout.H];
        int p = Layout.auxShift(geo, 2, z, y, xa);
        int pax = 2 * geo[Layout.NZ] + 2 * geo[Layout.NY] + xa;
        int pbx = pax + geo[Layout.NX];
        int dx = Layout.d1(h) + 2 * h;
        int i0 = geo[Layout.OFF0] + z * geo[Layout.SZ] + y * geo[Layout.SY] + xa;
        int last = n - vl;
        psiX(u, psi, prof, coef, h, dx, p, i0 + last, pax + last, pbx + last, t, 0);
        for (int j = 0; j < last; j += vl) {
            psiX(u, psi, prof, coef, h, dx, p, i0 + j, pax + j, pbx + j, psi, p + i0 + j);
        }
        ld(t, 0).intoArray(psi, p + i0 + last);
        pmlRowX(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, t);
    }

    /**
     * One vector of the x-axis psi update at cell {@code i} (auxiliary index {@code p + i}); the result goes to
     * {@code dst[o]}.
     */
    private static void psiX(float[] u, float[] psi, float[] prof, float[] coef, int h, int dx, int p, int i, int pa,
                             int pb, float[] dst, int o) {
        FloatVector d = FloatVector.zero(S);
        for (int k = 1; k <= h; k++) {
            d = d.add(ld(u, i + k).sub(ld(u, i - k)).mul(coef[dx + k - 1]));
        }
        ld(psi, p + i).mul(ld(prof, pa)).add(d.mul(ld(prof, pb))).intoArray(dst, o);
    }

    /** Same as {@link AcousticKernels3D#psi}. */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int y0, int y1, int x0, int x1) {
        psi(u, psi, prof, coef, geo, z0, z1, y0, y1, x0, x1, new float[scratchSize(geo)]);
    }

    /**
     * Same as {@link AcousticKernels3D#psi}, given the calling thread's {@code scratch} of {@link #scratchSize} floats.
     */
    public static void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, int y0, int y1, int x0, int x1, float[] scratch) {
        if (geo[Layout.H] == 4) {
            psi4(u, psi, prof, coef, geo, z0, z1, y0, y1, x0, x1, scratch);
            return;
        }
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
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
                    psiAxis(u, psi, coef, row, Layout.auxShift(geo, 0, z, y, 0), sz, d1, prof[z], prof[nz + z], x0, x1,
                            h, vl);
                }
                if (yb) {
                    psiAxis(u, psi, coef, row, Layout.auxShift(geo, 1, z, y, 0), sy, d1 + h, prof[pay + y],
                            prof[pby + y], x0, x1, h, vl);
                }
                for (int seg = 0; seg < 2; seg++) {
                    int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                    int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                    int x = xa;
                    int dx = d1 + 2 * h;
                    int p = Layout.auxShift(geo, 2, z, y, xa);
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

    /** {@link #psi} through the h = 4 row passes. */
    private static void psi4(float[] u, float[] psi, float[] prof, float[] coef, int[] geo,
                             int z0, int z1, int y0, int y1, int x0, int x1, float[] t) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int n = x1 - x0;
        for (int z = z0; z < z1; z++) {
            boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
            for (int y = y0; y < y1; y++) {
                boolean yb = y < geo[Layout.YBL] || y >= geo[Layout.YBH];
                int i0 = off + z * sz + y * sy + x0;
                if (zb) {
                    psiRow4(u, psi, coef, AcousticVectorRows3D.DZ, sz, prof[z], prof[nz + z], i0,
                            Layout.auxShift(geo, 0, z, y, 0), n, t);
                }
                if (yb) {
                    psiRow4(u, psi, coef, AcousticVectorRows3D.DY, sy, prof[2 * nz + y], prof[2 * nz + ny + y], i0,
                            Layout.auxShift(geo, 1, z, y, 0), n, t);
                }
                for (int seg = 0; seg < 2; seg++) {
                    int xa = seg == 0 ? x0 : Math.max(x0, xbh);
                    int xe = seg == 0 ? Math.min(x1, xbl) : x1;
                    if (xa < xe && columns(xe - xa)) {
                        if ((y - y0) % COL_ROWS == 0) {
                            psiXCols4(u, psi, prof, coef, geo, z, y, Math.min(y1, y + COL_ROWS), xa, xe, t);
                        }
                        continue;
                    }
                    if (xa < xe && !psiRowX4(u, psi, prof, coef, geo, z, y, xa, xe, t)) {
                        psiXCells(u, psi, prof, coef, geo, z, y, xa, xe);
                    }
                }
            }
        }
    }

    /** The x-axis psi of the cells [xa, xe) of row (z, y), one by one (the other axes untouched). */
    private static void psiXCells(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z, int y, int xa,
                                  int xe) {
        int h = geo[Layout.H];
        int dx = Layout.d1(h) + 2 * h;
        int p = Layout.auxShift(geo, 2, z, y, xa);
        int pax = 2 * geo[Layout.NZ] + 2 * geo[Layout.NY];
        int pbx = pax + geo[Layout.NX];
        int row = geo[Layout.OFF0] + z * geo[Layout.SZ] + y * geo[Layout.SY];
        for (int x = xa; x < xe; x++) {
            int i = row + x;
            float d = 0.0f;
            for (int k = 1; k <= h; k++) {
                d += coef[dx + k - 1] * (u[i + k] - u[i - k]);
            }
            psi[p + i] = prof[pax + x] * psi[p + i] + prof[pbx + x] * d;
        }
    }

    /** psi update of one row for an axis (z or y) whose band holds the whole row: stride st, auxiliary index p + i. */
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

    /** Floats of scratch that {@link #pml} needs for grid {@code geo} (three rows of the computational grid). */
    public static int scratchSize(int[] geo) {
        return Math.max(4 * (geo[Layout.NX] + 16), 4 * COL_ROWS * 4 * S.length());
    }

    /**
     * Same as {@link AcousticKernels3D#pml}, given {@code scratch} of at least {@link #scratchSize} floats (one per
     * thread). Each row segment of constant band membership runs in passes over scratch rows tz, ty, tx (second
     * derivatives; CPML terms of the band axes; leapfrog), each pass small enough that C2 keeps its vectors in
     * registers.
     */
    public static void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                           float[] coef, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1, float[] scratch) {
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int a = x0;
        int b = Math.min(x1, Math.max(x0, xbl));
        int c = Math.max(b, Math.min(x1, xbh));
        int vl = S.length();
        if (geo[Layout.H] == 4) {
            pml4(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, y0, y1, a, b, c, x1, scratch);
            return;
        }
        for (int z = z0; z < z1; z++) {
            boolean zIn = z >= geo[Layout.ZBL] && z < geo[Layout.ZBH];
            for (int y = y0; y < y1; y++) {
                boolean xOnly = zIn && y >= geo[Layout.YBL] && y < geo[Layout.YBH];
                for (int seg = 0; seg < 3; seg++) {
                    int xa = seg == 0 ? a : seg == 1 ? b : c;
                    int xe = seg == 0 ? b : seg == 1 ? c : x1;
                    if (xOnly && seg != 1 && xe - xa >= vl) {
                        pmlRowX(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, scratch);
                    } else {
                        pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, seg != 1, scratch);
                    }
                }
            }
        }
    }

    /**
     * {@link #pml} at h = 4: per plane, the three x segments of constant band membership; a segment one to four
     * vectors wide in column passes over runs of rows of one y-band membership, a wider one row by row.
     */
    private static void pml4(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                             int[] geo, int z0, int z1, int y0, int y1, int a, int b, int c, int x1, float[] t) {
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        for (int z = z0; z < z1; z++) {
            boolean zb = z < geo[Layout.ZBL] || z >= geo[Layout.ZBH];
            for (int seg = 0; seg < 3; seg++) {
                int xa = seg == 0 ? a : seg == 1 ? b : c;
                int xe = seg == 0 ? b : seg == 1 ? c : x1;
                boolean xb = seg != 1;
                if (xe <= xa) {
                    continue;
                }
                if (columns(xe - xa)) {
                    for (int y = y0; y < y1; ) {
                        int yr = Math.min(y1, y + COL_ROWS);
                        yr = y < ybl ? Math.min(yr, ybl) : y < ybh ? Math.min(yr, ybh) : yr;
                        pmlCols4(u, un, v2, psi, zeta, prof, coef, geo, z, y, yr, xa, xe, zb, y < ybl || y >= ybh, xb,
                                t);
                        y = yr;
                    }
                    continue;
                }
                for (int y = y0; y < y1; y++) {
                    boolean yb = y < ybl || y >= ybh;
                    if (!pmlRow4(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, zb, yb, xb, t)) {
                        pmlRow(u, un, v2, psi, zeta, prof, coef, geo, z, y, xa, xe, xb, t);
                    }
                }
            }
        }
    }

    /**
     * Rows (y) per block of the column passes that take x-band segments one to four vectors wide (property
     * {@code sweep.cpu.colrows}, default 64; at least 1): the scratch ({@link #scratchSize}) holds a block, 16 vectors
     * a row.
     */
    static final int COL_ROWS = Math.max(1, Integer.getInteger("sweep.cpu.colrows", 64));

    /** Whether a row segment of n cells goes through the column passes: one to four vectors wide. */
    static boolean columns(int n) {
        int vl = S.length();
        return n >= vl && n <= 4 * vl;
    }

    /**
     * Update of the cells [ya, ye) × [xa, xe) of plane z (one band membership) through the column passes of
     * {@link AcousticVectorRows3D}: per axis its sum (with its CPML term when in its band), then the leapfrog; zeta and
     * un are moved into place from the scratch blocks.
     */
    private static void pmlCols4(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                 float[] coef, int[] geo, int z, int ya, int ye, int xa, int xe, boolean zb,
                                 boolean yb, boolean xb, float[] t) {
        int n = xe - xa;
        int rows = ye - ya;
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int i0 = geo[Layout.OFF0] + z * sz + ya * sy + xa;
        int xsy = geo[Layout.aux(2) + 3];
        int jx = xb ? Layout.auxIndex(geo, 2, z, ya, xa) : 0;
        int blk = rows * n;
        int zo = 3 * blk;
        if (xb && !zb && !yb) {
            // the x band alone: its term, then the z and y sums with the leapfrog in one pass
            int pax = 2 * nz + 2 * ny + xa;
            AcousticVectorRows3D.axisBandXCols(u, psi, zeta, jx, xsy, t, 0, t, zo, coef, prof, pax, pax + nx, i0,
                    sy, rows, n);
            AcousticVectorRows3D.scatter(t, zo, zeta, jx, xsy, rows, n);
            AcousticVectorRows3D.leapOneCols(u, un, v2, t, 0, coef, 0, sz, AcousticVectorRows3D.CY, sy, 2, i0, sy, rows,
                    n, t, zo);
            AcousticVectorRows3D.scatter(t, zo, un, i0, sy, rows, n);
            return;
        }
        if (zb) {
            int jz = Layout.auxIndex(geo, 0, z, ya, xa);
            AcousticVectorRows3D.axisBandCols(u, psi, zeta, jz, t, 0, t, zo, coef, 0, AcousticVectorRows3D.DZ, sz, prof,
                    z, nz + z, 0, i0, sy, rows, n);
            AcousticVectorRows3D.scatter(t, zo, zeta, jz, sy, rows, n);
        } else {
            AcousticVectorRows3D.secondCols(u, t, 0, coef, 0, sz, i0, sy, rows, n);
        }
        if (yb) {
            int pay = 2 * nz + ya;
            int jy = Layout.auxIndex(geo, 1, z, ya, xa);
            AcousticVectorRows3D.axisBandCols(u, psi, zeta, jy, t, blk, t, zo, coef, AcousticVectorRows3D.CY,
                    AcousticVectorRows3D.DY, sy, prof, pay, pay + ny, 1, i0, sy, rows, n);
            AcousticVectorRows3D.scatter(t, zo, zeta, jy, sy, rows, n);
        } else {
            AcousticVectorRows3D.secondCols(u, t, blk, coef, AcousticVectorRows3D.CY, sy, i0, sy, rows, n);
        }
        if (xb) {
            int pax = 2 * nz + 2 * ny + xa;
            AcousticVectorRows3D.axisBandXCols(u, psi, zeta, jx, xsy, t, 2 * blk, t, zo, coef, prof, pax, pax + nx,
                    i0, sy, rows, n);
            AcousticVectorRows3D.scatter(t, zo, zeta, jx, xsy, rows, n);
        } else {
            AcousticVectorRows3D.secondCols(u, t, 2 * blk, coef, AcousticVectorRows3D.CX, 1, i0, sy, rows, n);
        }
        AcousticVectorRows3D.finishCols(u, un, v2, t, 0, blk, 2 * blk, t, zo, i0, sy, rows, n);
        AcousticVectorRows3D.scatter(t, zo, un, i0, sy, rows, n);
    }

    /** x-axis psi of the cells [ya, ye) × [xa, xe) of plane z through the column passes. */
    private static void psiXCols4(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z, int ya, int ye,
                                  int xa, int xe, float[] t) {
        int n = xe - xa;
        int rows = ye - ya;
        int sy = geo[Layout.SY];
        int i0 = geo[Layout.OFF0] + z * geo[Layout.SZ] + ya * sy + xa;
        int p = Layout.auxIndex(geo, 2, z, ya, xa);
        int xsy = geo[Layout.aux(2) + 3];
        int pax = 2 * geo[Layout.NZ] + 2 * geo[Layout.NY] + xa;
        AcousticVectorRows3D.psiXCols(u, psi, p, xsy, t, 0, coef, prof, pax, pax + geo[Layout.NX], i0, sy, rows, n);
        AcousticVectorRows3D.scatter(t, 0, psi, p, xsy, rows, n);
    }

    /**
     * A row segment of at least one vector inside the x band only (z and y outside their bands), in one pass per
     * vector (no scratch passes). The last vector, overlapping the one before when the length is not a multiple of
     * the vector length, is computed first from the old zeta and un and parked in {@code t}; the other vectors follow
     * and the parked vector is stored last, so overlapped cells receive the same values again (same bits).
     */
    private static void pmlRowX(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                                float[] coef, int[] geo, int z, int y, int xa, int xe, float[] t) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int p = Layout.auxShift(geo, 2, z, y, xa);
        int pax = 2 * geo[Layout.NZ] + 2 * geo[Layout.NY];
        int pbx = pax + geo[Layout.NX];
        int vl = S.length();
        int n = xe - xa;
        int i0 = geo[Layout.OFF0] + z * sz + y * sy + xa;
        int last = n - vl;
        cellX(u, un, v2, psi, zeta, prof, coef, h, sz, sy, p, i0 + last, pax + xa + last, pbx + xa + last, t, 0, t, vl);
        for (int j = 0; j < last; j += vl) {
            int i = i0 + j;
            cellX(u, un, v2, psi, zeta, prof, coef, h, sz, sy, p, i, pax + xa + j, pbx + xa + j, zeta, p + i, un, i);
        }
        ld(t, 0).intoArray(zeta, p + i0 + last);
        ld(t, vl).intoArray(un, i0 + last);
    }

    /**
     * One vector of x-band-only cells at {@code i} (x profiles at {@code prof[pa]}, {@code prof[pb]}): the operations
     * of {@link AcousticKernels3D#pml} in its order; the new zeta goes to {@code zd[zo]}, the new un to {@code ud[uo]}.
     */
    private static void cellX(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                              float[] coef, int h, int sz, int sy, int p, int i, int pa, int pb,
                              float[] zd, int zo, float[] ud, int uo) {
        int cy = h + 1;
        int cx = 2 * (h + 1);
        int dx = Layout.d1(h) + 2 * h;
        FloatVector uc = ld(u, i);
        FloatVector tz = uc.mul(coef[0]);
        FloatVector ty = uc.mul(coef[cy]);
        FloatVector tx = uc.mul(coef[cx]);
        for (int k = 1; k <= h; k++) {
            tz = tz.add(ld(u, i + k * sz).add(ld(u, i - k * sz)).mul(coef[k]));
            ty = ty.add(ld(u, i + k * sy).add(ld(u, i - k * sy)).mul(coef[cy + k]));
            tx = tx.add(ld(u, i + k).add(ld(u, i - k)).mul(coef[cx + k]));
        }
        int j = p + i;
        for (int k = 1; k <= h; k++) {
            tx = tx.add(ld(psi, j + k).sub(ld(psi, j - k)).mul(coef[dx + k - 1]));
        }
        FloatVector ze = ld(zeta, j).mul(ld(prof, pa)).add(tx.mul(ld(prof, pb)));
        FloatVector s = tz.add(ty).add(tx.add(ze));
        FloatVector nu = uc.mul(2.0f).sub(ld(un, i)).add(ld(v2, i).mul(s));
        ze.intoArray(zd, zo);
        nu.intoArray(ud, uo);
    }

    private static void pmlRow(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                               float[] coef, int[] geo, int z, int y, int xa, int xe, boolean xb, float[] t) {
        int n = xe - xa;
        if (n <= 0) {
            return;
        }
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int d1 = Layout.d1(h);
        int i0 = geo[Layout.OFF0] + z * sz + y * sy + xa;
        second(u, t, 0, i0, n, coef, 0, sz, h);
        second(u, t, n, i0, n, coef, h + 1, sy, h);
        second(u, t, 2 * n, i0, n, coef, 2 * (h + 1), 1, h);
        if (z < geo[Layout.ZBL] || z >= geo[Layout.ZBH]) {
            band(psi, zeta, Layout.auxShift(geo, 0, z, y, xa) + i0, t, 0, n, coef, d1, sz, h, prof[z], prof[nz + z]);
        }
        if (y < geo[Layout.YBL] || y >= geo[Layout.YBH]) {
            band(psi, zeta, Layout.auxShift(geo, 1, z, y, xa) + i0, t, n, n, coef, d1 + h, sy, h, prof[2 * nz + y],
                    prof[2 * nz + ny + y]);
        }
        if (xb) {
            int pax = 2 * nz + 2 * ny + xa;
            bandX(psi, zeta, Layout.auxShift(geo, 2, z, y, xa) + i0, t, 2 * n, n, coef, d1 + 2 * h, h, prof, pax,
                    pax + nx);
        }
        finish(u, un, v2, i0, t, n);
    }

    /**
     * {@code t[to+j] = c0·u + Σ_k c_k(u(+k·st) + u(−k·st))} at cells {@code i0+j}, coefficients at {@code coef[cb+k]}.
     * A row longer than a vector ends with a vector overlapping the one before it (same values rewritten): no scalar
     * tail.
     */
    private static void second(float[] u, float[] t, int to, int i0, int n, float[] coef, int cb, int st, int h) {
        float c0 = coef[cb];
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = i0 + j;
            FloatVector s = ld(u, i).mul(c0);
            for (int k = 1; k <= h; k++) {
                s = s.add(ld(u, i + k * st).add(ld(u, i - k * st)).mul(coef[cb + k]));
            }
            s.intoArray(t, to + j);
            if (j + vl < n && j + 2 * vl > n) {
                j = n - 2 * vl; // the last vector ends at n: overlapping cells get the same value again
            }
        }
        for (; j < n; j++) {
            int i = i0 + j;
            float s = c0 * u[i];
            for (int k = 1; k <= h; k++) {
                s += coef[cb + k] * (u[i + k * st] + u[i - k * st]);
            }
            t[to + j] = s;
        }
    }

    /**
     * CPML terms of a band axis with row-constant profile (a, b): {@code t += Σ_k d_k(psi(+k·st) − psi(−k·st));
     * zeta = a·zeta + b·t; t = t + zeta}, psi and zeta of the axis at {@code p0+j}.
     */
    private static void band(float[] psi, float[] zeta, int p0, float[] t, int to, int n, float[] coef, int db, int st,
                             int h, float a, float b) {
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = p0 + j;
            FloatVector s = ld(t, to + j);
            for (int k = 1; k <= h; k++) {
                s = s.add(ld(psi, i + k * st).sub(ld(psi, i - k * st)).mul(coef[db + k - 1]));
            }
            FloatVector ze = ld(zeta, i).mul(a).add(s.mul(b));
            ze.intoArray(zeta, i);
            s.add(ze).intoArray(t, to + j);
        }
        for (; j < n; j++) {
            int i = p0 + j;
            float s = t[to + j];
            for (int k = 1; k <= h; k++) {
                s += coef[db + k - 1] * (psi[i + k * st] - psi[i - k * st]);
            }
            zeta[i] = a * zeta[i] + b * s;
            t[to + j] = s + zeta[i];
        }
    }

    /** CPML terms of the x axis, profiles per cell at {@code prof[pa+j]}, {@code prof[pb+j]}; see {@link #band}. */
    private static void bandX(float[] psi, float[] zeta, int p0, float[] t, int to, int n, float[] coef, int db, int h,
                              float[] prof, int pa, int pb) {
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = p0 + j;
            FloatVector s = ld(t, to + j);
            for (int k = 1; k <= h; k++) {
                s = s.add(ld(psi, i + k).sub(ld(psi, i - k)).mul(coef[db + k - 1]));
            }
            FloatVector ze = ld(zeta, i).mul(ld(prof, pa + j)).add(s.mul(ld(prof, pb + j)));
            ze.intoArray(zeta, i);
            s.add(ze).intoArray(t, to + j);
        }
        for (; j < n; j++) {
            int i = p0 + j;
            float s = t[to + j];
            for (int k = 1; k <= h; k++) {
                s += coef[db + k - 1] * (psi[i + k] - psi[i - k]);
            }
            zeta[i] = prof[pa + j] * zeta[i] + prof[pb + j] * s;
            t[to + j] = s + zeta[i];
        }
    }

    /** {@code un = (2u − un) + v2·((tz + ty) + tx)} over the row segment. */
    private static void finish(float[] u, float[] un, float[] v2, int i0, float[] t, int n) {
        int vl = S.length();
        int j = 0;
        for (; j + vl <= n; j += vl) {
            int i = i0 + j;
            leap(un, v2, i, ld(u, i), ld(t, j).add(ld(t, n + j)).add(ld(t, 2 * n + j)));
        }
        for (; j < n; j++) {
            int i = i0 + j;
            un[i] = (2.0f * u[i] - un[i]) + v2[i] * ((t[j] + t[n + j]) + t[2 * n + j]);
        }
    }
}
