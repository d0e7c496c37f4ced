package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Elastic domain decomposition under a real {@code mpirun}: every case of {@link ElasticDdCheckMain} (both storages,
 * with and without free surface, forces and explosions on and next to the cuts, all fields recorded on both sides of
 * every cut, models whole and as tiles) must report on every rank that the DD records and gradients (vp, vs, rho) are
 * bit-identical to the single-domain run on the same padded problem.
 */
class ElasticModelParallelMpiTest {
    @ParameterizedTest(name = "{0}-D py={1} px={2} shotGroups={3} nx={4} order={5}")
    @CsvSource({
        "2, 1, 2, 1, 41, 8",   // 2 ranks, one x-cut, nx not divisible by px: the padding path
        "2, 1, 4, 1, 40, 8",   // 4 ranks, three x-cuts (tiles of 10 cells, twice the model margin)
        "2, 1, 2, 2, 36, 4",   // 2 shot groups x 2 tiles: gradients summed over the shot communicator in shot order
        "3, 2, 2, 1, 16, 4",   // 3-D, x- and y-cuts (corners of the model margins through the x-neighbours)
        "3, 2, 2, 1, 28, 4",   // the same with tile rows long enough for the direct copy of the y strips and corners
    })
    void bitIdenticalToSingleDomain(int ndim, int py, int px, int groups, int nx, int order) throws Exception {
        int ranks = py * px * groups;
        MpiRunner.Result r = MpiRunner.run(ranks, ElasticDdCheckMain.class, String.valueOf(ndim), String.valueOf(py),
                String.valueOf(px), String.valueOf(groups), String.valueOf(nx), String.valueOf(order));
        assertFalse(r.timedOut(), r.describe());
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(ranks * 4, r.linesStartingWith("OK rank").size(), r.describe());
    }
}
