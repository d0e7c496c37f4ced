package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.cli.CliHarness.args;
import static sweep.cli.CliHarness.fails;
import static sweep.cli.CliHarness.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.cli.CliHarness.Result;
import sweep.io.Npy;

/**
 * Hostile input and faults on the command line: each must end in exit code 2 with one line that says what was wrong,
 * before any time step runs: outputs that cannot be written, runs that cannot fit in memory or in a Java array, NaN
 * in observed data, no receivers, duplicate job-file keys, folders given as files. No message may carry a Java
 * exception class name.
 */
class HostileInputTest {
    @TempDir
    Path dir;

    private Path model(String name, int nz, int nx) {
        return CliHarness.model(dir, name, nz, nx);
    }

    private Path cells(String name, int shots, int per, int x0, int z) {
        return CliHarness.cells(dir, name, shots, per, x0, z);
    }

    private List<String> problem(Path vp, int nt, int shots, int nrec) {
        return new ArrayList<>(List.of("--vp", vp.toString(), "--dh", "10", "--dt", "0.001", "--nt",
                String.valueOf(nt), "--abcn", "10", "--sources", cells("src.npy", shots, 1, 20, 2).toString(),
                "--receivers", cells("rec.npy", shots, nrec, 2, 3).toString(), "--ricker", "10"));
    }

