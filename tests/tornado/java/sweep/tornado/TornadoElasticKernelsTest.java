package sweep.tornado;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.elastic.kernels.ElasticAdjointKernels2D;
import sweep.elastic.kernels.ElasticAdjointKernels3D;
import sweep.elastic.kernels.ElasticKernels2D;
import sweep.elastic.kernels.ElasticKernels3D;
import sweep.elastic.kernels.ElasticLayout;
import sweep.elastic.kernels.ElasticSources;
import sweep.elastic.tornado.ElasticStepKernels;
import sweep.kernels.Layout;
import sweep.kernels.Pack;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * Every elastic kernel (forward sub-steps, free-surface images, receivers, the taped forward sub-steps, the transposed
 * sub-steps and their memory-variable recursions and image rows, the inverse sub-steps of boundary saving) and the
 * elastic glue of the device stepper, compiled by TornadoVM (bailout to Java an error) on random data, against the
 * plain Java call: the same bits under strict math, within 1e-5 of the largest reference value under TornadoVM's
 * defaults. The grids have PML bands on every side (memory variables in every slab) and a free-surface variant
 * (no top band), the boxes are the ones the stepper launches (the whole computational grid, the band boxes, the
 * rebuilt box, the top row of columns). Outputs a kernel only writes are not copied to the device by TornadoVM, so
 * only the cells it writes are compared.
 */
class TornadoElasticKernelsTest {
    private static int graphs;

    /**
     * An elastic geometry ({@link Layout} and {@link ElasticLayout} slots, as the solver's grid builds it): halo h,
     * computational nz × ny × nx (ny = 1 in 2-D), bands [0, lo) and [hi, n) per axis z, y, x ({@code band} lo/hi
     * pairs; hi = n: no high band), row padding of 3 floats, free surface flag.
     */
    static int[] geo(int ndim, int h, int nz, int ny, int nx, int[] band, boolean fs) {
        int[] geo = new int[ElasticLayout.GEO_SIZE];
        int sy = ndim == 3 ? nx + 2 * h + 3 : 0;
        int sz = ndim == 3 ? (ny + 2 * h) * sy : nx + 2 * h + 3;
        geo[Layout.NDIM] = ndim;
        geo[Layout.H] = h;
        geo[Layout.NZ] = nz;
        geo[Layout.NY] = ny;
        geo[Layout.NX] = nx;
        geo[Layout.SZ] = sz;
        geo[Layout.SY] = sy;
        geo[Layout.ZBL] = band[0];
        geo[Layout.ZBH] = band[1];
        geo[Layout.YBL] = band[2];
        geo[Layout.YBH] = band[3];
        geo[Layout.XBL] = band[4];
        geo[Layout.XBH] = band[5];
        geo[Layout.OFF0] = h * sz + (ndim == 3 ? h * sy : 0) + h;
        geo[Layout.LEN] = (nz + 2 * h) * sz;
        int[] n = {nz, ny, nx};
        int[] w = new int[3];
        int[] bhh = new int[3];
        for (int a = 0; a < 3; a++) {
            bhh[a] = band[2 * a + 1] < n[a] ? band[2 * a + 1] - 1 : n[a];
            w[a] = band[2 * a] + n[a] - bhh[a];
        }
        int k = ElasticLayout.psiPerAxis(ndim);
        int slabZ = w[0] * ny * nx;
        int slabY = nz * w[1] * nx;
        int slabX = nz * ny * w[2];
        geo[ElasticLayout.FS] = fs ? 1 : 0;
        geo[ElasticLayout.ZBHH] = bhh[0];
        geo[ElasticLayout.YBHH] = bhh[1];
        geo[ElasticLayout.XBHH] = bhh[2];
        geo[ElasticLayout.WZ] = w[0];
        geo[ElasticLayout.WY] = w[1];
        geo[ElasticLayout.WX] = w[2];
        geo[ElasticLayout.PSI_Z] = 0;
        geo[ElasticLayout.PSI_Y] = k * slabZ;
        geo[ElasticLayout.PSI_X] = k * slabZ + k * slabY;
        geo[ElasticLayout.SLAB_Z] = slabZ;
        geo[ElasticLayout.SLAB_Y] = slabY;
        geo[ElasticLayout.SLAB_X] = slabX;
        return geo;
    }

    private static int psiLength(int[] geo) {
        return geo[ElasticLayout.PSI_X] + ElasticLayout.psiPerAxis(geo[Layout.NDIM]) * geo[ElasticLayout.SLAB_X];
    }

