package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.io.SegyModelWriter;
import sweep.parallel.MpiRunner;

/**
 * {@code sweep forward} (a .npy and a SEG-Y model) and {@code sweep gradient} (L2, ncc, envelope and awi misfits) under
 * {@code mpirun -np 4} (2 shot groups × 2 tiles): world rank 0 writes the same files as the single-domain run, byte for
 * byte; a mesh that does not match -np ends the job.
 */
class CliMpiTest {
    @TempDir
    Path dir;

    private List<String> common() {
        return List.of("--dh", "10", "--dt", "0.001", "--nt", "300", "--abcn", "8", "--free-surface", "--sources",
                dir.resolve("src.npy").toString(), "--receivers", dir.resolve("rec.npy").toString(), "--ricker", "12");
    }

    private void inputs() throws Exception {
        int nz = 32;
        int nx = 44;
        float[] v = new float[nz * nx];
        float[] v0 = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                v0[z * nx + x] = 2000 + 15 * z;
                v[z * nx + x] = (float) (v0[z * nx + x] + 250 * Math.exp(-((z - 16) * (z - 16) + (x - 22) * (x - 22)) / 40.0));
            }
        }
        Npy.writeFloat32(dir.resolve("vp.npy"), v, nz, nx);
        Npy.writeFloat32(dir.resolve("v0.npy"), v0, nz, nx);
        SegyModelWriter.write(dir.resolve("vp.sgy"), v, 10, nz, nx);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {3, 2, 21, 2, 22, 3, 40, 2}, 4, 1, 2);
        int[] rec = new int[4 * 15 * 2];
        for (int b = 0; b < 4; b++) {
            for (int r = 0; r < 15; r++) {
                rec[(b * 15 + r) * 2] = 3 * r;
                rec[(b * 15 + r) * 2 + 1] = 1;
            }
        }
        Npy.writeInt32(dir.resolve("rec.npy"), rec, 4, 15, 2);
    }

    private int single(String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        return cl.execute(args);
    }

    private static String[] args(String cmd, List<String> common, String... more) {
        List<String> a = new ArrayList<>();
        a.add(cmd);
        a.addAll(common);
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    @Test
    void rankZeroWritesTheSingleDomainFilesBitForBit() throws Exception {
        inputs();
        String vp = dir.resolve("vp.npy").toString();
        String v0 = dir.resolve("v0.npy").toString();
        String obs = dir.resolve("obs.npy").toString();
        assertEquals(0, single(args("forward", common(), "--vp", vp, "--out", obs)));
        assertEquals(0, single(args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full",
                "--out-grad", dir.resolve("g.npy").toString())));
        assertEquals(0, single(args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full",
                "--misfit", "ncc", "--out-grad", dir.resolve("ncc.npy").toString())));
        assertEquals(0, single(args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full",
                "--misfit", "envelope", "--out-grad", dir.resolve("env.npy").toString())));
        assertEquals(0, single(args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full",
                "--misfit", "awi", "--out-grad", dir.resolve("awi.npy").toString())));
        // a data window: offsets 60 to 300 m, a mute above 2500 m/s
        assertEquals(0, single(args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full",
                "--misfit", "ncc", "--offsets", "60,300", "--mute-velocity", "2500", "--out-grad",
                dir.resolve("win.npy").toString())));
        // a short FWI of the built-in model: its outputs, shot 1's synthetic data included (which under shot groups
        // only group 0 models as its first shot), the same bits on two shot groups of two tiles
        String[] fwi = {"fwi", "--dh", "50", "--time", "0.8", "--freq", "2.5", "--shots", "2", "--iterations", "1",
            "--threads", "1", "--out"};
        assertEquals(0, single(args(fwi[0], List.of(fwi).subList(1, fwi.length), dir.resolve("fwi1").toString())));
        // the commands in one launch (its JVM start-ups cost more than the runs); a trace-wise misfit's traces are
        // computed by the ranks owning their receivers
        MpiRunner.Result g = MpiRunner.run(4, CliBatchMain.class, CliBatchMain.join(List.of(
                args(fwi[0], List.of(fwi).subList(1, fwi.length), dir.resolve("fwi4").toString(), "--px", "2",
                        "--shot-groups", "2"),
                args("forward", common(), "--vp", vp, "--out", dir.resolve("obs4.npy").toString(), "--px", "2",
                        "--shot-groups", "2"),
                args("forward", common(), "--vp", dir.resolve("vp.sgy").toString(), "--out",
                        dir.resolve("obs4sgy.npy").toString(), "--px", "2", "--shot-groups", "2"),
                args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full", "--out-grad",
                        dir.resolve("g4.npy").toString(), "--px", "2", "--shot-groups", "2"),
                args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full", "--misfit", "ncc",
                        "--out-grad", dir.resolve("ncc4.npy").toString(), "--px", "2", "--shot-groups", "2"),
                args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full", "--misfit",
                        "envelope", "--out-grad", dir.resolve("env4.npy").toString(), "--px", "2", "--shot-groups",
                        "2"),
                args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full", "--misfit", "awi",
                        "--out-grad", dir.resolve("awi4.npy").toString(), "--px", "2", "--shot-groups", "2"),
                args("gradient", common(), "--vp", v0, "--observed", obs, "--storage", "full", "--misfit", "ncc",
                        "--offsets", "60,300", "--mute-velocity", "2500", "--out-grad",
                        dir.resolve("win4.npy").toString(), "--px", "2", "--shot-groups", "2"))));
        assertEquals(0, g.exitCode(), g.describe());
        for (String f : List.of("observed.npy", "model_final.npy", "gradient_final.npy", "synthetic_shot1.npy")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("fwi1").resolve(f)),
                    Files.readAllBytes(dir.resolve("fwi4").resolve(f)), "fwi " + f);
        }
        assertArrayEquals(Files.readAllBytes(Path.of(obs)), Files.readAllBytes(dir.resolve("obs4.npy")));
        assertArrayEquals(Files.readAllBytes(Path.of(obs)), Files.readAllBytes(dir.resolve("obs4sgy.npy")),
                "each rank reading its tile of a SEG-Y model");
        assertArrayEquals(Files.readAllBytes(dir.resolve("g.npy")), Files.readAllBytes(dir.resolve("g4.npy")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("ncc.npy")), Files.readAllBytes(dir.resolve("ncc4.npy")),
                "ncc gradient");
        assertArrayEquals(Files.readAllBytes(dir.resolve("env.npy")), Files.readAllBytes(dir.resolve("env4.npy")),
                "envelope gradient");
        assertArrayEquals(Files.readAllBytes(dir.resolve("awi.npy")), Files.readAllBytes(dir.resolve("awi4.npy")),
                "adaptive waveform gradient");
        assertArrayEquals(Files.readAllBytes(dir.resolve("win.npy")), Files.readAllBytes(dir.resolve("win4.npy")),
                "windowed gradient: each rank windows its receivers' traces by their global offsets");
        assertFalse(Arrays.equals(Files.readAllBytes(dir.resolve("win.npy")),
                Files.readAllBytes(dir.resolve("ncc.npy"))), "the window changes the ncc gradient");
        assertFalse(Arrays.equals(Files.readAllBytes(dir.resolve("g.npy")),
                Files.readAllBytes(dir.resolve("ncc.npy"))), "the ncc gradient is not the L2 one");
        assertEquals(6, g.linesStartingWith("misfit").size(), "only rank 0 prints the misfit (5 gradients, 1 FWI)\n"
                + g.describe());
    }

    /** A NaN in the part of the model rank 1 runs is reported at its position in the global model. */
    @Test
    void aBadModelCellIsNamedByItsGlobalPosition() throws Exception {
        inputs();
        float[] v = Npy.readFloat32(dir.resolve("vp.npy"), "vp").asFloat32();
        v[12 * 44 + 34] = Float.NaN;
        Npy.writeFloat32(dir.resolve("nan.npy"), v, 32, 44);
        MpiRunner.Result r = MpiRunner.run(2, Main.class, args("forward", common(), "--vp",
                dir.resolve("nan.npy").toString(), "--out", dir.resolve("x.npy").toString(), "--px", "2"));
        assertFalse(r.timedOut(), r.describe());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("non-finite value (NaN) at (z, x) = (12, 34)"), r.describe());
        assertFalse(Files.exists(dir.resolve("x.npy")));
    }

    @Test
    void aMeshThatDoesNotMatchTheWorldEndsTheJob() throws Exception {
        inputs();
        MpiRunner.Result r = MpiRunner.run(2, Main.class, args("forward", common(), "--vp",
                dir.resolve("vp.npy").toString(), "--out", dir.resolve("x.npy").toString(), "--px", "3"));
        assertFalse(r.timedOut(), r.describe());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("needs 3"), r.describe());
        assertFalse(Files.exists(dir.resolve("x.npy")));
    }
}
