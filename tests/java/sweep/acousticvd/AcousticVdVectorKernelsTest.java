package sweep.acousticvd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
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

    @Test
    void vectorKernelsGiveThePortableBits() {
        int[][] shapes = {{13, 37}, {17, 64}, {7, 9, 23}, {6, 8, 40}};
        int[] orders = {2, 8, 16, 4};
        int[] abcn = {20, 5, 18, 20};
        int seed = 1;
        for (int c = 0; c < shapes.length; c++) {
            for (boolean fs : new boolean[] {false, true}) {
                int[] shape = shapes[c];
                PropSpec spec = PropSpec.builder(shape).equation(AcousticVdEquation.NAME).dh(10).dt(1e-3).nt(1)
                        .abcn(abcn[c]).order(orders[c]).freeSurface(fs).build();
                Grid g = Grid.single(spec);
                int[] geo = g.geo();
                int nd = g.ndim();
                int len = g.length();
                float[] prof = g.staggeredProfiles(3000);
                float[] coef = new float[3 * (orders[c] / 2)];
                Random r = new Random(seed++);
                for (int k = 0; k < coef.length; k++) {
                    coef[k] = (float) (0.1 * r.nextGaussian());
                }
                float[] p = random(r, len, 1);
                float[] v = random(r, nd * len, 1e-3);
                float[] bv = random(r, nd * len, 1e-3);
                float[] kdt = random(r, len, 1e4);
                float[] psi = random(r, nd * len, 0.1);
                int cells = g.nz() * g.ny() * g.nx();
                String what = nd + "-D " + java.util.Arrays.toString(shape) + " order " + orders[c] + " fs " + fs;
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
    }
}
