package sweep.viscoacoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.complex.Complex;
import org.junit.jupiter.api.Test;

/**
 * The constant-Q fit of the standard linear solids against the definitions: Q(f) = Re M/Im M of the modulus built
 * here from the relaxation times and strengths, the phase velocity from the complex velocity, Kjartansson's constant-Q
 * dispersion law, and finite differences of the fit for its derivatives.
 */
class ConstantQTest {
    private static final double[][] BANDS = {{2, 20}, {1, 25}, {5, 40}};
    private static final double[] QS = {10, 20, 50, 100, 1000};

    /** Re M/Im M of M ∝ 1 + Σ τ_l iωτσ_l/(1 + iωτσ_l), built here term by term. */
    private static double qOf(double[] tauSigma, double[] tau, double f) {
        Complex m = Complex.ONE;
        Complex iw = new Complex(0, 2 * Math.PI * f);
        for (int l = 0; l < tau.length; l++) {
            Complex x = iw.multiply(tauSigma[l]);
            m = m.add(x.divide(x.add(1)).multiply(tau[l]));
        }
        return m.getReal() / m.getImaginary();
    }

    @Test
    void threeSolidsHoldQWithinTwoPercentOverTheBand() {
        double worst = 0;
        for (double[] band : BANDS) {
            ConstantQ fit = new ConstantQ(3, band[0], band[1]);
            for (double q : QS) {
                double[] tau = fit.tau(q);
                for (int i = 0; i <= 200; i++) {
                    double f = band[0] * Math.pow(band[1] / band[0], i / 200.0);
                    double err = Math.abs(qOf(fit.relaxationTimes(), tau, f) / q - 1);
                    worst = Math.max(worst, err);
                    assertTrue(err < 0.02, "Q " + q + " band " + band[0] + "-" + band[1] + " Hz at " + f + " Hz: "
                            + "fitted Q off by " + err);
                }
            }
        }
        System.out.printf("constant-Q fit, 3 solids: worst relative Q error over the band %.4f%n", worst);
    }

    @Test
    void moreSolidsFitNoWorseAndOneSolidIsAPeak() {
        ConstantQ one = new ConstantQ(1, 2, 20);
        double[] t1 = one.tau(20);
        double mid = qOf(one.relaxationTimes(), t1, Math.sqrt(40));
        double edge = qOf(one.relaxationTimes(), t1, 2);
        assertTrue(edge > mid, "one solid attenuates most at its relaxation frequency");
        double e3 = worst(new ConstantQ(3, 2, 20), 20);
        double e5 = worst(new ConstantQ(5, 2, 20), 20);
        assertTrue(e5 <= e3 * 1.05, "5 solids " + e5 + " against 3 solids " + e3);
    }

    private static double worst(ConstantQ fit, double q) {
        double[] tau = fit.tau(q);
        double w = 0;
        for (int i = 0; i <= 100; i++) {
            double f = fit.fmin() * Math.pow(fit.fmax() / fit.fmin(), i / 100.0);
            w = Math.max(w, Math.abs(qOf(fit.relaxationTimes(), tau, f) / q - 1));
        }
        return w;
    }

    @Test
    void phaseVelocityIsVpAtTheReferenceAndFollowsKjartansson() {
        double vp = 2500;
        double rho = 2100;
        for (double[] band : BANDS) {
            ConstantQ fit = new ConstantQ(3, band[0], band[1]);
            double fRef = Math.sqrt(band[0] * band[1]);
            for (double q : QS) {
                double[] tau = fit.tau(q);
                double mr = rho * vp * vp * fit.relaxedFactor(tau, fRef);
                Complex slowness = fit.relaxation(tau, fRef).multiply(mr / rho).sqrt().reciprocal();
                assertEquals(vp, 1 / slowness.getReal(), 1e-9 * vp, "phase velocity at the reference, Q " + q);
                double gamma = Math.atan(1 / q) / Math.PI;
                for (double f : band) {
                    double kj = Math.pow(f / fRef, gamma);
                    double c = fit.phaseVelocityRatio(tau, f, fRef);
                    assertEquals(kj, c, 0.005 * kj, "Q " + q + " at " + f + " Hz against Kjartansson's law");
                }
            }
        }
    }

    @Test
    void noAttenuationAtInfiniteQ() {
        ConstantQ fit = new ConstantQ(3, 2, 20);
        double[] tau = fit.tau(Double.POSITIVE_INFINITY);
        for (double t : tau) {
            assertEquals(0, t, 0);
        }
        assertEquals(1, fit.relaxedFactor(tau, 6), 0);
    }

    @Test
    void derivativesMatchFiniteDifferences() {
        ConstantQ fit = new ConstantQ(3, 2, 20);
        for (double q : new double[] {15, 80}) {
            double[] d = fit.dTauDq(q);
            double h = 1e-4 * q;
            double[] up = fit.tau(q + h);
            double[] down = fit.tau(q - h);
            for (int l = 0; l < 3; l++) {
                double fd = (up[l] - down[l]) / (2 * h);
                assertEquals(fd, d[l], 1e-6 * Math.abs(fd) + 1e-14, "dτ_" + l + "/dQ at Q " + q);
            }
            double[] tau = fit.tau(q);
            double[] g = fit.relaxedFactorGradient(tau, 6);
            for (int l = 0; l < 3; l++) {
                double[] p = tau.clone();
                double[] m = tau.clone();
                p[l] += 1e-6;
                m[l] -= 1e-6;
                double fd = (fit.relaxedFactor(p, 6) - fit.relaxedFactor(m, 6)) / 2e-6;
                assertEquals(fd, g[l], 1e-6 * Math.abs(fd), "d factor/dτ_" + l + " at Q " + q);
            }
        }
    }

    @Test
    void badSettingsAreRefusedWithTheirValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ConstantQ(0, 2, 20));
        assertTrue(e.getMessage().contains("must be 1 to 8, got 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ConstantQ(3, 20, 2));
        assertTrue(e.getMessage().contains("0 < FMIN < FMAX (Hz), got 20.0, 2.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ConstantQ(3, 2, 20).tau(-5));
        assertTrue(e.getMessage().contains("Q must be > 0, got -5.0"), e.getMessage());
    }
}
