package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.Storage;
import sweep.prop.TestModels;

/**
 * Adjoint dot-product tests of the elastic solver: the map wavelet → record (F, linear) against the adjoint run
 * (Fᵀ: record → dJ/dwavelet), |⟨F s, r⟩ − ⟨s, Fᵀ r⟩| / max(|⟨F s, r⟩|, |⟨s, Fᵀ r⟩|) < 1e-5, with CPML on every side
 * and with a free surface, explosive and force sources, several recorded fields, FULL and BOUNDARY_SAVING storage.
 */
class ElasticAdjointTest {
    /** A heterogeneous model: smooth random vp, vs, rho; with {@code water} rows of vs = 0 at the top. */
    static ElasticModel model(long seed, int water, int... shape) {
        float[] vp = TestModels.smoothRandom(seed, 2600, 400, shape);
        float[] vs = TestModels.smoothRandom(seed + 1, 1400, 250, shape);
        float[] rho = TestModels.smoothRandom(seed + 2, 2100, 300, shape);
        int perRow = vp.length / shape[0];
        for (int i = 0; i < water * perRow; i++) {
            vp[i] = 1500f;
            vs[i] = 0f;
            rho[i] = 1000f;
        }
        return new ElasticModel(vp, vs, rho);
    }

    static double dotTest(PropSpec spec, ElasticModel m, int[][] src, ElasticSource type, int[][] rec,
                          List<ElasticField> fields, long seed) {
        Random rnd = new Random(seed);
        int nt = spec.nt();
        float[] s = new float[nt];
        for (int i = 0; i < nt; i++) {
            s[i] = (float) rnd.nextGaussian();
        }
        try (ElasticSolver p = new ElasticSolver(spec)) {
            float[] fs = p.forwardForGradient(s, new int[][][] {src}, type, new int[][][] {rec}, fields, m).data();
            // r: random magnitudes with the signs of F s (so that <F s, r> is no sum of heavy cancellation), each field
            // scaled by its rms so that pressures do not drown the velocities
            int nf = fields.size();
            double[] rms = new double[nf];
            for (int i = 0; i < fs.length; i++) {
                rms[i % nf] += (double) fs[i] * fs[i];
            }
            float[] r = new float[fs.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = (float) (Math.signum(fs[i]) * Math.abs(rnd.nextGaussian()) / Math.sqrt(rms[i % nf]));
            }
            float[] ftr = p.gradient(r).wavelet();
            double a = 0;
            double b = 0;
            for (int i = 0; i < r.length; i++) {
                a += (double) fs[i] * r[i];
            }
            for (int i = 0; i < nt; i++) {
                b += (double) s[i] * ftr[i];
            }
            double rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
            System.out.printf("elastic dot-product test %dD fs=%b %s %s storage=%s: <Fs,r>=%.9e <s,F'r>=%.9e"
                    + " rel=%.2e%n", spec.ndim(), spec.freeSurface(), type.label(), fields, spec.storage(), a, b, rel);
            return rel;
        }
    }

