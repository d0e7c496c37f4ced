package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine;
import sweep.io.Npy;

/**
 * Test support: runs the command line in this JVM with its output captured and checks the project's error rule (exit
 * code 2, one error line that says what was wrong, no Java class name in anything it prints).
 */
final class CliHarness {
    /** How long {@link #run} gives a command line: an input that blocks fails the test instead of hanging the suite. */
    static final int DEFAULT_SECONDS = 120;

    private static final Pattern JAVA_NAMES = Pattern.compile("java\\.|Exception|\\bat sweep\\.");

    private CliHarness() {
    }

    /** Exit code, the error lines, everything on stderr, everything on stdout, and the wall time. */
    record Result(int code, String err, String stderr, String out, double seconds) {
    }

    /** {@link #run(int, String...)} within {@link #DEFAULT_SECONDS}. */
    static Result run(String... args) {
        return run(DEFAULT_SECONDS, args);
    }

    /**
     * Runs the command line with System.err and System.out captured (picocli takes its error stream from the System.err
     * of the time the command line is made, so it is set first), in a thread given {@code seconds} to finish.
     * {@code err} holds the lines with ": error: ". Nothing printed may name a Java class.
     */
    static Result run(int seconds, String... args) {
        PrintStream oldErr = System.err;
        PrintStream oldOut = System.out;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter picocliOut = new StringWriter();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        long t0 = System.nanoTime();
        int code;
        try {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(picocliOut));
            code = assertTimeoutPreemptively(Duration.ofSeconds(seconds), () -> cl.execute(args),
                    () -> "still running after " + seconds + " s (blocked on an input?): " + String.join(" ", args));
        } finally {
            System.setErr(oldErr);
            System.setOut(oldOut);
        }
        double elapsed = (System.nanoTime() - t0) * 1e-9;
        String all = err.toString(StandardCharsets.UTF_8);
        StringBuilder errors = new StringBuilder();
        all.lines().filter(l -> l.contains(": error: ")).forEach(l -> errors.append(l).append('\n'));
        String stdout = out.toString(StandardCharsets.UTF_8) + picocliOut;
        assertFalse(JAVA_NAMES.matcher(all).find(), String.join(" ", args) + ": a message for users names a Java"
                + " class: " + all);
        return new Result(code, errors.toString(), all, stdout, elapsed);
    }

    /** The command line {@code cmd}, then {@code common}, then {@code more}. */
    static String[] args(String cmd, List<String> common, String... more) {
        List<String> a = new ArrayList<>();
        a.add(cmd);
        a.addAll(common);
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    /** A float32 model file {@code name} in {@code dir} of {@code nz} x {@code nx} cells of 2000 m/s. */
    static Path model(Path dir, String name, int nz, int nx) {
        float[] v = new float[nz * nx];
        Arrays.fill(v, 2000f);
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, v, nz, nx);
        return p;
    }

    /**
     * An int32 coordinate file {@code name} in {@code dir} of {@code shots} shots with {@code per} cells each, a line
     * (x0 + k, z).
     */
    static Path cells(Path dir, String name, int shots, int per, int x0, int z) {
        int[] c = new int[shots * per * 2];
        for (int b = 0; b < shots; b++) {
            for (int k = 0; k < per; k++) {
                c[(b * per + k) * 2] = x0 + k;
                c[(b * per + k) * 2 + 1] = z;
            }
        }
        Path p = dir.resolve(name);
        Npy.writeInt32(p, c, shots, per, 2);
        return p;
    }

    /** A command line that must fail by the rule: exit code 2 and exactly one error line, holding {@code fragment}. */
    static Result fails(String fragment, String... args) {
        Result r = run(args);
        String cmd = String.join(" ", args);
        assertEquals(2, r.code(), cmd + "\n" + r.stderr() + r.out());
        assertTrue(r.err().contains(fragment), cmd + ": the message should say '" + fragment + "': " + r.stderr());
        assertEquals(1, r.err().strip().lines().count(), cmd + ": one error line: " + r.stderr());
        return r;
    }
}
