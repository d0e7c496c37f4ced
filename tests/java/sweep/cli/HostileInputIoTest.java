package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static sweep.cli.CliHarness.args;
import static sweep.cli.CliHarness.fails;
import static sweep.cli.CliHarness.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import sweep.cli.CliHarness.Result;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.parallel.MpiRunner;
import sweep.parallel.TileFiles;

/**
 * Hostile input and faults of the file layer on the command line: pipes, FIFOs and devices given as inputs (refused
 * before they are opened, never a hang, also under mpirun), a disk that fills up while outputs are written (one line,
 * no stack trace, no temporary file left behind), and job-file values of the wrong kind or range (named by file and
 * key, one type rule for every numeric key). Each ends in exit code 2 with one line naming no Java class.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class HostileInputIoTest {
    @TempDir
    Path dir;

    private final List<Path> mounts = new ArrayList<>();
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : children) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (Path m : mounts) {
            if (command("umount", m.toString()) != 0) {
                command("umount", "-l", m.toString());
            }
        }
    }

    private static int command(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
    }

    private Path model(String name, int nz, int nx) {
        return CliHarness.model(dir, name, nz, nx);
    }

    private Path cells(String name, int shots, int per, int x0, int z) {
        return CliHarness.cells(dir, name, shots, per, x0, z);
    }

    private List<String> problem(Path vp, int nt) {
        return new ArrayList<>(List.of("--vp", vp.toString(), "--dh", "10", "--dt", "0.001", "--nt",
                String.valueOf(nt), "--abcn", "8", "--sources", cells("src.npy", 1, 1, 20, 2).toString(),
                "--receivers", cells("rec.npy", 1, 3, 2, 3).toString(), "--ricker", "10", "--threads", "1"));
    }

    private static List<String> with(List<String> args, String option, String value) {
        List<String> a = new ArrayList<>(args);
        int i = a.indexOf(option);
        if (i < 0) {
            a.addAll(List.of(option, value));
        } else {
            a.set(i + 1, value);
        }
        return a;
    }

    private Path fifo(String name) throws Exception {
        Path p = dir.resolve(name);
        assertEquals(0, command("mkfifo", p.toString()), "mkfifo " + p);
        return p;
    }

    // ------------------------------------------------------------------ item 1: pipes, FIFOs, devices

    /**
     * A FIFO as any input (model, acquisition, wavelet, observed data, job file, a job's file key, a checkpoint on
     * --resume; directly or through a symbolic link), a pipe (what {@code <(cat vp.npy)} gives) and a device: refused
     * before opening, naming the option and the path and saying why, instead of blocking for ever or reading 0 bytes.
     */
    @Test
    void pipesFifosAndDevicesAreRefusedBeforeTheyAreOpened() throws Exception {
        Path vp = model("vp.npy", 30, 40);
        List<String> p = problem(vp, 20);
        Path fifo = fifo("fifo.npy");
        String why = "is not a regular file";
        for (String option : List.of("--vp", "--sources", "--receivers", "--wavelet")) {
            List<String> q = with(p, option, fifo.toString());
            if (option.equals("--wavelet")) {
                q.remove(q.indexOf("--ricker") + 1);
                q.remove("--ricker");
            }
            Result r = fails(why, args("forward", q, "--out", dir.resolve("r.npy").toString()));
            assertTrue(r.err().contains(option + ": " + fifo), r.err());
        }
        Path link = dir.resolve("link.npy");
        Files.createSymbolicLink(link, fifo);
        fails(why, args("forward", with(p, "--vp", link.toString()), "--out", dir.resolve("r.npy").toString()));
        Path obs = dir.resolve("obs.npy");
        Npy.writeFloat32(obs, new float[20 * 3], 1, 20, 3, 1);
        fails("--observed: " + fifo + " " + why, args("gradient", p, "--observed", fifo.toString(), "--out-grad",
                dir.resolve("g.npy").toString()));

        // a pipe: today's message ("file is 0 bytes long") hides why; /proc/PID/fd/0 of a child is a pipe
        Process child = new ProcessBuilder("sleep", "600").start();
        children.add(child);
        Path pipe = Path.of("/proc/" + child.pid() + "/fd/0");
        fails("--vp: " + pipe + " " + why, args("forward", with(p, "--vp", pipe.toString()), "--out",
                dir.resolve("r.npy").toString()));
        fails("--vp: /dev/null " + why, args("forward", with(p, "--vp", "/dev/null"), "--out",
                dir.resolve("r.npy").toString()));

        // the job file and a job's file keys
        Path jobFifo = fifo("job.json");
        fails("--job: " + jobFifo + " " + why, "fwi", "--job", jobFifo.toString());
        Path job = dir.resolve("fifo-job.json");
        Files.writeString(job, "{\"vp_start\": \"vp.npy\", \"observed\": \"fifo.npy\", \"sources\": \"src.npy\","
                + " \"receivers\": \"rec.npy\", \"dh\": 10, \"dt\": 0.001, \"nt\": 20, \"vmax\": 3000}");
        fails("fifo-job.json: key 'observed': " + fifo + " " + why, "fwi", "--job", job.toString(), "--out",
                dir.resolve("fwi-a").toString());

        // a checkpoint on --resume
        Path out = Files.createDirectories(dir.resolve("fwi-b"));
        Path cp = out.resolve("checkpoint-band1.bin");
        assertEquals(0, command("mkfifo", cp.toString()));
        Result r = run(120, "fwi", "--dh", "100", "--time", "0.3", "--iterations", "1", "--threads", "1", "--out",
                out.toString(), "--resume");
        assertEquals(2, r.code(), r.stderr());
        assertTrue(r.err().contains(cp + " " + why), r.err());
    }

    /** Under mpirun, every rank refuses a FIFO model before opening it: the job ends at once instead of hanging. */
    @Test
    void aFifoModelUnderMpirunIsRefused() throws Exception {
        Path fifo = fifo("fifo.npy");
        MpiRunner.Result r = MpiRunner.run(2, Duration.ofSeconds(90), List.of("-Xmx256m"), Main.class,
                args("forward", with(problem(model("vp.npy", 30, 40), 20), "--vp", fifo.toString()), "--out",
                        dir.resolve("r.npy").toString(), "--px", "2"));
        assertFalse(r.timedOut(), r.describe());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("--vp: " + fifo + " is not a regular file"), r.describe());
        assertFalse(r.stderr().contains("Exception"), r.describe());
    }

    // ------------------------------------------------------------------ item 6: a full disk

    /**
     * A tmpfs of {@code kib} KiB mounted at {@code name} in the test folder and filled until only {@code freeKib} KiB
     * are left (unmounted after the test); the test is skipped where mounting is not allowed.
     */
    private Path fullDisk(String name, int kib, int freeKib) throws Exception {
        Path m = Files.createDirectories(dir.resolve(name));
        assumeTrue(command("mount", "-t", "tmpfs", "-o", "size=" + kib + "k", "tmpfs", m.toString()) == 0,
                "cannot mount a tmpfs here (not root?)");
        mounts.add(m);
        Path filler = m.resolve("filler");
        try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer page = ByteBuffer.allocate(4096);
            try {
                while (true) {
                    page.clear();
                    while (page.hasRemaining()) {
                        ch.write(page);
                    }
                }
            } catch (IOException full) {
                // the disk is full
            }
            ch.truncate(Math.max(0, ch.size() / 4096 * 4096 - 1024L * freeKib));
        }
        return m;
    }

    /**
     * Writes a PNG image onto a full disk and prints what the writer threw, then ends normally (shutdown hooks run):
     * run in its own JVM by {@link #aPngOnAFullDiskFailsInOneLineWithoutAStackTrace}.
     */
    public static final class PngOnAFullDisk {
        public static void main(String[] args) {
            float[] v = new float[64 * 64];
            for (int i = 0; i < v.length; i++) {
                v[i] = 1500 + i % 977;
            }
            try {
                Png.model(Path.of(args[0]), v, 64, 64, 10, 10, "full", "m/s");
                System.out.println("written");
            } catch (UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
                System.out.println("error: " + e.getMessage());
            }
        }
    }

    /**
     * {@code fwi --out} on a disk that fills up while an image is written: one line saying the disk is full, and no
     * stack trace from the image library's stream closer when the JVM ends.
     */
    @Test
    void aPngOnAFullDiskFailsInOneLineWithoutAStackTrace() throws Exception {
        Path disk = fullDisk("disk", 256, 0);
        Path png = disk.resolve("model.png");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "-Xmx256m", PngOnAFullDisk.class.getName(), png.toString())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        children.add(p);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out + err);
        assertTrue(out.startsWith("error: " + png + ": cannot write PNG image: no space left on device"), out + err);
        assertEquals(1, out.strip().lines().count(), out);
        assertEquals("", err, "nothing on stderr, no stack trace");
        try (Stream<Path> files = Files.list(disk)) {
            assertEquals(List.of(disk.resolve("filler")), files.toList(), "no temporary file left");
        }
    }

    /**
     * A gradient written tile-wise by two ranks onto a disk that fills up during the write: the job fails with the
     * disk's reason and leaves no hidden temporary file behind (the disk would stay full).
     */
    @Test
    void aTileWiseWriteOnAFullDiskLeavesNoTemporaryFile() throws Exception {
        int nz = 40;
        int nx = 200; // a gradient of 32000 bytes: 8 pages, 3 free
        Path vp = model("vp.npy", nz, nx);
        List<String> p = problem(vp, 60);
        assertEquals(0, run(60, args("forward", p, "--out", dir.resolve("obs.npy").toString())).code());
        Path disk = fullDisk("disk", 256, 12);
        Path g = disk.resolve("g.npy");
        MpiRunner.Result r = MpiRunner.run(2, Duration.ofSeconds(120), List.of("-Xmx256m",
                "-D" + TileFiles.WRITE_THRESHOLD_PROPERTY + "=0"), Main.class, args("gradient", p, "--observed",
                dir.resolve("obs.npy").toString(), "--out-grad", g.toString(), "--px", "2"));
        assertFalse(r.timedOut(), r.describe());
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stderr().contains("no space left on device"), r.describe());
        assertFalse(r.stderr().contains("Exception"), r.describe());
        try (Stream<Path> files = Files.list(disk)) {
            assertEquals(List.of(disk.resolve("filler")), files.toList(), "temporary file left: " + r.describe());
        }
    }

    // ------------------------------------------------------------------ item 7: job-file keys and types

    private Result job(String name, String json) throws IOException {
        Path job = dir.resolve(name);
        Files.writeString(job, json);
        return run(60, "fwi", "--job", job.toString(), "--out", dir.resolve("fwi-out").toString());
    }

    private void jobFails(String key, String fragment, String json) throws IOException {
        Result r = job("job.json", json);
        assertEquals(2, r.code(), json + "\n" + r.stderr());
        assertTrue(r.err().contains("job.json: key '" + key + "': "), "should name job.json and key '" + key
                + "' for " + json + ": " + r.err());
        assertTrue(r.err().contains(fragment), "should say '" + fragment + "': " + r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    }

    /** Settings the solver's spec or the memory estimate refuse are named by the job file and their own key. */
    @Test
    void jobFileErrorsNameTheFileAndTheKey() throws Exception {
        String base = "{\"dh\": 100, \"iterations\": 1, ";
        jobFails("threads", "threads must be >= 0", base + "\"threads\": -1}");
        jobFails("abcn", "abcn", base + "\"abcn\": -3}");
        jobFails("source_type", "fy needs a 3-D model", base + "\"equation\": \"elastic\", \"source_type\": \"fy\"}");
        jobFails("order", "got 7", base + "\"order\": 7}");
        jobFails("order", "got 7", base + "\"order\": 7, \"dt\": 0.001}");
        jobFails("time", "more than a Java array holds", base + "\"time\": 1e6}");
        jobFails("nt", "more than a Java array holds", base + "\"nt\": 2000000000}");
    }

    /**
     * One type rule for every numeric key: an integer key takes a whole JSON number, a number key a JSON number; a
     * fraction or a string is refused naming the file and the key, in bands' objects and the mesh too.
     */
    @Test
    void everyNumericJobKeyFollowsOneTypeRule() throws Exception {
        String base = "{\"dh\": 100, ";
        jobFails("seed", "must be an integer, got 1.5", base + "\"iterations\": 1, \"seed\": 1.5}");
        jobFails("seed", "must be an integer, got \"7\"", base + "\"iterations\": 1, \"seed\": \"7\"}");
        jobFails("iterations", "must be an integer, got \"3\"", base + "\"iterations\": \"3\"}");
        jobFails("vmax", "must be a number, got \"5000\"", base + "\"iterations\": 1, \"vmax\": \"5000\"}");
        jobFails("bands", "cutoff must be a number, got \"3\"", base + "\"iterations\": 1, \"bands\": [{\"cutoff\":"
                + " \"3\"}]}");
        jobFails("bands", "iterations must be an integer, got \"2\"", base + "\"bands\": [{\"cutoff\": 3,"
                + " \"iterations\": \"2\"}]}");
        jobFails("bands", "iterations must be an integer, got 1.5", base + "\"bands\": [{\"cutoff\": 3,"
                + " \"iterations\": 1.5}]}");
        jobFails("mesh", "px must be an integer, got \"2\"", base + "\"iterations\": 1, \"mesh\": {\"px\":"
                + " \"2\"}}");
        jobFails("dh", "must hold numbers, got [\"100\"]", "{\"dh\": [\"100\"], \"iterations\": 1}");
    }
}
