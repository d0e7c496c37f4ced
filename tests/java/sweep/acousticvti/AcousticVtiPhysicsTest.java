package sweep.acousticvti;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.TestTraces;

/**
 * The pseudo-acoustic VTI equation against physics and against the isotropic {@code acoustic} equation: with
 * ε = δ = 0 its pressure record is the acoustic one, and plane waves travel at the phase velocity of the VTI
 * dispersion relation ω⁴ − ω²vp²[(1 + 2ε)sin²θ + cos²θ] + 2(ε − δ)vp⁴sin²θcos²θ = 0 (fast root), θ from the
 * vertical: vp√(1 + 2ε) horizontally, vp vertically and in between at 45°.
 */
public class AcousticVtiPhysicsTest {
    private static float[] constant(int n, float v) {
        float[] a = new float[n];
        Arrays.fill(a, v);
        return a;
    }

    private static float[] model(int n, float vp, float epsilon, float delta) {
        float[] m = new float[3 * n];
        Arrays.fill(m, 0, n, vp);
        Arrays.fill(m, n, 2 * n, epsilon);
        Arrays.fill(m, 2 * n, 3 * n, delta);
        return m;
    }

    /** The fast root of the VTI dispersion relation: the P phase velocity at angle θ from the vertical. */
    public static double phaseVelocity(double vp, double epsilon, double delta, double theta) {
        double s2 = Math.sin(theta) * Math.sin(theta);
        double c2 = 1 - s2;
        double b = (1 + 2 * epsilon) * s2 + c2;
        double c = 2 * (epsilon - delta) * s2 * c2;
        return vp * Math.sqrt((b + Math.sqrt(b * b - 4 * c)) / 2);
    }

    /**
     * 2-D with a free surface and 3-D, 10 cells per wavelength at 2.5 times the Ricker peak frequency, order 8,
     * receivers 60 to 530 m away in several directions: with ε = δ = 0 the system is the acoustic wave equation
     * (p = q) on the same stencils and CPML, so the records agree to rounding (relative L2 below 1e-4).
     */
    @Test
    void isotropicParametersGiveTheAcousticRecord() {
        double vp = 2000;
        double dh = 10;
        double f = vp / (10 * dh) / 2.5;
        double[] rel = new double[2];
        for (int nd = 2; nd <= 3; nd++) {
            int[] shape = nd == 2 ? new int[] {80, 90} : new int[] {30, 32, 34};
            int nt = nd == 2 ? 450 : 160;
            int n = 1;
            for (int s : shape) {
                n *= s;
            }
            int[][][] src = {{nd == 2 ? new int[] {30, 12} : new int[] {10, 9, 8}}};
            int[][][] rec = {nd == 2 ? new int[][] {{30, 60}, {75, 3}, {70, 70}, {50, 40}}
                    : new int[][] {{10, 9, 26}, {28, 9, 8}, {26, 24, 22}, {18, 18, 14}}};
            float[] w = Wavelets.ricker(f, nt, 1e-3);
            PropSpec base = PropSpec.builder(shape).equation("acoustic").dh(dh).dt(1e-3).nt(nt).abcn(nd == 2 ? 20 : 10)
                    .order(8).freeSurface(nd == 2).build();
            float[] ac;
            float[] vti;
            try (Propagator p = new Propagator(base)) {
                ac = p.forward(w, src, rec, constant(n, (float) vp)).data();
            }
            try (Propagator p = new Propagator(base.toBuilder().equation(AcousticVtiEquation.NAME).build())) {
                vti = p.forward(w, src, rec, model(n, (float) vp, 0, 0)).data();
            }
            rel[nd - 2] = TestTraces.relL2(vti, ac);
            System.out.printf(Locale.ROOT, "acoustic-vti with epsilon = delta = 0 against acoustic, %d-D%s:"
                    + " relative L2 %.3e%n", nd, nd == 2 ? " with a free surface" : "", rel[nd - 2]);
        }
        assertTrue(rel[0] < 1e-4, "2-D: the isotropic VTI record differs from acoustic's by " + rel[0]);
        assertTrue(rel[1] < 1e-4, "3-D: the isotropic VTI record differs from acoustic's by " + rel[1]);
    }

