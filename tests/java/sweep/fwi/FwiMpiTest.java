package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.parallel.MpiRunner;

/**
 * The decomposed two-band FWI follows the single-domain one under a real mpirun (2 tiles; 2 shot groups × 2 tiles with
 * encoded supershots, one per group).
 */
class FwiMpiTest {
    @ParameterizedTest(name = "py={0} px={1} shotGroups={2} supershots={3}")
    @CsvSource({"1, 2, 1, 0", "1, 2, 2, 2"})
    void decomposedFwiFollowsSingleDomain(int py, int px, int groups, int supershots) throws Exception {
        int ranks = py * px * groups;
        MpiRunner.Result r = MpiRunner.run(ranks, FwiDdCheckMain.class, String.valueOf(py), String.valueOf(px),
                String.valueOf(groups), String.valueOf(supershots));
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(ranks, r.linesStartingWith("OK rank").size(), r.describe());
    }
}
