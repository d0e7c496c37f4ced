package sweep.parallel;

import mpi.MPI;
import mpi.MPIException;

/**
 * Once-per-JVM lifecycle of Open MPI's Java bindings: {@link #init} calls {@code MPI.InitThread(args,
 * THREAD_FUNNELED)} (only the thread that initialised MPI makes MPI calls; worker threads may run meanwhile) and makes
 * errors on {@code COMM_WORLD} return as {@link MPIException}s instead of killing the job; {@link #finish} finalizes.
 *
 * <p>Nothing here loads the native library until {@link #init} is called, so a single-rank program can use
 * {@link #launchedByMpirun()} to decide whether to initialise MPI at all.
 */
public final class Mpi {

    private static boolean initialized;
    private static boolean finished;
    private static int providedThreadLevel = -1;

    private Mpi() {
    }

    /** Whether this process was started by {@code mpirun}/{@code mpiexec} (the environment has OMPI_COMM_WORLD_SIZE). */
    public static boolean launchedByMpirun() {
        return System.getenv("OMPI_COMM_WORLD_SIZE") != null;
    }

    /**
     * Initialises MPI with thread level FUNNELED and sets {@code ERRORS_RETURN} on {@code COMM_WORLD}; a second call
     * does nothing. MPI cannot be initialised again after {@link #finish}.
     *
     * @param args the program arguments (Open MPI ignores them; may be empty)
     * @return the thread support level MPI provides (compare with {@code MPI.THREAD_FUNNELED})
     * @throws MPIException when MPI fails to initialise
     * @throws IllegalStateException after {@link #finish}
     */
    public static synchronized int init(String[] args) throws MPIException {
        if (finished) {
            throw new IllegalStateException("MPI was already finalized in this JVM; it can be initialised only once");
        }
        if (!initialized) {
            providedThreadLevel = MPI.InitThread(args == null ? new String[0] : args, MPI.THREAD_FUNNELED);
            initialized = true;
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        }
        return providedThreadLevel;
    }

    /** Whether {@link #init} has run and {@link #finish} has not. */
    public static synchronized boolean isInitialized() {
        return initialized && !finished;
    }

    /** Finalizes MPI if this class initialised it and it is not finalized yet; otherwise does nothing. */
    public static synchronized void finish() throws MPIException {
        if (initialized && !finished) {
            finished = true;
            MPI.Finalize();
        }
    }
}
