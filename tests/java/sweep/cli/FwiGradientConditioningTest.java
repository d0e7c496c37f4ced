package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.cli.CliHarness.fails;
import static sweep.cli.CliHarness.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.cli.CliHarness.Result;
import sweep.io.Npy;

/**
 * The job-file keys of the gradient conditioning, {@code smooth_gradient}, {@code source_taper},
 * {@code gradient_mask} and {@code precondition(_epsilon)}: bad values are refused (exit code 2, one line naming the
 * key), so is a mask the run would overwrite; a preconditioned run (the default) writes its band's illumination; and
 * a run with the smoothing, taper and mask writes a final gradient that is zero in the muted rows and where the mask
 * is 0, and smoother elsewhere than the same job's without the smoothing (a smaller total variation per unit of the
 * gradient). A tiny problem: 30 x 40 cells, 2 shots, 150 steps, one iteration.
 */
class FwiGradientConditioningTest {
    private static final int NZ = 30;
    private static final int NX = 40;

    @TempDir
    Path dir;

    private Path job(String extra) throws Exception {
        return job("out", extra);
    }

    /** The job file of the tiny problem with output folder {@code out} and the keys {@code extra}. */
    private Path job(String out, String extra) throws Exception {
        float[] t = new float[NZ * NX];
        float[] s = new float[NZ * NX];
        for (int i = 0; i < t.length; i++) {
            t[i] = i / NX < 12 ? 2000f : 2600f;
            s[i] = i / NX < 12 ? 2000f : 2300f;
        }
        Npy.writeFloat32(dir.resolve("true.npy"), t, NZ, NX);
        Npy.writeFloat32(dir.resolve("start.npy"), s, NZ, NX);
        Path p = dir.resolve(out + ".json");
        Files.writeString(p, "{\"vp_true\": \"true.npy\", \"vp_start\": \"start.npy\", \"dh\": 10, \"dt\": 0.001,"
                + " \"nt\": 150, \"ricker\": 15, \"abcn\": 10, \"vmax\": 3000, \"mute_rows\": 2, \"max_update\": 2,"
                + " \"shots\": 2, \"threads\": 1, \"iterations\": 1, \"out\": \"" + dir.resolve(out) + "\""
                + extra + "}");
        return p;
    }

    @Test
    void badValuesAreRefusedNamingTheKey() throws Exception {
        fails("'smooth_gradient': lengths must be >= 0", "fwi", "--job", job(", \"smooth_gradient\": -20").toString());
        fails("'smooth_gradient': needs one length or 2", "fwi", "--job",
                job(", \"smooth_gradient\": [10, 20, 30]").toString());
        fails("'source_taper': must be >= 0", "fwi", "--job", job(", \"source_taper\": -1").toString());
        fails("'precondition': must be \"illumination\" or \"none\", got \"diagonal\"", "fwi", "--job",
                job(", \"precondition\": \"diagonal\"").toString());
        fails("'precondition_epsilon': must be > 0", "fwi", "--job", job(", \"precondition_epsilon\": 0").toString());
        fails("'precondition_epsilon': is set, but \"precondition\" is \"none\"", "fwi", "--job",
                job(", \"precondition\": \"none\", \"precondition_epsilon\": 0.1").toString());
        Npy.writeFloat32(dir.resolve("small.npy"), new float[12], 3, 4);
        fails("'gradient_mask': " + dir.resolve("small.npy") + " has shape [3, 4] but the model is [30, 40]", "fwi",
                "--job", job(", \"gradient_mask\": \"small.npy\"").toString());
        float[] m = new float[NZ * NX];
        m[5 * NX + 7] = 1.5f;
        Npy.writeFloat32(dir.resolve("bad.npy"), m, NZ, NX);
        fails("lies outside [0, 1]", "fwi", "--job", job(", \"gradient_mask\": \"bad.npy\"").toString());
        // a mask the run would overwrite (its final gradient) is refused before anything is written
        Files.createDirectories(dir.resolve("out"));
        Npy.writeFloat32(dir.resolve("out/gradient_final.npy"), new float[NZ * NX], NZ, NX);
        fails("which is also the input out.json: key 'gradient_mask'", "fwi", "--job",
                job(", \"gradient_mask\": \"out/gradient_final.npy\"").toString());
        Files.delete(dir.resolve("out/gradient_final.npy"));
        Files.delete(dir.resolve("out"));
        assertTrue(!Files.exists(dir.resolve("out")), "a refused job writes no output folder");
    }

    @Test
    void theFinalGradientIsSmoothAndZeroWhereItMustBe() throws Exception {
        float[] m = new float[NZ * NX];
        Arrays.fill(m, 1f);
        for (int z = 20; z < NZ; z++) {
            for (int x = 0; x < 10; x++) {
                m[z * NX + x] = 0f;
            }
        }
        Npy.writeFloat32(dir.resolve("mask.npy"), m, NZ, NX);
        Result raw = run("fwi", "--job", job(", \"gradient_mask\": \"mask.npy\"").toString());
        assertEquals(0, raw.code(), raw.stderr());
        double rough = variation(Npy.readFloat32(dir.resolve("out/gradient_final.npy"), "gradient").asFloat32());
        Result r = run("fwi", "--job", job("out2", ", \"smooth_gradient\": [20, 30], \"source_taper\": 40,"
                + " \"gradient_mask\": \"mask.npy\"").toString());
        assertEquals(0, r.code(), r.stderr());
        float[] g = Npy.readFloat32(dir.resolve("out2/gradient_final.npy"), "gradient").asFloat32();
        assertEquals(NZ * NX, g.length);
        // preconditioned by default: the band's illumination (a sum of squares, lit somewhere) is written beside
        // the model
        Npy.Array il = Npy.readFloat32(dir.resolve("out2/illumination_band1.npy"), "illumination");
        assertArrayEquals(new int[] {NZ, NX}, il.shape());
        float top = 0f;
        for (float v : il.asFloat32()) {
            assertTrue(v >= 0f && Float.isFinite(v), "illumination value " + v);
            top = Math.max(top, v);
        }
        assertTrue(top > 0f, "the illumination is zero everywhere");
        for (int i = 0; i < 2 * NX; i++) {
            assertEquals(0f, g[i], 0f, "muted row cell " + i);
        }
        for (int z = 20; z < NZ; z++) {
            for (int x = 0; x < 10; x++) {
                assertEquals(0f, g[z * NX + x], 0f, "masked cell (" + z + ", " + x + ")");
            }
        }
        double smooth = variation(g);
        System.out.printf("fwi gradient conditioning: total variation per unit of gradient %.3f (raw %.3f)%n", smooth,
                rough);
        assertTrue(smooth < 0.7 * rough, "total variation per unit of the gradient: smoothed " + smooth + ", raw "
                + rough);
    }

    /** Σ |differences of neighbours along x and z| / Σ |g|: about 1/(correlation length in cells). */
    private static double variation(float[] g) {
        double top = 0;
        double sum = 0;
        double tv = 0;
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                int i = z * NX + x;
                top = Math.max(top, Math.abs(g[i]));
                sum += Math.abs(g[i]);
                if (x + 1 < NX) {
                    tv += Math.abs(g[i + 1] - g[i]);
                }
                if (z + 1 < NZ) {
                    tv += Math.abs(g[i + NX] - g[i]);
                }
            }
        }
        assertTrue(top > 0, "the gradient is not all zero");
        return tv / sum;
    }
}
