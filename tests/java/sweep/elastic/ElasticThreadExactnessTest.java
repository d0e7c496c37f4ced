package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/** The elastic kernels give the same bits for any thread count (2-D and 3-D, CPML and free surface, all fields). */
class ElasticThreadExactnessTest {
    private static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }

    private static float[] run(int[] shape, int threads, ElasticSource type, int[][] src, int[][] recs) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        // a layered model with a fluid top, so that every parameter path (averaging, vs = 0, surface moduli) runs
        float[] vp = new float[cells];
        float[] vs = new float[cells];
        float[] rho = new float[cells];
        int perRow = cells / shape[0];
        for (int i = 0; i < cells; i++) {
            int z = i / perRow;
            vp[i] = z < 4 ? 1500f : 2000f + 15f * z + (i % 7);
            vs[i] = z < 4 ? 0f : 1000f + 7f * z;
            rho[i] = z < 4 ? 1000f : 2000f + 3f * (i % 5);
        }
        double dt = 1e-3;
        int nt = 120;
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(dt).nt(nt).abcn(6)
                .order(shape.length == 2 ? 8 : 4).freeSurface(true).threads(threads).build();
        List<ElasticField> fields = shape.length == 2 ? List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ)
                : List.of(ElasticField.VY, ElasticField.P, ElasticField.VX, ElasticField.VZ);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            Record r = p.forward(Wavelets.ricker(15, nt, dt), new int[][][] {src}, type, new int[][][] {recs}, fields,
                    new ElasticModel(vp, vs, rho));
            ElasticStepper st = p.stepper();
            float[] all = new float[r.data().length + st.v.length + st.s.length + st.psi.length];
            System.arraycopy(r.data(), 0, all, 0, r.data().length);
            System.arraycopy(st.v, 0, all, r.data().length, st.v.length);
            System.arraycopy(st.s, 0, all, r.data().length + st.v.length, st.s.length);
            System.arraycopy(st.psi, 0, all, r.data().length + st.v.length + st.s.length, st.psi.length);
            return all;
        }
    }

    @Test
    void sameBitsForOneTwoAndThreeThreads2d() {
        int[] shape = {40, 50};
        int[][] src = {{25, 10}, {12, 3}};
        int[][] recs = {{5, 0}, {30, 20}, {49, 39}};
        float[] one = run(shape, 1, ElasticSource.FX, src, recs);
        assertTrue(java.util.Arrays.stream(bits(one)).anyMatch(b -> b != 0));
        assertArrayEquals(bits(one), bits(run(shape, 2, ElasticSource.FX, src, recs)));
        assertArrayEquals(bits(one), bits(run(shape, 3, ElasticSource.FX, src, recs)));
    }

    @Test
    void sameBitsForOneTwoAndThreeThreads3d() {
        int[] shape = {20, 18, 22};
        int[][] src = {{10, 9, 6}};
        int[][] recs = {{3, 4, 0}, {15, 12, 10}, {21, 17, 19}};
        float[] one = run(shape, 1, ElasticSource.EXPLOSIVE, src, recs);
        assertTrue(java.util.Arrays.stream(bits(one)).anyMatch(b -> b != 0));
        assertArrayEquals(bits(one), bits(run(shape, 2, ElasticSource.EXPLOSIVE, src, recs)));
        assertArrayEquals(bits(one), bits(run(shape, 3, ElasticSource.EXPLOSIVE, src, recs)));
    }
}
