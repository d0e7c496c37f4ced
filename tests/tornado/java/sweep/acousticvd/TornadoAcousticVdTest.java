package sweep.acousticvd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;
import sweep.tornado.TornadoSupport;

/**
 * The variable-density acoustic equation on the TornadoVM backend against the Java backend, beyond the conformance
 * kit's device check (one shot of one source): two shots, the first with two sources at neighbouring cells, pressure
 * and velocities recorded; the records, the pressure snapshots, and the misfit, dJ/dvp, dJ/drho and dJ/dwavelet
 * through {@code forwardAndGradient} (one tape at a time) and through {@code forwardForGradient} + {@code gradient}
 * (the first shot's tape goes to the host while the second records, and back to the device for its adjoint run).
 * The same bits under strict math; within 1e-4 of each one's largest value under TornadoVM's defaults.
 */
class TornadoAcousticVdTest {

    @ParameterizedTest(name = "{0}-D {1} free surface {2} record {3}")
    @CsvSource({"2,FULL,true,p;vx;vz", "2,BOUNDARY_SAVING,false,vz;p", "3,BOUNDARY_SAVING,true,p;vy"})
    void shotsAndGradientsMatchTheJavaBackend(int ndim, Storage storage, boolean freeSurface, String record) {
        TornadoSupport.requireDevice();
        int[] shape = ndim == 2 ? new int[] {28, 32} : new int[] {14, 15, 16};
        int nt = ndim == 2 ? 50 : 26;
        String fields = record.replace(';', ',');
        PropSpec spec = PropSpec.builder(shape).equation(AcousticVdEquation.NAME).recordFields(fields).dh(10)
                .dt(1e-3).nt(nt).order(ndim == 2 ? 8 : 4).abcn(ndim == 2 ? 6 : 4).freeSurface(freeSurface)
                .storage(storage).maxVel(3000).threads(2).build();
        int cells = 1;
        for (int s : shape) {
            cells *= s;
        }
        float[] start = new float[2 * cells];
        float[] truth = new float[2 * cells];
        for (int i = 0; i < cells; i++) {
            start[i] = 1800f + 7f * (i % 13);
            start[cells + i] = 1500f + 11f * (i % 17);
            truth[i] = start[i] + (i % 7 == 0 ? 120f : 0f);
            truth[cells + i] = start[cells + i] + (i % 3 == 0 ? 90f : 0f);
        }
        int[][][] src = ndim == 2 ? new int[][][] {{{3, 10}, {3, 11}}, {{14, 20}}}
                : new int[][][] {{{3, 7, 6}, {3, 7, 7}}, {{8, 8, 9}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{0, 4}, {12, 6}, {15, 9}}, {{6, 17}, {12, 23}, {9, 16}}}
                : new int[][][] {{{0, 6, 3}, {5, 8, 5}, {7, 9, 7}}, {{10, 7, 8}, {6, 9, 11}, {8, 6, 10}}};
        float[] w = Wavelets.ricker(1.5 / (0.4 * nt * spec.dt()), nt, spec.dt());
        String what = ndim + "-D acoustic-vd " + storage + " free surface " + freeSurface + " record " + fields;
        List<float[]> snapRef = new ArrayList<>();
        List<float[]> snapDev = new ArrayList<>();
        float[] obs = run("java", spec, w, src, rec, truth, null, null, snapRef).parameters();
        float[] obsDev = run("tornado", spec, w, src, rec, truth, null, null, snapDev).parameters();
        TornadoSupport.compare(obs, obsDev, what + ": record", TornadoSupport.RECORD_TOLERANCE);
        assertEquals(snapRef.size(), snapDev.size(), what + ": snapshots");
        for (int k = 0; k < snapRef.size(); k++) {
            TornadoSupport.compare(snapRef.get(k), snapDev.get(k), what + ": snapshot " + k,
                    TornadoSupport.RECORD_TOLERANCE);
        }
        Gradient ref = run("java", spec, w, src, rec, start, obs, Misfit.L2, null);
        Gradient dev = run("tornado", spec, w, src, rec, start, obs, Misfit.L2, null);
        assertTrue(ref.misfit() > 0, what + ": the misfit is 0; the comparison would be vacuous");
        assertEquals(ref.misfit(), dev.misfit(), TornadoSupport.strict() ? 0.0 : 1e-4 * ref.misfit(),
                what + ": misfit");
        String[] names = {"dJ/dvp", "dJ/drho"};
        for (int k = 0; k < 2; k++) {
            TornadoSupport.compare(ref.parameter(k), dev.parameter(k), what + ": " + names[k],
                    TornadoSupport.RECORD_TOLERANCE);
        }
        TornadoSupport.compare(ref.wavelet(), dev.wavelet(), what + ": dJ/dwavelet", TornadoSupport.RECORD_TOLERANCE);
        Gradient refB = run("java", spec, w, src, rec, start, obs, null, null);
        Gradient devB = run("tornado", spec, w, src, rec, start, obs, null, null);
        for (int k = 0; k < 2; k++) {
            TornadoSupport.compare(refB.parameter(k), devB.parameter(k), what + ": " + names[k]
                    + " (forwardForGradient + gradient)", TornadoSupport.RECORD_TOLERANCE);
        }
        TornadoSupport.compare(refB.wavelet(), devB.wavelet(), what + ": dJ/dwavelet (forwardForGradient + gradient)",
                TornadoSupport.RECORD_TOLERANCE);
    }

    /**
     * With {@code obs} null: the forward record (in {@code parameters()}), the pressure snapshots every 7 steps into
     * {@code snaps}. With a misfit: forwardAndGradient. Without one: forwardForGradient, then gradient of the residual.
     */
    private static Gradient run(String backend, PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] model,
                                float[] obs, Misfit misfit, List<float[]> snaps) {
        String old = System.getProperty("sweep.backend");
        System.setProperty("sweep.backend", backend);
        try (Propagator p = new Propagator(spec)) {
            if (obs == null) {
                float[] d = p.forward(w, src, rec, model, 7, (shot, step, f) -> snaps.add(f.clone())).data();
                return new Gradient(d, null, Double.NaN);
            }
            if (misfit != null) {
                return p.forwardAndGradient(w, src, rec, model, obs, misfit);
            }
            float[] d = p.forwardForGradient(w, src, rec, model).data();
            float[] res = new float[d.length];
            for (int i = 0; i < d.length; i++) {
                res[i] = d[i] - obs[i];
            }
            return p.gradient(res);
        } finally {
            if (old == null) {
                System.clearProperty("sweep.backend");
            } else {
                System.setProperty("sweep.backend", old);
            }
        }
    }
}
