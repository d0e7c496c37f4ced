package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The L-BFGS direction with a per-block diagonal initial inverse Hessian: it is plain L-BFGS in the variables
 * D^(−1/2)·x (checked by doing that change of variables by hand), and like every BFGS update it satisfies the secant
 * condition H·y = s for the newest pair.
 */
class LbfgsTest {
    static final int BLOCK = 7;
    static final double[] SCALE = {1.0, 0.04, 2.5};

    private static double[] random(Random r, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextGaussian();
        }
        return v;
    }

    /** Pairs from a convex quadratic with a diagonal of very different scales per block (so yᵀs > 0). */
    private static Lbfgs history(Random r, int n, int pairs, double[] d) {
        Lbfgs l = new Lbfgs(5);
        for (int k = 0; k < pairs; k++) {
            double[] s = random(r, n);
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                y[i] = d[i] * s[i];
            }
            l.update(s, y);
        }
        return l;
    }

    @Test
    void scaledDirectionIsPlainLbfgsInScaledVariables() {
        Random r = new Random(11);
        int n = SCALE.length * BLOCK;
        double[] curvature = new double[n];
        for (int i = 0; i < n; i++) {
            curvature[i] = (1 + r.nextDouble()) / SCALE[i / BLOCK];
        }
        Lbfgs x = history(new Random(5), n, 4, curvature);
        Lbfgs z = new Lbfgs(5); // z = D^(-1/2) x: s_z = D^(-1/2) s, y_z = D^(1/2) y, g_z = D^(1/2) g
        for (Lbfgs.Pair p : x.pairs()) {
            double[] s = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                double h = Math.sqrt(SCALE[i / BLOCK]);
                s[i] = p.s()[i] / h;
                y[i] = p.y()[i] * h;
            }
            z.update(s, y);
        }
        double[] g = random(r, n);
        double[] gz = new double[n];
        for (int i = 0; i < n; i++) {
            gz[i] = g[i] * Math.sqrt(SCALE[i / BLOCK]);
        }
        double[] dz = z.direction(gz);
        double[] dx = x.direction(g, SCALE, BLOCK);
        for (int i = 0; i < n; i++) {
            double want = dz[i] * Math.sqrt(SCALE[i / BLOCK]);
            assertEquals(want, dx[i], 1e-10 * Math.max(1, Math.abs(want)), "component " + i);
        }
    }

    @Test
    void newestPairSatisfiesTheSecantCondition() {
        Random r = new Random(3);
        int n = SCALE.length * BLOCK;
        double[] curvature = new double[n];
        for (int i = 0; i < n; i++) {
            curvature[i] = 0.5 + 3 * r.nextDouble();
        }
        Lbfgs l = history(r, n, 3, curvature);
        Lbfgs.Pair newest = null;
        for (Lbfgs.Pair p : l.pairs()) {
            newest = p;
        }
        for (double[] scale : new double[][] {{1, 1, 1}, SCALE}) {
            double[] d = l.direction(newest.y(), scale, BLOCK); // -H y
            for (int i = 0; i < n; i++) {
                assertEquals(-newest.s()[i], d[i], 1e-10 * Math.max(1, Math.abs(newest.s()[i])), "component " + i);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> l.direction(new double[n], new double[] {1, 1}, BLOCK));
    }
}
