package sweep.acoustictti;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import sweep.acousticvti.AcousticVtiEquation;
import sweep.acousticvti.AcousticVtiPhysicsTest;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.TestTraces;

/**
 * The pseudo-acoustic TTI equation against physics and against its neighbours: with ε = δ = 0 its record is the
 * {@code acoustic} one whatever the tilt, with θ = 0 it is the {@code acoustic-vti} one, and in a homogeneous tilted
 * medium the P arrival travels at vp along the symmetry axis, at vp√(1 + 2ε) across it, and in between at the group
 * velocity of the VTI dispersion relation at the angle from the axis. The TTI operators are two passes of centred
 * first differences where the others use one second-difference stencil, so the records agree to discretisation
 * accuracy (relative L2 below 1 %), not to rounding.
 */
class AcousticTtiPhysicsTest {
    /** vp, epsilon, delta constant; theta(z, x) from {@code theta}. */
    private static float[] model(int nz, int nx, float vp, float epsilon, float delta, Tilt theta) {
        int n = nz * nx;
        float[] m = new float[4 * n];
        Arrays.fill(m, 0, n, vp);
        Arrays.fill(m, n, 2 * n, epsilon);
        Arrays.fill(m, 2 * n, 3 * n, delta);
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                m[3 * n + z * nx + x] = (float) theta.at(z, x);
            }
        }
        return m;
    }

    /** A tilt field in degrees. */
    private interface Tilt {
        double at(int z, int x);
    }

    /**
     * 2-D with a free surface, 10 cells per wavelength at 2.5 times the Ricker peak frequency, order 8, receivers 60
     * to 530 m away in several directions: with ε = δ = 0 and a tilt varying from −40° to 60° the record is the
     * acoustic one, and with ε = 0.2, δ = 0.1, θ = 0 the VTI one, each within 1 % relative L2.
     */
    @Test
    void isotropicOrUntiltedParametersGiveTheAcousticOrVtiRecord() {
        int nz = 80;
        int nx = 90;
        int nt = 450;
        double dh = 10;
        float[] w = Wavelets.ricker(2000 / (10 * dh) / 2.5, nt, 1e-3);
        int[][][] src = {{{12, 30}}};
        int[][][] rec = {{{60, 30}, {3, 75}, {70, 70}, {40, 50}}};
        PropSpec base = PropSpec.builder(nz, nx).equation("acoustic").dh(dh).dt(1e-3).nt(nt).abcn(20).order(8)
                .freeSurface(true).build();
        PropSpec tti = base.toBuilder().equation(AcousticTtiEquation.NAME).build();
        float[] vp = new float[nz * nx];
        Arrays.fill(vp, 2000);
        float[] acoustic;
        float[] isotropic;
        float[] vti;
        float[] untilted;
        try (Propagator p = new Propagator(base)) {
            acoustic = p.forward(w, src, rec, vp).data();
        }
        try (Propagator p = new Propagator(base.toBuilder().equation(AcousticVtiEquation.NAME).build())) {
            float[] m = model(nz, nx, 2000, 0.2f, 0.1f, (z, x) -> 0);
            vti = p.forward(w, src, rec, Arrays.copyOf(m, 3 * nz * nx)).data();
        }
        try (Propagator p = new Propagator(tti)) {
            isotropic = p.forward(w, src, rec, model(nz, nx, 2000, 0, 0, (z, x) -> -40 + 100.0 * x / nx)).data();
            untilted = p.forward(w, src, rec, model(nz, nx, 2000, 0.2f, 0.1f, (z, x) -> 0)).data();
        }
        double a = TestTraces.relL2(isotropic, acoustic);
        double v = TestTraces.relL2(untilted, vti);
        System.out.printf(Locale.ROOT, "acoustic-tti with epsilon = delta = 0 and a varying tilt against acoustic,"
                + " with a free surface: relative L2 %.3e%n", a);
        System.out.printf(Locale.ROOT, "acoustic-tti with theta = 0 against acoustic-vti (epsilon 0.2, delta 0.1),"
                + " with a free surface: relative L2 %.3e%n", v);
        assertTrue(a < 0.01, "the isotropic TTI record differs from acoustic's by " + a);
        assertTrue(v < 0.01, "the untilted TTI record differs from acoustic-vti's by " + v);
    }

    /**
     * Point sources in homogeneous media (vp 2000 m/s, ε 0.2, δ 0.1, dh 10 m, dt 1 ms, Ricker 15 Hz), the P arrival's
     * moveout between receivers about 400 and 1000 m away (the cross-correlation delay): with θ = 90° the horizontal
     * and vertical velocities of VTI swap (vp along x, vp√(1 + 2ε) along z, within 0.5 %); with θ = 45° vp along the
     * diagonal the axis points along and vp√(1 + 2ε) across it (within 0.5 %), and along z, 45° from the axis, the
     * VTI group velocity at 45° (within 1 %).
     */
    @Test
    void theFastDirectionFollowsTheTilt() {
        int nz = 200;
        int nx = 200;
        double dh = 10;
        double dt = 1e-3;
        int nt = 700;
        double vp = 2000;
        double epsilon = 0.2;
        double delta = 0.1;
        double fast = vp * Math.sqrt(1 + 2 * epsilon);
        double diagonal = 28 * Math.sqrt(2) * dh;
        double diagonalFar = 71 * Math.sqrt(2) * dh;
        PropSpec spec = PropSpec.builder(nz, nx).equation(AcousticTtiEquation.NAME).dh(dh).dt(dt).nt(nt).abcn(20)
                .order(8).build();
        float[] w = Wavelets.ricker(15, nt, dt);
        // (x, z) cells. theta 90: along x and along z; theta 45: along the axis (+x, +z), across it (+x, -z), along z
        int[][][] src = {{{40, 40}}, {{40, 100}}};
        int[][][] rec = {{{80, 40}, {140, 40}, {40, 80}, {40, 140}},
            {{68, 128}, {111, 171}, {68, 72}, {111, 29}, {40, 140}, {40, 200 - 1}}};
        String[] direction = {"theta 90 along x", "theta 90 along z", "theta 45 along the axis",
            "theta 45 across the axis", "theta 45 along z"};
        double[][] distance = {{400, 1000}, {400, 1000}, {diagonal, diagonalFar}, {diagonal, diagonalFar},
            {400, 990}};
        double[] expected = {vp, fast, vp, fast, AcousticVtiPhysicsTest.groupVelocity(vp, epsilon, delta,
                Math.PI / 4)};
        double[] bound = {0.005, 0.005, 0.005, 0.005, 0.01};
        float[][] data = new float[2][];
        try (Propagator p = new Propagator(spec)) {
            for (int s = 0; s < 2; s++) {
                double tilt = s == 0 ? 90 : 45;
                data[s] = p.forward(w, new int[][][] {src[s]}, new int[][][] {rec[s]},
                        model(nz, nx, (float) vp, (float) epsilon, (float) delta, (z, x) -> tilt)).data();
            }
        }
        for (int d = 0; d < direction.length; d++) {
            int s = d < 2 ? 0 : 1;
            int r = 2 * (d < 2 ? d : d - 2);
            int nr = rec[s].length;
            double[] near = new double[nt];
            double[] far = new double[nt];
            for (int t = 0; t < nt; t++) {
                near[t] = data[s][t * nr + r];
                far[t] = data[s][t * nr + r + 1];
            }
            double measured = (distance[d][1] - distance[d][0]) / (TestTraces.delay(near, far, 100) * dt);
            double err = Math.abs(measured / expected[d] - 1);
            System.out.printf(Locale.ROOT, "acoustic-tti point source %s: %.1f m/s measured, %.1f m/s expected,"
                    + " relative error %.2e%n", direction[d], measured, expected[d], err);
            assertTrue(err < bound[d], direction[d] + ": the P arrival travels at " + measured + " m/s, expected "
                    + expected[d]);
        }
    }

    /** A 3-D model (parameter-major): vp, epsilon, delta constant, theta and phi per cell (z, y, x). */
    private static float[] model3(int n, float vp, float epsilon, float delta, Angle theta, Angle phi) {
        int cells = n * n * n;
        float[] m = new float[5 * cells];
        Arrays.fill(m, 0, cells, vp);
        Arrays.fill(m, cells, 2 * cells, epsilon);
        Arrays.fill(m, 2 * cells, 3 * cells, delta);
        for (int z = 0; z < n; z++) {
            for (int y = 0; y < n; y++) {
                for (int x = 0; x < n; x++) {
                    int i = (z * n + y) * n + x;
                    m[3 * cells + i] = (float) theta.at(z, y, x);
                    m[4 * cells + i] = (float) phi.at(z, y, x);
                }
            }
        }
        return m;
    }

    /** An angle field in degrees over (z, y, x). */
    private interface Angle {
        double at(int z, int y, int x);
    }

    /**
     * 3-D, a cube of 28 cells (10 m, CPML of 6 on every side, order 8, 8 Hz Ricker, 150 steps), receivers in several
     * directions: with ε = δ = 0 and a tilt and azimuth varying in space the record is the acoustic one; with
     * ε = 0.2, δ = 0.1 and θ = 0 (any azimuth) the acoustic-vti one, and with θ = 90°, φ = 90° (the axis along y) the
     * acoustic-vti one with y and z swapped, each within 1 % relative L2; and mirroring the medium across the plane
     * x = y (a cell's azimuth φ becoming 90° − φ) mirrors the record (sources and receivers swapped in x and y), to
     * float rounding (relative L2 below 1e-5), with a tilt and azimuth that vary.
     */
    @Test
    void threeDimensionalRecordsAreTheAcousticTheVtiAndTheMirroredOnes() {
        int n = 28;
        int nt = 150;
        int cells = n * n * n;
        float[] w = Wavelets.ricker(8, nt, 1e-3);
        int[][][] src = {{{10, 12, 8}}};
        int[][][] rec = {{{22, 12, 8}, {10, 24, 8}, {19, 20, 18}, {10, 12, 22}, {3, 21, 11}}};
        PropSpec base = PropSpec.builder(n, n, n).equation("acoustic").dh(10).dt(1e-3).nt(nt).abcn(6).order(8)
                .threads(2).build();
        PropSpec tti = base.toBuilder().equation(AcousticTtiEquation.NAME).build();
        float[] vp = new float[cells];
        Arrays.fill(vp, 2000);
        float[] acoustic;
        float[] vti;
        try (Propagator p = new Propagator(base)) {
            acoustic = p.forward(w, src, rec, vp).data();
        }
        try (Propagator p = new Propagator(base.toBuilder().equation(AcousticVtiEquation.NAME).build())) {
            vti = p.forward(w, src, rec, Arrays.copyOf(model3(n, 2000, 0.2f, 0.1f, (z, y, x) -> 0,
                    (z, y, x) -> 0), 3 * cells)).data();
        }
        Angle theta = (z, y, x) -> 20 + 30 * Math.sin(0.15 * x + 0.1 * y) + 0.7 * z;
        Angle phi = (z, y, x) -> -30 + 3.0 * x + 2.0 * y - z;
        float[][] r = new float[5][];
        try (Propagator p = new Propagator(tti)) {
            r[0] = p.forward(w, src, rec, model3(n, 2000, 0, 0, theta, phi)).data();
            r[1] = p.forward(w, src, rec, model3(n, 2000, 0.2f, 0.1f, (z, y, x) -> 0, phi)).data();
            r[2] = p.forward(w, swap(src, 1, 2), swap(rec, 1, 2), model3(n, 2000, 0.2f, 0.1f, (z, y, x) -> 90,
                    (z, y, x) -> 90)).data();
            r[3] = p.forward(w, src, rec, model3(n, 2000, 0.2f, 0.1f, theta, phi)).data();
            r[4] = p.forward(w, swap(src, 0, 1), swap(rec, 0, 1), model3(n, 2000, 0.2f, 0.1f,
                    (z, y, x) -> theta.at(z, x, y), (z, y, x) -> 90 - phi.at(z, x, y))).data();
        }
        double a = TestTraces.relL2(r[0], acoustic);
        double v = TestTraces.relL2(r[1], vti);
        double y = TestTraces.relL2(r[2], vti);
        double moved = TestTraces.relL2(r[3], r[1]);
        double m = TestTraces.relL2(r[4], r[3]);
        System.out.printf(Locale.ROOT, "acoustic-tti 3-D with epsilon = delta = 0, a varying tilt and azimuth, against"
                + " acoustic: relative L2 %.3e%n", a);
        System.out.printf(Locale.ROOT, "acoustic-tti 3-D with theta = 0 against acoustic-vti: relative L2 %.3e%n", v);
        System.out.printf(Locale.ROOT, "acoustic-tti 3-D with the axis along y (theta 90, phi 90) against acoustic-vti"
                + " with y and z swapped: relative L2 %.3e%n", y);
        System.out.printf(Locale.ROOT, "acoustic-tti 3-D mirrored across x = y against the unmirrored record: relative"
                + " L2 %.3e (the varying tilt moves the record by %.3e)%n", m, moved);
        assertTrue(a < 0.01, "the isotropic 3-D TTI record differs from acoustic's by " + a);
        assertTrue(v < 0.01, "the untilted 3-D TTI record differs from acoustic-vti's by " + v);
        assertTrue(y < 0.01, "the 3-D TTI record with the axis along y differs from acoustic-vti's by " + y);
        assertTrue(moved > 0.05, "the tilt hardly changes the record: " + moved);
        assertTrue(m < 1e-5, "the mirrored medium's record differs from the mirrored record by " + m);
    }

    /** {@code cells} with coordinates a and b (0 = x, 1 = y, 2 = z) swapped. */
    private static int[][][] swap(int[][][] cells, int a, int b) {
        int[][][] out = new int[cells.length][][];
        for (int s = 0; s < cells.length; s++) {
            out[s] = new int[cells[s].length][];
            for (int k = 0; k < cells[s].length; k++) {
                out[s][k] = cells[s][k].clone();
                out[s][k][a] = cells[s][k][b];
                out[s][k][b] = cells[s][k][a];
            }
        }
        return out;
    }
}
