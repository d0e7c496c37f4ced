package sweep.acousticvd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.acousticvd.kernels.AcousticVdAdjointKernels;
import sweep.acousticvd.kernels.AcousticVdKernels;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * The Vector API step kernels against the portable ones, bit for bit: random fields, memory variables and
 * coefficients on 2-D and 3-D grids whose rows have x-band segments of whole vectors and tails shorter than a vector
 * (CPML 5 to 20 cells), orders 2 to 16,
 * with and without a free surface (no top band), the taped brackets included.
 */
class AcousticVdVectorKernelsTest {
    private static float[] random(Random r, int n, double scale) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) (scale * r.nextGaussian());
        }
        return a;
    }

    /**
     * The grids of the tests: 2-D and 3-D, rows with x-band segments of whole vectors and tails shorter than a vector
     * (CPML 5 to 20 cells), orders 2 to 16 (order 8, which has kernels of its own in 2-D, in both), with and without a
     * free surface.
     */
    private static List<Grid> grids() {
        int[][] shapes = {{13, 37}, {17, 64}, {7, 9, 23}, {6, 8, 40}, {6, 7, 33}};
        int[] orders = {2, 8, 16, 4, 8};
        int[] abcn = {20, 5, 18, 20, 6};
        List<Grid> out = new ArrayList<>();
        for (int c = 0; c < shapes.length; c++) {
            for (boolean fs : new boolean[] {false, true}) {
                out.add(Grid.single(PropSpec.builder(shapes[c]).equation(AcousticVdEquation.NAME).dh(10).dt(1e-3)
                        .nt(1).abcn(abcn[c]).order(orders[c]).freeSurface(fs).build()));
            }
        }
        return out;
    }

    private static String describe(Grid g) {
        return g.ndim() + "-D " + Arrays.toString(g.spec.shape()) + " order " + g.spec.order() + " fs "
                + g.spec.freeSurface();
    }

    @Test
    void vectorKernelsGiveThePortableBits() {
        int seed = 1;
        for (Grid g : grids()) {
            int[] geo = g.geo();
            int nd = g.ndim();
            int len = g.length();
            float[] prof = g.staggeredProfiles(3000);
            Random r = new Random(seed++);
            float[] coef = random(r, 3 * (g.spec.order() / 2), 0.1);
            float[] p = random(r, len, 1);
            float[] v = random(r, nd * len, 1e-3);
            float[] bv = random(r, nd * len, 1e-3);
            float[] kdt = random(r, len, 1e4);
            float[] psi = random(r, nd * len, 0.1);
            int cells = g.nz() * g.ny() * g.nx();
            String what = describe(g);
            for (int pass = 0; pass < 2; pass++) {
                float[] pa = p.clone();
                float[] va = v.clone();
                float[] sa = psi.clone();
                float[] ta = new float[(1 + nd) * cells];
                float[] pb = p.clone();
                float[] vb = v.clone();
                float[] sb = psi.clone();
                float[] tb = new float[(1 + nd) * cells];
                if (pass == 0) {
                    AcousticVdKernels.velocity(pa, va, bv, sa, prof, coef, geo, 0, g.nz(), 0, g.ny(), 0, g.nx(),
                            ta, 0, 1);
                    AcousticVdVectorKernels.velocity(pb, vb, bv, sb, prof, coef, geo, 0, g.nz(), tb, 0, 1);
                } else {
                    AcousticVdKernels.pressure(pa, va, kdt, sa, prof, coef, geo, 0, g.nz(), 0, g.ny(), 0, g.nx(),
                            ta, 0, 1);
                    AcousticVdVectorKernels.pressure(pb, vb, kdt, sb, prof, coef, geo, 0, g.nz(), tb, 0, 1);
                }
                String step = what + (pass == 0 ? " velocity" : " pressure");
                assertArrayEquals(pa, pb, step + ": p");
                assertArrayEquals(va, vb, step + ": v");
                assertArrayEquals(sa, sb, step + ": memory variables");
                assertArrayEquals(ta, tb, step + ": brackets");
            }
        }
    }
    /**
     * The Vector API transposed sub-steps, boundary saving's backward steps and brackets against the portable ones,
     * bit for bit, on the grids of the forward test.
     */
    @Test
    void vectorAdjointKernelsGiveThePortableBits() {
        int seed = 11;
        for (Grid g : grids()) {
            int[] geo = g.geo();
            int nd = g.ndim();
            int len = g.length();
            int fsi = g.spec.freeSurface() ? 1 : 0;
            float[] prof = g.staggeredProfiles(3000);
            Random r = new Random(seed++);
            float[] coef = random(r, 3 * (g.spec.order() / 2), 0.1);
            int cells = g.nz() * g.ny() * g.nx();
            float[] tape = random(r, (1 + nd) * cells, 1);
            float[] kdt = random(r, len, 1e4);
            float[] bv = random(r, nd * len, 1e-3);
            float[] in = random(r, nd * len, 1);
            String what = describe(g);
            for (int pass = 0; pass < 7; pass++) {
                float[] fa = random(r, nd * len, 1);
                float[] fb = fa.clone();
                float[] sa = random(r, nd * len, 0.1);
                float[] sb = sa.clone();
                float[] oa = random(r, nd * len, 1);
                float[] ob = oa.clone();
                float[] ga = random(r, nd * len, 1);
                float[] gb = ga.clone();
                switch (pass) {
                    case 0 -> { // without, then with the extra term of the visco-acoustic memory variables
                        float[] extra = random(r, g.nz() * g.ny() * g.nx(), 1);
                        for (int with = 0; with < 2; with++) {
                            AcousticVdAdjointKernels.pressurePoint(fa, sa, kdt, prof, oa, ga, geo, 0, g.nz(), 0,
                                    g.ny(), 0, g.nx(), tape, 0, extra, with);
                            AcousticVdVectorAdjointKernels.pressurePoint(fb, sb, kdt, prof, ob, gb, geo, 0, g.nz(),
                                    tape, 0, extra, with);
                        }
                    }
                    case 1 -> {
                        AcousticVdAdjointKernels.velocityPoint(fa, sa, bv, prof, oa, ga, geo, 0, g.nz(), 0, g.ny(),
                                0, g.nx(), tape, 0);
                        AcousticVdVectorAdjointKernels.velocityPoint(fb, sb, bv, prof, ob, gb, geo, 0, g.nz(),
                                tape, 0);
                    }
                    case 2 -> {
                        AcousticVdAdjointKernels.velocityGather(fa, in, coef, geo, fsi, 0, g.nz(), 0, g.ny(), 0,
                                g.nx());
                        AcousticVdVectorAdjointKernels.velocityGather(fb, in, coef, geo, fsi, 0, g.nz());
                    }
                    case 3 -> {
                        AcousticVdAdjointKernels.pressureGather(fa, in, coef, geo, fsi, 0, g.nz(), 0, g.ny(), 0,
                                g.nx());
                        AcousticVdVectorAdjointKernels.pressureGather(fb, in, coef, geo, fsi, 0, g.nz());
                    }
                    case 4 -> { // boundary saving: a box of rows and columns inside the grid
                        AcousticVdAdjointKernels.reversePressure(fa, in, kdt, coef, geo, 2, g.nz() - 1, 0, g.ny(),
                                3, g.nx() - 2);
                        AcousticVdVectorAdjointKernels.reversePressure(fb, in, kdt, coef, geo, 2, g.nz() - 1, 0,
                                g.ny(), 3, g.nx() - 2);
                    }
                    case 5 -> {
                        AcousticVdAdjointKernels.reverseVelocity(in, fa, bv, coef, geo, 2, g.nz() - 1, 0, g.ny(), 3,
                                g.nx() - 2);
                        AcousticVdVectorAdjointKernels.reverseVelocity(in, fb, bv, coef, geo, 2, g.nz() - 1, 0,
                                g.ny(), 3, g.nx() - 2);
                    }
                    default -> {
                        float[] ta = new float[(1 + nd) * cells];
                        float[] tb = new float[(1 + nd) * cells];
                        for (int which = 0; which < 2; which++) {
                            AcousticVdAdjointKernels.brackets(in, in, coef, geo, which, 0, g.nz(), 0, g.ny(), 0,
                                    g.nx(), ta, 0);
                            AcousticVdVectorAdjointKernels.brackets(in, in, coef, geo, which, 0, g.nz(), tb, 0);
                        }
                        assertArrayEquals(ta, tb, what + ": brackets");
                    }
                }
                String step = what + " transposed sub-step " + pass;
                assertArrayEquals(fa, fb, step + ": adjoint field");
                assertArrayEquals(sa, sb, step + ": adjoint memory variables");
                assertArrayEquals(oa, ob, step + ": scaled adjoints");
                assertArrayEquals(ga, gb, step + ": node gradient");
            }
        }
    }
}
