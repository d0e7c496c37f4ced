package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.math3.analysis.solvers.BrentSolver;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;
import sweep.prop.PropSpec;
import sweep.prop.Record;
import sweep.prop.TestTraces;

/**
 * The elastic free surface at z = 0: stress-free on the surface nodes, a Rayleigh wave at the speed the Rayleigh
 * equation gives, and, in the fluid limit (vs = 0), the pressure of a source and its negative image.
 */
class ElasticFreeSurfaceTest {
    static final double DH = 5;

    private static PropSpec.Builder base(int... shape) {
        return PropSpec.builder(shape).equation("elastic").dh(DH).abcn(20).order(8).freeSurface(true)
                .threads(2);
    }

    /** The root in (0, vs) of the Rayleigh equation (2 − c²/β²)² = 4·√(1 − c²/α²)·√(1 − c²/β²). */
    static double rayleighSpeed(double vp, double vs) {
        return new BrentSolver(1e-12).solve(200, c -> {
            double a = c * c / (vp * vp);
            double b = c * c / (vs * vs);
            return (2 - b) * (2 - b) - 4 * Math.sqrt(1 - a) * Math.sqrt(1 - b);
        }, 0.5 * vs, 0.999999 * vs);
    }

    @Test
    void rayleighEquationRootIsTheKnownOne() {
        // Poisson solid (λ = μ): c_R = β·√(2 − 2/√3) (Rayleigh 1885)
        assertEquals(Math.sqrt(2 - 2 / Math.sqrt(3)), rayleighSpeed(Math.sqrt(3), 1), 1e-9);
    }

    /**
     * σzz is exactly 0 on the surface nodes and σxz is antisymmetric about z = 0 (so 0 when interpolated onto the
     * surface) at every snapshot; independently of the image rule, the tractions extrapolated onto z = 0 from the
     * nodes below alone (quadratic, one-sided) are small against the stresses of the wave passing there (a rigid or
     * absent surface condition would leave them of the order of those stresses).
     */
    @Test
    void surfaceIsStressFree2d() {
        int nz = 60;
        int nx = 120;
        double dt = 1e-3;
        int nt = 400;
        // [extrapolated σzz, extrapolated σxz, largest normal stress, largest shear stress] in the top rows
        double[] max = new double[4];
        try (ElasticSolver p = new ElasticSolver(base(nz, nx).dt(dt).nt(nt).build())) {
            p.forward(Wavelets.ricker(5, nt, dt), new int[][][] {{{60, 20}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {{{0, 0}}}, List.of(ElasticField.P),
                    ElasticModel.constant(nz * nx, 2000f, 1000f, 2000f), 10, (shot, done, f) -> {
                        // 2-D order: vx, vz, sxx, szz, sxz
                        for (int x = 0; x < nx; x++) {
                            assertEquals(0.0f, f[3][x], 0.0f, "σzz on the surface node x " + x + " after " + done);
                            max[0] = Math.max(max[0],
                                    Math.abs(3 * f[3][nx + x] - 3 * f[3][2 * nx + x] + f[3][3 * nx + x]));
                            max[1] = Math.max(max[1],
                                    Math.abs(15 * f[4][x] - 10 * f[4][nx + x] + 3 * f[4][2 * nx + x]) / 8);
                            max[2] = Math.max(max[2], Math.abs(f[2][x]));
                            for (int z = 0; z < 6; z++) {
                                max[2] = Math.max(max[2], Math.abs(f[3][z * nx + x]));
                                max[3] = Math.max(max[3], Math.abs(f[4][z * nx + x]));
                            }
                        }
                    });
            ElasticStepper st = p.stepper();
            int len = st.len;
            int sz = st.geo[Layout.SZ];
            int nonzero = 0;
            for (int x = 0; x < st.g.nx; x++) {
                int i = st.g.compIndex(0, 0, x);
                assertEquals(0.0f, st.s[len + i], 0.0f, "σzz on the surface at x " + x);
                for (int k = 1; k <= st.h; k++) {
                    assertEquals(0.0f, st.s[len + i - k * sz] + st.s[len + i + k * sz], 0.0f, "σzz image");
                    assertEquals(0.0f, st.s[2 * len + i - k * sz] + st.s[2 * len + i + (k - 1) * sz], 0.0f,
                            "σxz image");
                }
                nonzero += st.s[2 * len + i] != 0 ? 1 : 0;
            }
            assertTrue(nonzero > nx / 2, "σxz below the surface should not vanish");
        }
        double rz = max[0] / max[2];
        double rx = max[1] / max[3];
        System.out.printf("free surface 2-D: tractions extrapolated onto z = 0 from below: |σzz| <= %.2e of the largest"
                + " normal stress, |σxz| <= %.2e of the largest shear stress in the top rows%n", rz, rx);
        assertTrue(max[2] > 0 && max[3] > 0, "the wave must reach the surface");
        assertTrue(rz < 0.02 && rx < 0.02, "tractions extrapolated onto the surface: " + rz + ", " + rx);
    }

    @Test
    void surfaceIsStressFree3d() {
        int n = 30;
        double dt = 1.5e-3;
        int nt = 90;
        PropSpec spec = PropSpec.builder(n, n, n).equation("elastic").dh(10).dt(dt).nt(nt).abcn(8)
                .order(4).freeSurface(true).threads(2).build();
        try (ElasticSolver p = new ElasticSolver(spec)) {
            Record r = p.forward(Wavelets.ricker(10, nt, dt), new int[][][] {{{15, 15, 4}}}, ElasticSource.FZ,
                    new int[][][] {{{22, 15, 0}}}, List.of(ElasticField.P, ElasticField.VZ),
                    ElasticModel.constant(n * n * n, 2000f, 1000f, 2000f));
            assertTrue(Math.abs(r.get(0, nt - 20, 0, 0)) + Math.abs(r.get(0, nt - 20, 0, 1)) > 0);
            ElasticStepper st = p.stepper();
            int len = st.len;
            int sz = st.geo[Layout.SZ];
            for (int y = 0; y < st.g.ny; y++) {
                for (int x = 0; x < st.g.nx; x++) {
                    int i = st.g.compIndex(0, y, x);
                    assertEquals(0.0f, st.s[2 * len + i], 0.0f, "σzz on the surface");
                    for (int k = 1; k <= st.h; k++) {
                        assertEquals(0.0f, st.s[2 * len + i - k * sz] + st.s[2 * len + i + k * sz], 0.0f, "σzz image");
                        assertEquals(0.0f, st.s[4 * len + i - k * sz] + st.s[4 * len + i + (k - 1) * sz], 0.0f,
                                "σxz image");
                        assertEquals(0.0f, st.s[5 * len + i - k * sz] + st.s[5 * len + i + (k - 1) * sz], 0.0f,
                                "σyz image");
                    }
                }
            }
            assertEquals(1, st.geo[ElasticLayout.FS]);
        }
    }

    @Test
    void rayleighWaveTravelsAtTheRayleighSpeed() {
        double vp = 2000;
        double vs = 1000;
        double rho = 2000;
        double f = 10;
        double dt = 1e-3;
        int nt = 1000;
        int nz = 50;
        int nx = 190;
        int sx = 20;
        int x1 = sx + 40;
        int x2 = sx + 120;
        PropSpec spec = base(nz, nx).dt(dt).nt(nt).build();
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec)) {
            r = p.forward(Wavelets.ricker(f, nt, dt), new int[][][] {{{sx, 0}}}, ElasticSource.FZ,
                    new int[][][] {{{x1, 0}, {x2, 0}}}, List.of(ElasticField.VZ, ElasticField.VX),
                    ElasticModel.constant(nz * nx, (float) vp, (float) vs, (float) rho));
        }
        double cr = rayleighSpeed(vp, vs);
        for (int field = 0; field < 2; field++) {
            double[] a = column(r, 0, field);
            double[] b = column(r, 1, field);
            double lag = TestTraces.delay(a, b, (int) (0.15 / dt));
            double c = (x2 - x1) * DH / (lag * dt);
            System.out.printf("Rayleigh wave (%s): measured %.2f m/s, Rayleigh equation %.2f m/s (%.2f %%)%n",
                    field == 0 ? "vz" : "vx", c, cr, 100 * (c / cr - 1));
            assertEquals(cr, c, 0.02 * cr, "Rayleigh speed from " + (field == 0 ? "vz" : "vx"));
        }
    }

