package sweep.acoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.backend.CpuKernels;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * Whole forward runs on the CPU kernels give the same bits (records and snapshots) as runs forced onto the portable
 * kernels with {@code -Dsweep.kernels=portable}: 2-D and 3-D, several orders, PML and free surface, 1, 2 and 4 threads
 * (with 4 a z slab spans two chunks, so its psi stays in the separate pass; with 1 and 2 it runs inside the update).
 */
class AcousticVectorForwardTest {

    @ParameterizedTest(name = "{0}-D order {1} free surface {2} threads {3} abcn {4}")
    @CsvSource({"2,8,false,1,10", "2,8,true,2,10", "2,4,false,2,10", "2,16,true,1,10", "3,8,false,2,10",
        "3,8,true,1,10", "3,6,false,1,10", "3,12,true,2,10", "3,8,false,2,20", "3,4,true,1,35", "3,8,false,1,16",
        "2,8,false,2,20", "2,6,true,1,37", "3,8,false,4,20", "2,8,true,4,20"})
    void forwardMatchesPortableKernels(int ndim, int order, boolean freeSurface, int threads, int abcn) {
        int[] shape = ndim == 2 ? new int[] {45, 71} : new int[] {23, 27, 41};
        // 3-D: half the steps, a wavelet twice as high centred at 50 ms
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(ndim == 2 ? 120 : 60).order(order).abcn(abcn)
                .freeSurface(freeSurface).threads(threads).build();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Random r = new Random(ndim * 100 + order);
        for (int i = 0; i < cells; i++) {
            vp[i] = 1800f + 900f * r.nextFloat();
        }
        int[][][] src = ndim == 2 ? new int[][][] {{{30, 12}}} : new int[][][] {{{20, 13, 9}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{3, 1}, {60, 40}, {35, 20}}}
                : new int[][][] {{{2, 3, 1}, {38, 20, 19}, {10, 10, 10}}};
        List<float[]> ref = run(spec, vp, src, rec, "portable");
        List<float[]> cpu = run(spec, vp, src, rec, "cpu");
        assertEquals(ref.size(), cpu.size());
        boolean moved = false;
        for (int a = 0; a < ref.size(); a++) {
            AcousticVectorKernelsTest.same(ref.get(a), cpu.get(a), "array " + a + " (0 = record, then snapshots)",
                    new int[0]);
            for (float v : ref.get(a)) {
                moved |= v != 0f;
            }
        }
        assertTrue(moved, "the wavefield never left zero: the comparison would be vacuous");
    }

    private static List<float[]> run(PropSpec spec, float[] vp, int[][][] src, int[][][] rec, String kernels) {
        String old = System.getProperty(CpuKernels.PROPERTY);
        System.setProperty(CpuKernels.PROPERTY, kernels);
        try (Propagator p = new Propagator(spec)) {
            List<float[]> out = new ArrayList<>();
            out.add(null);
            float[] w = Wavelets.ricker(1800.0 / spec.nt(), spec.nt(), spec.dt());
            float[] data = p.forward(w, src, rec, vp, spec.nt() / 3, (shot, n, f) -> out.add(f)).data();
            out.set(0, data);
            return out;
        } finally {
            if (old == null) {
                System.clearProperty(CpuKernels.PROPERTY);
            } else {
                System.setProperty(CpuKernels.PROPERTY, old);
            }
        }
    }
}
