package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;

/**
 * A rank's tile read from the file ({@link TileFiles#readTile}) against the same tile cut from
 * {@link Padding#padToMesh} of the whole array, bit for bit, for every rank of meshes whose pad stays in the last
 * tile, fills a whole tile, or crosses y and x at once; and the write threshold's property.
 */
class TileFilesTest {
    @TempDir
    Path dir;

    private static float[] values(int n, long seed) {
        Random rnd = new Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = i % 17 == 0 ? -0f : (float) rnd.nextGaussian();
        }
        return v;
    }

    /** Every rank's tile of the padded array, read from the file, equals its cut of padToMesh(whole). */
    private void check(int[] shape, int py, int px, int groups) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] all = values(cells, cells);
        Path f = dir.resolve("m" + cells + "_" + py + "_" + px + ".npy");
        Npy.writeFloat32(f, all, shape);
        int world = groups * py * px;
        MeshTopology t0 = new MeshTopology(py, px, groups, world, 0);
        int[] padded = Padding.paddedShape(shape, t0);
        float[] whole = Padding.padToMesh(all, shape, t0).data();
        int nd = shape.length;
        for (int rank = 0; rank < world; rank++) {
            MeshTopology t = new MeshTopology(py, px, groups, world, rank);
            MeshTopology.Extent e = t.localExtent(padded);
            float[] tile = TileFiles.readTile(f, "test", shape, t);
            int[] s = e.shape();
            int[] o = e.offsets();
            int ty = nd == 3 ? s[1] : 1;
            int tx = s[nd - 1];
            int gy = nd == 3 ? padded[1] : 1;
            int gx = padded[nd - 1];
            int oy = nd == 3 ? o[1] : 0;
            assertEquals(s[0] * ty * tx, tile.length);
            for (int z = 0; z < s[0]; z++) {
                for (int y = 0; y < ty; y++) {
                    for (int x = 0; x < tx; x++) {
                        float want = whole[(z * gy + y + oy) * gx + x + o[nd - 1]];
                        float got = tile[(z * ty + y) * tx + x];
                        assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(got),
                                "rank " + rank + " cell (" + z + ", " + y + ", " + x + ") of shape "
                                        + java.util.Arrays.toString(shape) + " on py " + py + " px " + px);
                    }
                }
            }
        }
    }

    @Test
    void tilesEqualTheTilesOfThePaddedModel2d() {
        check(new int[] {6, 16}, 1, 4, 1); // no pad
        check(new int[] {6, 13}, 1, 4, 1); // 3 pad cells in the last tile
        check(new int[] {5, 9}, 1, 4, 1);  // padded to 12: the last tile is all pad
        check(new int[] {5, 10}, 1, 2, 2); // two shot groups read the same tiles
    }

    @Test
    void tilesEqualTheTilesOfThePaddedModel3d() {
        check(new int[] {4, 8, 10}, 2, 2, 1);
        check(new int[] {4, 7, 9}, 2, 2, 1);  // pad along y and x: the corner replicates the last cell
        check(new int[] {3, 5, 7}, 3, 4, 1);  // y padded to 6, x to 8
    }

    @Test
    void writeThresholdProperty() {
        String old = System.getProperty(TileFiles.WRITE_THRESHOLD_PROPERTY);
        try {
            System.clearProperty(TileFiles.WRITE_THRESHOLD_PROPERTY);
            assertEquals(TileFiles.DEFAULT_WRITE_THRESHOLD, TileFiles.writeThreshold());
            System.setProperty(TileFiles.WRITE_THRESHOLD_PROPERTY, "64m");
            assertEquals(64L << 20, TileFiles.writeThreshold());
            assertTrue(TileFiles.writesTileWise(new int[] {1024, 4097, 4}));   // 64 MiB + 16 KiB
            assertTrue(!TileFiles.writesTileWise(new int[] {1024, 4096, 4}));  // exactly 64 MiB
            System.setProperty(TileFiles.WRITE_THRESHOLD_PROPERTY, "0");
            assertTrue(TileFiles.writesTileWise(new int[] {1, 1}));
            System.setProperty(TileFiles.WRITE_THRESHOLD_PROPERTY, "lots");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, TileFiles::writeThreshold);
            assertTrue(e.getMessage().contains("-Dsweep.io.tilewrite=lots"), e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty(TileFiles.WRITE_THRESHOLD_PROPERTY);
            } else {
                System.setProperty(TileFiles.WRITE_THRESHOLD_PROPERTY, old);
            }
        }
    }
}
