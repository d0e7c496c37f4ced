package sweep.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mpi.jar part of {@code scripts/setup.sh} on the path no used machine takes: an empty local Maven repository (set
 * through {@code MAVEN_OPTS=-Dmaven.repo.local=...}, as a user may) and a fresh temporary folder. It must end with exit
 * 0, Open MPI's Java bindings installed where that Maven configuration reads them, and no temporary folder left.
 * Needs the network (Debian's source package, Maven Central), like the setup itself on a new machine.
 */
class SetupScriptTest {
    @TempDir
    Path dir;

    @Test
    void mpiJarLandsInTheLocalRepositoryMavenUsesAndNothingIsLeftBehind() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        assertTrue(Files.isRegularFile(root.resolve("scripts/setup.sh")), "run from the project root: " + root);
        Path repo = dir.resolve("empty-repo");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path log = dir.resolve("setup.log");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("scripts/setup.sh").toString(), "--no-build")
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().remove("SWEEP_M2_REPO");
        pb.environment().put("MAVEN_OPTS", "-Dmaven.repo.local=" + repo);
        pb.environment().put("TMPDIR", tmp.toString());
        Process p = pb.start();
        boolean done = p.waitFor(240, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "setup.sh did not finish in 240 s:\n" + out);
        assertEquals(0, p.exitValue(), out);

        // Maven's repository layout: <local repository>/org/open-mpi/mpi/<version>/mpi-<version>.jar
        Path group = repo.resolve("org/open-mpi/mpi");
        assertTrue(Files.isDirectory(group), "no org.open-mpi:mpi in the local repository Maven uses (" + repo
                + ")\n" + out);
        List<Path> jars;
        try (Stream<Path> s = Files.walk(group)) {
            jars = s.filter(f -> f.getFileName().toString().matches("mpi-[0-9.]+\\.jar")).toList();
        }
        assertEquals(1, jars.size(), "one mpi jar in " + group + ": " + jars + "\n" + out);
        Path jar = jars.get(0);
        String version = jar.getParent().getFileName().toString();
        assertEquals("mpi-" + version + ".jar", jar.getFileName().toString());
        assertTrue(Files.exists(jar.resolveSibling("mpi-" + version + ".pom")), "a pom beside the jar");
        try (ZipFile z = new ZipFile(jar.toFile())) {
            assertTrue(z.getEntry("mpi/MPI.class") != null && z.getEntry("mpi/Intracomm.class") != null,
                    "Open MPI's Java bindings in " + jar);
        }

        // nothing left in the temporary folder but the (empty) lock file of the serialised setup
        List<String> left;
        try (Stream<Path> s = Files.list(tmp)) {
            left = s.map(f -> f.getFileName().toString() + (Files.isDirectory(f) ? "/" : "")).toList();
        }
        assertTrue(left.stream().allMatch(n -> n.matches("sweep-setup-[0-9]+\\.lock")), "left behind: " + left);
    }
}
