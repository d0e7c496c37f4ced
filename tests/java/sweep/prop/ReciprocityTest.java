package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** Swapping source and receiver in a heterogeneous model gives the same trace. */
class ReciprocityTest {
    @Test
    void swapSourceAndReceiver2d() {
        int nz = 80;
        int nx = 100;
        double dt = 1e-3;
        int nt = 500;
        float[] vp = TestModels.smoothRandom(7, 2200, 500, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(dt).nt(nt).abcn(20).build();
        int[] a = {20, 15};
        int[] b = {75, 60};
        float[] w = Wavelets.ricker(12, nt, dt);
        check(spec, vp, w, a, b, "2-D");
        check(spec.toBuilder().freeSurface(true).build(), vp, w, a, b, "2-D free surface");
    }

    @Test
    void swapSourceAndReceiver3d() {
        int n = 40;
        double dt = 1e-3;
        int nt = 300;
        float[] vp = TestModels.smoothRandom(8, 2200, 500, n, n, n);
        PropSpec spec = PropSpec.builder(n, n, n).dh(10).dt(dt).nt(nt).abcn(10).freeSurface(true).build();
        check(spec, vp, Wavelets.ricker(12, nt, dt), new int[] {8, 10, 6}, new int[] {30, 25, 28}, "3-D free surface");
    }

    private static void check(PropSpec spec, float[] vp, float[] w, int[] a, int[] b, String label) {
        float[] ab;
        float[] ba;
        try (Propagator p = new Propagator(spec)) {
            ab = p.forward(w, new int[][][] {{a}}, new int[][][] {{b}}, vp).data();
            ba = p.forward(w, new int[][][] {{b}}, new int[][][] {{a}}, vp).data();
        }
        double num = 0;
        double den = 0;
        for (int t = 0; t < ab.length; t++) {
            num += Math.pow(ab[t] - ba[t], 2);
            den += Math.pow(ab[t], 2);
        }
        double err = Math.sqrt(num / den);
        System.out.printf("reciprocity %s: relative L2 difference %.3e%n", label, err);
        assertTrue(den > 0);
        assertTrue(err < 1e-4, label + " reciprocity error " + err);
    }
}
