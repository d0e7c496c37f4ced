package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.prop.Propagator;

/**
 * The illumination preconditioner against its definitions: the objective's illumination is Σ over shots and steps of
 * the source wavefield squared (summed here in double from the propagator's own snapshots), its weights are
 * 1/(I/max I + ε), and a preconditioned gradient is the plain one times the weights, value for value, on the small FWI
 * problem of {@link FwiTest}.
 */
class PreconditionTest {
    @Test
    void theIlluminationIsTheSumOfTheSquaredSourceWavefield() {
        float[] vTrue = FwiTest.trueModel();
        float[] start = FwiTest.startModel(vTrue);
        Acquisition acq = FwiTest.acquisition(vTrue);
        int cells = start.length;
        float[] illumination;
        try (SingleDomainObjective o = new SingleDomainObjective(acq, FwiTest.MUTE)) {
            illumination = o.illumination(start);
        }
        double[] sum = new double[cells];
        try (Propagator p = new Propagator(acq.spec())) {
            p.forward(acq.wavelet(), acq.sources(), acq.receivers(), start, 1, (shot, step, field) -> {
                for (int i = 0; i < cells; i++) {
                    sum[i] += (double) field[i] * field[i];
                }
            });
        }
        double max = 0;
        int top = 0;
        for (int i = 0; i < cells; i++) {
            if (sum[i] > max) {
                max = sum[i];
                top = i;
            }
        }
        for (int i = 0; i < cells; i++) {
            assertEquals(sum[i], illumination[i], 1e-5 * max, "cell " + i);
        }
        // brightest beside a source (row 1, columns 8 + 21 b)
        int z = top / FwiTest.NX;
        int x = top % FwiTest.NX;
        int near = 8 + 21 * Math.round((x - 8) / 21f);
        assertTrue(Math.abs(z - 1) <= 1 && Math.abs(x - near) <= 1, "the brightest cell (" + z + ", " + x + ")");
    }

    @Test
    void weightsAreOneOverTheNormalisedIlluminationPlusEpsilon() {
        float[] il = {4f, 2f, 0f, 1f};
        float[] w = GradientConditioner.illuminationWeights(il, 0.01);
        assertArrayEquals(new float[] {(float) (1 / 1.01), (float) (1 / 0.51), 100f, (float) (1 / 0.26)}, w);
        float[] g = {1, 2, 3, 4, 5, 6, 7, 8};
        GradientConditioner.precondition(g, w);
        assertArrayEquals(new float[] {1 * w[0], 2 * w[1], 3 * w[2], 4 * w[3], 5 * w[0], 6 * w[1], 7 * w[2],
            8 * w[3]}, g);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GradientConditioner.illuminationWeights(new float[3], 0.01));
        assertTrue(e.getMessage().contains("zero everywhere"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GradientConditioner.illuminationWeights(il, 0));
        assertTrue(e.getMessage().contains("must be > 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GradientConditioner.precondition(new float[5], w));
        assertTrue(e.getMessage().contains("not a multiple"), e.getMessage());
    }

    @Test
    void aPreconditionedGradientIsThePlainOneTimesTheWeights() {
        float[] vTrue = FwiTest.trueModel();
        float[] start = FwiTest.startModel(vTrue);
        Acquisition acq = FwiTest.acquisition(vTrue);
        float[] plain = new float[start.length];
        float[] pre = new float[start.length];
        try (SingleDomainObjective o = new SingleDomainObjective(acq, FwiTest.MUTE)) {
            double m1 = o.evaluate(start, plain);
            float[] w = GradientConditioner.illuminationWeights(o.illumination(start), 0.01);
            o.setPreconditioner(w);
            double m2 = o.evaluate(start, pre);
            assertEquals(m1, m2, 0, "the misfit does not depend on the preconditioner");
            for (int i = 0; i < plain.length; i++) {
                // the muted rows are 0 in both (a weight of 0 after the preconditioner's, or before it)
                assertEquals(plain[i] * w[i], pre[i], 0f, "cell " + i);
            }
        }
    }
}
