package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Under a real 2-rank mpirun: a bad model cell is reported at its position in the global model, whether the model
 * was given whole or as each rank's tile; and each rank's memory estimate covers what its tile solver holds.
 */
class TileMessagesMpiTest {
    @Test
    void badCellsAreNamedByGlobalPositionAndTileMemoryIsEstimated() throws Exception {
        MpiRunner.Result r = MpiRunner.run(2, TileMessagesMain.class);
        assertEquals(0, r.exitCode(), r.describe());
        for (int rank = 0; rank < 2; rank++) {
            List<String> global = r.linesStartingWith("rank " + rank + " global: ");
            assertEquals(1, global.size(), r.describe());
            assertTrue(global.get(0).contains("non-finite value (NaN) at (z, x) = (12, 34)"), global.get(0));
            List<String> tile = r.linesStartingWith("rank " + rank + " tile: ");
            assertEquals(1, tile.size(), r.describe());
            // tile cell (3, 5) of rank r's half of the 40 columns lies at global x = 5 + 20 r
            assertTrue(tile.get(0).contains("non-positive velocity (-1.0 m/s) at (z, x) = (3, " + (5 + 20 * rank)
                    + ")"), tile.get(0));
            List<String> memory = r.linesStartingWith("rank " + rank + " memory ");
            assertEquals(1, memory.size(), r.describe());
            String[] f = memory.get(0).split(" ");
            long estimate = Long.parseLong(f[3]);
            long held = Long.parseLong(f[4]);
            assertTrue(held > 0 && estimate >= held && estimate <= held * 1.02, memory.get(0));
        }
    }
}
