package sweep.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parts of .npy files: {@link Npy#readFloat32Selection} against indexing the whole array read by {@link Npy#read}
 * (bit for bit: the same floats, NaN payloads and -0 included), and {@link Npy#writeFloat32Box} against
 * {@link Npy#writeFloat32} of the whole array (byte for byte).
 */
class NpyRegionTest {
    @TempDir
    Path dir;

    /** Random floats with some -0, NaN payloads and infinities among them. */
    private static float[] values(int n, long seed) {
        Random rnd = new Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(50);
            v[i] = k == 0 ? -0f : k == 1 ? Float.intBitsToFloat(0x7fc00000 | rnd.nextInt(1 << 20))
                    : k == 2 ? Float.NEGATIVE_INFINITY : (float) rnd.nextGaussian();
        }
        return v;
    }

    /** The selection computed from the whole array, as int bits. */
    private static int[] expected(float[] all, int[] shape, int[][] index) {
        int nd = shape.length;
        int[] out = new int[nd];
        long n = 1;
        for (int a = 0; a < nd; a++) {
            out[a] = index[a] == null ? shape[a] : index[a].length;
            n *= out[a];
        }
        int[] bits = new int[(int) n];
        int[] pos = new int[nd];
        for (int i = 0; i < n; i++) {
            long r = i;
            for (int a = nd - 1; a >= 0; a--) {
                pos[a] = (int) (r % out[a]);
                r /= out[a];
            }
            long flat = 0;
            for (int a = 0; a < nd; a++) {
                flat = flat * shape[a] + (index[a] == null ? pos[a] : index[a][pos[a]]);
            }
            bits[i] = Float.floatToRawIntBits(all[(int) flat]);
        }
        return bits;
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Float.floatToRawIntBits(v[i]);
        }
        return b;
    }

    private void check(Path f, float[] all, int[] shape, int[][] index) {
        float[] got = Npy.readFloat32Selection(f, "test", shape, index);
        assertArrayEquals(expected(all, shape, index), bits(got));
    }

    @Test
    void selectionsEqualIndexingTheWholeArray() {
        int[] shape = {5, 7, 600};
        float[] all = values(5 * 7 * 600, 1);
        Path f = dir.resolve("a.npy");
        Npy.writeFloat32(f, all, shape);
        check(f, all, shape, new int[][] {null, null, null});
        check(f, all, shape, new int[][] {null, {2, 3, 4}, {10, 11, 12, 13}});
        // edge replicated past the end, as a pad to a mesh does
        check(f, all, shape, new int[][] {null, {5, 6, 6, 6}, {597, 598, 599, 599, 599}});
        // unsorted, repeated, and further apart than one run reads at once
        check(f, all, shape, new int[][] {{4, 0, 4}, {6, 1}, {599, 0, 300, 1, 0, 598}});
        check(f, all, shape, new int[][] {{3}, null, null});
        check(f, all, shape, new int[][] {null, {3}, null});
        check(f, all, shape, new int[][] {null, new int[0], null});
    }

    /** Observed data (B, nt, nrec, nfield): a shot group's shots and a rank's receivers with every field. */
    @Test
    void tracesOfSomeShotsAndReceivers() {
        int[] shape = {4, 30, 11, 3};
        float[] all = values(4 * 30 * 11 * 3, 2);
        Path f = dir.resolve("obs.npy");
        Npy.writeFloat32(f, all, shape);
        check(f, all, shape, new int[][] {{2, 3}, null, {0, 1, 2, 7, 8}, null});
        check(f, all, shape, new int[][] {{1}, null, {10}, null});
    }

    /** An element (the axes after the selected one) larger than one read of {@link Npy#CHUNK} bytes. */
    @Test
    void elementsLargerThanOneRead() {
        int n = Npy.CHUNK / 4 + 1000;
        int[] shape = {3, n};
        float[] all = values(3 * n, 3);
        Path f = dir.resolve("big.npy");
        Npy.writeFloat32(f, all, shape);
        check(f, all, shape, new int[][] {{2, 0, 2}, null});
        // and a run of many rows that spans several reads
        int[] rows = {200, 3000};
        float[] many = values(rows[0] * rows[1], 4);
        Path g = dir.resolve("rows.npy");
        Npy.writeFloat32(g, many, rows);
        int[] sel = new int[150];
        for (int i = 0; i < sel.length; i++) {
            sel[i] = 20 + i;
        }
        check(g, many, rows, new int[][] {sel, null});
    }

    /** A version 2.0 header (4-byte length) is read as well as 1.0. */
    @Test
    void version2Header() throws IOException {
        float[] all = values(6 * 8, 5);
        ByteBuffer data = ByteBuffer.allocate(4 * all.length).order(ByteOrder.LITTLE_ENDIAN);
        data.asFloatBuffer().put(all);
        Path f = dir.resolve("v2.npy");
        String dict = NpyTest.dict("<f4", "(6, 8)");
        Files.write(f, NpyTest.npy(2, 0, dict, 64, data.array()));
        check(f, all, new int[] {6, 8}, new int[][] {{1, 5}, {7, 7, 0}});
        assertEquals((12 + dict.length() + 1 + 63) / 64 * 64, Npy.header(f, "v2").dataOffset());
    }

    /**
     * A file of more elements than one Java array holds (12 GB, sparse: only its header and one value are written)
     * is read in parts, while reading it whole is refused as before.
     */
    @Test
    void filesLargerThanAJavaArrayAreReadInParts() throws IOException {
        int[] shape = {3, 1_000_000, 1000};
        Path f = dir.resolve("huge.npy");
        byte[] header = Npy.float32Header(shape);
        Files.write(f, header);
        long last = header.length + 4L * 3 * 1_000_000 * 1000 - 4;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 7.5f), last);
        }
        assertArrayEquals(shape, Npy.header(f, "huge").shape());
        float[] part = Npy.readFloat32Selection(f, "huge", shape, new int[][] {{2}, {999_999}, {0, 998, 999}});
        assertArrayEquals(new float[] {0f, 0f, 7.5f}, part);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Npy.read(f, "huge"));
        assertTrue(e.getMessage().contains("more than 2147483647 elements"), e.getMessage());
    }

    @Test
    void refusalsNameTheFileAndWhatWasWrong() {
        Path f = dir.resolve("a.npy");
        Npy.writeFloat32(f, new float[12], 3, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Npy.readFloat32Selection(f, "--vp", new int[] {3, 5}, new int[][] {null, {0}}));
        assertTrue(e.getMessage().startsWith("--vp: " + f + ": shape is (3, 4)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Npy.readFloat32Selection(f, "--vp", new int[] {3, 4}, new int[][] {null, {4}}));
        assertTrue(e.getMessage().contains("index 4 on axis 1 is outside the shape (3, 4)"), e.getMessage());
        Path i = dir.resolve("i.npy");
        Npy.writeInt32(i, new int[12], 3, 4);
        e = assertThrows(IllegalArgumentException.class, () -> Npy.headerFloat32(i, "--vp", null));
        assertTrue(e.getMessage().contains("expected float32 '<f4'"), e.getMessage());
    }

    /** Boxes written into a file made of the header and its full length give the file the whole-array writer makes. */
    @Test
    void boxesWrittenApartMakeTheWholeFile() throws IOException {
        int[] shape = {4, 6, 9};
        float[] all = values(4 * 6 * 9, 6);
        Path whole = dir.resolve("whole.npy");
        Npy.writeFloat32(whole, all, shape);
        Path parts = dir.resolve("parts.npy");
        byte[] header = Npy.float32Header(shape);
        Files.write(parts, header);
        try (FileChannel ch = FileChannel.open(parts, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1), header.length + 4L * all.length - 1);
            // a 2 x 3 mesh of y, x boxes of uneven sizes, plus an empty one
            int[] ys = {0, 4, 6};
            int[] xs = {0, 2, 7, 9};
            for (int a = 0; a + 1 < ys.length; a++) {
                for (int b = 0; b + 1 < xs.length; b++) {
                    int[] off = {0, ys[a], xs[b]};
                    int[] count = {4, ys[a + 1] - ys[a], xs[b + 1] - xs[b]};
                    Npy.writeFloat32Box(ch, header.length, shape, off, count, box(all, shape, off, count));
                }
            }
            Npy.writeFloat32Box(ch, header.length, shape, new int[] {0, 6, 9}, new int[] {4, 0, 0}, new float[0]);
        }
        assertArrayEquals(Files.readAllBytes(whole), Files.readAllBytes(parts));
        // whole rows (x complete): one contiguous run per z
        Path rows = dir.resolve("rows.npy");
        Files.write(rows, header);
        try (FileChannel ch = FileChannel.open(rows, StandardOpenOption.WRITE)) {
            for (int y = 0; y < 6; y += 3) {
                int[] off = {0, y, 0};
                int[] count = {4, 3, 9};
                Npy.writeFloat32Box(ch, header.length, shape, off, count, box(all, shape, off, count));
            }
        }
        assertArrayEquals(Files.readAllBytes(whole), Files.readAllBytes(rows));
        try (FileChannel ch = FileChannel.open(rows, StandardOpenOption.WRITE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Npy.writeFloat32Box(ch,
                    header.length, shape, new int[] {0, 5, 0}, new int[] {4, 2, 9}, new float[72]));
            assertTrue(e.getMessage().contains("does not lie inside (4, 6, 9)"), e.getMessage());
        }
    }

    private static float[] box(float[] all, int[] shape, int[] off, int[] count) {
        float[] b = new float[count[0] * count[1] * count[2]];
        for (int z = 0; z < count[0]; z++) {
            for (int y = 0; y < count[1]; y++) {
                System.arraycopy(all, ((z + off[0]) * shape[1] + y + off[1]) * shape[2] + off[2], b,
                        (z * count[1] + y) * count[2], count[2]);
            }
        }
        return b;
    }
}
