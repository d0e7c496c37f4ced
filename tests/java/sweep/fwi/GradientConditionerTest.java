package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The gradient conditioning against its definitions: the smoothing of a spike is a Gaussian with the asked standard
 * deviation per axis (its second moments) and unit sum, the smoothing is symmetric (⟨Sa, b⟩ = ⟨a, Sb⟩), the muted
 * rows stay exactly zero after it, the taper follows ½(1 − cos(πd/r)) around a source, a mask multiplies, the
 * conditioning with a preconditioner stays symmetric (a descent direction), and bad settings are refused.
 */
class GradientConditionerTest {
    private static final int NZ = 61;
    private static final int NX = 61;

    @Test
    void aSpikeBecomesAGaussianOfTheAskedWidths() {
        // dh 10 m (z) and 20 m (x); 60 m and 100 m: 6 and 5 cells
        GradientConditioner c = GradientConditioner.of(new int[] {NZ, NX}, new double[] {10, 20}, 0,
                new double[] {60, 100}, 0, null, null);
        float[] g = new float[2 * NZ * NX];
        g[30 * NX + 30] = 1f;
        g[NZ * NX + 30 * NX + 30] = -2f; // the second parameter's block, smoothed alike
        c.apply(g);
        for (int k = 0; k < 2; k++) {
            double sum = 0;
            double mz = 0;
            double mx = 0;
            for (int z = 0; z < NZ; z++) {
                for (int x = 0; x < NX; x++) {
                    double v = g[k * NZ * NX + z * NX + x];
                    sum += v;
                    mz += v * (z - 30) * (z - 30);
                    mx += v * (x - 30) * (x - 30);
                }
            }
            double scale = k == 0 ? 1 : -2;
            assertEquals(scale, sum, 1e-5, "sum of the smoothed spike");
            assertEquals(36, mz / sum, 0.36, "variance along z (6 cells)");
            assertEquals(25, mx / sum, 0.25, "variance along x (5 cells)");
        }
    }

