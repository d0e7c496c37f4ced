package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.parallel.MpiRunner;

/**
 * Memory at scale under a real {@code mpirun -np 4}: a decomposed forward run (2-D with px 4, 3-D with py 2 × px 2) on
 * a 64 MiB model, with every rank's heap ({@code -Xmx}) too small to hold its solver, its tile of the model and one
 * global model at once, succeeds, and its record equals the single-domain record bit for bit. Each rank's solver
 * holds at most 0.3 of what the single-domain solver holds (both measured: the arrays the solvers hold after the run,
 * as {@code --verbose} reports them). And no rank allocated a large float array: the JDK's flight recorder logs every
 * allocation made outside a thread-local buffer (every large array) on every rank, and the largest float array is a
 * wavefield of the rank's tile (with its halo and PML pads): under 1/3 of the global model in 2-D on 4 tiles, under
 * 0.4 in 3-D on 2 × 2 (0.25 and 0.35 measured; the CPML auxiliaries, in band slabs, are far smaller).
 */
class MemoryScaleMpiTest {
    private static final Pattern RANK_LINE = Pattern.compile("^  rank (\\d+) tile \\[[^]]*] at \\[[^]]*]:"
            + " solver (\\d+) B .*, held (\\d+) B, peak heap (\\d+) B", Pattern.MULTILINE);

    /** Bytes of a Java array's header (64-bit JVM, compressed class pointers), as the flight recorder counts. */
    private static final long ARRAY_HEADER = 16;

    @TempDir
    Path dir;

