package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.core.Wavelets;
import sweep.fwi.FwiTest;
import sweep.io.Npy;
import sweep.io.SegyFile;
import sweep.parallel.MpiRunner;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * {@code sweep fwi} from job files: outputs checked against independent computations, a resume after killing the
 * process equal to the uninterrupted run, and bad job files failing with messages that name the key and the file.
 */
class FwiCommandTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

    /** Runs the command line in this JVM, capturing its standard output and picocli's error stream. */
    static Result run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        java.io.PrintStream oldOut = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int code = cl.execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(oldOut);
        }
    }

    /** The small FWI problem of {@link FwiTest} (40 x 80 cells at 10 m) as files and a job file; returns its path. */
    private Path job(Path folder, String extra) throws Exception {
        Files.createDirectories(folder);
        float[] vTrue = FwiTest.trueModel();
        Npy.writeFloat32(folder.resolve("true.npy"), vTrue, 40, 80);
        Npy.writeFloat32(folder.resolve("start.npy"), FwiTest.startModel(vTrue), 40, 80);
        String json = "{\"vp_true\": \"true.npy\", \"vp_start\": \"start.npy\", \"dh\": 10, \"dt\": 0.001, \"nt\": 600,"
                + " \"ricker\": 8, \"abcn\": 12, \"vmax\": 3000, \"mute_rows\": 4, \"shots\": 4, \"threads\": 1,"
                + " \"out\": \"" + folder.resolve("out") + "\"" + extra + "}";
        Path p = folder.resolve("job.json");
        Files.writeString(p, json);
        return p;
    }

    /** The spec {@link #job}'s FWI runs with (written out here, independently of the job's keys). */
    private static PropSpec jobSpec() {
        return PropSpec.builder(40, 80).dh(10).dt(1e-3).nt(600).abcn(12).freeSurface(true).maxVel(3000).build();
    }

    /** The job's 4 surface shots, 200 m apart from x = 100 m, one row down. */
    private static int[][][] jobSources() {
        int[][][] src = new int[4][][];
        for (int b = 0; b < 4; b++) {
            src[b] = new int[][] {{10 + 20 * b, 1}};
        }
        return src;
    }

    /** The job's receivers: every other cell along the row below the surface, the same for every shot. */
    private static int[][][] jobReceivers() {
        int[][][] rec = new int[4][40][];
        for (int b = 0; b < 4; b++) {
            for (int k = 0; k < 40; k++) {
                rec[b][k] = new int[] {2 * k, 1};
            }
        }
        return rec;
    }

    @Test
    void jobFileRunWritesConsistentOutputs() throws Exception {
        Path job = job(dir, ", \"bands\": [{\"cutoff\": 5, \"iterations\": 2}, {\"cutoff\": 0, \"iterations\": 1}]");
        Result r = run("fwi", "--job", job.toString());
        assertEquals(0, r.code(), r.err());
        Path out = dir.resolve("out");
        // observed data: an independent forward run of the true model with the same settings
        PropSpec spec = jobSpec();
        int[][][] src = jobSources();
        int[][][] rec = jobReceivers();
        float[] expected;
        try (Propagator p = new Propagator(spec)) {
            expected = p.forward(Wavelets.ricker(8, 600, 1e-3), src, rec, FwiTest.trueModel()).data();
        }
        float[] observed = Npy.readFloat32(out.resolve("observed.npy"), "observed").asFloat32();
        assertArrayEquals(expected, observed);
        // SEG-Y read back with an independent reader: the same samples, shot by shot, receivers in order
        SegyFile sgy = SegyFile.read(out.resolve("observed.sgy"));
        assertEquals(4 * 40, sgy.traces());
        assertEquals(1000, sgy.th16(0, 117), "sample interval in microseconds");
        for (int b = 0; b < 4; b++) {
            for (int k = 0; k < 40; k += 13) {
                float[] trace = sgy.samples(b * 40 + k);
                for (int t = 0; t < 600; t++) {
                    assertEquals(observed[(b * 600 + t) * 40 + k], trace[t], 0f);
                }
                assertEquals(100 * (10 + 20 * b) * 10, sgy.th32(b * 40 + k, 73), "source x in cm");
                assertEquals(100 * 2 * k * 10, sgy.th32(b * 40 + k, 81), "receiver x in cm");
            }
        }
        // per-band and final models: the last band's model is the final one
        float[] band2 = Npy.readFloat32(out.resolve("model_band2.npy"), "band 2").asFloat32();
        float[] fin = Npy.readFloat32(out.resolve("model_final.npy"), "final").asFloat32();
        assertArrayEquals(band2, fin);
        assertTrue(Files.exists(out.resolve("model_band1.npy")) && Files.exists(out.resolve("gradient_band1.npy")));
        for (String png : List.of("model_true.png", "model_start.png", "model_final.png", "models.png",
                "model_band1.png", "gradient_final.png", "misfit.png", "observed_shot1.png", "model_error.png",
                "profiles.png", "data_shot1.png")) {
            assertTrue(Files.size(out.resolve(png)) > 100, png);
        }
        // shot 1's synthetic data in the starting and final model: independent forward runs of the written models
        // (the last band is unfiltered, so its data are the observed data and the Ricker)
        Npy.Array syn = Npy.readFloat32(out.resolve("synthetic_shot1.npy"), "synthetic");
        assertArrayEquals(new int[] {2, 600, 40, 1}, syn.shape());
        float[] both = syn.asFloat32();
        float[][] models = {Npy.readFloat32(out.resolve("model_start.npy"), "start").asFloat32(), fin};
        int n = 600 * 40;
        double[] residual = new double[2];
        double norm = 0;
        for (int i = 0; i < n; i++) {
            norm += (double) observed[i] * observed[i];
        }
        try (Propagator p = new Propagator(spec)) {
            for (int m = 0; m < 2; m++) {
                float[] one = p.forward(Wavelets.ricker(8, 600, 1e-3), new int[][][] {src[0]},
                        new int[][][] {rec[0]}, models[m]).data();
                assertArrayEquals(one, Arrays.copyOfRange(both, m * n, (m + 1) * n), m == 0 ? "start" : "final");
                for (int i = 0; i < n; i++) {
                    residual[m] += ((double) one[i] - observed[i]) * ((double) one[i] - observed[i]);
                }
            }
        }
        JsonObject summary = JsonParser.parseString(Files.readString(out.resolve("summary.json"))).getAsJsonObject();
        JsonObject res = summary.getAsJsonObject("data_residual_shot1");
        assertEquals(Math.sqrt(residual[0] / norm), res.get("start").getAsDouble(), 1e-9);
        assertEquals(Math.sqrt(residual[1] / norm), res.get("final").getAsDouble(), 1e-9);
        assertTrue(residual[1] < residual[0], "the inversion fits shot 1 better: " + res);
        assertEquals(1 + 3, summary.getAsJsonArray("misfit").size(), "initial misfit plus one per iteration");
        assertEquals(2, summary.getAsJsonArray("bands").size());
        assertTrue(r.out().contains("band 2/2 (all) iteration   1/1"), r.out());
    }

    /** Kills the FWI process in its second band, resumes it, and compares with an uninterrupted run. */
    /**
     * "wavelet": "estimate" with observed data made by another wavelet (1.5 times an 8 Hz Ricker, 12 samples later)
     * and the true model as the start: the estimate written for the band is that wavelet (the data are linear in it,
     * WaveletEstimateTest), drawn beside the start wavelet.
     */
    @Test
    void anEstimatedWaveletAtTheTrueModelIsTheOneThatMadeTheData() throws Exception {
        PropSpec spec = jobSpec();
        int[][][] src = jobSources();
        int[][][] rec = jobReceivers();
        float[] ricker = Wavelets.ricker(8, 600, 1e-3);
        float[] truth = new float[600];
        for (int t = 12; t < 600; t++) {
            truth[t] = 1.5f * ricker[t - 12];
        }
        Path folder = dir.resolve("estimate");
        Files.createDirectories(folder);
        try (Propagator p = new Propagator(spec)) {
            Npy.writeFloat32(folder.resolve("obs.npy"), p.forward(truth, src, rec, FwiTest.trueModel()).data(), 4,
                    600, 40, 1);
        }
        Npy.writeFloat32(folder.resolve("true.npy"), FwiTest.trueModel(), 40, 80);
        String json = "{\"vp_start\": \"true.npy\", \"observed\": \"obs.npy\", \"dh\": 10, \"dt\": 0.001, \"nt\": 600,"
                + " \"ricker\": 8, \"wavelet\": \"estimate\", \"abcn\": 12, \"vmax\": 3000, \"shots\": 4,"
                + " \"threads\": 1, \"bands\": [{\"cutoff\": 0, \"iterations\": 1}], \"out\": \""
                + folder.resolve("out") + "\"}";
        Files.writeString(folder.resolve("job.json"), json);
        Result r = run("fwi", "--job", folder.resolve("job.json").toString());
        assertEquals(0, r.code(), r.err());
        Npy.Array est = Npy.readFloat32(folder.resolve("out").resolve("wavelet_band1.npy"), "estimate");
        assertArrayEquals(new int[] {600}, est.shape());
        double num = 0;
        double den = 0;
        for (int t = 0; t < 600; t++) {
            num += Math.pow(est.asFloat32()[t] - truth[t], 2);
            den += Math.pow(truth[t], 2);
        }
        System.out.printf("sweep fwi \"wavelet\": \"estimate\" at the true model: wavelet error %.2e%n",
                Math.sqrt(num / den));
        assertTrue(Math.sqrt(num / den) < 0.05, "estimate off the wavelet that made the data by "
                + Math.sqrt(num / den));
        assertTrue(Files.size(folder.resolve("out").resolve("wavelets.png")) > 0);
    }

    /**
     * A run killed in its second band and resumed ends with the uninterrupted run's model and misfits; so does the
     * same job decomposed under mpirun, killed and resumed (the one-domain model, bit for bit).
     */
    @Test
    void resumeAfterKillEqualsUninterruptedRun() throws Exception {
        Path killed = twoBandJob(dir.resolve("killed"), 1, 2);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "--add-modules", "jdk.incubator.vector", "-Xmx1g",
                Main.class.getName(), "fwi", "--job", killed.toString()));
        Path log = dir.resolve("killed.err");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        StringBuilder seen = new StringBuilder();
        boolean killedMidRun = false;
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                seen.append(line).append('\n');
                if (line.startsWith("band 2/2 (all) iteration   1/2")) {
                    p.destroyForcibly();
                    killedMidRun = true;
                    break;
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(killedMidRun, "the run ended before it could be killed:\n" + seen + Files.readString(log));
        Path out = dir.resolve("killed/out");
        assertFalse(Files.exists(out.resolve("model_final.npy")), "killed before the end");
        assertTrue(Files.exists(out.resolve("checkpoint-band1.bin")));
        String stderr = Files.readString(log);
        assertFalse(stderr.contains("%") || stderr.contains("=>"),
                "no progress bar when stderr is not a terminal:\n" + stderr);

        CliHarness.Result resumed = CliHarness.run("fwi", "--job", killed.toString(), "--resume");
        assertEquals(0, resumed.code(), resumed.stderr());
        assertTrue(resumed.stderr().contains("--resume: band 1/2 (<5 Hz) finished (1 iteration); band 2/2 (all)"
                + " continues after iteration "), resumed.stderr());
        assertFalse(resumed.out().contains("band 1/2"), "band 1 was finished and is not run again:\n" + resumed.out());
        assertFalse(resumed.out().contains("iteration   1/2"), "iteration 1 of band 2 is not run again");

        Path whole = twoBandJob(dir.resolve("whole"), 1, 2);
        Result uninterrupted = run("fwi", "--job", whole.toString());
        assertEquals(0, uninterrupted.code(), uninterrupted.err());
        float[] a = Npy.readFloat32(out.resolve("model_final.npy"), "resumed").asFloat32();
        float[] b = Npy.readFloat32(dir.resolve("whole/out/model_final.npy"), "whole").asFloat32();
        assertArrayEquals(b, a);
        JsonObject sa = JsonParser.parseString(Files.readString(out.resolve("summary.json"))).getAsJsonObject();
        JsonObject sb = JsonParser.parseString(Files.readString(dir.resolve("whole/out/summary.json")))
                .getAsJsonObject();
        assertEquals(sb.get("misfit"), sa.get("misfit"));
        assertNotEquals(FwiTest.modelError(FwiTest.startModel(FwiTest.trueModel()), FwiTest.trueModel()),
                FwiTest.modelError(a, FwiTest.trueModel()));

        // the same job decomposed (mpirun, px = 2: each rank holds its tile of the optimiser), every rank killed
        // (SIGKILL) in the middle of band 2, then resumed: the one-domain model, bit for bit
        Path dd = twoBandJob(dir.resolve("dd"), 1, 2);
        Process job = MpiRunner.start(2, dir.resolve("dd.err"), Main.class, "fwi", "--job", dd.toString(), "--px",
                "2");
        boolean ddKilled = false;
        List<ProcessHandle> ranks = List.of();
        StringBuilder ddSeen = new StringBuilder();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(job.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                ddSeen.append(line).append('\n');
                if (line.startsWith("band 2/2 (all) iteration   1/2")) {
                    ranks = job.descendants().toList();
                    ranks.forEach(ProcessHandle::destroyForcibly);
                    job.destroyForcibly();
                    ddKilled = true;
                    break;
                }
            }
        }
        assertTrue(job.waitFor(60, TimeUnit.SECONDS));
        for (ProcessHandle h : ranks) { // gone, so that the resumed run finds their output lock stale
            h.onExit().get(60, TimeUnit.SECONDS);
        }
        assertTrue(ddKilled, "the decomposed run ended before it could be killed:\n" + ddSeen
                + Files.readString(dir.resolve("dd.err")));
        Path ddOut = dir.resolve("dd/out");
        assertFalse(Files.exists(ddOut.resolve("model_final.npy")), "killed before the end");
        MpiRunner.Result ddResumed = MpiRunner.run(2, Main.class, "fwi", "--job", dd.toString(), "--px", "2",
                "--resume");
        assertEquals(0, ddResumed.exitCode(), ddResumed.describe());
        assertFalse(ddResumed.stdout().contains("iteration   1/2"), "iteration 1 of band 2 is not run again:\n"
                + ddResumed.describe());
        assertTrue(ddResumed.stderr().contains("observed data: --resume reuses"), "every rank gets the observed data"
                + " the first run wrote:\n" + ddResumed.describe());
        assertArrayEquals(b, Npy.readFloat32(ddOut.resolve("model_final.npy"), "decomposed").asFloat32());
    }

    /**
     * A job with "misfit": "ncc" inverts with the trace-normalised correlation: summary.json names it, its J (a sum of
     * 1 - correlation over the 2 x 40 traces) stays within [0, 160] and falls in each band; --misfit l2 overrides the
     * job file and ends with another model.
     */
    @Test
    void anNccJobInvertsWithTheTraceNormalisedCorrelation() throws Exception {
        Path job = twoBandJob(dir.resolve("ncc"));
        Files.writeString(job, Files.readString(job).replaceFirst("\\{", "{\"misfit\": \"ncc\", "));
        Result r = run("fwi", "--job", job.toString());
        assertEquals(0, r.code(), r.err());
        JsonObject s = JsonParser.parseString(Files.readString(dir.resolve("ncc/out/summary.json"))).getAsJsonObject();
        assertEquals("ncc", s.get("misfit_function").getAsString());
        for (var band : s.getAsJsonArray("bands")) {
            var m = band.getAsJsonObject().getAsJsonArray("misfit");
            double first = m.get(0).getAsDouble();
            double last = m.get(m.size() - 1).getAsDouble();
            assertTrue(first > 0 && first <= 160 && last < first, "band misfits " + m);
        }
        Result l2 = run("fwi", "--job", job.toString(), "--misfit", "l2", "--out", dir.resolve("l2").toString());
        assertEquals(0, l2.code(), l2.err());
        JsonObject s2 = JsonParser.parseString(Files.readString(dir.resolve("l2/summary.json"))).getAsJsonObject();
        assertEquals("l2", s2.get("misfit_function").getAsString());
        assertFalse(Arrays.equals(Files.readAllBytes(dir.resolve("ncc/out/model_final.npy")),
                Files.readAllBytes(dir.resolve("l2/model_final.npy"))), "ncc and l2 end with the same model");
    }

    /** A two-band job of 2 shots and 400 steps whose bands ask for one iteration each. */
    static Path twoBandJob(Path folder) throws Exception {
        return twoBandJob(folder, 1, 1);
    }

    /** A two-band job of 2 shots and 400 steps whose bands ask for {@code first} and {@code second} iterations. */
    static Path twoBandJob(Path folder, int first, int second) throws Exception {
        Files.createDirectories(folder);
        float[] vTrue = FwiTest.trueModel();
        Npy.writeFloat32(folder.resolve("true.npy"), vTrue, 40, 80);
        Npy.writeFloat32(folder.resolve("start.npy"), FwiTest.startModel(vTrue), 40, 80);
        String json = "{\"vp_true\": \"true.npy\", \"vp_start\": \"start.npy\", \"dh\": 10, \"dt\": 0.001, \"nt\": 400,"
                + " \"ricker\": 8, \"abcn\": 10, \"vmax\": 3000, \"mute_rows\": 4, \"shots\": 2, \"threads\": 1,"
                + " \"bands\": [{\"cutoff\": 5, \"iterations\": " + first + "}, {\"cutoff\": 0, \"iterations\": "
                + second + "}],"
                + " \"out\": \"" + folder.resolve("out") + "\"}";
        Path p = folder.resolve("job.json");
        Files.writeString(p, json);
        return p;
    }

    private static int iterationsOfBand(Path out, int band) throws Exception {
        JsonObject s = JsonParser.parseString(Files.readString(out.resolve("summary.json"))).getAsJsonObject();
        return s.getAsJsonArray("bands").get(band).getAsJsonObject().getAsJsonArray("iterations").size();
    }

    /**
     * --iterations overrides the bands' own counts, also on --resume: a finished run resumed with more iterations
     * continues each band from its checkpoint, the band after one that ran further restarts from its new model, and
     * the result equals an uninterrupted run with that many iterations, bit for bit. Fewer iterations than a
     * checkpoint holds is refused.
     */
    @Test
    void iterationsFlagOverridesTheJobFileAlsoOnResume() throws Exception {
        Path a = twoBandJob(dir.resolve("a"));
        Path outA = dir.resolve("a/out");
        Result first = run("fwi", "--job", a.toString());
        assertEquals(0, first.code(), first.err());
        assertEquals(1, iterationsOfBand(outA, 0), "the job file's per-band count without the flag");

        Result more = run("fwi", "--job", a.toString(), "--resume", "--iterations", "2");
        assertEquals(0, more.code(), more.err());
        assertFalse(more.out().contains("band 1/2 (<5 Hz) iteration   1/2"), "band 1 continues:\n" + more.out());
        assertTrue(more.out().contains("band 1/2 (<5 Hz) iteration   2/2"), more.out());
        assertTrue(more.out().contains("band 2/2 (all) iteration   1/2"), "band 2 restarts:\n" + more.out());
        assertEquals(2, iterationsOfBand(outA, 0));
        assertEquals(2, iterationsOfBand(outA, 1));

        Path b = twoBandJob(dir.resolve("b"));
        Result whole = run("fwi", "--job", b.toString(), "--iterations", "2");
        assertEquals(0, whole.code(), whole.err());
        Path outB = dir.resolve("b/out");
        assertEquals(2, iterationsOfBand(outB, 0), "--iterations overrides the bands' own counts");
        assertEquals(2, iterationsOfBand(outB, 1));
        assertArrayEquals(Npy.readFloat32(outB.resolve("model_final.npy"), "b").asFloat32(),
                Npy.readFloat32(outA.resolve("model_final.npy"), "a").asFloat32());
        JsonObject sa = JsonParser.parseString(Files.readString(outA.resolve("summary.json"))).getAsJsonObject();
        JsonObject sb = JsonParser.parseString(Files.readString(outB.resolve("summary.json"))).getAsJsonObject();
        assertEquals(sb.get("misfit"), sa.get("misfit"));

        Result fewer = run("fwi", "--job", a.toString(), "--resume", "--iterations", "1");
        assertEquals(2, fewer.code(), fewer.err());
        assertTrue(fewer.err().contains("already holds 2 iterations"), fewer.err());
    }

    /**
     * A checkpoint with one flipped byte, or cut short, is refused on --resume with exit code 2, naming the file and
     * saying to start afresh (it would otherwise resume from a damaged model).
     */
    @Test
    void corruptedOrTruncatedCheckpointsAreRefused() throws Exception {
        Path a = twoBandJob(dir.resolve("a"));
        Result first = run("fwi", "--job", a.toString());
        assertEquals(0, first.code(), first.err());
        Path cp = dir.resolve("a/out/checkpoint-band1.bin");
        byte[] bytes = Files.readAllBytes(cp);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(cp, bytes);
        Result corrupted = run("fwi", "--job", a.toString(), "--resume");
        assertEquals(2, corrupted.code(), corrupted.err());
        assertTrue(corrupted.err().contains(cp.toString()) && corrupted.err().contains("corrupted")
                && corrupted.err().contains("without --resume"), corrupted.err());
        Files.write(cp, Arrays.copyOf(bytes, 100));
        Result truncated = run("fwi", "--job", a.toString(), "--resume");
        assertEquals(2, truncated.code(), truncated.err());
        assertTrue(truncated.err().contains(cp.toString()) && truncated.err().contains("truncated"), truncated.err());
    }

    private void assertFails(String json, String... fragments) throws Exception {
        Path p = dir.resolve("bad.json");
        Files.writeString(p, json);
        Result r = run("fwi", "--job", p.toString());
        assertEquals(2, r.code(), r.err());
        for (String f : fragments) {
            assertTrue(r.err().contains(f), "message should name '" + f + "': " + r.err());
        }
    }

    @Test
    void badJobFilesNameTheKeyAndTheFile() throws Exception {
        job(dir, "");
        assertFails("{\"itertions\": 3}", "bad.json", "unknown key 'itertions'", "iterations");
        assertFails("{\"vp_true\": \"missing.npy\", \"dh\": 10}", "bad.json: key 'vp_true'", "missing.npy",
                "not found");
        Npy.writeFloat32(dir.resolve("small.npy"), new float[30 * 80], 30, 80);
        assertFails("{\"vp_true\": \"true.npy\", \"vp_start\": \"small.npy\", \"dh\": 10, \"vmax\": 3000}",
                "key 'vp_start'", "small.npy", "[30, 80]", "[40, 80]");
        Npy.writeFloat32(dir.resolve("obs.npy"), new float[4 * 100 * 40], 4, 100, 40);
        assertFails("{\"vp_start\": \"start.npy\", \"observed\": \"obs.npy\", \"dh\": 10, \"nt\": 600, \"dt\": 0.001,"
                + " \"shots\": 4, \"vmax\": 3000}", "key 'observed'", "obs.npy", "[4, 100, 40]", "(4, 600, 40)");
        assertFails("{\"vp_true\": \"true.npy\", \"vmax\": 3000}", "dh");
        assertFails("{\"bands\": [8, 4]}", "key 'bands'", "low to high");
        assertFails("{\"iterations\": \"many\"}", "key 'iterations'", "number");
        assertFails("{\"shots\": 4, \"supershots\": 3}", "key 'supershots'", "divide");
        assertFails("{\"vp_true\": \"true.npy\", \"dh\": 10, \"vmax\": 2500}", "key 'vmax'", "raise vmax");
        assertFails("{\"mesh\": {\"px\": 2, \"pz\": 2}}", "key 'mesh'", "pz");
        assertFails("{\"misfit\": \"l1\"}", "bad.json: key 'misfit'", "\"ncc\"", "\"l1\"");
        assertFails("[1, 2]", "bad.json", "JSON object");
        assertFails("{\"offsets\": [300, 100]}", "key 'offsets'", "[min, max]");
        assertFails("{\"offsets\": [0, 500], \"shots\": 4, \"supershots\": 2}", "key 'offsets'", "supershots");
        assertFails("{\"mute_time\": 0.1}", "key 'mute_time'", "mute_velocity");
        assertFails("{\"mute_velocity\": -1500}", "key 'mute_velocity'", "positive");
        assertFails("{\"tail_mute_time\": 0.5}", "key 'tail_mute_time'", "tail_mute_velocity");
        assertFails("{\"tail_mute_velocity\": 0}", "key 'tail_mute_velocity'", "positive");
        assertFails("{\"mute_taper\": 0.2}", "key 'mute_taper'", "mute_velocity");
    }

    /**
     * A decomposed FWI whose ranks read only their tiles of the model files and the gradient mask, and smooth their
     * tiles of the true model into the starting model (no vp_start), ends with the one-domain run's starting model,
     * final model and gradient, bit for bit (with gradient smoothing and a source taper reaching across the tiles).
     * It records in summary.json, per rank, its tile, its solver's bytes by part and what its solver held, and the
     * peak heap; --verbose prints the same per rank.
     */
    @Test
    void decomposedRunEqualsOneDomainAndRecordsEachRanksMemory() throws Exception {
        float[] mask = new float[40 * 80];
        for (int i = 0; i < mask.length; i++) {
            mask[i] = (i % 80) < 30 ? 1f : (i % 80) < 50 ? 0.5f : 0.25f; // steps in both tiles and across them
        }
        Npy.writeFloat32(dir.resolve("mask.npy"), mask, 40, 80);
        Path job = job(dir, ", \"iterations\": 1, \"smooth\": 120, \"smooth_gradient\": [30, 60],"
                + " \"source_taper\": 40, \"gradient_mask\": \"mask.npy\"");
        Files.writeString(job, Files.readString(job).replace("\"vp_start\": \"start.npy\", ", ""));
        MpiRunner.Result r = MpiRunner.run(2, Main.class, "fwi", "--job", job.toString(), "--px", "2", "--verbose");
        assertEquals(0, r.exitCode(), r.describe());
        Result one = run("fwi", "--job", job.toString(), "--out", dir.resolve("one").toString());
        assertEquals(0, one.code(), one.err());
        for (String f : List.of("model_start.npy", "model_final.npy", "gradient_final.npy")) {
            assertArrayEquals(Npy.readFloat32(dir.resolve("one").resolve(f), f).asFloat32(),
                    Npy.readFloat32(dir.resolve("out").resolve(f), f).asFloat32(), f + ": px 2 against one domain");
        }
        JsonObject s = JsonParser.parseString(Files.readString(dir.resolve("out/summary.json"))).getAsJsonObject();
        JsonObject mem = s.getAsJsonObject("memory");
        long single = mem.get("solver_bytes_single_domain").getAsLong();
        assertEquals(2, mem.getAsJsonArray("ranks").size(), mem.toString());
        for (int k = 0; k < 2; k++) {
            JsonObject m = mem.getAsJsonArray("ranks").get(k).getAsJsonObject();
            assertEquals(k, m.get("rank").getAsInt());
            assertEquals("[40,40]", m.get("tile_shape").toString());
            assertEquals("[0," + 40 * k + "]", m.get("tile_offset").toString());
            long solver = m.get("solver_bytes").getAsLong();
            assertEquals(solver, m.get("fields_bytes").getAsLong() + m.get("cpml_bytes").getAsLong()
                    + m.get("adjoint_bytes").getAsLong() + m.get("tape_bytes").getAsLong(), m.toString());
            long held = m.get("solver_bytes_held").getAsLong();
            assertTrue(held > 0 && held <= solver && solver < single, m + " single " + single);
            long peak = m.get("peak_heap_bytes").getAsLong();
            assertTrue(peak > held && peak <= m.get("max_heap_bytes").getAsLong(), m.toString());
            assertTrue(r.stderr().contains("  rank " + k + " tile [40, 40] at [0, " + 40 * k + "]: solver " + solver
                    + " B"), r.describe());
        }
    }

    /** A mesh in the job file that does not match mpirun's rank count ends the job with a message naming the key. */
    @Test
    void meshNotMatchingTheRankCountFails() throws Exception {
        Path p = dir.resolve("mesh.json");
        Files.writeString(p, "{\"dh\": 100, \"time\": 0.5, \"iterations\": 1, \"mesh\": {\"px\": 3}, \"out\": \""
                + dir.resolve("o") + "\"}");
        MpiRunner.Result r = MpiRunner.run(2, Main.class, "fwi", "--job", p.toString());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("mesh.json: key 'mesh'") && r.stderr().contains("needs 3"), r.describe());
    }
}
