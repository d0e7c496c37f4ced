package sweep.equation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.core.FdWeights;
import sweep.core.Wavelets;
import sweep.kit.EquationKit;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.HaloPoint;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * The skeleton's leapfrog path, on a small equation of this test's own: u^{n+1} = 2u^n − u^{n−1} + v²dt²·∇²u^n with
 * zero boundaries (no CPML), written over the previous level and the two level arrays swapped by
 * {@link Step#levelRotation()}; source sample n into u^{n+1}, record sample n from u^n. The adjoint of the whole run
 * passes the dot-product test (the rotation's transpose included), checkpointing gives full storage's bits under any
 * budget, and the gradient matches a finite difference of the misfit. (The SH example covers the staggered path, CPML,
 * free surface and decomposition; the conformance kit runs on it.)
 */
class StepSolverLeapfrogTest {
    /** The test's equation: one parameter v, state u and u_previous. */
    static final class Leapfrog extends StepEquation {
        @Override
        public String name() {
            return "leapfrog-test";
        }

        @Override
        public String description() {
            return "constant-density acoustic leapfrog without CPML (test)";
        }

        @Override
        public List<Integer> dimensions() {
            return List.of(2);
        }

        @Override
        public List<Parameter> parameters() {
            return List.of(new Parameter("v", "m/s", "velocity, > 0", 1000, 3000, 50));
        }

        @Override
        public List<String> fields(int ndim) {
            return List.of("u");
        }

        @Override
        public List<String> auxiliaries(int ndim) {
            return List.of("u_previous");
        }

        @Override
        public List<String> recordable(int ndim) {
            return List.of("u");
        }

        @Override
        public List<String> defaultRecord(int ndim) {
            return List.of("u");
        }

        @Override
        public List<String> sourceTypes(int ndim) {
            return List.of();
        }

        @Override
        public String defaultSourceType(int ndim) {
            return null;
        }

        @Override
        public double maxStableDt(double vmax, double[] dh, int order) {
            return 2.0 / (vmax * Math.sqrt(FdWeights.secondDerivativeSymbolMax(order) * (1 / (dh[0] * dh[0])
                    + 1 / (dh[1] * dh[1]))));
        }

        @Override
        public List<HaloPoint> haloPoints(int ndim) {
            return List.of(new HaloPoint("FORWARD", List.of("u")), new HaloPoint("ADJOINT", List.of("g")));
        }

        @Override
        public int modelMargin(int order) {
            return 0;
        }

        @Override
        protected Step step(PropSpec spec, Grid grid) {
            return new LeapfrogStep(spec, grid);
        }

        @Override
        public int coefficientArrays(int ndim) {
            return 1;
        }

        @Override
        public int adjointWorkArrays(int ndim) {
            return 2;
        }

        @Override
        public int tapeFloatsPerCell(int ndim) {
            return 1;
        }
    }

    /** Its step: one stage; work arrays g = c·ū_next and dJ/dc. */
    static final class LeapfrogStep extends Step {
        private final float[] cz;
        private final float[] cx;
        private float[] c;

        LeapfrogStep(PropSpec spec, Grid grid) {
            super(spec, grid);
            double[] w = FdWeights.second(spec.order());
            cz = new float[h + 1];
            cx = new float[h + 1];
            for (int k = 0; k <= h; k++) {
                cz[k] = (float) (w[k] / (spec.dh()[0] * spec.dh()[0]));
                cx[k] = (float) (w[k] / (spec.dh()[1] * spec.dh()[1]));
            }
        }

        @Override
        protected List<String> stages() {
            return List.of("update");
        }

        @Override
        protected void setModel() {
            if (c == null) {
                c = newArray();
            }
            for (int z = 0; z < nz; z++) {
                for (int x = 0; x < nx; x++) {
                    double v = model(0, z, 0, x);
                    c[base + z * sz + x] = (float) (v * v * spec.dt() * spec.dt());
                }
            }
        }

        @Override
        protected int recordStage() {
            return -1;
        }

        @Override
        protected int[] levelRotation() {
            return new int[] {1, 0};
        }

        private float laplacian(float[] u, int i) {
            float s = (cz[0] + cx[0]) * u[i];
            for (int k = 1; k <= h; k++) {
                s += cz[k] * (u[i + k * sz] + u[i - k * sz]) + cx[k] * (u[i + k] + u[i - k]);
            }
            return s;
        }

        @Override
        protected void forward(int stage, float[][] s, float[] tape, int taping) {
            parallel((z0, z1) -> {
                for (int z = z0; z < z1; z++) {
                    for (int x = 0; x < nx; x++) {
                        int i = base + z * sz + x;
                        float l = laplacian(s[0], i);
                        s[1][i] = 2f * s[0][i] - s[1][i] + c[i] * l;
                        if (taping == 1) {
                            tape[z * nx + x] = l;
                        }
                    }
                }
            });
            exchange(s[1]);
        }

        @Override
        protected void transpose(int stage, float[][] a, float[][] w, float[] tape) {
            parallel((z0, z1) -> {
                for (int z = z0; z < z1; z++) {
                    for (int x = 0; x < nx; x++) {
                        int i = base + z * sz + x;
                        w[0][i] = c[i] * a[1][i];
                        w[1][i] += a[1][i] * tape[z * nx + x];
                    }
                }
            });
            exchange(w[0]);
            parallel((z0, z1) -> {
                for (int z = z0; z < z1; z++) {
                    for (int x = 0; x < nx; x++) {
                        int i = base + z * sz + x;
                        a[0][i] += 2f * a[1][i] + laplacian(w[0], i);
                        a[1][i] = -a[1][i];
                    }
                }
            });
        }

        @Override
        protected void inject(float[][] s, int cell, float sample, float[] tape, int taping) {
            s[1][cell] += c[cell] * sample;
            if (taping == 1) {
                int k = cell - base;
                tape[(k / sz) * nx + k % sz] += sample;
            }
        }

        @Override
        protected float injectTranspose(float[][] a, int cell) {
            return c[cell] * a[1][cell];
        }

        @Override
        protected float[] gradient(float[][] w) {
            float[] g = new float[tileCells()];
            double dt2 = spec.dt() * spec.dt();
            for (int z = 0; z < nz; z++) {
                for (int x = 0; x < nx; x++) {
                    int k = tileCell(z, 0, x);
                    g[k] += (float) (w[1][base + z * sz + x] * 2 * model(0, z, 0, x) * dt2);
                }
            }
            return g;
        }
    }

    private static final int NZ = 30;
    private static final int NX = 36;

    private static PropSpec spec(Storage storage, long budget) {
        return PropSpec.builder(NZ, NX).equation(new Leapfrog()).dh(10).dt(1e-3).nt(150).abcn(0).order(4)
                .storage(storage).checkpointMemory(budget).threads(2).build();
    }

    private static final int[][][] SRC = {{{10, 12}}, {{25, 20}}};
    private static final int[][][] REC = {{{3, 2}, {30, 25}, {18, 8}}, {{5, 27}, {33, 4}, {14, 15}}};

    private static float[] model(long seed) {
        return EquationKit.smoothField(seed, 2000, 300, NZ, NX);
    }

    @Test
    void theAdjointRunPassesTheDotProductTest() {
        PropSpec spec = spec(Storage.FULL, 0);
        Random rnd = new Random(3);
        float[] s = new float[2 * spec.nt()];
        for (int i = 0; i < s.length; i++) {
            s[i] = (float) rnd.nextGaussian();
        }
        try (Propagator p = new Propagator(spec)) {
            float[] fs = p.forwardForGradient(s, SRC, REC, model(1)).data();
            float[] r = new float[fs.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = (float) (Math.signum(fs[i]) * Math.abs(rnd.nextGaussian()));
            }
            float[] ftr = p.gradient(r).wavelet();
            double a = 0;
            double b = 0;
            for (int i = 0; i < r.length; i++) {
                a += (double) fs[i] * r[i];
            }
            for (int i = 0; i < s.length; i++) {
                b += (double) s[i] * ftr[i];
            }
            double rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
            System.out.printf("leapfrog skeleton dot product: %.9e %.9e rel %.2e%n", a, b, rel);
            assertTrue(a != 0 && rel < 1e-5, "relative difference " + rel);
        }
    }

    @Test
    void checkpointedGradientsHaveFullStoragesBitsAndTheGradientMatchesFiniteDifferences() {
        float[] w = Wavelets.ricker(15, 150, 1e-3);
        float[] truth = model(2);
        float[] m0 = model(3);
        Gradient full;
        float[] obs;
        try (Propagator p = new Propagator(spec(Storage.FULL, 0))) {
            obs = p.forward(w, SRC, REC, truth).data();
            full = p.forwardAndGradient(w, SRC, REC, m0, obs, Misfit.L2);
            double[] dir = new double[m0.length];
            double analytic = 0;
            for (int i = 0; i < dir.length; i++) {
                dir[i] = Math.signum(full.parameters()[i]) * m0[i];
                analytic += full.parameters()[i] * dir[i];
            }
            double eps = 1e-3;
            double fd = (misfit(p, w, shifted(m0, dir, eps), obs) - misfit(p, w, shifted(m0, dir, -eps), obs))
                    / (2 * eps);
            double rel = Math.abs(fd - analytic) / Math.abs(fd);
            System.out.printf("leapfrog skeleton gradient: analytic %.8e finite difference %.8e rel %.2e%n",
                    analytic, fd, rel);
            assertTrue(rel < 2e-3, "gradient against finite differences: " + rel);
        }
        Grid g = Grid.single(spec(Storage.CHECKPOINTING, 0));
        long least = StepSolver.schedule(g, 150).bytes(StepSolver.stateBytes(g), StepSolver.tapeBytesPerStep(g));
        for (long budget : new long[] {0, least / 2, least / 4}) {
            PropSpec cp = spec(Storage.CHECKPOINTING, budget);
            try (Propagator p = new Propagator(cp)) {
                Gradient gc = p.forwardAndGradient(w, SRC, REC, m0, obs, Misfit.L2);
                String what = StepSolver.schedule(Grid.single(cp), 150).toString();
                assertEquals(full.misfit(), gc.misfit(), what);
                assertArrayEquals(full.wavelet(), gc.wavelet(), what);
                assertArrayEquals(full.parameters(), gc.parameters(), what);
                System.out.println("leapfrog skeleton checkpointing bit-identical: " + what);
            }
        }
    }

    private static float[] shifted(float[] m, double[] dir, double eps) {
        float[] out = m.clone();
        for (int i = 0; i < m.length; i++) {
            out[i] = (float) (m[i] + eps * dir[i]);
        }
        return out;
    }

    private static double misfit(Propagator p, float[] w, float[] m, float[] obs) {
        float[] d = p.forward(w, SRC, REC, m).data();
        double j = 0;
        for (int i = 0; i < d.length; i++) {
            j += 0.5 * ((double) d[i] - obs[i]) * ((double) d[i] - obs[i]);
        }
        return j;
    }
}
