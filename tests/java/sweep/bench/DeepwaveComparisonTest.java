package sweep.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.cli.Main;

/**
 * The Deepwave gradient and Born comparisons without Deepwave: the option checks of {@code sweep bench
 * --compare-deepwave --gradient} and {@code --born}, and the protocol with the driver, played by a script that logs its arguments and commands and answers
 * fixed times, so that the Deepwave columns and ratios can be checked exactly.
 */
class DeepwaveComparisonTest {
    @TempDir
    Path dir;

    /**
     * A fake driver: logs "args ..." and each command to NAME.log and its OMP_WAIT_POLICY to NAME.policy, answers run
     * with 0.5 s and grad with 2 s.
     */
    private void fakeDriver(String name) throws IOException {
        Path log = dir.resolve(name + ".log");
        String script = "#!/usr/bin/env bash\n"
                + "echo \"args $*\" > '" + log + "'\n"
                + "echo \"$OMP_WAIT_POLICY\" > '" + dir.resolve(name + ".policy") + "'\n"
                + "echo 'ready 1 grid 1^2'\n"
                + "while read -r cmd; do\n"
                + "  echo \"$cmd\" >> '" + log + "'\n"
                + "  case \"$cmd\" in\n"
                + "    run) echo 'seconds 0.5 cpu 0.5' ;;\n"
                + "    grad) echo 'seconds 2.0 cpu 1.9' ;;\n"
                + "    quit) exit 0 ;;\n"
                + "    *) exit 2 ;;\n"
                + "  esac\n"
                + "done\n";
        Path p = dir.resolve(name);
        Files.writeString(p, script, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private record Result(int code, String errors, String out) {
    }

    private static Result cli(String... args) {
        PrintStream oldErr = System.err;
        PrintStream oldOut = System.out;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(new StringWriter()));
            code = cl.execute(args);
        } finally {
            System.setErr(oldErr);
            System.setOut(oldOut);
        }
        StringBuilder lines = new StringBuilder();
        err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(": error: "))
                .forEach(l -> lines.append(l).append('\n'));
        return new Result(code, lines.toString(), out.toString(StandardCharsets.UTF_8));
    }

    private static void refused(String fragment, String... args) {
        Result r = cli(args);
        assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.errors());
        assertEquals(1, r.errors().strip().lines().count(), "one line: " + r.errors());
        assertTrue(r.errors().contains(fragment), "message should say '" + fragment + "': " + r.errors());
        assertFalse(r.errors().contains("Exception"), r.errors());
        assertTrue(r.out().isEmpty(), "nothing may run before the refusal: " + r.out());
    }

    @Test
    void elasticGradientIsRefused() {
        refused("acoustic gradient only", "bench", "--compare-deepwave", dir.toString(), "--gradient", "--equation",
                "elastic");
    }

    @Test
    void moreThanOneThreadIsRefused() throws IOException {
        fakeDriver("dw_scalar_2d");
        fakeDriver("dw_scalar_3d");
        refused("one thread, got --threads 1,2", "bench", "--compare-deepwave", dir.toString(), "--gradient",
                "--threads", "1,2");
    }

    @Test
    void tooSmallAModelIsRefused() throws IOException {
        fakeDriver("dw_scalar_2d");
        refused("at least 10 cells per axis", "bench", "--compare-deepwave", dir.toString(), "--gradient", "--only",
                "2d", "--size", "8");
    }

    @Test
    void missingDriverIsRefused() {
        refused("no executable dw_scalar_3d", "bench", "--compare-deepwave", dir.toString(), "--gradient", "--only",
                "3d");
    }

    /** A comparison of 3 rounds of 4 steps against the drivers in {@link #dir}, logging into {@code log}. */
    private DeepwaveComparison comparison(ByteArrayOutputStream log) {
        return new DeepwaveComparison(dir, 3, 4, new PrintStream(log, true, StandardCharsets.UTF_8), 0);
    }

    @Test
    void gradientRoundsInterleaveAndTakeTheDriversTimes() throws IOException {
        fakeDriver("dw_scalar_2d");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DeepwaveComparison c = comparison(log);
        DeepwaveComparison.GradientRow row = c.gradient(2, 30, 5);
        assertEquals(String.join("\n", "args 30 5 4 1 1 grad", "run", "grad", "run", "grad", "run", "grad", "quit"),
                Files.readString(dir.resolve("dw_scalar_2d.log")).strip(), "one shot on one thread, grad mode, rounds"
                        + " of forward then gradient");
        assertArrayEquals(new double[] {0.5, 0.5, 0.5}, row.deepwaveForward());
        assertArrayEquals(new double[] {2.0, 2.0, 2.0}, row.deepwaveGradient());
        assertArrayEquals(new double[] {4.0, 4.0, 4.0}, row.deepwaveGradientPerForward());
        for (int r = 0; r < 3; r++) {
            assertTrue(row.sweepForward()[r] > 0 && row.sweepGradient()[r] > 0, "sweep's times are measured");
            assertEquals(2.0 / row.sweepGradient()[r], row.speedRatios()[r], 0.0);
            assertEquals(row.sweepGradient()[r] / row.sweepForward()[r], row.sweepGradientPerForward()[r], 0.0);
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("Deepwave 2.000 (2.000-2.000)"), log.toString());
    }

    @Test
    void bornRoundsInterleaveWithTheBornDriver() throws IOException {
        fakeDriver("dw_scalar_born_2d");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DeepwaveComparison c = comparison(log);
        DeepwaveComparison.Row row = c.born(2, 30, 5, new int[] {1}).get(0);
        assertEquals(String.join("\n", "args 30 5 4 1 1", "run", "run", "run", "quit"),
                Files.readString(dir.resolve("dw_scalar_born_2d.log")).strip());
        double mcells = 40.0 * 40 * 4 / 1e6 / 0.5; // (30 + 2·5)² cells, 4 steps, 0.5 s
        assertArrayEquals(new double[] {mcells, mcells, mcells}, row.deepwave(), 1e-12);
        for (int r = 0; r < 3; r++) {
            assertTrue(row.sweep()[r] > 0, "sweep's Born runs are timed");
        }
    }

    @Test
    void forwardRoundsOnTwoThreadsAlsoRunTwoShotsAtOnce() throws IOException {
        fakeDriver("dw_acoustic_2d");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DeepwaveComparison c = comparison(log);
        java.util.List<DeepwaveComparison.Row> rows = c.run(sweep.equation.Equations.named("acoustic-vd"), 2, 30, 5,
                new int[] {2});
        assertEquals(2, rows.size(), "one shot on two threads, then two shots");
        assertEquals("acoustic-vd 2-D 30^2", rows.get(0).label());
        assertEquals("acoustic-vd 2-D 30^2, 2 shots", rows.get(1).label());
        assertEquals(String.join("\n", "args 30 5 4 2 2", "run", "run", "run", "quit"),
                Files.readString(dir.resolve("dw_acoustic_2d.log")).strip(), "Deepwave: two shots on two threads");
        assertEquals(System.getenv().getOrDefault("OMP_WAIT_POLICY", "passive"),
                Files.readString(dir.resolve("dw_acoustic_2d.policy")).strip(), "OpenMP's idle threads sleep");
        double mcells = 2 * 40.0 * 40 * 4 / 1e6 / 0.5; // two shots of (30 + 2·5)² cells, 4 steps, 0.5 s
        for (DeepwaveComparison.Row row : rows) {
            assertEquals(2, row.threads());
            assertArrayEquals(new double[] {mcells, mcells, mcells}, row.deepwave(), 1e-12);
            for (int r = 0; r < 3; r++) {
                assertTrue(row.sweep()[r] > 0, "sweep's runs are timed");
            }
        }
    }

    @Test
    void bornOfAnEquationWithoutOneOrOfKernelsIsRefused() {
        refused("does not have yet", "bench", "--born", "--equation", "elastic");
        refused("drop --kernels", "bench", "--born", "--kernels");
    }
}
