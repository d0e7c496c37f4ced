package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;

/**
 * What {@code sweep fwi} tells while it runs and after: a line per stage before the first iteration (observed data,
 * each band's starting misfit) with its time, the time left in the band, what a {@code --resume} continues and that
 * it reuses the observed data it wrote (only while the true model is the one they were made from), and times in
 * summary.json summed over every process of the run.
 */
class FwiRunReportTest {
    private static final int NZ = 20;
    private static final int NX = 40;

    @TempDir
    Path dir;

    private Path model(String name, float bump) {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                v[z * NX + x] = 2000 + 20 * z + (Math.abs(z - 10) + Math.abs(x - 20) < 5 ? bump : 0);
            }
        }
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, v, NZ, NX);
        return p;
    }

    private Path job(Path vpTrue, Path vpStart) throws Exception {
        Path job = dir.resolve("job.json");
        Files.writeString(job, "{\"vp_true\": \"" + vpTrue + "\", \"vp_start\": \"" + vpStart + "\", \"dh\": 10,"
                + " \"dt\": 0.001, \"nt\": 300, \"ricker\": 15, \"abcn\": 8, \"shots\": 2, \"threads\": 1,"
                + " \"bands\": [0], \"iterations\": 2, \"out\": \"" + dir.resolve("out") + "\"}");
        return job;
    }

    private JsonObject summary() throws Exception {
        return JsonParser.parseString(Files.readString(dir.resolve("out/summary.json"))).getAsJsonObject();
    }

    private static double sum(JsonArray processes) {
        double s = 0;
        for (var p : processes) {
            s += p.getAsJsonObject().get("seconds").getAsDouble();
        }
        return s;
    }

    @Test
    void aRunTellsItsStagesAndAResumeWhatItContinuesAndReuses() throws Exception {
        Path truth = model("true.npy", 200);
        Path job = job(truth, model("start.npy", 0));
        CliHarness.Result first = CliHarness.run("fwi", "--job", job.toString());
        assertEquals(0, first.code(), first.stderr());
        assertTrue(first.stderr().contains("observed data: modelling 2 shots in the true model")
                && first.stderr().contains("observed data: modelled in "), first.stderr());
        assertTrue(first.out().contains("band 1/1 (all): misfit ") && first.out().contains("at its starting model ("),
                first.out());
        assertTrue(first.out().lines().anyMatch(l -> l.contains("iteration   1/2") && l.contains("left in the band)")),
                first.out());
        JsonObject s1 = summary();
        assertEquals(1, s1.getAsJsonArray("processes").size());
        double band1 = s1.getAsJsonArray("bands").get(0).getAsJsonObject().get("seconds").getAsDouble();
        assertTrue(band1 > 0 && band1 <= s1.get("seconds_total").getAsDouble(), s1.toString());

        CliHarness.Result more = CliHarness.run("fwi", "--job", job.toString(), "--resume", "--iterations", "3");
        assertEquals(0, more.code(), more.stderr());
        assertTrue(more.stderr().contains("observed data: --resume reuses " + dir.resolve("out/observed.npy")),
                more.stderr());
        assertFalse(more.stderr().contains("modelling"), more.stderr());
        assertTrue(more.stderr().contains("--resume: band 1/1 (all) continues after iteration 2 of 3"),
                more.stderr());
        JsonObject s2 = summary();
        JsonArray processes = s2.getAsJsonArray("processes");
        assertEquals(2, processes.size(), s2.toString());
        assertTrue(processes.get(1).getAsJsonObject().get("resumed_at").getAsString().contains("iteration 2 of 3"));
        assertEquals(sum(processes), s2.get("seconds_total").getAsDouble(), 0.05 * sum(processes));
        double band2 = s2.getAsJsonArray("bands").get(0).getAsJsonObject().get("seconds").getAsDouble();
        assertTrue(band2 > band1, "the band's time adds the resumed process's: " + band1 + " then " + band2);
        assertTrue(s2.get("seconds_total").getAsDouble() > processes.get(1).getAsJsonObject().get("seconds")
                .getAsDouble());

        // another true model: its observed data are modelled, not taken from the folder
        float[] v = Npy.readFloat32(truth, "true").asFloat32();
        Arrays.fill(v, 8 * NX, 9 * NX, 2300);
        Npy.writeFloat32(truth, v, NZ, NX);
        CliHarness.Result changed = CliHarness.run("fwi", "--job", job.toString(), "--resume", "--iterations", "4");
        assertTrue(changed.stderr().contains("observed data: modelling 2 shots"), changed.stderr());
        assertFalse(changed.stderr().contains("reuses"), changed.stderr());
        // and the checkpoint, of a job with other data, is refused
        assertEquals(2, changed.code(), changed.stderr());
        assertTrue(changed.err().contains("checkpoint"), changed.stderr());
    }
}
