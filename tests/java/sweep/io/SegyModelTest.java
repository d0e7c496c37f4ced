package sweep.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SegyModel} against SEG-Y files laid out byte by byte here (the standard's byte numbers, IBM floats encoded by
 * an independent routine and by published bit patterns), and its refusals of files that are not models.
 */
class SegyModelTest {

    @TempDir
    Path dir;

    /** A model (nz, [ny,] nx), x fastest, with distinct values exactly representable as IBM floats. */
    static float[] model(int... shape) {
        int n = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        float[] m = new float[n];
        for (int i = 0; i < n; i++) {
            m[i] = 1500 + 0.25f * i - 7 * (i % 3);
        }
        return m;
    }

    @Test
    void aTwoDimensionalModelIsItsTracesAsColumns() throws IOException {
        int[] shape = {5, 7};
        float[] m = model(shape);
        Path p = dir.resolve("vp.sgy");
        SegyModelWriter.write(p, m, shape, new SegyModelWriter.Layout(5, ByteOrder.BIG_ENDIAN, 20000, 0, false));
        Npy.Array a = SegyModel.read(p, "--vp", null);
        assertArrayEquals(shape, a.shape());
        assertArrayEquals(m, a.asFloat32());
        assertArrayEquals(shape, ModelFiles.shape(p, "--vp"));
    }

    @Test
    void ibmFloatsMatchPublishedBitPatternsAndAnIndependentEncoder() throws IOException {
        // the classic example of the IBM format: -118.625 is C276A000; 1 is 41100000; 100 is 42640000
        assertEquals(-118.625f, SegyModel.ibmToFloat(0xC276A000));
        assertEquals(1f, SegyModel.ibmToFloat(0x41100000));
        assertEquals(100f, SegyModel.ibmToFloat(0x42640000));
        assertEquals(1500f, SegyModel.ibmToFloat(0x435DC000));
        assertEquals(0x435DC000, SegyModelWriter.ibmBits(1500f));
        Random r = new Random(3);
        for (int i = 0; i < 10000; i++) {
            float v = Math.scalb((float) (r.nextInt(1 << 21) - (1 << 20)), r.nextInt(40) - 30);
            assertEquals(v, SegyModel.ibmToFloat(SegyModelWriter.ibmBits(v)), "value " + v);
        }
        int[] shape = {6, 4};
        float[] m = model(shape);
        m[3] = -0.015625f;
        m[5] = 0;
        Path p = dir.resolve("ibm.segy");
        SegyModelWriter.write(p, m, shape, new SegyModelWriter.Layout(1, ByteOrder.BIG_ENDIAN, 0, 0, true));
        assertArrayEquals(m, SegyModel.read(p, "vp_true", shape).asFloat32());
    }

    @Test
    void littleEndianFilesAndExtendedTextualHeadersAreRead() throws IOException {
        int[] shape = {4, 3, 5};
        float[] m = model(shape);
        Path p = dir.resolve("le.sgy");
        SegyModelWriter.write(p, m, shape, new SegyModelWriter.Layout(5, ByteOrder.LITTLE_ENDIAN, 20, 2, true));
        Npy.Array a = SegyModel.read(p, "--vp", null);
        assertArrayEquals(shape, a.shape());
        assertArrayEquals(m, a.asFloat32());
        assertEquals(ByteOrder.LITTLE_ENDIAN, SegyModel.header(p, "--vp").order());
    }

    @Test
    void threeDimensionalModelsAreInlineThenCrossline() throws IOException {
        int[] shape = {3, 4, 6};
        float[] m = model(shape);
        Path p = dir.resolve("vp3.sgy");
        SegyModelWriter.write(p, m, shape, SegyModelWriter.Layout.ieee());
        Npy.Array a = ModelFiles.read(p, "--vp", new int[] {3, -1, 6});
        assertArrayEquals(shape, a.shape());
        assertArrayEquals(m, a.asFloat32());
        // a selection is the same elements as the whole file gives, indices repeated and unsorted
        int[][] index = {{2, 0}, {3, 3, 1}, null};
        float[] sel = ModelFiles.readSelection(p, "--vp", shape, index);
        int k = 0;
        for (int z : index[0]) {
            for (int y : index[1]) {
                for (int x = 0; x < 6; x++) {
                    assertEquals(m[(z * 4 + y) * 6 + x], sel[k++], "z " + z + " y " + y + " x " + x);
                }
            }
        }
    }

