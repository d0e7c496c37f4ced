package sweep.acoustictti;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import sweep.acousticvti.AcousticVtiVectorKernels;
import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.acoustictti.kernels.AcousticTtiKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;

/**
 * CPU-specialised variants of {@link AcousticTtiKernels#gradient} and {@link AcousticTtiKernels#update} and of their
 * transposes for the Java backend: the same arguments and, per cell, exactly the same sequence of float operations
 * (no fused multiply-add). In the forward kernels each row's cells with neither an x CPML term nor an x CPML cell
 * within the stencil run in whole vectors across x, with the row's z CPML terms (the same for the whole row); the x
 * bands, their near cells and the tails shorter than a vector run the portable per-cell kernels. The transposes run
 * whole rows in vectors, the x CPML terms lane by lane. Bit-identical to the portable kernels.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class AcousticTtiVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;
    /** Each thread's row scratch for H p and Z q when not taping: held, so a forward step allocates nothing. */
    private static final ThreadLocal<float[]> ROWS = ThreadLocal.withInitial(() -> new float[0]);

    private AcousticTtiVectorKernels() {
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

    /**
     * The new levels pp, qp of the whole vectors [x0, x1) of a row from H p at {@code th} and Z q at {@code tz} (the
     * 3-D twins' too).
     */
    static void levels(float[] p, float[] q, float[] pp, float[] qp, float[] ah, float[] an, float[] a0,
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

    /**
     * {@link AcousticTtiKernels#updateAdjointPoint} over the rows [z0, z1), the same bits: every row in whole vectors
     * across x (the x CPML terms lane by lane, the z terms the row's), its tail shorter than a vector portable.
     */
    static void updateAdjointPoint(float[] pbar, float[] qbar, float[] ppbar, float[] qpbar, float[] zetaPxBar,
                                   float[] zetaPzBar, float[] zetaQxBar, float[] zetaQzBar, float[] xpxBar,
                                   float[] xpzBar, float[] xqxBar, float[] xqzBar, float[] ah, float[] an, float[] a0,
                                   float[] prof, float[] w0, float[] w1, float[] w2, float[] w3, float[] w4,
                                   float[] w5, float[] w6, float[] w7, float[] gh, float[] gn, float[] g0, int base,
                                   int sz, int nz, int nx, int z0, int z1, float[] tape) {
        int ox = 4 * (nz + 1);
        int cells = nz * nx;
        for (int z = z0; z < z1; z++) {
            int row = base + z * sz;
            int tr = z * nx;
            float az = prof[z];
            float bz = prof[nz + z];
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
                termAdjointX(lh, zetaPxBar, i, ax, bx, inBand).intoArray(w0, i);
                AcousticVtiVectorKernels.termAdjoint(lh, zetaPzBar, i, az, bz).intoArray(w1, i);
                termAdjointX(lz, zetaQxBar, i, ax, bx, inBand).intoArray(w2, i);
                AcousticVtiVectorKernels.termAdjoint(lz, zetaQzBar, i, az, bz).intoArray(w3, i);
                termAdjointX(mh, xpxBar, i, ax, bx, inBand).intoArray(w4, i);
                AcousticVtiVectorKernels.termAdjoint(mh, xpzBar, i, az, bz).intoArray(w5, i);
                termAdjointX(lz, xqxBar, i, ax, bx, inBand).intoArray(w6, i);
                AcousticVtiVectorKernels.termAdjoint(lz, xqzBar, i, az, bz).intoArray(w7, i);
                FloatVector.fromArray(S, pbar, i).add(pb.mul(2.0f)).intoArray(pbar, i);
                FloatVector.fromArray(S, qbar, i).add(qb.mul(2.0f)).intoArray(qbar, i);
                pb.neg().intoArray(ppbar, i);
                qb.neg().intoArray(qpbar, i);
            }
            for (; x < nx; x++) {
                AcousticTtiKernels.updateAdjointPointCell(pbar, qbar, ppbar, qpbar, zetaPxBar, zetaPzBar, zetaQxBar,
                        zetaQzBar, xpxBar, xpzBar, xqxBar, xqzBar, ah, an, a0, prof, w0, w1, w2, w3, w4, w5, w6, w7, gh,
                        gn, g0, base, sz, nz, nx, z, x, tape);
            }
        }
    }

    /**
     * {@code AcousticVtiKernels.termAdjoint} along x for a vector of cells, lane by lane: where a lane's decay ax is
     * not 0 its memory variable ζ̄ ← ax·(ζ̄ + g) and g + bx·(ζ̄ + g) is returned, elsewhere g.
     */
    static FloatVector termAdjointX(FloatVector g, float[] zetaBar, int i, FloatVector ax, FloatVector bx,
                                    VectorMask<Float> inBand) {
        if (!inBand.anyTrue()) {
            return g;
        }
        FloatVector pz = FloatVector.fromArray(S, zetaBar, i).add(g);
        ax.mul(pz).intoArray(zetaBar, i, inBand);
        return g.add(bx.mul(pz), inBand);
    }

    /**
     * {@link AcousticTtiKernels#updateAdjointGather} over the rows [z0, z1), the same bits: every row in whole vectors
     * across x (the compact CPML's ψ̄ along x updated lane by lane in the x bands), its tail shorter than a vector
     * portable.
     */
    static void updateAdjointGather(float[] pbar, float[] qbar, float[] psiPxBar, float[] psiPzBar, float[] psiQxBar,
                                    float[] psiQzBar, float[] fpxBar, float[] fpzBar, float[] fqxBar, float[] fqzBar,
                                    float[] w0, float[] w1, float[] w2, float[] w3, float[] w4, float[] w5,
                                    float[] w6, float[] w7, float[] prof, float[] c, int h, int base, int sz, int nz,
                                    int nx, int z0, int z1) {
        int ox = 4 * (nz + 1);
        for (int z = z0; z < z1; z++) {
            int row = base + z * sz;
            boolean bandZ = prof[z] != 0.0f;
            int x = 0;
            for (; x + S.length() <= nx; x += S.length()) {
                int i = row + x;
                FloatVector.fromArray(S, pbar, i).add(AcousticVtiVectorKernels.secondTransposed(w0, i, 1, 2, c, h)
                        .add(AcousticVtiVectorKernels.secondTransposed(w1, i, sz, 0, c, h))).intoArray(pbar, i);
                FloatVector.fromArray(S, qbar, i).add(AcousticVtiVectorKernels.secondTransposed(w2, i, 1, 2, c, h)
                        .add(AcousticVtiVectorKernels.secondTransposed(w3, i, sz, 0, c, h))).intoArray(qbar, i);
                VectorMask<Float> inBand = FloatVector.fromArray(S, prof, ox + x).compare(VectorOperators.NE, 0.0f);
                if (inBand.anyTrue()) {
                    addFirstTransposed(psiPxBar, w0, i, 1, 2, c, h, inBand);
                    addFirstTransposed(psiQxBar, w2, i, 1, 2, c, h, inBand);
                }
                if (bandZ) {
                    addFirstTransposed(psiPzBar, w1, i, sz, 0, c, h, null);
                    addFirstTransposed(psiQzBar, w3, i, sz, 0, c, h, null);
                }
                addFirstTransposed(fpxBar, w4, i, 1, 2, c, h, null);
                addFirstTransposed(fpzBar, w5, i, sz, 0, c, h, null);
                addFirstTransposed(fqxBar, w6, i, 1, 2, c, h, null);
                addFirstTransposed(fqzBar, w7, i, sz, 0, c, h, null);
            }
            for (; x < nx; x++) {
                AcousticTtiKernels.updateAdjointGatherCell(pbar, qbar, psiPxBar, psiPzBar, psiQxBar, psiQzBar, fpxBar,
                        fpzBar, fqxBar, fqzBar, w0, w1, w2, w3, w4, w5, w6, w7, prof, c, h, base, sz, nz, nx, z, x);
            }
        }
    }

    /** u += Dᵀw for a vector of cells at i (stride st, axis slot s), only in the lanes of {@code lanes} when given. */
    static void addFirstTransposed(float[] u, float[] w, int i, int st, int s, float[] c, int h,
                                   VectorMask<Float> lanes) {
        FloatVector r = FloatVector.fromArray(S, u, i).add(AcousticVtiVectorKernels.firstTransposed(w, i, st, s, c, h));
        if (lanes == null) {
            r.intoArray(u, i);
        } else {
            r.intoArray(u, i, lanes);
        }
    }

    /**
     * {@link AcousticTtiKernels#gradientAdjointPoint} over the rows [z0, z1), the same bits: every row in whole
     * vectors across x (the x CPML terms lane by lane, the z terms the row's), its tail shorter than a vector portable.
     */
    static void gradientAdjointPoint(float[] fpxBar, float[] fpzBar, float[] fqxBar, float[] fqzBar, float[] spxBar,
                                     float[] spzBar, float[] sqxBar, float[] sqzBar, float[] rc, float[] rs,
                                     float[] prof, float[] wpx, float[] wpz, float[] wqx, float[] wqz, float[] gt,
                                     int base, int sz, int nz, int nx, int z0, int z1, float[] tape) {
        int ox = 4 * (nz + 1);
        int cells = nz * nx;
        FloatVector zero = FloatVector.zero(S);
        for (int z = z0; z < z1; z++) {
            int row = base + z * sz;
            int tr = z * nx;
            float az = prof[z];
            float bz = prof[nz + z];
            int x = 0;
            for (; x + S.length() <= nx; x += S.length()) {
                int i = row + x;
                int k = tr + x;
                FloatVector a = FloatVector.fromArray(S, fpxBar, i);
                FloatVector b = FloatVector.fromArray(S, fpzBar, i);
                FloatVector e = FloatVector.fromArray(S, fqxBar, i);
                FloatVector f = FloatVector.fromArray(S, fqzBar, i);
                zero.intoArray(fpxBar, i);
                zero.intoArray(fpzBar, i);
                zero.intoArray(fqxBar, i);
                zero.intoArray(fqzBar, i);
                FloatVector gpx = FloatVector.fromArray(S, tape, 2 * cells + k);
                FloatVector gpz = FloatVector.fromArray(S, tape, 3 * cells + k);
                FloatVector gqx = FloatVector.fromArray(S, tape, 4 * cells + k);
                FloatVector gqz = FloatVector.fromArray(S, tape, 5 * cells + k);
                FloatVector vs = FloatVector.fromArray(S, rs, i);
                FloatVector vc = FloatVector.fromArray(S, rc, i);
                FloatVector s2 = vs.mul(2.0f);
                FloatVector c2 = vc.mul(2.0f);
                FloatVector dt = a.mul(s2.mul(gpx).add(c2.mul(gpz))).add(b.mul(c2.mul(gpx).sub(s2.mul(gpz))))
                        .add(e.mul(s2.mul(gqx).add(c2.mul(gqz)))).add(f.mul(c2.mul(gqx).sub(s2.mul(gqz))));
                FloatVector.fromArray(S, gt, i).add(dt).intoArray(gt, i);
                FloatVector ax = FloatVector.fromArray(S, prof, ox + x);
                FloatVector bx = FloatVector.fromArray(S, prof, ox + nx + x);
                VectorMask<Float> inBand = ax.compare(VectorOperators.NE, 0.0f);
                termAdjointX(vs.mul(b).sub(vc.mul(a)), spxBar, i, ax, bx, inBand).intoArray(wpx, i);
                AcousticVtiVectorKernels.termAdjoint(vs.mul(a).add(vc.mul(b)), spzBar, i, az, bz).intoArray(wpz, i);
                termAdjointX(vs.mul(f).sub(vc.mul(e)), sqxBar, i, ax, bx, inBand).intoArray(wqx, i);
                AcousticVtiVectorKernels.termAdjoint(vs.mul(e).add(vc.mul(f)), sqzBar, i, az, bz).intoArray(wqz, i);
            }
            for (; x < nx; x++) {
                AcousticTtiKernels.gradientAdjointPointCell(fpxBar, fpzBar, fqxBar, fqzBar, spxBar, spzBar, sqxBar,
                        sqzBar, rc, rs, prof, wpx, wpz, wqx, wqz, gt, base, sz, nz, nx, z, x, tape);
            }
        }
    }

    /**
     * {@link AcousticTtiKernels#gradientAdjointGather} over the rows [z0, z1), the same bits: every row in whole
     * vectors across x, its tail shorter than a vector portable.
     */
    static void gradientAdjointGather(float[] pbar, float[] qbar, float[] wpx, float[] wpz, float[] wqx, float[] wqz,
                                      float[] c, int h, int base, int sz, int nx, int z0, int z1) {
        for (int z = z0; z < z1; z++) {
            int row = base + z * sz;
            int x = 0;
            for (; x + S.length() <= nx; x += S.length()) {
                int i = row + x;
                FloatVector.fromArray(S, pbar, i).add(AcousticVtiVectorKernels.firstTransposed(wpx, i, 1, 2, c, h)
                        .add(AcousticVtiVectorKernels.firstTransposed(wpz, i, sz, 0, c, h))).intoArray(pbar, i);
                FloatVector.fromArray(S, qbar, i).add(AcousticVtiVectorKernels.firstTransposed(wqx, i, 1, 2, c, h)
                        .add(AcousticVtiVectorKernels.firstTransposed(wqz, i, sz, 0, c, h))).intoArray(qbar, i);
            }
            for (; x < nx; x++) {
                int i = row + x;
                pbar[i] += AcousticVtiKernels.firstTransposed(wpx, i, 1, 2, c, h)
                        + AcousticVtiKernels.firstTransposed(wpz, i, sz, 0, c, h);
                qbar[i] += AcousticVtiKernels.firstTransposed(wqx, i, 1, 2, c, h)
                        + AcousticVtiKernels.firstTransposed(wqz, i, sz, 0, c, h);
            }
        }
    }
}
