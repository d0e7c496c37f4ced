package sweep.acoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.backend.CpuKernels;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Whole gradients (dJ/dvp, dJ/dwavelet and the misfit) on the CPU adjoint kernels, fused boundary-saving pass
 * included, give the same bits as runs forced onto the portable kernels with {@code -Dsweep.kernels=portable}: 2-D and
 * 3-D, FULL and BOUNDARY_SAVING, free surface on and off, 1 and 2 threads, two shots, a source in the PML pad-free
 * interior, one near the model edge and one duplicated.
 */
class AcousticVectorGradientTest {

    @ParameterizedTest(name = "{0}-D {1} order {2} free surface {3} threads {4}")
    @CsvSource({"2,BOUNDARY_SAVING,8,false,1", "2,BOUNDARY_SAVING,8,true,2", "2,FULL,8,false,2", "2,FULL,4,true,1",
        "2,BOUNDARY_SAVING,16,true,1", "3,BOUNDARY_SAVING,8,false,2", "3,BOUNDARY_SAVING,6,true,1",
        "3,FULL,8,true,2", "3,FULL,4,false,1"})
    void gradientMatchesPortableKernels(int ndim, Storage storage, int order, boolean freeSurface, int threads) {
        int[] shape = ndim == 2 ? new int[] {45, 71} : new int[] {23, 27, 41};
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(70).order(order).abcn(10).freeSurface(freeSurface)
                .threads(threads).storage(storage).build();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Random r = new Random(ndim * 100 + order);
        for (int i = 0; i < cells; i++) {
            vp[i] = 1800f + 900f * r.nextFloat();
        }
        int[][][] src = ndim == 2
                ? new int[][][] {{{30, 12}, {30, 12}, {0, 44}}, {{5, 3}, {66, 40}, {20, 20}}}
                : new int[][][] {{{20, 13, 9}, {20, 13, 9}, {0, 0, 22}}, {{3, 4, 5}, {37, 20, 18}, {10, 10, 10}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{3, 1}, {60, 40}, {35, 20}}, {{7, 2}, {50, 30}, {35, 21}}}
                : new int[][][] {{{2, 3, 1}, {38, 20, 19}, {10, 10, 10}}, {{5, 5, 5}, {30, 20, 11}, {12, 11, 10}}};
        float[] obs = new float[2 * spec.nt() * 3];
        for (int i = 0; i < obs.length; i++) {
            obs[i] = 1e-3f * (r.nextFloat() - 0.5f);
        }
        float[] wav = Wavelets.ricker(15, spec.nt(), spec.dt());
        Gradient ref = run(spec, wav, src, rec, vp, obs, "portable", null);
        // 3-D boundary saving: the fused pass in y blocks of 5 and of 3 rows (smaller than the stencil's reach)
        String yBlock = ndim == 3 && storage == Storage.BOUNDARY_SAVING ? (order == 8 ? "5" : "3") : null;
        Gradient cpu = run(spec, wav, src, rec, vp, obs, "cpu", yBlock);
        assertEquals(Double.doubleToRawLongBits(ref.misfit()), Double.doubleToRawLongBits(cpu.misfit()), "misfit");
        AcousticVectorKernelsTest.same(ref.vp(), cpu.vp(), "dJ/dvp", new int[0]);
        AcousticVectorKernelsTest.same(ref.wavelet(), cpu.wavelet(), "dJ/dwavelet", new int[0]);
        int nonzero = 0;
        for (float v : ref.vp()) {
            nonzero += v != 0f ? 1 : 0;
        }
        assertTrue(nonzero > cells / 2, "the gradient is mostly zero (" + nonzero + " of " + cells
                + " cells): the comparison would be weak");
    }

    /** A gradient with the kernels property set to {@code kernels} and, unless null, the fused pass's y block. */
    private static Gradient run(PropSpec spec, float[] wav, int[][][] src, int[][][] rec, float[] vp, float[] obs,
                                String kernels, String yBlock) {
        String old = System.getProperty(CpuKernels.PROPERTY);
        String oldBlock = System.getProperty(CpuKernels.ADJ_Y_BLOCK_PROPERTY);
        System.setProperty(CpuKernels.PROPERTY, kernels);
        if (yBlock != null) {
            System.setProperty(CpuKernels.ADJ_Y_BLOCK_PROPERTY, yBlock);
        }
        try (Propagator p = new Propagator(spec)) {
            return p.forwardAndGradient(wav, src, rec, vp, obs, Misfit.L2);
        } finally {
            restore(CpuKernels.PROPERTY, old);
            restore(CpuKernels.ADJ_Y_BLOCK_PROPERTY, oldBlock);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    /**
     * A second gradient on the same propagator gives the bits of the first: the adjoint run clears its PML auxiliaries
     * only on the band cells after a first run (the rest stays zero), and nothing of a run leaks into the next.
     */
    @ParameterizedTest(name = "{0}-D {1}")
    @CsvSource({"2,BOUNDARY_SAVING", "3,BOUNDARY_SAVING", "3,FULL"})
    void repeatedGradientIsBitIdentical(int ndim, Storage storage) {
        int[] shape = ndim == 2 ? new int[] {45, 71} : new int[] {23, 27, 41};
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(60).order(8).abcn(10).threads(2).storage(storage)
                .build();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Random r = new Random(7 + ndim);
        for (int i = 0; i < cells; i++) {
            vp[i] = 1800f + 900f * r.nextFloat();
        }
        int[][][] src = ndim == 2 ? new int[][][] {{{30, 12}}, {{2, 40}}} : new int[][][] {{{20, 13, 9}}, {{1, 2, 20}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{3, 1}, {60, 40}}, {{7, 2}, {50, 30}}}
                : new int[][][] {{{2, 3, 1}, {38, 20, 19}}, {{5, 5, 5}, {30, 20, 11}}};
        float[] obs = new float[2 * spec.nt() * 2];
        float[] wav = Wavelets.ricker(15, spec.nt(), spec.dt());
        try (Propagator p = new Propagator(spec)) {
            Gradient a = p.forwardAndGradient(wav, src, rec, vp, obs, Misfit.L2);
            Gradient b = p.forwardAndGradient(wav, src, rec, vp, obs, Misfit.L2);
            AcousticVectorKernelsTest.same(a.vp(), b.vp(), "dJ/dvp, second call", new int[0]);
            AcousticVectorKernelsTest.same(a.wavelet(), b.wavelet(), "dJ/dwavelet, second call", new int[0]);
        }
        // the second shot alone on a fresh propagator: same as after the first shot's run
        try (Propagator p = new Propagator(spec); Propagator q = new Propagator(spec)) {
            Gradient two = p.forwardAndGradient(wav, src, rec, vp, obs, Misfit.L2);
            Gradient one = q.forwardAndGradient(wav, new int[][][] {src[0]}, new int[][][] {rec[0]}, vp,
                    new float[spec.nt() * 2], Misfit.L2);
            Gradient other = q.forwardAndGradient(wav, new int[][][] {src[1]}, new int[][][] {rec[1]}, vp,
                    new float[spec.nt() * 2], Misfit.L2);
            float[] sum = one.vp().clone();
            for (int i = 0; i < sum.length; i++) {
                sum[i] += other.vp()[i];
            }
            AcousticVectorKernelsTest.same(two.vp(), sum, "dJ/dvp, shots one by one", new int[0]);
        }
    }
}