    @Test
    void theSmoothingIsSymmetric() {
        GradientConditioner c = GradientConditioner.of(new int[] {9, 10, 11}, new double[] {10}, 0,
                new double[] {15, 0, 25}, 0, null, null);
        Random r = new Random(5);
        float[] a = new float[990];
        float[] b = new float[990];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextGaussian();
            b[i] = (float) r.nextGaussian();
        }
        float[] sa = a.clone();
        float[] sb = b.clone();
        c.apply(sa);
        c.apply(sb);
        double lhs = 0;
        double rhs = 0;
        double size = 0;
        for (int i = 0; i < a.length; i++) {
            lhs += (double) sa[i] * b[i];
            rhs += (double) a[i] * sb[i];
            size += Math.abs((double) sa[i] * b[i]);
        }
        assertEquals(lhs, rhs, 1e-6 * size);
    }

    @Test
    void mutedRowsStayZeroAndTheTaperAndMaskWeigh() {
        int[] shape = {NZ, NX};
        float[] mask = new float[NZ * NX];
        java.util.Arrays.fill(mask, 1f);
        mask[45 * NX + 30] = 0.25f;
        int[][][] src = {{{30, 25}}}; // x = 30, z = 25
        GradientConditioner c = GradientConditioner.of(shape, new double[] {10}, 4, new double[] {30, 30}, 50, src,
                mask);
        float[] g = new float[NZ * NX];
        java.util.Arrays.fill(g, 1f);
        c.apply(g);
        for (int i = 0; i < 4 * NX; i++) {
            assertEquals(0f, g[i], 0f, "muted row cell " + i);
            assertEquals(0, Float.floatToRawIntBits(g[i]), "a muted cell is +0");
        }
        // away from the edges the smoothed constant stays 1: the taper is all that is left
        assertEquals(0f, g[25 * NX + 30], 0f, "at the source");
        assertEquals(0.5 * (1 - Math.cos(Math.PI * 30 / 50)), g[25 * NX + 33], 1e-6, "30 m from the source");
        assertEquals(1f, g[35 * NX + 30], 1e-6, "100 m from the source");
        assertEquals(0.25f, g[45 * NX + 30], 1e-6, "the mask's value");
        assertTrue(c.fingerprint() != 0);
        assertEquals(0, GradientConditioner.muteRows(shape, 6).fingerprint(), "muted rows alone: no fingerprint");
    }

    /**
     * A preconditioner that jumps by 100 between two columns (as the illumination may, in a strongly smoothed
     * gradient's reach), the muted rows, a source taper and strong smoothing: the conditioned gradient is C g with C
     * symmetric (⟨Cu, v⟩ = ⟨u, Cv⟩) and ⟨g, Cg⟩ >= 0, also for the g that makes the smoothing after the
     * preconditioner alone (S P, the order before) point uphill: there ⟨g, SPg⟩ < 0.
     */
    @Test
    void theConditionedGradientIsADescentDirection() {
        int[] shape = {NZ, NX};
        float[] p = new float[NZ * NX];
        for (int i = 0; i < p.length; i++) {
            p[i] = i % NX >= 30 ? 100f : 1f;
        }
        GradientConditioner c = GradientConditioner.of(shape, new double[] {10}, 3, new double[] {50, 50}, 40,
                new int[][][] {{{10, 20}}}, null);
        Random r = new Random(11);
        for (int trial = 0; trial < 3; trial++) {
            float[] u = new float[NZ * NX];
            float[] v = new float[NZ * NX];
            for (int i = 0; i < u.length; i++) {
                u[i] = (float) r.nextGaussian();
                v[i] = (float) r.nextGaussian();
            }
            float[] cu = u.clone();
            float[] cv = v.clone();
            c.condition(cu, p);
            c.condition(cv, p);
            double size = 0;
            for (int i = 0; i < u.length; i++) {
                size += Math.abs((double) cu[i] * v[i]);
            }
            assertEquals(dot(cu, v), dot(u, cv), 1e-6 * size, "symmetric");
            assertTrue(dot(u, cu) >= 0, "descent");
        }
        // g = P^-1 (a e_A - e_B) for neighbours A (P = 100) and B (P = 1), a = 50: S P g = S (a e_A - e_B)
        float[] g = new float[NZ * NX];
        g[30 * NX + 30] = 50f / 100f;
        g[30 * NX + 29] = -1f;
        GradientConditioner smoothing = GradientConditioner.of(shape, new double[] {10}, 0, new double[] {50, 50}, 0,
                null, null);
        float[] before = g.clone();
        GradientConditioner.precondition(before, p);
        smoothing.apply(before);
        assertTrue(dot(g, before) < 0, "the order before points uphill: " + dot(g, before));
        float[] now = g.clone();
        smoothing.condition(now, p);
        assertTrue(dot(g, now) > 0, "R S R g points downhill: " + dot(g, now));
        // without smoothing the conditioning is the preconditioner, then the weights, to the bit
        GradientConditioner weightsOnly = GradientConditioner.of(shape, new double[] {10}, 3, null, 40,
                new int[][][] {{{10, 20}}}, null);
        float[] a = new float[NZ * NX];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) r.nextGaussian();
        }
        float[] b = a.clone();
        weightsOnly.condition(a, p);
        GradientConditioner.precondition(b, p);
        weightsOnly.apply(b);
        assertArrayEquals(b, a);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    @Test
    void mutingAloneKeepsEveryOtherValue() {
        float[] g = new float[NZ * NX];
        Random r = new Random(9);
        for (int i = 0; i < g.length; i++) {
            g[i] = (float) r.nextGaussian();
        }
        float[] m = g.clone();
        GradientConditioner.muteRows(new int[] {NZ, NX}, 3).apply(m);
        for (int i = 0; i < g.length; i++) {
            assertEquals(i < 3 * NX ? 0f : g[i], m[i], 0f);
        }
    }

    @Test
    void badSettingsAreRefused() {
        int[] shape = {NZ, NX};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GradientConditioner.of(shape,
                new double[] {10}, 0, new double[] {-5, 10}, 0, null, null));
        assertTrue(e.getMessage().contains("must be >= 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GradientConditioner.of(shape, new double[] {10}, 0,
                new double[] {10}, 0, null, null));
        assertTrue(e.getMessage().contains("one length per axis (2), got 1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GradientConditioner.of(shape, new double[] {10}, 0,
                null, -1, null, null));
        assertTrue(e.getMessage().contains("taper radius must be >= 0"), e.getMessage());
    }
}
