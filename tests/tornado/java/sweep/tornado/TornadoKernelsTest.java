package sweep.tornado;

import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.acoustic.kernels.AcousticAdjointKernels2D;
import sweep.acoustic.kernels.AcousticAdjointKernels3D;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.kernels.Layout;
import sweep.kernels.Pack;
import sweep.kernels.Sources;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * Each portable kernel compiled by TornadoVM (project annotation {@code sweep.kernels.Parallel}, bailout to Java an
 * error) on random data gives the plain Java call's result: the same bits under strict math, within 1e-5 relative
 * under TornadoVM's defaults. Boxes reach into the PML bands and the halo, as in the stepper. Outputs that a kernel
 * only writes (never reads) are not copied to the device by TornadoVM, so only the cells it writes are compared.
 */
class TornadoKernelsTest {
    private static final int H = 4;
    private static int graphs;

    /** 2-D geometry: nz × nx computational cells, halo H, bands [0,zbl) ∪ [zbh,nz) and [0,xbl) ∪ [xbh,nx). */
    private static int[] geo2(int nz, int nx, int zbl, int zbh, int xbl, int xbh) {
        int[] geo = new int[Layout.GEO_SIZE];
        int sz = nx + 2 * H;
        geo[Layout.NDIM] = 2;
        geo[Layout.H] = H;
        geo[Layout.NZ] = nz;
        geo[Layout.NY] = 1;
        geo[Layout.NX] = nx;
        geo[Layout.SZ] = sz;
        geo[Layout.SY] = 0;
        geo[Layout.ZBL] = zbl;
        geo[Layout.ZBH] = zbh;
        geo[Layout.YBL] = 0;
        geo[Layout.YBH] = 1;
        geo[Layout.XBL] = xbl;
        geo[Layout.XBH] = xbh;
        geo[Layout.OFF0] = H * sz + H;
        geo[Layout.LEN] = (nz + 2 * H) * sz;
        Layout.placeAuxiliaries(geo);
        return geo;
    }

    private static int[] geo3(int nz, int ny, int nx, int band) {
        int[] geo = new int[Layout.GEO_SIZE];
        int sy = nx + 2 * H;
        int sz = (ny + 2 * H) * sy;
        geo[Layout.NDIM] = 3;
        geo[Layout.H] = H;
        geo[Layout.NZ] = nz;
        geo[Layout.NY] = ny;
        geo[Layout.NX] = nx;
        geo[Layout.SZ] = sz;
        geo[Layout.SY] = sy;
        geo[Layout.ZBL] = band;
        geo[Layout.ZBH] = nz - band;
        geo[Layout.YBL] = band;
        geo[Layout.YBH] = ny - band;
        geo[Layout.XBL] = band;
        geo[Layout.XBH] = nx - band;
        geo[Layout.OFF0] = H * sz + H * sy + H;
        geo[Layout.LEN] = (nz + 2 * H) * sz;
        Layout.placeAuxiliaries(geo);
        return geo;
    }

