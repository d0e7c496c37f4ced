package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import sweep.parallel.MeshTopology.Axis;
import sweep.parallel.MeshTopology.Side;

class MeshTopologyTest {

    /** Expected coordinates come from enumerating (shotGroup, yi, xi) in row-major order, not from the formulas. */
    @Test
    void coordinatesOfEveryRankOfA2x2x3WorldFollowTheDocumentedFormulas() {
        int py = 2, px = 2, groups = 3;
        int rank = 0;
        for (int sg = 0; sg < groups; sg++) {
            for (int yi = 0; yi < py; yi++) {
                for (int xi = 0; xi < px; xi++) {
                    MeshTopology m = new MeshTopology(py, px, groups, 12, rank);
                    assertEquals(sg, m.shotGroup(), "shotGroup of rank " + rank);
                    assertEquals(yi, m.yi(), "yi of rank " + rank);
                    assertEquals(xi, m.xi(), "xi of rank " + rank);
                    assertEquals(rank % 4, m.tileRank(), "tileRank of rank " + rank);
                    assertEquals(rank, m.rankAt(sg, yi, xi), "rankAt inverts the coordinates");
                    rank++;
                }
            }
        }
        // a few by hand: rank 7 -> group 1, tile (1, 1); rank 9 -> group 2, tile (0, 1); rank 10 -> group 2, (1, 0)
        MeshTopology r7 = new MeshTopology(2, 2, 3, 12, 7);
        assertArrayEquals(new int[] {1, 1, 1}, new int[] {r7.shotGroup(), r7.yi(), r7.xi()});
        MeshTopology r9 = new MeshTopology(2, 2, 3, 12, 9);
        assertArrayEquals(new int[] {2, 0, 1}, new int[] {r9.shotGroup(), r9.yi(), r9.xi()});
        MeshTopology r10 = new MeshTopology(2, 2, 3, 12, 10);
        assertArrayEquals(new int[] {2, 1, 0}, new int[] {r10.shotGroup(), r10.yi(), r10.xi()});
    }

    @Test
    void ranksDifferingOnlyInShotGroupShareTheTileCoordinate() {
        int py = 2, px = 3, groups = 4, world = 24;
        for (int tile = 0; tile < py * px; tile++) {
            MeshTopology first = new MeshTopology(py, px, groups, world, tile);
            for (int sg = 1; sg < groups; sg++) {
                MeshTopology other = new MeshTopology(py, px, groups, world, sg * py * px + tile);
                assertEquals(sg, other.shotGroup());
                assertEquals(first.yi(), other.yi());
                assertEquals(first.xi(), other.xi());
                assertEquals(first.tileRank(), other.tileRank());
            }
        }
    }

    @Test
    void tileRankZeroMarksTheGroupRootAndRankZeroIsRootOfGroupZero() {
        int py = 2, px = 2, groups = 3, world = 12;
        for (int r = 0; r < world; r++) {
            MeshTopology m = new MeshTopology(py, px, groups, world, r);
            assertEquals(r == 0 || r == 4 || r == 8, m.tileRank() == 0, "rank " + r);
            assertEquals(new int[] {0, 4, 8}[m.shotGroup()], m.groupRootRank(), "root of rank " + r);
        }
        MeshTopology zero = new MeshTopology(py, px, groups, world, 0);
        assertEquals(0, zero.shotGroup());
        assertEquals(0, zero.tileRank());
        assertEquals(0, zero.groupRootRank());
    }

    @Test
    void aOneTileAxisIsOnBothEdges() {
        for (int r = 0; r < 3; r++) {
            MeshTopology m = new MeshTopology(1, 3, 1, 3, r);
            assertTrue(m.isEdge(Axis.Y, Side.LOW));
            assertTrue(m.isEdge(Axis.Y, Side.HIGH));
            assertEquals(r == 0, m.isEdge(Axis.X, Side.LOW));
            assertEquals(r == 2, m.isEdge(Axis.X, Side.HIGH));
        }
        MeshTopology single = new MeshTopology(1, 1, 2, 2, 1);
        for (Axis a : Axis.values()) {
            for (Side s : Side.values()) {
                assertTrue(single.isEdge(a, s));
                assertTrue(single.neighbourRank(a, s).isEmpty());
            }
        }
    }

    /** Neighbours found by searching all ranks for the adjacent tile of the same group. */
    @Test
    void neighbourRankIsTheAdjacentTileOfTheSameGroupAndEmptyAtTrueEdges() {
        int py = 3, px = 4, groups = 2, world = 24;
        for (int r = 0; r < world; r++) {
            MeshTopology m = new MeshTopology(py, px, groups, world, r);
            for (Axis a : Axis.values()) {
                for (Side s : Side.values()) {
                    int dy = a == Axis.Y ? (s == Side.LOW ? -1 : 1) : 0;
                    int dx = a == Axis.X ? (s == Side.LOW ? -1 : 1) : 0;
                    OptionalInt expected = OptionalInt.empty();
                    for (int q = 0; q < world; q++) {
                        MeshTopology n = new MeshTopology(py, px, groups, world, q);
                        if (n.shotGroup() == m.shotGroup() && n.yi() == m.yi() + dy && n.xi() == m.xi() + dx) {
                            expected = OptionalInt.of(q);
                        }
                    }
                    assertEquals(expected, m.neighbourRank(a, s), "rank " + r + " " + a + " " + s);
                    assertEquals(expected.isEmpty(), m.isEdge(a, s), "edge iff no neighbour");
                }
            }
        }
    }

