package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.parallel.MeshTopologyTest.assertMessage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RoutingTest {

    @Test
    void ownershipIsHalfOpenAtTileFaces2d() {
        // (nz, nx) = (4, 8) on px = 2: tile 0 owns x 0..3, tile 1 owns x 4..7. Coordinates are (x, z).
        int[][][] coords = {{{3, 1}, {4, 2}, {7, 3}, {0, 0}}};
        MeshTopology t0 = new MeshTopology(1, 2, 1, 2, 0), t1 = new MeshTopology(1, 2, 1, 2, 1);
        Routing.Partition p0 = Routing.partitionGlobalCoords(coords, t0, new int[] {4, 8});
        Routing.Partition p1 = Routing.partitionGlobalCoords(coords, t1, new int[] {4, 8});
        assertArrayEquals(new boolean[] {true, false, false, true}, p0.mask()[0]);
        assertArrayEquals(new boolean[] {false, true, true, false}, p1.mask()[0]);
        assertArrayEquals(new int[][] {{3, 1}, {0, 0}, {0, 0}, {0, 0}}, p0.localCoords()[0]);
        assertArrayEquals(new int[][] {{0, 0}, {0, 2}, {3, 3}, {0, 0}}, p1.localCoords()[0]);
        assertArrayEquals(new int[] {0, 3}, p0.ownedIndices(0));
        assertArrayEquals(new int[] {1, 2}, p1.ownedIndices(0));
    }

    @Test
    void coordinatesAreXYZWhileShapesAreZYX3d() {
        // (nz, ny, nx) = (5, 4, 6) on (py, px) = (2, 3); rank 5 = tile (1, 2) owns y 2..3, x 4..5
        MeshTopology m = new MeshTopology(2, 3, 1, 6, 5);
        int[][][] coords = {{{5, 3, 4}, {4, 2, 0}, {3, 3, 4}, {5, 1, 4}}};
        Routing.Partition p = Routing.partitionGlobalCoords(coords, m, new int[] {5, 4, 6});
        assertArrayEquals(new boolean[] {true, true, false, false}, p.mask()[0]);
        assertArrayEquals(new int[] {1, 1, 4}, p.localCoords()[0][0]);   // (x-4, y-2, z)
        assertArrayEquals(new int[] {0, 0, 0}, p.localCoords()[0][1]);
        assertArrayEquals(new int[] {0, 0, 0}, p.localCoords()[0][2], "off-tile entries are zeroed");
    }

    @Test
    void onlyTheTileCoordinateMattersNotTheShotGroup() {
        int[][][] coords = {{{1, 0}, {6, 2}, {11, 1}}};
        for (int tile = 0; tile < 3; tile++) {
            Routing.Partition a = Routing.partitionGlobalCoords(coords, new MeshTopology(1, 3, 2, 6, tile),
                    new int[] {3, 12});
            Routing.Partition b = Routing.partitionGlobalCoords(coords, new MeshTopology(1, 3, 2, 6, 3 + tile),
                    new int[] {3, 12});
            assertArrayEquals(a.mask(), b.mask());
            assertArrayEquals(a.localCoords(), b.localCoords());
        }
    }

    /** Random meshes and points: each point has exactly one owner, whose local coords map back to the global ones. */
    @Test
    void partitionGivesEveryPointExactlyOneOwnerOnRandomMeshes() {
        Random rnd = new Random(19);
        for (int trial = 0; trial < 100; trial++) {
            boolean threeD = rnd.nextBoolean();
            int py = threeD ? 1 + rnd.nextInt(4) : 1, px = 1 + rnd.nextInt(5), groups = 1 + rnd.nextInt(2);
            int nz = 1 + rnd.nextInt(6), ny = py * (1 + rnd.nextInt(5)), nx = px * (1 + rnd.nextInt(5));
            int[] shape = threeD ? new int[] {nz, ny, nx} : new int[] {nz, nx};
            int nshots = 1 + rnd.nextInt(3), npts = rnd.nextInt(30);
            int[][][] coords = new int[nshots][npts][];
            for (int s = 0; s < nshots; s++) {
                for (int p = 0; p < npts; p++) {
                    coords[s][p] = threeD ? new int[] {rnd.nextInt(nx), rnd.nextInt(ny), rnd.nextInt(nz)}
                                          : new int[] {rnd.nextInt(nx), rnd.nextInt(nz)};
                }
            }
            int world = groups * py * px;
            int[][] owners = new int[nshots][npts];
            for (int r = 0; r < world; r++) {
                MeshTopology m = new MeshTopology(py, px, groups, world, r);
                if (m.shotGroup() != 0) {
                    continue;
                }
                int lx = nx / px, ly = ny / py;
                Routing.Partition part = Routing.partitionGlobalCoords(coords, m, shape);
                for (int s = 0; s < nshots; s++) {
                    for (int p = 0; p < npts; p++) {
                        int[] local = part.localCoords()[s][p];
                        if (!part.mask()[s][p]) {
                            assertArrayEquals(new int[shape.length], local, "off-tile entries are zeroed");
                            continue;
                        }
                        owners[s][p]++;
                        int[] g = coords[s][p];
                        assertTrue(local[0] >= 0 && local[0] < lx, "local x inside the tile");
                        assertEquals(g[0], local[0] + m.xi() * lx);
                        if (threeD) {
                            assertTrue(local[1] >= 0 && local[1] < ly, "local y inside the tile");
                            assertEquals(g[1], local[1] + m.yi() * ly);
                        }
                        assertEquals(g[g.length - 1], local[local.length - 1], "z is never shifted");
                    }
                }
            }
            for (int[] perShot : owners) {
                for (int n : perShot) {
                    assertEquals(1, n, "exactly one owner");
                }
            }
        }
    }

    /** Pad the model, route coordinates of the ORIGINAL grid on the padded shape: the owner sees the same value. */
    @Test
    void coordinatesInAPaddedModelAddressTheSamePhysicalCell() {
        Random rnd = new Random(23);
        int nz = 3, ny = 7, nx = 10, py = 2, px = 3;           // pads to (3, 8, 12)
        float[] model = PaddingTest.random(rnd, nz * ny * nx);
        MeshTopology any = new MeshTopology(py, px, 1, 6, 0);
        Shaped<float[]> padded = Padding.padToMesh(model, new int[] {nz, ny, nx}, any);
        int[][][] coords = new int[1][ny * nx * nz][];
        int k = 0;
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    coords[0][k++] = new int[] {x, y, z};
                }
            }
        }
        int[] owners = new int[coords[0].length];
        for (int r = 0; r < 6; r++) {
            MeshTopology m = new MeshTopology(py, px, 1, 6, r);
            MeshTopology.Extent e = m.localExtent(padded.shape());
            int ly = e.shape()[1], lx = e.shape()[2];
            Routing.Partition part = Routing.partitionGlobalCoords(coords, m, padded.shape());
            for (int i = 0; i < coords[0].length; i++) {
                if (part.mask()[0][i]) {
                    owners[i]++;
                    int[] c = part.localCoords()[0][i], g = coords[0][i];
                    // the tile's own copy of the padded model, cut by hand from global indices
                    int gy = e.offsets()[1] + c[1], gx = e.offsets()[2] + c[0];
                    assertTrue(c[1] < ly && c[0] < lx);
                    float seen = padded.data()[(c[2] * 8 + gy) * 12 + gx];
                    assertEquals(model[(g[2] * ny + g[1]) * nx + g[0]], seen, "cell " + java.util.Arrays.toString(g));
                }
            }
        }
        for (int n : owners) {
            assertEquals(1, n);
        }
    }

    /** Partition receivers, cut each tile's columns out of a global record by hand, assemble: the record returns. */
    @Test
    void assembleAfterPartitionIsTheIdentityOnRecords() {
        Random rnd = new Random(29);
        for (int trial = 0; trial < 30; trial++) {
            int py = 1 + rnd.nextInt(3), px = 1 + rnd.nextInt(4);
            int[] shape = {4, py * (1 + rnd.nextInt(4)), px * (1 + rnd.nextInt(4))};
            int nrec = 1 + rnd.nextInt(20), b = 1 + rnd.nextInt(2), nt = 1 + rnd.nextInt(5), nfield = 1 + rnd.nextInt(2);
            int[][][] rec = new int[1][nrec][];
            for (int i = 0; i < nrec; i++) {
                rec[0][i] = new int[] {rnd.nextInt(shape[2]), rnd.nextInt(shape[1]), rnd.nextInt(shape[0])};
            }
            int[] recShape = {b, nt, nrec, nfield};
            float[] global = PaddingTest.random(rnd, b * nt * nrec * nfield);
            List<Routing.TileRecord> tiles = new ArrayList<>();
            for (int r = 0; r < py * px; r++) {
                MeshTopology m = new MeshTopology(py, px, 1, py * px, r);
                int[] own = Routing.partitionGlobalCoords(rec, m, shape).ownedIndices(0);
                float[] tile = new float[b * nt * own.length * nfield];
                for (int l = 0; l < b * nt; l++) {
                    for (int j = 0; j < own.length; j++) {
                        for (int f = 0; f < nfield; f++) {
                            tile[(l * own.length + j) * nfield + f] = global[(l * nrec + own[j]) * nfield + f];
                        }
                    }
                }
                tiles.add(new Routing.TileRecord(own, tile, new int[] {b, nt, own.length, nfield}));
            }
            Collections.shuffle(tiles, rnd);
            Shaped<float[]> back = Routing.assembleTileRecords(tiles);
            assertArrayEquals(recShape, back.shape());
            assertArrayEquals(global, back.data());
        }
    }

    @Test
    void unownedColumnsStayZeroAndEmptyTilesContributeNothing() {
        // (nt, nrec, nfield) = (2, 5, 1): tile A holds receivers {3, 0}, tile B holds {1}, tile C none
        Routing.TileRecord a = new Routing.TileRecord(new int[] {3, 0}, new float[] {30, 10, 31, 11}, new int[] {2, 2, 1});
        Routing.TileRecord bT = new Routing.TileRecord(new int[] {1}, new float[] {20, 21}, new int[] {2, 1, 1});
        Routing.TileRecord c = new Routing.TileRecord(new int[0], new float[0], new int[] {2, 0, 1});
        Shaped<float[]> g = Routing.assembleTileRecords(List.of(c, a, bT), 5);
        assertArrayEquals(new int[] {2, 5, 1}, g.shape());
        assertArrayEquals(new float[] {10, 20, 0, 30, 0,
                                       11, 21, 0, 31, 0}, g.data());
        // without nrec the record ends at the largest owned index
        assertArrayEquals(new int[] {2, 4, 1}, Routing.assembleTileRecords(List.of(a, bT, c)).shape());
    }

    @Test
    void routingErrorsNameTheBadValue() {
        MeshTopology m = new MeshTopology(1, 2, 1, 2, 0);
        assertMessage(() -> Routing.partitionGlobalCoords(new int[][][] {{{1, 2, 3}}}, m, new int[] {4, 8}),
                "coords[0][0]", "3 components", "ndim=2");
        assertMessage(() -> Routing.partitionGlobalCoords(new int[][][] {{{0, 0}, {8, 1}}}, m, new int[] {4, 8}),
                "coords[0][1]", "[8, 1]", "[0, 8)");
        assertMessage(() -> Routing.partitionGlobalCoords(new int[][][] {{{0, -1}}}, m, new int[] {4, 8}), "-1");
        assertMessage(() -> Routing.partitionGlobalCoords(new int[][][] {{{0, 0}}}, m, new int[] {4, 9}), "nx=9");
        Routing.TileRecord a = new Routing.TileRecord(new int[] {2}, new float[] {1, 2}, new int[] {2, 1, 1});
        Routing.TileRecord dup = new Routing.TileRecord(new int[] {2}, new float[] {3, 4}, new int[] {2, 1, 1});
        assertMessage(() -> Routing.assembleTileRecords(List.of(a, dup)), "global receiver index 2", "tile 0",
                "tile 1", "one shot group");
        Routing.TileRecord other = new Routing.TileRecord(new int[] {0}, new float[] {1, 2, 3}, new int[] {3, 1, 1});
        assertMessage(() -> Routing.assembleTileRecords(List.of(a, other)), "tile 1", "[3, 1, 1]", "[2, 1, 1]");
        assertMessage(() -> Routing.assembleTileRecords(List.of(a), 2), "global index 2", "nrec=2");
        assertMessage(() -> Routing.assembleTileRecords(List.of(a), -1), "nrec=-1");
        assertMessage(() -> Routing.assembleTileRecords(List.of()), "no tile records");
        assertMessage(() -> new Routing.TileRecord(new int[] {0, 1}, new float[2], new int[] {2, 1, 1}),
                "2 global indices", "[2, 1, 1]");
        assertMessage(() -> new Routing.TileRecord(new int[] {0}, new float[3], new int[] {2, 1, 1}), "3 elements");
        assertFalse(Routing.partitionGlobalCoords(new int[0][][], m, new int[] {4, 8}).mask().length > 0);
    }
}
