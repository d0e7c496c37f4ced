package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Adjoint dot-product tests of the linear map wavelet → record (F) against the adjoint run (Fᵀ: record → wavelet):
 * |⟨F s, r⟩ − ⟨s, Fᵀ r⟩| / max(|⟨F s, r⟩|, |⟨s, Fᵀ r⟩|) < 1e-5, with PML on all sides and with a free surface.
 */
class AdjointTest {
    static double dotTest(PropSpec spec, float[] vp, int[][] src, int[][] rec, long seed) {
        Random rnd = new Random(seed);
        int nt = spec.nt();
        float[] s = new float[nt];
        for (int i = 0; i < nt; i++) {
            s[i] = (float) rnd.nextGaussian();
        }
        try (Propagator p = new Propagator(spec)) {
            float[] fs = p.forwardForGradient(s, new int[][][] {src}, new int[][][] {rec}, vp).data();
            // r: random magnitudes with the signs of F s, so that <F s, r> is not a sum with heavy cancellation
            // (with independent random signs the float rounding of the records, amplified ~500x, dominates).
            float[] r = new float[fs.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = (float) (Math.signum(fs[i]) * Math.abs(rnd.nextGaussian()));
            }
            float[] ftr = p.gradient(r).wavelet();
            double a = 0;
            double b = 0;
            for (int i = 0; i < r.length; i++) {
                a += (double) fs[i] * r[i];
            }
            for (int i = 0; i < nt; i++) {
                b += (double) s[i] * ftr[i];
            }

            double rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
            System.out.printf("dot-product test %dD fs=%b storage=%s: <Fs,r>=%.9e <s,F'r>=%.9e rel=%.2e%n",
                    spec.ndim(), spec.freeSurface(), spec.storage(), a, b, rel);
            return rel;
        }
    }

    @Test
    void dotProduct2d() {
        int nz = 40;
        int nx = 50;
        float[] vp = TestModels.smoothRandom(11, 2200, 500, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(300).abcn(10).storage(Storage.FULL).build();
        int[][] src = {{12, 17}};
        int[][] rec = {{3, 2}, {45, 30}, {20, 39}, {12, 17}};
        assertTrue(dotTest(spec, vp, src, rec, 1) < 1e-5);
        assertTrue(dotTest(spec.toBuilder().freeSurface(true).build(), vp, src, rec, 2) < 1e-5);
        assertTrue(dotTest(spec.toBuilder().freeSurface(true).order(4).storage(Storage.BOUNDARY_SAVING).build(), vp,
                src, new int[][] {{30, 0}, {30, 1}, {5, 35}}, 3) < 1e-5);
    }

    @Test
    void dotProduct3d() {
        int n = 24;
        float[] vp = TestModels.smoothRandom(12, 2200, 500, n, n + 2, n - 2);
        PropSpec spec = PropSpec.builder(n, n + 2, n - 2).dh(10).dt(1e-3).nt(120).abcn(6).order(6)
                .storage(Storage.FULL).build();
        int[][] src = {{8, 9, 10}};
        int[][] rec = {{1, 2, 3}, {20, 24, 22}, {11, 3, 1}};
        assertTrue(dotTest(spec, vp, src, rec, 4) < 1e-5);
        assertTrue(dotTest(spec.toBuilder().freeSurface(true).build(), vp, src, rec, 5) < 1e-5);
    }
}
