package sweep.elastic.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * Kernels of the exact adjoint of the 3-D elastic step of {@link ElasticKernels3D}: the 3-D counterparts of
 * {@link ElasticAdjointKernels2D} (which describes the transposes, the order of the passes, the tape and the
 * free-surface images), over boxes [z0,z1)×[y0,y1)×[x0,x1). Arrays as in {@link ElasticLayout}.
 *
 * <p>Tape terms are compact, component c of computational cell (z, y, x) at {@code c·NC + (z·NY + y)·NX + x},
 * {@code NC = NZ·NY·NX}: velocity terms {@code tv = [vx, vy, vz]} (each the sum multiplying dt/ρ, CPML terms
 * included), strain terms {@code ts = [exx, eyy, ezz, eyx + exy, ezx + exz, ezy + eyz]}.
 */
public final class ElasticAdjointKernels3D {
    private ElasticAdjointKernels3D() {
    }

    /**
     * {@link ElasticKernels3D#velocity} that also writes its velocity terms into {@code tv} (compact); same arithmetic,
     * so the same bits in v and psi.
     */
    public static void velocityTaped(float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef,
                                     int[] geo, float[] tv, int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int s1 = len;
        int s2 = 2 * len;
        int s3 = 3 * len;
        int s4 = 4 * len;
        int s5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                boolean yInt = y < ybl | y >= ybh;
                boolean yHalf = y < ybl | y >= ybhh;
                int jy = y < ybl ? y : y - ybhh + ybl;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float dxxx = 0.0f;
                    float dyxy = 0.0f;
                    float dzxz = 0.0f;
                    float dxxy = 0.0f;
                    float dyyy = 0.0f;
                    float dzyz = 0.0f;
                    float dxxz = 0.0f;
                    float dyyz = 0.0f;
                    float dzzz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        dxxx += ck * (s[i + k] - s[i - k + 1]);
                        dyxy += cyk * (s[s3 + i + (k - 1) * sy] - s[s3 + i - k * sy]);
                        dzxz += czk * (s[s4 + i + (k - 1) * sz] - s[s4 + i - k * sz]);
                        dxxy += ck * (s[s3 + i + k - 1] - s[s3 + i - k]);
                        dyyy += cyk * (s[s1 + i + k * sy] - s[s1 + i - (k - 1) * sy]);
                        dzyz += czk * (s[s5 + i + (k - 1) * sz] - s[s5 + i - k * sz]);
                        dxxz += ck * (s[s4 + i + k - 1] - s[s4 + i - k]);
                        dyyz += cyk * (s[s5 + i + (k - 1) * sy] - s[s5 + i - k * sy]);
                        dzzz += czk * (s[s2 + i + k * sz] - s[s2 + i - (k - 1) * sz]);
                    }
                    boolean xInt = x < xbl | x >= xbh;
                    boolean xHalf = x < xbl | x >= xbhh;
                    if (xInt | xHalf) {
                        int q = px + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                        if (xHalf) {
                            float p = prof[fx + 2 * nx + x] * psi[q] + prof[fx + 3 * nx + x] * dxxx;
                            psi[q] = p;
                            dxxx = dxxx + p;
                        }
                        if (xInt) {
                            float a = prof[fx + x];
                            float bb = prof[fx + nx + x];
                            float p1 = a * psi[q + slx] + bb * dxxy;
                            psi[q + slx] = p1;
                            dxxy = dxxy + p1;
                            float p2 = a * psi[q + 2 * slx] + bb * dxxz;
                            psi[q + 2 * slx] = p2;
                            dxxz = dxxz + p2;
                        }
                    }
                    if (yInt | yHalf) {
                        int q = py + (z * wy + jy) * nx + x;
                        if (yInt) {
                            float a = prof[fy + y];
                            float bb = prof[fy + ny + y];
                            float p0 = a * psi[q] + bb * dyxy;
                            psi[q] = p0;
                            dyxy = dyxy + p0;
                            float p2 = a * psi[q + 2 * sly] + bb * dyyz;
                            psi[q + 2 * sly] = p2;
                            dyyz = dyyz + p2;
                        }
                        if (yHalf) {
                            float p = prof[fy + 2 * ny + y] * psi[q + sly] + prof[fy + 3 * ny + y] * dyyy;
                            psi[q + sly] = p;
                            dyyy = dyyy + p;
                        }
                    }
                    if (zInt | zHalf) {
                        int q = pz + (jz * ny + y) * nx + x;
                        if (zInt) {
                            float a = prof[z];
                            float bb = prof[nz + z];
                            float p0 = a * psi[q] + bb * dzxz;
                            psi[q] = p0;
                            dzxz = dzxz + p0;
                            float p1 = a * psi[q + slz] + bb * dzyz;
                            psi[q + slz] = p1;
                            dzyz = dzyz + p1;
                        }
                        if (zHalf) {
                            float p = prof[2 * nz + z] * psi[q + 2 * slz] + prof[3 * nz + z] * dzzz;
                            psi[q + 2 * slz] = p;
                            dzzz = dzzz + p;
                        }
                    }
                    float tx = dxxx + dyxy + dzxz;
                    float ty = dxxy + dyyy + dzyz;
                    float tz = dxxz + dyyz + dzzz;
                    v[i] = v[i] + b[i] * tx;
                    v[len + i] = v[len + i] + b[len + i] * ty;
                    v[2 * len + i] = v[2 * len + i] + b[2 * len + i] * tz;
                    int c = (z * ny + y) * nx + x;
                    tv[c] = tx;
                    tv[nc + c] = ty;
                    tv[2 * nc + c] = tz;
                }
            }
        }
    }

    /**
     * {@link ElasticKernels3D#stress} that also writes its strain terms {@code [exx, eyy, ezz, eyx + exy, ezx + exz,
     * ezy + eyz]} into {@code ts} (compact); same arithmetic, so the same bits in s and psi.
     */
    public static void stressTaped(float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef,
                                   int[] geo, float[] ts, int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int v1 = len;
        int v2 = 2 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                boolean yInt = y < ybl | y >= ybh;
                boolean yHalf = y < ybl | y >= ybhh;
                int jy = y < ybl ? y : y - ybhh + ybl;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float exx = 0.0f;
                    float eyy = 0.0f;
                    float ezz = 0.0f;
                    float eyx = 0.0f;
                    float exy = 0.0f;
                    float ezx = 0.0f;
                    float exz = 0.0f;
                    float ezy = 0.0f;
                    float eyz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        exx += ck * (v[i + k - 1] - v[i - k]);
                        eyy += cyk * (v[v1 + i + (k - 1) * sy] - v[v1 + i - k * sy]);
                        ezz += czk * (v[v2 + i + (k - 1) * sz] - v[v2 + i - k * sz]);
                        eyx += cyk * (v[i + k * sy] - v[i - (k - 1) * sy]);
                        exy += ck * (v[v1 + i + k] - v[v1 + i - k + 1]);
                        ezx += czk * (v[i + k * sz] - v[i - (k - 1) * sz]);
                        exz += ck * (v[v2 + i + k] - v[v2 + i - k + 1]);
                        ezy += czk * (v[v1 + i + k * sz] - v[v1 + i - (k - 1) * sz]);
                        eyz += cyk * (v[v2 + i + k * sy] - v[v2 + i - (k - 1) * sy]);
                    }
                    boolean xInt = x < xbl | x >= xbh;
                    boolean xHalf = x < xbl | x >= xbhh;
                    if (xInt | xHalf) {
                        int q = px + 3 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                        if (xInt) {
                            float p = prof[fx + x] * psi[q] + prof[fx + nx + x] * exx;
                            psi[q] = p;
                            exx = exx + p;
                        }
                        if (xHalf) {
                            float a = prof[fx + 2 * nx + x];
                            float bb = prof[fx + 3 * nx + x];
                            float p4 = a * psi[q + slx] + bb * exy;
                            psi[q + slx] = p4;
                            exy = exy + p4;
                            float p5 = a * psi[q + 2 * slx] + bb * exz;
                            psi[q + 2 * slx] = p5;
                            exz = exz + p5;
                        }
                    }
                    if (yInt | yHalf) {
                        int q = py + 3 * sly + (z * wy + jy) * nx + x;
                        if (yInt) {
                            float p = prof[fy + y] * psi[q] + prof[fy + ny + y] * eyy;
                            psi[q] = p;
                            eyy = eyy + p;
                        }
                        if (yHalf) {
                            float a = prof[fy + 2 * ny + y];
                            float bb = prof[fy + 3 * ny + y];
                            float p4 = a * psi[q + sly] + bb * eyx;
                            psi[q + sly] = p4;
                            eyx = eyx + p4;
                            float p5 = a * psi[q + 2 * sly] + bb * eyz;
                            psi[q + 2 * sly] = p5;
                            eyz = eyz + p5;
                        }
                    }
                    if (zInt | zHalf) {
                        int q = pz + 3 * slz + (jz * ny + y) * nx + x;
                        if (zInt) {
                            float p = prof[z] * psi[q] + prof[nz + z] * ezz;
                            psi[q] = p;
                            ezz = ezz + p;
                        }
                        if (zHalf) {
                            float a = prof[2 * nz + z];
                            float bb = prof[3 * nz + z];
                            float p4 = a * psi[q + slz] + bb * ezx;
                            psi[q + slz] = p4;
                            ezx = ezx + p4;
                            float p5 = a * psi[q + 2 * slz] + bb * ezy;
                            psi[q + 2 * slz] = p5;
                            ezy = ezy + p5;
                        }
                    }
                    float lam = m[i];
                    float l2m = m[len + i];
                    s[i] = s[i] + (l2m * exx + lam * (eyy + ezz));
                    s[len + i] = s[len + i] + (l2m * eyy + lam * (exx + ezz));
                    s[2 * len + i] = s[2 * len + i] + (l2m * ezz + lam * (exx + eyy));
                    float sxy = eyx + exy;
                    float sxz = ezx + exz;
                    float syz = ezy + eyz;
                    s[3 * len + i] = s[3 * len + i] + m[2 * len + i] * sxy;
                    s[4 * len + i] = s[4 * len + i] + m[3 * len + i] * sxz;
                    s[5 * len + i] = s[5 * len + i] + m[4 * len + i] * syz;
                    int c = (z * ny + y) * nx + x;
                    ts[c] = exx;
                    ts[nc + c] = eyy;
                    ts[2 * nc + c] = ezz;
                    ts[3 * nc + c] = sxy;
                    ts[4 * nc + c] = sxz;
                    ts[5 * nc + c] = syz;
                }
            }
        }
    }

    /**
     * Transpose of the stress sub-step on the cells of the box (computational rows): adds Dᵀ·ē of the strain rates
     * into the adjoint velocities {@code vb} (ē from m·σ̄ at the stress nodes read and their old ψ̄), and adds the
     * cell's moduli gradients into {@code gm} (layout of m): dJ/d(dtλ) += σ̄xx·(eyy + ezz) + σ̄yy·(exx + ezz) +
     * σ̄zz·(exx + eyy), dJ/d(dt(λ+2μ)) += σ̄xx·exx + σ̄yy·eyy + σ̄zz·ezz, dJ/d(dtμ··) += σ̄···(shear term), the strains
     * from the compact terms {@code ts} of this step.
     */
    public static void stressAdjoint(float[] vb, float[] sb, float[] m, float[] psib, float[] prof, float[] coef,
                                     int[] geo, float[] ts, float[] gm, int z0, int z1, int y0, int y1, int x0,
                                     int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        int l3 = 3 * len;
        int l4 = 4 * len;
        int l5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float ax = 0.0f;
                    float ay = 0.0f;
                    float az = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        int ja;
                        int jb;
                        int ca;
                        int cb;
                        float ea;
                        float eb;
                        // vx from exx = D−x vx at the normal nodes; x integer band, slot 3
                        ja = i - (k - 1);
                        jb = i + k;
                        ca = x - k + 1;
                        cb = x + k;
                        ea = m[l1 + ja] * sb[ja] + m[ja] * (sb[l1 + ja] + sb[l2 + ja]);
                        eb = m[l1 + jb] * sb[jb] + m[jb] * (sb[l1 + jb] + sb[l2 + jb]);
                        if (ca >= 0 & ca < xbl | ca >= xbh & ca < nx) {
                            int q = px + 3 * slx + (z * ny + y) * wx + (ca < xbl ? ca : ca - xbhh + xbl);
                            ea = ea + prof[fx + nx + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < xbl | cb >= xbh & cb < nx) {
                            int q = px + 3 * slx + (z * ny + y) * wx + (cb < xbl ? cb : cb - xbhh + xbl);
                            eb = eb + prof[fx + nx + cb] * (psib[q] + eb);
                        }
                        ax += ck * (ea - eb);
                        // vx from eyx = D+y vx at the σxy nodes; y half band, slot 4
                        ja = i - k * sy;
                        jb = i + (k - 1) * sy;
                        ca = y - k;
                        cb = y + k - 1;
                        ea = m[l2 + ja] * sb[l3 + ja];
                        eb = m[l2 + jb] * sb[l3 + jb];
                        if (ca >= 0 & ca < ybl | ca >= ybhh & ca < ny) {
                            int q = py + 4 * sly + (z * wy + (ca < ybl ? ca : ca - ybhh + ybl)) * nx + x;
                            ea = ea + prof[fy + 3 * ny + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < ybl | cb >= ybhh & cb < ny) {
                            int q = py + 4 * sly + (z * wy + (cb < ybl ? cb : cb - ybhh + ybl)) * nx + x;
                            eb = eb + prof[fy + 3 * ny + cb] * (psib[q] + eb);
                        }
                        ax += cyk * (ea - eb);
                        // vx from ezx = D+z vx at the σxz nodes; z half band, slot 4
                        ja = i - k * sz;
                        jb = i + (k - 1) * sz;
                        ca = z - k;
                        cb = z + k - 1;
                        ea = m[l3 + ja] * sb[l4 + ja];
                        eb = m[l3 + jb] * sb[l4 + jb];
                        if (ca >= 0 & ca < zbl | ca >= zbhh & ca < nz) {
                            int q = pz + 4 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                            ea = ea + prof[3 * nz + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < zbl | cb >= zbhh & cb < nz) {
                            int q = pz + 4 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                            eb = eb + prof[3 * nz + cb] * (psib[q] + eb);
                        }
                        ax += czk * (ea - eb);
                        // vy from eyy = D−y vy at the normal nodes; y integer band, slot 3
                        ja = i - (k - 1) * sy;
                        jb = i + k * sy;
                        ca = y - k + 1;
                        cb = y + k;
                        ea = m[l1 + ja] * sb[l1 + ja] + m[ja] * (sb[ja] + sb[l2 + ja]);
                        eb = m[l1 + jb] * sb[l1 + jb] + m[jb] * (sb[jb] + sb[l2 + jb]);
                        if (ca >= 0 & ca < ybl | ca >= ybh & ca < ny) {
                            int q = py + 3 * sly + (z * wy + (ca < ybl ? ca : ca - ybhh + ybl)) * nx + x;
                            ea = ea + prof[fy + ny + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < ybl | cb >= ybh & cb < ny) {
                            int q = py + 3 * sly + (z * wy + (cb < ybl ? cb : cb - ybhh + ybl)) * nx + x;
                            eb = eb + prof[fy + ny + cb] * (psib[q] + eb);
                        }
                        ay += cyk * (ea - eb);
                        // vy from exy = D+x vy at the σxy nodes; x half band, slot 4
                        ja = i - k;
                        jb = i + (k - 1);
                        ca = x - k;
                        cb = x + k - 1;
                        ea = m[l2 + ja] * sb[l3 + ja];
                        eb = m[l2 + jb] * sb[l3 + jb];
                        if (ca >= 0 & ca < xbl | ca >= xbhh & ca < nx) {
                            int q = px + 4 * slx + (z * ny + y) * wx + (ca < xbl ? ca : ca - xbhh + xbl);
                            ea = ea + prof[fx + 3 * nx + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < xbl | cb >= xbhh & cb < nx) {
                            int q = px + 4 * slx + (z * ny + y) * wx + (cb < xbl ? cb : cb - xbhh + xbl);
                            eb = eb + prof[fx + 3 * nx + cb] * (psib[q] + eb);
                        }
                        ay += ck * (ea - eb);
                        // vy from ezy = D+z vy at the σyz nodes; z half band, slot 5
                        ja = i - k * sz;
                        jb = i + (k - 1) * sz;
                        ca = z - k;
                        cb = z + k - 1;
                        ea = m[l4 + ja] * sb[l5 + ja];
                        eb = m[l4 + jb] * sb[l5 + jb];
                        if (ca >= 0 & ca < zbl | ca >= zbhh & ca < nz) {
                            int q = pz + 5 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                            ea = ea + prof[3 * nz + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < zbl | cb >= zbhh & cb < nz) {
                            int q = pz + 5 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                            eb = eb + prof[3 * nz + cb] * (psib[q] + eb);
                        }
                        ay += czk * (ea - eb);
                        // vz from ezz = D−z vz at the normal nodes; z integer band, slot 3
                        ja = i - (k - 1) * sz;
                        jb = i + k * sz;
                        ca = z - k + 1;
                        cb = z + k;
                        ea = m[l1 + ja] * sb[l2 + ja] + m[ja] * (sb[ja] + sb[l1 + ja]);
                        eb = m[l1 + jb] * sb[l2 + jb] + m[jb] * (sb[jb] + sb[l1 + jb]);
                        if (ca >= 0 & ca < zbl | ca >= zbh & ca < nz) {
                            int q = pz + 3 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                            ea = ea + prof[nz + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < zbl | cb >= zbh & cb < nz) {
                            int q = pz + 3 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                            eb = eb + prof[nz + cb] * (psib[q] + eb);
                        }
                        az += czk * (ea - eb);
                        // vz from exz = D+x vz at the σxz nodes; x half band, slot 5
                        ja = i - k;
                        jb = i + (k - 1);
                        ca = x - k;
                        cb = x + k - 1;
                        ea = m[l3 + ja] * sb[l4 + ja];
                        eb = m[l3 + jb] * sb[l4 + jb];
                        if (ca >= 0 & ca < xbl | ca >= xbhh & ca < nx) {
                            int q = px + 5 * slx + (z * ny + y) * wx + (ca < xbl ? ca : ca - xbhh + xbl);
                            ea = ea + prof[fx + 3 * nx + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < xbl | cb >= xbhh & cb < nx) {
                            int q = px + 5 * slx + (z * ny + y) * wx + (cb < xbl ? cb : cb - xbhh + xbl);
                            eb = eb + prof[fx + 3 * nx + cb] * (psib[q] + eb);
                        }
                        az += ck * (ea - eb);
                        // vz from eyz = D+y vz at the σyz nodes; y half band, slot 5
                        ja = i - k * sy;
                        jb = i + (k - 1) * sy;
                        ca = y - k;
                        cb = y + k - 1;
                        ea = m[l4 + ja] * sb[l5 + ja];
                        eb = m[l4 + jb] * sb[l5 + jb];
                        if (ca >= 0 & ca < ybl | ca >= ybhh & ca < ny) {
                            int q = py + 5 * sly + (z * wy + (ca < ybl ? ca : ca - ybhh + ybl)) * nx + x;
                            ea = ea + prof[fy + 3 * ny + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < ybl | cb >= ybhh & cb < ny) {
                            int q = py + 5 * sly + (z * wy + (cb < ybl ? cb : cb - ybhh + ybl)) * nx + x;
                            eb = eb + prof[fy + 3 * ny + cb] * (psib[q] + eb);
                        }
                        az += cyk * (ea - eb);
                    }
                    vb[i] = vb[i] + ax;
                    vb[l1 + i] = vb[l1 + i] + ay;
                    vb[l2 + i] = vb[l2 + i] + az;
                    int c = (z * ny + y) * nx + x;
                    float txx = ts[c];
                    float tyy = ts[nc + c];
                    float tzz = ts[2 * nc + c];
                    float sxx = sb[i];
                    float syy = sb[l1 + i];
                    float szz = sb[l2 + i];
                    gm[i] = gm[i] + (sxx * (tyy + tzz) + syy * (txx + tzz) + szz * (txx + tyy));
                    gm[l1 + i] = gm[l1 + i] + (sxx * txx + syy * tyy + szz * tzz);
                    gm[l2 + i] = gm[l2 + i] + sb[l3 + i] * ts[3 * nc + c];
                    gm[l3 + i] = gm[l3 + i] + sb[l4 + i] * ts[4 * nc + c];
                    gm[l4 + i] = gm[l4 + i] + sb[l5 + i] * ts[5 * nc + c];
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
                                       int[] geo, float[] tv, float[] gb, int z0, int z1, int y0, int y1, int x0,
                                       int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        int l3 = 3 * len;
        int l4 = 4 * len;
        int l5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float axx = 0.0f;
                    float ayy = 0.0f;
                    float azz = 0.0f;
                    float axy = 0.0f;
                    float axz = 0.0f;
                    float ayz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        int ja;
                        int jb;
                        int ca;
                        int cb;
                        float ea;
                        float eb;
                        // σxx from dxxx = D+x σxx at the vx nodes; x half band, slot 0
                        ja = i - k;
                        jb = i + (k - 1);
                        ca = x - k;
                        cb = x + k - 1;
                        ea = b[ja] * vb[ja];
                        eb = b[jb] * vb[jb];
                        if (ca >= 0 & ca < xbl | ca >= xbhh & ca < nx) {
                            int q = px + (z * ny + y) * wx + (ca < xbl ? ca : ca - xbhh + xbl);
                            ea = ea + prof[fx + 3 * nx + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < xbl | cb >= xbhh & cb < nx) {
                            int q = px + (z * ny + y) * wx + (cb < xbl ? cb : cb - xbhh + xbl);
                            eb = eb + prof[fx + 3 * nx + cb] * (psib[q] + eb);
                        }
                        axx += ck * (ea - eb);
                        // σyy from dyyy = D+y σyy at the vy nodes; y half band, slot 1
                        ja = i - k * sy;
                        jb = i + (k - 1) * sy;
                        ca = y - k;
                        cb = y + k - 1;
                        ea = b[l1 + ja] * vb[l1 + ja];
                        eb = b[l1 + jb] * vb[l1 + jb];
                        if (ca >= 0 & ca < ybl | ca >= ybhh & ca < ny) {
                            int q = py + 1 * sly + (z * wy + (ca < ybl ? ca : ca - ybhh + ybl)) * nx + x;
                            ea = ea + prof[fy + 3 * ny + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < ybl | cb >= ybhh & cb < ny) {
                            int q = py + 1 * sly + (z * wy + (cb < ybl ? cb : cb - ybhh + ybl)) * nx + x;
                            eb = eb + prof[fy + 3 * ny + cb] * (psib[q] + eb);
                        }
                        ayy += cyk * (ea - eb);
                        // σzz from dzzz = D+z σzz at the vz nodes; z half band, slot 2
                        ja = i - k * sz;
                        jb = i + (k - 1) * sz;
                        ca = z - k;
                        cb = z + k - 1;
                        ea = b[l2 + ja] * vb[l2 + ja];
                        eb = b[l2 + jb] * vb[l2 + jb];
                        if (ca >= 0 & ca < zbl | ca >= zbhh & ca < nz) {
                            int q = pz + 2 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                            ea = ea + prof[3 * nz + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < zbl | cb >= zbhh & cb < nz) {
                            int q = pz + 2 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                            eb = eb + prof[3 * nz + cb] * (psib[q] + eb);
                        }
                        azz += czk * (ea - eb);
                        // σxy from dyxy = D−y σxy at the vx nodes; y integer band, slot 0
                        ja = i - (k - 1) * sy;
                        jb = i + k * sy;
                        ca = y - k + 1;
                        cb = y + k;
                        ea = b[ja] * vb[ja];
                        eb = b[jb] * vb[jb];
                        if (ca >= 0 & ca < ybl | ca >= ybh & ca < ny) {
                            int q = py + (z * wy + (ca < ybl ? ca : ca - ybhh + ybl)) * nx + x;
                            ea = ea + prof[fy + ny + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < ybl | cb >= ybh & cb < ny) {
                            int q = py + (z * wy + (cb < ybl ? cb : cb - ybhh + ybl)) * nx + x;
                            eb = eb + prof[fy + ny + cb] * (psib[q] + eb);
                        }
                        axy += cyk * (ea - eb);
                        // σxy from dxxy = D−x σxy at the vy nodes; x integer band, slot 1
                        ja = i - (k - 1);
                        jb = i + k;
                        ca = x - k + 1;
                        cb = x + k;
                        ea = b[l1 + ja] * vb[l1 + ja];
                        eb = b[l1 + jb] * vb[l1 + jb];
                        if (ca >= 0 & ca < xbl | ca >= xbh & ca < nx) {
                            int q = px + 1 * slx + (z * ny + y) * wx + (ca < xbl ? ca : ca - xbhh + xbl);
                            ea = ea + prof[fx + nx + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < xbl | cb >= xbh & cb < nx) {
                            int q = px + 1 * slx + (z * ny + y) * wx + (cb < xbl ? cb : cb - xbhh + xbl);
                            eb = eb + prof[fx + nx + cb] * (psib[q] + eb);
                        }
                        axy += ck * (ea - eb);
                        // σxz from dzxz = D−z σxz at the vx nodes; z integer band, slot 0
                        ja = i - (k - 1) * sz;
                        jb = i + k * sz;
                        ca = z - k + 1;
                        cb = z + k;
                        ea = b[ja] * vb[ja];
                        eb = b[jb] * vb[jb];
                        if (ca >= 0 & ca < zbl | ca >= zbh & ca < nz) {
                            int q = pz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                            ea = ea + prof[nz + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < zbl | cb >= zbh & cb < nz) {
                            int q = pz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                            eb = eb + prof[nz + cb] * (psib[q] + eb);
                        }
                        axz += czk * (ea - eb);
                        // σxz from dxxz = D−x σxz at the vz nodes; x integer band, slot 2
                        ja = i - (k - 1);
                        jb = i + k;
                        ca = x - k + 1;
                        cb = x + k;
                        ea = b[l2 + ja] * vb[l2 + ja];
                        eb = b[l2 + jb] * vb[l2 + jb];
                        if (ca >= 0 & ca < xbl | ca >= xbh & ca < nx) {
                            int q = px + 2 * slx + (z * ny + y) * wx + (ca < xbl ? ca : ca - xbhh + xbl);
                            ea = ea + prof[fx + nx + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < xbl | cb >= xbh & cb < nx) {
                            int q = px + 2 * slx + (z * ny + y) * wx + (cb < xbl ? cb : cb - xbhh + xbl);
                            eb = eb + prof[fx + nx + cb] * (psib[q] + eb);
                        }
                        axz += ck * (ea - eb);
                        // σyz from dzyz = D−z σyz at the vy nodes; z integer band, slot 1
                        ja = i - (k - 1) * sz;
                        jb = i + k * sz;
                        ca = z - k + 1;
                        cb = z + k;
                        ea = b[l1 + ja] * vb[l1 + ja];
                        eb = b[l1 + jb] * vb[l1 + jb];
                        if (ca >= 0 & ca < zbl | ca >= zbh & ca < nz) {
                            int q = pz + 1 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                            ea = ea + prof[nz + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < zbl | cb >= zbh & cb < nz) {
                            int q = pz + 1 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                            eb = eb + prof[nz + cb] * (psib[q] + eb);
                        }
                        ayz += czk * (ea - eb);
                        // σyz from dyyz = D−y σyz at the vz nodes; y integer band, slot 2
                        ja = i - (k - 1) * sy;
                        jb = i + k * sy;
                        ca = y - k + 1;
                        cb = y + k;
                        ea = b[l2 + ja] * vb[l2 + ja];
                        eb = b[l2 + jb] * vb[l2 + jb];
                        if (ca >= 0 & ca < ybl | ca >= ybh & ca < ny) {
                            int q = py + 2 * sly + (z * wy + (ca < ybl ? ca : ca - ybhh + ybl)) * nx + x;
                            ea = ea + prof[fy + ny + ca] * (psib[q] + ea);
                        }
                        if (cb >= 0 & cb < ybl | cb >= ybh & cb < ny) {
                            int q = py + 2 * sly + (z * wy + (cb < ybl ? cb : cb - ybhh + ybl)) * nx + x;
                            eb = eb + prof[fy + ny + cb] * (psib[q] + eb);
                        }
                        ayz += cyk * (ea - eb);
                    }
                    sb[i] = sb[i] + axx;
                    sb[l1 + i] = sb[l1 + i] + ayy;
                    sb[l2 + i] = sb[l2 + i] + azz;
                    sb[l3 + i] = sb[l3 + i] + axy;
                    sb[l4 + i] = sb[l4 + i] + axz;
                    sb[l5 + i] = sb[l5 + i] + ayz;
                    int c = (z * ny + y) * nx + x;
                    gb[i] = gb[i] + vb[i] * tv[c];
                    gb[l1 + i] = gb[l1 + i] + vb[l1 + i] * tv[nc + c];
                    gb[l2 + i] = gb[l2 + i] + vb[l2 + i] * tv[2 * nc + c];
                }
            }
        }
    }

    /**
     * The CPML memory-variable recursions of the velocity transpose (after {@link #velocityAdjoint}) on the band
     * nodes of the box: ψ̄ ← a·(ψ̄ + dt/ρ·v̄).
     */
    public static void velocityPsiAdjoint(float[] vb, float[] b, float[] psib, float[] prof, int[] geo, int z0, int z1,
                                          int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        int l3 = 3 * len;
        int l4 = 4 * len;
        int l5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    boolean xInt = x < xbl | x >= xbh;
                    boolean xHalf = x < xbl | x >= xbhh;
                    boolean yInt = y < ybl | y >= ybh;
                    boolean yHalf = y < ybl | y >= ybhh;
                    boolean zInt = z < zbl | z >= zbh;
                    boolean zHalf = z < zbl | z >= zbhh;
                    float ex = b[i] * vb[i];
                    float ey = b[l1 + i] * vb[l1 + i];
                    float ez = b[l2 + i] * vb[l2 + i];
                    if (xHalf) {
                        {
                            int q = px + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                            psib[q] = prof[fx + 2 * nx + x] * (psib[q] + ex);
                        }
                    }
                    if (xInt) {
                        {
                            int q = px + 1 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                            psib[q] = prof[fx + x] * (psib[q] + ey);
                        }
                        {
                            int q = px + 2 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                            psib[q] = prof[fx + x] * (psib[q] + ez);
                        }
                    }
                    if (yInt) {
                        {
                            int q = py + (z * wy + (y < ybl ? y : y - ybhh + ybl)) * nx + x;
                            psib[q] = prof[fy + y] * (psib[q] + ex);
                        }
                        {
                            int q = py + 2 * sly + (z * wy + (y < ybl ? y : y - ybhh + ybl)) * nx + x;
                            psib[q] = prof[fy + y] * (psib[q] + ez);
                        }
                    }
                    if (yHalf) {
                        {
                            int q = py + 1 * sly + (z * wy + (y < ybl ? y : y - ybhh + ybl)) * nx + x;
                            psib[q] = prof[fy + 2 * ny + y] * (psib[q] + ey);
                        }
                    }
                    if (zInt) {
                        {
                            int q = pz + ((z < zbl ? z : z - zbhh + zbl) * ny + y) * nx + x;
                            psib[q] = prof[z] * (psib[q] + ex);
                        }
                        {
                            int q = pz + 1 * slz + ((z < zbl ? z : z - zbhh + zbl) * ny + y) * nx + x;
                            psib[q] = prof[z] * (psib[q] + ey);
                        }
                    }
                    if (zHalf) {
                        {
                            int q = pz + 2 * slz + ((z < zbl ? z : z - zbhh + zbl) * ny + y) * nx + x;
                            psib[q] = prof[2 * nz + z] * (psib[q] + ez);
                        }
                    }
                }
            }
        }
    }

    /**
     * The CPML memory-variable recursions of the stress transpose (after {@link #stressAdjoint}) on the band nodes of
     * the box: ψ̄ ← a·(ψ̄ + ẽ̄), ẽ̄ the node's m·σ̄ of that strain rate.
     */
    public static void stressPsiAdjoint(float[] sb, float[] m, float[] psib, float[] prof, int[] geo, int z0, int z1,
                                        int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        int l3 = 3 * len;
        int l4 = 4 * len;
        int l5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    boolean xInt = x < xbl | x >= xbh;
                    boolean xHalf = x < xbl | x >= xbhh;
                    boolean yInt = y < ybl | y >= ybh;
                    boolean yHalf = y < ybl | y >= ybhh;
                    boolean zInt = z < zbl | z >= zbh;
                    boolean zHalf = z < zbl | z >= zbhh;
                    float exx = m[l1 + i] * sb[i] + m[i] * (sb[l1 + i] + sb[l2 + i]);
                    float eyy = m[l1 + i] * sb[l1 + i] + m[i] * (sb[i] + sb[l2 + i]);
                    float ezz = m[l1 + i] * sb[l2 + i] + m[i] * (sb[i] + sb[l1 + i]);
                    float sxy = m[l2 + i] * sb[l3 + i];
                    float sxz = m[l3 + i] * sb[l4 + i];
                    float syz = m[l4 + i] * sb[l5 + i];
                    if (xInt) {
                        {
                            int q = px + 3 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                            psib[q] = prof[fx + x] * (psib[q] + exx);
                        }
                    }
                    if (xHalf) {
                        {
                            int q = px + 4 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                            psib[q] = prof[fx + 2 * nx + x] * (psib[q] + sxy);
                        }
                        {
                            int q = px + 5 * slx + (z * ny + y) * wx + (x < xbl ? x : x - xbhh + xbl);
                            psib[q] = prof[fx + 2 * nx + x] * (psib[q] + sxz);
                        }
                    }
                    if (yInt) {
                        {
                            int q = py + 3 * sly + (z * wy + (y < ybl ? y : y - ybhh + ybl)) * nx + x;
                            psib[q] = prof[fy + y] * (psib[q] + eyy);
                        }
                    }
                    if (yHalf) {
                        {
                            int q = py + 4 * sly + (z * wy + (y < ybl ? y : y - ybhh + ybl)) * nx + x;
                            psib[q] = prof[fy + 2 * ny + y] * (psib[q] + sxy);
                        }
                        {
                            int q = py + 5 * sly + (z * wy + (y < ybl ? y : y - ybhh + ybl)) * nx + x;
                            psib[q] = prof[fy + 2 * ny + y] * (psib[q] + syz);
                        }
                    }
                    if (zInt) {
                        {
                            int q = pz + 3 * slz + ((z < zbl ? z : z - zbhh + zbl) * ny + y) * nx + x;
                            psib[q] = prof[z] * (psib[q] + ezz);
                        }
                    }
                    if (zHalf) {
                        {
                            int q = pz + 4 * slz + ((z < zbl ? z : z - zbhh + zbl) * ny + y) * nx + x;
                            psib[q] = prof[2 * nz + z] * (psib[q] + sxz);
                        }
                        {
                            int q = pz + 5 * slz + ((z < zbl ? z : z - zbhh + zbl) * ny + y) * nx + x;
                            psib[q] = prof[2 * nz + z] * (psib[q] + syz);
                        }
                    }
                }
            }
        }
    }

    /**
     * Free surface: the adjoint velocities of the image rows above z = 0 that the stress sub-step reads (vx, vy, vz
     * through their z derivatives), over rows y of [y0, y1) and columns [x0, x1), gathered from the computational
     * stress nodes only. Run after {@link #stressAdjoint}; {@link #freeSurfaceVelocityAdjoint} folds them back.
     */
    public static void stressAdjointImages(float[] vb, float[] sb, float[] m, float[] psib, float[] prof, float[] coef,
                                           int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        int l3 = 3 * len;
        int l4 = 4 * len;
        int l5 = 5 * len;
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                for (int r = 1; r <= h; r++) {
                    int z = -r;
                    int i = off + z * sz + y * sy + x;
                    float ax = 0.0f;
                    float ay = 0.0f;
                    float az = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float czk = coef[k - 1];
                        int ja;
                        int jb;
                        int ca;
                        int cb;
                        float ea;
                        float eb;
                        // vx from ezx (D+z) at the σxz nodes, computational rows only; z half band, slot 4
                        ca = z - k;
                        cb = z + k - 1;
                        ea = 0.0f;
                        eb = 0.0f;
                        if (ca >= 0 & ca < nz) {
                            ja = i - k * sz;
                            ea = m[l3 + ja] * sb[l4 + ja];
                            if (ca < zbl | ca >= zbhh) {
                                int q = pz + 4 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                                ea = ea + prof[3 * nz + ca] * (psib[q] + ea);
                            }
                        }
                        if (cb >= 0 & cb < nz) {
                            jb = i + (k - 1) * sz;
                            eb = m[l3 + jb] * sb[l4 + jb];
                            if (cb < zbl | cb >= zbhh) {
                                int q = pz + 4 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                                eb = eb + prof[3 * nz + cb] * (psib[q] + eb);
                            }
                        }
                        ax += czk * (ea - eb);
                        // vy from ezy (D+z) at the σyz nodes; z half band, slot 5
                        ca = z - k;
                        cb = z + k - 1;
                        ea = 0.0f;
                        eb = 0.0f;
                        if (ca >= 0 & ca < nz) {
                            ja = i - k * sz;
                            ea = m[l4 + ja] * sb[l5 + ja];
                            if (ca < zbl | ca >= zbhh) {
                                int q = pz + 5 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                                ea = ea + prof[3 * nz + ca] * (psib[q] + ea);
                            }
                        }
                        if (cb >= 0 & cb < nz) {
                            jb = i + (k - 1) * sz;
                            eb = m[l4 + jb] * sb[l5 + jb];
                            if (cb < zbl | cb >= zbhh) {
                                int q = pz + 5 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                                eb = eb + prof[3 * nz + cb] * (psib[q] + eb);
                            }
                        }
                        ay += czk * (ea - eb);
                        // vz from ezz (D−z) at the normal nodes; z integer band, slot 3
                        ca = z - k + 1;
                        cb = z + k;
                        ea = 0.0f;
                        eb = 0.0f;
                        if (ca >= 0 & ca < nz) {
                            ja = i - (k - 1) * sz;
                            ea = m[l1 + ja] * sb[l2 + ja] + m[ja] * (sb[ja] + sb[l1 + ja]);
                            if (ca < zbl | ca >= zbh) {
                                int q = pz + 3 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                                ea = ea + prof[nz + ca] * (psib[q] + ea);
                            }
                        }
                        if (cb >= 0 & cb < nz) {
                            jb = i + k * sz;
                            eb = m[l1 + jb] * sb[l2 + jb] + m[jb] * (sb[jb] + sb[l1 + jb]);
                            if (cb < zbl | cb >= zbh) {
                                int q = pz + 3 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                                eb = eb + prof[nz + cb] * (psib[q] + eb);
                            }
                        }
                        az += czk * (ea - eb);
                    }
                    vb[i] = vb[i] + ax;
                    vb[l1 + i] = vb[l1 + i] + ay;
                    vb[l2 + i] = vb[l2 + i] + az;
                }
            }
        }
    }

    /**
     * Free surface: the adjoint stresses of the image rows above z = 0 that the velocity sub-step reads (σzz, σxz,
     * σyz through their z derivatives), over rows y of [y0, y1) and columns [x0, x1), gathered from the computational
     * velocity nodes only. Run after {@link #velocityAdjoint}; {@link #freeSurfaceStressAdjoint} folds them back.
     */
    public static void velocityAdjointImages(float[] sb, float[] vb, float[] b, float[] psib, float[] prof,
                                             float[] coef, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int l1 = len;
        int l2 = 2 * len;
        int l3 = 3 * len;
        int l4 = 4 * len;
        int l5 = 5 * len;
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                for (int r = 1; r <= h; r++) {
                    int z = -r;
                    int i = off + z * sz + y * sy + x;
                    float azz = 0.0f;
                    float axz = 0.0f;
                    float ayz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float czk = coef[k - 1];
                        int ja;
                        int jb;
                        int ca;
                        int cb;
                        float ea;
                        float eb;
                        // σzz from dzzz (D+z) at the vz nodes, computational rows only; z half band, slot 2
                        ca = z - k;
                        cb = z + k - 1;
                        ea = 0.0f;
                        eb = 0.0f;
                        if (ca >= 0 & ca < nz) {
                            ja = i - k * sz;
                            ea = b[l2 + ja] * vb[l2 + ja];
                            if (ca < zbl | ca >= zbhh) {
                                int q = pz + 2 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                                ea = ea + prof[3 * nz + ca] * (psib[q] + ea);
                            }
                        }
                        if (cb >= 0 & cb < nz) {
                            jb = i + (k - 1) * sz;
                            eb = b[l2 + jb] * vb[l2 + jb];
                            if (cb < zbl | cb >= zbhh) {
                                int q = pz + 2 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                                eb = eb + prof[3 * nz + cb] * (psib[q] + eb);
                            }
                        }
                        azz += czk * (ea - eb);
                        // σxz from dzxz (D−z) at the vx nodes; z integer band, slot 0
                        ca = z - k + 1;
                        cb = z + k;
                        ea = 0.0f;
                        eb = 0.0f;
                        if (ca >= 0 & ca < nz) {
                            ja = i - (k - 1) * sz;
                            ea = b[ja] * vb[ja];
                            if (ca < zbl | ca >= zbh) {
                                int q = pz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                                ea = ea + prof[nz + ca] * (psib[q] + ea);
                            }
                        }
                        if (cb >= 0 & cb < nz) {
                            jb = i + k * sz;
                            eb = b[jb] * vb[jb];
                            if (cb < zbl | cb >= zbh) {
                                int q = pz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                                eb = eb + prof[nz + cb] * (psib[q] + eb);
                            }
                        }
                        axz += czk * (ea - eb);
                        // σyz from dzyz (D−z) at the vy nodes; z integer band, slot 1
                        ca = z - k + 1;
                        cb = z + k;
                        ea = 0.0f;
                        eb = 0.0f;
                        if (ca >= 0 & ca < nz) {
                            ja = i - (k - 1) * sz;
                            ea = b[l1 + ja] * vb[l1 + ja];
                            if (ca < zbl | ca >= zbh) {
                                int q = pz + 1 * slz + ((ca < zbl ? ca : ca - zbhh + zbl) * ny + y) * nx + x;
                                ea = ea + prof[nz + ca] * (psib[q] + ea);
                            }
                        }
                        if (cb >= 0 & cb < nz) {
                            jb = i + k * sz;
                            eb = b[l1 + jb] * vb[l1 + jb];
                            if (cb < zbl | cb >= zbh) {
                                int q = pz + 1 * slz + ((cb < zbl ? cb : cb - zbhh + zbl) * ny + y) * nx + x;
                                eb = eb + prof[nz + cb] * (psib[q] + eb);
                            }
                        }
                        ayz += czk * (ea - eb);
                    }
                    sb[l2 + i] = sb[l2 + i] + azz;
                    sb[l4 + i] = sb[l4 + i] + axz;
                    sb[l5 + i] = sb[l5 + i] + ayz;
                }
            }
        }
    }

    /**
     * Transpose of {@link ElasticKernels3D#freeSurfaceVelocity} over rows y of [y0, y1) and columns [x0, x1): for k =
     * 1..h, v̄x(k) −= v̄x(−k), v̄y(k) −= v̄y(−k), v̄z(row k−1) += v̄z(row −k), and the image rows zeroed.
     */
    public static void freeSurfaceVelocityAdjoint(float[] vb, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                for (int k = 1; k <= h; k++) {
                    vb[i + k * sz] = vb[i + k * sz] - vb[i - k * sz];
                    vb[i - k * sz] = 0.0f;
                    vb[len + i + k * sz] = vb[len + i + k * sz] - vb[len + i - k * sz];
                    vb[len + i - k * sz] = 0.0f;
                    vb[2 * len + i + (k - 1) * sz] = vb[2 * len + i + (k - 1) * sz] + vb[2 * len + i - k * sz];
                    vb[2 * len + i - k * sz] = 0.0f;
                }
            }
        }
    }

    /**
     * Transpose of {@link ElasticKernels3D#freeSurfaceStress} over rows y of [y0, y1) and columns [x0, x1): for k =
     * 1..h, σ̄zz(k) −= σ̄zz(−k), σ̄xz(row k−1) −= σ̄xz(row −k), σ̄yz likewise, the image rows zeroed, then σ̄zz(0) = 0.
     */
    public static void freeSurfaceStressAdjoint(float[] sb, int[] geo, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
            int y = y0 + iy;
            for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                int x = x0 + ix;
                int i = off + y * sy + x;
                for (int k = 1; k <= h; k++) {
                    sb[2 * len + i + k * sz] = sb[2 * len + i + k * sz] - sb[2 * len + i - k * sz];
                    sb[2 * len + i - k * sz] = 0.0f;
                    sb[4 * len + i + (k - 1) * sz] = sb[4 * len + i + (k - 1) * sz] - sb[4 * len + i - k * sz];
                    sb[4 * len + i - k * sz] = 0.0f;
                    sb[5 * len + i + (k - 1) * sz] = sb[5 * len + i + (k - 1) * sz] - sb[5 * len + i - k * sz];
                    sb[5 * len + i - k * sz] = 0.0f;
                }
                sb[2 * len + i] = 0.0f;
            }
        }
    }

    /**
     * Boundary saving, inverse velocity sub-step on a box where no node lies in a band: with the stress derivatives
     * of s (written to the compact {@code tv}), v −= dt/ρ·d, undoing {@link ElasticKernels3D#velocity} up to float
     * rounding.
     */
    public static void rebuildVelocity(float[] v, float[] s, float[] b, float[] coef, int[] geo, float[] tv,
                                        int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int s1 = len;
        int s2 = 2 * len;
        int s3 = 3 * len;
        int s4 = 4 * len;
        int s5 = 5 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                boolean yInt = y < ybl | y >= ybh;
                boolean yHalf = y < ybl | y >= ybhh;
                int jy = y < ybl ? y : y - ybhh + ybl;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float dxxx = 0.0f;
                    float dyxy = 0.0f;
                    float dzxz = 0.0f;
                    float dxxy = 0.0f;
                    float dyyy = 0.0f;
                    float dzyz = 0.0f;
                    float dxxz = 0.0f;
                    float dyyz = 0.0f;
                    float dzzz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        dxxx += ck * (s[i + k] - s[i - k + 1]);
                        dyxy += cyk * (s[s3 + i + (k - 1) * sy] - s[s3 + i - k * sy]);
                        dzxz += czk * (s[s4 + i + (k - 1) * sz] - s[s4 + i - k * sz]);
                        dxxy += ck * (s[s3 + i + k - 1] - s[s3 + i - k]);
                        dyyy += cyk * (s[s1 + i + k * sy] - s[s1 + i - (k - 1) * sy]);
                        dzyz += czk * (s[s5 + i + (k - 1) * sz] - s[s5 + i - k * sz]);
                        dxxz += ck * (s[s4 + i + k - 1] - s[s4 + i - k]);
                        dyyz += cyk * (s[s5 + i + (k - 1) * sy] - s[s5 + i - k * sy]);
                        dzzz += czk * (s[s2 + i + k * sz] - s[s2 + i - (k - 1) * sz]);
                    }
                    float tx = dxxx + dyxy + dzxz;
                    float ty = dxxy + dyyy + dzyz;
                    float tz = dxxz + dyyz + dzzz;
                    v[i] = v[i] - b[i] * tx;
                    v[len + i] = v[len + i] - b[len + i] * ty;
                    v[2 * len + i] = v[2 * len + i] - b[2 * len + i] * tz;
                    int c = (z * ny + y) * nx + x;
                    tv[c] = tx;
                    tv[nc + c] = ty;
                    tv[2 * nc + c] = tz;
                }
            }
        }
    }

    /**
     * Boundary saving, inverse stress sub-step on a box where no node lies in a band: with the strain rates of v
     * (written to the compact {@code ts}), σ −= m·e, undoing {@link ElasticKernels3D#stress} up to float rounding.
     */
    public static void rebuildStress(float[] v, float[] s, float[] m, float[] coef, int[] geo, float[] ts,
                                      int z0, int z1, int y0, int y1, int x0, int x1) {
        int h = geo[Layout.H];
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zbl = geo[Layout.ZBL];
        int zbh = geo[Layout.ZBH];
        int ybl = geo[Layout.YBL];
        int ybh = geo[Layout.YBH];
        int xbl = geo[Layout.XBL];
        int xbh = geo[Layout.XBH];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbhh = geo[ElasticLayout.XBHH];
        int wy = geo[ElasticLayout.WY];
        int wx = geo[ElasticLayout.WX];
        int pz = geo[ElasticLayout.PSI_Z];
        int py = geo[ElasticLayout.PSI_Y];
        int px = geo[ElasticLayout.PSI_X];
        int slz = geo[ElasticLayout.SLAB_Z];
        int sly = geo[ElasticLayout.SLAB_Y];
        int slx = geo[ElasticLayout.SLAB_X];
        int nc = nz * ny * nx;
        int cy = h;
        int cx = 2 * h;
        int fy = 4 * nz;
        int fx = 4 * nz + 4 * ny;
        int v1 = len;
        int v2 = 2 * len;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            boolean zInt = z < zbl | z >= zbh;
            boolean zHalf = z < zbl | z >= zbhh;
            int jz = z < zbl ? z : z - zbhh + zbl;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                boolean yInt = y < ybl | y >= ybh;
                boolean yHalf = y < ybl | y >= ybhh;
                int jy = y < ybl ? y : y - ybhh + ybl;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float exx = 0.0f;
                    float eyy = 0.0f;
                    float ezz = 0.0f;
                    float eyx = 0.0f;
                    float exy = 0.0f;
                    float ezx = 0.0f;
                    float exz = 0.0f;
                    float ezy = 0.0f;
                    float eyz = 0.0f;
                    for (int k = 1; k <= h; k++) {
                        float ck = coef[cx + k - 1];
                        float cyk = coef[cy + k - 1];
                        float czk = coef[k - 1];
                        exx += ck * (v[i + k - 1] - v[i - k]);
                        eyy += cyk * (v[v1 + i + (k - 1) * sy] - v[v1 + i - k * sy]);
                        ezz += czk * (v[v2 + i + (k - 1) * sz] - v[v2 + i - k * sz]);
                        eyx += cyk * (v[i + k * sy] - v[i - (k - 1) * sy]);
                        exy += ck * (v[v1 + i + k] - v[v1 + i - k + 1]);
                        ezx += czk * (v[i + k * sz] - v[i - (k - 1) * sz]);
                        exz += ck * (v[v2 + i + k] - v[v2 + i - k + 1]);
                        ezy += czk * (v[v1 + i + k * sz] - v[v1 + i - (k - 1) * sz]);
                        eyz += cyk * (v[v2 + i + k * sy] - v[v2 + i - (k - 1) * sy]);
                    }
                    float lam = m[i];
                    float l2m = m[len + i];
                    s[i] = s[i] - (l2m * exx + lam * (eyy + ezz));
                    s[len + i] = s[len + i] - (l2m * eyy + lam * (exx + ezz));
                    s[2 * len + i] = s[2 * len + i] - (l2m * ezz + lam * (exx + eyy));
                    float sxy = eyx + exy;
                    float sxz = ezx + exz;
                    float syz = ezy + eyz;
                    s[3 * len + i] = s[3 * len + i] - m[2 * len + i] * sxy;
                    s[4 * len + i] = s[4 * len + i] - m[3 * len + i] * sxz;
                    s[5 * len + i] = s[5 * len + i] - m[4 * len + i] * syz;
                    int c = (z * ny + y) * nx + x;
                    ts[c] = exx;
                    ts[nc + c] = eyy;
                    ts[2 * nc + c] = ezz;
                    ts[3 * nc + c] = sxy;
                    ts[4 * nc + c] = sxz;
                    ts[5 * nc + c] = syz;
                }
            }
        }
    }

}
