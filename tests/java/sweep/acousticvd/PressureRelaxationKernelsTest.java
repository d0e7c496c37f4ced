package sweep.acousticvd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import sweep.acousticvd.kernels.PressureRelaxationKernels;
import sweep.backend.CpuKernels;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.TestModels;

/**
 * The memory-variable kernels against mathematics: the transpose passes the dot-product test with the forward map
 * (p, s, e) → (p', s'), its node gradient equals the derivative of ⟨M(p, s, e), (p̄, s̄)⟩ in the coefficients
 * (written out here: s_l' moves by e, p' by e/2 per unit of c_l), and with no attenuation (c = 0, s = 0) the pressure
 * is left as it was.
 */
class PressureRelaxationKernelsTest {
    private static final int NMECH = 3;

    private static Grid grid(int... shape) {
        PropSpec spec = PropSpec.builder(shape).equation("acoustic-vd").dh(10).dt(1e-3).nt(4).order(4).abcn(3)
                .build();
        return Grid.single(spec);
    }

    @Test
    void transposePassesTheDotProductTestAndGivesTheCoefficientGradient() {
        for (int[] shape : new int[][] {{9, 11}, {5, 6, 7}}) {
            Grid g = grid(shape);
            int[] geo = g.geo();
            int len = g.length();
            int nz = g.nz();
            int ny = g.ny();
            int nx = g.nx();
            int cells = nz * ny * nx;
            Random r = new Random(7 + shape.length);
            float[] alpha = {0.8f, 0.9f, 0.97f};
            float[] c = TestModels.gaussian(r, NMECH * len);
            float[] p = TestModels.gaussian(r, len);
            float[] s = TestModels.gaussian(r, NMECH * len);
            float[] e = TestModels.gaussian(r, cells);
            float[] pb = TestModels.gaussian(r, len);
            float[] sb = TestModels.gaussian(r, NMECH * len);
            float[] p1 = p.clone();
            float[] s1 = s.clone();
            PressureRelaxationKernels.memory(p1, s1, c, alpha, e, 0, geo, NMECH, 0, nz, 0, ny, 0, nx);
            float[] pb1 = pb.clone();
            float[] sb1 = sb.clone();
            float[] gc = new float[NMECH * len];
            float[] eb = new float[cells];
            PressureRelaxationKernels.memoryTranspose(pb1, sb1, c, alpha, e, 0, gc, eb, geo, NMECH, 0, nz, 0, ny, 0,
                    nx);
            // <M x, y> over the computational cells against <x, M^T y>
            double lhs = 0;
            double rhs = 0;
            double gradFd = 0;
            double gradAdj = 0;
            double scale = 0;
            for (int z = 0; z < nz; z++) {
                for (int y = 0; y < ny; y++) {
                    for (int x = 0; x < nx; x++) {
                        int i = g.compIndex(z, y, x);
                        int cell = (z * ny + y) * nx + x;
                        lhs += (double) p1[i] * pb[i];
                        rhs += (double) p[i] * pb1[i] + (double) e[cell] * eb[cell];
                        scale += Math.abs((double) p1[i] * pb[i]);
                        double ds = 0;
                        for (int l = 0; l < NMECH; l++) {
                            int j = l * len + i;
                            lhs += (double) s1[j] * sb[j];
                            scale += Math.abs((double) s1[j] * sb[j]);
                            rhs += (double) s[j] * sb1[j];
                            // d<M x, y>/dc_l: s'_l moves by e, p' by e/2
                            ds = e[cell] * (sb[j] + 0.5 * pb[i]);
                            gradFd += ds;
                            gradAdj += gc[j];
                        }
                    }
                }
            }
            // float rounding of terms of size 1 that cancel: relative to the sum of the terms' sizes
            assertEquals(lhs, rhs, 1e-6 * scale, "dot-product test, " + shape.length + "-D");
            assertEquals(gradFd, gradAdj, 1e-6 * Math.abs(gradFd), "coefficient gradient, " + shape.length + "-D");
            System.out.printf("visco-acoustic memory kernels %d-D: dot-product difference %.2e of the terms' sizes%n",
                    shape.length, Math.abs(lhs - rhs) / scale);
        }
    }

    @Test
    void withoutAttenuationThePressureStays() {
        Grid g = grid(9, 11);
        int len = g.length();
        Random r = new Random(3);
        float[] p = TestModels.gaussian(r, len);
        float[] p1 = p.clone();
        float[] s = new float[NMECH * len];
        PressureRelaxationKernels.memory(p1, s, new float[NMECH * len], new float[] {0.5f, 0.6f, 0.7f},
                TestModels.gaussian(r, g.nz() * g.nx()), 0, g.geo(), NMECH, 0, g.nz(), 0, 1, 0, g.nx());
        for (int i = 0; i < len; i++) {
            assertEquals(p[i], p1[i], 0f);
        }
        for (float v : s) {
            assertTrue(v == 0f);
        }
    }

    /**
     * The Vector API twins give the portable kernels' bits, forward and transpose, 2-D and 3-D, on rows longer and
     * shorter than a vector with a tail, the divergence read from an offset, on part of the rows.
     */
    @Test
    void vectorTwinsGiveThePortableBits() {
        Assumptions.assumeTrue(CpuKernels.vectorAvailable(), "no jdk.incubator.vector module");
        for (int[] shape : new int[][] {{9, 11}, {7, 29}, {5, 6, 7}, {4, 3, 21}}) {
            Grid g = grid(shape);
            int[] geo = g.geo();
            int len = g.length();
            int nz = g.nz();
            int ny = g.ny();
            int nx = g.nx();
            int cells = nz * ny * nx;
            Random r = new Random(11 + shape[shape.length - 1]);
            float[] alpha = {0.8f, 0.9f, 0.97f};
            float[] c = TestModels.gaussian(r, NMECH * len);
            float[] p = TestModels.gaussian(r, len);
            float[] s = TestModels.gaussian(r, NMECH * len);
            float[] e = TestModels.gaussian(r, cells + 5);
            float[] gc = TestModels.gaussian(r, NMECH * len);
            float[][] a = {p.clone(), s.clone()};
            float[][] b = {p.clone(), s.clone()};
            PressureRelaxationKernels.memory(a[0], a[1], c, alpha, e, 5, geo, NMECH, 1, nz - 1, 0, ny, 0, nx);
            PressureRelaxationVectorKernels.memory(b[0], b[1], c, alpha, e, 5, geo, NMECH, 1, nz - 1);
            String what = shape.length + "-D " + Arrays.toString(shape);
            assertArrayEquals(a[0], b[0], what + ": pressure");
            assertArrayEquals(a[1], b[1], what + ": memory variables");
            float[][] ta = {p.clone(), s.clone(), gc.clone(), new float[cells]};
            float[][] tb = {p.clone(), s.clone(), gc.clone(), new float[cells]};
            PressureRelaxationKernels.memoryTranspose(ta[0], ta[1], c, alpha, e, 5, ta[2], ta[3], geo, NMECH, 1,
                    nz - 1, 0, ny, 0, nx);
            PressureRelaxationVectorKernels.memoryTranspose(tb[0], tb[1], c, alpha, e, 5, tb[2], tb[3], geo, NMECH, 1,
                    nz - 1);
            for (int k = 0; k < 4; k++) {
                assertArrayEquals(ta[k], tb[k], what + ": transpose array " + k);
            }
        }
    }
}
