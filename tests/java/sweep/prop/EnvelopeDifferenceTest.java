package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The envelope misfit: its Hilbert transform against the analytic one of a modulated Gaussian and its antisymmetry,
 * its adjoint source against central differences of J in the samples, and dJ/dvp of an acoustic run against central
 * finite differences of J from forward records.
 */
class EnvelopeDifferenceTest {
    @Test
    void theEnvelopeOfAModulatedGaussianIsTheGaussian() {
        int nt = 400;
        EnvelopeDifference m = new EnvelopeDifference(nt);
        assertEquals(1024, m.fftLength());
        double[] x = new double[nt];
        double[] g = new double[nt];
        for (int t = 0; t < nt; t++) { // a Gaussian of 30 samples modulating 1/8 of the sampling rate
            g[t] = Math.exp(-Math.pow((t - 200) / 30.0, 2));
            x[t] = g[t] * Math.cos(2 * Math.PI * t / 8);
        }
        double[] h = new double[nt];
        m.hilbert(x, h, new double[2][m.fftLength()]);
        for (int t = 0; t < nt; t++) {
            assertEquals(g[t] * Math.sin(2 * Math.PI * t / 8), h[t], 1e-6, "H(g cos) = g sin at sample " + t);
            assertEquals(g[t] * g[t], x[t] * x[t] + h[t] * h[t], 1e-6, "E² = g² at sample " + t);
        }
    }

    @Test
    void theHilbertTransformIsAntisymmetric() {
        int nt = 97;
        EnvelopeDifference m = new EnvelopeDifference(nt);
        Random r = new Random(3);
        double[] x = new double[nt];
        double[] y = new double[nt];
        for (int t = 0; t < nt; t++) {
            x[t] = r.nextGaussian();
            y[t] = r.nextGaussian();
        }
        double[] hx = new double[nt];
        double[] hy = new double[nt];
        double[][] work = new double[2][m.fftLength()];
        m.hilbert(x, hx, work);
        m.hilbert(y, hy, work);
        double a = 0;
        double b = 0;
        double scale = 0;
        for (int t = 0; t < nt; t++) {
            a += hx[t] * y[t];
            b += x[t] * hy[t];
            scale += Math.abs(hx[t] * y[t]);
        }
        assertEquals(-b, a, 1e-13 * scale, "<Hx, y> = -<x, Hy>");
    }

    @Test
    void residualIsTheDerivativeOfJ() {
        int nt = 60;
        int traces = 5;
        Random r = new Random(8);
        float[] s = new float[nt * traces];
        float[] o = new float[nt * traces];
        float[] dir = new float[nt * traces];
        for (int i = 0; i < s.length; i++) {
            o[i] = (float) r.nextGaussian();
            s[i] = (float) (o[i] + 0.5 * r.nextGaussian());
            dir[i] = (float) r.nextGaussian();
        }
        EnvelopeDifference m = new EnvelopeDifference(nt);
        float[] res = new float[s.length];
        double j = m.evaluate(s, o, res);
        assertTrue(j > 0, "J = " + j);
        double analytic = 0;
        for (int i = 0; i < s.length; i++) {
            analytic += (double) res[i] * dir[i];
        }
        double h = 1e-2;
        double plus = m.evaluate(GradientTest.shifted(s, dir, h), o, new float[s.length]);
        double minus = m.evaluate(GradientTest.shifted(s, dir, -h), o, new float[s.length]);
        double fd = (plus - minus) / (2 * h);
        assertEquals(fd, analytic, 1e-3 * Math.abs(fd), "directional derivative");
        assertEquals(0, m.evaluate(o, o, res), 0, "J of the observed data itself");
    }

    @Test
    void acousticGradientMatchesFiniteDifferences() {
        // J is quartic in the records: a smaller step than ncc's keeps the difference's truncation well down (at half
        // this step the float noise of J shows)
        double rel = TraceNormalizedCorrelationTest.acousticCheck(new EnvelopeDifference(300), "envelope", 8);
        assertTrue(rel < 1e-3, "relative error " + rel);
    }
}
