package sweep.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests of {@link Npy} against the .npy format specification, using hand-built files. */
class NpyTest {

    @TempDir
    Path dir;

    // ------------------------------------------------------------------ helpers

    /** Builds a .npy file: magic, version, little-endian header length, dict, space padding to {@code align}, '\n', data. */
    static byte[] npy(int major, int minor, String dict, int align, byte[] data) {
        int prefix = major == 1 ? 10 : 12;
        int total = prefix + dict.length() + 1;
        total = (total + align - 1) / align * align;
        ByteBuffer b = ByteBuffer.allocate(total + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, (byte) minor});
        if (major == 1) {
            b.putShort((short) (total - prefix));
        } else {
            b.putInt(total - prefix);
        }
        b.put(dict.getBytes(StandardCharsets.ISO_8859_1));
        while (b.position() < total - 1) {
            b.put((byte) ' ');
        }
        return b.put((byte) '\n').put(data).array();
    }

    static String dict(String descr, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    }

    static byte[] le(int itemSize, long... values) {
        ByteBuffer b = ByteBuffer.allocate(itemSize * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            switch (itemSize) {
                case 1 -> b.put((byte) v);
                case 4 -> b.putInt((int) v);
                default -> b.putLong(v);
            }
        }
        return b.array();
    }

    Path file(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    /** Asserts that reading fails with a FormatException whose message contains every fragment. */
    static Npy.FormatException fails(Path p, String... fragments) {
        Npy.FormatException e = assertThrows(Npy.FormatException.class, () -> Npy.read(p, "--vp"));
        assertTrue(e.getMessage().startsWith("--vp: " + p + ": "), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "missing '" + f + "' in: " + e.getMessage());
        }
        return e;
    }

    // ------------------------------------------------------------------ header layout

    @Test
    void headerLayoutMatchesSpecByteForByte() throws IOException {
        Path p = dir.resolve("a.npy");
        Npy.writeFloat32(p, new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        byte[] b = Files.readAllBytes(p);
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
        // 10 prefix bytes + 60 dict bytes + '\n' = 71, padded to 128: header length field 118.
        assertEquals(128 + 24, b.length);
        assertArrayEquals(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 118, 0}, Arrays.copyOf(b, 10));
        String text = new String(b, 10, 118, StandardCharsets.ISO_8859_1);
        assertEquals(dict + " ".repeat(118 - dict.length() - 1) + "\n", text);
        ByteBuffer data = ByteBuffer.wrap(b, 128, 24).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i <= 6; i++) {
            assertEquals(i, data.getFloat());
        }
    }

    @Test
    void headerOf1dAndScalar() throws IOException {
        Path p = dir.resolve("v.npy");
        Npy.writeInt32(p, new int[] {1, 2, 3, 4, 5}, 5);
        byte[] b = Files.readAllBytes(p);
        String h = new String(b, 10, (b[8] & 0xff) | (b[9] & 0xff) << 8, StandardCharsets.ISO_8859_1);
        assertTrue(h.startsWith("{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }  "), h);
        assertEquals(0, (10 + h.length()) % 64);
        assertEquals(128 + 20, b.length);

        Npy.writeFloat32(p, new float[] {7.5f});
        b = Files.readAllBytes(p);
        h = new String(b, 10, b[8] & 0xff, StandardCharsets.ISO_8859_1);
        assertTrue(h.startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (), } "), h);
        assertTrue(h.endsWith(" \n"), h);
        Npy.Array a = Npy.readFloat32(p, "scalar");
        assertEquals(0, a.shape().length);
        assertArrayEquals(new float[] {7.5f}, a.asFloat32());
    }

    @Test
    void everyHeaderIsAlignedAndNewlineTerminated() {
        for (int rank = 0; rank < 40; rank++) {
            int[] shape = new int[rank];
            Arrays.fill(shape, 123456);
            byte[] h = Npy.header("<f4", shape);
            assertEquals(0, h.length % 64, "rank " + rank);
            assertEquals('\n', h[h.length - 1]);
            assertEquals(h.length - 10, (h[8] & 0xff) | (h[9] & 0xff) << 8);
        }
    }

    @Test
    void writesVersion2OnlyWhenHeaderNeedsIt() throws IOException {
        int[] shape = new int[22000]; // "1, " per axis: a dict longer than 65535 bytes
        Arrays.fill(shape, 1);
        Path p = dir.resolve("v2.npy");
        Npy.writeFloat32(p, new float[] {3f}, shape);
        byte[] b = Files.readAllBytes(p);
        assertEquals(2, b[6]);
        assertEquals(0, b[7]);
        int len = ByteBuffer.wrap(b, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        assertEquals(0, (12 + len) % 64);
        assertEquals('\n', b[12 + len - 1]);
        Npy.Array a = Npy.readFloat32(p, "x");
        assertArrayEquals(shape, a.shape());
        assertArrayEquals(new float[] {3f}, a.asFloat32());
    }

    // ------------------------------------------------------------------ round trips

    @Test
    void float32RoundTripIsBitExact() {
        float[] v = {0f, -0f, 1.5f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, Float.MAX_VALUE, -3.25e-20f, Float.intBitsToFloat(0x7fc01234)};
        Path p = dir.resolve("f.npy");
        Npy.writeFloat32(p, v, 2, 5);
        Npy.Array a = Npy.readFloat32(p, "--vp", new int[] {2, 5});
        assertEquals("<f4", a.dtype());
        assertArrayEquals(new int[] {2, 5}, a.shape());
        float[] r = a.asFloat32();
        for (int i = 0; i < v.length; i++) {
            assertEquals(Float.floatToRawIntBits(v[i]), Float.floatToRawIntBits(r[i]), "index " + i);
        }
    }

    @Test
    void int32RoundTrip() {
        int[] v = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE, 42};
        Path p = dir.resolve("i.npy");
        Npy.writeInt32(p, v, 3, 1, 2);
        Npy.Array a = Npy.readInts(p, "--src");
        assertEquals("<i4", a.dtype());
        assertArrayEquals(new int[] {3, 1, 2}, a.shape());
        assertArrayEquals(v, a.asInt32());
        assertSame(a.data(), a.asInt32());
    }

    @Test
    void largeArrayCrossingChunksRoundTrips() {
        int n = 7 * (Npy.CHUNK / 8 + 3); // more than three 1 MiB read/write chunks
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = i * 0.5f - 17f;
        }
        Path p = dir.resolve("big.npy");
        Npy.writeFloat32(p, v, 7, n / 7);
        assertArrayEquals(v, Npy.readFloat32(p, "big", new int[] {7, -1}).asFloat32());
    }

    @Test
    void emptyArrayRoundTrips() {
        Path p = dir.resolve("e.npy");
        Npy.writeFloat32(p, new float[0], 0, 3);
        Npy.Array a = Npy.readFloat32(p, "e");
        assertArrayEquals(new int[] {0, 3}, a.shape());
        assertEquals(0, a.size());
    }

    // ------------------------------------------------------------------ hand-built files

    @Test
    void readsVersion2File() throws IOException {
        Path p = file("v2.npy", npy(2, 0, dict("<i8", "(2, 2)"), 64, le(8, 1, -2, 3, 1L << 40)));
        Npy.Array a = Npy.read(p, "x");
        assertEquals("<i8", a.dtype());
        assertArrayEquals(new int[] {2, 2}, a.shape());
        assertArrayEquals(new long[] {1, -2, 3, 1L << 40}, a.asInt64());
    }

    @Test
    void readsInt64IndicesAsInts() throws IOException {
        Path p = file("idx.npy", npy(1, 0, dict("<i8", "(4,)"), 64, le(8, 0, 7, -5, Integer.MAX_VALUE)));
        Npy.Array a = Npy.readInts(p, "--receivers", new int[] {4});
        assertEquals("<i4", a.dtype());
        assertArrayEquals(new int[] {0, 7, -5, Integer.MAX_VALUE}, a.asInt32());
    }

    @Test
    void int64OutOfIntRangeIsAnError() throws IOException {
        Path p = file("idx.npy", npy(1, 0, dict("<i8", "(3,)"), 64, le(8, 0, 1L << 31, 2)));
        var e = assertThrows(IllegalArgumentException.class, () -> Npy.readInts(p, "--receivers"));
        assertTrue(e.getMessage().contains("--receivers: " + p), e.getMessage());
        assertTrue(e.getMessage().contains("2147483648") && e.getMessage().contains("flat index 1"), e.getMessage());
    }

    @Test
    void readsOtherDtypesAndHeaderVariants() throws IOException {
        // Old NumPy aligned to 16, double quotes, other key order, no trailing comma, Python 2 "L".
        Path p = file("b.npy", npy(1, 0, "{\"shape\": (3L,), \"fortran_order\": False, \"descr\": \"|b1\"}", 16,
                le(1, 1, 0, 2)));
        assertEquals(0, (Files.size(p) - 3) % 16);
        assertArrayEquals(new boolean[] {true, false, true}, Npy.read(p, "mask").asBool());

        p = file("u.npy", npy(1, 0, dict("|u1", "(2, 1,)"), 64, le(1, 255, 3)));
        Npy.Array a = Npy.read(p, "u");
        assertArrayEquals(new int[] {2, 1}, a.shape());
        assertArrayEquals(new byte[] {(byte) 255, 3}, a.asUint8());

        ByteBuffer d = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putDouble(0.1).putDouble(-2);
        p = file("d.npy", npy(1, 0, dict("<f8", "(2,)"), 64, d.array()));
        assertArrayEquals(new double[] {0.1, -2}, Npy.read(p, "d").asFloat64());
    }

    @Test
    void readFloat32RefusesOtherDtypesAndShapes() throws IOException {
        Path p = file("d.npy", npy(1, 0, dict("<f8", "(2, 1)"), 64, new byte[16]));
        var e = assertThrows(IllegalArgumentException.class, () -> Npy.readFloat32(p, "--vp"));
        for (String f : List.of("--vp", p.toString(), "'<f8'", "(2, 1)", "float32 '<f4'")) {
            assertTrue(e.getMessage().contains(f), "missing " + f + " in " + e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Npy.read(p, "--vp").asFloat32());
        assertThrows(IllegalArgumentException.class, () -> Npy.read(p, "--vp").asInt32());
        assertThrows(IllegalArgumentException.class, () -> Npy.readInts(p, "--vp"));

        Path q = dir.resolve("f.npy");
        Npy.writeFloat32(q, new float[6], 2, 3);
        e = assertThrows(IllegalArgumentException.class, () -> Npy.readFloat32(q, "--vs", new int[] {3, -1}));
        assertTrue(e.getMessage().contains("--vs") && e.getMessage().contains("(2, 3)")
                && e.getMessage().contains("(3, any)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Npy.readFloat32(q, "--vs", new int[] {6}));
    }

    // ------------------------------------------------------------------ error paths

    @Test
    void badMagic() throws IOException {
        byte[] b = npy(1, 0, dict("<f4", "(1,)"), 64, new byte[4]);
        b[1] = 'X';
        fails(file("m.npy", b), "bad magic", "9358554d5059", "934e554d5059");
        fails(file("short.npy", new byte[] {(byte) 0x93, 'N'}), "too short");
    }

    @Test
    void unsupportedVersion() throws IOException {
        byte[] b = npy(2, 0, dict("<f4", "(1,)"), 64, new byte[4]);
        b[6] = 3;
        fails(file("v3.npy", b), "version 3.0", "1.0 and 2.0");
        b = npy(1, 0, dict("<f4", "(1,)"), 64, new byte[4]);
        b[7] = 1;
        fails(file("v11.npy", b), "version 1.1");
    }

    @Test
    void bigEndianDtype() throws IOException {
        fails(file("be.npy", npy(1, 0, dict(">f4", "(1,)"), 64, new byte[4])), "big-endian", "'>f4'");
    }

    @Test
    void fortranOrder() throws IOException {
        String d = "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }";
        fails(file("f.npy", npy(1, 0, d, 64, new byte[16])), "fortran_order is True", "ascontiguousarray");
    }

    @Test
    void unknownDtypes() throws IOException {
        for (String descr : List.of("<c8", "<i2", "|f4", "<u8", "float32", "|O")) {
            fails(file("u.npy", npy(1, 0, dict(descr, "(1,)"), 64, new byte[8])), "unsupported dtype '" + descr + "'");
        }
        fails(file("s.npy", npy(1, 0, "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                64, new byte[4])), "malformed header");
    }

    @Test
    void truncatedAndOverlongData() throws IOException {
        byte[] b = npy(1, 0, dict("<f4", "(2, 3)"), 64, new byte[24]);
        fails(file("t.npy", Arrays.copyOf(b, b.length - 1)), "truncated", "151", "152", "(2, 3)");
        fails(file("t.npy", Arrays.copyOf(b, b.length + 4)), "longer than its header");
        fails(file("h.npy", Arrays.copyOf(b, 40)), "header length 118", "truncated");
    }

    @Test
    void shapeProductOverflowAndHugeDimension() throws IOException {
        fails(file("o.npy", npy(1, 0, dict("<f4", "(100000, 100000)"), 64, new byte[0])),
                "more than 2147483647 elements");
        fails(file("o.npy", npy(1, 0, dict("<f4", "(3000000000,)"), 64, new byte[0])), "dimension 3000000000");
        fails(file("o.npy", npy(1, 0, dict("<f4", "(99999999999999999999999,)"), 64, new byte[0])), "far too large");
        // A zero axis makes the product 0, however large the others are.
        Path p = file("z.npy", npy(1, 0, dict("<f4", "(0, 2000000000, 2000000000)"), 64, new byte[0]));
        assertEquals(0, Npy.read(p, "z").size());
    }

    @Test
    void negativeDimension() throws IOException {
        fails(file("n.npy", npy(1, 0, dict("<f4", "(2, -3)"), 64, new byte[0])), "negative dimension -3", "axis 1");
    }

    @Test
    void malformedHeaders() throws IOException {
        for (String d : List.of("", "{", "{'descr': '<f4', 'shape': (1,), }",
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': True}",
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}",
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} junk",
                "{'descr': '<f4', 'fortran_order': False, 'descr': '<f4', 'shape': (1,)}",
                "{'descr': '<f4', 'fortran_order': False, 'shape': 1}",
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1,,)}")) {
            Npy.FormatException e = assertThrows(Npy.FormatException.class,
                    () -> Npy.read(file("x.npy", npy(1, 0, d, 64, new byte[4])), "x"), d);
            assertFalse(e.getMessage().isBlank());
        }
        byte[] b = npy(2, 0, dict("<f4", "(1,)"), 64, new byte[4]);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(8, -1);
        fails(file("huge.npy", b), "header length 4294967295");
    }

    @Test
    void missingFileIsUncheckedIo() {
        Path p = dir.resolve("nope.npy");
        var e = assertThrows(UncheckedIOException.class, () -> Npy.readFloat32(p, "--vp"));
        assertTrue(e.getMessage().contains("--vp") && e.getMessage().contains("nope.npy"), e.getMessage());
    }

    // ------------------------------------------------------------------ writing

    @Test
    void writerRejectsBadShapes() {
        Path p = dir.resolve("w.npy");
        assertThrows(IllegalArgumentException.class, () -> Npy.writeFloat32(p, new float[6], 2, 2));
        assertThrows(IllegalArgumentException.class, () -> Npy.writeFloat32(p, new float[6], 6, -1));
        assertThrows(IllegalArgumentException.class, () -> Npy.writeInt32(p, new int[2]));
        assertThrows(IllegalArgumentException.class, () -> Npy.writeInt32(p, new int[0], 65536, 65536, 65536, 65536));
        assertFalse(Files.exists(p));
    }

    @Test
    void writeIsAtomicReplaceAndLeavesNoTempFiles() throws IOException {
        Path p = dir.resolve("model.npy");
        Npy.writeFloat32(p, new float[] {1, 2}, 2);
        Npy.writeFloat32(p, new float[] {3, 4, 5}, 3);
        assertArrayEquals(new float[] {3, 4, 5}, Npy.readFloat32(p, "m").asFloat32());
        assertThrows(IllegalArgumentException.class, () -> Npy.writeFloat32(p, new float[] {9}, 2));
        assertArrayEquals(new float[] {3, 4, 5}, Npy.readFloat32(p, "m").asFloat32());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(p), s.toList());
        }
        // Writing into a missing folder fails cleanly.
        assertThrows(UncheckedIOException.class,
                () -> Npy.writeFloat32(dir.resolve("no/such/dir/x.npy"), new float[] {1}, 1));
    }

    @Test
    void arrayRecordChecksItsDataAndCopiesShape() {
        int[] shape = {2};
        Npy.Array a = new Npy.Array("<f4", shape, new float[2]);
        shape[0] = 5;
        assertArrayEquals(new int[] {2}, a.shape());
        a.shape()[0] = 7;
        assertArrayEquals(new int[] {2}, a.shape());
        assertEquals("Npy.Array[dtype=<f4, shape=(2,)]", a.toString());
        assertThrows(IllegalArgumentException.class, () -> new Npy.Array("<f4", new int[] {3}, new float[2]));
    }
}
