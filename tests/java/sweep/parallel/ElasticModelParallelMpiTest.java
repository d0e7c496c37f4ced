package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Elastic domain decomposition under a real {@code mpirun}: every case of {@link ElasticDdCheckMain} (both storages,
 * with and without free surface, forces and explosions on and next to the cuts, all fields recorded on both sides of
 * every cut, models whole and as tiles) must report on every rank that the DD records and gradients (vp, vs, rho) are
 * bit-identical to the single-domain run on the same padded problem. All configurations run in one 4-rank job, one
 * after another (the 2-rank one on two of the ranks), which saves the JVM start-ups of one job per configuration.
 */
class ElasticModelParallelMpiTest {
    /** ndim:py:px:shotGroups:nx:order; ranks = py·px·shotGroups. */
    private static final String[] CONFIGS = {
        "2:1:2:1:41:8",   // 2 ranks, one x-cut, nx not divisible by px: the padding path
        "2:1:4:1:40:8",   // 4 ranks, three x-cuts (tiles of 10 cells, twice the model margin)
        "2:1:2:2:36:4",   // 2 shot groups x 2 tiles: gradients summed over the shot communicator in shot order
        "3:2:2:1:16:4",   // 3-D, x- and y-cuts (corners of the model margins through the x-neighbours)
        "3:2:2:1:28:4",   // the same with tile rows long enough for the direct copy of the y strips and corners
    };

    /** Limit for the whole batch: a guard against hangs (about 2 min on an idle 2-core machine), not a speed check. */
    private static final Duration TIMEOUT = Duration.ofSeconds(900);

    @Test
    void bitIdenticalToSingleDomain() throws Exception {
        MpiRunner.Result r = MpiRunner.run(4, TIMEOUT, List.of("-Xmx512m"), ElasticDdCheckMain.class, CONFIGS);
        assertFalse(r.timedOut(), r.describe());
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(List.of(), r.linesStartingWith("FAIL"), r.describe());
        int total = 0;
        for (String config : CONFIGS) {
            String[] f = config.split(":");
            int ranks = Integer.parseInt(f[1]) * Integer.parseInt(f[2]) * Integer.parseInt(f[3]);
            // the label ElasticDdCheckMain prints, up to the free-surface flag; 4 cases (free surface x storage)
            String label = String.format(" %sD py=%s px=%s groups=%s nx=%s order=%s fs=", f[0], f[1], f[2], f[3], f[4],
                    f[5]);
            long ok = r.linesStartingWith("OK rank").stream().filter(l -> l.contains(label)).count();
            assertEquals(ranks * 4, ok, config + ": OK lines\n" + r.describe());
            total += ranks * 4;
        }
        assertEquals(total, r.linesStartingWith("OK rank").size(), r.describe());
    }
}
