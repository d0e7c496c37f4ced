package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.parallel.MeshTopologyTest.assertMessage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class BalancedGridTest {

    // Seed text: 8 ranks, 384^3. py<=2: (1,8) -> min(384,48)=48, (2,4) -> min(192,96)=96 => (2,4).
    @Test
    void eightRanksOn384CubedWithDefaultMaxPyGivePy2Px4() {
        assertEquals(new BalancedGrid(2, 4), BalancedGrid.of(8, new int[] {384, 384, 384}, 1, 2));
        assertEquals(new BalancedGrid(2, 4), BalancedGrid.of(8, new int[] {384, 384, 384}));
    }

    // maxPy = world adds (4,2) -> min(96,192)=96 and (8,1) -> 48; (2,4) and (4,2) tie at 96, and the
    // fatter x edge (192 > 96) picks (4,2): the seed's "384^3 -> px2py4".
    @Test
    void eightRanksOn384CubedWithMaxPyWorldGivePy4Px2() {
        assertEquals(new BalancedGrid(4, 2), BalancedGrid.of(8, new int[] {384, 384, 384}, 1, 8));
    }

    // (nz, ny, nx) = 256x256x1024: (1,8) -> min(256,128)=128, (2,4) -> min(128,256)=128; tie, fatter x => (2,4),
    // the seed table's "balanced px4,py2".
    @Test
    void a256x256x1024GridOnEightRanksGivesPy2Px4() {
        assertEquals(new BalancedGrid(2, 4), BalancedGrid.of(8, new int[] {256, 256, 1024}, 1, 2));
        assertEquals(new BalancedGrid(2, 4), BalancedGrid.of(8, new int[] {256, 256, 1024}, 1, 8));
    }

    @Test
    void twoDimensionalModelsAlwaysGetPyOne() {
        assertEquals(new BalancedGrid(1, 3), BalancedGrid.of(6, new int[] {100, 300}, 2, 6));
        assertEquals(new BalancedGrid(1, 8), BalancedGrid.of(8, new int[] {1000, 64}, 1, 8));
    }

    @Test
    void theTileCountIsPerShotGroup() {
        // 12 ranks in 3 groups -> 4 tiles: (2,2) -> min(50,50) beats (1,4) -> min(100,25)
        assertEquals(new BalancedGrid(2, 2), BalancedGrid.of(12, new int[] {10, 100, 100}, 3, 2));
    }

    /** A dividing grid is chosen over a larger-tiled one that would need a pad, and no warning is logged. */
    @Test
    void prefersAFactorisationThatDividesTheGrid() {
        // ny=200, nx=201, 4 tiles, maxPy 4: (1,4) and (2,2) do not divide nx=201; (4,1) does.
        try (Capture log = new Capture()) {
            assertEquals(new BalancedGrid(4, 1), BalancedGrid.of(4, new int[] {50, 200, 201}, 1, 4));
            assertTrue(log.warnings.isEmpty(), "no warning when a dividing grid exists: " + log.warnings);
        }
    }

    /** With maxPy 2 nothing divides: the best padded grid is returned and a warning (not an error) is logged. */
    @Test
    void warnsWhenNoFactorisationDividesTheGrid() {
        try (Capture log = new Capture()) {
            // (1,4): min(200, ceil(201/4)=51) = 51; (2,2): min(100, 101) = 100
            assertEquals(new BalancedGrid(2, 2), BalancedGrid.of(4, new int[] {50, 200, 201}, 1, 2));
            assertEquals(1, log.warnings.size());
            assertTrue(log.warnings.get(0).contains("[50, 200, 201]"), log.warnings.get(0));
            assertTrue(log.warnings.get(0).contains("Padding.padToMesh"), log.warnings.get(0));
        }
        try (Capture log = new Capture()) {
            assertEquals(new BalancedGrid(1, 4), BalancedGrid.of(4, new int[] {30, 301}, 1, 2));
            assertEquals(1, log.warnings.size(), "2-D nx=301 on px=4 needs a pad too");
        }
    }

    /** Brute force over every (py, px) pair: the pick maximises min(ny/py, nx/px), ties to the fatter x edge. */
    @Test
    void matchesABruteForceSearchOnRandomProblems() {
        Random rnd = new Random(7);
        Capture quiet = new Capture();          // many random problems warn; keep the build log readable
        try {
            for (int trial = 0; trial < 500; trial++) {
                int groups = 1 + rnd.nextInt(3);
                int world = groups * (1 + rnd.nextInt(24));
                int maxPy = 1 + rnd.nextInt(6);
                int[] shape = {1 + rnd.nextInt(50), 1 + rnd.nextInt(400), 1 + rnd.nextInt(400)};
                assertEquals(bruteForce(world / groups, shape[1], shape[2], maxPy),
                        BalancedGrid.of(world, shape, groups, maxPy),
                        "world=" + world + " groups=" + groups + " maxPy=" + maxPy + " shape=" + Arrays.toString(shape));
            }
        } finally {
            quiet.close();
        }
    }

    /** Dividing grids first; then the largest padded tile edge ceil(n/p); ties to the smaller px (fatter x). */
    static BalancedGrid bruteForce(int tiles, int ny, int nx, int maxPy) {
        BalancedGrid best = null;
        boolean bestDivides = false;
        int bestEdge = -1;
        for (int px = 1; px <= tiles; px++) {            // ascending px: strict '>' keeps the fatter x edge
            for (int py = 1; py <= maxPy; py++) {
                if (py * px != tiles) {
                    continue;
                }
                boolean divides = ny % py == 0 && nx % px == 0;
                int edge = Math.min(-Math.floorDiv(-ny, py), -Math.floorDiv(-nx, px));
                if (best == null || (divides && !bestDivides) || (divides == bestDivides && edge > bestEdge)) {
                    best = new BalancedGrid(py, px);
                    bestDivides = divides;
                    bestEdge = edge;
                }
            }
        }
        return best;
    }

    @Test
    void badArgumentsAreRefusedWithTheBadValue() {
        assertMessage(() -> BalancedGrid.of(10, new int[] {8, 8, 8}, 3, 2), "worldSize=10", "shotGroups=3");
        assertMessage(() -> BalancedGrid.of(8, new int[] {8, 8, 8}, 1, 0), "maxPy=0");
        assertMessage(() -> BalancedGrid.of(0, new int[] {8, 8, 8}, 1, 2), "worldSize=0");
        assertMessage(() -> BalancedGrid.of(8, new int[] {8}, 1, 2), "[8]");
        assertMessage(() -> BalancedGrid.of(8, new int[] {8, 0, 8}, 1, 2), "[8, 0, 8]");
    }

    /** Collects WARNING records of the BalancedGrid logger while open. */
    static final class Capture extends Handler implements AutoCloseable {
        final Logger logger = Logger.getLogger(BalancedGrid.class.getName());
        final List<String> warnings = new ArrayList<>();

        Capture() {
            logger.addHandler(this);
            logger.setUseParentHandlers(false);      // keep the expected warnings out of the build log
        }

        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.setUseParentHandlers(true);
            logger.removeHandler(this);
        }
    }
}
