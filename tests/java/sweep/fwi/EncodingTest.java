package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.prop.Propagator;

/** Per-source wavelets and encoded supershots: linearity, exact special cases, and an encoded FWI that converges. */
class EncodingTest {
    /** A supershot's record is the coded sum of its shots' records (the wave equation is linear in the source). */
    @Test
    void supershotRecordIsTheCodedSumOfItsShots() {
        float[] vTrue = FwiTest.trueModel();
        Acquisition acq = FwiTest.acquisition(vTrue);
        float[] codes = {1, -1, -1, 1};
        Acquisition enc = EncodedObjective.encode(acq, codes, 2);
        assertEquals(2, enc.sources().length);
        assertEquals(2, enc.sources()[0].length);
        int nt = acq.spec().nt();
        int nrec = acq.receivers()[0].length;
        float[] super0;
        try (Propagator p = new Propagator(acq.spec())) {
            super0 = p.forward(enc.wavelet(), enc.sources(), enc.receivers(), vTrue).data();
        }
        double num = 0;
        double den = 0;
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < nt * nrec; i++) {
                double sum = codes[k] * acq.observed()[k * nt * nrec + i]
                        + codes[k + 2] * acq.observed()[(k + 2) * nt * nrec + i];
                num += Math.pow(super0[k * nt * nrec + i] - sum, 2);
                den += sum * sum;
                assertEquals(sum, enc.observed()[k * nt * nrec + i], 1e-6 * Math.abs(sum) + 1e-30);
            }
        }
        double rel = Math.sqrt(num / den);
        System.out.printf("supershot record vs coded sum of shot records: %.2e relative L2%n", rel);
        assertTrue(den > 0 && rel < 1e-5, "relative difference " + rel);
    }

    /** (B, nsrc, nt) wavelets equal to the shot's own wavelet give the same bits as the (B, nt) layout. */
    @Test
    void perSourceLayoutWithEqualWaveletsIsThePerShotLayout() {
        float[] vTrue = FwiTest.trueModel();
        Acquisition acq = FwiTest.acquisition(vTrue);
        int nt = acq.spec().nt();
        int[][][] src = {{{10, 1}, {40, 3}}, {{60, 1}, {20, 5}}};
        int[][][] rec = {acq.receivers()[0], acq.receivers()[0]};
        float[] perShot = new float[2 * nt];
        float[] perSource = new float[4 * nt];
        for (int t = 0; t < nt; t++) {
            perShot[t] = acq.wavelet()[t];
            perShot[nt + t] = 0.5f * acq.wavelet()[t];
            perSource[t] = perSource[nt + t] = perShot[t];
            perSource[2 * nt + t] = perSource[3 * nt + t] = perShot[nt + t];
        }
        try (Propagator p = new Propagator(acq.spec())) {
            float[] a = p.forward(perShot, src, rec, vTrue).data();
            float[] b = p.forward(perSource, src, rec, vTrue).data();
            assertArrayEquals(a, b);
        }
    }

    /** With one shot per supershot the codes square to one: misfit and gradient equal the plain objective's bits. */
    @Test
    void oneShotPerSupershotKeepsMisfitAndGradient() {
        float[] vTrue = FwiTest.trueModel();
        float[] start = FwiTest.startModel(vTrue);
        Acquisition acq = FwiTest.acquisition(vTrue);
        float[] g1 = new float[start.length];
        float[] g2 = new float[start.length];
        double j1;
        double j2;
        try (SingleDomainObjective plain = new SingleDomainObjective(acq, FwiTest.MUTE);
             SingleDomainObjective inner = new SingleDomainObjective(acq, FwiTest.MUTE)) {
            j1 = plain.evaluate(start, g1);
            EncodedObjective enc = new EncodedObjective(inner, acq, 4, 3, 0);
            assertTrue(enc.beginIteration(5));
            j2 = enc.evaluate(start, g2);
        }
        assertEquals(j1, j2, 0.0);
        assertArrayEquals(g1, g2);
    }

    @Test
    void codesAreReproducibleAndChangeWithTheIteration() {
        assertArrayEquals(EncodedObjective.codes(16, 5, 1, 3), EncodedObjective.codes(16, 5, 1, 3));
        assertTrue(!java.util.Arrays.equals(EncodedObjective.codes(16, 5, 1, 3), EncodedObjective.codes(16, 5, 1, 4)));
        assertTrue(!java.util.Arrays.equals(EncodedObjective.codes(16, 5, 1, 3), EncodedObjective.codes(16, 5, 2, 3)));
    }

    @Test
    void supershotsMustDivideTheShots() {
        Acquisition acq = FwiTest.acquisition(FwiTest.trueModel());
        try (SingleDomainObjective inner = new SingleDomainObjective(acq, FwiTest.MUTE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new EncodedObjective(inner, acq, 3, 1, 0));
            assertTrue(e.getMessage().contains("divide"), e.getMessage());
        }
    }

    /**
     * A two-band inversion with 2 encoded supershots (half the simulations of the plain one per evaluation) lowers the
     * plain, unencoded misfit and the model error.
     */
    @Test
    void encodedTwoBandInversionImprovesTheModel() {
        float[] vTrue = FwiTest.trueModel();
        float[] start = FwiTest.startModel(vTrue);
        Acquisition acq = FwiTest.acquisition(vTrue);
        Inversion.Options opt = new Inversion.Options(List.of(new Inversion.Band(5, 5), new Inversion.Band(0, 5)), 2,
                11, 4, new Fwi.Settings(0, 1400, 3000, 100, 5));
        List<Fwi.State> states;
        double before;
        double after;
        try (SingleDomainObjective obj = new SingleDomainObjective(acq, FwiTest.MUTE)) {
            states = Inversion.run(obj, acq, start, opt, null, false, false, 0, new Inversion.Listener() { });
            obj.setAcquisition(acq);
            float[] g = new float[start.length];
            before = obj.evaluate(start, g);
            after = obj.evaluate(states.get(1).model(), g);
        }
        double e0 = FwiTest.modelError(start, vTrue);
        double e1 = FwiTest.modelError(states.get(1).model(), vTrue);
        System.out.printf("encoded 2-band FWI: plain misfit %.4e -> %.4e (%.1f %% lower); model RMS error %.2f -> %.2f%n",
                before, after, 100 * (1 - after / before), e0, e1);
        assertTrue(after < 0.5 * before, "plain misfit " + before + " -> " + after);
        assertTrue(e1 < e0, "model error " + e0 + " -> " + e1);
    }
}
