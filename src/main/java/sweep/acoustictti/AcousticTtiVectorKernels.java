package sweep.acoustictti;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acoustictti.kernels.AcousticTtiKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;

/**
 * CPU-specialised variants of {@link AcousticTtiKernels#gradient} and {@link AcousticTtiKernels#update} for the Java
 * backend: the same arguments and, per cell, exactly the same sequence of float operations (no fused multiply-add).
 * Each row's cells with neither an x CPML term nor an x CPML cell within the stencil run in whole vectors across x,
 * with the row's z CPML terms (the same for the whole row); the x bands, their near cells and the tails shorter than
 * a vector run the portable per-cell kernels. Bit-identical to the portable kernels.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class AcousticTtiVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private AcousticTtiVectorKernels() {
    }

    /**
     * The first cell of the run of cells without an x CPML term (nor one within the stencil, where {@code near} is
     * given), and the end of the whole vectors from there within that run.
     */
    /** Each thread's row scratch for H p and Z q when not taping: held, so a forward step allocates nothing. */
    private static final ThreadLocal<float[]> ROWS = ThreadLocal.withInitial(() -> new float[0]);

    /** This thread's row scratch of at least {@code n} floats. */
    private static float[] rows(int n) {
        float[] r = ROWS.get();
        if (r.length < n) {
            r = new float[n];
            ROWS.set(r);
        }
        return r;
    }

    private static int[] plain(float[] prof, int[] near, int nz, int nx) {
        int ox = 4 * (nz + 1);
        int nearX = nz + 1;
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

    /** {@link AcousticTtiKernels#gradient} over the rows [z0, z1), the same bits. */
    static void gradient(float[] p, float[] q, float[] fpx, float[] fpz, float[] fqx, float[] fqz, float[] spx,
                         float[] spz, float[] sqx, float[] sqz, float[] rc, float[] rs, float[] prof, float[] c, int h,
                         int base, int sz, int nz, int nx, int z0, int z1, float[] tape, int taping) {
        int[] run = plain(prof, null, nz, nx);
        int lo = run[0];
        int end = run[1];
        int cells = nz * nx;
        for (int z = z0; z < z1; z++) {
            for (int x = 0; x < lo; x++) {
                AcousticTtiKernels.gradientCell(p, q, fpx, fpz, fqx, fqz, spx, spz, sqx, sqz, rc, rs, prof, c, h,
                        base, sz, nz, nx, z, x, tape, taping);
            }
            int row = base + z * sz;
            int tr = z * nx;
            fluxes(p, fpx, fpz, spz, rc, rs, prof, c, h, sz, nz, z, row, lo, end, tape, tr + 2 * cells,
                    tr + 3 * cells, taping);
            fluxes(q, fqx, fqz, sqz, rc, rs, prof, c, h, sz, nz, z, row, lo, end, tape, tr + 4 * cells,
                    tr + 5 * cells, taping);
            for (int x = end; x < nx; x++) {
                AcousticTtiKernels.gradientCell(p, q, fpx, fpz, fqx, fqz, spx, spz, sqx, sqz, rc, rs, prof, c, h,
                        base, sz, nz, nx, z, x, tape, taping);
            }
        }
    }

    /**
     * The fluxes fx, fz of u over the whole vectors [x0, x1) of row z (first cell {@code row}), without an x CPML
     * term, with the row's z term (its ψ in sz); D̃u along x and z taped from {@code tx} and {@code tz} on.
     */
    private static void fluxes(float[] u, float[] fx, float[] fz, float[] sz1, float[] rc, float[] rs, float[] prof,
                               float[] c, int h, int sz, int nz, int z, int row, int x0, int x1, float[] tape, int tx,
                               int tz, int taping) {
        int o1z = 3 * (h + 1);
        int o1x = 5 * (h + 1);
        float az = prof[z];
        float bz = prof[nz + z];
        for (int x = x0; x < x1; x += S.length()) {
            int i = row + x;
            FloatVector gx = FloatVector.zero(S);
            FloatVector gz = FloatVector.zero(S);
            for (int k = 1; k <= h; k++) {
                gx = gx.add(FloatVector.fromArray(S, u, i + k).sub(FloatVector.fromArray(S, u, i - k))
                        .mul(c[o1x + k]));
                gz = gz.add(FloatVector.fromArray(S, u, i + k * sz).sub(FloatVector.fromArray(S, u, i - k * sz))
                        .mul(c[o1z + k]));
            }
            if (az != 0.0f) {
                FloatVector t = FloatVector.fromArray(S, sz1, i).mul(az).add(gz.mul(bz));
                t.intoArray(sz1, i);
                gz = gz.add(t);
            }
            FloatVector vc = FloatVector.fromArray(S, rc, i);
            FloatVector vs = FloatVector.fromArray(S, rs, i);
            vs.mul(gz).sub(vc.mul(gx)).intoArray(fx, i);
            vs.mul(gx).add(vc.mul(gz)).intoArray(fz, i);
            if (taping == 1) {
                gx.intoArray(tape, tx + x);
                gz.intoArray(tape, tz + x);
            }
        }
    }

    /** {@link AcousticTtiKernels#update} over the rows [z0, z1), the same bits. */
    static void update(float[] p, float[] q, float[] pp, float[] qp, float[] psiPx, float[] zetaPx, float[] psiPz,
                       float[] zetaPz, float[] psiQx, float[] zetaQx, float[] psiQz, float[] zetaQz, float[] fpx,
                       float[] fpz, float[] fqx, float[] fqz, float[] xpx, float[] xpz, float[] xqx, float[] xqz,
                       float[] ah, float[] an, float[] a0, float[] prof, int[] near, float[] c, int h, int base,
                       int sz, int nz, int nx, int z0, int z1, float[] tape, int taping) {
        int[] run = plain(prof, near, nz, nx);
        int lo = run[0];
        int end = run[1];
        int cells = nz * nx;
        // H p and Z q of a row's vectors: into the tape's rows when taping, else into rows of their own
        float[] hz = taping == 1 ? tape : rows(2 * nx);
        for (int z = z0; z < z1; z++) {
            for (int x = 0; x < lo; x++) {
                AcousticTtiKernels.updateCell(p, q, pp, qp, psiPx, zetaPx, psiPz, zetaPz, psiQx, zetaQx, psiQz,
                        zetaQz, fpx, fpz, fqx, fqz, xpx, xpz, xqx, xqz, ah, an, a0, prof, near, c, h, base, sz, nz, nx,
                        z, x, tape, taping);
            }
            int row = base + z * sz;
            int th = taping == 1 ? z * nx : 0;
            int tz = taping == 1 ? cells + z * nx : nx;
            half(p, psiPz, zetaPz, fpx, fpz, xpz, -1.0f, prof, near, c, h, sz, nz, z, row, lo, end, hz, th);
            half(q, psiQz, zetaQz, fqx, fqz, xqz, 1.0f, prof, near, c, h, sz, nz, z, row, lo, end, hz, tz);
            levels(p, q, pp, qp, ah, an, a0, row, lo, end, hz, th, tz);
            for (int x = end; x < nx; x++) {
                AcousticTtiKernels.updateCell(p, q, pp, qp, psiPx, zetaPx, psiPz, zetaPz, psiQx, zetaQx, psiQz,
                        zetaQz, fpx, fpz, fqx, fqz, xpx, xpz, xqx, xqz, ah, an, a0, prof, near, c, h, base, sz, nz, nx,
                        z, x, tape, taping);
            }
        }
    }

    /**
     * ½(L u + sign·D̃·F) over the whole vectors [x0, x1) of row z into {@code out} from {@code to} + x on: the compact
     * Laplacian without an x CPML term and with the row's z term (ψ, ζ), the divergence of the fluxes fx, fz with the
     * row's z term (ξ in xz). {@code sign} is −1 (H p) or 1 (Z q): {@code lp - d} is {@code lp + (-d)} bit for bit.
     */
    private static void half(float[] u, float[] psi, float[] zeta, float[] fx, float[] fz, float[] xz, float sign,
                             float[] prof, int[] near, float[] c, int h, int sz, int nz, int z, int row, int x0,
                             int x1, float[] out, int to) {
        int o2x = 2 * (h + 1);
        int o1z = 3 * (h + 1);
        int o1x = 5 * (h + 1);
        float az = prof[z];
        float bz = prof[nz + z];
        boolean nearZ = near[z] == 1;
        for (int x = x0; x < x1; x += S.length()) {
            int i = row + x;
            FloatVector wx = FloatVector.fromArray(S, u, i).mul(c[o2x]);
            FloatVector wz = FloatVector.fromArray(S, u, i).mul(c[0]);
            for (int k = 1; k <= h; k++) {
                wx = wx.add(FloatVector.fromArray(S, u, i + k).add(FloatVector.fromArray(S, u, i - k))
                        .mul(c[o2x + k]));
                wz = wz.add(FloatVector.fromArray(S, u, i + k * sz).add(FloatVector.fromArray(S, u, i - k * sz))
                        .mul(c[k]));
            }
            if (nearZ) { // AcousticVtiKernels.term's near-band sum along z: which terms is the row's
                FloatVector d = FloatVector.zero(S);
                for (int k = 1; k <= h; k++) {
                    if (z + k < nz && prof[z + k] != 0.0f) {
                        d = d.add(FloatVector.fromArray(S, psi, i + k * sz).mul(c[o1z + k]));
                    }
                    if (z - k >= 0 && prof[z - k] != 0.0f) {
                        d = d.sub(FloatVector.fromArray(S, psi, i - k * sz).mul(c[o1z + k]));
                    }
                }
                wz = wz.add(d);
            }
            if (az != 0.0f) {
                FloatVector zt = FloatVector.fromArray(S, zeta, i).mul(az).add(wz.mul(bz));
                zt.intoArray(zeta, i);
                wz = wz.add(zt);
            }
            FloatVector dx = FloatVector.zero(S);
            FloatVector dz = FloatVector.zero(S);
            for (int k = 1; k <= h; k++) {
                dx = dx.add(FloatVector.fromArray(S, fx, i + k).sub(FloatVector.fromArray(S, fx, i - k))
                        .mul(c[o1x + k]));
                dz = dz.add(FloatVector.fromArray(S, fz, i + k * sz).sub(FloatVector.fromArray(S, fz, i - k * sz))
                        .mul(c[o1z + k]));
            }
            if (az != 0.0f) {
                FloatVector t = FloatVector.fromArray(S, xz, i).mul(az).add(dz.mul(bz));
                t.intoArray(xz, i);
                dz = dz.add(t);
            }
            FloatVector div = dx.add(dz);
            FloatVector l = wx.add(wz);
            (sign < 0.0f ? l.sub(div) : l.add(div)).mul(0.5f).intoArray(out, to + x);
        }
    }

    /** The new levels pp, qp of the whole vectors [x0, x1) of a row from H p at {@code th} and Z q at {@code tz}. */
    private static void levels(float[] p, float[] q, float[] pp, float[] qp, float[] ah, float[] an, float[] a0,
                               int row, int x0, int x1, float[] hz, int th, int tz) {
        for (int x = x0; x < x1; x += S.length()) {
            int i = row + x;
            FloatVector lh = FloatVector.fromArray(S, hz, th + x);
            FloatVector lz = FloatVector.fromArray(S, hz, tz + x);
            FloatVector van = FloatVector.fromArray(S, an, i);
            FloatVector.fromArray(S, p, i).mul(2.0f).sub(FloatVector.fromArray(S, pp, i))
                    .add(FloatVector.fromArray(S, ah, i).mul(lh)).add(van.mul(lz)).intoArray(pp, i);
            FloatVector.fromArray(S, q, i).mul(2.0f).sub(FloatVector.fromArray(S, qp, i))
                    .add(van.mul(lh)).add(FloatVector.fromArray(S, a0, i).mul(lz)).intoArray(qp, i);
        }
    }
}
