package sweep.acoustictti;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustictti.kernels.AcousticTti3dKernels;
import sweep.acousticvti.AcousticVtiVectorKernels;
import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;

/**
 * CPU-specialised variants of {@link AcousticTti3dKernels#gradient} and {@link AcousticTti3dKernels#update} and of
 * their transposes for the Java backend: the same arguments and, per cell, exactly the same sequence of float
 * operations (no fused multiply-add). In the forward kernels each row's cells (z, y) with neither an x CPML term nor an
 * x CPML cell within the stencil run in whole vectors across x, with the row's y and z CPML terms (the same for the
 * whole row); the x bands, their near cells and the tails shorter than a vector run the portable per-cell kernels. The
 * transposes run whole rows in vectors, the x CPML terms lane by lane. Bit-identical to the portable kernels.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class AcousticTti3dVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;
    /** Each thread's row scratch for H p and Z q when not taping: held, so a forward step allocates nothing. */
    private static final ThreadLocal<float[]> ROWS = ThreadLocal.withInitial(() -> new float[0]);

    private AcousticTti3dVectorKernels() {
    }

    /** This thread's row scratch of at least {@code n} floats. */
    private static float[] rows(int n) {
        float[] r = ROWS.get();
        if (r.length < n) {
            r = new float[n];
            ROWS.set(r);
        }
        return r;
    }

    /**
     * The first cell of the run of cells without an x CPML term (nor one within the stencil, where {@code near} is
     * given), and the end of the whole vectors from there within that run.
     */
    private static int[] plain(float[] prof, int[] near, int nz, int ny, int nx) {
        int ox = 4 * (nz + ny);
        int nearX = nz + ny;
        int lo = 0;
        while (lo < nx && (prof[ox + lo] != 0.0f || near != null && near[nearX + lo] != 0)) {
            lo++;
        }
        int hi = lo;
        while (hi < nx && prof[ox + hi] == 0.0f && (near == null || near[nearX + hi] == 0)) {
            hi++;
        }
        return new int[] {lo, lo + S.loopBound(hi - lo)};
    }

    /** {@link AcousticTti3dKernels#gradient} over the rows [z0, z1), the same bits. */
    static void gradient(float[] p, float[] q, float[] fpx, float[] fpy, float[] fpz, float[] fqx, float[] fqy,
                         float[] fqz, float[] spx, float[] spy, float[] spz, float[] sqx, float[] sqy, float[] sqz,
                         float[] ux, float[] uy, float[] uz, float[] prof, float[] c, int h, int base, int sz, int sy,
                         int nz, int ny, int nx, int z0, int z1, float[] tape, int taping) {
        int[] run = plain(prof, null, nz, ny, nx);
        int lo = run[0];
        int end = run[1];
        int cells = nz * ny * nx;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < lo; x++) {
                    AcousticTti3dKernels.gradientCell(p, q, fpx, fpy, fpz, fqx, fqy, fqz, spx, spy, spz, sqx, sqy, sqz,
                            ux, uy, uz, prof, c, h, base, sz, sy, nz, ny, nx, z, y, x, tape, taping);
                }
                int row = base + z * sz + y * sy;
                int tr = (z * ny + y) * nx;
                fluxes(p, fpx, fpy, fpz, spy, spz, ux, uy, uz, prof, c, h, sz, sy, nz, ny, z, y, row, lo, end, tape,
                        tr + 2 * cells, cells, taping);
                fluxes(q, fqx, fqy, fqz, sqy, sqz, ux, uy, uz, prof, c, h, sz, sy, nz, ny, z, y, row, lo, end, tape,
                        tr + 5 * cells, cells, taping);
                for (int x = end; x < nx; x++) {
                    AcousticTti3dKernels.gradientCell(p, q, fpx, fpy, fpz, fqx, fqy, fqz, spx, spy, spz, sqx, sqy, sqz,
                            ux, uy, uz, prof, c, h, base, sz, sy, nz, ny, nx, z, y, x, tape, taping);
                }
            }
        }
    }

    /**
     * The fluxes fx, fy, fz of u over the whole vectors [x0, x1) of row (z, y) (first cell {@code row}), without an x
     * CPML term, with the row's y and z terms (their ψ in py, pz); D̃u along x, y, z taped from {@code tx} on, a
     * stride of {@code cells} apart.
     */
    private static void fluxes(float[] u, float[] fx, float[] fy, float[] fz, float[] py, float[] pz, float[] ux,
                               float[] uy, float[] uz, float[] prof, float[] c, int h, int sz, int sy, int nz, int ny,
                               int z, int y, int row, int x0, int x1, float[] tape, int tx, int cells, int taping) {
        int o1z = 3 * (h + 1);
        int o1y = 4 * (h + 1);
        int o1x = 5 * (h + 1);
        int oy = 4 * nz;
        float ay = prof[oy + y];
        float by = prof[oy + ny + y];
        float az = prof[z];
        float bz = prof[nz + z];
        for (int x = x0; x < x1; x += S.length()) {
            int i = row + x;
            FloatVector gx = FloatVector.zero(S);
            FloatVector gy = FloatVector.zero(S);
            FloatVector gz = FloatVector.zero(S);
            for (int k = 1; k <= h; k++) {
                gx = gx.add(FloatVector.fromArray(S, u, i + k).sub(FloatVector.fromArray(S, u, i - k))
                        .mul(c[o1x + k]));
                gy = gy.add(FloatVector.fromArray(S, u, i + k * sy).sub(FloatVector.fromArray(S, u, i - k * sy))
                        .mul(c[o1y + k]));
                gz = gz.add(FloatVector.fromArray(S, u, i + k * sz).sub(FloatVector.fromArray(S, u, i - k * sz))
                        .mul(c[o1z + k]));
            }
            if (ay != 0.0f) {
                FloatVector t = FloatVector.fromArray(S, py, i).mul(ay).add(gy.mul(by));
                t.intoArray(py, i);
                gy = gy.add(t);
            }
            if (az != 0.0f) {
                FloatVector t = FloatVector.fromArray(S, pz, i).mul(az).add(gz.mul(bz));
                t.intoArray(pz, i);
                gz = gz.add(t);
            }
            FloatVector nx = FloatVector.fromArray(S, ux, i);
            FloatVector nyv = FloatVector.fromArray(S, uy, i);
            FloatVector nzv = FloatVector.fromArray(S, uz, i);
            FloatVector d = nx.mul(gx).add(nyv.mul(gy)).add(nzv.mul(gz)).mul(2.0f);
            d.mul(nx).sub(gx).intoArray(fx, i);
            d.mul(nyv).sub(gy).intoArray(fy, i);
            d.mul(nzv).sub(gz).intoArray(fz, i);
            if (taping == 1) {
                gx.intoArray(tape, tx + x);
                gy.intoArray(tape, tx + cells + x);
                gz.intoArray(tape, tx + 2 * cells + x);
            }
        }
    }

    /** {@link AcousticTti3dKernels#update} over the rows [z0, z1), the same bits. */
    static void update(float[] p, float[] q, float[] pp, float[] qp, float[] psiPx, float[] zetaPx, float[] psiPy,
                       float[] zetaPy, float[] psiPz, float[] zetaPz, float[] psiQx, float[] zetaQx, float[] psiQy,
                       float[] zetaQy, float[] psiQz, float[] zetaQz, float[] fpx, float[] fpy, float[] fpz,
                       float[] fqx, float[] fqy, float[] fqz, float[] xpx, float[] xpy, float[] xpz, float[] xqx,
                       float[] xqy, float[] xqz, float[] ah, float[] an, float[] a0, float[] prof, int[] near,
                       float[] c, int h, int base, int sz, int sy, int nz, int ny, int nx, int z0, int z1,
                       float[] tape, int taping) {
        int[] run = plain(prof, near, nz, ny, nx);
        int lo = run[0];
        int end = run[1];
        int cells = nz * ny * nx;
        // H p and Z q of a row's vectors: into the tape's rows when taping, else into rows of their own
        float[] hz = taping == 1 ? tape : rows(2 * nx);
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < lo; x++) {
                    AcousticTti3dKernels.updateCell(p, q, pp, qp, psiPx, zetaPx, psiPy, zetaPy, psiPz, zetaPz, psiQx,
                            zetaQx, psiQy, zetaQy, psiQz, zetaQz, fpx, fpy, fpz, fqx, fqy, fqz, xpx, xpy, xpz, xqx,
                            xqy, xqz, ah, an, a0, prof, near, c, h, base, sz, sy, nz, ny, nx, z, y, x, tape, taping);
                }
                int row = base + z * sz + y * sy;
                int th = taping == 1 ? (z * ny + y) * nx : 0;
                int tz = taping == 1 ? cells + th : nx;
                half(p, psiPy, zetaPy, psiPz, zetaPz, fpx, fpy, fpz, xpy, xpz, -1.0f, prof, near, c, h, sz, sy, nz,
                        ny, z, y, row, lo, end, hz, th);
                half(q, psiQy, zetaQy, psiQz, zetaQz, fqx, fqy, fqz, xqy, xqz, 1.0f, prof, near, c, h, sz, sy, nz,
                        ny, z, y, row, lo, end, hz, tz);
                AcousticTtiVectorKernels.levels(p, q, pp, qp, ah, an, a0, row, lo, end, hz, th, tz);
                for (int x = end; x < nx; x++) {
                    AcousticTti3dKernels.updateCell(p, q, pp, qp, psiPx, zetaPx, psiPy, zetaPy, psiPz, zetaPz, psiQx,
                            zetaQx, psiQy, zetaQy, psiQz, zetaQz, fpx, fpy, fpz, fqx, fqy, fqz, xpx, xpy, xpz, xqx,
                            xqy, xqz, ah, an, a0, prof, near, c, h, base, sz, sy, nz, ny, nx, z, y, x, tape, taping);
                }
            }
        }
    }

    /**
     * ½(L u + sign·D̃·F) over the whole vectors [x0, x1) of row (z, y) into {@code out} from {@code to} + x on: L u
     * first ({@link #laplacian}), then the divergence ({@link #divergence}); two methods, so that each stays within
     * the JIT's inlining budget with its vectors in registers (one method left them boxed).
     */
    private static void half(float[] u, float[] psiY, float[] zetaY, float[] psiZ, float[] zetaZ, float[] fx,
                             float[] fy, float[] fz, float[] xy, float[] xz, float sign, float[] prof, int[] near,
                             float[] c, int h, int sz, int sy, int nz, int ny, int z, int y, int row, int x0, int x1,
                             float[] out, int to) {
        laplacian(u, psiY, zetaY, psiZ, zetaZ, prof, near, c, h, sz, sy, nz, ny, z, y, row, x0, x1, out, to);
        divergence(fx, fy, fz, xy, xz, sign, prof, c, h, sz, sy, nz, ny, z, y, row, x0, x1, out, to);
    }

    /**
     * The compact Laplacian L u over the whole vectors [x0, x1) of row (z, y) into {@code out} from {@code to} + x
     * on, without an x CPML term and with the row's y and z terms (ψ, ζ of each): acoustic-vti's {@code term} per
     * axis, summed x, y, z.
     */
    private static void laplacian(float[] u, float[] psiY, float[] zetaY, float[] psiZ, float[] zetaZ, float[] prof,
                                  int[] near, float[] c, int h, int sz, int sy, int nz, int ny, int z, int y, int row,
                                  int x0, int x1, float[] out, int to) {
        int o2y = h + 1;
        int o2x = 2 * (h + 1);
        int o1z = 3 * (h + 1);
        int o1y = 4 * (h + 1);
        int oy = 4 * nz;
        float ay = prof[oy + y];
        float by = prof[oy + ny + y];
        float az = prof[z];
        float bz = prof[nz + z];
        boolean nearY = near[nz + y] == 1;
        boolean nearZ = near[z] == 1;
        for (int x = x0; x < x1; x += S.length()) {
            int i = row + x;
            FloatVector wx = FloatVector.fromArray(S, u, i).mul(c[o2x]);
            FloatVector wy = FloatVector.fromArray(S, u, i).mul(c[o2y]);
            FloatVector wz = FloatVector.fromArray(S, u, i).mul(c[0]);
            for (int k = 1; k <= h; k++) {
                wx = wx.add(FloatVector.fromArray(S, u, i + k).add(FloatVector.fromArray(S, u, i - k))
                        .mul(c[o2x + k]));
                wy = wy.add(FloatVector.fromArray(S, u, i + k * sy).add(FloatVector.fromArray(S, u, i - k * sy))
                        .mul(c[o2y + k]));
                wz = wz.add(FloatVector.fromArray(S, u, i + k * sz).add(FloatVector.fromArray(S, u, i - k * sz))
                        .mul(c[k]));
            }
            if (nearY) { // the near-band sum of ψ along y: which terms is the row's
                FloatVector d = FloatVector.zero(S);
                for (int k = 1; k <= h; k++) {
                    if (y + k < ny && prof[oy + y + k] != 0.0f) {
                        d = d.add(FloatVector.fromArray(S, psiY, i + k * sy).mul(c[o1y + k]));
                    }
                    if (y - k >= 0 && prof[oy + y - k] != 0.0f) {
                        d = d.sub(FloatVector.fromArray(S, psiY, i - k * sy).mul(c[o1y + k]));
                    }
                }
                wy = wy.add(d);
            }
            if (ay != 0.0f) {
                FloatVector zt = FloatVector.fromArray(S, zetaY, i).mul(ay).add(wy.mul(by));
                zt.intoArray(zetaY, i);
                wy = wy.add(zt);
            }
            if (nearZ) {
                FloatVector d = FloatVector.zero(S);
                for (int k = 1; k <= h; k++) {
                    if (z + k < nz && prof[z + k] != 0.0f) {
                        d = d.add(FloatVector.fromArray(S, psiZ, i + k * sz).mul(c[o1z + k]));
                    }
                    if (z - k >= 0 && prof[z - k] != 0.0f) {
                        d = d.sub(FloatVector.fromArray(S, psiZ, i - k * sz).mul(c[o1z + k]));
                    }
                }
                wz = wz.add(d);
            }
            if (az != 0.0f) {
                FloatVector zt = FloatVector.fromArray(S, zetaZ, i).mul(az).add(wz.mul(bz));
                zt.intoArray(zetaZ, i);
                wz = wz.add(zt);
            }
            wx.add(wy).add(wz).intoArray(out, to + x);
        }
    }

    /**
     * ½(L + sign·D̃·F) over the whole vectors [x0, x1) of row (z, y), L read from and the result written to
     * {@code out} from {@code to} + x on: the divergence of the fluxes fx, fy, fz without an x CPML term and with the
     * row's y and z terms (ξ in xy, xz). {@code sign} is −1 (H p) or 1 (Z q): {@code l - d} is {@code l + (-d)}.
     */
    private static void divergence(float[] fx, float[] fy, float[] fz, float[] xy, float[] xz, float sign,
                                   float[] prof, float[] c, int h, int sz, int sy, int nz, int ny, int z, int y,
                                   int row, int x0, int x1, float[] out, int to) {
        int o1z = 3 * (h + 1);
        int o1y = 4 * (h + 1);
        int o1x = 5 * (h + 1);
        int oy = 4 * nz;
        float ay = prof[oy + y];
        float by = prof[oy + ny + y];
        float az = prof[z];
        float bz = prof[nz + z];
        for (int x = x0; x < x1; x += S.length()) {
            int i = row + x;
            FloatVector dx = FloatVector.zero(S);
            FloatVector dy = FloatVector.zero(S);
            FloatVector dz = FloatVector.zero(S);
            for (int k = 1; k <= h; k++) {
                dx = dx.add(FloatVector.fromArray(S, fx, i + k).sub(FloatVector.fromArray(S, fx, i - k))
                        .mul(c[o1x + k]));
                dy = dy.add(FloatVector.fromArray(S, fy, i + k * sy).sub(FloatVector.fromArray(S, fy, i - k * sy))
                        .mul(c[o1y + k]));
                dz = dz.add(FloatVector.fromArray(S, fz, i + k * sz).sub(FloatVector.fromArray(S, fz, i - k * sz))
                        .mul(c[o1z + k]));
            }
            if (ay != 0.0f) {
                FloatVector t = FloatVector.fromArray(S, xy, i).mul(ay).add(dy.mul(by));
                t.intoArray(xy, i);
                dy = dy.add(t);
            }
            if (az != 0.0f) {
                FloatVector t = FloatVector.fromArray(S, xz, i).mul(az).add(dz.mul(bz));
                t.intoArray(xz, i);
                dz = dz.add(t);
            }
            FloatVector div = dx.add(dy).add(dz);
            FloatVector l = FloatVector.fromArray(S, out, to + x);
            (sign < 0.0f ? l.sub(div) : l.add(div)).mul(0.5f).intoArray(out, to + x);
        }
    }

    /**
     * {@link AcousticTti3dKernels#updateAdjointPoint} over the rows [z0, z1), the same bits: every row (z, y) in whole
     * vectors across x (the x CPML terms lane by lane, the y and z terms the row's), its tail shorter than a vector
     * portable.
     */
    static void updateAdjointPoint(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar, float[] zetaPxBar,
                                   float[] zetaPyBar, float[] zetaPzBar, float[] zetaQxBar, float[] zetaQyBar,
                                   float[] zetaQzBar, float[] xpxBar, float[] xpyBar, float[] xpzBar, float[] xqxBar,
                                   float[] xqyBar, float[] xqzBar, float[] ah, float[] an, float[] a0, float[] prof,
                                   float[] w0, float[] w1, float[] w2, float[] w3, float[] w4, float[] w5, float[] w6,
                                   float[] w7, float[] w8, float[] w9, float[] w10, float[] w11, float[] gh,
                                   float[] gn, float[] g0, int base, int sz, int sy, int nz, int ny, int nx, int z0,
                                   int z1, float[] tape) {
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        int cells = nz * ny * nx;
        for (int z = z0; z < z1; z++) {
            float az = prof[z];
            float bz = prof[nz + z];
            for (int y = 0; y < ny; y++) {
                int row = base + z * sz + y * sy;
                int tr = (z * ny + y) * nx;
                float ay = prof[oy + y];
                float by = prof[oy + ny + y];
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    FloatVector pb = FloatVector.fromArray(S, ppbar, i);
                    FloatVector qb = FloatVector.fromArray(S, qpbar, i);
                    FloatVector t1 = FloatVector.fromArray(S, tape, tr + x);
                    FloatVector t2 = FloatVector.fromArray(S, tape, cells + tr + x);
                    FloatVector.fromArray(S, gh, i).add(pb.mul(t1)).intoArray(gh, i);
                    FloatVector.fromArray(S, gn, i).add(pb.mul(t2).add(qb.mul(t1))).intoArray(gn, i);
                    FloatVector.fromArray(S, g0, i).add(qb.mul(t2)).intoArray(g0, i);
                    FloatVector van = FloatVector.fromArray(S, an, i);
                    FloatVector lh = FloatVector.fromArray(S, ah, i).mul(pb).add(van.mul(qb)).mul(0.5f);
                    FloatVector lz = van.mul(pb).add(FloatVector.fromArray(S, a0, i).mul(qb)).mul(0.5f);
                    FloatVector ax = FloatVector.fromArray(S, prof, ox + x);
                    FloatVector bx = FloatVector.fromArray(S, prof, ox + nx + x);
                    VectorMask<Float> inBand = ax.compare(VectorOperators.NE, 0.0f);
                    FloatVector mh = lh.neg();
                    AcousticTtiVectorKernels.termAdjointX(lh, zetaPxBar, i, ax, bx, inBand).intoArray(w0, i);
                    AcousticVtiVectorKernels.termAdjoint(lh, zetaPyBar, i, ay, by).intoArray(w1, i);
                    AcousticVtiVectorKernels.termAdjoint(lh, zetaPzBar, i, az, bz).intoArray(w2, i);
                    AcousticTtiVectorKernels.termAdjointX(lz, zetaQxBar, i, ax, bx, inBand).intoArray(w3, i);
                    AcousticVtiVectorKernels.termAdjoint(lz, zetaQyBar, i, ay, by).intoArray(w4, i);
                    AcousticVtiVectorKernels.termAdjoint(lz, zetaQzBar, i, az, bz).intoArray(w5, i);
                    AcousticTtiVectorKernels.termAdjointX(mh, xpxBar, i, ax, bx, inBand).intoArray(w6, i);
                    AcousticVtiVectorKernels.termAdjoint(mh, xpyBar, i, ay, by).intoArray(w7, i);
                    AcousticVtiVectorKernels.termAdjoint(mh, xpzBar, i, az, bz).intoArray(w8, i);
                    AcousticTtiVectorKernels.termAdjointX(lz, xqxBar, i, ax, bx, inBand).intoArray(w9, i);
                    AcousticVtiVectorKernels.termAdjoint(lz, xqyBar, i, ay, by).intoArray(w10, i);
                    AcousticVtiVectorKernels.termAdjoint(lz, xqzBar, i, az, bz).intoArray(w11, i);
                    FloatVector.fromArray(S, pbar, i).add(pb.mul(2.0f)).intoArray(pbar, i);
                    FloatVector.fromArray(S, qbar, i).add(qb.mul(2.0f)).intoArray(qbar, i);
                    pb.neg().intoArray(ppbar, i);
                    qb.neg().intoArray(qpbar, i);
                }
                for (; x < nx; x++) {
                    AcousticTti3dKernels.updateAdjointPointCell(pbar, qbar, ppbar, qpbar, zetaPxBar, zetaPyBar,
                            zetaPzBar, zetaQxBar, zetaQyBar, zetaQzBar, xpxBar, xpyBar, xpzBar, xqxBar, xqyBar, xqzBar,
                            ah, an, a0, prof, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, gh, gn, g0, base, sz,
                            sy, nz, ny, nx, z, y, x, tape);
                }
            }
        }
    }

    /**
     * {@link AcousticTti3dKernels#updateAdjointGather} over the rows [z0, z1), the same bits: every row (z, y) in
     * whole vectors across x (the compact CPML's ψ̄ along x updated lane by lane in the x bands), its tail portable.
     */
    static void updateAdjointGather(float[] pbar, float[] qbar, float[] psiPxBar, float[] psiPyBar, float[] psiPzBar,
                                    float[] psiQxBar, float[] psiQyBar, float[] psiQzBar, float[] fpxBar,
                                    float[] fpyBar, float[] fpzBar, float[] fqxBar, float[] fqyBar, float[] fqzBar,
                                    float[] w0, float[] w1, float[] w2, float[] w3, float[] w4, float[] w5,
                                    float[] w6, float[] w7, float[] w8, float[] w9, float[] w10, float[] w11,
                                    float[] prof, float[] c, int h, int base, int sz, int sy, int nz, int ny, int nx,
                                    int z0, int z1) {
        int ox = 4 * (nz + ny);
        for (int z = z0; z < z1; z++) {
            boolean bandZ = prof[z] != 0.0f;
            for (int y = 0; y < ny; y++) {
                int row = base + z * sz + y * sy;
                boolean bandY = prof[4 * nz + y] != 0.0f;
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    FloatVector.fromArray(S, pbar, i).add(AcousticVtiVectorKernels.secondTransposed(w0, i, 1, 2, c, h)
                            .add(AcousticVtiVectorKernels.secondTransposed(w1, i, sy, 1, c, h))
                            .add(AcousticVtiVectorKernels.secondTransposed(w2, i, sz, 0, c, h))).intoArray(pbar, i);
                    FloatVector.fromArray(S, qbar, i).add(AcousticVtiVectorKernels.secondTransposed(w3, i, 1, 2, c, h)
                            .add(AcousticVtiVectorKernels.secondTransposed(w4, i, sy, 1, c, h))
                            .add(AcousticVtiVectorKernels.secondTransposed(w5, i, sz, 0, c, h))).intoArray(qbar, i);
                    VectorMask<Float> inBand = FloatVector.fromArray(S, prof, ox + x)
                            .compare(VectorOperators.NE, 0.0f);
                    if (inBand.anyTrue()) {
                        AcousticTtiVectorKernels.addFirstTransposed(psiPxBar, w0, i, 1, 2, c, h, inBand);
                        AcousticTtiVectorKernels.addFirstTransposed(psiQxBar, w3, i, 1, 2, c, h, inBand);
                    }
                    if (bandY) {
                        AcousticTtiVectorKernels.addFirstTransposed(psiPyBar, w1, i, sy, 1, c, h, null);
                        AcousticTtiVectorKernels.addFirstTransposed(psiQyBar, w4, i, sy, 1, c, h, null);
                    }
                    if (bandZ) {
                        AcousticTtiVectorKernels.addFirstTransposed(psiPzBar, w2, i, sz, 0, c, h, null);
                        AcousticTtiVectorKernels.addFirstTransposed(psiQzBar, w5, i, sz, 0, c, h, null);
                    }
                    AcousticTtiVectorKernels.addFirstTransposed(fpxBar, w6, i, 1, 2, c, h, null);
                    AcousticTtiVectorKernels.addFirstTransposed(fpyBar, w7, i, sy, 1, c, h, null);
                    AcousticTtiVectorKernels.addFirstTransposed(fpzBar, w8, i, sz, 0, c, h, null);
                    AcousticTtiVectorKernels.addFirstTransposed(fqxBar, w9, i, 1, 2, c, h, null);
                    AcousticTtiVectorKernels.addFirstTransposed(fqyBar, w10, i, sy, 1, c, h, null);
                    AcousticTtiVectorKernels.addFirstTransposed(fqzBar, w11, i, sz, 0, c, h, null);
                }
                for (; x < nx; x++) {
                    AcousticTti3dKernels.updateAdjointGatherCell(pbar, qbar, psiPxBar, psiPyBar, psiPzBar, psiQxBar,
                            psiQyBar, psiQzBar, fpxBar, fpyBar, fpzBar, fqxBar, fqyBar, fqzBar, w0, w1, w2, w3, w4, w5,
                            w6, w7, w8, w9, w10, w11, prof, c, h, base, sz, sy, nz, ny, nx, z, y, x);
                }
            }
        }
    }

    /**
     * {@link AcousticTti3dKernels#gradientAdjointPoint} over the rows [z0, z1), the same bits: every row (z, y) in
     * whole vectors across x (the x CPML terms lane by lane, the y and z terms the row's), its tail portable.
     */
    static void gradientAdjointPoint(float[] fpxBar, float[] fpyBar, float[] fpzBar, float[] fqxBar, float[] fqyBar,
                                     float[] fqzBar, float[] spxBar, float[] spyBar, float[] spzBar, float[] sqxBar,
                                     float[] sqyBar, float[] sqzBar, float[] ux, float[] uy, float[] uz, float[] tx,
                                     float[] ty, float[] tz, float[] prof, float[] wpx, float[] wpy, float[] wpz,
                                     float[] wqx, float[] wqy, float[] wqz, float[] gt, float[] gf, int base, int sz,
                                     int sy, int nz, int ny, int nx, int z0, int z1, float[] tape) {
        int oy = 4 * nz;
        int ox = 4 * (nz + ny);
        int cells = nz * ny * nx;
        FloatVector zero = FloatVector.zero(S);
        for (int z = z0; z < z1; z++) {
            float az = prof[z];
            float bz = prof[nz + z];
            for (int y = 0; y < ny; y++) {
                int row = base + z * sz + y * sy;
                int tr = (z * ny + y) * nx;
                float ay = prof[oy + y];
                float by = prof[oy + ny + y];
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    int k = tr + x;
                    FloatVector a1 = FloatVector.fromArray(S, fpxBar, i);
                    FloatVector a2 = FloatVector.fromArray(S, fpyBar, i);
                    FloatVector a3 = FloatVector.fromArray(S, fpzBar, i);
                    FloatVector e1 = FloatVector.fromArray(S, fqxBar, i);
                    FloatVector e2 = FloatVector.fromArray(S, fqyBar, i);
                    FloatVector e3 = FloatVector.fromArray(S, fqzBar, i);
                    zero.intoArray(fpxBar, i);
                    zero.intoArray(fpyBar, i);
                    zero.intoArray(fpzBar, i);
                    zero.intoArray(fqxBar, i);
                    zero.intoArray(fqyBar, i);
                    zero.intoArray(fqzBar, i);
                    FloatVector gpx = FloatVector.fromArray(S, tape, 2 * cells + k);
                    FloatVector gpy = FloatVector.fromArray(S, tape, 3 * cells + k);
                    FloatVector gpz = FloatVector.fromArray(S, tape, 4 * cells + k);
                    FloatVector gqx = FloatVector.fromArray(S, tape, 5 * cells + k);
                    FloatVector gqy = FloatVector.fromArray(S, tape, 6 * cells + k);
                    FloatVector gqz = FloatVector.fromArray(S, tape, 7 * cells + k);
                    FloatVector nxv = FloatVector.fromArray(S, ux, i);
                    FloatVector nyv = FloatVector.fromArray(S, uy, i);
                    FloatVector nzv = FloatVector.fromArray(S, uz, i);
                    FloatVector mx = FloatVector.fromArray(S, tx, i);
                    FloatVector my = FloatVector.fromArray(S, ty, i);
                    FloatVector mz = FloatVector.fromArray(S, tz, i);
                    FloatVector np = dot(nxv, nyv, nzv, a1, a2, a3);
                    FloatVector nq = dot(nxv, nyv, nzv, e1, e2, e3);
                    FloatVector dp = dot(nxv, nyv, nzv, gpx, gpy, gpz);
                    FloatVector dq = dot(nxv, nyv, nzv, gqx, gqy, gqz);
                    FloatVector tp = dot(mx, my, mz, a1, a2, a3);
                    FloatVector tq = dot(mx, my, mz, e1, e2, e3);
                    FloatVector sp = dot(mx, my, mz, gpx, gpy, gpz);
                    FloatVector sq = dot(mx, my, mz, gqx, gqy, gqz);
                    FloatVector fp = nxv.mul(a2).sub(nyv.mul(a1));
                    FloatVector fq = nxv.mul(e2).sub(nyv.mul(e1));
                    FloatVector rp = nxv.mul(gpy).sub(nyv.mul(gpx));
                    FloatVector rq = nxv.mul(gqy).sub(nyv.mul(gqx));
                    FloatVector.fromArray(S, gt, i).add(tp.mul(dp).add(np.mul(sp)).add(tq.mul(dq)).add(nq.mul(sq))
                            .mul(2.0f)).intoArray(gt, i);
                    FloatVector.fromArray(S, gf, i).add(fp.mul(dp).add(np.mul(rp)).add(fq.mul(dq)).add(nq.mul(rq))
                            .mul(2.0f)).intoArray(gf, i);
                    FloatVector ax = FloatVector.fromArray(S, prof, ox + x);
                    FloatVector bx = FloatVector.fromArray(S, prof, ox + nx + x);
                    VectorMask<Float> inBand = ax.compare(VectorOperators.NE, 0.0f);
                    FloatVector hp = np.mul(2.0f);
                    FloatVector hq = nq.mul(2.0f);
                    AcousticTtiVectorKernels.termAdjointX(hp.mul(nxv).sub(a1), spxBar, i, ax, bx, inBand)
                            .intoArray(wpx, i);
                    AcousticVtiVectorKernels.termAdjoint(hp.mul(nyv).sub(a2), spyBar, i, ay, by).intoArray(wpy, i);
                    AcousticVtiVectorKernels.termAdjoint(hp.mul(nzv).sub(a3), spzBar, i, az, bz).intoArray(wpz, i);
                    AcousticTtiVectorKernels.termAdjointX(hq.mul(nxv).sub(e1), sqxBar, i, ax, bx, inBand)
                            .intoArray(wqx, i);
                    AcousticVtiVectorKernels.termAdjoint(hq.mul(nyv).sub(e2), sqyBar, i, ay, by).intoArray(wqy, i);
                    AcousticVtiVectorKernels.termAdjoint(hq.mul(nzv).sub(e3), sqzBar, i, az, bz).intoArray(wqz, i);
                }
                for (; x < nx; x++) {
                    AcousticTti3dKernels.gradientAdjointPointCell(fpxBar, fpyBar, fpzBar, fqxBar, fqyBar, fqzBar,
                            spxBar, spyBar, spzBar, sqxBar, sqyBar, sqzBar, ux, uy, uz, tx, ty, tz, prof, wpx, wpy, wpz,
                            wqx, wqy, wqz, gt, gf, base, sz, sy, nz, ny, nx, z, y, x, tape);
                }
            }
        }
    }

    /** (a·u + b·v) + c·w per lane, the portable kernels' order. */
    private static FloatVector dot(FloatVector a, FloatVector b, FloatVector c, FloatVector u, FloatVector v,
                                   FloatVector w) {
        return a.mul(u).add(b.mul(v)).add(c.mul(w));
    }

    /**
     * {@link AcousticTti3dKernels#gradientAdjointGather} over the rows [z0, z1), the same bits: every row (z, y) in
     * whole vectors across x, its tail shorter than a vector portable.
     */
    static void gradientAdjointGather(float[] pbar, float[] qbar, float[] wpx, float[] wpy, float[] wpz, float[] wqx,
                                      float[] wqy, float[] wqz, float[] c, int h, int base, int sz, int sy, int ny,
                                      int nx, int z0, int z1) {
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int row = base + z * sz + y * sy;
                int x = 0;
                for (; x + S.length() <= nx; x += S.length()) {
                    int i = row + x;
                    FloatVector.fromArray(S, pbar, i).add(AcousticVtiVectorKernels.firstTransposed(wpx, i, 1, 2, c, h)
                            .add(AcousticVtiVectorKernels.firstTransposed(wpy, i, sy, 1, c, h))
                            .add(AcousticVtiVectorKernels.firstTransposed(wpz, i, sz, 0, c, h))).intoArray(pbar, i);
                    FloatVector.fromArray(S, qbar, i).add(AcousticVtiVectorKernels.firstTransposed(wqx, i, 1, 2, c, h)
                            .add(AcousticVtiVectorKernels.firstTransposed(wqy, i, sy, 1, c, h))
                            .add(AcousticVtiVectorKernels.firstTransposed(wqz, i, sz, 0, c, h))).intoArray(qbar, i);
                }
                for (; x < nx; x++) {
                    int i = row + x;
                    pbar[i] += AcousticVtiKernels.firstTransposed(wpx, i, 1, 2, c, h)
                            + AcousticVtiKernels.firstTransposed(wpy, i, sy, 1, c, h)
                            + AcousticVtiKernels.firstTransposed(wpz, i, sz, 0, c, h);
                    qbar[i] += AcousticVtiKernels.firstTransposed(wqx, i, 1, 2, c, h)
                            + AcousticVtiKernels.firstTransposed(wqy, i, sy, 1, c, h)
                            + AcousticVtiKernels.firstTransposed(wqz, i, sz, 0, c, h);
                }
            }
        }
    }
}
