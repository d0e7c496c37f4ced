package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Test support: runs the command line in this JVM with System.err captured and checks the project's error rule (exit
 * code 2, one line that says what was wrong, no Java class names, no usage dump).
 */
final class CliHarness {
    private CliHarness() {
    }

    /** Exit code, the error lines, everything on stderr and on stdout, and the wall time. */
    record Result(int code, String err, String stderr, String stdout, double seconds) {
    }

    /**
     * Runs the command line with System.err captured (picocli takes its error stream from the System.err of the time
     * the command line is made, so it is set first). {@code err} holds the lines with ": error: ".
     */
    static Result run(String... args) {
        PrintStream old = System.err;
        ByteArrayOutputStream sys = new ByteArrayOutputStream();
        StringWriter out = new StringWriter();
        System.setErr(new PrintStream(sys, true, StandardCharsets.UTF_8));
        long t0 = System.nanoTime();
        int code;
        try {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out));
            code = cl.execute(args);
        } finally {
            System.setErr(old);
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        String all = sys.toString(StandardCharsets.UTF_8);
        StringBuilder err = new StringBuilder();
        all.lines().filter(l -> l.contains(": error: ")).forEach(l -> err.append(l).append('\n'));
        return new Result(code, err.toString(), all, out.toString(), seconds);
    }

    /**
     * Runs a command line that must fail by the rule: exit code 2, exactly one line on stderr (warnings aside), holding
     * {@code fragment}, no Java class name in it.
     */
    static Result fails(String fragment, String... args) {
        Result r = run(args);
        String cmd = String.join(" ", args);
        assertEquals(2, r.code(), cmd + "\n" + r.stderr());
        assertTrue(r.err().contains(fragment), cmd + ": the message should say '" + fragment + "': " + r.stderr());
        long lines = r.stderr().lines().filter(l -> !l.contains(": warning: ")).count();
        assertEquals(1, lines, cmd + ": one line: " + r.stderr());
        assertFalse(Pattern.compile("java\\.|Exception|\\bat sweep\\.").matcher(r.stderr()).find(),
                cmd + ": a message for users names a Java class: " + r.stderr());
        return r;
    }
}
