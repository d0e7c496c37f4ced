package sweep.cli;

import java.io.UncheckedIOException;
import mpi.MPI;
import mpi.MPIException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import sweep.parallel.Mpi;

/**
 * Entry point of the {@code sweep} command: forward modelling, the benchmark and the demo job. Errors in the input
 * end the run with a one-line message and exit code 2; nothing is written then.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, version = "sweep-java 0.1.0",
        description = "Seismic finite-difference wave propagation (acoustic, 2-D and 3-D, CPML, free surface).",
        subcommands = {ForwardCommand.class, GradientCommand.class, FwiCommand.class, BenchCommand.class, BenchDdCommand.class,
            DevicesCommand.class,
            DemoCommand.class})
public final class Main implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** Builds the command line with the project's error handling (bad input: message and exit code 2). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof IllegalArgumentException || ex instanceof IllegalStateException
                    || ex instanceof UncheckedIOException) {
                cmd.getErr().println("sweep " + cmd.getCommandName() + rank() + ": error: " + ex.getMessage());
                cmd.getErr().flush();
                return 2;
            }
            throw ex;
        });
        return cl;
    }

    /** " (rank r)" under MPI, else empty. */
    private static String rank() {
        try {
            return Mpi.isInitialized() ? " (rank " + MPI.COMM_WORLD.getRank() + ")" : "";
        } catch (MPIException e) {
            return "";
        }
    }

    /**
     * Runs the command line and exits with its code. Under MPI, a rank that fails aborts the whole job (never a hang
     * of the others in a collective); a rank that succeeds finalizes MPI. Running out of heap despite the estimate
     * made before each run is reported in one line too (exit code 2), with how to raise the heap.
     */
    public static void main(String[] args) {
        MemoryReport.watchHeap();
        int code;
        try {
            code = commandLine().execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println("sweep" + rank() + ": error: out of memory (the JVM's max heap is "
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB): raise it, e.g. SWEEP_JAVA_OPTS=-Xmx"
                    + Math.max(2, 2 * Runtime.getRuntime().maxMemory() / (1024L * 1024 * 1024)) + "g ./sweep ...,"
                    + " or make the run smaller");
            code = 2;
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            code = 1;
        }
        try {
            if (Mpi.isInitialized()) {
                if (code != 0) {
                    MPI.COMM_WORLD.abort(code);
                }
                Mpi.finish();
            }
        } catch (MPIException e) {
            System.err.println("sweep: MPI shutdown failed: " + e.getMessage());
            code = code == 0 ? 1 : code;
        }
        System.exit(code);
    }
}
