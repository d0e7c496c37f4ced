package sweep.example.sh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.equation.CheckpointSchedule;
import sweep.equation.StepSolver;
import sweep.kit.EquationKit;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Golden bytes of the SH example: SHA-256 sums of the raw little-endian float32 bytes of the record, the gradient
 * (dJ/dvs then dJ/drho, the CPML pads' share folded onto the edge cells) and dJ/dwavelet of two small problems (order 8
 * without and order 4 with a free surface, smooth random models, two shots, one of them with two sources), and the
 * misfit's raw double bits. Pinned before the solver moved onto the {@code sweep.equation.StepSolver} skeleton: if
 * this fails after a refactor, the refactor changed results.
 */
class ShGoldenBytesTest {
    // Generated at commit 6b5fabe (the solver before the skeleton; Java backend, x86_64, JDK 17).
    private static final String RECORD_8 = "fbbb40c044bcf7a290bafd76db170948ba904c0f712ba9fbb5b7020cc394b743";
    private static final String GRADIENT_8 = "81528382937805d3d7019b8c87b483f07be734fd7309ae60edbd4f7c8366f011";
    private static final String WAVELET_GRADIENT_8 = "765fb2527e26cb28382e35801dbe7800f54df4ef936c4edca6298e83a33e8849";
    private static final String MISFIT_8 = "3c16c6bc47b96f0a";
    private static final String RECORD_4_FREE_SURFACE =
            "b97acef7456428cb2c05518a24edae5eadd3680d8701c2ea58b126efc2071555";
    private static final String GRADIENT_4_FREE_SURFACE =
            "0be29cf889b2d68a07744ad3e023acca74c2cb78a09b1393b7b62760270ac338";
    private static final String WAVELET_GRADIENT_4_FREE_SURFACE =
            "30e08fe3b82b9143ca72a006e321cb0648894b57372e51fa281981ad64e5b334";
    private static final String MISFIT_4_FREE_SURFACE = "3c31676e57ccc5fb";

    private static PropSpec spec(int order, boolean freeSurface, Storage storage, long checkpointMemory) {
        return PropSpec.builder(24, 30).equation(ShEquation.NAME).dh(10).dt(8e-4).nt(180).abcn(6).order(order)
                .freeSurface(freeSurface).storage(storage).checkpointMemory(checkpointMemory).threads(2).build();
    }

    /** Record, gradient, dJ/dwavelet sums and the misfit bits of one problem on two threads. */
    private static List<String> run(PropSpec spec) {
        int nz = spec.shape()[0];
        int nx = spec.shape()[1];
        float[] truth = model(nz, nx, 3);
        float[] start = model(nz, nx, 5);
        float[] w = Wavelets.ricker(12, spec.nt(), spec.dt());
        int[][][] src = {{{7, 2}}, {{20, 11}, {4, 17}}};
        int[][][] rec = {{{1, 0}, {15, 9}, {28, 23}}, {{3, 1}, {12, 20}, {29, 5}}};
        try (Propagator p = new Propagator(spec)) {
            float[] obs = p.forward(w, src, rec, truth).data();
            Gradient g = p.forwardAndGradient(w, src, rec, start, obs, Misfit.L2);
            List<String> out = new ArrayList<>();
            out.add(sha256(obs));
            out.add(sha256(g.parameters()));
            out.add(sha256(g.wavelet()));
            out.add(String.format("%016x", Double.doubleToRawLongBits(g.misfit())));
            return out;
        }
    }

    private static float[] model(int nz, int nx, long seed) {
        float[] vs = EquationKit.smoothField(seed, 1500, 300, nz, nx);
        float[] rho = EquationKit.smoothField(seed + 1, 2100, 300, nz, nx);
        float[] m = new float[2 * nz * nx];
        System.arraycopy(vs, 0, m, 0, vs.length);
        System.arraycopy(rho, 0, m, vs.length, rho.length);
        return m;
    }

    private static String sha256(float[] a) {
        ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : a) {
            b.putFloat(v);
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b.array()));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void order8WithoutFreeSurfaceKeepsItsBytes() {
        List<String> got = run(spec(8, false, Storage.FULL, 0));
        System.out.println("sh golden order 8: " + got);
        assertEquals(List.of(RECORD_8, GRADIENT_8, WAVELET_GRADIENT_8, MISFIT_8), got);
    }

    /**
     * Checkpointing gives full storage's bits whatever the memory budget: the least memory that re-runs each step once
     * (one level), half and a fifth of it (more levels of re-running).
     */
    @Test
    void checkpointedGradientsHaveTheBytesOfFullStorageUnderAnyBudget() {
        PropSpec least = spec(4, true, Storage.CHECKPOINTING, 0);
        Grid g = Grid.single(least);
        CheckpointSchedule one = StepSolver.schedule(g, least.nt());
        long bytes = one.bytes(4L * 7 * g.length(), 4L * 3 * g.nz() * g.nx());
        List<String> full = List.of(RECORD_4_FREE_SURFACE, GRADIENT_4_FREE_SURFACE, WAVELET_GRADIENT_4_FREE_SURFACE,
                MISFIT_4_FREE_SURFACE);
        int levels = 0;
        for (long budget : new long[] {0, bytes / 2, bytes / 5}) {
            PropSpec spec = spec(4, true, Storage.CHECKPOINTING, budget);
            CheckpointSchedule cs = StepSolver.schedule(Grid.single(spec), spec.nt());
            System.out.println("sh golden checkpointing, budget " + budget + " bytes: " + cs);
            assertTrue(cs.levels() > levels, "a smaller budget takes more levels: " + cs);
            levels = cs.levels();
            assertEquals(full, run(spec), cs.toString());
        }
        assertTrue(levels >= 3, "the tightest budget re-runs on three levels or more");
    }

    @Test
    void order4WithFreeSurfaceKeepsItsBytes() {
        List<String> got = run(spec(4, true, Storage.FULL, 0));
        System.out.println("sh golden order 4 free surface: " + got);
        assertEquals(List.of(RECORD_4_FREE_SURFACE, GRADIENT_4_FREE_SURFACE, WAVELET_GRADIENT_4_FREE_SURFACE,
                MISFIT_4_FREE_SURFACE), got);
    }
}
