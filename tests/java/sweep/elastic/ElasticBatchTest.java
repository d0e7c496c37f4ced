package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/** A batch of shots (one wavelet per shot) gives, shot by shot, the bits of separate single-shot runs. */
class ElasticBatchTest {
    @Test
    void batchEqualsSingleShots() {
        int nz = 30;
        int nx = 40;
        double dt = 1e-3;
        int nt = 150;
        PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(dt).nt(nt).abcn(8)
                .freeSurface(true).threads(2).build();
        ElasticModel m = ElasticModel.constant(nz * nx, 2500f, 1200f, 2100f);
        float[] w0 = Wavelets.ricker(12, nt, dt);
        float[] w1 = Wavelets.ricker(9, nt, dt);
        float[] both = new float[2 * nt];
        System.arraycopy(w0, 0, both, 0, nt);
        System.arraycopy(w1, 0, both, nt, nt);
        int[][][] src = {{{10, 5}, {12, 6}}, {{30, 20}, {30, 20}}};
        int[][][] rec = {{{2, 0}, {39, 29}, {20, 10}}, {{5, 5}, {6, 6}, {7, 7}}};
        List<ElasticField> f = List.of(ElasticField.VZ, ElasticField.P);
        try (ElasticSolver p = new ElasticSolver(spec)) {
            Record all = p.forward(both, src, ElasticSource.FZ, rec, f, m);
            assertEquals(2, all.shots());
            int per = nt * 3 * 2;
            Record a = p.forward(w0, new int[][][] {src[0]}, ElasticSource.FZ, new int[][][] {rec[0]}, f, m);
            Record b = p.forward(w1, new int[][][] {src[1]}, ElasticSource.FZ, new int[][][] {rec[1]}, f, m);
            assertArrayEquals(a.data(), Arrays.copyOfRange(all.data(), 0, per));
            assertArrayEquals(b.data(), Arrays.copyOfRange(all.data(), per, 2 * per));
        }
    }
}
