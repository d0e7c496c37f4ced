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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.parallel.MpiRunner;

/**
 * {@code sweep forward} and {@code sweep gradient --equation elastic} under {@code mpirun}: each rank reads its tiles
 * of --vp, --vs and --rho, and world rank 0 writes the single-domain run's files byte for byte (shot groups, the
 * gathered and the tile-wise gradient writes; padding to the mesh is DdCheck's and TileWriteMain's); a bad cell of --vs
 * is named by its global position.
 */
class ElasticCliMpiTest {
    @TempDir
    Path dir;

    static final int NZ = 24;
    static final int NX = 34;

    private List<String> common(String vp, String vs, String rho) {
        return List.of("--equation", "elastic", "--vp", vp, "--vs", vs, "--rho", rho, "--dh", "10", "--dt", "0.001",
                "--nt", "180", "--abcn", "6", "--free-surface", "--sources", dir.resolve("src.npy").toString(),
                "--receivers", dir.resolve("rec.npy").toString(), "--ricker", "12", "--source-type", "fx", "--record",
                "p,vx,vz");
    }

    private void inputs() {
        float[][] m = ElasticCommandTest.model(NZ, NX, 150);
        float[][] m0 = ElasticCommandTest.model(NZ, NX, 0);
        Npy.writeFloat32(dir.resolve("vp.npy"), m[0], NZ, NX);
        Npy.writeFloat32(dir.resolve("vs.npy"), m[1], NZ, NX);
        Npy.writeFloat32(dir.resolve("rho.npy"), m[2], NZ, NX);
        Npy.writeFloat32(dir.resolve("vp0.npy"), m0[0], NZ, NX);
        Npy.writeFloat32(dir.resolve("vs0.npy"), m0[1], NZ, NX);
        // sources next to the cut (x = 16 | 17): fx nodes at 16.5 and 17.5; 4 shots for 2 shot groups
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {16, 2, 17, 4, 5, 3, 30, 2}, 4, 1, 2);
        int nrec = 11;
        int[] rec = new int[4 * nrec * 2];
        for (int b = 0; b < 4; b++) {
            for (int r = 0; r < nrec; r++) {
                rec[(b * nrec + r) * 2] = 12 + r; // across the cut, up to the last column and the pad's vx node
                rec[(b * nrec + r) * 2 + 1] = r % 3;
            }
            rec[(b * nrec + nrec - 1) * 2] = NX - 1;
        }
        Npy.writeInt32(dir.resolve("rec.npy"), rec, 4, nrec, 2);
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
        String vs = dir.resolve("vs.npy").toString();
        String rho = dir.resolve("rho.npy").toString();
        String vp0 = dir.resolve("vp0.npy").toString();
        String vs0 = dir.resolve("vs0.npy").toString();
        String obs = dir.resolve("obs.npy").toString();
        assertEquals(0, single(args("forward", common(vp, vs, rho), "--out", obs)));
        for (String storage : new String[] {"full", "boundary"}) {
            Path g1 = dir.resolve("g-" + storage + ".npy");
            assertEquals(0, single(args("gradient", common(vp0, vs0, rho), "--observed", obs, "--storage", storage,
                    "--out-grad", g1.toString())));
            assertArrayEquals(new int[] {3, NZ, NX}, Npy.readFloat32(g1, "g").shape());
        }
        // 2 tiles: the forward and the boundary-saving gradient (gathered on rank 0) in one launch; 2 shot groups x 2
        // tiles: the full-storage gradient, written tile by tile
        MpiRunner.Result two = MpiRunner.run(2, CliBatchMain.class, CliBatchMain.join(List.of(
                args("forward", common(vp, vs, rho), "--out", dir.resolve("obs2.npy").toString(), "--px", "2"),
                args("gradient", common(vp0, vs0, rho), "--observed", obs, "--storage", "boundary", "--out-grad",
                        dir.resolve("g2-boundary.npy").toString(), "--px", "2"))));
        assertEquals(0, two.exitCode(), two.describe());
        assertArrayEquals(Files.readAllBytes(Path.of(obs)), Files.readAllBytes(dir.resolve("obs2.npy")));
        assertEquals(1, two.linesStartingWith("misfit").size(), "only rank 0 prints the misfit\n" + two.describe());
        MpiRunner.Result four = MpiRunner.run(4, MpiRunner.DEFAULT_TIMEOUT, List.of("-Xmx512m",
                "-Dsweep.io.tilewrite=1k"), Main.class, args("gradient", common(vp0, vs0, rho), "--observed", obs,
                "--storage", "full", "--out-grad", dir.resolve("g2-full.npy").toString(), "--px", "2", "--shot-groups",
                "2"));
        assertEquals(0, four.exitCode(), four.describe());
        assertEquals(1, four.linesStartingWith("misfit").size(), "only rank 0 prints the misfit\n" + four.describe());
        for (String storage : new String[] {"full", "boundary"}) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("g-" + storage + ".npy")),
                    Files.readAllBytes(dir.resolve("g2-" + storage + ".npy")), storage);
        }
    }

    /** A bad cell of --vs in the part of the model rank 1 reads is reported at its position in the global model. */
    @Test
    void aBadCellIsNamedByItsGlobalPosition() throws Exception {
        inputs();
        float[] vs = Npy.readFloat32(dir.resolve("vs.npy"), "vs").asFloat32();
        vs[10 * NX + 25] = -3f;
        Npy.writeFloat32(dir.resolve("bad.npy"), vs, NZ, NX);
        MpiRunner.Result r = MpiRunner.run(2, Duration.ofSeconds(60), List.of("-Xmx512m"), Main.class,
                args("forward", common(dir.resolve("vp.npy").toString(), dir.resolve("bad.npy").toString(),
                        dir.resolve("rho.npy").toString()), "--out", dir.resolve("x.npy").toString(), "--px", "2"));
        assertFalse(r.timedOut(), r.describe());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("holds a negative velocity (-3.0 m/s) at (z, x) = (10, 25)"), r.describe());
        assertFalse(Files.exists(dir.resolve("x.npy")));
    }
}
