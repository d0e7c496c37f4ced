package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.backend.CpuKernels;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * The fused velocity-stress pass ({@link ElasticStepper#fusedStep}) gives the bits of the sub-steps run one after
 * another, and the Vector API kernels the bits of the portable ones, over whole runs: records and every field and
 * memory variable after the last step, for 1, 2 and 3 threads (sources and receivers on and next to the rows where the
 * threads' chunks meet), force and explosive sources, with and without a free surface over a fluid layer (zeros,
 * images and CPML bands everywhere), 2-D and 3-D, orders 4 and 8.
 */
class ElasticFusedStepTest {
    private static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }

    /** Records, then velocities, stresses and memory variables after the last step. */
    private static float[] run(int[] shape, int order, boolean fs, int threads, ElasticSource type, boolean fused,
                               boolean portable) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        float[] vs = new float[cells];
        float[] rho = new float[cells];
        int perRow = cells / shape[0];
        for (int i = 0; i < cells; i++) {
            int z = i / perRow;
            vp[i] = z < 3 ? 1500f : 2000f + 15f * z + (i % 7);
            vs[i] = z < 3 ? 0f : 1000f + 7f * z;
            rho[i] = z < 3 ? 1000f : 2000f + 3f * (i % 5);
        }
        int nd = shape.length;
        int nx = shape[nd - 1];
        int nz = shape[0];
        int[][] src;
        int[][] recs;
        if (nd == 2) {
            src = new int[][] {{nx / 2, nz / 2}, {nx / 3, nz / 2 - 1}, {5, 1}, {nx - 4, nz - 2}};
            recs = new int[][] {{3, 0}, {nx / 2, nz / 2 + 1}, {nx - 1, nz - 1}, {nx / 2 + 1, 2}};
        } else {
            int ny = shape[1];
            src = new int[][] {{nx / 2, ny / 2, nz / 2}, {3, 2, 1}};
            recs = new int[][] {{2, 3, 0}, {nx / 2, ny / 2, nz / 2 + 1}, {nx - 1, ny - 1, nz - 1}};
        }
        double dt = 1e-3;
        int nt = 60;
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(dt).nt(nt).abcn(6)
                .order(order).freeSurface(fs).threads(threads).build();
        List<ElasticField> fields = nd == 2 ? List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ)
                : List.of(ElasticField.VY, ElasticField.P, ElasticField.VX, ElasticField.VZ);
        String old = System.getProperty(CpuKernels.PROPERTY);
        System.setProperty(CpuKernels.PROPERTY, portable ? "portable" : "auto");
        try (ElasticSolver p = new ElasticSolver(spec)) {
            p.fuseSubSteps(fused);
            Record r = p.forward(Wavelets.ricker(20, nt, dt), new int[][][] {src}, type, new int[][][] {recs}, fields,
                    new ElasticModel(vp, vs, rho));
            ElasticStepper st = p.stepper();
            float[] all = new float[r.data().length + st.v.length + st.s.length + st.psi.length];
            System.arraycopy(r.data(), 0, all, 0, r.data().length);
            System.arraycopy(st.v, 0, all, r.data().length, st.v.length);
            System.arraycopy(st.s, 0, all, r.data().length + st.v.length, st.s.length);
            System.arraycopy(st.psi, 0, all, r.data().length + st.v.length + st.s.length, st.psi.length);
            return all;
        } finally {
            if (old == null) {
                System.clearProperty(CpuKernels.PROPERTY);
            } else {
                System.setProperty(CpuKernels.PROPERTY, old);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"2, 8, true, FZ", "2, 8, false, EXPLOSIVE", "2, 4, true, FX", "3, 8, true, EXPLOSIVE",
                "3, 4, false, FY"})
    void fusedEqualsSeparateAndCpuEqualsPortable(int nd, int order, boolean fs, ElasticSource type) {
        int[] shape = nd == 2 ? new int[] {37, 45} : new int[] {17, 13, 21};
        float[] reference = run(shape, order, fs, 1, type, false, true);
        assertTrue(java.util.Arrays.stream(bits(reference)).anyMatch(b -> b != 0));
        int[] want = bits(reference);
        for (int threads = 1; threads <= 3; threads++) {
            String what = nd + "-D order " + order + (fs ? " free surface " : " ") + type + ", " + threads
                    + " thread(s)";
            assertArrayEquals(want, bits(run(shape, order, fs, threads, type, true, false)), "fused, CPU kernels, "
                    + what);
            assertArrayEquals(want, bits(run(shape, order, fs, threads, type, false, false)), "separate, CPU kernels, "
                    + what);
            assertArrayEquals(want, bits(run(shape, order, fs, threads, type, true, true)), "fused, portable, "
                    + what);
        }
    }
}
