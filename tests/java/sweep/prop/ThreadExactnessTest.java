package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** Records and wavefields are bit-identical for 1, 2 and 3 Java-backend threads (2-D and 3-D, PML and free surface). */
class ThreadExactnessTest {
    @Test
    void bitIdenticalAcrossThreadCounts2d() {
        int nz = 57;
        int nx = 63;
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(260).abcn(12).freeSurface(true).build();
        float[] vp = TestModels.smoothRandom(3, 2300, 600, nz, nx);
        compare(spec, vp, new int[][][] {{{20, 9}}, {{40, 30}}}, new int[][][] {{{5, 3}, {60, 50}}, {{30, 1}, {2, 2}}});
    }

    @Test
    void bitIdenticalAcrossThreadCounts3d() {
        int n = 29;
        PropSpec spec = PropSpec.builder(n, n + 2, n - 3).dh(10).dt(1e-3).nt(150).abcn(8).order(6).build();
        float[] vp = TestModels.smoothRandom(4, 2300, 600, n, n + 2, n - 3);
        compare(spec, vp, new int[][][] {{{10, 12, 14}}}, new int[][][] {{{1, 2, 3}, {20, 25, 27}}});
    }

    private static void compare(PropSpec spec, float[] vp, int[][][] src, int[][][] rec) {
        int[][] ref = null;
        for (int threads = 1; threads <= 3; threads++) {
            List<float[]> snaps = new ArrayList<>();
            float[] r;
            try (Propagator p = new Propagator(spec.toBuilder().threads(threads).build())) {
                r = p.forward(Wavelets.ricker(15, spec.nt(), spec.dt()), src, rec, vp, 50, (s, n, f) -> snaps.add(f))
                        .data();
            }
            int[][] bits = new int[snaps.size() + 1][];
            bits[0] = toBits(r);
            for (int i = 0; i < snaps.size(); i++) {
                bits[i + 1] = toBits(snaps.get(i));
            }
            if (ref == null) {
                ref = bits;
            } else {
                for (int i = 0; i < ref.length; i++) {
                    assertArrayEquals(ref[i], bits[i], "threads=" + threads + " differs from 1 thread (array " + i + ")");
                }
            }
        }
    }

    private static int[] toBits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }
}
