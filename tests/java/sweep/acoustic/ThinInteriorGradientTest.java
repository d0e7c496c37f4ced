package sweep.acoustic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sweep.backend.CpuKernels;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * A boundary-saving gradient on a grid whose interior is thinner than the stencil (no cell has its whole stencil in
 * the interior, so the fused pass forms no λ itself) runs on the Vector API kernels and gives the portable kernels'
 * bits. (The fused pass once dereferenced the missing box there.)
 */
class ThinInteriorGradientTest {
    @ParameterizedTest(name = "{0}-D")
    @ValueSource(ints = {2, 3})
    void gradientMatchesPortableKernels(int ndim) {
        int[] shape = ndim == 2 ? new int[] {7, 9} : new int[] {7, 7, 7};
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(30).order(8).abcn(2)
                .storage(Storage.BOUNDARY_SAVING).build();
        int cells = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        float[] vp = new float[cells];
        for (int i = 0; i < cells; i++) {
            vp[i] = 2000f + 10f * (i % 7);
        }
        int[][][] src = ndim == 2 ? new int[][][] {{{4, 3}}} : new int[][][] {{{3, 3, 3}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{1, 1}, {7, 5}}} : new int[][][] {{{1, 1, 1}, {5, 5, 5}}};
        float[] obs = new float[spec.nt() * 2];
        float[] wav = Wavelets.ricker(25, spec.nt(), spec.dt());
        Gradient portable = run(spec, wav, src, rec, vp, obs, "portable");
        Gradient vector = run(spec, wav, src, rec, vp, obs, "cpu");
        assertEquals(Double.doubleToRawLongBits(portable.misfit()), Double.doubleToRawLongBits(vector.misfit()));
        AcousticVectorKernelsTest.same(portable.vp(), vector.vp(), "dJ/dvp", new int[0]);
        AcousticVectorKernelsTest.same(portable.wavelet(), vector.wavelet(), "dJ/dwavelet", new int[0]);
        assertTrue(Arrays.stream(toDouble(portable.vp())).anyMatch(v -> v != 0), "the gradient is all zero");
    }

    private static double[] toDouble(float[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }

    private static Gradient run(PropSpec spec, float[] wav, int[][][] src, int[][][] rec, float[] vp, float[] obs,
                                String kernels) {
        String old = System.getProperty(CpuKernels.PROPERTY);
        System.setProperty(CpuKernels.PROPERTY, kernels);
        try (Propagator p = new Propagator(spec)) {
            return p.forwardAndGradient(wav, src, rec, vp, obs, Misfit.L2);
        } finally {
            if (old == null) {
                System.clearProperty(CpuKernels.PROPERTY);
            } else {
                System.setProperty(CpuKernels.PROPERTY, old);
            }
        }
    }
}