    /**
     * The homogeneous step against its transpose on random states: x0 random on every computational node and every
     * memory variable (the CPML bands full of data, where the record test sees only what the PML sends back), images
     * set by the free-surface rule; y = A^n x0 by the forward sub-steps, x̄0 = (A^n)ᵀ ȳ by the transposed ones, with
     * ȳ random of the signs of y. Velocities, stresses and memory variables are scaled so that each part counts.
     */
    static double stepDotTest(PropSpec spec, ElasticModel m, int steps, long seed) {
        Random rnd = new Random(seed);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            int nt = spec.nt();
            int ndim = spec.ndim();
            int[][] cell = {ndim == 2 ? new int[] {1, 1} : new int[] {1, 1, 1}};
            p.forward(new float[nt], new int[][][] {cell}, ElasticSource.EXPLOSIVE, new int[][][] {cell},
                    List.of(ElasticField.P), m);
            ElasticStepper st = p.stepper();
            Grid g = st.g;
            double z = 2100.0 * 2600.0; // impedance: v ~ 1/z, σ ~ 1; a derivative's memory variable ~ field/dh
            boolean[][] node = {computational(st.v.length, g), computational(st.s.length, g)};
            float[][] fwd = {st.v, st.s, st.psi};
            double[] scale = {1 / z, 1, 0};
            int perAxis = sweep.elastic.kernels.ElasticLayout.psiPerAxis(ndim);
            for (int f = 0; f < 3; f++) {
                float[] a = fwd[f];
                java.util.Arrays.fill(a, 0f);
                for (int i = 0; i < a.length; i++) {
                    if (f < 2 ? node[f][i] : true) {
                        double sc = f < 2 ? scale[f] : psiScale(st, i, perAxis, ndim, z);
                        a[i] = (float) (sc * rnd.nextGaussian());
                    }
                }
            }
            st.surfaceStressStep();
            st.surfaceVelocityStep();
            float[][] x0 = {st.v.clone(), st.s.clone(), st.psi.clone()};
            for (int n = 0; n < steps; n++) {
                st.velocityStep();
                st.surfaceVelocityStep();
                st.stressStep();
                st.surfaceStressStep();
            }
            ElasticAdjoint adj = p.adjointMachinery();
            float[][] bar = adj.adjointFields();
            double lhs = 0;
            for (int f = 0; f < 3; f++) {
                float[] y = fwd[f];
                float[] yb = bar[f];
                java.util.Arrays.fill(yb, 0f);
                for (int i = 0; i < y.length; i++) {
                    if (f < 2 ? node[f][i] : true) {
                        double sc = f < 2 ? 1 / scale[f] : 1 / psiScale(st, i, perAxis, ndim, z);
                        yb[i] = (float) (Math.signum(y[i]) * Math.abs(rnd.nextGaussian()) * sc);
                        lhs += (double) y[i] * yb[i];
                    }
                }
            }
            adj.transposeSteps(steps);
            double rhs = 0;
            for (int f = 0; f < 3; f++) {
                for (int i = 0; i < x0[f].length; i++) {
                    if (f < 2 ? node[f][i] : true) {
                        rhs += (double) x0[f][i] * bar[f][i];
                    }
                }
            }
            double rel = Math.abs(lhs - rhs) / Math.max(Math.abs(lhs), Math.abs(rhs));
            System.out.printf("elastic step transpose %dD fs=%b order=%d, %d steps: <A x, y>=%.9e <x, A'y>=%.9e"
                    + " rel=%.2e%n", ndim, spec.freeSurface(), spec.order(), steps, lhs, rhs, rel);
            return rel;
        }
    }

    /** Scale of memory variable i: slots below ndim hold stress derivatives (~σ/dh), the others strain rates. */
    private static double psiScale(ElasticStepper st, int i, int perAxis, int ndim, double z) {
        int[] geo = st.geo;
        int[] base = {geo[sweep.elastic.kernels.ElasticLayout.PSI_Z], geo[sweep.elastic.kernels.ElasticLayout.PSI_Y],
                geo[sweep.elastic.kernels.ElasticLayout.PSI_X]};
        int[] slab = {geo[sweep.elastic.kernels.ElasticLayout.SLAB_Z], geo[sweep.elastic.kernels.ElasticLayout.SLAB_Y],
                geo[sweep.elastic.kernels.ElasticLayout.SLAB_X]};
        for (int a = 2; a >= 0; a--) {
            if (i >= base[a] && slab[a] > 0) {
                int slot = (i - base[a]) / slab[a];
                return slot < ndim ? 0.1 : 0.1 / z;
            }
        }
        throw new IllegalStateException("memory variable " + i);
    }

    /** Mask of the computational nodes of a packed field array. */
    private static boolean[] computational(int length, Grid g) {
        boolean[] mask = new boolean[length];
        int len = g.length();
        for (int c = 0; c < length / len; c++) {
            for (int zz = 0; zz < g.nz; zz++) {
                for (int y = 0; y < g.ny; y++) {
                    for (int x = 0; x < g.nx; x++) {
                        mask[c * len + g.compIndex(zz, y, x)] = true;
                    }
                }
            }
        }
        return mask;
    }

    @Test
    void stepTranspose() {
        int nz = 30;
        int nx = 34;
        PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(1e-3).nt(2).abcn(8)
                .order(8).build();
        assertTrue(stepDotTest(spec, model(21, 0, nz, nx), 12, 1) < 1e-5);
        PropSpec fs = spec.toBuilder().freeSurface(true).order(4).build();
        assertTrue(stepDotTest(fs, model(22, 3, nz, nx), 12, 2) < 1e-5);
        int[] shape = {14, 16, 12};
        PropSpec s3 = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(2).abcn(4)
                .order(4).build();
        assertTrue(stepDotTest(s3, model(23, 0, shape), 6, 3) < 1e-5);
        assertTrue(stepDotTest(s3.toBuilder().freeSurface(true).order(6).build(), model(24, 2, shape), 6, 4) < 1e-5);
    }

    /**
     * The halo hook is called at the documented points, in order, with the documented arrays (a single domain with a
     * hook that exchanges nothing), and changes no bit of records or gradients.
     */
    @Test
    void haloHookPoints() {
        int[] shape = {20, 24};
        ElasticModel m = model(25, 2, shape);
        int nt = 30;
        for (Storage st : new Storage[] {Storage.FULL, Storage.BOUNDARY_SAVING}) {
            PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(nt).abcn(4)
                    .order(4).freeSurface(true).storage(st).build();
            List<String> seen = new java.util.ArrayList<>();
            int[][][] src = {{{8, 3}}};
            int[][][] rec = {{{3, 0}, {15, 9}}};
            List<ElasticField> fields = List.of(ElasticField.P, ElasticField.VZ);
            float[] w = sweep.core.Wavelets.ricker(20, nt, 1e-3);
            ElasticGradient hooked;
            float[] recHooked;
            try (ElasticSolver p = new ElasticSolver(spec, Grid.single(spec), (point, a, comps) -> {
                int len = Grid.single(spec).length();
                assertTrue(a.length == comps * len, point + ": " + comps + " components of " + len);
                seen.add(point + "/" + comps);
            })) {
                recHooked = p.forwardForGradient(w, src, ElasticSource.FZ, rec, fields, m).data();
                hooked = p.elasticGradient(recHooked);
            }
            List<String> expect = new java.util.ArrayList<>();
            for (int t = 0; t < nt; t++) {
                expect.add("FORWARD_VELOCITY/2");
                expect.add("FORWARD_STRESS/3");
            }
            for (int t = nt - 1; t >= 0; t--) {
                if (st == Storage.BOUNDARY_SAVING && t > 0) {
                    expect.add("REBUILT_STRESS/3");
                    expect.add("REBUILT_VELOCITY/2");
                }
                expect.add("ADJOINT_STRESS/3");
                expect.add("ADJOINT_VELOCITY/2");
            }
            expect.add("NODE_GRADIENT/2");
            expect.add("NODE_GRADIENT/3");
            org.junit.jupiter.api.Assertions.assertEquals(expect, seen, st.toString());
            try (ElasticSolver p = new ElasticSolver(spec)) {
                float[] r = p.forwardForGradient(w, src, ElasticSource.FZ, rec, fields, m).data();
                org.junit.jupiter.api.Assertions.assertArrayEquals(recHooked, r);
                org.junit.jupiter.api.Assertions.assertArrayEquals(hooked.parameters(), p.gradient(r).parameters());
            }
        }
    }

    @Test
    void dotProduct2d() {
        int nz = 36;
        int nx = 44;
        ElasticModel m = model(11, 0, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(1e-3).nt(250).abcn(8)
                .order(8).storage(Storage.FULL).build();
        List<ElasticField> all = List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ);
        int[][] rec = {{3, 2}, {40, 30}, {20, 35}, {12, 17}, {43, 0}};
        assertTrue(dotTest(spec, m, new int[][] {{12, 17}}, ElasticSource.EXPLOSIVE, rec, all, 1) < 1e-5);
        assertTrue(dotTest(spec, m, new int[][] {{30, 8}}, ElasticSource.FZ, rec, all, 2) < 1e-5);
        PropSpec fs = spec.toBuilder().freeSurface(true).build();
        ElasticModel water = model(12, 3, nz, nx);
        assertTrue(dotTest(fs, m, new int[][] {{12, 1}}, ElasticSource.FX, rec, all, 3) < 1e-5);
        assertTrue(dotTest(fs, water, new int[][] {{20, 5}}, ElasticSource.EXPLOSIVE, rec, all, 4) < 1e-5);
        assertTrue(dotTest(fs.toBuilder().storage(Storage.BOUNDARY_SAVING).order(4).build(), water,
                new int[][] {{20, 6}}, ElasticSource.FZ, rec, List.of(ElasticField.VZ, ElasticField.P), 5) < 1e-5);
    }

    @Test
    void dotProduct3d() {
        int[] shape = {16, 18, 14};
        ElasticModel m = model(13, 0, shape);
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(70).abcn(5)
                .order(4).storage(Storage.FULL).build();
        List<ElasticField> all = List.of(ElasticField.P, ElasticField.VX, ElasticField.VY, ElasticField.VZ);
        int[][] rec = {{1, 2, 3}, {13, 17, 15}, {7, 3, 0}, {6, 9, 8}};
        assertTrue(dotTest(spec, m, new int[][] {{6, 9, 8}}, ElasticSource.EXPLOSIVE, rec, all, 6) < 1e-5);
        PropSpec fs = spec.toBuilder().freeSurface(true).order(6).build();
        assertTrue(dotTest(fs, model(14, 2, shape), new int[][] {{5, 8, 3}}, ElasticSource.FY, rec, all, 7) < 1e-5);
        assertTrue(dotTest(fs.toBuilder().storage(Storage.BOUNDARY_SAVING).build(), m, new int[][] {{9, 6, 1}},
                ElasticSource.FZ, rec, all, 8) < 1e-5);
    }
}
