package sweep.cli;

import java.io.UncheckedIOException;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import sweep.equation.Equations;
import sweep.equation.Setting;
import sweep.equation.WaveEquation;
import sweep.parallel.Mpi;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * Entry point of the {@code sweep} command: forward modelling, the benchmark and the demo job. Errors in the input
 * end the run with a one-line message and exit code 2; nothing is written then.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, version = "sweep-java 0.1.0",
        description = "Seismic finite-difference wave propagation (acoustic, elastic and the equations on the class path;"
                + " 2-D and 3-D, CPML, free surface).",
        subcommands = {ForwardCommand.class, GradientCommand.class, BornCommand.class, RtmCommand.class,
            LsrtmCommand.class, FwiCommand.class, BenchCommand.class, BenchDdCommand.class, DevicesCommand.class,
            EquationsCommand.class, DemoCommand.class})
public final class Main implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** The command-line option of each setting of {@link PropSpec.Builder}, for messages (--pml-freq, not pmlFreq). */
    private static final Map<String, String> OPTIONS = Map.of("dh", "--dh", "dt", "--dt", "nt", "--nt", "abcn",
            "--abcn", "order", "--order", "pmlFreq", "--pml-freq", "maxVel", "--max-vel", "threads", "--threads",
            "storage", "--storage", "checkpointMemory", "--checkpoint-memory");

    /** The command-line option of a setting the spec refused: a builder setting's, or an equation setting's. */
    private static String option(String setting) {
        String o = OPTIONS.get(setting);
        if (o != null) {
            return o;
        }
        for (WaveEquation e : Equations.installed().values()) {
            for (Setting st : e.settings()) {
                if (st.name().equals(setting)) {
                    return st.option();
                }
            }
        }
        return setting;
    }

    /** Prints a warning line on stderr once per run: on world rank 0 under mpirun, else here. */
    static void warnOnce(String command, String line) {
        if (launchRank() <= 0) {
            System.err.println("sweep " + command + ": warning: " + line);
            System.err.flush();
        }
    }

    /** The reason of {@code is} in the words of the command line: storages as --storage takes them (FULL: full). */
    static String optionWords(PropSpec.InvalidSetting is) {
        String reason = is.reason();
        if (is.setting().equals("storage") || is.setting().equals("checkpointMemory")) {
            for (Storage s : Storage.values()) {
                reason = reason.replace(s.name(), GradientCommand.storageName(s));
            }
        }
        return reason;
    }

    /** Builds the command line with the project's error handling (bad input: message and exit code 2). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        ProblemOptions.addParameterOptions(cl);
        BornCommand.addPerturbationOptions(cl);
        cl.setCaseInsensitiveEnumValuesAllowed(true); // names (acoustic, FULL, fz, VS) are matched in any case
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof IllegalArgumentException || ex instanceof IllegalStateException
                    || ex instanceof UncheckedIOException) {
                String message = ex instanceof PropSpec.InvalidSetting is
                        ? option(is.setting()) + " " + optionWords(is) : ex.getMessage();
                printOnce(cmd.getErr(), "sweep " + cmd.getCommandName() + rank() + ": error: " + message);
                return 2;
            }
            throw ex;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            String name = cmd.getCommandSpec().qualifiedName();
            printOnce(cmd.getErr(), name + ": error: " + ex.getMessage() + " (see '" + name + " --help')");
            return 2;
        });
        cl.setExecutionStrategy(parsed -> {
            refuseRepeatedLists(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        return cl;
    }

    /**
     * Refuses an option given more than once. picocli refuses a repeated single-valued option itself, but collects the
     * values of a repeated list option ({@code --dh 10 --dh 20} would silently mean per-axis spacings): a list is given
     * once, its values separated by commas.
     */
    private static void refuseRepeatedLists(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (CommandLine.Model.OptionSpec o : p.matchedOptions()) {
                if (o.isMultiValue() && p.matchedOption(o.longestName()).originalStringValues().size() > 1) {
                    throw new CommandLine.ParameterException(p.commandSpec().commandLine(), "option '"
                            + o.longestName() + "' should be specified only once: give its values in one list, e.g. "
                            + o.longestName() + " " + String.join(",", p.matchedOption(o.longestName())
                            .originalStringValues()));
                }
            }
        }
    }

    /**
     * Prints an error line once per job: under mpirun every rank usually meets the same error (they all read the same
     * command line and inputs), so world rank 0 prints at once and the others wait first: when rank 0 failed too,
     * mpirun ends the job meanwhile and only rank 0's line is seen; an error that only another rank meets (its tile of
     * the model, say) is still printed, by that rank, after the wait. Before MPI is initialised the ranks may be
     * seconds apart (JVM start-up on a loaded machine), so the wait is longer then.
     */
    static void printOnce(java.io.PrintWriter err, String line) {
        if (launchRank() > 0) {
            try {
                Thread.sleep(Mpi.isInitialized() ? OTHER_RANKS_WAIT_MS : OTHER_RANKS_WAIT_BEFORE_MPI_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        err.println(line);
        err.flush();
    }

    /** How long a rank other than 0 waits before it prints an error once MPI is initialised (see {@link #printOnce}). */
    static final long OTHER_RANKS_WAIT_MS = 3000;

    /** As {@link #OTHER_RANKS_WAIT_MS} for an error met before MPI is initialised. */
    static final long OTHER_RANKS_WAIT_BEFORE_MPI_MS = 10_000;

    /** This process's world rank when mpirun started it (from its environment, before MPI is initialised), else -1. */
    private static int launchRank() {
        String r = System.getenv("OMPI_COMM_WORLD_RANK");
        try {
            return r == null ? -1 : Integer.parseInt(r.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
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
