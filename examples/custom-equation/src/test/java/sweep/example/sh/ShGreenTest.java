package sweep.example.sh;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Physics of the SH solver in a homogeneous medium against the analytic 2-D Green's function: ρ∂vy/∂t = μ∇²·∫vy +
 * f makes ∂²vy/∂t² − vs²∇²vy = ẇ(t)δ(x)/ρ, whose solution is vy = (1/ρ) ẇ * G with the line-source Green's function
 * G(r, t) = H(vs·t − r)/(2π vs √(vs²t² − r²)). With a free surface at z = 0 (σzy = 0) the field is that of the
 * source plus its mirror image at −z (an even image). The wavelet is a Ricker of 10 Hz: 15 cells per wavelength at
 * the peak frequency.
 */
class ShGreenTest {
    private static final double VS = 1500;
    private static final double RHO = 2000;
    private static final double DH = 10;
    private static final double DT = 1e-3;
    private static final double FREQ = 10;
    private static final double T0 = 1.5 / FREQ;
    private static final int NT = 520;

    /** Ricker w(t) = (1 − 2aτ²)e^{−aτ²}, a = π²f², τ = t − t0. */
    private static double ricker(double t) {
        double a = Math.PI * Math.PI * FREQ * FREQ;
        double s = (t - T0) * (t - T0);
        return (1 - 2 * a * s) * Math.exp(-a * s);
    }

    /** Its second derivative, e^{−aτ²}(−6a + 24a²τ² − 8a³τ⁴). */
    private static double rickerSecond(double t) {
        double a = Math.PI * Math.PI * FREQ * FREQ;
        double s = (t - T0) * (t - T0);
        return Math.exp(-a * s) * (-6 * a + 24 * a * a * s - 8 * a * a * a * s * s);
    }

    /**
     * vy at distance r (m) and time t of a force w(t)·δ(x) per unit length: (1/ρ)∫ẅ(τ)·Gi(t − τ)dτ with Gi the time
     * integral of G, acosh(vs·s/r)/(2π vs²) for vs·s > r (continuous, so a fine trapezoid rule converges).
     */
    static double analytic(double r, double t) {
        int m = 4000;
        double d = t / m;
        double sum = 0;
        for (int k = 0; k <= m; k++) {
            double tau = k * d;
            double s = t - tau;
            double gi = VS * s > r ? acosh(VS * s / r) / (2 * Math.PI * VS * VS) : 0;
            double f = rickerSecond(tau) * gi;
            sum += (k == 0 || k == m ? 0.5 : 1) * f;
        }
        return sum * d / RHO;
    }

    private static double acosh(double x) {
        return Math.log(x + Math.sqrt(x * x - 1));
    }

    /** The record of one shot (nt, nrec) in a homogeneous model of shape (nz, nx). */
    private static float[] run(int nz, int nx, boolean freeSurface, int[] src, int[][] rec) {
        PropSpec spec = PropSpec.builder(nz, nx).equation(ShEquation.NAME).dh(DH).dt(DT).nt(NT).abcn(20).order(8)
                .freeSurface(freeSurface).maxVel(VS).storage(Storage.FULL).threads(1).build();
        float[] m = new float[2 * nz * nx];
        Arrays.fill(m, 0, nz * nx, (float) VS);
        Arrays.fill(m, nz * nx, 2 * nz * nx, (float) RHO);
        float[] w = new float[NT];
        for (int n = 0; n < NT; n++) {
            w[n] = (float) ricker(n * DT);
        }
        try (Propagator p = new Propagator(spec)) {
            return p.forward(w, new int[][][] {{src}}, new int[][][] {rec}, m).data();
        }
    }

    /** Relative L2 difference of receiver r's trace (sample n at (n+½)dt) against {@code exact}. */
    private static double misfit(float[] rec, int nrec, int r, java.util.function.DoubleUnaryOperator exact) {
        double num = 0;
        double den = 0;
        for (int n = 0; n < NT; n++) {
            double a = exact.applyAsDouble((n + 0.5) * DT);
            double d = rec[n * nrec + r] - a;
            num += d * d;
            den += a * a;
        }
        return Math.sqrt(num / den);
    }

    @Test
    void directWaveMatchesTheLineSourceGreensFunction() {
        int[] src = {60, 60};
        int[][] rec = {{85, 60}, {60, 82}, {78, 78}, {40, 70}};
        float[] d = run(121, 121, false, src, rec);
        for (int r = 0; r < rec.length; r++) {
            double dist = DH * Math.hypot(rec[r][0] - src[0], rec[r][1] - src[1]);
            double rel = misfit(d, rec.length, r, t -> analytic(dist, t));
            System.out.printf(Locale.ROOT, "sh direct wave at r = %.1f m (%s): relative L2 %.3e%n", dist,
                    Arrays.toString(rec[r]), rel);
            assertTrue(rel < 0.03, "receiver " + Arrays.toString(rec[r]) + ": relative L2 " + rel);
        }
    }

    @Test
    void freeSurfaceAddsTheEvenImageOfTheSource() {
        int[] src = {60, 20};
        int[][] rec = {{85, 0}, {80, 8}, {45, 3}};
        float[] d = run(70, 121, true, src, rec);
        for (int r = 0; r < rec.length; r++) {
            double x = DH * (rec[r][0] - src[0]);
            double r1 = Math.hypot(x, DH * (rec[r][1] - src[1]));
            double r2 = Math.hypot(x, DH * (rec[r][1] + src[1]));
            double rel = misfit(d, rec.length, r, t -> analytic(r1, t) + analytic(r2, t));
            double without = misfit(d, rec.length, r, t -> analytic(r1, t));
            System.out.printf(Locale.ROOT, "sh free surface at %s: relative L2 %.3e (%.3e against the direct wave"
                    + " alone)%n", Arrays.toString(rec[r]), rel, without);
            assertTrue(rel < 0.03, "receiver " + Arrays.toString(rec[r]) + ": relative L2 " + rel);
        }
    }
}
