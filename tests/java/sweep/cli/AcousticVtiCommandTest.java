package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;

/**
 * {@code --equation acoustic-vti} on the command line: a cell with epsilon below delta ends in exit code 2 naming
 * both files, both values and the cell; an FWI job inverting vp and epsilon with a negative lower epsilon bound (a
 * signed parameter) runs, lowers the misfit and keeps epsilon ≥ delta and its bounds in every cell of every model it
 * writes; a bound outside the parameter's allowed values is refused naming the key.
 */
class AcousticVtiCommandTest {
    private static final int NZ = 24;
    private static final int NX = 40;

    @TempDir
    Path dir;

    /** A float32 (NZ, NX) file: {@code top} in the first 4 rows, then {@code below} rising by {@code grad} a row. */
    private Path field(String name, float top, float below, float grad) {
        float[] a = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            Arrays.fill(a, z * NX, (z + 1) * NX, z < 4 ? top : below + grad * (z - 4));
        }
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, a, NZ, NX);
        return p;
    }

    @Test
    void epsilonBelowDeltaIsRefusedNamingTheFilesAndTheCell() throws Exception {
        Path vp = field("vp.npy", 1500, 2000, 20);
        Path eps = field("eps.npy", 0, 0.1f, 0);
        Path delta = field("delta.npy", 0, 0.05f, 0);
        float[] d = Npy.readFloat32(delta, "delta").asFloat32();
        d[9 * NX + 13] = 0.2f;
        Npy.writeFloat32(delta, d, NZ, NX);
        Path out = dir.resolve("rec.npy");
        CliHarness.fails("epsilon = 0.1 (--epsilon: " + eps + ") is below delta = 0.2 (--delta: " + delta
                + ") at (z, x) = (9, 13)",
                "forward", "--equation", "acoustic-vti", "--vp", vp.toString(), "--epsilon", eps.toString(),
                "--delta", delta.toString(), "--dh", "10", "--dt", "0.001", "--nt", "50", "--abcn", "6",
                "--ricker", "15", "--sources", CliHarness.cells(dir, "src.npy", 1, 1, 10, 1).toString(),
                "--receivers", CliHarness.cells(dir, "rec_cells.npy", 1, 3, 4, 1).toString(), "--out",
                out.toString());
        assertFalse(Files.exists(out), "no record written");
    }

    @Test
    void fwiInvertsVpAndEpsilonWithinTheirBounds() throws Exception {
        Path vp = field("vp.npy", 1500, 2000, 25);
        Path eps = field("eps.npy", 0, 0.05f, 0.004f);
        Path delta = field("delta.npy", 0, 0.05f, 0.001f);
        Path fwi = dir.resolve("fwi");
        String base = "{\"equation\": \"acoustic-vti\", \"vp_true\": \"" + vp + "\", \"epsilon_true\": \"" + eps
                + "\", \"delta_true\": \"" + delta + "\", \"dh\": 10, \"dt\": 0.001, \"nt\": 400, \"ricker\": 15,"
                + " \"abcn\": 8, \"shots\": 2, \"threads\": 1, \"iterations\": 3, \"invert\": \"vp,epsilon\","
                + " \"smooth\": 60, \"out\": \"" + fwi + "\"";
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, base + ", \"epsilon_min\": -0.6}");
        CliHarness.fails("epsilon_min", "fwi", "--job", bad.toString());
        assertFalse(Files.exists(fwi), "no output folder");
        Path job = dir.resolve("job.json");
        Files.writeString(job, base + ", \"epsilon_min\": -0.1, \"epsilon_max\": 0.2}");
        CliHarness.Result r = CliHarness.run("fwi", "--job", job.toString());
        assertEquals(0, r.code(), r.stderr());
        String summary = Files.readString(fwi.resolve("summary.json"));
        assertTrue(summary.contains("\"epsilon\""), summary);
        int n = NZ * NX;
        for (String name : new String[] {"model_band1.npy", "model_final.npy"}) {
            float[] m = Npy.readFloat32(fwi.resolve(name), name).asFloat32();
            for (int i = 0; i < n; i++) {
                float e = m[n + i];
                assertTrue(e >= m[2 * n + i] && e >= -0.1f && e <= 0.2f, name + " cell " + i + ": epsilon " + e
                        + ", delta " + m[2 * n + i]);
            }
        }
        String all = r.out() + r.stderr();
        System.out.println("acoustic-vti fwi: " + all.lines().filter(l -> l.startsWith("misfit")).findFirst()
                .orElse(all));
        assertTrue(all.lines().anyMatch(l -> l.startsWith("misfit") && l.contains("lower")), all);
    }
}