    private static float[] random(Random r, int n, float lo, float hi) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + (hi - lo) * r.nextFloat();
        }
        return a;
    }

    /** Runs {@code graph}'s tasks on the device, the listed arrays copied back. */
    private static void run(TaskGraph graph, Object... out) {
        graph.transferToHost(DataTransferMode.EVERY_EXECUTION, out);
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
        return new TaskGraph("e" + (++graphs)).transferToDevice(DataTransferMode.EVERY_EXECUTION, in);
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
        return Arrays.copyOf(out, n);
    }

    /** The compact cells (component-major, {@code nc} per component) of box [z0,z1)×[y0,y1)×[x0,x1). */
    private static float[] compactBox(float[] t, int comps, int ny, int nx, int nc, int z0, int z1, int y0, int y1,
                                      int x0, int x1) {
        float[] out = new float[comps * (z1 - z0) * (y1 - y0) * (x1 - x0)];
        int k = 0;
        for (int c = 0; c < comps; c++) {
            for (int z = z0; z < z1; z++) {
                for (int y = y0; y < y1; y++) {
                    for (int x = x0; x < x1; x++) {
                        out[k++] = t[c * nc + (z * ny + y) * nx + x];
                    }
                }
            }
        }
        return out;
    }

    /** The random state of one grid: fields, parameters, memory variables, profiles, weights. */
    private static final class State {
        final int[] geo;
        final int ndim;
        final int nz;
        final int ny;
        final int nx;
        final int nc;
        final int nv;
        final int ns;
        final float[] coef;
        final float[] prof;
        final float[] v;
        final float[] s;
        final float[] b;
        final float[] m;
        final float[] psi;
        final float[] tv;
        final float[] ts;
        final float[] gb;
        final float[] gm;

        State(int[] geo, long seed) {
            this.geo = geo;
            ndim = geo[Layout.NDIM];
            nz = geo[Layout.NZ];
            ny = geo[Layout.NY];
            nx = geo[Layout.NX];
            nc = nz * ny * nx;
            nv = ElasticLayout.velocities(ndim);
            ns = ElasticLayout.stresses(ndim);
            int len = geo[Layout.LEN];
            int h = geo[Layout.H];
            Random r = new Random(seed);
            coef = random(r, 3 * h, -1.2f, 1.2f);
            prof = random(r, 4 * (nz + ny + nx), -0.9f, 0.95f);
            v = random(r, nv * len, -1, 1);
            s = random(r, ns * len, -1, 1);
            b = random(r, nv * len, 0.01f, 0.3f);
            m = random(r, ElasticLayout.moduli(ndim) * len, 0.01f, 0.3f);
            psi = random(r, psiLength(geo), -0.2f, 0.2f);
            tv = random(r, nv * nc, -1, 1);
            ts = random(r, ns * nc, -1, 1);
            gb = random(r, nv * len, -1, 1);
            gm = random(r, ElasticLayout.moduli(ndim) * len, -1, 1);
        }
    }

    @Test
    void forward2d() {
        TornadoSupport.requireDevice();
        int nz = 30;
        int nx = 37;
        State st = new State(geo(2, 4, nz, 1, nx, new int[] {5, 24, 0, 1, 6, 31}, false), 3);
        forward(st, "2-D");
    }

    @Test
    void forward3d() {
        TornadoSupport.requireDevice();
        State st = new State(geo(3, 3, 13, 12, 14, new int[] {4, 9, 3, 9, 4, 10}, false), 5);
        forward(st, "3-D");
    }

    /** Velocity and stress sub-steps (plain and taped) over the whole grid and over one band box. */
    private static void forward(State st, String d) {
        int[] geo = st.geo;
        boolean two = st.ndim == 2;
        int nz = st.nz;
        int ny = st.ny;
        int nx = st.nx;
        float[] vJ = st.v.clone();
        float[] psiJ = st.psi.clone();
        if (two) {
            ElasticKernels2D.velocity(vJ, st.s, st.b, psiJ, st.prof, st.coef, geo, 0, nz, 0, nx);
        } else {
            ElasticKernels3D.velocity(vJ, st.s, st.b, psiJ, st.prof, st.coef, geo, 0, nz, 0, ny, 0, nx);
        }
        float[] vT = st.v.clone();
        float[] psiT = st.psi.clone();
        TaskGraph t = graph(vT, st.s, st.b, psiT, st.prof, st.coef, geo);
        if (two) {
            t.task("vel", ElasticKernels2D::velocity, vT, st.s, st.b, psiT, st.prof, st.coef, geo, 0, nz, 0, nx);
        } else {
            t.task("vel", ElasticKernels3D::velocity, vT, st.s, st.b, psiT, st.prof, st.coef, geo, 0, nz, 0, ny, 0, nx);
        }
        run(t, vT, psiT);
        TornadoSupport.compare(vJ, vT, d + " velocity (v)");
        TornadoSupport.compare(psiJ, psiT, d + " velocity (psi)");

        float[] sJ = st.s.clone();
        psiJ = st.psi.clone();
        // the high-x band box only, then the rest of the grid: the split the stepper does not make, same bits
        int xb = geo[Layout.XBH];
        if (two) {
            ElasticKernels2D.stress(st.v, sJ, st.m, psiJ, st.prof, st.coef, geo, 0, nz, xb, nx);
            ElasticKernels2D.stress(st.v, sJ, st.m, psiJ, st.prof, st.coef, geo, 0, nz, 0, xb);
        } else {
            ElasticKernels3D.stress(st.v, sJ, st.m, psiJ, st.prof, st.coef, geo, 0, nz, 0, ny, xb, nx);
            ElasticKernels3D.stress(st.v, sJ, st.m, psiJ, st.prof, st.coef, geo, 0, nz, 0, ny, 0, xb);
        }
        float[] sT = st.s.clone();
        psiT = st.psi.clone();
        t = graph(st.v, sT, st.m, psiT, st.prof, st.coef, geo);
        if (two) {
            t.task("s0", ElasticKernels2D::stress, st.v, sT, st.m, psiT, st.prof, st.coef, geo, 0, nz, xb, nx)
                    .task("s1", ElasticKernels2D::stress, st.v, sT, st.m, psiT, st.prof, st.coef, geo, 0, nz, 0, xb);
        } else {
            t.task("s0", ElasticKernels3D::stress, st.v, sT, st.m, psiT, st.prof, st.coef, geo, 0, nz, 0, ny, xb, nx)
                    .task("s1", ElasticKernels3D::stress, st.v, sT, st.m, psiT, st.prof, st.coef, geo, 0, nz, 0, ny, 0,
                            xb);
        }
        run(t, sT, psiT);
        TornadoSupport.compare(sJ, sT, d + " stress (s)");
        TornadoSupport.compare(psiJ, psiT, d + " stress (psi)");

        // taped sub-steps: the term arrays are write-only, written on every cell of the whole-grid box
        vJ = st.v.clone();
        psiJ = st.psi.clone();
        float[] tvJ = st.tv.clone();
        if (two) {
            ElasticAdjointKernels2D.velocityTaped(vJ, st.s, st.b, psiJ, st.prof, st.coef, geo, tvJ, 0, nz, 0, nx);
        } else {
            ElasticAdjointKernels3D.velocityTaped(vJ, st.s, st.b, psiJ, st.prof, st.coef, geo, tvJ, 0, nz, 0, ny, 0,
                    nx);
        }
        vT = st.v.clone();
        psiT = st.psi.clone();
        float[] tvT = new float[tvJ.length];
        t = graph(vT, st.s, st.b, psiT, st.prof, st.coef, geo);
        if (two) {
            t.task("vt", ElasticAdjointKernels2D::velocityTaped, vT, st.s, st.b, psiT, st.prof, st.coef, geo, tvT, 0,
                    nz, 0,
                    nx);
        } else {
            t.task("vt", ElasticAdjointKernels3D::velocityTaped, vT, st.s, st.b, psiT, st.prof, st.coef, geo, tvT, 0,
                    nz, 0,
                    ny, 0, nx);
        }
        run(t, vT, psiT, tvT);
        TornadoSupport.compare(vJ, vT, d + " velocityTaped (v)");
        TornadoSupport.compare(psiJ, psiT, d + " velocityTaped (psi)");
        TornadoSupport.compare(tvJ, tvT, d + " velocityTaped (terms)");

        sJ = st.s.clone();
        psiJ = st.psi.clone();
        float[] tsJ = st.ts.clone();
        if (two) {
            ElasticAdjointKernels2D.stressTaped(st.v, sJ, st.m, psiJ, st.prof, st.coef, geo, tsJ, 0, nz, 0, nx);
        } else {
            ElasticAdjointKernels3D.stressTaped(st.v, sJ, st.m, psiJ, st.prof, st.coef, geo, tsJ, 0, nz, 0, ny, 0, nx);
        }
        sT = st.s.clone();
        psiT = st.psi.clone();
        float[] tsT = new float[tsJ.length];
        t = graph(st.v, sT, st.m, psiT, st.prof, st.coef, geo);
        if (two) {
            t.task("st", ElasticAdjointKernels2D::stressTaped, st.v, sT, st.m, psiT, st.prof, st.coef, geo, tsT, 0, nz,
                    0, nx);
        } else {
            t.task("st", ElasticAdjointKernels3D::stressTaped, st.v, sT, st.m, psiT, st.prof, st.coef, geo, tsT, 0, nz,
                    0, ny,
                    0, nx);
        }
        run(t, sT, psiT, tsT);
        TornadoSupport.compare(sJ, sT, d + " stressTaped (s)");
        TornadoSupport.compare(psiJ, psiT, d + " stressTaped (psi)");
        TornadoSupport.compare(tsJ, tsT, d + " stressTaped (terms)");
    }

    @Test
    void adjoint2d() {
        TornadoSupport.requireDevice();
        State st = new State(geo(2, 4, 30, 1, 37, new int[] {5, 24, 0, 1, 6, 31}, false), 7);
        adjoint(st, "2-D");
    }

    @Test
    void adjoint3d() {
        TornadoSupport.requireDevice();
        State st = new State(geo(3, 3, 13, 12, 14, new int[] {4, 9, 3, 9, 4, 10}, false), 9);
        adjoint(st, "3-D");
    }

    /**
     * The transposed sub-steps over the whole grid, the memory-variable recursions over the band boxes the stepper
     * launches, the inverse sub-steps over the rebuilt box.
     */
    private static void adjoint(State st, String d) {
        int[] geo = st.geo;
        boolean two = st.ndim == 2;
        int nz = st.nz;
        int ny = st.ny;
        int nx = st.nx;
        // adjoint fields: random v̄ (st.v), σ̄ (st.s), ψ̄ (st.psi)
        float[] vbJ = st.v.clone();
        float[] gmJ = st.gm.clone();
        if (two) {
            ElasticAdjointKernels2D.stressAdjoint(vbJ, st.s, st.m, st.psi, st.prof, st.coef, geo, st.ts, gmJ, 0, nz, 0,
                    nx);
        } else {
            ElasticAdjointKernels3D.stressAdjoint(vbJ, st.s, st.m, st.psi, st.prof, st.coef, geo, st.ts, gmJ, 0, nz, 0,
                    ny, 0,
                    nx);
        }
        float[] vbT = st.v.clone();
        float[] gmT = st.gm.clone();
        TaskGraph t = graph(vbT, st.s, st.m, st.psi, st.prof, st.coef, geo, st.ts, gmT);
        if (two) {
            t.task("sa", ElasticAdjointKernels2D::stressAdjoint, vbT, st.s, st.m, st.psi, st.prof, st.coef, geo, st.ts,
                    gmT, 0,
                    nz, 0, nx);
        } else {
            t.task("sa", ElasticAdjointKernels3D::stressAdjoint, vbT, st.s, st.m, st.psi, st.prof, st.coef, geo, st.ts,
                    gmT, 0,
                    nz, 0, ny, 0, nx);
        }
        run(t, vbT, gmT);
        TornadoSupport.compare(vbJ, vbT, d + " stressAdjoint (vb)");
        TornadoSupport.compare(gmJ, gmT, d + " stressAdjoint (gm)");

        float[] sbJ = st.s.clone();
        float[] gbJ = st.gb.clone();
        if (two) {
            ElasticAdjointKernels2D.velocityAdjoint(sbJ, st.v, st.b, st.psi, st.prof, st.coef, geo, st.tv, gbJ, 0, nz,
                    0, nx);
        } else {
            ElasticAdjointKernels3D.velocityAdjoint(sbJ, st.v, st.b, st.psi, st.prof, st.coef, geo, st.tv, gbJ, 0, nz,
                    0, ny,
                    0, nx);
        }
        float[] sbT = st.s.clone();
        float[] gbT = st.gb.clone();
        t = graph(sbT, st.v, st.b, st.psi, st.prof, st.coef, geo, st.tv, gbT);
        if (two) {
            t.task("va", ElasticAdjointKernels2D::velocityAdjoint, sbT, st.v, st.b, st.psi, st.prof, st.coef, geo,
                    st.tv, gbT,
                    0, nz, 0, nx);
        } else {
            t.task("va", ElasticAdjointKernels3D::velocityAdjoint, sbT, st.v, st.b, st.psi, st.prof, st.coef, geo,
                    st.tv, gbT,
                    0, nz, 0, ny, 0, nx);
        }
        run(t, sbT, gbT);
        TornadoSupport.compare(sbJ, sbT, d + " velocityAdjoint (sb)");
        TornadoSupport.compare(gbJ, gbT, d + " velocityAdjoint (gb)");

        // the ψ̄ recursions over the band boxes around the rebuilt box [?BL, ?BHH) (as ElasticAdjoint runs them)
        int[][] boxes = bandBoxes(geo);
        float[] psJ = st.psi.clone();
        float[] pvJ = st.psi.clone();
        for (int[] q : boxes) {
            if (two) {
                ElasticAdjointKernels2D.stressPsiAdjoint(st.s, st.m, psJ, st.prof, geo, q[0], q[1], q[4], q[5]);
                ElasticAdjointKernels2D.velocityPsiAdjoint(st.v, st.b, pvJ, st.prof, geo, q[0], q[1], q[4], q[5]);
            } else {
                ElasticAdjointKernels3D.stressPsiAdjoint(st.s, st.m, psJ, st.prof, geo, q[0], q[1], q[2], q[3], q[4],
                        q[5]);
                ElasticAdjointKernels3D.velocityPsiAdjoint(st.v, st.b, pvJ, st.prof, geo, q[0], q[1], q[2], q[3], q[4],
                        q[5]);
            }
        }
        float[] psT = st.psi.clone();
        float[] pvT = st.psi.clone();
        t = graph(st.s, st.v, st.m, st.b, psT, pvT, st.prof, geo);
        int k = 0;
        for (int[] q : boxes) {
            if (two) {
                t.task("sp" + k, ElasticAdjointKernels2D::stressPsiAdjoint, st.s, st.m, psT, st.prof, geo, q[0], q[1],
                        q[4],
                        q[5]);
                t.task("vp" + k++, ElasticAdjointKernels2D::velocityPsiAdjoint, st.v, st.b, pvT, st.prof, geo, q[0],
                        q[1],
                        q[4], q[5]);
            } else {
                t.task("sp" + k, ElasticAdjointKernels3D::stressPsiAdjoint, st.s, st.m, psT, st.prof, geo, q[0], q[1],
                        q[2],
                        q[3], q[4], q[5]);
                t.task("vp" + k++, ElasticAdjointKernels3D::velocityPsiAdjoint, st.v, st.b, pvT, st.prof, geo, q[0],
                        q[1],
                        q[2], q[3], q[4], q[5]);
            }
        }
        run(t, psT, pvT);
        TornadoSupport.compare(psJ, psT, d + " stressPsiAdjoint (psib)");
        TornadoSupport.compare(pvJ, pvT, d + " velocityPsiAdjoint (psib)");

        // inverse sub-steps over the rebuilt box; the terms are written on its cells only
        int[] in = {geo[Layout.ZBL], geo[ElasticLayout.ZBHH], geo[Layout.YBL], geo[ElasticLayout.YBHH],
            geo[Layout.XBL], geo[ElasticLayout.XBHH]};
        float[] sJ = st.s.clone();
        float[] tsJ = st.ts.clone();
        float[] vJ = st.v.clone();
        float[] tvJ = st.tv.clone();
        if (two) {
            ElasticAdjointKernels2D.rebuildStress(st.v, sJ, st.m, st.coef, geo, tsJ, in[0], in[1], in[4], in[5]);
            ElasticAdjointKernels2D.rebuildVelocity(vJ, st.s, st.b, st.coef, geo, tvJ, in[0], in[1], in[4], in[5]);
        } else {
            ElasticAdjointKernels3D.rebuildStress(st.v, sJ, st.m, st.coef, geo, tsJ, in[0], in[1], in[2], in[3], in[4],
                    in[5]);
            ElasticAdjointKernels3D.rebuildVelocity(vJ, st.s, st.b, st.coef, geo, tvJ, in[0], in[1], in[2], in[3],
                    in[4],
                    in[5]);
        }
        float[] sT = st.s.clone();
        float[] tsT = new float[tsJ.length];
        float[] vT = st.v.clone();
        float[] tvT = new float[tvJ.length];
        t = graph(st.v, sT, vT, st.s, st.m, st.b, st.coef, geo);
        if (two) {
            t.task("rs", ElasticAdjointKernels2D::rebuildStress, st.v, sT, st.m, st.coef, geo, tsT, in[0], in[1], in[4],
                    in[5]);
            t.task("rv", ElasticAdjointKernels2D::rebuildVelocity, vT, st.s, st.b, st.coef, geo, tvT, in[0], in[1],
                    in[4],
                    in[5]);
        } else {
            t.task("rs", ElasticAdjointKernels3D::rebuildStress, st.v, sT, st.m, st.coef, geo, tsT, in[0], in[1], in[2],
                    in[3],
                    in[4], in[5]);
            t.task("rv", ElasticAdjointKernels3D::rebuildVelocity, vT, st.s, st.b, st.coef, geo, tvT, in[0], in[1],
                    in[2],
                    in[3], in[4], in[5]);
        }
        run(t, sT, tsT, vT, tvT);
        TornadoSupport.compare(sJ, sT, d + " rebuildStress (s)");
        TornadoSupport.compare(vJ, vT, d + " rebuildVelocity (v)");
        TornadoSupport.compare(compactBox(tsJ, st.ns, ny, nx, st.nc, in[0], in[1], in[2], in[3], in[4], in[5]),
                compactBox(tsT, st.ns, ny, nx, st.nc, in[0], in[1], in[2], in[3], in[4], in[5]),
                d + " rebuildStress (terms, box cells)");
        TornadoSupport.compare(compactBox(tvJ, st.nv, ny, nx, st.nc, in[0], in[1], in[2], in[3], in[4], in[5]),
                compactBox(tvT, st.nv, ny, nx, st.nc, in[0], in[1], in[2], in[3], in[4], in[5]),
                d + " rebuildVelocity (terms, box cells)");
    }

    /** Boxes {z0,z1,y0,y1,x0,x1} around [?BL, ?BHH) on every axis (z slabs, then y, then x), as ElasticAdjoint's. */
    private static int[][] bandBoxes(int[] geo) {
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int zl = geo[Layout.ZBL];
        int zh = geo[ElasticLayout.ZBHH];
        int yl = geo[Layout.YBL];
        int yh = geo[ElasticLayout.YBHH];
        int xl = geo[Layout.XBL];
        int xh = geo[ElasticLayout.XBHH];
        int[][] all = {{0, zl, 0, ny, 0, nx}, {zh, nz, 0, ny, 0, nx}, {zl, zh, 0, yl, 0, nx}, {zl, zh, yh, ny, 0, nx},
            {zl, zh, yl, yh, 0, xl}, {zl, zh, yl, yh, xh, nx}};
        return Arrays.stream(all).filter(q -> q[0] < q[1] & q[2] < q[3] & q[4] < q[5]).toArray(int[][]::new);
    }

    @Test
    void freeSurface2d() {
        TornadoSupport.requireDevice();
        State st = new State(geo(2, 4, 26, 1, 33, new int[] {0, 20, 0, 1, 5, 28}, true), 11);
        freeSurface(st, "2-D");
    }

    @Test
    void freeSurface3d() {
        TornadoSupport.requireDevice();
        State st = new State(geo(3, 3, 11, 12, 13, new int[] {0, 7, 3, 9, 3, 10}, true), 13);
        freeSurface(st, "3-D");
    }

    /** The image kernels and their transposes over the top row's columns (the whole row, as the stepper runs them). */
    private static void freeSurface(State st, String d) {
        int[] geo = st.geo;
        boolean two = st.ndim == 2;
        int ny = st.ny;
        int nx = st.nx;
        float[] vJ = st.v.clone();
        float[] sJ = st.s.clone();
        float[] vbJ = st.v.clone();
        float[] sbJ = st.s.clone();
        if (two) {
            ElasticKernels2D.freeSurfaceVelocity(vJ, geo, 0, nx);
            ElasticKernels2D.freeSurfaceStress(sJ, geo, 0, nx);
            ElasticAdjointKernels2D.freeSurfaceVelocityAdjoint(vbJ, geo, 0, nx);
            ElasticAdjointKernels2D.freeSurfaceStressAdjoint(sbJ, geo, 0, nx);
        } else {
            ElasticKernels3D.freeSurfaceVelocity(vJ, geo, 0, ny, 0, nx);
            ElasticKernels3D.freeSurfaceStress(sJ, geo, 0, ny, 0, nx);
            ElasticAdjointKernels3D.freeSurfaceVelocityAdjoint(vbJ, geo, 0, ny, 0, nx);
            ElasticAdjointKernels3D.freeSurfaceStressAdjoint(sbJ, geo, 0, ny, 0, nx);
        }
        float[] vT = st.v.clone();
        float[] sT = st.s.clone();
        float[] vbT = st.v.clone();
        float[] sbT = st.s.clone();
        TaskGraph t = graph(vT, sT, vbT, sbT, geo);
        if (two) {
            t.task("fv", ElasticKernels2D::freeSurfaceVelocity, vT, geo, 0, nx)
                    .task("fs", ElasticKernels2D::freeSurfaceStress, sT, geo, 0, nx)
                    .task("fva", ElasticAdjointKernels2D::freeSurfaceVelocityAdjoint, vbT, geo, 0, nx)
                    .task("fsa", ElasticAdjointKernels2D::freeSurfaceStressAdjoint, sbT, geo, 0, nx);
        } else {
            t.task("fv", ElasticKernels3D::freeSurfaceVelocity, vT, geo, 0, ny, 0, nx)
                    .task("fs", ElasticKernels3D::freeSurfaceStress, sT, geo, 0, ny, 0, nx)
                    .task("fva", ElasticAdjointKernels3D::freeSurfaceVelocityAdjoint, vbT, geo, 0, ny, 0, nx)
                    .task("fsa", ElasticAdjointKernels3D::freeSurfaceStressAdjoint, sbT, geo, 0, ny, 0, nx);
        }
        run(t, vT, sT, vbT, sbT);
        TornadoSupport.compare(vJ, vT, d + " freeSurfaceVelocity");
        TornadoSupport.compare(sJ, sT, d + " freeSurfaceStress");
        TornadoSupport.compare(vbJ, vbT, d + " freeSurfaceVelocityAdjoint");
        TornadoSupport.compare(sbJ, sbT, d + " freeSurfaceStressAdjoint");

        // the adjoint values of the image rows, gathered from the computational nodes
        vbJ = st.v.clone();
        sbJ = st.s.clone();
        if (two) {
            ElasticAdjointKernels2D.stressAdjointImages(vbJ, st.s, st.m, st.psi, st.prof, st.coef, geo, 0, nx);
            ElasticAdjointKernels2D.velocityAdjointImages(sbJ, st.v, st.b, st.psi, st.prof, st.coef, geo, 0, nx);
        } else {
            ElasticAdjointKernels3D.stressAdjointImages(vbJ, st.s, st.m, st.psi, st.prof, st.coef, geo, 0, ny, 0, nx);
            ElasticAdjointKernels3D.velocityAdjointImages(sbJ, st.v, st.b, st.psi, st.prof, st.coef, geo, 0, ny, 0, nx);
        }
        vbT = st.v.clone();
        sbT = st.s.clone();
        t = graph(vbT, sbT, st.v, st.s, st.m, st.b, st.psi, st.prof, st.coef, geo);
        if (two) {
            t.task("sai", ElasticAdjointKernels2D::stressAdjointImages, vbT, st.s, st.m, st.psi, st.prof, st.coef, geo,
                    0, nx)
                    .task("vai", ElasticAdjointKernels2D::velocityAdjointImages, sbT, st.v, st.b, st.psi, st.prof,
                            st.coef,
                            geo, 0, nx);
        } else {
            t.task("sai", ElasticAdjointKernels3D::stressAdjointImages, vbT, st.s, st.m, st.psi, st.prof, st.coef, geo,
                    0, ny,
                    0, nx)
                    .task("vai", ElasticAdjointKernels3D::velocityAdjointImages, sbT, st.v, st.b, st.psi, st.prof,
                            st.coef,
                            geo, 0, ny, 0, nx);
        }
        run(t, vbT, sbT);
        TornadoSupport.compare(vbJ, vbT, d + " stressAdjointImages (vb)");
        TornadoSupport.compare(sbJ, sbT, d + " velocityAdjointImages (sb)");
    }

    /** Receivers and their transpose, the source glue and the ring copies, 2-D and 3-D. */
    @Test
    void sourcesReceiversAndRing() {
        TornadoSupport.requireDevice();
        for (int ndim = 2; ndim <= 3; ndim++) {
            int[] geo = ndim == 2 ? geo(2, 4, 30, 1, 37, new int[] {5, 24, 0, 1, 6, 31}, false)
                    : geo(3, 3, 13, 12, 14, new int[] {4, 9, 3, 9, 4, 10}, false);
            State st = new State(geo, 17 + ndim);
            String d = ndim + "-D";
            int len = geo[Layout.LEN];
            int off = geo[Layout.OFF0];
            int sz = geo[Layout.SZ];
            // p (kind 0) and velocities (kind 1, component offsets), a node recorded twice (sampleAdjoint adds twice)
            int[] idx = {off + 3 * sz + 5, len + off + 7 * sz + 2, off + 3 * sz + 5, off + 11 * sz + 9,
                (ndim - 1) * len + off + 2 * sz + 8};
            int[] kind = {0, 1, 0, 0, 1};
            int nval = idx.length;
            int nt = 9;
            int n = 6;
            int[] step = {n};
            float[] rec0 = random(new Random(ndim), nt * nval, -1, 1);
            float[] recJ = rec0.clone();
            ElasticSources.sample(st.v, st.s, idx, kind, recJ, nval, ndim, len, n);
            float[] recT = rec0.clone();
            run(graph(st.v, st.s, idx, kind, step, geo).task("rec", ElasticStepKernels::sampleAt, st.v, st.s, idx,
                    kind, recT, nval, ndim, len, step), recT);
            // rec is write-only: only row n is defined on the device
            TornadoSupport.compare(Arrays.copyOfRange(recJ, n * nval, (n + 1) * nval),
                    Arrays.copyOfRange(recT, n * nval, (n + 1) * nval), d + " ElasticSources.sample (row " + n + ")");

            float[] vbJ = st.v.clone();
            float[] sbJ = st.s.clone();
            ElasticSources.sampleAdjoint(vbJ, sbJ, idx, kind, rec0, nval, ndim, len, n);
            float[] vbT = st.v.clone();
            float[] sbT = st.s.clone();
            run(graph(vbT, sbT, idx, kind, rec0, step).task("recT", ElasticStepKernels::sampleAdjointAt, vbT, sbT, idx,
                    kind, rec0, nval, ndim, len, step), vbT, sbT);
            TornadoSupport.compare(vbJ, vbT, d + " ElasticSources.sampleAdjoint (vb)");
            TornadoSupport.compare(sbJ, sbT, d + " ElasticSources.sampleAdjoint (sb)");

            // the explosive entries' reversed subtraction (a repeated node: the order matters) and the gathered values
            int[] src = {off + 4 * sz + 6, len + off + 4 * sz + 6, off + 4 * sz + 6};
            float[] samples = random(new Random(ndim + 40), src.length * nt, -1, 1);
            float[] fJ = st.s.clone();
            for (int e = src.length - 1; e >= 0; e--) {
                fJ[src[e]] = fJ[src[e]] - samples[e * nt + n];
            }
            float[] gJ = new float[nt * src.length];
            for (int e = 0; e < src.length; e++) {
                gJ[n * src.length + e] = fJ[src[e]];
            }
            float[] fT = st.s.clone();
            float[] gT = new float[gJ.length];
            run(graph(fT, src, samples, step).task("sub", ElasticStepKernels::subtractAt, fT, src, samples, src.length,
                    nt, step).task("gat", ElasticStepKernels::gatherAt, fT, src, gT, src.length, step), fT, gT);
            TornadoSupport.compare(fJ, fT, d + " subtractAt");
            TornadoSupport.compare(Arrays.copyOfRange(gJ, n * src.length, (n + 1) * src.length),
                    Arrays.copyOfRange(gT, n * src.length, (n + 1) * src.length), d + " gatherAt (row " + n + ")");

            // ring of every stress component: the Java backend's layout (component after component, box after box,
            // each by Pack.pack with the component's geometry), slot n; then unpacked from slot n into slot n + 1's
            // place
            int[][] ring = bandBoxes(geo);
            int cells = 0;
            for (int[] q : ring) {
                cells += (q[1] - q[0]) * (q[3] - q[2]) * (q[5] - q[4]);
            }
            int ns = st.ns;
            int slot = ns * cells;
            float[] storeJ = new float[nt * slot];
            int o = n * slot;
            for (int c = 0; c < ns; c++) {
                int[] gc = geo.clone();
                gc[Layout.OFF0] += c * len;
                for (int[] q : ring) {
                    Pack.pack(st.s, storeJ, o, gc, q[0], q[1], q[2], q[3], q[4], q[5]);
                    o += (q[1] - q[0]) * (q[3] - q[2]) * (q[5] - q[4]);
                }
            }
            float[] storeT = new float[storeJ.length];
            float[] back = random(new Random(ndim + 50), st.s.length, -1, 1);
            float[] backJ = back.clone();
            o = n * slot;
            for (int c = 0; c < ns; c++) {
                int[] gc = geo.clone();
                gc[Layout.OFF0] += c * len;
                for (int[] q : ring) {
                    Pack.unpack(backJ, storeJ, o, gc, q[0], q[1], q[2], q[3], q[4], q[5]);
                    o += (q[1] - q[0]) * (q[3] - q[2]) * (q[5] - q[4]);
                }
            }
            int[] next = {n + 1};
            t2(ring, st.s, storeT, back, geo, slot, cells, ns, step, next);
            TornadoSupport.compare(Arrays.copyOfRange(storeJ, n * slot, (n + 1) * slot),
                    Arrays.copyOfRange(storeT, n * slot, (n + 1) * slot), d + " packRing (slot " + n + ")");
            TornadoSupport.compare(backJ, back, d + " unpackRingBefore");
        }
    }

    /**
     * packRing of {@code f}'s ring into slot {@code step[0]}, then unpackRingBefore into {@code back} at {@code next}.
     */
    private static void t2(int[][] ring, float[] f, float[] store, float[] back, int[] geo, int slot, int cells,
                           int ncomp, int[] step, int[] next) {
        TaskGraph t = graph(f, back, geo, step, next);
        int off = 0;
        int k = 0;
        for (int[] q : ring) {
            t.task("pr" + k++, ElasticStepKernels::packRing, f, store, off, slot, cells, ncomp, geo, q[0], q[1], q[2],
                    q[3], q[4], q[5], step);
            off += (q[1] - q[0]) * (q[3] - q[2]) * (q[5] - q[4]);
        }
        off = 0;
        for (int[] q : ring) {
            t.task("ur" + k++, ElasticStepKernels::unpackRingBefore, back, store, off, slot, cells, ncomp, geo, q[0],
                    q[1], q[2], q[3], q[4], q[5], next);
            off += (q[1] - q[0]) * (q[3] - q[2]) * (q[5] - q[4]);
        }
        run(t, store, back);
    }
}
