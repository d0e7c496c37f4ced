package sweep.parallel;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test support: runs a main class on N ranks under a real {@code mpirun} (oversubscribed, unbound, allowed as root)
 * with this test JVM's class path, and returns its exit code and output. A hung job is ended by {@code mpirun
 * --timeout} and, as a backstop, by a Java-side timeout.
 */
public final class MpiRunner {

    /**
     * Default limit for one job (JVM start-up of several ranks on 2 cores included): a guard against hangs, not a
     * speed check; the 2-rank FWI case needs over 120 s on a heavily loaded 2-core machine.
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(300);

    /** Exit code of an mpirun job, its standard output and error, and whether the Java-side timeout ended it. */
    public record Result(int exitCode, String stdout, String stderr, boolean timedOut) {

        /** Lines of standard output that start with {@code prefix}. */
        public List<String> linesStartingWith(String prefix) {
            List<String> out = new ArrayList<>();
            for (String line : stdout.split("\\R")) {
                if (line.startsWith(prefix)) {
                    out.add(line);
                }
            }
            return out;
        }

        /** Both streams, for assertion messages. */
        public String describe() {
            return "exit " + exitCode + (timedOut ? " (timed out)" : "") + "\n--- stdout ---\n" + stdout
                    + "\n--- stderr ---\n" + stderr;
        }
    }

    private MpiRunner() {
    }

    /** Runs {@code mainClass args...} on {@code ranks} ranks with {@link #DEFAULT_TIMEOUT} and a 512 MiB heap each. */
    public static Result run(int ranks, Class<?> mainClass, String... args) throws IOException, InterruptedException {
        return run(ranks, DEFAULT_TIMEOUT, List.of("-Xmx512m"), mainClass, args);
    }

    /**
     * Runs {@code mainClass args...} on {@code ranks} ranks.
     *
     * @param timeout     limit for the whole job (mpirun's own, plus a Java-side backstop 30 s later)
     * @param jvmOptions  extra JVM options for every rank
     */
    public static Result run(int ranks, Duration timeout, List<String> jvmOptions, Class<?> mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = command(ranks, timeout, jvmOptions, mainClass, args);
        Path out = Files.createTempFile("mpirun-", ".out");
        Path err = Files.createTempFile("mpirun-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
            pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
            Process p = pb.start();
            boolean done = p.waitFor(timeout.toSeconds() + 30, TimeUnit.SECONDS);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            return new Result(done ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8), !done);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The mpirun command line of {@link #run(int, Duration, List, Class, String...)}. */
    private static List<String> command(int ranks, Duration timeout, List<String> jvmOptions, Class<?> mainClass,
                                        String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("mpirun", "-np", Integer.toString(ranks), "--oversubscribe",
                "--bind-to", "none", "--timeout", Long.toString(Math.max(1, timeout.toSeconds()))));
        // mpirun scans a java command line for the first argument containing "cp" and treats the next one as the
        // class path: keep -cp right after the java executable.
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("-Djava.library.path=" + libraryDir());
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.add("--add-modules");
        cmd.add("jdk.incubator.vector");
        // each rank sees its share of the cores (so its thread pool, JIT and GC size themselves to it): with more
        // threads than cores, a small test problem spends more in the pool's hand-offs of every kernel call than in
        // the kernels (FwiMpiTest's launch 62 s with two threads per rank, 33 s with one, on 2 cores and 4 ranks)
        if (jvmOptions.stream().noneMatch(o -> o.startsWith("-XX:ActiveProcessorCount="))) {
            cmd.add("-XX:ActiveProcessorCount=" + Math.max(1, Runtime.getRuntime().availableProcessors() / ranks));
            // and keeps the collector a multi-core JVM picks (on one core it would be the serial one, which is slower
            // on the tight heaps of the memory tests)
            cmd.add("-XX:+UseG1GC");
        }
        cmd.addAll(jvmOptions);
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Starts {@code mainClass args...} on {@code ranks} ranks without waiting (a job to read as it runs, or to kill:
     * kill its {@link Process#descendants()} as well); its standard output is the process's input stream, its
     * standard error goes to {@code stderr}.
     */
    public static Process start(int ranks, Path stderr, Class<?> mainClass, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command(ranks, DEFAULT_TIMEOUT, List.of(), mainClass, args))
                .redirectError(stderr.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        return pb.start();
    }

    /**
     * The folder holding Open MPI's JNI library {@code libmpi_java.so}: system property {@code sweep.mpi.libdir},
     * else Debian's Open MPI library folder, else what {@code dpkg -L libopenmpi-dev} lists.
     */
    public static String libraryDir() throws IOException, InterruptedException {
        String configured = System.getProperty("sweep.mpi.libdir", System.getenv("SWEEP_MPI_LIBDIR"));
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String arch = System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch");
        for (String dir : List.of("/usr/lib/" + arch + "-linux-gnu/openmpi/lib", "/usr/lib64/openmpi/lib",
                "/usr/lib/openmpi/lib")) {
            if (Files.exists(Path.of(dir, "libmpi_java.so"))) {
                return dir;
            }
        }
        Process p = new ProcessBuilder("dpkg", "-L", "libopenmpi-dev").redirectErrorStream(true).start();
        String listing = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        for (String line : listing.split("\\R")) {
            if (line.endsWith("/libmpi_java.so")) {
                return Path.of(line).getParent().toString();
            }
        }
        throw new IllegalStateException("libmpi_java.so not found: run scripts/setup.sh (installs libopenmpi-dev)"
                + " or set -Dsweep.mpi.libdir");
    }
}
