package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sweep} launcher drops exactly the JVM's "Using incubator modules" line from stderr, passes every
 * other line on as it comes (not when the JVM ends), and keeps the JVM's exit code. A stand-in {@code java} on the
 * PATH plays the JVM: it writes that warning, another line, then waits until the test has seen that line.
 */
class LauncherTest {
    @TempDir
    Path dir;

    @Test
    void onlyTheIncubatorWarningIsDroppedAndStderrStreams() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path go = dir.resolve("go");
        Path java = bin.resolve("java");
        Files.writeString(java, String.join("\n",
                "#!/bin/sh",
                "echo 'WARNING: Using incubator modules: jdk.incubator.vector' >&2",
                "echo 'progress 1' >&2",
                "echo 'WARNING: Using incubator modules: jdk.incubator.vector, and more' >&2",
                "i=0",
                "while [ ! -e '" + go + "' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done",
                "echo 'progress 2' >&2",
                "echo 'on stdout'",
                "exit 7", ""));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path launcher = Path.of("sweep").toAbsolutePath();
        assertTrue(Files.isExecutable(launcher), "run from the project root: " + launcher);
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "forward", "--help");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("SWEEP_NO_SETUP", "1");
        pb.environment().remove("TORNADOVM_HOME");
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("SWEEP_JAVA_OPTS");
        Process p = pb.start();
        List<String> err = new ArrayList<>();
        boolean liveBeforeExit = false;
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                err.add(line);
                if (line.equals("progress 1")) {
                    liveBeforeExit = p.isAlive(); // the stand-in waits for "go": the line came while it ran
                    Files.createFile(go);
                }
            }
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(liveBeforeExit, "stderr must stream while the JVM runs: " + err);
        assertEquals(List.of("progress 1", "WARNING: Using incubator modules: jdk.incubator.vector, and more",
                "progress 2"), err);
        assertEquals("on stdout\n", out);
        assertEquals(7, p.exitValue(), "the JVM's exit code");
    }

    /** SWEEP_JAVA_OPTS the JVM cannot start with: one line on stderr naming them, nothing on stdout, exit code 2. */
    @Test
    void javaOptionsTheJvmRefusesAreOneLine() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of("sweep").toAbsolutePath().toString(), "devices");
        pb.environment().put("SWEEP_NO_SETUP", "1");
        pb.environment().put("SWEEP_JAVA_OPTS", "-Xmx1m");
        pb.environment().remove("TORNADOVM_HOME");
        pb.environment().remove("JAVA_HOME");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), err);
        assertEquals("", out);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("sweep: error: SWEEP_JAVA_OPTS=\"-Xmx1m\"") && err.contains("heap"), err);
    }
}
