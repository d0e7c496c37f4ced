package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Domain decomposition under a real {@code mpirun}: every case of {@link DdCheckMain} (both storages, with and without
 * free surface, the listed spatial orders) must report on every rank that the DD forward record and gradient are
 * bit-identical to the single-domain run on the same padded problem. All configurations run in one 4-rank job, one
 * after another (a 2-rank one on two of the ranks), which saves the JVM start-ups of one job per configuration.
 */
class ModelParallelMpiTest {
    /** ndim:py:px:shotGroups:nx:orders; ranks = py·px·shotGroups. */
    private static final String[] CONFIGS = {
        "2:1:2:1:47:4,8",   // 2 ranks, x-cut, nx not divisible by px: the padding path
        "2:1:4:1:48:8",     // 4 ranks, three x-cuts
        "3:1:2:1:24:4",     // 3-D, x-cut only
        "3:2:2:1:24:4",     // 3-D, x- and y-cuts (y strips: rows of 17 cells, copied directly)
        "2:1:2:2:48:8",     // 2 shot groups x 2 tiles: gradients all-reduced over the shot communicator
    };

    /** Limit for the whole batch: a guard against hangs (about 70 s on an idle 2-core machine), not a speed check. */
    private static final Duration TIMEOUT = Duration.ofSeconds(600);

    @Test
    void bitIdenticalToSingleDomain() throws Exception {
        MpiRunner.Result r = MpiRunner.run(4, TIMEOUT, List.of("-Xmx512m"), DdCheckMain.class, CONFIGS);
        assertFalse(r.timedOut(), r.describe());
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(List.of(), r.linesStartingWith("FAIL"), r.describe());
        int total = 0;
        for (String config : CONFIGS) {
            String[] f = config.split(":");
            int ranks = Integer.parseInt(f[1]) * Integer.parseInt(f[2]) * Integer.parseInt(f[3]);
            int cases = f[5].split(",").length * 2 * 2;
            // the label DdCheckMain prints, up to the order
            String label = String.format(" %sD py=%s px=%s groups=%s nx=%s order=", f[0], f[1], f[2], f[3], f[4]);
            long ok = r.linesStartingWith("OK rank").stream().filter(l -> l.contains(label)).count();
            assertEquals(ranks * cases, ok, config + ": OK lines\n" + r.describe());
            total += ranks * cases;
        }
        assertEquals(total, r.linesStartingWith("OK rank").size(), r.describe());
    }
}
