package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.cli.CliHarness.fails;
import static sweep.cli.CliHarness.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.cli.CliHarness.Result;
import sweep.fwi.Inversion;
import sweep.io.Npy;
import sweep.parallel.MpiRunner;

/**
 * Hostile input to {@code sweep fwi}, second round: every check that can refuse a run happens before anything in the
 * output folder is written (a refused --resume leaves the folder as it was, supershots with per-shot receivers and a
 * damaged checkpoint of a later band are refused up front, a mesh that does not fit -np leaves no folder behind), one
 * run at a time per output folder (a lock file naming its holder), and a misfit of exactly 0 is a result, not an
 * error. Errors are one line, exit code 2, without Java class names. The problems are tiny (30 x 40 cells, 2 shots,
 * 150 steps, one iteration).
 */
class HostileInputFwiTest {
    @TempDir
    Path dir;

    private Result ok(String... args) {
        Result r = run(args);
        assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.stderr());
        return r;
    }

    private static final int NZ = 30;
    private static final int NX = 40;

    /** 2000 m/s over 2600 m/s below row 12; the start: 2300 m/s below row 12 (or the true model itself). */
    private static float[] model(float deep) {
        float[] v = new float[NZ * NX];
        for (int i = 0; i < v.length; i++) {
            v[i] = i / NX < 12 ? 2000f : deep;
        }
        return v;
    }

    /** A tiny job in {@code folder} (true and starting model files, 2 surface shots, 150 steps); returns its path. */
    private Path job(Path folder, float[] start, String extra) throws Exception {
        Files.createDirectories(folder);
        Npy.writeFloat32(folder.resolve("true.npy"), model(2600f), NZ, NX);
        Npy.writeFloat32(folder.resolve("start.npy"), start, NZ, NX);
        Path p = folder.resolve("job.json");
        Files.writeString(p, "{\"vp_true\": \"true.npy\", \"vp_start\": \"start.npy\", \"dh\": 10, \"dt\": 0.001,"
                + " \"nt\": 150, \"ricker\": 15, \"abcn\": 10, \"vmax\": 3000, \"mute_rows\": 6, \"max_update\": 2,"
                + " \"shots\": 2, \"threads\": 1, \"iterations\": 1, \"out\": \"" + folder.resolve("out") + "\""
                + extra + "}");
        return p;
    }

    private Path job(Path folder, String extra) throws Exception {
        return job(folder, model(2300f), extra);
    }

    /** Every file under {@code folder} (hidden ones too): name, identity (a replaced file is a new one), bytes. */
    private static Map<String, String> snapshot(Path folder) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(folder)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                m.put(folder.relativize(p).toString(), a.fileKey() + " " + a.lastModifiedTime() + " "
                        + Arrays.hashCode(Files.readAllBytes(p)));
            }
        }
        return m;
    }

    /**
     * Item 2: a --resume refused for another job, or for fewer iterations than the checkpoint holds, leaves every
     * file of the folder as it was (the observed data are not modelled into it, nothing is replaced).
     */
    @Test
    void aRefusedResumeLeavesTheFolderAsItWas() throws Exception {
        Path a = job(dir.resolve("a"), "");
        Path out = dir.resolve("a/out");
        ok("fwi", "--job", a.toString());
        Map<String, String> before = snapshot(out);
        assertTrue(before.containsKey("observed.npy") && before.containsKey("observed_shot1.png"), before.toString());

        fails("written by a different job", "fwi", "--job", a.toString(), "--freq", "12", "--resume");
        assertEquals(before, snapshot(out), "a refused resume writes nothing");

        Result fewer = fails("already holds 1 iterations", "fwi", "--job", a.toString(), "--resume",
                "--iterations", "0");
        assertFalse(fewer.out().contains("iteration"), fewer.out());
        assertEquals(before, snapshot(out), "a refused resume writes nothing");
    }

    /** Item 8: supershots with per-shot receivers are refused before the observed data are modelled (no folder). */
    @Test
    void supershotsWithPerShotReceiversAreRefusedFirst() throws Exception {
        Path folder = dir.resolve("s");
        Files.createDirectories(folder);
        int nrec = 10;
        int[] src = {10, 1, 30, 1};
        int[] rec = new int[2 * nrec * 2];
        for (int b = 0; b < 2; b++) {
            for (int k = 0; k < nrec; k++) {
                rec[(b * nrec + k) * 2] = 2 * k + b; // shot 1's spread is shifted by one cell
                rec[(b * nrec + k) * 2 + 1] = 1;
            }
        }
        Npy.writeInt32(folder.resolve("src.npy"), src, 2, 1, 2);
        Npy.writeInt32(folder.resolve("rec.npy"), rec, 2, nrec, 2);
        Path s = job(folder, ", \"sources\": \"src.npy\", \"receivers\": \"rec.npy\", \"supershots\": 1");
        Result r = fails("same receivers", "fwi", "--job", s.toString());
        assertTrue(r.err().contains("key 'supershots'"), r.err());
        assertFalse(Files.exists(folder.resolve("out")), "refused before the output folder is made");
    }

    /** Item 8: a truncated checkpoint of the second band is refused before the first band runs further. */
    @Test
    void aDamagedLaterCheckpointIsRefusedFirst() throws Exception {
        Path two = job(dir.resolve("two"), ", \"bands\": [{\"cutoff\": 10, \"iterations\": 1}, {\"cutoff\": 0,"
                + " \"iterations\": 1}]");
        Path out = dir.resolve("two/out");
        ok("fwi", "--job", two.toString());
        Path second = Inversion.checkpointFile(out, 1);
        Files.write(second, Arrays.copyOf(Files.readAllBytes(second), 100));
        Map<String, String> before = snapshot(out);
        Result t = fails("truncated", "fwi", "--job", two.toString(), "--resume", "--iterations", "2");
        assertTrue(t.err().contains(second.toString()), t.err());
        assertFalse(t.out().contains("iteration"), "no band runs before the check:\n" + t.out());
        assertEquals(before, snapshot(out), "a refused resume writes nothing");
    }

    private static String lock(long pid, String host) {
        return "pid " + pid + "\nhost " + host + "\n";
    }

    /**
     * Item 4: a folder locked by a live run (this process here) is refused naming the holder, and nothing is written;
     * a lock of another host is refused too (with what to do); a stale lock of a dead process on this host is taken
     * over with a note, and the run removes its lock at its end.
     */
    @Test
    void oneRunAtATimePerOutputFolder() throws Exception {
        Path j = job(dir.resolve("j"), "");
        Path out = dir.resolve("j/out");
        Files.createDirectories(out);
        Path lock = out.resolve(".sweep.lock");
        String host = OutputLock.host();
        long me = ProcessHandle.current().pid();
        Files.writeString(lock, lock(me, host));
        Map<String, String> before = snapshot(out);
        Result held = fails("in use by another run", "fwi", "--job", j.toString());
        assertTrue(held.err().contains("pid " + me) && held.err().contains(host) && held.err().contains(lock
                .toString()), held.err());
        assertEquals(before, snapshot(out), "a refused run writes nothing");

        Files.writeString(lock, lock(1, "elsewhere.invalid"));
        Result remote = fails("elsewhere.invalid", "fwi", "--job", j.toString());
        assertTrue(remote.err().contains("delete"), remote.err());

        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Files.writeString(lock, lock(p.pid(), host));
        Result stale = ok("fwi", "--job", j.toString());
        assertTrue(stale.stderr().contains("stale lock") && stale.stderr().contains("pid " + p.pid()),
                stale.stderr());
        assertFalse(Files.exists(lock), "the lock is removed at the end");
        assertTrue(Files.exists(out.resolve("summary.json")));
    }

    /**
     * Item 11: an FWI whose misfit is exactly 0 (here the starting model is the true one) warns up front, draws its
     * misfit curve and finishes.
     */
    @Test
    void aMisfitOfZeroIsAResult() throws Exception {
        Path j = job(dir.resolve("z"), model(2600f), "");
        Result r = ok("fwi", "--job", j.toString());
        assertTrue(r.stderr().contains("misfit is exactly 0"), r.stderr());
        assertTrue(Files.size(dir.resolve("z/out/misfit.png")) > 100);
        assertFalse(r.out().contains("NaN"), r.out());
    }

    /**
     * Low items: --resume without a checkpoint says that it starts afresh; checkpoints are named from 1 like the other
     * per-band files; a folder of the earlier 0-based naming is refused on --resume with what to do.
     */
    @Test
    void resumeWithoutCheckpointsAndCheckpointNames() throws Exception {
        Path j = job(dir.resolve("r"), "");
        Path out = dir.resolve("r/out");
        Result fresh = ok("fwi", "--job", j.toString(), "--resume");
        assertTrue(fresh.stderr().contains("no checkpoint") && fresh.stderr().contains("starting afresh"),
                fresh.stderr());
        assertTrue(Files.exists(out.resolve("checkpoint-band1.bin")) && Files.exists(out.resolve("model_band1.npy")));
        assertFalse(Files.exists(out.resolve("checkpoint-band0.bin")));

        Files.move(out.resolve("checkpoint-band1.bin"), out.resolve("checkpoint-band0.bin"));
        Map<String, String> before = snapshot(out);
        Result old = fails("checkpoint-band0.bin", "fwi", "--job", j.toString(), "--resume");
        assertTrue(old.err().contains("earlier version") && old.err().contains("without --resume"), old.err());
        assertEquals(before, snapshot(out), "a refused resume writes nothing");
    }

    /** Low item: a mesh that does not fit mpirun's -np is refused before the output folder is made. */
    @Test
    void aMeshMismatchMakesNoFolder() throws Exception {
        Path j = job(dir.resolve("m"), "");
        MpiRunner.Result r = MpiRunner.run(2, Main.class, "fwi", "--job", j.toString(), "--px", "3");
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("needs 3"), r.describe());
        assertFalse(Files.exists(dir.resolve("m/out")), "no output folder: " + r.describe());
    }
}
