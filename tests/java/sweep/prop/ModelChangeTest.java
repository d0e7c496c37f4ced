package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/**
 * A propagator used for several models gives, for each call, the bits of a fresh propagator given that model: a model
 * equal to the last one skips the set-up, so a changed cell, a new PML velocity or a rejected model in between must
 * still take effect (or leave the last good model in place).
 */
class ModelChangeTest {
    private static final int NZ = 41;
    private static final int NX = 47;
    private static final PropSpec SPEC = PropSpec.builder(NZ, NX).dh(10).dt(1e-3).nt(160).abcn(10).build();
    private static final int[][][] SRC = {{{20, 12}}};
    private static final int[][][] REC = {{{5, 3}, {30, 3}, {44, 38}}};

    private static float[] run(Propagator p, float[] vp) {
        return p.forward(Wavelets.ricker(15, SPEC.nt(), SPEC.dt()), SRC, REC, vp).data();
    }

    private static float[] fresh(float[] vp, double pmlVelocity) {
        try (Propagator p = new Propagator(SPEC)) {
            p.setPmlVelocity(pmlVelocity);
            return run(p, vp);
        }
    }

    @Test
    void eachCallSeesItsOwnModel() {
        float[] a = TestModels.smoothRandom(5, 2300, 500, NZ, NX);
        float[] b = a.clone();
        b[30 * NX + 20] += 400f; // one cell between the source and the deep receiver
        float[] ra = fresh(a, 0);
        float[] rb = fresh(b, 0);
        assertFalse(Arrays.equals(ra, rb), "the changed cell must change the record, or this test shows nothing");
        float[] rbPml = fresh(b, 5000);
        assertFalse(Arrays.equals(rb, rbPml), "the PML velocity must change the record, or this test shows nothing");
        try (Propagator p = new Propagator(SPEC)) {
            assertArrayEquals(ra, run(p, a), "first model");
            assertArrayEquals(ra, run(p, a.clone()), "the same model again (another array)");
            assertArrayEquals(rb, run(p, b), "one cell changed");
            float[] bad = b.clone();
            bad[7] = -1f;
            assertThrows(IllegalArgumentException.class, () -> run(p, bad));
            assertArrayEquals(rb, run(p, b), "after a rejected model");
            p.setPmlVelocity(5000);
            assertArrayEquals(rbPml, run(p, b), "same model, new PML velocity");
            p.setPmlVelocity(0);
            assertArrayEquals(rb, run(p, b), "PML velocity back to the model's maximum");
            assertArrayEquals(ra, run(p, a), "back to the first model");
        }
    }
}
