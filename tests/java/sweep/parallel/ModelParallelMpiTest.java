package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Domain decomposition under a real {@code mpirun}: every case of {@link DdCheckMain} (both storages, with and without
 * free surface, the listed spatial orders) must report on every rank that the DD forward record and gradient are
 * bit-identical to the single-domain run on the same padded problem.
 */
class ModelParallelMpiTest {
    @ParameterizedTest(name = "{0}-D py={1} px={2} shotGroups={3} nx={4} orders={5}")
    @CsvSource({
        "2, 1, 2, 1, 47, 4;8",   // 2 ranks, x-cut, nx not divisible by px: the padding path
        "2, 1, 4, 1, 48, 8",     // 4 ranks, three x-cuts
        "3, 1, 2, 1, 24, 4",     // 3-D, x-cut only
        "3, 2, 2, 1, 24, 4",     // 3-D, x- and y-cuts (y strips: rows of 17 cells, copied directly)
        "2, 1, 2, 2, 48, 8",     // 2 shot groups x 2 tiles: gradients all-reduced over the shot communicator
    })
    void bitIdenticalToSingleDomain(int ndim, int py, int px, int groups, int nx, String orders) throws Exception {
        int ranks = py * px * groups;
        MpiRunner.Result r = MpiRunner.run(ranks, DdCheckMain.class, String.valueOf(ndim), String.valueOf(py),
                String.valueOf(px), String.valueOf(groups), String.valueOf(nx), orders.replace(';', ','));
        assertFalse(r.timedOut(), r.describe());
        int cases = orders.split(";").length * 2 * 2;
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(ranks * cases, r.linesStartingWith("OK rank").size(), r.describe());
    }
}
