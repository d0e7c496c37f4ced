package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.core.Wavelets;
import sweep.elastic.ElasticSource;
import sweep.models.DefaultModels;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Elastic FWI of vp and vs on a small model with a water layer and two anomalies seen in vs only: the misfit falls,
 * the vs error against the true model falls below the start's, vs stays exactly 0 in the water and never exceeds
 * vp·√3/2, and a resumed run ends with the same bits as an uninterrupted one.
 */
class ElasticFwiTest {
    @TempDir
    Path dir;

    static final int NZ = 30;
    static final int NX = 60;
    static final int N = NZ * NX;
    /** Water rows (vs = 0); the sources fire in it, the receivers sit on the sea floor below it. */
    static final int WATER = 5;

    /** (vp, vs, rho) parameter-major: water over a solid whose vs holds a fast and a slow lens that vp lacks. */
    static float[] trueModel() {
        float[] m = new float[3 * N];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                int i = z * NX + x;
                if (z < WATER) {
                    m[i] = 1500;
                    m[N + i] = 0;
                    m[2 * N + i] = 1000;
                    continue;
                }
                double a = Math.exp(-(Math.pow(z - 17, 2) + Math.pow(x - 20, 2)) / 20.0);
                double b = Math.exp(-(Math.pow(z - 17, 2) + Math.pow(x - 41, 2)) / 20.0);
                m[i] = (float) (2000 + 15 * (z - WATER));
                m[N + i] = (float) (1000 + 8 * (z - WATER) + 250 * a - 200 * b);
                m[2 * N + i] = 2000;
            }
        }
        return m;
    }

    /** The true model smoothed (Gaussian, 5 cells) below the water, which is kept exact. */
    static float[] startModel(float[] mTrue) {
        return DefaultModels.smoothParameters(mTrue, 3, NZ, NX, 5, WATER);
    }

    static Acquisition acquisition(float[] mTrue, int nt, int shots) {
        double dt = 1.5e-3;
        PropSpec spec = PropSpec.builder(NZ, NX).equation("elastic").dh(10).dt(dt).nt(nt).abcn(10)
                .freeSurface(true).maxVel(2600).storage(Storage.BOUNDARY_SAVING).sourceType(ElasticSource.EXPLOSIVE.label())
                .recordFields("vx,vz").build();
        float[] w = Wavelets.ricker(10, nt, dt);
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][NX / 2][];
        for (int b = 0; b < shots; b++) {
            src[b] = new int[][] {{10 + 40 * b / Math.max(1, shots - 1), 2}};
            for (int r = 0; r < NX / 2; r++) {
                rec[b][r] = new int[] {2 * r, WATER};
            }
        }
        float[] obs;
        try (Propagator p = new Propagator(spec)) {
            obs = p.forward(w, src, rec, mTrue).data();
        }
        return new Acquisition(spec, w, src, rec, obs);
    }

    static Fwi.Settings settings(int iterations) {
        return new Fwi.Settings(sweep.equation.Equations.named("elastic"), iterations, List.of(new Fwi.Parameter("vp",
                1400, 2600, 40, true),
                new Fwi.Parameter("vs", 300, 1800, 60, true), new Fwi.Parameter("rho", 900, 3000, 20, false)), 5);
    }

    /** RMS difference of parameter {@code k} over the cells below the water. */
    static double error(float[] a, float[] b, int k) {
        double s = 0;
        for (int i = WATER * NX; i < N; i++) {
            s += Math.pow(a[k * N + i] - b[k * N + i], 2);
        }
        return Math.sqrt(s / (N - WATER * NX));
    }

    @Test
    void misfitAndVsErrorFallAndTheWaterStaysFluid() {
        float[] mTrue = trueModel();
        float[] start = startModel(mTrue);
        Acquisition acq = acquisition(mTrue, 400, 3);
        Fwi.State st;
        try (Objective obj = new SingleDomainObjective(acq, 0)) {
            st = Fwi.run(obj, start, settings(5), null, it -> System.out.printf("elastic iteration %d misfit %.4e"
                    + " step %.3g%n", it.index(), it.misfit(), it.step()));
        }
        float[] m = st.model();
        double vs0 = error(start, mTrue, 1);
        double vs1 = error(m, mTrue, 1);
        double vp0 = error(start, mTrue, 0);
        double vp1 = error(m, mTrue, 0);
        System.out.printf("elastic FWI: misfit %.4e -> %.4e; vs RMS error %.1f -> %.1f m/s; vp %.1f -> %.1f m/s%n",
                st.initialMisfit(), st.misfit(), vs0, vs1, vp0, vp1);
        assertTrue(st.misfit() < 0.5 * st.initialMisfit(), "misfit " + st.initialMisfit() + " -> " + st.misfit());
        assertTrue(vs1 < vs0, "vs error " + vs0 + " -> " + vs1);
        for (int i = 0; i < WATER * NX; i++) {
            assertEquals(0f, m[N + i], "vs in the water at cell " + i);
        }
        for (int i = 0; i < N; i++) {
            assertTrue(m[N + i] <= sweep.elastic.ElasticEquation.VS_OVER_VP_MAX * m[i] + 1e-3,
                    "vs above vp*sqrt(3)/2 at cell " + i);
        }
        assertArrayEquals(Arrays.copyOfRange(start, 2 * N, 3 * N), Arrays.copyOfRange(m, 2 * N, 3 * N),
                "rho is not inverted and keeps its starting values");
    }

    @Test
    void resumedElasticRunEqualsUninterruptedRun() {
        float[] mTrue = trueModel();
        float[] start = startModel(mTrue);
        Acquisition acq = acquisition(mTrue, 250, 2); // short: only the bits matter here
        Path cp = dir.resolve("checkpoint.bin");
        Fwi.State full;
        Fwi.State resumed;
        List<Double> misfits = new ArrayList<>();
        try (Objective obj = new SingleDomainObjective(acq, 0)) {
            full = Fwi.run(obj, start, settings(2), null, null);
            Fwi.run(obj, start, settings(1), new Fwi.Checkpoint(cp, false, true), null);
            resumed = Fwi.run(obj, start, settings(2), new Fwi.Checkpoint(cp, true, true),
                    it -> misfits.add(it.misfit()));
        }
        assertEquals(1, misfits.size(), "the resumed run did iteration 2 only");
        assertArrayEquals(full.model(), resumed.model());
        for (int i = 0; i < 2; i++) {
            assertEquals(full.history().get(i).misfit(), resumed.history().get(i).misfit(), 0.0);
        }
    }
}