    /** A smooth model (no two neighbours alike), one source next to a cut, receivers on both sides of the cuts. */
    private void inputs(int[] shape) {
        int nd = shape.length;
        int nz = shape[0];
        int ny = nd == 3 ? shape[1] : 1;
        int nx = shape[nd - 1];
        float[] v = new float[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    v[(z * ny + y) * nx + x] = (float) (2000 + 0.3 * z + 50 * Math.sin(0.05 * x) * Math.cos(0.07 * y));
                }
            }
        }
        Npy.writeFloat32(dir.resolve("vp.npy"), v, shape);
        int cx = nx / (nd == 3 ? 2 : 4);
        int cy = ny / 2;
        int[] src = nd == 3 ? new int[] {cx - 2, cy - 2, 3} : new int[] {cx - 2, 3};
        Npy.writeInt32(dir.resolve("src.npy"), src, 1, 1, nd);
        List<int[]> rec = new ArrayList<>();
        for (int d = -6; d <= 6; d += 2) {
            rec.add(nd == 3 ? new int[] {cx + d, cy + d, 2} : new int[] {cx + d, 2});
            rec.add(nd == 3 ? new int[] {cx + d, cy - d, 2} : new int[] {cx + d, 6});
        }
        int[] flat = new int[rec.size() * nd];
        for (int i = 0; i < rec.size(); i++) {
            System.arraycopy(rec.get(i), 0, flat, i * nd, nd);
        }
        Npy.writeInt32(dir.resolve("rec.npy"), flat, 1, rec.size(), nd);
    }

    private List<String> args(String out) {
        return List.of("forward", "--vp", dir.resolve("vp.npy").toString(), "--dh", "10", "--dt", "0.001", "--nt",
                "30", "--abcn", "8", "--sources", dir.resolve("src.npy").toString(), "--receivers",
                dir.resolve("rec.npy").toString(), "--ricker", "25", "--out", dir.resolve(out).toString(), "--verbose");
    }

    /** The single-domain run in a JVM of its own (its stderr), with a heap that holds it. */
    private String single(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx2g", "--add-modules", "jdk.incubator.vector",
                Main.class.getName()));
        cmd.addAll(args);
        Path err = dir.resolve("single.err");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).redirectError(err.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "single-domain run timed out");
        String text = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }

    /** Per rank (index = rank): {solver, held, peak heap} bytes from a --verbose report. */
    private static long[][] report(String stderr, int ranks) {
        long[][] r = new long[ranks][];
        Matcher m = RANK_LINE.matcher(stderr);
        int n = 0;
        while (m.find()) {
            r[Integer.parseInt(m.group(1))] = new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4))};
            n++;
        }
        assertEquals(ranks, n, "one report line per rank:\n" + stderr);
        return r;
    }

    /**
     * Per recording (rank), the largest float array its flight recording saw allocated, in bytes, with where it was
     * allocated; every large array is allocated outside a thread-local buffer, so the recording sees it.
     */
    private static List<String> largestFloatArrays(Path jfrDir, long[] largest) throws IOException {
        List<String> where = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(jfrDir)) {
            files = s.filter(p -> p.toString().endsWith(".jfr")).sorted().toList();
        }
        assertEquals(4, files.size(), "one recording per rank: " + files);
        for (int k = 0; k < files.size(); k++) {
            int events = 0;
            String at = "";
            for (RecordedEvent e : RecordingFile.readAllEvents(files.get(k))) {
                if (!e.getEventType().getName().equals("jdk.ObjectAllocationOutsideTLAB")) {
                    continue;
                }
                events++;
                long bytes = e.getLong("allocationSize");
                if (!e.getClass("objectClass").getName().equals("[F") || bytes <= largest[k]) {
                    continue;
                }
                largest[k] = bytes;
                List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
                at = frames.isEmpty() ? "?" : frames.get(0).getMethod().getType().getName() + "."
                        + frames.get(0).getMethod().getName() + ":" + frames.get(0).getLineNumber();
            }
            assertTrue(events > 0, files.get(k) + " recorded no allocation outside a TLAB: is the recording on?");
            where.add(files.get(k).getFileName() + ": " + largest[k] + " B at " + at);
        }
        return where;
    }

    private void check(int[] shape, int py, int px, int xmxMiB, double maxFraction) throws Exception {
        inputs(shape);
        long cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        long globalBytes = 4 * cells;
        String one = single(args("single.npy"));
        long singleHeld = report(one, 1)[0][1];

        Path jfr = Files.createDirectories(dir.resolve("jfr"));
        List<String> dd = new ArrayList<>(args("dd.npy"));
        dd.addAll(List.of("--py", Integer.toString(py), "--px", Integer.toString(px), "--threads", "1"));
        MpiRunner.Result r = MpiRunner.run(4, Duration.ofSeconds(240), List.of("-Xmx" + xmxMiB + "m",
                "-Xlog:jfr+startup=off", "-XX:StartFlightRecording:jdk.ObjectAllocationOutsideTLAB#enabled=true,"
                        + "filename=" + jfr), Main.class, dd.toArray(new String[0]));
        assertEquals(0, r.exitCode(), r.describe());
        byte[] ref = Files.readAllBytes(dir.resolve("single.npy"));
        assertArrayEquals(ref, Files.readAllBytes(dir.resolve("dd.npy")), "record differs from the single domain's");
        float[] rec = Npy.readFloat32(dir.resolve("single.npy"), "record").asFloat32();
        float peak = 0;
        for (float v : rec) {
            peak = Math.max(peak, Math.abs(v));
        }
        assertTrue(peak > 0, "the record must hold a wave, not zeros only");

        long[][] ranks = report(r.stderr(), 4);
        long xmx = (long) xmxMiB << 20;
        StringBuilder figures = new StringBuilder("single domain holds " + singleHeld + " B; global model "
                + globalBytes + " B; -Xmx" + xmxMiB + "m");
        for (int k = 0; k < 4; k++) {
            long held = ranks[k][1];
            figures.append("\nrank ").append(k).append(": solver ").append(ranks[k][0]).append(" B, held ")
                    .append(held).append(" B (").append(String.format("%.3f", held / (double) singleHeld))
                    .append(" of single), peak heap ").append(ranks[k][2]).append(" B");
            assertTrue(held > 0 && held <= 0.3 * singleHeld, "rank " + k + " holds more than 0.3 of the single"
                    + " domain's solver: " + figures);
            // the heap cannot hold this rank's solver, its tile of the model and one global model together
            assertTrue(xmx < held + globalBytes / (py * px) + globalBytes, "-Xmx" + xmxMiB + "m would hold rank "
                    + k + "'s solver and a global model: " + figures);
        }
        long[] largest = new long[4];
        List<String> where = largestFloatArrays(jfr, largest);
        figures.append("\nlargest float array per rank: ").append(where);
        for (int k = 0; k < 4; k++) {
            assertTrue(largest[k] - ARRAY_HEADER < maxFraction * globalBytes, "a rank allocated a float array of "
                    + maxFraction + " of the global model's size or more: " + figures);
        }
        System.out.println(figures);
        assertFalse(r.timedOut());
    }

    @Test
    void twoDimensionalModelOnFourTilesAlongX() throws Exception {
        // a rank's solver, tile and one global model come to about 130 MiB; 124 MiB ran (2026-12-04)
        check(new int[] {2048, 8192}, 1, 4, 128, 1.0 / 3);
    }

    @Test
    void threeDimensionalModelOnTwoByTwoTiles() throws Exception {
        // a rank's solver, tile and one global model come to about 172 MiB; 164 MiB ran (2026-12-04)
        check(new int[] {256, 256, 256}, 2, 2, 168, 0.4);
    }
}
