package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.parallel.MpiRunner;

/**
 * {@code sweep born}, {@code sweep rtm} and {@code sweep lsrtm}: through their files, rtm with no filter is the adjoint
 * of born (dot product); under {@code mpirun} with 2 ranks (two tiles) and 4 ranks (two shot groups of two tiles), in one launch
 * each, on a model the mesh divides (no pad), world rank 0 writes the single-domain files byte for byte; wrong
 * perturbation options end in one line.
 */
class ImagingCommandTest {
    private static final int NZ = 30;
    private static final int NX = 40;

    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private void inputs() {
        float[] v = new float[NZ * NX];
        float[] d1 = new float[NZ * NX];
        float[] d2 = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                v[z * NX + x] = 2000 + 12 * z;
                d1[z * NX + x] = (float) (80 * Math.exp(-((z - 18) * (z - 18) + (x - 20) * (x - 20)) / 30.0));
                d2[z * NX + x] = (float) (60 * Math.cos(0.3 * z + 0.1 * x) * Math.exp(-(z - 20) * (z - 20) / 40.0));
            }
        }
        Npy.writeFloat32(dir.resolve("vp.npy"), v, NZ, NX);
        Npy.writeFloat32(dir.resolve("d1.npy"), d1, NZ, NX);
        Npy.writeFloat32(dir.resolve("d2.npy"), d2, NZ, NX);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {4, 2, 20, 2, 21, 3, 37, 2}, 4, 1, 2);
        int[] rec = new int[4 * 20 * 2];
        for (int b = 0; b < 4; b++) {
            for (int r = 0; r < 20; r++) {
                rec[(b * 20 + r) * 2] = 2 * r;
                rec[(b * 20 + r) * 2 + 1] = 1;
            }
        }
        Npy.writeInt32(dir.resolve("rec.npy"), rec, 4, 20, 2);
    }

    private List<String> common() {
        return List.of("--vp", file("vp.npy"), "--dh", "10", "--dt", "0.001", "--nt", "260", "--abcn", "8",
                "--free-surface", "--sources", file("src.npy"), "--receivers", file("rec.npy"), "--ricker", "15",
                "--threads", "1");
    }

    private String[] args(String cmd, String... more) {
        List<String> a = new ArrayList<>();
        a.add(cmd);
        a.addAll(common());
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    private static int single(String... args) {
        var cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        assertEquals(0, code, String.join(" ", args) + "\n" + err);
        return code;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    @Test
    void rtmIsTheAdjointOfBornAndDecomposedRunsWriteTheSameFiles() throws Exception {
        inputs();
        single(args("born", "--dvp", file("d1.npy"), "--out", file("b1.npy")));
        single(args("born", "--dvp", file("d2.npy"), "--out", file("b2.npy")));
        single(args("rtm", "--observed", file("b2.npy"), "--out", file("i2.npy")));
        double lhs = dot(Npy.read(dir.resolve("b1.npy"), "b1").asFloat32(),
                Npy.read(dir.resolve("b2.npy"), "b2").asFloat32());
        double rhs = dot(Npy.read(dir.resolve("d1.npy"), "d1").asFloat32(),
                Npy.read(dir.resolve("i2.npy"), "i2").asFloat32());
        double rel = Math.abs(lhs - rhs) / Math.abs(lhs);
        System.out.printf("born/rtm through files: <J d1, J d2> %.9e, <d1, J^T J d2> %.9e, rel. %.2e%n", lhs, rhs,
                rel);
        assertTrue(rel < 1e-5, "dot product through the files: rel. " + rel);
        assertTrue(Files.exists(dir.resolve("i2.png")));
        single(args("rtm", "--observed", file("b2.npy"), "--out", file("f2.npy"), "--filter", "laplacian",
                "--illumination"));
        single(args("lsrtm", "--observed", file("b2.npy"), "--out", file("ls"), "--iterations", "2"));

        for (int ranks : new int[] {2, 4}) {
            String[] mesh = ranks == 2 ? new String[] {"--px", "2"} : new String[] {"--px", "2", "--shot-groups", "2"};
            List<String[]> batch = new ArrayList<>();
            batch.add(concat(args("born", "--dvp", file("d1.npy"), "--out", file("b1-" + ranks + ".npy")), mesh));
            batch.add(concat(args("rtm", "--observed", file("b2.npy"), "--out", file("i2-" + ranks + ".npy")), mesh));
            batch.add(concat(args("rtm", "--observed", file("b2.npy"), "--out", file("f2-" + ranks + ".npy"),
                    "--filter", "laplacian", "--illumination"), mesh));
            batch.add(concat(args("lsrtm", "--observed", file("b2.npy"), "--out", file("ls-" + ranks),
                    "--iterations", "2"), mesh));
            MpiRunner.Result r = MpiRunner.run(ranks, CliBatchMain.class, CliBatchMain.join(batch));
            assertEquals(0, r.exitCode(), r.describe());
            assertEquals(4, r.linesStartingWith("EXIT").size(), r.describe());
            for (String f : new String[] {"image_1.npy", "image_2.npy", "residual.json"}) {
                assertArrayEquals(Files.readAllBytes(dir.resolve("ls").resolve(f)),
                        Files.readAllBytes(dir.resolve("ls-" + ranks).resolve(f)), "lsrtm " + f + " on " + ranks
                        + " ranks");
            }
            for (String f : new String[] {"b1", "i2", "f2"}) {
                assertArrayEquals(Files.readAllBytes(dir.resolve(f + ".npy")),
                        Files.readAllBytes(dir.resolve(f + "-" + ranks + ".npy")), f + " on " + ranks + " ranks");
            }
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void muteRowsZeroTheTopRowsOfTheImageAndNothingElse() {
        inputs();
        single(args("born", "--dvp", file("d1.npy"), "--out", file("b1.npy")));
        single(args("rtm", "--observed", file("b1.npy"), "--out", file("i.npy")));
        single(args("rtm", "--observed", file("b1.npy"), "--out", file("m.npy"), "--mute-rows", "5"));
        float[] i = Npy.read(dir.resolve("i.npy"), "i").asFloat32();
        float[] m = Npy.read(dir.resolve("m.npy"), "m").asFloat32();
        for (int k = 0; k < i.length; k++) {
            assertEquals(k < 5 * NX ? 0f : i[k], m[k], "cell " + k);
        }
        CliHarness.fails("--mute-rows must be 0 to 29", args("rtm", "--observed", file("b1.npy"), "--out",
                file("x.npy"), "--mute-rows", "30"));
    }

    @Test
    void wrongPerturbationOptionsEndInOneLine() {
        inputs();
        CliHarness.fails("give the model perturbation: --dvp", args("born", "--out", file("x.npy")));
        CliHarness.fails("--drho perturbs a parameter the acoustic equation does not have",
                args("born", "--dvp", file("d1.npy"), "--drho", file("d1.npy"), "--out", file("x.npy")));
        Npy.writeFloat32(dir.resolve("small.npy"), new float[6], 2, 3);
        CliHarness.fails("differs from the model's", args("born", "--dvp", file("small.npy"), "--out",
                file("x.npy")));
        float[] nan = new float[NZ * NX];
        nan[7 * NX + 11] = Float.NaN;
        Npy.writeFloat32(dir.resolve("nan.npy"), nan, NZ, NX);
        CliHarness.fails("non-finite value (NaN) at (z, x) = (7, 11)", args("born", "--dvp", file("nan.npy"), "--out",
                file("x.npy")));
        CliHarness.fails("does not have yet", "born", "--equation", "elastic", "--vp", file("vp.npy"), "--vs",
                file("vp.npy"), "--rho", file("vp.npy"), "--dvp", file("d1.npy"), "--dh", "10", "--dt", "0.001",
                "--nt", "10", "--sources", file("src.npy"), "--receivers", file("rec.npy"), "--ricker", "15",
                "--out", file("x.npy"));
    }
}
