package sweep.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * Forward records of the TornadoVM backend ({@code sweep.backend=tornado}) against the Java backend: same bits under
 * strict math, within 1e-4 of the record's largest amplitude under TornadoVM's defaults (rounding differences grow
 * over the steps). 2-D and 3-D, with
 * PML and free surface, two shots (the second reuses the plan), an odd and an even number of steps.
 */
class TornadoForwardTest {

    @ParameterizedTest(name = "{0}-D order {1} free surface {2} nt {3}")
    @CsvSource({"2,8,true,121", "2,4,false,80", "3,8,true,41"})
    void forwardRecordMatchesJavaBackend(int ndim, int order, boolean freeSurface, int nt) {
        TornadoSupport.requireDevice();
        int[] shape = ndim == 2 ? new int[] {45, 71} : new int[] {21, 23, 27};
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(nt).order(order).abcn(8).freeSurface(freeSurface)
                .threads(2).build();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Random r = new Random(ndim * 100 + order);
        for (int i = 0; i < cells; i++) {
            vp[i] = 1800f + 900f * r.nextFloat();
        }
        // Shots 0 and 1 have the same counts (the plan is reused), shot 2 has two sources (the plan is rebuilt).
        int[][][] src = ndim == 2 ? new int[][][] {{{30, 12}}, {{5, 40}}, {{10, 3}, {50, 30}}}
                : new int[][][] {{{13, 11, 9}}, {{25, 2, 18}}, {{3, 4, 2}, {20, 12, 15}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{3, 1}, {60, 40}, {35, 0}}, {{1, 2}, {69, 43}, {30, 10}},
            {{0, 0}, {70, 44}, {35, 20}}}
                : new int[][][] {{{2, 3, 1}, {20, 20, 19}, {10, 10, 0}}, {{1, 1, 1}, {24, 21, 19}, {12, 10, 8}},
                    {{0, 0, 0}, {26, 22, 20}, {13, 11, 9}}};
        float[] w = Wavelets.ricker(15, nt, spec.dt());
        float[] ref = run("java", spec, w, src, rec, vp);
        long t0 = System.nanoTime();
        float[] dev = run("tornado", spec, w, src, rec, vp);
        double sec = (System.nanoTime() - t0) * 1e-9;
        assertEquals(ref.length, dev.length);
        System.out.printf("[tornado tests] %d-D forward, 3 shots x %d steps on TornadoVM: %.2f s (plan build and JIT"
                + " included)%n", ndim, nt, sec);
        TornadoSupport.compare(ref, dev, ndim + "-D forward record (order " + order + ", free surface " + freeSurface
                + ", nt " + nt + ")", TornadoSupport.RECORD_TOLERANCE);
    }

    /**
     * Wavefield snapshots (every 7 steps, two shots) copied from the device against the Java backend's: the same
     * steps, the same shots, and the same values (bits under strict math).
     */
    @ParameterizedTest(name = "{0}-D snapshots")
    @CsvSource({"2", "3"})
    void snapshotsMatchJavaBackend(int ndim) {
        TornadoSupport.requireDevice();
        int[] shape = ndim == 2 ? new int[] {30, 36} : new int[] {14, 15, 17};
        int nt = 30;
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(nt).order(4).abcn(6).freeSurface(true)
                .threads(2).build();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        java.util.Arrays.fill(vp, 2100f);
        int[][][] src = ndim == 2 ? new int[][][] {{{18, 3}}, {{10, 12}}} : new int[][][] {{{8, 7, 3}}, {{5, 9, 8}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{20, 5}}, {{12, 14}}} : new int[][][] {{{9, 8, 4}}, {{6, 10, 9}}};
        float[] w = Wavelets.ricker(40, nt, spec.dt());
        java.util.List<String> refSteps = new java.util.ArrayList<>();
        java.util.List<String> devSteps = new java.util.ArrayList<>();
        java.util.List<float[]> refFields = new java.util.ArrayList<>();
        java.util.List<float[]> devFields = new java.util.ArrayList<>();
        for (int k = 0; k < 2; k++) {
            java.util.List<String> steps = k == 0 ? refSteps : devSteps;
            java.util.List<float[]> fields = k == 0 ? refFields : devFields;
            String old = System.getProperty("sweep.backend");
            System.setProperty("sweep.backend", k == 0 ? "java" : "tornado");
            try (Propagator p = new Propagator(spec)) {
                p.forward(w, src, rec, vp, 7, (shot, step, field) -> {
                    steps.add(shot + ":" + step);
                    fields.add(field);
                });
            } finally {
                if (old == null) {
                    System.clearProperty("sweep.backend");
                } else {
                    System.setProperty("sweep.backend", old);
                }
            }
        }
        assertEquals(java.util.List.of("0:7", "0:14", "0:21", "0:28", "1:7", "1:14", "1:21", "1:28"), refSteps);
        assertEquals(refSteps, devSteps, "snapshot shots and steps");
        for (int i = 0; i < refFields.size(); i++) {
            TornadoSupport.compare(refFields.get(i), devFields.get(i), ndim + "-D snapshot " + refSteps.get(i),
                    TornadoSupport.RECORD_TOLERANCE);
        }
    }

    /** A second forward call with another model on the same solver (the model is re-uploaded). */
    @org.junit.jupiter.api.Test
    void newModelOnTheSameSolver() {
        TornadoSupport.requireDevice();
        int nz = 40;
        int nx = 52;
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(90).order(8).abcn(8).freeSurface(true).build();
        float[] vp1 = new float[nz * nx];
        float[] vp2 = new float[nz * nx];
        for (int i = 0; i < vp1.length; i++) {
            vp1[i] = 2000f;
            vp2[i] = i / nx < 20 ? 1900f : 2700f;
        }
        int[][][] src = {{{26, 3}}};
        int[][][] rec = {{{5, 0}, {26, 20}, {47, 39}}};
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        float[][] ref = new float[2][];
        float[][] dev = new float[2][];
        for (int k = 0; k < 2; k++) {
            String backend = k == 0 ? "java" : "tornado";
            String old = System.getProperty("sweep.backend");
            System.setProperty("sweep.backend", backend);
            try (Propagator p = new Propagator(spec)) {
                float[] a = p.forward(w, src, rec, vp1).data();
                float[] b = p.forward(w, src, rec, vp2).data();
                if (k == 0) {
                    ref = new float[][] {a, b};
                } else {
                    dev = new float[][] {a, b};
                }
            } finally {
                if (old == null) {
                    System.clearProperty("sweep.backend");
                } else {
                    System.setProperty("sweep.backend", old);
                }
            }
        }
        TornadoSupport.compare(ref[0], dev[0], "2-D forward, first model", TornadoSupport.RECORD_TOLERANCE);
        TornadoSupport.compare(ref[1], dev[1], "2-D forward, second model on the same solver",
                TornadoSupport.RECORD_TOLERANCE);
    }

    private static float[] run(String backend, PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] vp) {
        String old = System.getProperty("sweep.backend");
        System.setProperty("sweep.backend", backend);
        try (Propagator p = new Propagator(spec)) {
            return p.forward(w, src, rec, vp).data();
        } finally {
            if (old == null) {
                System.clearProperty("sweep.backend");
            } else {
                System.setProperty("sweep.backend", old);
            }
        }
    }
}
