package sweep.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Finite-difference weights against the tabulated values and against exactness on polynomials. */
class FdWeightsTest {
    @Test
    void eighthOrderMatchesTheTable() {
        double[] c = FdWeights.second(8);
        double[] table = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
        for (int k = 0; k < table.length; k++) {
            assertEquals(table[k], c[k], 1e-14, "second-derivative weight " + k);
        }
        double[] d = FdWeights.first(8);
        double[] tableD = {0, 4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};
        for (int k = 0; k < tableD.length; k++) {
            assertEquals(tableD[k], d[k], 1e-14, "first-derivative weight " + k);
        }
        assertEquals(-2, FdWeights.second(2)[0], 1e-15);
        assertEquals(1, FdWeights.second(2)[1], 1e-15);
        assertEquals(0.5, FdWeights.first(2)[1], 1e-15);
    }

    @Test
    void exactOnPolynomialsUpToTheOrder() {
        for (int order = 2; order <= 16; order += 2) {
            double[] c = FdWeights.second(order);
            double[] d = FdWeights.first(order);
            int h = order / 2;
            for (int m = 0; m <= order + 1; m++) {
                // f(x) = x^m at x = 0.3 on unit spacing
                double x0 = 0.3;
                double f2 = c[0] * Math.pow(x0, m);
                double f1 = 0;
                for (int k = 1; k <= h; k++) {
                    f2 += c[k] * (Math.pow(x0 + k, m) + Math.pow(x0 - k, m));
                    f1 += d[k] * (Math.pow(x0 + k, m) - Math.pow(x0 - k, m));
                }
                double e2 = m < 2 ? 0 : m * (m - 1) * Math.pow(x0, m - 2);
                double e1 = m < 1 ? 0 : m * Math.pow(x0, m - 1);
                double scale = Math.pow(1 + h, m);
                assertEquals(e2, f2, 1e-9 * scale, "order " + order + " second derivative of x^" + m);
                if (m <= order) { // the central first derivative is exact up to degree order, the second up to order+1
                    assertEquals(e1, f1, 1e-9 * scale, "order " + order + " first derivative of x^" + m);
                }
            }
        }
    }

    @Test
    void symbolMaximumIsTheSumOfAbsoluteWeights() {
        double[] c = FdWeights.second(8);
        // at the Nyquist wavenumber cos(k pi) = (-1)^k and the weights alternate in sign
        double nyquist = c[0];
        for (int k = 1; k < c.length; k++) {
            nyquist += 2 * c[k] * Math.pow(-1, k);
        }
        assertEquals(Math.abs(nyquist), FdWeights.secondDerivativeSymbolMax(8), 1e-12);
    }

    @Test
    void staggeredWeightsMatchTheTable() {
        assertEquals(1.0, FdWeights.staggered(2)[1], 1e-15);
        double[] c4 = FdWeights.staggered(4);
        assertEquals(9.0 / 8, c4[1], 1e-15);
        assertEquals(-1.0 / 24, c4[2], 1e-15);
        double[] c8 = FdWeights.staggered(8);
        double[] table = {0, 1225.0 / 1024, -245.0 / 3072, 49.0 / 5120, -5.0 / 7168};
        for (int k = 0; k < table.length; k++) {
            assertEquals(table[k], c8[k], 1e-14, "staggered weight " + k + " of order 8");
        }
        assertEquals(1.28631, FdWeights.staggeredAbsSum(8), 5e-6);
    }

    @Test
    void staggeredExactOnPolynomialsUpToTheOrder() {
        for (int order = 2; order <= 16; order += 2) {
            double[] c = FdWeights.staggered(order);
            int h = order / 2;
            for (int m = 0; m <= order + 1; m++) {
                double x0 = 0.3;
                double d = 0;
                for (int k = 1; k <= h; k++) {
                    d += c[k] * (Math.pow(x0 + k - 0.5, m) - Math.pow(x0 - k + 0.5, m));
                }
                double exact = m < 1 ? 0 : m * Math.pow(x0, m - 1);
                double err = Math.abs(d - exact);
                if (m <= order) {
                    assertEquals(exact, d, 1e-9 * Math.pow(1 + h, m), "order " + order + " staggered derivative of x^" + m);
                } else {
                    // the first neglected Taylor term: the stencil must not be exact one degree beyond its order
                    assertTrue(err > 1e-6, "order " + order + " is exact for x^" + m + "?");
                }
            }
            // alternating signs: the symbol at the Nyquist wavenumber is 2·Σ|c_k|
            double nyq = 0;
            for (int k = 1; k <= h; k++) {
                nyq += 2 * c[k] * Math.sin((k - 0.5) * Math.PI);
            }
            assertEquals(2 * FdWeights.staggeredAbsSum(order), nyq, 1e-12, "order " + order);
        }
    }

    @Test
    void badOrdersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> FdWeights.second(3));
        assertThrows(IllegalArgumentException.class, () -> FdWeights.first(0));
        assertThrows(IllegalArgumentException.class, () -> FdWeights.halfWidth(18));
        assertThrows(IllegalArgumentException.class, () -> FdWeights.staggered(5));
    }
}
