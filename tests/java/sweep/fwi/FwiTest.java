package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.core.Wavelets;
import sweep.models.DefaultModels;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/** FWI on a small model: the misfit falls by more than 90 % and the model moves towards the true one; resume is exact. */
public class FwiTest {
    @TempDir
    Path dir;

    static final int NZ = 40;
    static final int NX = 80;
    /** Rows next to the surface sources and receivers: known in the starting model and not inverted. */
    public static final int MUTE = 4;

    /** The true model smoothed (Gaussian, 6 cells) below the known top rows. */
    public static float[] startModel(float[] vTrue) {
        return DefaultModels.smooth(vTrue, NZ, NX, 6, MUTE);
    }

    /** True model: a vertical gradient with a fast and a slow anomaly. */
    public static float[] trueModel() {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                double a = Math.exp(-(Math.pow(z - 22, 2) + Math.pow(x - 25, 2)) / 30.0);
                double b = Math.exp(-(Math.pow(z - 20, 2) + Math.pow(x - 58, 2)) / 30.0);
                v[z * NX + x] = (float) (1800 + 20 * z + 350 * a - 250 * b);
            }
        }
        return v;
    }

    public static Acquisition acquisition(float[] vTrue) {
        int nt = 600;
        PropSpec spec = PropSpec.builder(NZ, NX).dh(10).dt(1e-3).nt(nt).abcn(12).freeSurface(true).maxVel(3000)
                .storage(sweep.prop.Storage.BOUNDARY_SAVING).build();
        float[] w = Wavelets.ricker(8, nt, 1e-3);
        int shots = 4;
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][NX / 2][];
        for (int b = 0; b < shots; b++) {
            src[b] = new int[][] {{8 + 21 * b, 1}};
            for (int r = 0; r < NX / 2; r++) {
                rec[b][r] = new int[] {2 * r, 1};
            }
        }
        float[] obs;
        try (Propagator p = new Propagator(spec)) {
            obs = p.forward(w, src, rec, vTrue).data();
        }
        return new Acquisition(spec, w, src, rec, obs);
    }

    public static double modelError(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.pow(a[i] - b[i], 2);
        }
        return Math.sqrt(s / a.length);
    }

    @Test
    void misfitFallsByNinetyPercentAndTheModelImproves() {
        float[] vTrue = trueModel();
        float[] start = startModel(vTrue);
        Acquisition acq = acquisition(vTrue);
        Fwi.Settings s = new Fwi.Settings(14, 1400, 3000, 100, 5);
        Fwi.State st;
        try (Objective obj = new SingleDomainObjective(acq, MUTE)) {
            st = Fwi.run(obj, start, s, null, it -> System.out.printf("iteration %d misfit %.4e step %.3g%n",
                    it.index(), it.misfit(), it.step()));
        }
        double reduction = 1 - st.misfit() / st.initialMisfit();
        double e0 = modelError(start, vTrue);
        double e1 = modelError(st.model(), vTrue);
        System.out.printf("FWI: misfit %.4e -> %.4e (%.1f %% reduction); model RMS error %.1f -> %.1f m/s%n",
                st.initialMisfit(), st.misfit(), 100 * reduction, e0, e1);
        assertTrue(reduction > 0.9, "misfit reduction " + reduction);
        assertTrue(e1 < e0, "model error " + e0 + " -> " + e1);
    }

    @Test
    void resumedRunEqualsUninterruptedRun() {
        float[] vTrue = trueModel();
        float[] start = startModel(vTrue);
        Acquisition acq = acquisition(vTrue);
        Fwi.Settings four = new Fwi.Settings(4, 1400, 3000, 100, 5);
        Fwi.Settings two = new Fwi.Settings(2, 1400, 3000, 100, 5);
        Path cp = dir.resolve("checkpoint.bin");
        Fwi.State full;
        Fwi.State resumed;
        List<Double> misfits = new ArrayList<>();
        try (Objective obj = new SingleDomainObjective(acq, MUTE)) {
            full = Fwi.run(obj, start, four, null, null);
            Fwi.run(obj, start, two, new Fwi.Checkpoint(cp, false, true), null);
            resumed = Fwi.run(obj, start, four, new Fwi.Checkpoint(cp, true, true), it -> misfits.add(it.misfit()));
        }
        assertEquals(2, misfits.size(), "the resumed run did iterations 3 and 4 only");
        assertArrayEquals(full.model(), resumed.model());
        for (int i = 0; i < 4; i++) {
            assertEquals(full.history().get(i).misfit(), resumed.history().get(i).misfit(), 0.0);
        }
    }
}