    /** A folder the test process cannot create files in: /sys as root (even root cannot), else a read-only folder. */
    private Path unwritableFolder() throws Exception {
        if ("root".equals(System.getProperty("user.name"))) {
            return Path.of("/sys");
        }
        Path ro = Files.createDirectories(dir.resolve("read-only"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        return ro;
    }

    /**
     * A 100000-step run (several seconds of compute) whose output cannot be written fails at once; an output equal to
     * an input is refused and the input stays as it was.
     */
    @Test
    void outputsAreCheckedBeforeAnyStep() throws Exception {
        Path vp = model("vp.npy", 200, 200);
        byte[] vpBytes = Files.readAllBytes(vp);
        List<String> p = problem(vp, 100_000, 1, 10);
        Result missing = fails("does not exist",
                args("forward", p, "--out", dir.resolve("no/such/rec.npy").toString()));
        assertTrue(missing.err().contains(dir.resolve("no/such").toString()), missing.err());
        assertTrue(missing.seconds() < 2, "refused before computing: " + missing.seconds() + " s");
        Result ro = fails("cannot write into the folder",
                args("forward", p, "--out", unwritableFolder().resolve("rec.npy").toString()));
        assertTrue(ro.seconds() < 2, "refused before computing: " + ro.seconds() + " s");
        fails("is a directory", args("forward", p, "--out", dir.toString()));
        fails("also the input --vp", args("forward", p, "--out", vp.toString()));
        assertArrayEquals(vpBytes, Files.readAllBytes(vp), "the input is untouched");
        Path obs = dir.resolve("obs.npy");
        Npy.writeFloat32(obs, new float[100_000 * 10], 1, 100_000, 10, 1);
        Result g = fails("does not exist", args("gradient", p, "--observed", obs.toString(), "--out-grad",
                dir.resolve("no/g.npy").toString()));
        assertTrue(g.seconds() < 2, "refused before computing: " + g.seconds() + " s");
        fails("also the input --observed", args("gradient", p, "--observed", obs.toString(), "--out-grad",
                obs.toString()));
        fails("cannot", "fwi", "--dh", "100", "--time", "0.5", "--iterations", "1", "--out",
                unwritableFolder().resolve("fwi-out").toString());
        Files.writeString(dir.resolve("a-file"), "x");
        fails("is a file, not a folder", "fwi", "--dh", "100", "--time", "0.5", "--iterations", "1", "--out",
                dir.resolve("a-file").toString());
    }

    private static double gib(String message, String after) {
        Matcher m = Pattern.compile(Pattern.quote(after) + " ([0-9.]+) (GiB|MiB)").matcher(message);
        assertTrue(m.find(), "no figure after '" + after + "' in: " + message);
        return Double.parseDouble(m.group(1)) / (m.group(2).equals("MiB") ? 1024 : 1);
    }

    /** A record larger than the heap, or than a Java array, or a negative nt: refused before any allocation. */
    @Test
    void runsThatCannotFitAreRefusedWithTheFigure() {
        Path vp = model("vp.npy", 30, 40);
        int nrec = 30;
        long max = Runtime.getRuntime().maxMemory();
        int nt = (int) (max / (4L * nrec)) + 10_000; // the record alone is larger than the heap
        double recordGib = 4.0 * nt * nrec / (1L << 30);
        Result r = fails("SWEEP_JAVA_OPTS=-Xmx", args("forward", problem(vp, nt, 1, nrec), "--out",
                dir.resolve("r.npy").toString()));
        double need = gib(r.err(), "needs about");
        assertTrue(need >= recordGib && need < 2.2 * recordGib + 0.1, "needs " + need + " GiB for a record of "
                + recordGib + " GiB: " + r.err());
        assertEquals(max / (double) (1L << 30), gib(r.err(), "max heap is"), 0.006, r.err());
        assertTrue(r.seconds() < 2, "refused before allocating: " + r.seconds() + " s");
        fails("(2, 40000000, 30)", args("forward", problem(vp, 40_000_000, 2, nrec), "--out",
                dir.resolve("r.npy").toString()));
        fails("more than a Java array holds", args("forward", problem(vp, 2_000_000_000, 1, nrec), "--out",
                dir.resolve("r.npy").toString()));
        fails("nt must be >= 1, got -5", args("forward", problem(vp, -5, 1, nrec), "--out",
                dir.resolve("r.npy").toString()));
        Path obs = dir.resolve("obs.npy");
        Npy.writeFloat32(obs, new float[4], 1, 1, 4, 1);
        fails("needs about", args("gradient", problem(vp, nt, 1, nrec), "--observed", obs.toString(), "--out-grad",
                dir.resolve("g.npy").toString()));
        assertFalse(Files.exists(dir.resolve("r.npy")));
    }

    /** NaN or Inf in observed data: refused naming the file and the (shot, sample, receiver) of the value. */
    @Test
    void nonFiniteObservedDataAreRefusedWithTheirPosition() throws Exception {
        Path vp = model("vp.npy", 30, 40);
        List<String> p = problem(vp, 50, 2, 6);
        float[] obs = new float[2 * 50 * 6];
        obs[(1 * 50 + 7) * 6 + 3] = Float.NaN;
        Path file = dir.resolve("obs-nan.npy");
        Npy.writeFloat32(file, obs, 2, 50, 6, 1);
        Result r = fails("(shot, sample, receiver) = (1, 7, 3)", args("gradient", p, "--observed", file.toString(),
                "--out-grad", dir.resolve("g.npy").toString()));
        assertTrue(r.err().contains("obs-nan.npy") && r.err().contains("NaN"), r.err());
        assertFalse(Files.exists(dir.resolve("g.npy")));

        // the same in a job's observed data (shape (B, nt, nrec) here), Inf this time
        Npy.writeFloat32(dir.resolve("start.npy"), filled(30 * 40, 2000f), 30, 40);
        float[] o = new float[2 * 50 * 6];
        o[(0 * 50 + 49) * 6 + 5] = Float.NEGATIVE_INFINITY;
        Npy.writeFloat32(dir.resolve("job-obs.npy"), o, 2, 50, 6);
        Path job = dir.resolve("job.json");
        Files.writeString(job, "{\"vp_start\": \"start.npy\", \"observed\": \"job-obs.npy\", \"sources\": \"src.npy\","
                + " \"receivers\": \"rec.npy\", \"dh\": 10, \"dt\": 0.001, \"nt\": 50, \"vmax\": 3000, \"out\": \""
                + dir.resolve("fwi") + "\"}");
        Result f = fails("(shot, sample, receiver) = (0, 49, 5)", "fwi", "--job", job.toString());
        assertTrue(f.err().contains("key 'observed'") && f.err().contains("job-obs.npy"), f.err());
    }

    private static float[] filled(int n, float v) {
        float[] a = new float[n];
        Arrays.fill(a, v);
        return a;
    }

    /** No receivers, a duplicate job-file key, folders where files belong, and too many threads (a warning). */
    @Test
    void smallOnes() throws Exception {
        Path vp = model("vp.npy", 30, 40);
        Npy.writeInt32(dir.resolve("rec0.npy"), new int[0], 1, 0, 2);
        List<String> p = problem(vp, 50, 1, 3);
        int i = p.indexOf("--receivers");
        p.set(i + 1, dir.resolve("rec0.npy").toString());
        fails("no receiver", args("forward", p, "--out", dir.resolve("r.npy").toString()));

        Path job = dir.resolve("dup.json");
        Files.writeString(job, "{\"dh\": 100, \"iterations\": 1, \"time\": 0.5, \"iterations\": 3}");
        Result d = fails("'iterations' appears twice", "fwi", "--job", job.toString());
        assertTrue(d.err().contains("dup.json"), d.err());
        Files.writeString(job, "{\"dh\": 100, \"mesh\": {\"px\": 1, \"px\": 2}}");
        fails("'px' appears twice", "fwi", "--job", job.toString());
        Files.writeString(job, "{\"dh\": 100, \"time\": ");
        fails("not valid JSON", "fwi", "--job", job.toString());

        Files.createDirectories(dir.resolve("a-folder.npy"));
        List<String> q = problem(dir.resolve("a-folder.npy"), 50, 1, 3);
        fails("is a directory", args("forward", q, "--out", dir.resolve("r.npy").toString()));
        fails("is a directory", "fwi", "--job", dir.toString());
        Files.writeString(job, "{\"vp_true\": \"a-folder.npy\", \"dh\": 10}");
        fails("is a directory", "fwi", "--job", job.toString());

        int cores = Runtime.getRuntime().availableProcessors();
        Result t = run(args("forward", problem(vp, 20, 1, 3), "--threads", String.valueOf(cores + 3), "--out",
                dir.resolve("t.npy").toString()));
        assertEquals(0, t.code(), t.err());
        assertTrue(t.stderr().contains("warning: --threads " + (cores + 3) + " is more than the " + cores),
                t.stderr());
        Result ok = run(args("forward", problem(vp, 20, 1, 3), "--threads", "1", "--out",
                dir.resolve("t1.npy").toString()));
        assertFalse(ok.stderr().contains("warning"), ok.stderr());
    }
}
