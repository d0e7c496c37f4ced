package sweep.elastic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the exact adjoint of the 2-D elastic step of {@link ElasticKernels2D}: the transposes of its sub-steps,
 * the forward sub-steps that also write what the gradient needs (the "tape"), and the inverse sub-steps that rebuild
 * the forward fields backwards in time for boundary saving. Arrays as in {@link ElasticLayout}; adjoint fields
 * {@code vb}, {@code sb}, {@code psib} have the layouts of v, s and psi.
 *
 * <p><b>Tape terms</b> are compact: component c of cell (z, x) of the computational grid at {@code c·NC + z·NX + x},
 * {@code NC = NZ·NX}. Velocity terms {@code tv = [Σ∂σ of vx, Σ∂σ of vz]} (each sum of the velocity update, CPML
 * terms included, the multiplier of dt/ρ); stress terms {@code ts = [exx, ezz, ezx + exz]} (strain rates, CPML terms
 * included).
 *
 * <p><b>Transposes.</b> Per derivative e = D·f at a node j with, in a band, ψ' = a·ψ + b·e and ẽ = e + ψ', the
 * update adds M·ẽ. Its transpose, with ẽ̄ = Mᵀ·(adjoint of the updated field) at j: ē = ẽ̄ + b·(ψ̄ + ẽ̄) and
 * ψ̄ ← a·(ψ̄ + ẽ̄), then f̄ += Dᵀ·ē. The gather kernels ({@link #stressAdjoint}, {@link #velocityAdjoint}) form ē at
 * each node they read from the old ψ̄, so the ψ̄ recursions ({@link #stressPsiAdjoint}, {@link #velocityPsiAdjoint})
 * run after them. Dᵀ of a forward difference D+ (reads f[j+k] − f[j−k+1]) gives f_i the weight +c_k from node
 * j = i−k and −c_k from j = i+k−1; of a backward difference D− (reads f[j+k−1] − f[j−k]) +c_k from j = i−k+1 and
 * −c_k from j = i+k. Memory variables exist on computational nodes only: a node outside [0, n) has none.
 *
 * <p>Each gather writes the cells of its own box only and reads its neighbours' adjoint values, so any split into
 * boxes gives the same bits. With a free surface the forward step reads the image rows above z = 0: their adjoint
 * values are gathered by {@link #stressAdjointImages} and {@link #velocityAdjointImages} (from the computational
 * nodes only) and folded back by {@link #freeSurfaceStressAdjoint} and {@link #freeSurfaceVelocityAdjoint}.
 */
public final class ElasticAdjointKernels2D {
    private ElasticAdjointKernels2D() {
    }

    /**
     * {@link ElasticKernels2D#velocity} that also writes its velocity terms into {@code tv} (compact); same arithmetic,
     * so the same bits in v and psi.
     */
    public static void velocityTaped(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef,
                                     int[] geo, float[] tv, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * nx;
        int cx = 2 * h;
        int fx = 4 * nz + 4 * ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float dxxx = 0.0f;
                float dzxz = 0.0f;
                float dxxz = 0.0f;
                float dzzz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float cz = coef[k - 1];
                    dxxx += ck * (s[i + k] - s[i - k + 1]);
                    dzxz += cz * (s[2 * len + i + (k - 1) * sz] - s[2 * len + i - k * sz]);
                    dxxz += ck * (s[2 * len + i + k - 1] - s[2 * len + i - k]);
                    dzzz += cz * (s[len + i + k * sz] - s[len + i - (k - 1) * sz]);
                }
                if (x < xbl | x >= xbhh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + z * wx + jx;
                    float p = prof[fx + 2 * nx + x] * psi[q] + prof[fx + 3 * nx + x] * dxxx;
                    psi[q] = p;
                    dxxx = dxxx + p;
                }
                if (x < xbl | x >= xbh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + slx + z * wx + jx;
                    float p = prof[fx + x] * psi[q] + prof[fx + nx + x] * dxxz;
                    psi[q] = p;
                    dxxz = dxxz + p;
                }
                if (zInt) {
                    int q = pz + jz * nx + x;
                    float p = prof[z] * psi[q] + prof[nz + z] * dzxz;
                    psi[q] = p;
                    dzxz = dzxz + p;
                }
                if (zHalf) {
                    int q = pz + slz + jz * nx + x;
                    float p = prof[2 * nz + z] * psi[q] + prof[3 * nz + z] * dzzz;
                    psi[q] = p;
                    dzzz = dzzz + p;
                }
                float tx = dxxx + dzxz;
                float tz = dxxz + dzzz;
                v[i] = v[i] + b[i] * tx;
                v[len + i] = v[len + i] + b[len + i] * tz;
                int c = z * nx + x;
                tv[c] = tx;
                tv[nc + c] = tz;
            }
        }
    }

    /**
     * {@link ElasticKernels2D#stress} that also writes its strain terms {@code [exx, ezz, ezx + exz]} into {@code ts}
     * (compact); same arithmetic, so the same bits in s and psi.
     */
    public static void stressTaped(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef,
                                   int[] geo, float[] ts, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * nx;
        int cx = 2 * h;
        int fx = 4 * nz + 4 * ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float exx = 0.0f;
                float ezz = 0.0f;
                float ezx = 0.0f;
                float exz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float cz = coef[k - 1];
                    exx += ck * (v[i + k - 1] - v[i - k]);
                    ezz += cz * (v[len + i + (k - 1) * sz] - v[len + i - k * sz]);
                    ezx += cz * (v[i + k * sz] - v[i - (k - 1) * sz]);
                    exz += ck * (v[len + i + k] - v[len + i - k + 1]);
                }
                if (x < xbl | x >= xbh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + 2 * slx + z * wx + jx;
                    float p = prof[fx + x] * psi[q] + prof[fx + nx + x] * exx;
                    psi[q] = p;
                    exx = exx + p;
                }
                if (x < xbl | x >= xbhh) {
                    int jx = x < xbl ? x : x - xbhh + xbl;
                    int q = px + 3 * slx + z * wx + jx;
                    float p = prof[fx + 2 * nx + x] * psi[q] + prof[fx + 3 * nx + x] * exz;
                    psi[q] = p;
                    exz = exz + p;
                }
                if (zInt) {
                    int q = pz + 2 * slz + jz * nx + x;
                    float p = prof[z] * psi[q] + prof[nz + z] * ezz;
                    psi[q] = p;
                    ezz = ezz + p;
                }
                if (zHalf) {
                    int q = pz + 3 * slz + jz * nx + x;
                    float p = prof[2 * nz + z] * psi[q] + prof[3 * nz + z] * ezx;
                    psi[q] = p;
                    ezx = ezx + p;
                }
                float lam = m[i];
                float l2m = m[len + i];
                float shear = ezx + exz;
                s[i] = s[i] + (l2m * exx + lam * ezz);
                s[len + i] = s[len + i] + (lam * exx + l2m * ezz);
                s[2 * len + i] = s[2 * len + i] + m[2 * len + i] * shear;
                int c = z * nx + x;
                ts[c] = exx;
                ts[nc + c] = ezz;
                ts[2 * nc + c] = shear;
            }
        }
    }

    /**
     * Transpose of the stress sub-step on the cells of [z0,z1)×[x0,x1) (computational rows): adds Dᵀ·ē of the strain
     * rates into the adjoint velocities {@code vb} (ē from m·σ̄ at the stress nodes read and their old ψ̄), and adds
     * the cell's moduli gradients into {@code gm} (layout of m): dJ/d(dtλ) += σ̄xx·ezz + σ̄zz·exx,
     * dJ/d(dt(λ+2μ)) += σ̄xx·exx + σ̄zz·ezz, dJ/d(dtμ) += σ̄xz·(ezx + exz), the strains from the compact terms
     * {@code ts} of this step.
     */
    public static void stressAdjoint(float[] vb, float[] sb, float[] m, float[] psib, float[] prof, float[] coef,
                                     int[] geo, float[] ts, float[] gm, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * nx;
        int cx = 2 * h;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float ax = 0.0f;
                float az = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float czk = coef[k - 1];
                    // vx from exx = D−x vx at the normal nodes x−k+1 (+) and x+k (−); x integer band, slot 2
                    int ja = i - k + 1;
                    int jb = i + k;
                    int xa = x - k + 1;
                    int xb = x + k;
                    float ea = m[l1 + ja] * sb[ja] + m[ja] * sb[l1 + ja];
                    float eb = m[l1 + jb] * sb[jb] + m[jb] * sb[l1 + jb];
                    if (xa >= 0 & xa < xbl | xa >= xbh & xa < nx) {
                        int q = px + 2 * slx + z * wx + (xa < xbl ? xa : xa - xbhh + xbl);
                        ea = ea + prof[fx + nx + xa] * (psib[q] + ea);
                    }
                    if (xb >= 0 & xb < xbl | xb >= xbh & xb < nx) {
                        int q = px + 2 * slx + z * wx + (xb < xbl ? xb : xb - xbhh + xbl);
                        eb = eb + prof[fx + nx + xb] * (psib[q] + eb);
                    }
                    ax += ck * (ea - eb);
                    // vx from ezx = D+z vx at the shear nodes z−k (+) and z+k−1 (−); z half band, slot 3
                    ja = i - k * sz;
                    jb = i + (k - 1) * sz;
                    int za = z - k;
                    int zb = z + k - 1;
                    ea = m[l2 + ja] * sb[l2 + ja];
                    eb = m[l2 + jb] * sb[l2 + jb];
                    if (za >= 0 & za < zbl | za >= zbhh & za < nz) {
                        int q = pz + 3 * slz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                        ea = ea + prof[3 * nz + za] * (psib[q] + ea);
                    }
                    if (zb >= 0 & zb < zbl | zb >= zbhh & zb < nz) {
                        int q = pz + 3 * slz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                        eb = eb + prof[3 * nz + zb] * (psib[q] + eb);
                    }
                    ax += czk * (ea - eb);
                    // vz from ezz = D−z vz at the normal nodes z−k+1 (+) and z+k (−); z integer band, slot 2
                    ja = i - (k - 1) * sz;
                    jb = i + k * sz;
                    za = z - k + 1;
                    zb = z + k;
                    ea = m[ja] * sb[ja] + m[l1 + ja] * sb[l1 + ja];
                    eb = m[jb] * sb[jb] + m[l1 + jb] * sb[l1 + jb];
                    if (za >= 0 & za < zbl | za >= zbh & za < nz) {
                        int q = pz + 2 * slz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                        ea = ea + prof[nz + za] * (psib[q] + ea);
                    }
                    if (zb >= 0 & zb < zbl | zb >= zbh & zb < nz) {
                        int q = pz + 2 * slz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                        eb = eb + prof[nz + zb] * (psib[q] + eb);
                    }
                    az += czk * (ea - eb);
                    // vz from exz = D+x vz at the shear nodes x−k (+) and x+k−1 (−); x half band, slot 3
                    ja = i - k;
                    jb = i + k - 1;
                    xa = x - k;
                    xb = x + k - 1;
                    ea = m[l2 + ja] * sb[l2 + ja];
                    eb = m[l2 + jb] * sb[l2 + jb];
                    if (xa >= 0 & xa < xbl | xa >= xbhh & xa < nx) {
                        int q = px + 3 * slx + z * wx + (xa < xbl ? xa : xa - xbhh + xbl);
                        ea = ea + prof[fx + 3 * nx + xa] * (psib[q] + ea);
                    }
                    if (xb >= 0 & xb < xbl | xb >= xbhh & xb < nx) {
                        int q = px + 3 * slx + z * wx + (xb < xbl ? xb : xb - xbhh + xbl);
                        eb = eb + prof[fx + 3 * nx + xb] * (psib[q] + eb);
                    }
                    az += ck * (ea - eb);
                }
                vb[i] = vb[i] + ax;
                vb[l1 + i] = vb[l1 + i] + az;
                int c = z * nx + x;
                float txx = ts[c];
                float tzz = ts[nc + c];
                float sxx = sb[i];
                float szz = sb[l1 + i];
                gm[i] = gm[i] + (sxx * tzz + szz * txx);
                gm[l1 + i] = gm[l1 + i] + (sxx * txx + szz * tzz);
                gm[l2 + i] = gm[l2 + i] + sb[l2 + i] * ts[2 * nc + c];
            }
        }
    }

    /**
     * The CPML memory-variable recursions of the stress transpose (after {@link #stressAdjoint}) on the band nodes of
     * the box: ψ̄ ← a·(ψ̄ + ẽ̄), ẽ̄ the node's m·σ̄ of that strain rate.
     */
    public static void stressPsiAdjoint(float[] sb, float[] m, float[] psib, float[] prof, int[] geo, int z0, int z1,
                                        int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int fx = 4 * nz + 4 * ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float lam = m[i];
                float l2m = m[len + i];
                float exx = l2m * sb[i] + lam * sb[len + i];
                float ezz = lam * sb[i] + l2m * sb[len + i];
                float es = m[2 * len + i] * sb[2 * len + i];
                if (x < xbl | x >= xbh) {
                    int q = px + 2 * slx + z * wx + (x < xbl ? x : x - xbhh + xbl);
                    psib[q] = prof[fx + x] * (psib[q] + exx);
                }
                if (x < xbl | x >= xbhh) {
                    int q = px + 3 * slx + z * wx + (x < xbl ? x : x - xbhh + xbl);
                    psib[q] = prof[fx + 2 * nx + x] * (psib[q] + es);
                }
                if (zInt) {
                    int q = pz + 2 * slz + jz * nx + x;
                    psib[q] = prof[z] * (psib[q] + ezz);
                }
                if (zHalf) {
                    int q = pz + 3 * slz + jz * nx + x;
                    psib[q] = prof[2 * nz + z] * (psib[q] + es);
                }
            }
        }
    }

    /**
     * Transpose of the velocity sub-step on the cells of the box (computational rows): adds Dᵀ·ē of the stress
     * derivatives into the adjoint stresses {@code sb} (ē from dt/ρ·v̄ at the velocity nodes read and their old ψ̄),
     * and adds the cell's buoyancy gradients into {@code gb} (layout of b): dJ/d(dt/ρ) += v̄·(velocity term of this
     * step, {@code tv}).
     */
    public static void velocityAdjoint(float[] sb, float[] vb, float[] b, float[] psib, float[] prof, float[] coef,
                                       int[] geo, float[] tv, float[] gb, int z0, int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * nx;
        int cx = 2 * h;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float axx = 0.0f;
                float azz = 0.0f;
                float axz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float czk = coef[k - 1];
                    // σxx from dxxx = D+x σxx at the vx nodes x−k (+) and x+k−1 (−); x half band, slot 0
                    int ja = i - k;
                    int jb = i + k - 1;
                    int xa = x - k;
                    int xb = x + k - 1;
                    float ea = b[ja] * vb[ja];
                    float eb = b[jb] * vb[jb];
                    if (xa >= 0 & xa < xbl | xa >= xbhh & xa < nx) {
                        int q = px + z * wx + (xa < xbl ? xa : xa - xbhh + xbl);
                        ea = ea + prof[fx + 3 * nx + xa] * (psib[q] + ea);
                    }
                    if (xb >= 0 & xb < xbl | xb >= xbhh & xb < nx) {
                        int q = px + z * wx + (xb < xbl ? xb : xb - xbhh + xbl);
                        eb = eb + prof[fx + 3 * nx + xb] * (psib[q] + eb);
                    }
                    axx += ck * (ea - eb);
                    // σzz from dzzz = D+z σzz at the vz nodes z−k (+) and z+k−1 (−); z half band, slot 1
                    ja = i - k * sz;
                    jb = i + (k - 1) * sz;
                    int za = z - k;
                    int zb = z + k - 1;
                    ea = b[l1 + ja] * vb[l1 + ja];
                    eb = b[l1 + jb] * vb[l1 + jb];
                    if (za >= 0 & za < zbl | za >= zbhh & za < nz) {
                        int q = pz + slz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                        ea = ea + prof[3 * nz + za] * (psib[q] + ea);
                    }
                    if (zb >= 0 & zb < zbl | zb >= zbhh & zb < nz) {
                        int q = pz + slz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                        eb = eb + prof[3 * nz + zb] * (psib[q] + eb);
                    }
                    azz += czk * (ea - eb);
                    // σxz from dzxz = D−z σxz at the vx nodes z−k+1 (+) and z+k (−); z integer band, slot 0
                    ja = i - (k - 1) * sz;
                    jb = i + k * sz;
                    za = z - k + 1;
                    zb = z + k;
                    ea = b[ja] * vb[ja];
                    eb = b[jb] * vb[jb];
                    if (za >= 0 & za < zbl | za >= zbh & za < nz) {
                        int q = pz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                        ea = ea + prof[nz + za] * (psib[q] + ea);
                    }
                    if (zb >= 0 & zb < zbl | zb >= zbh & zb < nz) {
                        int q = pz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                        eb = eb + prof[nz + zb] * (psib[q] + eb);
                    }
                    axz += czk * (ea - eb);
                    // σxz from dxxz = D−x σxz at the vz nodes x−k+1 (+) and x+k (−); x integer band, slot 1
                    ja = i - k + 1;
                    jb = i + k;
                    xa = x - k + 1;
                    xb = x + k;
                    ea = b[l1 + ja] * vb[l1 + ja];
                    eb = b[l1 + jb] * vb[l1 + jb];
                    if (xa >= 0 & xa < xbl | xa >= xbh & xa < nx) {
                        int q = px + slx + z * wx + (xa < xbl ? xa : xa - xbhh + xbl);
                        ea = ea + prof[fx + nx + xa] * (psib[q] + ea);
                    }
                    if (xb >= 0 & xb < xbl | xb >= xbh & xb < nx) {
                        int q = px + slx + z * wx + (xb < xbl ? xb : xb - xbhh + xbl);
                        eb = eb + prof[fx + nx + xb] * (psib[q] + eb);
                    }
                    axz += ck * (ea - eb);
                }
                sb[i] = sb[i] + axx;
                sb[l1 + i] = sb[l1 + i] + azz;
                sb[l2 + i] = sb[l2 + i] + axz;
                int c = z * nx + x;
                gb[i] = gb[i] + vb[i] * tv[c];
                gb[l1 + i] = gb[l1 + i] + vb[l1 + i] * tv[nc + c];
            }
        }
    }

    /**
     * The CPML memory-variable recursions of the velocity transpose (after {@link #velocityAdjoint}) on the band
     * nodes of the box: ψ̄ ← a·(ψ̄ + dt/ρ·v̄).
     */
    public static void velocityPsiAdjoint(float[] vb, float[] b, float[] psib, float[] prof, int[] geo, int z0, int z1,
                                          int x0, int x1) {
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int slx = geo[ElasticLayout.SLAB_X];
        int fx = 4 * nz + 4 * ny;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float ex = b[i] * vb[i];
                float ez = b[len + i] * vb[len + i];
                if (x < xbl | x >= xbhh) {
                    int q = px + z * wx + (x < xbl ? x : x - xbhh + xbl);
                    psib[q] = prof[fx + 2 * nx + x] * (psib[q] + ex);
                }
                if (x < xbl | x >= xbh) {
                    int q = px + slx + z * wx + (x < xbl ? x : x - xbhh + xbl);
                    psib[q] = prof[fx + x] * (psib[q] + ez);
                }
                if (zInt) {
                    int q = pz + jz * nx + x;
                    psib[q] = prof[z] * (psib[q] + ex);
                }
                if (zHalf) {
                    int q = pz + slz + jz * nx + x;
                    psib[q] = prof[2 * nz + z] * (psib[q] + ez);
                }
            }
        }
    }

    /**
     * Free surface: the adjoint velocities of the image rows above z = 0 that the stress sub-step reads (vx through
     * ∂z vx, vz through ∂z vz), over columns [x0, x1), gathered from the computational stress nodes only. Run after
     * {@link #stressAdjoint} and before {@link #freeSurfaceVelocityAdjoint} folds them back.
     */
    public static void stressAdjointImages(float[] vb, float[] sb, float[] m, float[] psib, float[] prof, float[] coef,
                                           int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int pz = geo[ElasticLayout.PSI_Z];
        int slz = geo[ElasticLayout.SLAB_Z];
        int l1 = len;
        int l2 = 2 * len;
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            for (int r = 1; r <= h; r++) {
                int z = -r;
                int i = off + z * sz + x;
                float ax = 0.0f;
                float az = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float czk = coef[k - 1];
                    // vx from ezx (D+z) at shear nodes z−k (+) and z+k−1 (−), computational rows only
                    int za = z - k;
                    int zb = z + k - 1;
                    float ea = 0.0f;
                    float eb = 0.0f;
                    if (za >= 0 & za < nz) {
                        int j = i - k * sz;
                        ea = m[l2 + j] * sb[l2 + j];
                        if (za < zbl | za >= zbhh) {
                            int q = pz + 3 * slz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                            ea = ea + prof[3 * nz + za] * (psib[q] + ea);
                        }
                    }
                    if (zb >= 0 & zb < nz) {
                        int j = i + (k - 1) * sz;
                        eb = m[l2 + j] * sb[l2 + j];
                        if (zb < zbl | zb >= zbhh) {
                            int q = pz + 3 * slz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                            eb = eb + prof[3 * nz + zb] * (psib[q] + eb);
                        }
                    }
                    ax += czk * (ea - eb);
                    // vz from ezz (D−z) at normal nodes z−k+1 (+) and z+k (−)
                    za = z - k + 1;
                    zb = z + k;
                    ea = 0.0f;
                    eb = 0.0f;
                    if (za >= 0 & za < nz) {
                        int j = i - (k - 1) * sz;
                        ea = m[j] * sb[j] + m[l1 + j] * sb[l1 + j];
                        if (za < zbl | za >= zbh) {
                            int q = pz + 2 * slz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                            ea = ea + prof[nz + za] * (psib[q] + ea);
                        }
                    }
                    if (zb >= 0 & zb < nz) {
                        int j = i + k * sz;
                        eb = m[j] * sb[j] + m[l1 + j] * sb[l1 + j];
                        if (zb < zbl | zb >= zbh) {
                            int q = pz + 2 * slz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                            eb = eb + prof[nz + zb] * (psib[q] + eb);
                        }
                    }
                    az += czk * (ea - eb);
                }
                vb[i] = vb[i] + ax;
                vb[l1 + i] = vb[l1 + i] + az;
            }
        }
    }

    /**
     * Free surface: the adjoint stresses of the image rows above z = 0 that the velocity sub-step reads (σzz through
     * ∂z σzz, σxz through ∂z σxz), over columns [x0, x1), gathered from the computational velocity nodes only. Run
     * after {@link #velocityAdjoint}; {@link #freeSurfaceStressAdjoint} folds them back.
     */
    public static void velocityAdjointImages(float[] sb, float[] vb, float[] b, float[] psib, float[] prof,
                                             float[] coef, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int pz = geo[ElasticLayout.PSI_Z];
        int slz = geo[ElasticLayout.SLAB_Z];
        int l1 = len;
        int l2 = 2 * len;
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            for (int r = 1; r <= h; r++) {
                int z = -r;
                int i = off + z * sz + x;
                float azz = 0.0f;
                float axz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float czk = coef[k - 1];
                    // σzz from dzzz (D+z) at vz nodes z−k (+) and z+k−1 (−)
                    int za = z - k;
                    int zb = z + k - 1;
                    float ea = 0.0f;
                    float eb = 0.0f;
                    if (za >= 0 & za < nz) {
                        int j = i - k * sz;
                        ea = b[l1 + j] * vb[l1 + j];
                        if (za < zbl | za >= zbhh) {
                            int q = pz + slz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                            ea = ea + prof[3 * nz + za] * (psib[q] + ea);
                        }
                    }
                    if (zb >= 0 & zb < nz) {
                        int j = i + (k - 1) * sz;
                        eb = b[l1 + j] * vb[l1 + j];
                        if (zb < zbl | zb >= zbhh) {
                            int q = pz + slz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                            eb = eb + prof[3 * nz + zb] * (psib[q] + eb);
                        }
                    }
                    azz += czk * (ea - eb);
                    // σxz from dzxz (D−z) at vx nodes z−k+1 (+) and z+k (−)
                    za = z - k + 1;
                    zb = z + k;
                    ea = 0.0f;
                    eb = 0.0f;
                    if (za >= 0 & za < nz) {
                        int j = i - (k - 1) * sz;
                        ea = b[j] * vb[j];
                        if (za < zbl | za >= zbh) {
                            int q = pz + (za < zbl ? za : za - zbhh + zbl) * nx + x;
                            ea = ea + prof[nz + za] * (psib[q] + ea);
                        }
                    }
                    if (zb >= 0 & zb < nz) {
                        int j = i + k * sz;
                        eb = b[j] * vb[j];
                        if (zb < zbl | zb >= zbh) {
                            int q = pz + (zb < zbl ? zb : zb - zbhh + zbl) * nx + x;
                            eb = eb + prof[nz + zb] * (psib[q] + eb);
                        }
                    }
                    axz += czk * (ea - eb);
                }
                sb[l1 + i] = sb[l1 + i] + azz;
                sb[l2 + i] = sb[l2 + i] + axz;
            }
        }
    }

    /**
     * Transpose of {@link ElasticKernels2D#freeSurfaceVelocity} over columns [x0, x1): for k = 1..h, v̄x(row k) −=
     * v̄x(row −k), v̄z(row k−1) += v̄z(row −k), and the image rows zeroed.
     */
    public static void freeSurfaceVelocityAdjoint(float[] vb, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            for (int k = 1; k <= h; k++) {
                vb[i + k * sz] = vb[i + k * sz] - vb[i - k * sz];
                vb[i - k * sz] = 0.0f;
                vb[len + i + (k - 1) * sz] = vb[len + i + (k - 1) * sz] + vb[len + i - k * sz];
                vb[len + i - k * sz] = 0.0f;
            }
        }
    }

    /**
     * Transpose of {@link ElasticKernels2D#freeSurfaceStress} over columns [x0, x1): for k = 1..h, σ̄zz(row k) −=
     * σ̄zz(row −k), σ̄xz(row k−1) −= σ̄xz(row −k), the image rows zeroed, then σ̄zz(0) = 0.
     */
    public static void freeSurfaceStressAdjoint(float[] sb, int[] geo, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
            int x = x0 + ix;
            int i = off + x;
            for (int k = 1; k <= h; k++) {
                sb[len + i + k * sz] = sb[len + i + k * sz] - sb[len + i - k * sz];
                sb[len + i - k * sz] = 0.0f;
                sb[2 * len + i + (k - 1) * sz] = sb[2 * len + i + (k - 1) * sz] - sb[2 * len + i - k * sz];
                sb[2 * len + i - k * sz] = 0.0f;
            }
            sb[len + i] = 0.0f;
        }
    }

    /**
     * Boundary saving, inverse stress sub-step on a box where no node lies in a band: with the strain rates of v
     * (written to the compact {@code ts}, the gradient's terms), σ −= m·e, undoing {@link ElasticKernels2D#stress} up
     * to float rounding.
     */
    public static void rebuildStress(float[] v, float[] s, float[] m, float[] coef, int[] geo, float[] ts, int z0,
                                     int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int nc = nz * nx;
        int cx = 2 * h;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float exx = 0.0f;
                float ezz = 0.0f;
                float ezx = 0.0f;
                float exz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float cz = coef[k - 1];
                    exx += ck * (v[i + k - 1] - v[i - k]);
                    ezz += cz * (v[len + i + (k - 1) * sz] - v[len + i - k * sz]);
                    ezx += cz * (v[i + k * sz] - v[i - (k - 1) * sz]);
                    exz += ck * (v[len + i + k] - v[len + i - k + 1]);
                }
                float lam = m[i];
                float l2m = m[len + i];
                float shear = ezx + exz;
                s[i] = s[i] - (l2m * exx + lam * ezz);
                s[len + i] = s[len + i] - (lam * exx + l2m * ezz);
                s[2 * len + i] = s[2 * len + i] - m[2 * len + i] * shear;
                int c = z * nx + x;
                ts[c] = exx;
                ts[nc + c] = ezz;
                ts[2 * nc + c] = shear;
            }
        }
    }

    /**
     * Boundary saving, inverse velocity sub-step on a box where no node lies in a band: with the stress derivatives
     * of s (written to the compact {@code tv}), v −= dt/ρ·d, undoing {@link ElasticKernels2D#velocity} up to float
     * rounding.
     */
    public static void rebuildVelocity(float[] v, float[] s, float[] b, float[] coef, int[] geo, float[] tv, int z0,
                                       int z1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int nx = geo[Layout.NX];
        int nc = nz * nx;
        int cx = 2 * h;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + z * sz + x;
                float dxxx = 0.0f;
                float dzxz = 0.0f;
                float dxxz = 0.0f;
                float dzzz = 0.0f;
                for (int k = 1; k <= h; k++) {
                    float ck = coef[cx + k - 1];
                    float cz = coef[k - 1];
                    dxxx += ck * (s[i + k] - s[i - k + 1]);
                    dzxz += cz * (s[2 * len + i + (k - 1) * sz] - s[2 * len + i - k * sz]);
                    dxxz += ck * (s[2 * len + i + k - 1] - s[2 * len + i - k]);
                    dzzz += cz * (s[len + i + k * sz] - s[len + i - (k - 1) * sz]);
                }
                float tx = dxxx + dzxz;
                float tz = dxxz + dzzz;
                v[i] = v[i] - b[i] * tx;
                v[len + i] = v[len + i] - b[len + i] * tz;
                int c = z * nx + x;
                tv[c] = tx;
                tv[nc + c] = tz;
            }
        }
    }
}
