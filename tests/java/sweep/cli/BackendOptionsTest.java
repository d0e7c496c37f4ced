package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.io.Npy;
import sweep.prop.Backends;

/**
 * {@code --backend}, {@code --strict-math}, {@code --device} and {@code sweep devices} in a JVM without TornadoVM (the
 * default build): the Java backend is listed and used, an explicit TornadoVM request fails with what to do, and the
 * options leave no system property behind.
 */
class BackendOptionsTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    private String[] forward(String... extra) {
        float[] m = new float[30 * 30];
        Arrays.fill(m, 2000f);
        Npy.writeFloat32(dir.resolve("vp.npy"), m, 30, 30);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {15, 15}, 1, 1, 2);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {5, 5}, 1, 1, 2);
        String[] base = {"forward", "--vp", dir.resolve("vp.npy").toString(), "--dh", "10", "--dt", "0.001", "--nt",
            "20", "--abcn", "5", "--sources", dir.resolve("src.npy").toString(), "--receivers",
            dir.resolve("rec.npy").toString(), "--ricker", "15", "--out", dir.resolve("out.npy").toString()};
        String[] all = Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    @Test
    void devicesListsTheJavaBackendAndSaysWhyNoTornado() {
        Result r = run("devices");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("java "), r.out());
        if (Backends.tornadoJvm()) {
            return; // a TornadoVM JVM lists its devices instead (the profile's tests)
        }
        assertTrue(r.out().contains("no TornadoVM SDK/runtime"), r.out());
    }

    @Test
    void explicitTornadoWithoutRuntimeIsAClearError() {
        if (Backends.tornadoJvm()) {
            return;
        }
        Result r = run(forward("--backend", "tornado"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--backend tornado") && r.err().contains("TornadoVM"), r.err());
        assertNull(System.getProperty(Backends.BACKEND));
    }

    @Test
    void autoAndJavaRunOnTheJavaBackendAndRestoreTheProperties() {
        Result auto = run(forward("--strict-math"));
        assertEquals(0, auto.code(), auto.err());
        float[] a = Npy.readFloat32(dir.resolve("out.npy"), "out").asFloat32();
        Result java = run(forward("--backend", "java"));
        assertEquals(0, java.code(), java.err());
        float[] j = Npy.readFloat32(dir.resolve("out.npy"), "out").asFloat32();
        assertTrue(Arrays.equals(a, j));
        for (String k : new String[] {Backends.BACKEND, Backends.DEVICE, Backends.FMA, Backends.OPENCL_FLAGS}) {
            assertNull(System.getProperty(k), k);
        }
    }

    @Test
    void badBackendOrDeviceIsRejected() {
        Result r = run(forward("--backend", "cuda"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("java, tornado or auto"), r.err());
        r = run(forward("--backend", "java", "--device", "0:0"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--backend is java"), r.err());
        r = run(forward("--device", "gpu"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("backend:device"), r.err());
    }
}
