package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.parallel.MpiRunner;

/** The decomposed FWI follows the single-domain FWI under a real mpirun (2 tiles; 2 shot groups × 2 tiles). */
class FwiMpiTest {
    @ParameterizedTest(name = "py={0} px={1} shotGroups={2}")
    @CsvSource({"1, 2, 1", "1, 2, 2"})
    void decomposedFwiFollowsSingleDomain(int py, int px, int groups) throws Exception {
        int ranks = py * px * groups;
        MpiRunner.Result r = MpiRunner.run(ranks, FwiDdCheckMain.class, String.valueOf(py), String.valueOf(px),
                String.valueOf(groups));
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(ranks, r.linesStartingWith("OK rank").size(), r.describe());
    }
}
