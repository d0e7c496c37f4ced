package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.backend.CpuKernels;
import sweep.core.Wavelets;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Storage;
import sweep.prop.TestModels;

/**
 * The elastic gradient: dJ/dvp, dJ/dvs, dJ/drho and dJ/dwavelet against fourth-order central finite differences of the
 * misfit (2-D and 3-D, CPML, free surface, a water layer), boundary saving against full storage, memory of each
 * storage and of a forward-only run, thread counts and batches.
 */
class ElasticGradientTest {
    static final List<ElasticField> PV = List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ);

    /** A smooth bump exp(−r²/(2w²)) centred at cell c (z, [y,] x) of the shape. */
    static float[] bump(int[] shape, int[] c, double w) {
        int nz = shape[0];
        int ny = shape.length == 3 ? shape[1] : 1;
        int nx = shape[shape.length - 1];
        float[] d = new float[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    double r2 = Math.pow(z - c[0], 2) + Math.pow(x - c[c.length - 1], 2)
                            + (shape.length == 3 ? Math.pow(y - c[1], 2) : 0);
                    d[(z * ny + y) * nx + x] = (float) Math.exp(-r2 / (2 * w * w));
                }
            }
        }
        return d;
    }

    /** The model with parameter k (0 vp, 1 vs, 2 rho) moved by eps·dir. */
    static ElasticModel shifted(ElasticModel m, int k, float[] dir, double eps) {
        float[][] p = {m.vp().clone(), m.vs().clone(), m.rho().clone()};
        for (int i = 0; i < dir.length; i++) {
            p[k][i] = (float) (p[k][i] + eps * dir[i]);
        }
        return new ElasticModel(p[0], p[1], p[2]);
    }

    static double misfit(ElasticSolver p, float[] w, int[][][] src, ElasticSource type, int[][][] rec,
                         List<ElasticField> fields, ElasticModel m, float[] obs) {
        float[] syn = p.forward(w, src, type, rec, fields, m).data();
        double j = 0;
        for (int i = 0; i < syn.length; i++) {
            double r = (double) syn[i] - obs[i];
            j += 0.5 * r * r;
        }
        return j;
    }

    /**
     * Relative error of the gradient of parameter k along {@code dir} against a fourth-order central difference with
     * step eps (the difference's O(eps⁴) truncation allows a step large enough that the float noise of J stays far
     * below the difference).
     */
    static double fdCheck(ElasticSolver p, ElasticGradient g, float[] w, int[][][] src, ElasticSource type,
                          int[][][] rec, List<ElasticField> fields, ElasticModel m, float[] obs, int k, float[] dir,
                          double eps) {
        float[] gk = k == 0 ? g.vp() : k == 1 ? g.vs() : g.rho();
        double analytic = 0;
        for (int i = 0; i < dir.length; i++) {
            analytic += (double) gk[i] * dir[i];
        }
        double j1 = misfit(p, w, src, type, rec, fields, shifted(m, k, dir, eps), obs);
        double jm1 = misfit(p, w, src, type, rec, fields, shifted(m, k, dir, -eps), obs);
        double j2 = misfit(p, w, src, type, rec, fields, shifted(m, k, dir, 2 * eps), obs);
        double jm2 = misfit(p, w, src, type, rec, fields, shifted(m, k, dir, -2 * eps), obs);
        double fd = (8 * (j1 - jm1) - (j2 - jm2)) / (12 * eps);
        double rel = Math.abs(fd - analytic) / Math.abs(fd);
        System.out.printf("elastic gradient check %dD fs=%b %s d/d%s: analytic %.8e, finite difference %.8e,"
                + " rel. error %.2e%n", p.spec().ndim(), p.spec().freeSurface(), type.label(),
                new String[] {"vp", "vs", "rho"}[k], analytic, fd, rel);
        return rel;
    }

    @Test
    void finiteDifference2d() {
        int nz = 36;
        int nx = 44;
        int[] shape = {nz, nx};
        ElasticModel m = ElasticAdjointTest.model(31, 0, shape);
        ElasticModel mObs = ElasticAdjointTest.model(32, 0, shape);
        // maxVel fixed: the CPML profile is a constant of the gradient and must not follow the perturbed model
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(300).abcn(8)
                .order(8).storage(Storage.FULL).maxVel(3500).build();
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        int[][][] src = {{{10, 8}}};
        // one receiver inside the bump: its amplitude depends on the local impedance, so that rho (at fixed vp, vs)
        // moves J well above the float noise of the records
        int[][][] rec = {{{34, 5}, {30, 30}, {5, 28}, {40, 12}, {22, 18}}};
        float[] dir = bump(shape, new int[] {18, 22}, 3);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            for (ElasticSource type : new ElasticSource[] {ElasticSource.EXPLOSIVE, ElasticSource.FZ}) {
                List<ElasticField> fields = type == ElasticSource.FZ ? List.of(ElasticField.VX, ElasticField.VZ) : PV;
                float[] obs = p.forward(w, src, type, rec, fields, mObs).data();
                ElasticGradient g = p.forwardAndGradient(w, src, type, rec, fields, m, obs, Misfit.L2);
                for (int k = 0; k < 3; k++) {
                    assertTrue(fdCheck(p, g, w, src, type, rec, fields, m, obs, k, dir, 20) < 2e-3);
                }
            }
            // a smooth direction over the whole model: the edge cells carry the PML pads' gradient (folded)
            float[] obs = p.forward(w, src, ElasticSource.FX, rec, PV, mObs).data();
            ElasticGradient g = p.forwardAndGradient(w, src, ElasticSource.FX, rec, PV, m, obs, Misfit.L2);
            float[] whole = TestModels.smoothRandom(33, 0, 1, shape);
            assertTrue(fdCheck(p, g, w, src, ElasticSource.FX, rec, PV, m, obs, 0, whole, 20) < 2e-3);
            assertTrue(fdCheck(p, g, w, src, ElasticSource.FX, rec, PV, m, obs, 1, whole, 20) < 2e-3);
        }
    }

    /**
     * A water layer (vs = 0) under the free surface over a solid: dJ/dvs is exactly 0 in the water (μ = ρvs² has zero
     * derivative at vs = 0, and a shear node touching a water cell keeps μ = 0 for any small change of its solid
     * cells), and vp, vs, rho match finite differences along bumps across the sea floor (vs: in the solid only, as vs
     * cannot go below 0).
     */
    @Test
    void finiteDifference2dWaterLayer() {
        int nz = 34;
        int nx = 40;
        int[] shape = {nz, nx};
        int water = 6;
        ElasticModel m = ElasticAdjointTest.model(41, water, shape);
        ElasticModel mObs = ElasticAdjointTest.model(42, water, shape);
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(300).abcn(8)
                .order(8).freeSurface(true).storage(Storage.FULL).maxVel(3500).build();
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        int[][][] src = {{{12, 3}}};
        int[][][] rec = {{{30, 2}, {20, 0}, {8, 6}, {28, 6}, {20, 9}, {20, 20}}};
        try (ElasticSolver p = new ElasticSolver(spec)) {
            float[] obs = p.forward(w, src, ElasticSource.EXPLOSIVE, rec, PV, mObs).data();
            ElasticGradient g = p.forwardAndGradient(w, src, ElasticSource.EXPLOSIVE, rec, PV, m, obs, Misfit.L2);
            float[] gvs = g.vs();
            for (int i = 0; i < water * nx; i++) {
                assertEquals(0f, gvs[i], "dJ/dvs in the water, cell " + i);
            }
            float[] across = bump(shape, new int[] {water, 20}, 3);
            float[] solid = across.clone();
            for (int i = 0; i < water * nx; i++) {
                solid[i] = 0f;
            }
            assertTrue(fdCheck(p, g, w, src, ElasticSource.EXPLOSIVE, rec, PV, m, obs, 0, across, 20) < 2e-3);
            assertTrue(fdCheck(p, g, w, src, ElasticSource.EXPLOSIVE, rec, PV, m, obs, 1, solid, 20) < 2e-3);
            assertTrue(fdCheck(p, g, w, src, ElasticSource.EXPLOSIVE, rec, PV, m, obs, 2, across, 20) < 2e-3);
        }
    }

    @Test
    void finiteDifference3d() {
        int[] shape = {16, 14, 18};
        ElasticModel m = ElasticAdjointTest.model(51, 0, shape);
        ElasticModel mObs = ElasticAdjointTest.model(52, 0, shape);
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(120).abcn(5)
                .order(4).freeSurface(true).storage(Storage.FULL).maxVel(3500).build();
        float[] w = Wavelets.ricker(20, spec.nt(), spec.dt());
        int[][][] src = {{{4, 6, 3}}};
        int[][][] rec = {{{15, 10, 0}, {12, 3, 12}, {9, 7, 8}, {2, 12, 13}}};
        List<ElasticField> fields = List.of(ElasticField.P, ElasticField.VX, ElasticField.VY, ElasticField.VZ);
        float[] dir = bump(shape, new int[] {8, 7, 9}, 2.5);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            for (ElasticSource type : new ElasticSource[] {ElasticSource.EXPLOSIVE, ElasticSource.FY}) {
                float[] obs = p.forward(w, src, type, rec, fields, mObs).data();
                ElasticGradient g = p.forwardAndGradient(w, src, type, rec, fields, m, obs, Misfit.L2);
                for (int k = 0; k < 3; k++) {
                    // rho at fixed vp, vs moves J least: a larger step keeps the difference above the records' noise
                    assertTrue(fdCheck(p, g, w, src, type, rec, fields, m, obs, k, dir, k == 2 ? 40 : 20) < 2e-3);
                }
            }
        }
    }

    /** dJ/dwavelet along a random wavelet perturbation against a central difference (J is quadratic in w). */
    @Test
    void waveletGradient() {
        int[] shape = {30, 36};
        ElasticModel m = ElasticAdjointTest.model(61, 3, shape);
        for (Storage storage : new Storage[] {Storage.FULL, Storage.BOUNDARY_SAVING}) {
            PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(250)
                    .abcn(8).order(8).freeSurface(true).storage(storage).build();
            int nt = spec.nt();
            float[] w = Wavelets.ricker(15, nt, spec.dt());
            float[] dw = new float[nt];
            java.util.Random rnd = new java.util.Random(5);
            for (int t = 0; t < nt; t++) {
                dw[t] = (float) rnd.nextGaussian();
            }
            int[][][] src = {{{10, 4}, {25, 12}}};
            int[][][] rec = {{{3, 0}, {30, 20}, {18, 8}}};
            for (ElasticSource type : new ElasticSource[] {ElasticSource.EXPLOSIVE, ElasticSource.FX}) {
                try (ElasticSolver p = new ElasticSolver(spec)) {
                    float[] obs = p.forward(Wavelets.ricker(12, nt, spec.dt()), src, type, rec, PV, m).data();
                    ElasticGradient g = p.forwardAndGradient(w, src, type, rec, PV, m, obs, Misfit.L2);
                    double analytic = 0;
                    for (int t = 0; t < nt; t++) {
                        analytic += (double) g.wavelet()[t] * dw[t];
                    }
                    double eps = 0.05;
                    double jp = misfit(p, w, dw, eps, src, type, rec, m, obs);
                    double jm = misfit(p, w, dw, -eps, src, type, rec, m, obs);
                    double fd = (jp - jm) / (2 * eps);
                    double rel = Math.abs(fd - analytic) / Math.abs(fd);
                    System.out.printf("elastic wavelet gradient %s %s: analytic %.8e, finite difference %.8e,"
                            + " rel. %.2e%n", storage, type.label(), analytic, fd, rel);
                    assertTrue(rel < 1e-4, "relative error " + rel);
                }
            }
        }
    }

    private static double misfit(ElasticSolver p, float[] w, float[] dw, double eps, int[][][] src,
                                 ElasticSource type, int[][][] rec, ElasticModel m, float[] obs) {
        float[] ws = new float[w.length];
        for (int t = 0; t < w.length; t++) {
            ws[t] = (float) (w[t] + eps * dw[t]);
        }
        return misfit(p, ws, src, type, rec, PV, m, obs);
    }

    /**
     * Boundary saving against full storage: the same misfit, and the same gradient on the physical cells all of whose
     * nodes lie outside the CPML bands (the outermost cells miss the bands' contribution, as for acoustic), to the
     * float rounding of the backward rebuild.
     */
    @Test
    void boundarySavingMatchesFullInTheInterior() {
        compareStorages(new int[] {40, 48}, 71, 4, 300, 10, 8, new int[][][] {{{14, 6}}}, ElasticSource.FZ,
                new int[][][] {{{5, 0}, {40, 30}, {24, 14}, {44, 5}}});
        compareStorages(new int[] {16, 14, 18}, 72, 0, 120, 5, 4, new int[][][] {{{5, 6, 4}}}, ElasticSource.EXPLOSIVE,
                new int[][][] {{{15, 10, 0}, {12, 3, 12}, {2, 12, 13}}});
    }

    private static void compareStorages(int[] shape, long seed, int water, int nt, int abcn, int order, int[][][] src,
                                        ElasticSource type, int[][][] rec) {
        ElasticModel m = ElasticAdjointTest.model(seed, water, shape);
        ElasticModel mObs = ElasticAdjointTest.model(seed + 100, water, shape);
        PropSpec full = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(nt).abcn(abcn)
                .order(order).freeSurface(water > 0).storage(Storage.FULL).build();
        PropSpec bs = full.toBuilder().storage(Storage.BOUNDARY_SAVING).build();
        List<ElasticField> fields = shape.length == 2 ? PV
                : List.of(ElasticField.P, ElasticField.VX, ElasticField.VY, ElasticField.VZ);
        float[] w = Wavelets.ricker(15, nt, 1e-3);
        float[] obs;
        ElasticGradient gf;
        ElasticGradient gb;
        try (ElasticSolver p = new ElasticSolver(full)) {
            obs = p.forward(w, src, type, rec, fields, mObs).data();
            gf = p.forwardAndGradient(w, src, type, rec, fields, m, obs, Misfit.L2);
        }
        try (ElasticSolver p = new ElasticSolver(bs)) {
            gb = p.forwardAndGradient(w, src, type, rec, fields, m, obs, Misfit.L2);
        }
        assertEquals(gf.misfit(), gb.misfit(), 0.0, "the forward runs are the same computation");
        int nz = shape[0];
        int ny = shape.length == 3 ? shape[1] : 1;
        int nx = shape[shape.length - 1];
        int cells = nz * ny * nx;
        for (int k = 0; k < 3; k++) {
            double num = 0;
            double den = 0;
            double worst = 0;
            double peak = 0;
            for (int z = 1; z < nz - 1; z++) {
                for (int y = ny == 1 ? 0 : 1; y < (ny == 1 ? 1 : ny - 1); y++) {
                    for (int x = 1; x < nx - 1; x++) {
                        int i = k * cells + (z * ny + y) * nx + x;
                        double a = gf.parameters()[i];
                        double b = gb.parameters()[i];
                        num += (a - b) * (a - b);
                        den += a * a;
                        worst = Math.max(worst, Math.abs(a - b));
                        peak = Math.max(peak, Math.abs(a));
                    }
                }
            }
            double rel = Math.sqrt(num / den);
            System.out.printf("elastic BOUNDARY_SAVING vs FULL %dD, d/d%s on the inner cells: relative L2 %.2e, largest"
                    + " difference %.2e of the largest value%n", shape.length, new String[] {"vp", "vs", "rho"}[k],
                    rel, worst / peak);
            assertTrue(den > 0);
            assertTrue(rel < 2e-5, "relative difference " + rel);
        }
        assertArrayEquals(bits(gf.wavelet()), bits(gb.wavelet()), "the adjoint fields are the same computation");
    }

    /** The states a boundary-saving run rebuilds (on the rebuilt box) against the forward run's snapshots. */
    @Test
    void rebuiltStatesMatchForward() {
        int[] shape = {36, 44};
        int nt = 400;
        ElasticModel m = ElasticAdjointTest.model(81, 4, shape);
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(nt).abcn(8)
                .order(8).freeSurface(true).storage(Storage.BOUNDARY_SAVING).build();
        float[] w = Wavelets.ricker(15, nt, 1e-3);
        int[][][] src = {{{20, 10}}};
        int[][][] rec = {{{10, 0}}};
        float[][][] fwd = new float[nt + 1][][];
        float[][][] rebuilt = new float[nt + 1][][];
        try (ElasticSolver p = new ElasticSolver(spec)) {
            p.forward(w, src, ElasticSource.FZ, rec, PV, m, 1, (s, n, f) -> fwd[n] = f);
            p.forwardForGradient(w, src, ElasticSource.FZ, rec, PV, m);
            p.rebuildListener((ElasticListener) (s, n, f) -> rebuilt[n] = f);
            p.elasticGradient(new float[nt * 3]);
        }
        // the rebuilt box: the physical cells but the last row and column (their half nodes lie in the bands, and the
        // corner cell is in no ring: nothing reads it); the snapshots cover the physical cells
        int nx = shape[1];
        for (float[][][] st : new float[][][][] {fwd, rebuilt}) {
            for (int n = 0; n <= nt; n++) {
                if (st[n] != null) {
                    for (float[] f : st[n]) {
                        for (int i = 0; i < f.length; i++) {
                            if (i / nx == shape[0] - 1 || i % nx == nx - 1) {
                                f[i] = 0f;
                            }
                        }
                    }
                }
            }
        }
        double worst = 0;
        // per component, the error of each rebuilt state relative to the component's largest norm over the run
        for (int c = 0; c < fwd[1].length; c++) {
            double maxNorm = 0;
            for (int n = 1; n < nt; n++) {
                maxNorm = Math.max(maxNorm, norm(fwd[n][c], null));
            }
            for (int n = 1; n < nt; n++) {
                worst = Math.max(worst, norm(fwd[n][c], rebuilt[n][c]) / maxNorm);
            }
        }
        System.out.printf("elastic boundary saving: worst error of a rebuilt component over %d states (relative to the"
                + " component's largest norm): %.2e%n", nt - 1, worst);
        assertTrue(worst < 1e-5, "rebuilt state error " + worst);
        for (float[] f : rebuilt[0]) {
            for (float x : f) {
                assertEquals(0f, x, "the initial state is rebuilt as exactly zero");
            }
        }
    }

    private static double norm(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = a[i] - (b == null ? 0 : b[i]);
            s += d * d;
        }
        return Math.sqrt(s);
    }

    /**
     * A forward-only call holds exactly the forward arrays; a FULL tape grows by (components) floats per computational
     * cell and step, a boundary-saving tape by (components) floats per ring cell and step.
     */
    @Test
    void memoryOfBothStoragesAndForwardOnly() {
        int nz = 60;
        int nx = 70;
        int abcn = 10;
        int h = 4;
        ElasticModel m = ElasticModel.constant(nz * nx, 2500f, 1400f, 2000f);
        int[][][] src = {{{30, 30}}};
        int[][][] rec = {{{10, 10}}};
        long[][] held = new long[3][2];
        int[] nts = {100, 200};
        for (int s = 0; s < 3; s++) {
            for (int k = 0; k < 2; k++) {
                int nt = nts[k];
                PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(1e-3).nt(nt)
                        .abcn(abcn).order(2 * h).storage(s == 2 ? Storage.BOUNDARY_SAVING : Storage.FULL).build();
                try (ElasticSolver p = new ElasticSolver(spec)) {
                    float[] w = Wavelets.ricker(10, nt, 1e-3);
                    if (s == 0) {
                        p.forward(w, src, ElasticSource.EXPLOSIVE, rec, PV, m);
                    } else {
                        p.forwardForGradient(w, src, ElasticSource.EXPLOSIVE, rec, PV, m);
                    }
                    held[s][k] = p.bytesHeld();
                    if (s == 0) {
                        // forward arrays: v (2), s (3), b (2), m (3) of the padded grid, memory variables, profiles,
                        // the Vector API kernels' scratch rows per thread
                        int[] geo = p.stepper().geo;
                        long len = geo[Layout.LEN];
                        long psi = geo[ElasticLayout.PSI_X] + 4L * geo[ElasticLayout.SLAB_X];
                        long prof = 4L * (nz + 2 * abcn + 1 + nx + 2 * abcn);
                        long scratch = !CpuKernels.useCpuKernels() ? 0
                                : (long) Runtime.getRuntime().availableProcessors()
                                        * ElasticVectorKernels2D.scratchSize(nx + 2 * abcn);
                        assertEquals(4 * (10 * len + psi + prof + scratch), held[s][k], "forward-only bytes");
                    }
                }
            }
        }
        long cells = (long) (nz + 2 * abcn) * (nx + 2 * abcn);
        assertEquals(4L * 5 * cells * (nts[1] - nts[0]), held[1][1] - held[1][0], "FULL: 5 floats per cell and step");
        // the rebuilt box [abcn, abcn + n − 1) per axis, its ring h cells on each side
        long ring = 2L * h * (nz - 1) + 2L * h * (nx - 1);
        assertEquals(4L * 5 * ring * (nts[1] - nts[0]), held[2][1] - held[2][0], "BOUNDARY_SAVING: 5 floats per ring"
                + " cell and step");
        System.out.printf("elastic memory at %dx%d (+%d PML), nt=%d: forward-only %.1f MB, FULL %.1f MB,"
                + " BOUNDARY_SAVING %.1f MB; per step FULL %.1f kB, BOUNDARY_SAVING %.1f kB%n", nz, nx, abcn, nts[1],
                held[0][1] / 1e6, held[1][1] / 1e6, held[2][1] / 1e6, 20.0 * cells / 1e3, 20.0 * ring / 1e3);
    }

    /**
     * The gradient does not depend on the thread count (bits); a batch gradient is the sum of the shots' gradients in
     * shot order; the explicit API (forwardForGradient, gradient) gives the one-call API's bits, twice; a
     * gradient-capable forward records the plain forward's bits.
     */
    @Test
    void threadsBatchesAndApis() {
        for (int[] shape : new int[][] {{30, 34}, {12, 14, 10}}) {
            boolean d3 = shape.length == 3;
            ElasticModel m = ElasticAdjointTest.model(91, 2, shape);
            ElasticModel mObs = ElasticAdjointTest.model(92, 2, shape);
            int[][] recs = d3 ? new int[][] {{2, 3, 0}, {8, 12, 7}} : new int[][] {{2, 0}, {30, 20}, {15, 9}};
            int[][][] src = d3 ? new int[][][] {{{5, 6, 4}}, {{3, 2, 8}}} : new int[][][] {{{5, 4}}, {{25, 14}}};
            int[][][] rec = {recs, recs};
            List<ElasticField> fields = d3 ? List.of(ElasticField.VZ, ElasticField.P) : PV;
            int nv = recs.length * fields.size();
            for (Storage st : new Storage[] {Storage.FULL, Storage.BOUNDARY_SAVING}) {
                PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3)
                        .nt(d3 ? 50 : 120).abcn(d3 ? 4 : 6).order(d3 ? 4 : 8).freeSurface(true).storage(st).threads(1)
                        .build();
                int nt = spec.nt();
                float[] w = Wavelets.ricker(18, nt, 1e-3);
                ElasticGradient one;
                float[] obs;
                float[] sum = new float[3 * m.vp().length];
                try (ElasticSolver p = new ElasticSolver(spec)) {
                    obs = p.forward(w, src, ElasticSource.FZ, rec, fields, mObs).data();
                    one = p.forwardAndGradient(w, src, ElasticSource.FZ, rec, fields, m, obs, Misfit.L2);
                    for (int b = 0; b < 2; b++) {
                        float[] ob = java.util.Arrays.copyOfRange(obs, b * nt * nv, (b + 1) * nt * nv);
                        ElasticGradient gs = p.forwardAndGradient(w, new int[][][] {src[b]}, ElasticSource.FZ,
                                new int[][][] {recs}, fields, m, ob, Misfit.L2);
                        for (int i = 0; i < sum.length; i++) {
                            sum[i] += gs.parameters()[i];
                        }
                    }
                    float[] syn = p.forwardForGradient(w, src, ElasticSource.FZ, rec, fields, m).data();
                    assertArrayEquals(bits(p.forward(w, src, ElasticSource.FZ, rec, fields, m).data()), bits(syn),
                            st + ": the taped forward records the plain forward's bits");
                    p.forwardForGradient(w, src, ElasticSource.FZ, rec, fields, m);
                    float[] res = new float[syn.length];
                    for (int i = 0; i < res.length; i++) {
                        res[i] = syn[i] - obs[i];
                    }
                    int[] expect = bits(one.parameters());
                    assertArrayEquals(expect, bits(p.gradient(res).parameters()), st + ": gradient API");
                    assertArrayEquals(expect, bits(p.gradient(res).parameters()), st + ": gradient API again");
                }
                assertArrayEquals(bits(sum), bits(one.parameters()), st + ": batch = sum of the shots' gradients");
                for (int threads = 2; threads <= 2; threads++) {
                    try (ElasticSolver p = new ElasticSolver(spec.toBuilder().threads(threads).build())) {
                        ElasticGradient g = p.forwardAndGradient(w, src, ElasticSource.FZ, rec, fields, m, obs,
                                Misfit.L2);
                        assertArrayEquals(bits(one.parameters()), bits(g.parameters()), st + " threads=" + threads);
                        assertArrayEquals(bits(one.wavelet()), bits(g.wavelet()), st + " wavelet threads=" + threads);
                        assertEquals(one.misfit(), g.misfit(), 0.0);
                    }
                }
            }
        }
    }

    @Test
    void gradientNeedsAGradientCapableForward() {
        PropSpec spec = PropSpec.builder(20, 20).equation("elastic").dh(10).dt(1e-3).nt(20).abcn(4)
                .build();
        ElasticModel m = ElasticModel.constant(400, 2000f, 1000f, 2000f);
        int[][][] src = {{{5, 5}}};
        int[][][] rec = {{{6, 6}}};
        float[] w = Wavelets.ricker(10, 20, 1e-3);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            assertThrows(IllegalStateException.class, () -> p.gradient(new float[60]));
            p.forward(w, src, ElasticSource.FZ, rec, PV, m);
            assertThrows(IllegalStateException.class, () -> p.gradient(new float[60]));
            p.forwardForGradient(w, src, ElasticSource.FZ, rec, PV, m);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.gradient(new float[7]));
            assertTrue(e.getMessage().contains("needs 60"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> p.forwardAndGradient(w, src, ElasticSource.FZ, rec, PV, m, new float[5], Misfit.L2));
            assertTrue(e.getMessage().contains("(1, 20, 1, 3)"), e.getMessage());
        }
    }

    static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }
}
