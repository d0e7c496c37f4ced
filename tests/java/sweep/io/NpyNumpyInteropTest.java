package sweep.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cross-checks {@link Npy} with the real NumPy through a python3 subprocess; skipped when NumPy is missing. */
class NpyNumpyInteropTest {

    @TempDir
    Path dir;

    /** Runs {@code python3 -c script args...}; returns {exit code, combined output}. */
    static Object[] python(String script, String... args) throws IOException, InterruptedException {
        String[] cmd = new String[3 + args.length];
        cmd[0] = "python3";
        cmd[1] = "-c";
        cmd[2] = script;
        System.arraycopy(args, 0, cmd, 3, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Object[] {-1, "timed out: " + out};
        }
        return new Object[] {p.exitValue(), out};
    }

    /** Why NumPy cannot be used (null when it can); checked once per class. */
    private static String whyMissing;
    private static boolean checked;

    @BeforeEach
    void requireNumpy() {
        if (!checked) {
            checked = true;
            try {
                Object[] r = python("import numpy; print(numpy.__version__)");
                whyMissing = (int) r[0] == 0 ? null : "python3 cannot import numpy: " + ((String) r[1]).strip();
            } catch (IOException | InterruptedException e) {
                whyMissing = "python3 not runnable: " + e;
            }
            if (whyMissing != null) {
                System.out.println("NpyNumpyInteropTest skipped: " + whyMissing);
            }
        }
        Assumptions.assumeTrue(whyMissing == null, whyMissing);
    }

    static void runOk(String script, String... args) throws Exception {
        Object[] r = python(script, args);
        assertEquals(0, (int) r[0], "python failed:\n" + r[1]);
        assertTrue(((String) r[1]).contains("ok"), (String) r[1]);
    }

    @Test
    void numpyReadsWhatJavaWrites() throws Exception {
        Npy.writeFloat32(dir.resolve("f.npy"), new float[] {1.5f, -2f, Float.NaN, 4f, 5f, 6f}, 2, 3);
        Npy.writeInt32(dir.resolve("i.npy"), new int[] {Integer.MIN_VALUE, 0, 7, Integer.MAX_VALUE, -1}, 5);
        Npy.writeFloat32(dir.resolve("s.npy"), new float[] {0.25f});
        Npy.writeInt32(dir.resolve("e.npy"), new int[0], 0, 4);
        runOk(String.join("\n",
                "import sys, numpy as np",
                "d = sys.argv[1]",
                "f = np.load(d + '/f.npy')",
                "assert f.dtype == np.dtype('<f4') and f.shape == (2, 3) and f.flags.c_contiguous, f",
                "assert np.array_equal(f, np.array([[1.5, -2, np.nan], [4, 5, 6]], np.float32), equal_nan=True), f",
                "i = np.load(d + '/i.npy')",
                "assert i.dtype == np.dtype('<i4') and i.tolist() == [-2**31, 0, 7, 2**31 - 1, -1], i",
                "s = np.load(d + '/s.npy')",
                "assert s.shape == () and s.dtype == np.float32 and s == 0.25, s",
                "e = np.load(d + '/e.npy')",
                "assert e.shape == (0, 4) and e.dtype == np.int32, e",
                "print('ok')"), dir.toString());
    }

    @Test
    void javaReadsWhatNumpyWrites() throws Exception {
        runOk(String.join("\n",
                "import sys, numpy as np",
                "d = sys.argv[1]",
                "np.save(d + '/f.npy', np.arange(12, dtype=np.float32).reshape(3, 4) / 8)",
                "np.save(d + '/d.npy', np.array([0.1, -1e300]))",
                "np.save(d + '/l.npy', np.array([3, -4, 2**31 - 1], dtype=np.int64))",
                "with open(d + '/v2.npy', 'wb') as fh:",
                "    np.lib.format.write_array(fh, np.array([[1, 2], [3, 4]], dtype=np.int32), version=(2, 0))",
                "np.save(d + '/b.npy', np.array([True, False, True]))",
                "np.save(d + '/u.npy', np.array([0, 200, 255], dtype=np.uint8))",
                "np.save(d + '/s.npy', np.float32(2.5))",
                "np.save(d + '/fo.npy', np.asfortranarray(np.ones((2, 3), np.float32)))",
                "np.save(d + '/be.npy', np.ones(3, dtype='>f4'))",
                "np.save(d + '/big.npy', np.ones(3, dtype=np.int64) << 40)",
                "print('ok')"), dir.toString());
        Npy.Array f = Npy.readFloat32(dir.resolve("f.npy"), "f", new int[] {3, 4});
        float[] fv = f.asFloat32();
        for (int k = 0; k < 12; k++) {
            assertEquals(k / 8f, fv[k]);
        }
        assertArrayEquals(new double[] {0.1, -1e300}, Npy.read(dir.resolve("d.npy"), "d").asFloat64());
        assertArrayEquals(new int[] {3, -4, Integer.MAX_VALUE}, Npy.readInts(dir.resolve("l.npy"), "l").asInt32());
        Npy.Array v2 = Npy.readInts(dir.resolve("v2.npy"), "v2", new int[] {2, 2});
        assertArrayEquals(new int[] {1, 2, 3, 4}, v2.asInt32());
        assertArrayEquals(new boolean[] {true, false, true}, Npy.read(dir.resolve("b.npy"), "b").asBool());
        assertArrayEquals(new byte[] {0, (byte) 200, (byte) 255}, Npy.read(dir.resolve("u.npy"), "u").asUint8());
        Npy.Array s = Npy.readFloat32(dir.resolve("s.npy"), "s", new int[0]);
        assertArrayEquals(new float[] {2.5f}, s.asFloat32());
        assertThrows(Npy.FormatException.class, () -> Npy.read(dir.resolve("fo.npy"), "fo"));
        assertThrows(Npy.FormatException.class, () -> Npy.read(dir.resolve("be.npy"), "be"));
        assertThrows(Npy.FormatException.class, () -> Npy.readInts(dir.resolve("big.npy"), "big"));
    }
}
