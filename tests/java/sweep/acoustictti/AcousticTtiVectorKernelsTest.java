package sweep.acoustictti;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import sweep.backend.CpuKernels;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;
import sweep.prop.TestModels;

/**
 * The Vector API twins of the forward and adjoint kernels ({@link AcousticTtiVectorKernels}) against the portable
 * ones, bit for bit, through whole runs: the record, the misfit, dJ/dvp, dJ/depsilon, dJ/ddelta, dJ/dtheta and
 * dJ/dwavelet (the gradient's forward and checkpoint re-runs tape through the twins, its adjoint runs their
 * transposes), with a tilt varying per cell, on grids whose rows
 * have x bands, plain segments of whole vectors and tails shorter than a vector, rows shorter than the bands (CPML 3
 * to 20 cells), orders 2 to 16, with and without a free surface.
 */
class AcousticTtiVectorKernelsTest {
    @Test
    void vectorKernelsGiveThePortableBits() {
        compare(new int[][] {{13, 37}, {17, 64}, {9, 11}, {21, 45}}, new int[] {2, 8, 16, 4}, new int[] {20, 5, 3, 10},
                80);
    }

    /**
     * The 3-D twins of the flux and update stages and of their transposes ({@link AcousticTti3dVectorKernels}) against
     * the portable kernels, bit for bit through whole runs, with a tilt and an azimuth varying per cell,
     * on grids whose rows have x bands, whole vectors and tails, with y and z bands, orders 4 and 8, with and without
     * a free surface.
     */
    @Test
    void threeDimensionalVectorKernelsGiveThePortableBits() {
        compare(new int[][] {{9, 10, 37}, {7, 12, 21}}, new int[] {8, 4}, new int[] {5, 3}, 30);
    }

    /** Mean and amplitude of each parameter's smooth random field: vp, epsilon, delta, theta, phi (3-D). */
    private static final double[][] FIELDS = {{2000, 200}, {0.15, 0.05}, {0.05, 0.04}, {20, 30}, {30, 60}};

    /**
     * Portable against Vector API kernels on each shape (CPML {@code abcn}, order {@code orders}) with and without a
     * free surface, {@code nt} steps: the record, the misfit, every parameter's gradient and dJ/dwavelet equal.
     */
    private static void compare(int[][] shapes, int[] orders, int[] abcn, int nt) {
        for (int c = 0; c < shapes.length; c++) {
            int[] shape = shapes[c];
            int nd = shape.length;
            int n = Arrays.stream(shape).reduce(1, (u, v) -> u * v);
            for (boolean fs : new boolean[] {false, true}) {
                PropSpec spec = PropSpec.builder(shape).equation(AcousticTtiEquation.NAME).dh(10).dt(1e-3).nt(nt)
                        .abcn(abcn[c]).order(orders[c]).freeSurface(fs).threads(2).storage(Storage.CHECKPOINTING)
                        .maxVel(3000).build();
                int count = spec.equation().parameterCount();
                float[] m = new float[count * n];
                for (int k = 0; k < count; k++) {
                    System.arraycopy(TestModels.smoothRandom(c + 10 * k, FIELDS[k][0], FIELDS[k][1], shape), 0, m,
                            k * n, n);
                }
                int[][][] src = {{nd == 2 ? new int[] {shape[1] / 2, 1} : new int[] {shape[2] / 2, shape[1] / 2, 1}}};
                int[][][] rec = {nd == 2 ? new int[][] {{1, shape[0] - 2}, {shape[1] - 1, 3}}
                    : new int[][] {{1, 2, shape[0] - 2}, {shape[2] - 1, shape[1] - 2, 3}}};
                float[] w = Wavelets.ricker(25, nt, 1e-3);
                String label = Arrays.toString(shape) + " order " + orders[c] + " abcn " + abcn[c] + " fs " + fs;
                Run portable = run(spec, w, src, rec, m, "portable");
                Run cpu = run(spec, w, src, rec, m, "cpu");
                assertArrayEquals(portable.record(), cpu.record(), label + ": record");
                assertEquals(portable.misfitBits(), cpu.misfitBits(), label + ": misfit");
                assertArrayEquals(portable.gradient(), cpu.gradient(), label + ": dJ/d"
                        + String.join(", ", spec.equation().parameterNames()));
                assertArrayEquals(portable.wavelet(), cpu.wavelet(), label + ": dJ/dwavelet");
                long nonzero = 0;
                for (float v : portable.gradient()) {
                    nonzero += v != 0f ? 1 : 0;
                }
                assertTrue(nonzero > 2 * n, label + ": the gradient is mostly zero (" + nonzero + " of " + count * n
                        + "): the comparison would be weak");
            }
        }
    }

    /** What a run gives: the record, the misfit's bits, the gradient and dJ/dwavelet. */
    private record Run(float[] record, long misfitBits, float[] gradient, float[] wavelet) {
    }

    /** A forward run and a gradient with the kernels property set to {@code kernels}. */
    private static Run run(PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] m, String kernels) {
        String old = System.getProperty(CpuKernels.PROPERTY);
        System.setProperty(CpuKernels.PROPERTY, kernels);
        try (Propagator p = new Propagator(spec)) {
            float[] record = p.forward(w, src, rec, m).data();
            float[] obs = new float[record.length];
            for (int i = 0; i < obs.length; i++) {
                obs[i] = 0.5f * record[record.length - 1 - i];
            }
            Gradient g = p.forwardAndGradient(w, src, rec, m, obs, Misfit.L2);
            assertEquals(spec.equation().parameterCount(), g.count());
            return new Run(record, Double.doubleToRawLongBits(g.misfit()), g.parameters(), g.wavelet());
        } finally {
            if (old == null) {
                System.clearProperty(CpuKernels.PROPERTY);
            } else {
                System.setProperty(CpuKernels.PROPERTY, old);
            }
        }
    }
}