    @Test
    void localExtentKeepsDepthAndSplitsYAndX() {
        // (nz, ny, nx) = (10, 6, 8) on (py, px) = (2, 4); rank 5 is tile (1, 1): y 3..5, x 2..3
        MeshTopology m = new MeshTopology(2, 4, 1, 8, 5);
        MeshTopology.Extent e = m.localExtent(new int[] {10, 6, 8});
        assertArrayEquals(new int[] {10, 3, 2}, e.shape());
        assertArrayEquals(new int[] {0, 3, 2}, e.offsets());
        // 2-D (nz, nx) = (7, 12) on px = 3; rank 2 owns x 8..11
        MeshTopology.Extent e2 = new MeshTopology(1, 3, 1, 3, 2).localExtent(new int[] {7, 12});
        assertArrayEquals(new int[] {7, 4}, e2.shape());
        assertArrayEquals(new int[] {0, 8}, e2.offsets());
    }

    @Test
    void tilesOfEveryShotGroupCoverTheGlobalGridExactlyOnce() {
        int[][][] cases = { // {py, px, groups}, global shape
            {{1, 4, 2}, {5, 12}},
            {{1, 1, 1}, {3, 7}},
            {{2, 2, 3}, {4, 6, 8}},
            {{3, 2, 1}, {2, 9, 4}},
            {{1, 5, 2}, {3, 2, 10}},
        };
        for (int[][] c : cases) {
            int py = c[0][0], px = c[0][1], groups = c[0][2];
            int[] g = c[1];
            int nz = g[0], ny = g.length == 3 ? g[1] : 1, nx = g[g.length - 1];
            int world = py * px * groups;
            int[][] count = new int[groups][nz * ny * nx];
            for (int r = 0; r < world; r++) {
                MeshTopology m = new MeshTopology(py, px, groups, world, r);
                MeshTopology.Extent e = m.localExtent(g);
                int[] s = e.shape(), o = e.offsets();
                assertEquals(nz, s[0], "depth is never split");
                assertEquals(0, o[0], "depth offset is 0");
                int ly = g.length == 3 ? s[1] : 1, oy = g.length == 3 ? o[1] : 0;
                for (int z = 0; z < s[0]; z++) {
                    for (int y = oy; y < oy + ly; y++) {
                        for (int x = o[o.length - 1]; x < o[o.length - 1] + s[s.length - 1]; x++) {
                            count[m.shotGroup()][(z * ny + y) * nx + x]++;
                        }
                    }
                }
            }
            for (int[] perGroup : count) {
                for (int v : perGroup) {
                    assertEquals(1, v, "every cell owned once per shot group");
                }
            }
        }
    }

    @Test
    void invalidWorldsAreRefusedWithTheBadValue() {
        assertMessage(() -> new MeshTopology(2, 2, 3, 11, 0), "worldSize=11", "12");
        assertMessage(() -> new MeshTopology(2, 2, 3, 12, 12), "rank=12");
        assertMessage(() -> new MeshTopology(2, 2, 3, 12, -1), "rank=-1");
        assertMessage(() -> new MeshTopology(0, 2, 1, 0, 0), "py=0");
        assertMessage(() -> new MeshTopology(1, -2, 1, -2, 0), "px=-2");
        assertMessage(() -> new MeshTopology(1, 2, 0, 0, 0), "shotGroups=0");
    }

    @Test
    void localExtentRefusesUnevenOrMismatchedShapes() {
        MeshTopology m = new MeshTopology(2, 4, 1, 8, 0);
        assertMessage(() -> m.localExtent(new int[] {10, 6, 301}), "nx=301", "px=4", "Padding.padToMesh",
                "BalancedGrid");
        assertMessage(() -> m.localExtent(new int[] {10, 7, 8}), "ny=7", "py=2", "Padding.padToMesh",
                "BalancedGrid");
        assertMessage(() -> m.localExtent(new int[] {10, 8}), "py=2", "2-D");
        assertMessage(() -> m.localExtent(new int[] {1, 10, 6, 8}), "[1, 10, 6, 8]");
        assertMessage(() -> m.localExtent(new int[] {0, 6, 8}), "0");
    }

    @Test
    void rankAtRefusesCoordinatesOffTheGrid() {
        MeshTopology m = new MeshTopology(2, 2, 3, 12, 0);
        assertMessage(() -> m.rankAt(3, 0, 0), "shotGroup=3");
        assertMessage(() -> m.rankAt(0, 2, 0), "yi=2");
        assertMessage(() -> m.rankAt(0, 0, -1), "xi=-1");
    }

    static void assertMessage(org.junit.jupiter.api.function.Executable call, String... fragments) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' should contain '" + f + "'");
        }
        assertFalse(e.getMessage().isBlank());
    }
}
