package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The data window: its weights against the offsets and the mute line worked out here, a windowed L2 misfit against
 * L2 of the records multiplied by those weights, no adjoint source outside the window, and dJ/dvp of an acoustic run
 * with a windowed misfit against central finite differences of J from forward records.
 */
class DataWindowTest {
    @Test
    void weightsFollowTheOffsetsAndTheMuteLine() {
        // receivers at x = 0, 10, 20, 40 cells of 10 m, source at x = 10: offsets 100, 0, 100, 300 m
        int[][] rec = {{0, 1}, {10, 1}, {20, 1}, {40, 1}};
        int nt = 400;
        double dt = 1e-3;
        DataWindow w = new DataWindow(50, 250, 2000, 0.02, 0.03);
        float[] k = w.weights(new int[] {10, 2}, rec, nt, 1, new double[] {10, 10}, dt);
        for (int t = 0; t < nt; t++) {
            assertEquals(0, k[t * 4 + 1], "offset 0 is below the range, sample " + t);
            assertEquals(0, k[t * 4 + 3], "offset 300 m is above it, sample " + t);
            double line = 0.02 + 100 / 2000.0; // 70 ms
            double time = t * dt;
            double expected = time >= line ? 1 : time < line - 0.03 ? 0
                    : 0.5 * (1 - Math.cos(Math.PI * (time - line + 0.03) / 0.03));
            assertEquals(expected, k[t * 4], 1e-6, "offset 100 m, sample " + t);
            assertEquals(k[t * 4], k[t * 4 + 2], "the two receivers 100 m away, sample " + t);
        }
        assertEquals(0, k[39 * 4]);
        assertEquals(0.5, k[55 * 4], 1e-6, "half way up the ramp");
        assertEquals(1, k[70 * 4]);
        // 3-D: the offset is horizontal (x, y), the depth of source and receiver does not enter
        float[] k3 = new DataWindow(0, 55, 0, 0, 0).weights(new int[] {0, 0, 9}, new int[][] {{3, 4, 0}, {3, 5, 0}},
                4, 2, new double[] {10, 10, 10}, dt);
        assertEquals(1, k3[0]); // (30, 40) m: 50 m
        assertEquals(1, k3[1]);
        assertEquals(0, k3[2]); // (30, 50) m: 58.3 m
    }

    /**
     * A tail mute on top: samples later than its line tailTime + |offset| / tailVelocity fall to 0 over the taper
     * after it, the top mute's ramp before its own line stays, and where the two ramps overlap the weight is their
     * product.
     */
    @Test
    void aTailMuteKeepsTheSamplesBeforeItsLine() {
        int[][] rec = {{20, 0}, {10, 0}};
        int nt = 400;
        double dt = 1e-3;
        DataWindow w = new DataWindow(0, Double.POSITIVE_INFINITY, 2000, 0.02, 0.03, 1000, 0.1);
        float[] k = w.weights(new int[] {10, 2}, rec, nt, 1, new double[] {10, 10}, dt);
        for (int t = 0; t < nt; t++) {
            double time = t * dt;
            double top = 0.02 + 100 / 2000.0; // 70 ms
            double tail = 0.1 + 100 / 1000.0; // 200 ms
            double up = time >= top ? 1 : time < top - 0.03 ? 0 : 0.5 * (1 - Math.cos(Math.PI * (time - top + 0.03)
                    / 0.03));
            double down = time <= tail ? 1 : time > tail + 0.03 ? 0 : 0.5 * (1 + Math.cos(Math.PI * (time - tail)
                    / 0.03));
            assertEquals(up * down, k[t * 2], 1e-6, "offset 100 m, sample " + t);
            double tail0 = 0.1; // offset 0: the top line at 20 ms, the tail line at 100 ms
            double up0 = time >= 0.02 ? 1 : time < -0.01 ? 0 : 0.5 * (1 - Math.cos(Math.PI * (time + 0.01) / 0.03));
            double down0 = time <= tail0 ? 1 : time > tail0 + 0.03 ? 0 : 0.5 * (1 + Math.cos(Math.PI * (time - tail0)
                    / 0.03));
            assertEquals(up0 * down0, k[t * 2 + 1], 1e-6, "offset 0, sample " + t);
        }
        assertEquals(1, k[200 * 2], "on the tail line");
        assertEquals(0.5, k[215 * 2], 1e-6, "half way down the tail ramp");
        assertEquals(0, k[231 * 2]);
        // a tail line earlier than the top one leaves nothing
        float[] none = new DataWindow(0, Double.POSITIVE_INFINITY, 2000, 0.5, 0.03, 1000, 0).weights(new int[] {10, 2},
                rec, nt, 1, new double[] {10, 10}, dt);
        for (float v : none) {
            assertEquals(0, v);
        }
        assertThrows(IllegalArgumentException.class, () -> new DataWindow(0, 10, 0, 0, 0, -1, 0));
    }

    @Test
    void aWindowedMisfitIsItsMisfitOfTheWeightedRecords() {
        PropSpec spec = PropSpec.builder(20, 50).dh(10).dt(1e-3).nt(120).abcn(4).build();
        int[][] src = {{25, 2}};
        int[][] rec = {{5, 1}, {20, 1}, {30, 1}, {45, 1}};
        DataWindow w = new DataWindow(0, 160, 3000, 0.01, 0.02);
        Random r = new Random(4);
        float[] s = TestModels.gaussian(r, 120 * 4);
        float[] o = TestModels.gaussian(r, 120 * 4);
        float[] res = new float[s.length];
        double j = w.around(Misfit.L2, spec).forShot(new int[][][] {src}[0], rec).evaluate(s, o, res);
        float[] k = w.weights(src[0], rec, 120, 1, spec.dh(), spec.dt());
        double expected = 0;
        for (int i = 0; i < s.length; i++) {
            double d = (double) k[i] * s[i] - (double) k[i] * o[i];
            expected += 0.5 * d * d;
            if (k[i] == 0) {
                assertEquals(0, res[i], 0.0, "no adjoint source outside the window, value " + i);
            }
        }
        assertEquals(expected, j, 1e-6 * expected);
        for (int t = 0; t < 120; t++) {
            assertEquals(0, k[t * 4], "the receiver 200 m away is out");
        }
        assertThrows(IllegalStateException.class, () -> w.around(Misfit.L2, spec).evaluate(s, o, res));
        assertThrows(IllegalArgumentException.class,
                () -> w.around(Misfit.L2, spec).forShot(new int[][] {{10, 2}, {30, 2}}, rec));
        assertThrows(IllegalArgumentException.class, () -> new DataWindow(100, 50, 0, 0, 0));
    }

    @Test
    void acousticGradientWithAWindowMatchesFiniteDifferences() {
        PropSpec spec = PropSpec.builder(30, 44).dh(10).dt(1e-3).nt(300).abcn(8).freeSurface(true)
                .storage(Storage.FULL).maxVel(3000).build();
        int[][][] src = {{{10, 2}}, {{34, 3}}};
        int[][][] rec = {{{5, 1}, {22, 2}, {40, 1}, {30, 20}}, {{5, 1}, {22, 2}, {40, 1}, {30, 20}}};
        // offsets 50 to 300 m leave out the receivers nearest each source; the mute removes the direct wave's start
        Misfit m = new DataWindow(50, 300, 2500, 0.03, 0.04).around(new TraceNormalizedCorrelation(300), spec);
        double rel = TraceNormalizedCorrelationTest.acousticCheck(m, "windowed ncc", 16, spec, src, rec);
        assertTrue(rel < 1e-3, "relative error " + rel);
    }
}
