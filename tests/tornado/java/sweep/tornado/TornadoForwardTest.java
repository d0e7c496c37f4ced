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
 * strict math, within 1e-5 relative (of the record's largest amplitude) under TornadoVM's defaults. 2-D and 3-D, with
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
        int[][][] src = ndim == 2 ? new int[][][] {{{30, 12}}, {{10, 3}, {50, 30}}}
                : new int[][][] {{{13, 11, 9}}, {{3, 4, 2}, {20, 12, 15}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{3, 1}, {60, 40}, {35, 0}}, {{0, 0}, {70, 44}, {35, 20}}}
                : new int[][][] {{{2, 3, 1}, {20, 20, 19}, {10, 10, 0}}, {{0, 0, 0}, {26, 22, 20}, {13, 11, 9}}};
        float[] w = Wavelets.ricker(15, nt, spec.dt());
        float[] ref = run("java", spec, w, src, rec, vp);
        long t0 = System.nanoTime();
        float[] dev = run("tornado", spec, w, src, rec, vp);
        double sec = (System.nanoTime() - t0) * 1e-9;
        assertEquals(ref.length, dev.length);
        System.out.printf("[tornado tests] %d-D forward, 2 shots x %d steps on TornadoVM: %.2f s (plan build and JIT"
                + " included)%n", ndim, nt, sec);
        TornadoSupport.compare(ref, dev, ndim + "-D forward record (order " + order + ", free surface " + freeSurface
                + ", nt " + nt + ")");
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
