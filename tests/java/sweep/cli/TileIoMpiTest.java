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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.parallel.MeshTopology;
import sweep.parallel.MpiRunner;
import sweep.parallel.Padding;
import sweep.parallel.TileFiles;

/**
 * Tile-wise input and output of {@code sweep forward} and {@code sweep gradient} under {@code mpirun -np 4}: each rank
 * reads only its tile of a model whose nx is not a multiple of px (the record equals the single-domain record on the
 * padded model, bit for bit) and only its traces of the observed data; gradients written tile-wise (threshold 0)
 * equal the single domain's file without a pad and the gathered file with one, byte for byte.
 */
class TileIoMpiTest {
    private static final int NZ = 32;

    @TempDir
    Path dir;

    private List<String> common() {
        return List.of("--dh", "10", "--dt", "0.001", "--nt", "250", "--abcn", "8", "--free-surface", "--sources",
                dir.resolve("src.npy").toString(), "--receivers", dir.resolve("rec.npy").toString(), "--ricker", "12",
                "--threads", "1");
    }

    /** A smooth model with a bump, 4 shots along x, 15 receivers every third cell. */
    private float[] inputs(int nx, String name, double bump) {
        float[] v = new float[NZ * nx];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < nx; x++) {
                v[z * nx + x] = (float) (2000 + 15 * z + bump * Math.exp(-((z - 16) * (z - 16) + (x - 22) * (x - 22))
                        / 40.0));
            }
        }
        Npy.writeFloat32(dir.resolve(name), v, NZ, nx);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {3, 2, 21, 2, 22, 3, 40, 2}, 4, 1, 2);
        int[] rec = new int[4 * 15 * 2];
        for (int b = 0; b < 4; b++) {
            for (int r = 0; r < 15; r++) {
                rec[(b * 15 + r) * 2] = 3 * r;
                rec[(b * 15 + r) * 2 + 1] = 1;
            }
        }
        Npy.writeInt32(dir.resolve("rec.npy"), rec, 4, 15, 2);
        return v;
    }

    private static int single(String... args) {
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

    private String path(String name) {
        return dir.resolve(name).toString();
    }

    /**
     * In one launch: nx = 45 on px = 4 (padded to 48, the last tile holds 9 physical columns and 3 copies of the last
     * one) is read tile by tile; without a pad, a gradient the ranks write tile-wise is the single domain's file; with
     * the pad, the tile-wise gradient equals the gathered one (pad adjoint included).
     */
    @Test
    void tileWiseReadsAndWritesGiveTheSingleDomainFiles() throws Exception {
        float[] v = inputs(45, "vp45.npy", 250);
        inputs(45, "v045.npy", 0);
        inputs(44, "vp44.npy", 250);
        inputs(44, "v044.npy", 0);
        MeshTopology mesh = new MeshTopology(1, 4, 1, 4, 0);
        Npy.writeFloat32(dir.resolve("vp48.npy"), Padding.padToMesh(v, new int[] {NZ, 45}, mesh).data(), NZ, 48);
        assertEquals(0, single(args("forward", common(), "--vp", path("vp48.npy"), "--out", path("r48.npy"))));
        assertEquals(0, single(args("forward", common(), "--vp", path("vp44.npy"), "--out", path("obs44.npy"))));
        assertEquals(0, single(args("gradient", common(), "--vp", path("v044.npy"), "--observed", path("obs44.npy"),
                "--out-grad", path("g.npy"))));
        assertEquals(0, single(args("forward", common(), "--vp", path("vp45.npy"), "--out", path("obs45.npy"))));
        List<String> grad = List.of("--vp", path("v045.npy"), "--observed", path("obs45.npy"), "--px", "4");
        String tileWise = "-D" + TileFiles.WRITE_THRESHOLD_PROPERTY + "=0";
        MpiRunner.Result r = MpiRunner.run(4, CliBatchMain.class, CliBatchMain.join(List.of(
                args("forward", common(), "--vp", path("vp45.npy"), "--out", path("r4.npy"), "--px", "4",
                        "--verbose"),
                args("gradient", common(), concat(grad, "--out-grad", path("gathered.npy"))),
                concat(List.of(tileWise), args("gradient", common(), concat(grad, "--out-grad", path("tiles.npy")))),
                args("gradient", common(), "--vp", path("v044.npy"), "--observed", path("obs44.npy"), "--out-grad",
                        path("g4.npy"), "--px", "2", "--shot-groups", "2"))));
        assertEquals(0, r.exitCode(), r.describe());
        assertArrayEquals(Files.readAllBytes(dir.resolve("r48.npy")), Files.readAllBytes(dir.resolve("r4.npy")));
        for (int k = 0; k < 4; k++) {
            assertTrue(r.stderr().contains("  rank " + k + " tile [32, 12] at [0, " + 12 * k + "]: solver "),
                    r.describe());
        }
        byte[] a = Files.readAllBytes(dir.resolve("gathered.npy"));
        assertArrayEquals(a, Files.readAllBytes(dir.resolve("tiles.npy")));
        float[] last = Npy.readFloat32(dir.resolve("tiles.npy"), "g", new int[] {NZ, 45}).asFloat32();
        assertNotEquals(0f, last[10 * 45 + 44], "the folded last column carries gradient");
        assertArrayEquals(Files.readAllBytes(dir.resolve("g.npy")), Files.readAllBytes(dir.resolve("g4.npy")));
        assertEquals(3, r.linesStartingWith("misfit").size(), "rank 0 alone prints each misfit\n" + r.describe());
    }

    /** A NaN in the traces of one rank is named by its global shot, sample and receiver. */
    @Test
    void aBadObservedSampleIsNamedByItsGlobalPosition() throws Exception {
        inputs(44, "v0.npy", 0);
        float[] obs = new float[4 * 250 * 15];
        obs[(3 * 250 + 100) * 15 + 11] = Float.NaN;
        Npy.writeFloat32(dir.resolve("obs.npy"), obs, 4, 250, 15, 1);
        MpiRunner.Result r = MpiRunner.run(4, Main.class, args("gradient", common(), "--vp", path("v0.npy"),
                "--observed", path("obs.npy"), "--out-grad", path("g.npy"), "--px", "2", "--shot-groups", "2"));
        assertFalse(r.timedOut(), r.describe());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("holds NaN at (shot, sample, receiver) = (3, 100, 11)"), r.describe());
        assertFalse(Files.exists(dir.resolve("g.npy")));
    }

    private static String[] concat(List<String> a, String... more) {
        List<String> out = new ArrayList<>(a);
        out.addAll(List.of(more));
        return out.toArray(new String[0]);
    }
}
