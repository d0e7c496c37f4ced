package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import sweep.core.Wavelets;

/** Every documented bad input is refused with a message that names the problem, never run into a wrong answer. */
class InputErrorsTest {
    static final int NZ = 30;
    static final int NX = 40;

    static PropSpec.Builder base() {
        return PropSpec.builder(NZ, NX).dh(10).dt(1e-3).nt(50).abcn(10);
    }

    static void fails(Class<? extends Throwable> type, String fragment, Executable e) {
        Throwable t = assertThrows(type, e);
        assertTrue(t.getMessage().contains(fragment), "message '" + t.getMessage() + "' lacks '" + fragment + "'");
    }

    static Record run(PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] vp) {
        try (Propagator p = new Propagator(spec)) {
            return p.forward(w, src, rec, vp);
        }
    }

    static float[] model(float v) {
        return Analytic.constant(NZ * NX, v);
    }

    static final int[][][] SRC = {{{20, 10}}};
    static final int[][][] REC = {{{5, 5}}};

    @Test
    void cflViolationNamesLargestStableDt() {
        PropSpec spec = base().dt(4e-3).build();
        double limit = spec.maxStableDt(3000);
        fails(IllegalArgumentException.class, "largest stable dt is " + PropSpec.roundedDown(limit),
                () -> run(spec, Wavelets.ricker(10, 50, 4e-3), SRC, REC, model(3000)));
        fails(IllegalArgumentException.class, "CFL", () -> base().dt(4e-3).maxVel(3000).build());
    }

    @Test
    void stableDtLimitIsTheTrueStabilityLimit() {
        // Just above the limit the leapfrog blows up; just below it stays bounded (an independent check of the bound).
        PropSpec probe = base().build();
        double limit = probe.maxStableDt(3000);
        PropSpec ok = base().dt(limit * 0.99).nt(3000).abcn(0).build();
        Record r = run(ok, impulse(3000), SRC, REC, model(3000));
        for (float f : r.data()) {
            assertTrue(Float.isFinite(f) && Math.abs(f) < 1e3);
        }
    }

    private static float[] impulse(int nt) {
        float[] w = new float[nt];
        w[0] = 1;
        return w;
    }

    @Test
    void coordinatesOutsideTheGrid() {
        PropSpec spec = base().build();
        float[] w = Wavelets.ricker(10, 50, 1e-3);
        fails(IllegalArgumentException.class, "source 0 of shot 0 at [40, 10] lies outside",
                () -> run(spec, w, new int[][][] {{{40, 10}}}, REC, model(2000)));
        fails(IllegalArgumentException.class, "receiver 0 of shot 0 at [3, -1] lies outside",
                () -> run(spec, w, SRC, new int[][][] {{{3, -1}}}, model(2000)));
        fails(IllegalArgumentException.class, "expected 2 (x, z)",
                () -> run(spec, w, new int[][][] {{{1, 2, 3}}}, REC, model(2000)));
        fails(IllegalArgumentException.class, "one entry per shot",
                () -> run(spec, w, SRC, new int[][][] {{{1, 2}}, {{1, 2}}}, model(2000)));
    }

    @Test
    void oddOrOutOfRangeOrder() {
        fails(IllegalArgumentException.class, "got 7", () -> base().order(7).build());
        fails(IllegalArgumentException.class, "got 18", () -> base().order(18).build());
        fails(IllegalArgumentException.class, "got 0", () -> base().order(0).build());
    }

    @Test
    void badModels() {
        PropSpec spec = base().build();
        float[] w = Wavelets.ricker(10, 50, 1e-3);
        float[] nan = model(2000);
        nan[77] = Float.NaN;
        fails(IllegalArgumentException.class, "non-finite value (NaN) at (z, x) = (1, 37)", () -> run(spec, w, SRC, REC, nan));
        float[] inf = model(2000);
        inf[5] = Float.POSITIVE_INFINITY;
        fails(IllegalArgumentException.class, "non-finite", () -> run(spec, w, SRC, REC, inf));
        float[] neg = model(2000);
        neg[9] = -1500;
        fails(IllegalArgumentException.class, "non-positive velocity (-1500.0 m/s) at (z, x) = (0, 9)",
                () -> run(spec, w, SRC, REC, neg));
        float[] zero = model(2000);
        zero[0] = 0;
        fails(IllegalArgumentException.class, "non-positive", () -> run(spec, w, SRC, REC, zero));
        fails(IllegalArgumentException.class, "needs 1200", () -> run(spec, w, SRC, REC, new float[100]));
    }

    @Test
    void badWavelets() {
        PropSpec spec = base().build();
        fails(IllegalArgumentException.class, "expected nt=50", () -> run(spec, new float[49], SRC, REC, model(2000)));
        float[] w = new float[50];
        w[3] = Float.NaN;
        fails(IllegalArgumentException.class, "non-finite", () -> run(spec, w, SRC, REC, model(2000)));
    }

    @Test
    void badSpecValues() {
        fails(IllegalArgumentException.class, "dt must be positive", () -> base().dt(0).build());
        fails(IllegalArgumentException.class, "nt must be >= 1", () -> base().nt(0).build());
        fails(IllegalArgumentException.class, "dh must be positive", () -> base().dh(-1).build());
        fails(IllegalArgumentException.class, "one per axis", () -> base().dh(1, 2, 3).build());
        fails(IllegalArgumentException.class, "abcn", () -> base().abcn(-2).build());
        fails(IllegalArgumentException.class, "shape must be", () -> PropSpec.builder(5).dh(1).dt(1e-4).nt(1).build());
    }

    @Test
    void wavefieldBlowUpIsDetected() {
        // Finite but huge wavelet values overflow the float wavefield: the run must stop, not return Inf/NaN records.
        PropSpec spec = base().checkEvery(5).build();
        float[] w = new float[50];
        java.util.Arrays.fill(w, 3e38f);
        fails(IllegalStateException.class, "became non-finite", () -> run(spec, w, SRC, REC, model(2000)));
    }
}