    @Test
    void anUnsortedThreeDimensionalFileIsRefusedNamingTheTrace() throws IOException {
        int[] shape = {3, 2, 4};
        Path p = dir.resolve("unsorted.sgy");
        SegyModelWriter.write(p, model(shape), shape, SegyModelWriter.Layout.ieee());
        byte[] bytes = Files.readAllBytes(p);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int trace = 240 + 4 * 3;
        b.putInt(3600 + 5 * trace + 193 - 1, 99); // trace 6 (inline 101, second crossline) gets a stray crossline
        Files.write(p, bytes);
        var e = assertThrows(SegyModel.FormatException.class, () -> SegyModel.header(p, "--vp"));
        assertTrue(e.getMessage().startsWith("--vp: " + p + ": trace 6 has inline 101 and crossline 99"),
                e.getMessage());
        assertTrue(e.getMessage().contains("sorted by inline (y) then crossline (x)"), e.getMessage());
    }

    @Test
    void filesThatAreNotModelsAreRefusedWithWhatWasFound() throws IOException {
        int[] shape = {5, 3};
        Path p = dir.resolve("m.sgy");
        SegyModelWriter.write(p, model(shape), shape, SegyModelWriter.Layout.ieee());
        byte[] whole = Files.readAllBytes(p);

        Path cut = dir.resolve("cut.sgy");
        Files.write(cut, Arrays.copyOf(whole, whole.length - 6));
        var e = assertThrows(SegyModel.FormatException.class, () -> ModelFiles.shape(cut, "--vp"));
        assertTrue(e.getMessage().contains("not a whole number of 260-byte traces"), e.getMessage());

        Path ints = dir.resolve("ints.sgy");
        byte[] b = whole.clone();
        ByteBuffer.wrap(b).putShort(3225 - 1, (short) 2);
        Files.write(ints, b);
        e = assertThrows(SegyModel.FormatException.class, () -> ModelFiles.read(ints, "vp_true", null));
        assertTrue(e.getMessage().contains("format 2 (4-byte integers"), e.getMessage());

        Path text = dir.resolve("text.sgy");
        Files.writeString(text, "x".repeat(5000));
        e = assertThrows(SegyModel.FormatException.class, () -> ModelFiles.shape(text, "--vp"));
        assertTrue(e.getMessage().contains("not a SEG-Y file"), e.getMessage());

        Path small = dir.resolve("small.sgy");
        Files.write(small, new byte[100]);
        e = assertThrows(SegyModel.FormatException.class, () -> ModelFiles.shape(small, "--vp"));
        assertTrue(e.getMessage().contains("holds 100 bytes"), e.getMessage());

        e = assertThrows(SegyModel.FormatException.class, () -> ModelFiles.read(p, "--rho", new int[] {5, 4}));
        assertTrue(e.getMessage().contains("shape [5, 3]"), e.getMessage());
    }

    @Test
    void theSampleIntervalMustBeTheDepthSpacing() throws IOException {
        int[] shape = {4, 4};
        for (int interval : new int[] {20000, 20, 0}) {
            Path p = dir.resolve("si" + interval + ".sgy");
            SegyModelWriter.write(p, model(shape), shape, new SegyModelWriter.Layout(5, ByteOrder.BIG_ENDIAN, interval, 0, false));
            ModelFiles.checkSpacing(p, "--vp", 20, "--dh");
        }
        Path p = dir.resolve("si4000.sgy");
        SegyModelWriter.write(p, model(shape), shape, new SegyModelWriter.Layout(5, ByteOrder.BIG_ENDIAN, 4000, 0, false));
        var e = assertThrows(SegyModel.FormatException.class, () -> ModelFiles.checkSpacing(p, "--vp", 20, "--dh"));
        assertTrue(e.getMessage().contains("sample interval (binary header bytes 3217-3218) is 4000, which is neither"
                + " --dh 20 m in millimetres (20000) nor in metres"), e.getMessage());
        // .npy files carry no spacing
        Path npy = dir.resolve("vp.npy");
        Npy.writeFloat32(npy, model(shape), shape);
        ModelFiles.checkSpacing(npy, "--vp", 20, "--dh");
    }
}