    @Test
    void fluidHalfSpaceIsSourceMinusImage() {
        double vp = 1500;
        double rho = 1000;
        double f = 12;
        double dt = 1e-3;
        int nt = 450;
        int nz = 100;
        int nx = 141;
        int sx = 70;
        int sz = 12;
        int[][] recs = {{sx + 30, 5}, {sx - 25, 20}, {sx + 10, 40}, {sx + 20, 0}};
        Record r;
        try (ElasticSolver p = new ElasticSolver(base(nz, nx).dt(dt).nt(nt).build())) {
            r = p.forward(Wavelets.ricker(f, nt, dt), new int[][][] {{{sx, sz}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {recs}, List.of(ElasticField.P), ElasticModel.constant(nz * nx, (float) vp, 0f,
                            (float) rho));
        }
        for (int k = 0; k < recs.length; k++) {
            double ex = DH * (recs[k][0] - sx);
            double d1 = Math.hypot(ex, DH * (recs[k][1] - sz));
            double d2 = Math.hypot(ex, DH * (recs[k][1] + sz));
            double[] exact = new double[nt];
            double peak = 0;
            for (int t = 0; t < nt; t++) {
                double time = t * dt - dt / 2;
                exact[t] = ElasticAnalytic.explosion2dP(d1, time, vp, 0, rho, f)
                        - ElasticAnalytic.explosion2dP(d2, time, vp, 0, rho, f);
                peak = Math.max(peak, Math.abs(ElasticAnalytic.explosion2dP(d1, time, vp, 0, rho, f)));
            }
            if (recs[k][1] == 0) {
                double max = 0;
                for (int t = 0; t < nt; t++) {
                    max = Math.max(max, Math.abs(r.get(0, t, k, 0)));
                }
                System.out.printf("fluid free surface: |p| on the surface %.3e (direct wave peak %.3e)%n", max, peak);
                assertEquals(0.0, max, 0.0, "p on a fluid free surface");
                continue;
            }
            double err = ElasticAnalytic.relL2(r.data(), k, recs.length, exact);
            System.out.printf("fluid free surface, receiver depth %d cells: relative L2 error %.4f%n", recs[k][1], err);
            assertTrue(err < 0.02, "fluid half-space relative L2 error " + err + " at depth " + recs[k][1]);
        }
    }

    private static double[] column(Record r, int rec, int field) {
        double[] c = new double[r.nt()];
        for (int t = 0; t < r.nt(); t++) {
            c[t] = r.get(0, t, rec, field);
        }
        return c;
    }
}