    /** The computational cells [0,nz)×[0,nx) of a 2-D array (no halo). */
    private static float[] box2(float[] f, int[] geo, int nz, int nx) {
        float[] out = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            System.arraycopy(f, geo[Layout.OFF0] + z * geo[Layout.SZ], out, z * nx, nx);
        }
        return out;
    }

    /** Cells [z0,z1)×[0,ny)×[0,nx) of a 3-D array. */
    private static float[] box3(float[] f, int[] geo, int z0, int z1, int ny, int nx) {
        float[] out = new float[(z1 - z0) * ny * nx];
        int k = 0;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                System.arraycopy(f, geo[Layout.OFF0] + z * geo[Layout.SZ] + y * geo[Layout.SY], out, k, nx);
                k += nx;
            }
        }
        return out;
    }

    private static float[] random(Random r, int n, float lo, float hi) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + (hi - lo) * r.nextFloat();
        }
        return a;
    }

    /** Runs {@code graph}'s tasks on the device, all listed arrays copied in and out. */
    private static void run(TaskGraph graph, Object... arrays) {
        graph.transferToHost(DataTransferMode.EVERY_EXECUTION, arrays);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            if (TornadoSupport.strict()) {
                plan.withCompilerFlags(TornadoVMBackendType.OPENCL, "-w");
            }
            plan.withDevice(TornadoSupport.requireDevice());
            plan.execute();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static TaskGraph graph(Object... in) {
        return new TaskGraph("k" + (++graphs)).transferToDevice(DataTransferMode.EVERY_EXECUTION, in);
    }

    @Test
    void acoustic2d() {
        TornadoSupport.requireDevice();
        int nz = 37;
        int nx = 45;
        int[] geo = geo2(nz, nx, 6, 30, 5, 39);
        int len = geo[Layout.LEN];
        Random r = new Random(7);
        float[] coef = random(r, Layout.coefSize(H), -0.5f, 0.5f);
        float[] u = random(r, len, -1, 1);
        float[] un0 = random(r, len, -1, 1);
        float[] v2 = random(r, len, 0.01f, 0.2f);
        float[] psi0 = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] zeta0 = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] prof = random(r, 2 * (nz + 1 + nx), 0, 1);

        float[] unJ = un0.clone();
        AcousticKernels2D.interior(u, unJ, v2, coef, geo, 6, 30, 5, 39);
        float[] unT = un0.clone();
        run(graph(u, unT, v2, coef, geo).task("interior", AcousticKernels2D::interior, u, unT, v2, coef, geo, 6, 30, 5,
                39),
                unT);
        TornadoSupport.compare(unJ, unT, "AcousticKernels2D.interior");

        float[] psiJ = psi0.clone();
        AcousticKernels2D.psi(u, psiJ, prof, coef, geo, 0, nz, 0, nx);
        float[] psiT = psi0.clone();
        run(graph(u, psiT, prof, coef, geo).task("psi", AcousticKernels2D::psi, u, psiT, prof, coef, geo, 0, nz, 0, nx),
                psiT);
        TornadoSupport.compare(psiJ, psiT, "AcousticKernels2D.psi");

        // A band box (top slab, then the left strip) as the stepper launches them.
        float[] unJ2 = un0.clone();
        float[] zetaJ = zeta0.clone();
        AcousticKernels2D.pml(u, unJ2, v2, psi0, zetaJ, prof, coef, geo, 0, 6, 0, nx);
        AcousticKernels2D.pml(u, unJ2, v2, psi0, zetaJ, prof, coef, geo, 6, 30, 0, 5);
        float[] unT2 = un0.clone();
        float[] zetaT = zeta0.clone();
        run(graph(u, unT2, v2, psi0, zetaT, prof, coef, geo)
                .task("pmlTop", AcousticKernels2D::pml, u, unT2, v2, psi0, zetaT, prof, coef, geo, 0, 6, 0, nx)
                .task("pmlLeft", AcousticKernels2D::pml, u, unT2, v2, psi0, zetaT, prof, coef, geo, 6, 30, 0, 5), unT2,
                        zetaT);
        TornadoSupport.compare(unJ2, unT2, "AcousticKernels2D.pml (un)");
        TornadoSupport.compare(zetaJ, zetaT, "AcousticKernels2D.pml (zeta)");

        float[] uJ = u.clone();
        AcousticKernels2D.mirrorTop(uJ, geo, 0, nx);
        float[] uT = u.clone();
        run(graph(uT, geo).task("mirror", AcousticKernels2D::mirrorTop, uT, geo, 0, nx), uT);
        TornadoSupport.compare(uJ, uT, "AcousticKernels2D.mirrorTop");

        float[] d0 = random(r, len, -1, 1);
        float[] dJ = d0.clone();
        AcousticKernels2D.laplacian(u, psi0, zeta0, coef, geo, dJ, 0, nz, 0, nx);
        float[] dT = d0.clone();
        run(graph(u, psi0, zeta0, coef, geo, dT)
                .task("lap", AcousticKernels2D::laplacian, u, psi0, zeta0, coef, geo, dT, 0, nz, 0, nx), dT);
        // d is write-only: TornadoVM does not copy it in, so only the box's cells are defined (halo: garbage).
        TornadoSupport.compare(box2(dJ, geo, nz, nx), box2(dT, geo, nz, nx), "AcousticKernels2D.laplacian (box cells)");
    }

    @Test
    void sources() {
        TornadoSupport.requireDevice();
        Random r = new Random(11);
        int len = 500;
        int nt = 20;
        float[] u0 = random(r, len, -1, 1);
        float[] v2 = random(r, len, 0.01f, 0.2f);
        int[] idx = {17, 230, 17, 499}; // a repeated cell: injection order matters
        float[] wavelet = random(r, idx.length * nt, -1, 1);
        float[] uJ = u0.clone();
        Sources.inject(uJ, v2, idx, wavelet, idx.length, nt, 13);
        float[] uT = u0.clone();
        run(graph(uT, v2, idx, wavelet).task("inject", Sources::inject, uT, v2, idx, wavelet, idx.length, nt, 13), uT);
        TornadoSupport.compare(uJ, uT, "Sources.inject");

        float[] rec0 = random(r, nt * idx.length, -1, 1);
        float[] recJ = rec0.clone();
        Sources.sample(u0, idx, recJ, idx.length, 5);
        float[] recT = rec0.clone();
        run(graph(u0, idx, recT).task("sample", Sources::sample, u0, idx, recT, idx.length, 5), recT);
        // rec is write-only (one row per call): only row 5 is defined on the device.
        TornadoSupport.compare(java.util.Arrays.copyOfRange(recJ, 5 * idx.length, 6 * idx.length),
                java.util.Arrays.copyOfRange(recT, 5 * idx.length, 6 * idx.length), "Sources.sample (row 5)");
    }

    @Test
    void acoustic3dAndPack() {
        TornadoSupport.requireDevice();
        int nz = 14;
        int ny = 13;
        int nx = 17;
        int band = 4;
        int[] geo = geo3(nz, ny, nx, band);
        int len = geo[Layout.LEN];
        Random r = new Random(5);
        float[] coef = random(r, Layout.coefSize(H), -0.5f, 0.5f);
        float[] u = random(r, len, -1, 1);
        float[] un0 = random(r, len, -1, 1);
        float[] v2 = random(r, len, 0.01f, 0.2f);
        float[] psi0 = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] zeta0 = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] prof = random(r, 2 * (nz + ny + nx), 0, 1);

        float[] unJ = un0.clone();
        AcousticKernels3D.interior(u, unJ, v2, coef, geo, band, nz - band, band, ny - band, band, nx - band);
        float[] unT = un0.clone();
        run(graph(u, unT, v2, coef, geo).task("interior", AcousticKernels3D::interior, u, unT, v2, coef, geo, band,
                nz - band,
                band, ny - band, band, nx - band), unT);
        TornadoSupport.compare(unJ, unT, "AcousticKernels3D.interior");

        float[] psiJ = psi0.clone();
        AcousticKernels3D.psi(u, psiJ, prof, coef, geo, 0, nz, 0, ny, 0, nx);
        float[] psiT = psi0.clone();
        run(graph(u, psiT, prof, coef, geo).task("psi", AcousticKernels3D::psi, u, psiT, prof, coef, geo, 0, nz, 0, ny,
                0, nx),
                psiT);
        TornadoSupport.compare(psiJ, psiT, "AcousticKernels3D.psi");

        float[] unJ2 = un0.clone();
        float[] zetaJ = zeta0.clone();
        AcousticKernels3D.pml(u, unJ2, v2, psi0, zetaJ, prof, coef, geo, 0, band, 0, ny, 0, nx);
        float[] unT2 = un0.clone();
        float[] zetaT = zeta0.clone();
        run(graph(u, unT2, v2, psi0, zetaT, prof, coef, geo).task("pml", AcousticKernels3D::pml, u, unT2, v2, psi0,
                zetaT,
                prof, coef, geo, 0, band, 0, ny, 0, nx), unT2, zetaT);
        TornadoSupport.compare(unJ2, unT2, "AcousticKernels3D.pml (un)");
        TornadoSupport.compare(zetaJ, zetaT, "AcousticKernels3D.pml (zeta)");

        float[] uJ = u.clone();
        AcousticKernels3D.mirrorTop(uJ, geo, 0, ny, 0, nx);
        float[] uT = u.clone();
        run(graph(uT, geo).task("mirror", AcousticKernels3D::mirrorTop, uT, geo, 0, ny, 0, nx), uT);
        TornadoSupport.compare(uJ, uT, "AcousticKernels3D.mirrorTop");

        // Halo strip round trip: pack a face box reaching into the halo, unpack it elsewhere.
        int n = H * ny * nx;
        float[] buf0 = random(r, n + 3, -1, 1);
        float[] bufJ = buf0.clone();
        Pack.pack(u, bufJ, 3, geo, -H, 0, 0, ny, 0, nx);
        float[] bufT = buf0.clone();
        run(graph(u, bufT, geo).task("pack", Pack::pack, u, bufT, 3, geo, -H, 0, 0, ny, 0, nx), bufT);
        // buf is write-only: cells before bufOff are not defined on the device.
        TornadoSupport.compare(java.util.Arrays.copyOfRange(bufJ, 3, bufJ.length),
                java.util.Arrays.copyOfRange(bufT, 3, bufT.length), "Pack.pack (written cells)");
        float[] fJ = un0.clone();
        Pack.unpack(fJ, bufJ, 3, geo, nz - H, nz, 0, ny, 0, nx);
        float[] fT = un0.clone();
        run(graph(fT, bufJ, geo).task("unpack", Pack::unpack, fT, bufJ, 3, geo, nz - H, nz, 0, ny, 0, nx), fT);
        // f is write-only here: only the unpacked box is defined on the device.
        TornadoSupport.compare(box3(fJ, geo, nz - H, nz, ny, nx), box3(fT, geo, nz - H, nz, ny, nx),
                "Pack.unpack (box cells)");
    }

    /**
     * The values of {@code f} at the cells where {@code ref} differs from {@code before} (a write-only output's cells).
     */
    private static float[] changed(float[] ref, float[] before, float[] f) {
        float[] out = new float[ref.length];
        int n = 0;
        for (int i = 0; i < ref.length; i++) {
            if (Float.floatToRawIntBits(ref[i]) != Float.floatToRawIntBits(before[i])) {
                out[n++] = f[i];
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** The adjoint kernels (2-D) on random data: whole grid, a band box, the stencil-clear box. */
    @Test
    void adjoint2d() {
        TornadoSupport.requireDevice();
        int nz = 37;
        int nx = 45;
        int[] geo = geo2(nz, nx, 6, 30, 5, 39);
        int len = geo[Layout.LEN];
        Random r = new Random(11);
        float[] coef = random(r, Layout.coefSize(H), -0.5f, 0.5f);
        float[] prof = random(r, 2 * (nz + 1 + nx), 0, 1);
        float[] qb = random(r, len, -1, 1);
        float[] v2 = random(r, len, 0.01f, 0.2f);
        float[] w = random(r, len, -1, 1);
        float[] grad = random(r, len, -1, 1);
        float[] d = random(r, len, -1, 1);
        float[] cor = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] pb = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] zetab = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] psib = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] qp = random(r, len, -1, 1);
        float[] u = random(r, len, -1, 1);

        float[] qJ = qb.clone();
        AcousticAdjointKernels2D.mirrorTopAdjoint(qJ, geo, 0, nx);
        float[] qT = qb.clone();
        run(graph(qT, geo).task("m", AcousticAdjointKernels2D::mirrorTopAdjoint, qT, geo, 0, nx), qT);
        TornadoSupport.compare(qJ, qT, "AcousticAdjointKernels2D.mirrorTopAdjoint");

        float[] wJ = w.clone();
        float[] gJ = grad.clone();
        AcousticAdjointKernels2D.scale(qb, v2, wJ, gJ, d, geo, 0, nz, 0, nx);
        float[] wT = w.clone();
        float[] gT = grad.clone();
        run(graph(qb, v2, wT, gT, d, geo).task("s", AcousticAdjointKernels2D::scale, qb, v2, wT, gT, d, geo, 0, nz, 0,
                nx), wT, gT);
        TornadoSupport.compare(box2(wJ, geo, nz, nx), box2(wT, geo, nz, nx),
                "AcousticAdjointKernels2D.scale (w, written cells)");
        TornadoSupport.compare(gJ, gT, "AcousticAdjointKernels2D.scale (grad)");

        float[] zJ = zetab.clone();
        float[] cJ = cor.clone();
        AcousticAdjointKernels2D.pmlZeta(w, zJ, cJ, prof, geo, 0, 6, 0, nx);
        AcousticAdjointKernels2D.pmlZeta(w, zJ, cJ, prof, geo, 6, 30, 39, nx);
        float[] zT = zetab.clone();
        float[] cT = cor.clone();
        run(graph(w, zT, cT, prof, geo).task("z0", AcousticAdjointKernels2D::pmlZeta, w, zT, cT, prof, geo, 0, 6, 0, nx)
                .task("z1", AcousticAdjointKernels2D::pmlZeta, w, zT, cT, prof, geo, 6, 30, 39, nx), zT, cT);
        TornadoSupport.compare(zJ, zT, "AcousticAdjointKernels2D.pmlZeta (zetab)");
        TornadoSupport.compare(changed(cJ, cor, cJ), changed(cJ, cor, cT),
                "AcousticAdjointKernels2D.pmlZeta (cor, written cells)");

        float[] psJ = psib.clone();
        float[] pbJ = pb.clone();
        AcousticAdjointKernels2D.pmlPsi(w, cor, psJ, pbJ, prof, coef, geo, 0, 6, 0, nx);
        AcousticAdjointKernels2D.pmlPsi(w, cor, psJ, pbJ, prof, coef, geo, 6, 30, 0, 5);
        float[] psT = psib.clone();
        float[] pbT = pb.clone();
        run(graph(w, cor, psT, pbT, prof, coef, geo)
                .task("p0", AcousticAdjointKernels2D::pmlPsi, w, cor, psT, pbT, prof, coef, geo, 0, 6, 0, nx)
                .task("p1", AcousticAdjointKernels2D::pmlPsi, w, cor, psT, pbT, prof, coef, geo, 6, 30, 0, 5), psT,
                        pbT);
        TornadoSupport.compare(psJ, psT, "AcousticAdjointKernels2D.pmlPsi (psib)");
        TornadoSupport.compare(changed(pbJ, pb, pbJ), changed(pbJ, pb, pbT),
                "AcousticAdjointKernels2D.pmlPsi (pb) (written cells)");

        float[] qpJ = qp.clone();
        AcousticAdjointKernels2D.interior(qpJ, qb, w, coef, geo, 10, 26, 9, 35);
        float[] qpT = qp.clone();
        run(graph(qpT, qb, w, coef, geo).task("i", AcousticAdjointKernels2D::interior, qpT, qb, w, coef, geo, 10, 26, 9,
                35), qpT);
        TornadoSupport.compare(changed(qpJ, qp, qpJ), changed(qpJ, qp, qpT),
                "AcousticAdjointKernels2D.interior (written cells)");

        float[] qgJ = qp.clone();
        AcousticAdjointKernels2D.general(qgJ, qb, w, cor, pb, coef, geo, 0, nz, 0, nx);
        float[] qgT = qp.clone();
        run(graph(qgT, qb, w, cor, pb, coef, geo)
                .task("g", AcousticAdjointKernels2D::general, qgT, qb, w, cor, pb, coef, geo, 0, nz, 0, nx), qgT);
        TornadoSupport.compare(changed(qgJ, qp, qgJ), changed(qgJ, qp, qgT),
                "AcousticAdjointKernels2D.general (written cells)");

        float[] qhJ = qp.clone();
        AcousticAdjointKernels2D.ghostRows(qhJ, w, coef, geo, 0, nx);
        float[] qhT = qp.clone();
        run(graph(qhT, w, coef, geo).task("h", AcousticAdjointKernels2D::ghostRows, qhT, w, coef, geo, 0, nx), qhT);
        TornadoSupport.compare(changed(qhJ, qp, qhJ), changed(qhJ, qp, qhT),
                "AcousticAdjointKernels2D.ghostRows (written cells)");

        float[] unJ = qp.clone();
        AcousticAdjointKernels2D.reverse(u, unJ, v2, d, geo, 6, 30, 5, 39);
        float[] unT = qp.clone();
        run(graph(u, unT, v2, d, geo).task("r", AcousticAdjointKernels2D::reverse, u, unT, v2, d, geo, 6, 30, 5, 39),
                unT);
        TornadoSupport.compare(changed(unJ, qp, unJ), changed(unJ, qp, unT),
                "AcousticAdjointKernels2D.reverse (written cells)");
    }

    /**
     * The adjoint kernels (3-D) on random data: whole grid, band slabs, the stencil-clear box; written cells compared.
     */
    @Test
    void adjoint3d() {
        TornadoSupport.requireDevice();
        int nz = 14;
        int ny = 13;
        int nx = 17;
        int band = 4;
        int[] geo = geo3(nz, ny, nx, band);
        int len = geo[Layout.LEN];
        Random r = new Random(13);
        float[] coef = random(r, Layout.coefSize(H), -0.5f, 0.5f);
        float[] prof = random(r, 2 * (nz + ny + nx), 0, 1);
        float[] qb = random(r, len, -1, 1);
        float[] v2 = random(r, len, 0.01f, 0.2f);
        float[] w = random(r, len, -1, 1);
        float[] grad = random(r, len, -1, 1);
        float[] d = random(r, len, -1, 1);
        float[] cor = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] pb = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] zetab = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] psib = random(r, geo[Layout.AUX_LEN], -0.1f, 0.1f);
        float[] qp = random(r, len, -1, 1);
        float[] u = random(r, len, -1, 1);
        int in0 = band;

        float[] qJ = qb.clone();
        AcousticAdjointKernels3D.mirrorTopAdjoint(qJ, geo, 0, ny, 0, nx);
        float[] qT = qb.clone();
        run(graph(qT, geo).task("m", AcousticAdjointKernels3D::mirrorTopAdjoint, qT, geo, 0, ny, 0, nx), qT);
        TornadoSupport.compare(qJ, qT, "AcousticAdjointKernels3D.mirrorTopAdjoint");

        float[] wJ = w.clone();
        float[] gJ = grad.clone();
        AcousticAdjointKernels3D.scale(qb, v2, wJ, gJ, d, geo, 0, nz, 0, ny, 0, nx);
        float[] wT = w.clone();
        float[] gT = grad.clone();
        run(graph(qb, v2, wT, gT, d, geo).task("s", AcousticAdjointKernels3D::scale, qb, v2, wT, gT, d, geo, 0, nz, 0,
                ny, 0, nx), wT,
                gT);
        TornadoSupport.compare(changed(wJ, w, wJ), changed(wJ, w, wT),
                "AcousticAdjointKernels3D.scale (w, written cells)");
        TornadoSupport.compare(gJ, gT, "AcousticAdjointKernels3D.scale (grad)");

        float[] zJ = zetab.clone();
        float[] cJ = cor.clone();
        AcousticAdjointKernels3D.pmlZeta(w, zJ, cJ, prof, geo, 0, band, 0, ny, 0, nx);
        AcousticAdjointKernels3D.pmlZeta(w, zJ, cJ, prof, geo, band, nz - band, 0, band, 0, nx);
        AcousticAdjointKernels3D.pmlZeta(w, zJ, cJ, prof, geo, band, nz - band, band, ny - band, nx - band, nx);
        float[] zT = zetab.clone();
        float[] cT = cor.clone();
        run(graph(w, zT, cT, prof, geo).task("z0", AcousticAdjointKernels3D::pmlZeta, w, zT, cT, prof, geo, 0, band, 0,
                ny, 0, nx)
                .task("z1", AcousticAdjointKernels3D::pmlZeta, w, zT, cT, prof, geo, band, nz - band, 0, band, 0, nx)
                .task("z2", AcousticAdjointKernels3D::pmlZeta, w, zT, cT, prof, geo, band, nz - band, band, ny - band,
                        nx - band, nx),
                zT, cT);
        TornadoSupport.compare(changed(zJ, zetab, zJ), changed(zJ, zetab, zT),
                "AcousticAdjointKernels3D.pmlZeta (zetab)");
        TornadoSupport.compare(changed(cJ, cor, cJ), changed(cJ, cor, cT),
                "AcousticAdjointKernels3D.pmlZeta (cor, written cells)");

        float[] psJ = psib.clone();
        float[] pbJ = pb.clone();
        AcousticAdjointKernels3D.pmlPsi(w, cor, psJ, pbJ, prof, coef, geo, 0, band, 0, ny, 0, nx);
        AcousticAdjointKernels3D.pmlPsi(w, cor, psJ, pbJ, prof, coef, geo, band, nz - band, 0, band, 0, nx);
        AcousticAdjointKernels3D.pmlPsi(w, cor, psJ, pbJ, prof, coef, geo, band, nz - band, band, ny - band, 0, band);
        float[] psT = psib.clone();
        float[] pbT = pb.clone();
        run(graph(w, cor, psT, pbT, prof, coef, geo)
                .task("p0", AcousticAdjointKernels3D::pmlPsi, w, cor, psT, pbT, prof, coef, geo, 0, band, 0, ny, 0, nx)
                .task("p1", AcousticAdjointKernels3D::pmlPsi, w, cor, psT, pbT, prof, coef, geo, band, nz - band, 0,
                        band, 0, nx)
                .task("p2", AcousticAdjointKernels3D::pmlPsi, w, cor, psT, pbT, prof, coef, geo, band, nz - band, band,
                        ny - band, 0,
                        band), psT, pbT);
        TornadoSupport.compare(changed(psJ, psib, psJ), changed(psJ, psib, psT),
                "AcousticAdjointKernels3D.pmlPsi (psib)");
        TornadoSupport.compare(changed(pbJ, pb, pbJ), changed(pbJ, pb, pbT),
                "AcousticAdjointKernels3D.pmlPsi (pb, written cells)");

        float[] qpJ = qp.clone();
        AcousticAdjointKernels3D.interior(qpJ, qb, w, coef, geo, in0, nz - in0, in0, ny - in0, in0, nx - in0);
        float[] qpT = qp.clone();
        run(graph(qpT, qb, w, coef, geo).task("i", AcousticAdjointKernels3D::interior, qpT, qb, w, coef, geo, in0,
                nz - in0, in0,
                ny - in0, in0, nx - in0), qpT);
        TornadoSupport.compare(changed(qpJ, qp, qpJ), changed(qpJ, qp, qpT),
                "AcousticAdjointKernels3D.interior (written cells)");

        float[] qgJ = qp.clone();
        AcousticAdjointKernels3D.general(qgJ, qb, w, cor, pb, coef, geo, 0, nz, 0, ny, 0, nx);
        float[] qgT = qp.clone();
        run(graph(qgT, qb, w, cor, pb, coef, geo)
                .task("g", AcousticAdjointKernels3D::general, qgT, qb, w, cor, pb, coef, geo, 0, nz, 0, ny, 0, nx),
                        qgT);
        TornadoSupport.compare(changed(qgJ, qp, qgJ), changed(qgJ, qp, qgT),
                "AcousticAdjointKernels3D.general (written cells)");

        float[] qhJ = qp.clone();
        AcousticAdjointKernels3D.ghostRows(qhJ, w, coef, geo, 0, ny, 0, nx);
        float[] qhT = qp.clone();
        run(graph(qhT, w, coef, geo).task("h", AcousticAdjointKernels3D::ghostRows, qhT, w, coef, geo, 0, ny, 0, nx),
                qhT);
        TornadoSupport.compare(changed(qhJ, qp, qhJ), changed(qhJ, qp, qhT),
                "AcousticAdjointKernels3D.ghostRows (written cells)");

        float[] unJ = qp.clone();
        AcousticAdjointKernels3D.reverse(u, unJ, v2, d, geo, band, nz - band, band, ny - band, band, nx - band);
        float[] unT = qp.clone();
        run(graph(u, unT, v2, d, geo).task("r", AcousticAdjointKernels3D::reverse, u, unT, v2, d, geo, band, nz - band,
                band, ny - band,
                band, nx - band), unT);
        TornadoSupport.compare(changed(unJ, qp, unJ), changed(unJ, qp, unT),
                "AcousticAdjointKernels3D.reverse (written cells)");
    }
}
