package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.prop.Analytic;
import sweep.io.Npy;

/** The {@code sweep forward} command line: a real run checked against physics, and its error exits. */
class ForwardCommandTest {
    @TempDir
    Path dir;

    private record Result(int code, String err) {
    }

    private Result run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        int code = cl.execute(args);
        return new Result(code, err.toString());
    }

    private Path homogeneous(int nz, int nx, float v) {
        float[] m = new float[nz * nx];
        Arrays.fill(m, v);
        Path p = dir.resolve("vp.npy");
        Npy.writeFloat32(p, m, nz, nx);
        return p;
    }

    @Test
    void forwardWritesRecordMatchingGreensFunction() {
        int nz = 101;
        int nx = 101;
        Path vp = homogeneous(nz, nx, 2000f);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {50, 50}, 1, 1, 2);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {80, 50, 50, 20}, 1, 2, 2);
        Path out = dir.resolve("rec-out.npy");
        Result r = run("forward", "--vp", vp.toString(), "--dh", "10", "--dt", "0.001", "--nt", "400",
                "--sources", dir.resolve("src.npy").toString(), "--receivers", dir.resolve("rec.npy").toString(),
                "--ricker", "12", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        Npy.Array a = Npy.readFloat32(out, "out");
        assertTrue(Arrays.equals(new int[] {1, 400, 2, 1}, a.shape()), Arrays.toString(a.shape()));
        float[] d = a.asFloat32();
        double[] exact = Analytic.trace2d(300, 2000, 100, 12, 400, 1e-3);
        for (int k = 0; k < 2; k++) {
            double err = Analytic.relL2(d, k, 2, exact);
            assertTrue(err < 0.02, "receiver " + k + " relative L2 error " + err);
        }
    }

    @Test
    void errorsExitWithCodeTwoAndWriteNothing() throws Exception {
        Path vp = homogeneous(30, 40, 2000f);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {10, 10}, 1, 1, 2);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {5, 5}, 1, 1, 2);
        Npy.writeInt32(dir.resolve("src3.npy"), new int[] {10, 10, 10}, 1, 1, 3);
        Npy.writeInt32(dir.resolve("intmodel.npy"), new int[30 * 40], 30, 40);
        Path out = dir.resolve("never.npy");
        String[] common = {"--dh", "10", "--nt", "50", "--receivers", dir.resolve("rec.npy").toString(),
            "--out", out.toString()};
        String src = dir.resolve("src.npy").toString();

        Result cfl = run(concat(new String[] {"forward", "--vp", vp.toString(), "--dt", "0.01", "--sources", src,
            "--ricker", "10"}, common));
        assertEquals(2, cfl.code());
        assertTrue(cfl.err().contains("largest stable dt"), cfl.err());

        Result dtype = run(concat(new String[] {"forward", "--vp", dir.resolve("intmodel.npy").toString(), "--dt",
            "0.001", "--sources", src, "--ricker", "10"}, common));
        assertEquals(2, dtype.code());
        assertTrue(dtype.err().contains("expected float32"), dtype.err());

        Result ndim = run(concat(new String[] {"forward", "--vp", vp.toString(), "--dt", "0.001", "--sources",
            dir.resolve("src3.npy").toString(), "--ricker", "10"}, common));
        assertEquals(2, ndim.code());
        assertTrue(ndim.err().contains("--sources"), ndim.err());

        Result order = run(concat(new String[] {"forward", "--vp", vp.toString(), "--dt", "0.001", "--sources", src,
            "--ricker", "10", "--order", "5"}, common));
        assertEquals(2, order.code());
        assertTrue(order.err().contains("even"), order.err());

        Result both = run(concat(new String[] {"forward", "--vp", vp.toString(), "--dt", "0.001", "--sources", src,
            "--ricker", "10", "--wavelet", vp.toString()}, common));
        assertEquals(2, both.code());
        assertTrue(both.err().contains("mutually exclusive"), both.err());

        Result missing = run(concat(new String[] {"forward", "--vp", dir.resolve("nope.npy").toString(), "--dt",
            "0.001", "--sources", src, "--ricker", "10"}, common));
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("nope.npy"), missing.err());

        assertFalse(Files.exists(out), "no output may be written on error");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
