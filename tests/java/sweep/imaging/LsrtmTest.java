package sweep.imaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.core.Wavelets;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * Least-squares migration of Born data from the background it migrates in: the data residual falls at every iteration
 * and is below 20 % of its start after 10; a run saved after some iterations and resumed gives the bits of an
 * uninterrupted one; a damaged or foreign checkpoint is refused.
 */
class LsrtmTest {
    static final int NZ = 40;
    static final int NX = 60;

    @TempDir
    Path dir;

    /** The Born operator of a smooth background, 3 shots and a receiver at every surface cell. */
    static Lsrtm.Operator operator(Propagator p, float[] v0) {
        int shots = 3;
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][NX][];
        for (int b = 0; b < shots; b++) {
            src[b] = new int[][] {{10 + 20 * b, 2}};
            for (int r = 0; r < NX; r++) {
                rec[b][r] = new int[] {r, 2};
            }
        }
        float[] w = Wavelets.ricker(15, p.spec().nt(), p.spec().dt());
        return new Lsrtm.Operator() {
            @Override
            public float[] born(float[] dm) {
                return p.born(w, src, rec, v0, dm).data();
            }

            @Override
            public float[] adjoint(float[] d) {
                return p.forwardAndGradient(w, src, rec, v0, d, Misfit.CORRELATION).parameters();
            }
        };
    }

    static float[] background() {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                v[z * NX + x] = 1900 + 10 * z;
            }
        }
        return v;
    }

    /** Two beds and a dipping one under the shots: the reflectivity the data come from. */
    static float[] reflectivity() {
        float[] dm = new float[NZ * NX];
        for (int x = 8; x < NX - 8; x++) {
            dm[15 * NX + x] = 150;
            dm[28 * NX + x] = -120;
            dm[(20 + x / 6) * NX + x] += 100;
        }
        return dm;
    }

    static PropSpec spec() {
        return PropSpec.builder(NZ, NX).dh(10).dt(1e-3).nt(450).abcn(12).build();
    }

    @Test
    void theResidualFallsAtEveryIterationBelowAFifthAfterTen() {
        float[] v0 = background();
        try (Propagator p = new Propagator(spec())) {
            Lsrtm.Operator op = operator(p, v0);
            float[] d = op.born(reflectivity());
            Lsrtm.State st = Lsrtm.start(op, d);
            for (int k = 0; k < 10; k++) {
                st = Lsrtm.iterate(op, st);
            }
            double r0 = st.residualNorms().get(0);
            StringBuilder s = new StringBuilder();
            for (int k = 1; k <= 10; k++) {
                double rk = st.residualNorms().get(k);
                s.append(String.format(" %.3f", rk / r0));
                assertTrue(rk < st.residualNorms().get(k - 1), "the residual rose at iteration " + k + ":" + s);
            }
            System.out.println("LSRTM data residual / start, iterations 1..10:" + s);
            assertTrue(st.residualNorms().get(10) < 0.2 * r0, "after 10 iterations:" + s);
        }
    }

    @Test
    void aResumedRunGivesTheBitsOfAnUninterruptedOne() throws Exception {
        float[] v0 = background();
        try (Propagator p = new Propagator(spec().toBuilder().nt(300).build())) {
            Lsrtm.Operator op = operator(p, v0);
            float[] d = op.born(reflectivity());
            Lsrtm.State st = Lsrtm.iterate(op, Lsrtm.start(op, d));
            Path f = dir.resolve("checkpoint.bin");
            Lsrtm.save(f, 42, st);
            Lsrtm.State straight = Lsrtm.iterate(op, st);
            Lsrtm.State resumed = Lsrtm.iterate(op, Lsrtm.load(f, 42, NZ * NX, d.length));
            assertArrayEquals(straight.image(), resumed.image());
            assertEquals(straight.residualNorms(), resumed.residualNorms());
            assertTrue(assertThrows(IllegalArgumentException.class, () -> Lsrtm.load(f, 43, NZ * NX, d.length))
                    .getMessage().contains("another job"));
            byte[] b = Files.readAllBytes(f);
            b[b.length / 2] ^= 1;
            Files.write(f, b);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> Lsrtm.load(f, 42, NZ * NX, d.length))
                    .getMessage().contains("damaged"));
        }
    }
}
