package sweep.viscoacoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A cell's visco-acoustic coefficients against mathematics: the chain rule back to vp, rho and Q equals central
 * finite differences of ⟨g, coefficients(vp, rho, Q)⟩ for random node gradients g, and a Q of 10⁶ gives the
 * variable-density acoustic coefficient dt·ρ·vp² with memory coefficients near zero.
 */
class ViscoAcousticCoefficientsTest {
    private static final double DT = 1e-3;

    private static double objective(ViscoAcousticCoefficients c, double vp, double rho, double q, double gk,
                                    double[] gc) {
        double[] out = new double[1 + gc.length];
        c.cell(vp, rho, q, out);
        double j = gk * out[0];
        for (int l = 0; l < gc.length; l++) {
            j += gc[l] * out[1 + l];
        }
        return j;
    }

    @Test
    void theChainRuleMatchesFiniteDifferences() {
        ViscoAcousticCoefficients c = new ViscoAcousticCoefficients(new ConstantQ(3, 3, 30), 10, DT);
        Random r = new Random(4);
        for (double[] cell : new double[][] {{2500, 2100, 30}, {1800, 1200, 12}, {3200, 2500, 200}}) {
            double gk = r.nextGaussian();
            double[] gc = {r.nextGaussian(), r.nextGaussian(), r.nextGaussian()};
            double[] g = new double[3];
            c.gradient(cell[0], cell[1], cell[2], gk, gc, g);
            String[] names = {"vp", "rho", "Q"};
            for (int k = 0; k < 3; k++) {
                double h = 1e-4 * cell[k];
                double[] up = cell.clone();
                double[] down = cell.clone();
                up[k] += h;
                down[k] -= h;
                double fd = (objective(c, up[0], up[1], up[2], gk, gc) - objective(c, down[0], down[1], down[2], gk,
                        gc)) / (2 * h);
                assertEquals(fd, g[k], 1e-6 * Math.abs(fd), "dJ/d" + names[k] + " at " + java.util.Arrays.toString(
                        cell));
            }
        }
    }

    @Test
    void aVeryLargeQIsTheVariableDensityCoefficient() {
        ViscoAcousticCoefficients c = new ViscoAcousticCoefficients(new ConstantQ(3, 3, 30), 10, DT);
        double[] out = new double[4];
        c.cell(2000, 1500, 1e6, out);
        double kdt = DT * 1500 * 2000.0 * 2000.0;
        assertEquals(kdt, out[0], 1e-5 * kdt);
        for (int l = 1; l < 4; l++) {
            assertTrue(Math.abs(out[l]) < 1e-5 * kdt, "memory coefficient " + out[l]);
        }
        double[] alpha = c.alpha();
        double[] ts = new ConstantQ(3, 3, 30).relaxationTimes();
        for (int l = 0; l < 3; l++) {
            double a = DT / (2 * ts[l]);
            assertEquals((1 - a) / (1 + a), alpha[l], 1e-15);
            assertTrue(alpha[l] > 0 && alpha[l] < 1);
        }
    }
}
