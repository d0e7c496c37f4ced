package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import sweep.parallel.MpiRunner;

/**
 * The decomposed FWI (two bands in 2-D, one in 3-D) follows the single-domain one under a real mpirun (2 tiles, with
 * the trace-normalised correlation misfit; 2 shot groups × 2 tiles with encoded supershots, one per group, and the
 * wavelet estimated per band; 3-D on 2 × 2 tiles with the envelope misfit; all with illumination preconditioning and
 * each rank holding only its tile of the optimiser's arrays), in one launch of 4 ranks.
 */
class FwiMpiTest {
    @Test
    void decomposedFwiFollowsSingleDomain() throws Exception {
        String[] meshes = {"1:2:1:0:pn", "1:2:2:2:ep", "2:2:1:0:p3v"};
        MpiRunner.Result r = MpiRunner.run(4, FwiDdCheckMain.class, meshes);
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(2, r.linesStartingWith("OK rank").stream().filter(l -> l.contains(" 1:2:1:0:pn ")).count(),
                r.describe());
        assertEquals(4, r.linesStartingWith("OK rank").stream().filter(l -> l.contains(" 1:2:2:2:ep ")).count(),
                r.describe());
        assertEquals(4, r.linesStartingWith("OK rank").stream().filter(l -> l.contains(" 2:2:1:0:p3v ")).count(),
                r.describe());
    }
}