    /**
     * Plane waves from lines of sources across a homogeneous model (vp 2000 m/s, ε 0.2, δ 0.1, dh 10 m, dt 1 ms,
     * Ricker 15 Hz): a row of sources sends one down, a column one sideways, a diagonal one at 45°. In 2-D a plane
     * wave keeps its shape, so the delay between two receivers on its normal, 400 and 1000 m from the line (from the
     * peak of their cross-correlation, refined by a parabola), is their distance over the phase velocity; each
     * measured velocity is within 0.5 % of the dispersion relation's. The slow root (416 m/s at 45°, 0 along the
     * axes) arrives after the record ends, and the line ends' diffractions after the windows.
     */
    @Test
    void planeWavesTravelAtTheVtiPhaseVelocity() {
        int nz = 240;
        int nx = 240;
        int n = nz * nx;
        double dh = 10;
        double dt = 1e-3;
        int nt = 650;
        double vp = 2000;
        double epsilon = 0.2;
        double delta = 0.1;
        double f = 15;
        int[][][] src = new int[3][nx][];
        for (int k = 0; k < nx; k++) {
            src[0][k] = new int[] {k, 10};
            src[1][k] = new int[] {10, k};
            src[2][k] = new int[] {k, nx - 1 - k};
        }
        // receivers on each line's normal through the model's centre; the diagonal's at cell distance (2k+1)/√2
        int[][][] rec = {{{120, 50}, {120, 110}}, {{50, 120}, {110, 120}}, {{148, 120 + 28}, {190, 190}}};
        double[][] distance = {{400, 1000}, {400, 1000},
            {(2 * 28 + 1) / Math.sqrt(2) * dh, (2 * 70 + 1) / Math.sqrt(2) * dh}};
        double[] theta = {0, Math.PI / 2, Math.PI / 4};
        String[] direction = {"vertical", "horizontal", "45 degrees"};
        float[] w = Wavelets.ricker(f, nt, dt);
        PropSpec spec = PropSpec.builder(nz, nx).equation(AcousticVtiEquation.NAME).dh(dh).dt(dt).nt(nt).abcn(20)
                .order(8).build();
        float[] data;
        try (Propagator p = new Propagator(spec)) {
            data = p.forward(w, src, rec, model(n, (float) vp, (float) epsilon, (float) delta)).data();
        }
        for (int s = 0; s < 3; s++) {
            double expected = phaseVelocity(vp, epsilon, delta, theta[s]);
            double[] near = new double[nt];
            double[] far = new double[nt];
            for (int t = 0; t < nt; t++) {
                near[t] = data[(s * nt + t) * 2];
                far[t] = data[(s * nt + t) * 2 + 1];
            }
            double delay = TestTraces.delay(near, far, 100) * dt;
            double measured = (distance[s][1] - distance[s][0]) / delay;
            double err = Math.abs(measured / expected - 1);
            System.out.printf(Locale.ROOT, "acoustic-vti plane wave %s: %.1f m/s measured, %.1f m/s from the"
                    + " dispersion relation, relative error %.2e%n", direction[s], measured, expected, err);
            assertTrue(err < 0.005, direction[s] + ": the plane wave travels at " + measured + " m/s, the dispersion"
                    + " relation says " + expected);
        }
    }

    /**
     * The group velocity of the P wave at angle ψ from the vertical: the phase angle θ whose ray leaves at ψ,
     * tan ψ = (v sin θ + v' cos θ) / (v cos θ − v' sin θ), found by bisection, then √(v² + v'²).
     */
    public static double groupVelocity(double vp, double epsilon, double delta, double psi) {
        double lo = 0;
        double hi = Math.PI / 2;
        for (int it = 0; it < 60; it++) {
            double th = 0.5 * (lo + hi);
            double v = phaseVelocity(vp, epsilon, delta, th);
            double dv = slope(vp, epsilon, delta, th);
            double ray = Math.atan2(v * Math.sin(th) + dv * Math.cos(th), v * Math.cos(th) - dv * Math.sin(th));
            if (ray < psi) {
                lo = th;
            } else {
                hi = th;
            }
        }
        double th = 0.5 * (lo + hi);
        double v = phaseVelocity(vp, epsilon, delta, th);
        return Math.hypot(v, slope(vp, epsilon, delta, th));
    }

    /** dv/dθ of the phase velocity, by a centred difference. */
    private static double slope(double vp, double epsilon, double delta, double theta) {
        double h = 1e-6;
        return (phaseVelocity(vp, epsilon, delta, theta + h) - phaseVelocity(vp, epsilon, delta, theta - h)) / (2 * h);
    }

