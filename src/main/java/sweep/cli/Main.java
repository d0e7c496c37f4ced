package sweep.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

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
            String where = sweep.parallel.Mpi.isInitialized() ? " (rank " + mpi.MPI.COMM_WORLD.getRank() + ")" : "";
            if (ex instanceof IllegalArgumentException || ex instanceof IllegalStateException
                    || ex instanceof java.io.UncheckedIOException) {
                cmd.getErr().println("sweep " + cmd.getCommandName() + where + ": error: " + ex.getMessage());
                cmd.getErr().flush();
                return 2;
            }
            throw ex;
        });
        return cl;
    }

    /**
     * Runs the command line and exits with its code. Under MPI, a rank that fails aborts the whole job (never a hang
     * of the others in a collective); a rank that succeeds finalizes MPI.
     */
    public static void main(String[] args) {
        int code;
        try {
            code = commandLine().execute(args);
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            code = 1;
        }
        try {
            if (sweep.parallel.Mpi.isInitialized()) {
                if (code != 0) {
                    mpi.MPI.COMM_WORLD.abort(code);
                }
                sweep.parallel.Mpi.finish();
            }
        } catch (mpi.MPIException e) {
            System.err.println("sweep: MPI shutdown failed: " + e.getMessage());
            code = code == 0 ? 1 : code;
        }
        System.exit(code);
    }
}
