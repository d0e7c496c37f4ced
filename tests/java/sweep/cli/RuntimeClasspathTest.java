package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;

/**
 * The command line run on the runtime classpath alone (what {@code ./sweep} puts on it: the main classes and the
 * runtime-scope dependencies, without test-scope jars) gives the same FWI result as the run inside the test JVM. A
 * dependency the program needs at run time but declared for tests only (as once happened to the band filters' math
 * library) makes the child fail.
 */
class RuntimeClasspathTest {
    @TempDir
    Path dir;

    @Test
    void bandFilteredFwiRunsOnTheRuntimeClasspath() throws Exception {
        Path cpFile = Path.of("target", "runtime-classpath.txt");
        assertTrue(Files.isRegularFile(cpFile), "written by the build before the tests: " + cpFile.toAbsolutePath());
        String runtime = Files.readString(cpFile, StandardCharsets.UTF_8).trim();
        String cp = Path.of("target", "classes").toAbsolutePath()
                + (runtime.isEmpty() ? "" : File.pathSeparator + runtime);
        assertTrue(!cp.contains("junit") && !cp.contains("test-classes"), "a runtime classpath: " + cp);

        Path a = FwiCommandTest.twoBandJob(dir.resolve("a"));
        assertEquals(0, Main.commandLine().execute("fwi", "--job", a.toString()), "the run in this JVM");

        Path b = FwiCommandTest.twoBandJob(dir.resolve("b"));
        Path err = dir.resolve("child.err");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                "--add-modules", "jdk.incubator.vector", "-Xmx1g", Main.class.getName(), "fwi", "--job", b.toString());
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile())
                .redirectOutput(dir.resolve("child.out").toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "child run finished");
        assertEquals(0, p.exitValue(), Files.readString(err));
        assertArrayEquals(Npy.readFloat32(dir.resolve("a/out/model_final.npy"), "a").asFloat32(),
                Npy.readFloat32(dir.resolve("b/out/model_final.npy"), "b").asFloat32(),
                "the same bits on the runtime classpath as in the test JVM");
    }
}