    /**
     * A point source in the same homogeneous VTI model: the P arrival's moveout between receivers 400 and 1000 m away
     * (about 396 and 1004 m on the diagonal) gives vp√(1 + 2ε) along x and vp along z within 0.5 %, and along 45° the
     * group velocity of the dispersion relation within 1 %. The 2-D point source's waveform changes with distance;
     * for these offsets that biases the cross-correlation delay by about 2e-4 (computed from the exact isotropic 2-D
     * Green's function).
     */
    @Test
    void pointSourceArrivalsTravelAtTheVtiGroupVelocity() {
        int nz = 160;
        int nx = 160;
        double dh = 10;
        double dt = 1e-3;
        int nt = 700;
        double vp = 2000;
        double epsilon = 0.2;
        double delta = 0.1;
        int[][][] src = {{{40, 40}}};
        int[][][] rec = {{{80, 40}, {140, 40}, {40, 80}, {40, 140}, {68, 68}, {111, 111}}};
        double[][] distance = {{400, 1000}, {400, 1000}, {28 * Math.sqrt(2) * dh, 71 * Math.sqrt(2) * dh}};
        double[] expected = {vp * Math.sqrt(1 + 2 * epsilon), vp, groupVelocity(vp, epsilon, delta, Math.PI / 4)};
        double[] bound = {0.005, 0.005, 0.01};
        String[] direction = {"along x", "along z", "at 45 degrees"};
        PropSpec spec = PropSpec.builder(nz, nx).equation(AcousticVtiEquation.NAME).dh(dh).dt(dt).nt(nt).abcn(20)
                .order(8).build();
        float[] data;
        try (Propagator p = new Propagator(spec)) {
            data = p.forward(Wavelets.ricker(15, nt, dt), src, rec, model(nz * nx, (float) vp, (float) epsilon,
                    (float) delta)).data();
        }
        for (int s = 0; s < 3; s++) {
            double[] near = new double[nt];
            double[] far = new double[nt];
            for (int t = 0; t < nt; t++) {
                near[t] = data[t * 6 + 2 * s];
                far[t] = data[t * 6 + 2 * s + 1];
            }
            double measured = (distance[s][1] - distance[s][0]) / (TestTraces.delay(near, far, 100) * dt);
            double err = Math.abs(measured / expected[s] - 1);
            System.out.printf(Locale.ROOT, "acoustic-vti point source %s: %.1f m/s measured, group velocity %.1f m/s,"
                    + " relative error %.2e%n", direction[s], measured, expected[s], err);
            assertTrue(err < bound[s], direction[s] + ": the P arrival travels at " + measured + " m/s, the group"
                    + " velocity is " + expected[s]);
        }
    }

    /**
     * The dispersion relation's fast root along the axes is vp√(1 + 2ε) horizontally and vp vertically; with ε = δ
     * (elliptical) the group velocity at 45° is the ellipse's radius vp·√((1 + 2ε)/(1 + ε)) there.
     */
    @Test
    void phaseAndGroupVelocityFormulas() {
        assertEquals(2000 * Math.sqrt(1.4), phaseVelocity(2000, 0.2, 0.1, Math.PI / 2), 1e-9);
        assertEquals(2000, phaseVelocity(2000, 0.2, 0.1, 0), 1e-9);
        double a = 2000 * Math.sqrt(1.4);
        double b = 2000;
        assertEquals(a * b * Math.sqrt(2 / (a * a + b * b)), groupVelocity(2000, 0.2, 0.2, Math.PI / 4), 1e-6);
    }

    /**
     * ε below δ makes the pseudo-acoustic system unstable: a model with one such cell is refused before any step,
     * naming the cell and both values.
     */
    @Test
    void epsilonBelowDeltaIsRefusedNamingTheCell() {
        int nz = 30;
        int nx = 32;
        int n = nz * nx;
        float[] m = model(n, 2000, 0.1f, 0.05f);
        m[n + 7 * nx + 11] = 0.02f;
        PropSpec spec = PropSpec.builder(nz, nx).equation(AcousticVtiEquation.NAME).dh(10).dt(1e-3).nt(20).abcn(6)
                .build();
        try (Propagator p = new Propagator(spec)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.forward(Wavelets.ricker(15, 20, 1e-3), new int[][][] {{{10, 12}}},
                            new int[][][] {{{2, 3}}}, m));
            String msg = e.getMessage();
            assertTrue(msg.contains("epsilon = 0.02") && msg.contains("delta = 0.05")
                    && msg.contains("(z, x) = (7, 11)"), msg);
        }
    }
}
