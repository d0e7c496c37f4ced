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
 * The defaults an FWI job on a model file gets, and prints: its water layer (the top rows at one velocity below
 * 1600 m/s) muted, so the gradient is zero there and the model keeps its water, and a source taper of 5 cells; a land
 * model (no water at the top) gets the taper only; keys given switch both off, and nothing is printed then.
 */
class FwiModelFileDefaultsTest {
    private static final int NZ = 20;
    private static final int NX = 40;

    @TempDir
    Path dir;

    /** A model file: {@code water} rows of 1500 m/s, then 2000 m/s rising by 20 m/s a row. */
    private Path model(String name, int water) {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            Arrays.fill(v, z * NX, (z + 1) * NX, z < water ? 1500 : 2000 + 20 * z);
        }
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, v, NZ, NX);
        return p;
    }

    private CliHarness.Result fwi(Path vp, String out, String more) throws Exception {
        Path job = dir.resolve(out + ".json");
        Files.writeString(job, "{\"vp_true\": \"" + vp + "\", \"dh\": 10, \"dt\": 0.001, \"nt\": 300, \"ricker\": 15,"
                + " \"abcn\": 8, \"shots\": 2, \"threads\": 1, \"iterations\": 1, \"smooth\": 60, \"out\": \""
                + dir.resolve(out) + "\"" + more + "}");
        CliHarness.Result r = CliHarness.run("fwi", "--job", job.toString());
        assertEquals(0, r.code(), r.stderr());
        return r;
    }

    @Test
    void aModelFileGetsItsWaterMutedAndASourceTaper() throws Exception {
        CliHarness.Result marine = fwi(model("marine.npy", 3), "marine", "");
        String line = marine.stderr().lines().filter(l -> l.contains("defaults for a model file")).findFirst()
                .orElse(marine.stderr());
        assertTrue(line.contains("mute_rows 3 (the top rows of vp_true at one velocity, 1500.0 m/s: water)")
                && line.contains("source_taper 50 m (5 cells)"), line);
        float[] g = Npy.readFloat32(dir.resolve("marine").resolve("gradient_final.npy"), "gradient").asFloat32();
        float[] start = Npy.readFloat32(dir.resolve("marine").resolve("model_start.npy"), "start").asFloat32();
        float[] fin = Npy.readFloat32(dir.resolve("marine").resolve("model_final.npy"), "final").asFloat32();
        double below = 0;
        for (int i = 0; i < g.length; i++) {
            if (i < 3 * NX) {
                assertEquals(0f, g[i], "the muted water's gradient at cell " + i);
                assertEquals(start[i], fin[i], "the water's velocity at cell " + i);
            } else {
                below = Math.max(below, Math.abs(g[i]));
            }
        }
        assertTrue(below > 0, "the gradient below the water is zero");

        CliHarness.Result land = fwi(model("land.npy", 0), "land", "");
        assertTrue(land.stderr().contains("defaults for a model file: source_taper 50 m (5 cells); set the keys")
                && !land.stderr().contains("mute_rows"), land.stderr());

        CliHarness.Result given = fwi(model("given.npy", 3), "given", ", \"mute_rows\": 0, \"source_taper\": 0");
        assertFalse(given.stderr().contains("defaults for a model file"), given.stderr());
    }
}
