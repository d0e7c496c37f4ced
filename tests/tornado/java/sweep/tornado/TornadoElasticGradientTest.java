package sweep.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.core.Wavelets;
import sweep.elastic.ElasticSource;
import sweep.elastic.TornadoElasticForwardTest;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Elastic gradients on the TornadoVM backend (forward with the tape on the device, adjoint time loop on the device,
 * the node gradients mapped onto vp, vs, rho on the host) against the Java backend: the misfit, dJ/dvp, dJ/dvs,
 * dJ/drho and dJ/dwavelet with the same bits under strict math, within 1e-4 of each one's largest value under
 * TornadoVM's defaults. Full storage and boundary saving, 2-D and 3-D, PML on every side or a free surface over a
 * water layer, every source type, pressure and velocities recorded; two shots through {@code forwardAndGradient} (one
 * tape at a time) and through {@code forwardForGradient} + {@code gradient} (the first shot's tape goes to the host
 * while the second records, and back to the device for its adjoint run).
 */
class TornadoElasticGradientTest {

    @ParameterizedTest(name = "{0}-D {1} free surface {2} {3} record {4} nt {5}")
    @CsvSource({"2,FULL,true,explosive,p;vx;vz,61", "2,BOUNDARY_SAVING,false,fz,vz,60",
        "2,BOUNDARY_SAVING,true,fx,p;vx,60", "2,FULL,false,fx,vx;vz,41", "3,BOUNDARY_SAVING,true,fz,p;vz,30",
        "3,FULL,false,explosive,p;vx;vy;vz,26", "3,BOUNDARY_SAVING,false,fy,vy;p,25"})
    void gradientMatchesJavaBackend(int ndim, Storage storage, boolean freeSurface, String source, String record,
                                    int nt) {
        TornadoSupport.requireDevice();
        int[] shape = ndim == 2 ? new int[] {30, 34} : new int[] {14, 15, 16};
        String fields = record.replace(';', ',');
        PropSpec spec = PropSpec.builder(shape).equation("elastic")
                .sourceType(ElasticSource.parse(source).label()).recordFields(fields).dh(10).dt(1e-3).nt(nt)
                .order(ndim == 2 ? 8 : 4).abcn(ndim == 2 ? 6 : 4).freeSurface(freeSurface).storage(storage)
                .maxVel(3000).threads(2).build();
        float[] start = TornadoElasticForwardTest.model(shape, ndim * 10 + nt, freeSurface);
        float[] truth = start.clone();
        int cells = start.length / 3;
        for (int i = 0; i < cells; i++) {
            if (i % 7 == 0) {
                truth[i] += 120f; // vp
            }
            if (i % 5 == 0 && truth[cells + i] > 0) {
                truth[cells + i] += 60f; // vs, solid cells only
            }
            if (i % 3 == 0) {
                truth[2 * cells + i] += 50f; // rho
            }
        }
        // sources and receivers a few cells apart, so that the direct waves arrive inside the window; the first shot
        // next to the top (the free surface and the water layer, when there are)
        int[][][] src = ndim == 2 ? new int[][][] {{{15, 4}}, {{9, 20}}} : new int[][][] {{{7, 7, 4}}, {{8, 8, 9}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{18, 0}, {12, 6}, {15, 9}}, {{6, 17}, {12, 23}, {9, 16}}}
                : new int[][][] {{{9, 6, 0}, {5, 8, 5}, {7, 9, 7}}, {{10, 7, 8}, {6, 9, 11}, {8, 6, 10}}};
        float[] w = Wavelets.ricker(1.5 / (0.4 * nt * spec.dt()), nt, spec.dt());
        String what = ndim + "-D elastic gradient " + storage + " free surface " + freeSurface + " " + source
                + " record " + fields + " nt " + nt;
        float[] obs = run("java", spec, w, src, rec, truth, null, null).parameters();
        Gradient ref = run("java", spec, w, src, rec, start, obs, Misfit.L2);
        long t0 = System.nanoTime();
        Gradient dev = run("tornado", spec, w, src, rec, start, obs, Misfit.L2);
        double sec = (System.nanoTime() - t0) * 1e-9;
        System.out.printf("[tornado tests] %s, 2 shots on TornadoVM: %.2f s (plan build and JIT included)%n", what,
                sec);
        assertTrue(ref.misfit() > 0, what + ": the misfit is 0; the comparison would be vacuous");
        if (TornadoSupport.strict()) {
            assertEquals(ref.misfit(), dev.misfit(), 0.0, what + ": misfit");
        } else {
            assertEquals(ref.misfit(), dev.misfit(), 1e-4 * ref.misfit(), what + ": misfit");
        }
        String[] names = {"dJ/dvp", "dJ/dvs", "dJ/drho"};
        for (int k = 0; k < 3; k++) {
            TornadoSupport.compare(ref.parameter(k), dev.parameter(k), what + ": " + names[k],
                    TornadoSupport.RECORD_TOLERANCE);
        }
        TornadoSupport.compare(ref.wavelet(), dev.wavelet(), what + ": dJ/dwavelet", TornadoSupport.RECORD_TOLERANCE);
        // the batch path: tapes of both shots kept, then one adjoint run per shot
        Gradient refB = run("java", spec, w, src, rec, start, obs, null);
        Gradient devB = run("tornado", spec, w, src, rec, start, obs, null);
        for (int k = 0; k < 3; k++) {
            TornadoSupport.compare(refB.parameter(k), devB.parameter(k), what + ": " + names[k]
                    + " (forwardForGradient + gradient)", TornadoSupport.RECORD_TOLERANCE);
        }
        TornadoSupport.compare(refB.wavelet(), devB.wavelet(), what + ": dJ/dwavelet (forwardForGradient + gradient)",
                TornadoSupport.RECORD_TOLERANCE);
    }

    /**
     * With {@code obs} null: the forward record (in {@code parameters()}). With a misfit: forwardAndGradient. Without
     * one: forwardForGradient, then gradient of the residual (record − obs).
     */
    private static Gradient run(String backend, PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] model,
                                float[] obs, Misfit misfit) {
        String old = System.getProperty("sweep.backend");
        System.setProperty("sweep.backend", backend);
        try (Propagator p = new Propagator(spec)) {
            if (obs == null) {
                return new Gradient(p.forward(w, src, rec, model).data(), null, Double.NaN);
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
