package sweep.parallel;

import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Test support: runs several MPI check cases in one {@code mpirun} job, one after another, each on a communicator of
 * its own size split from {@code MPI.COMM_WORLD}, so that a test pays for one job's JVM start-ups instead of one per
 * case. A case that needs fewer ranks than the world runs on the first ones while the rest sleep: on a 2-core machine
 * two 2-rank cases side by side on a 4-rank world took longer than the same two one after another (measured: the
 * ranks of one case poll for their messages on the cores the other case computes on).
 */
public final class MpiCaseBatch {

    /** One case of a batch: how many ranks it needs and what every one of them runs. */
    public interface Case {
        /** The number of ranks the case runs on; at most the world size. */
        int ranks();

        /** A short name for the log line world rank 0 prints after the case. */
        String name();

        /**
         * Runs the case on {@code comm} (of {@link #ranks()} ranks), collective over it, and returns how many checks
         * failed on this rank. It must use {@code comm} and never {@code MPI.COMM_WORLD}.
         */
        int run(Intracomm comm) throws Exception;
    }

    private MpiCaseBatch() {
    }

    /**
     * Runs every case once, in the order given, collective over {@code MPI.COMM_WORLD} (MPI initialised): world ranks
     * 0 to ranks()-1 run it on a communicator of their own, the others wait, and every case ends with a barrier over
     * the world that sleeps while it waits. World rank 0 prints a "CASE ... done in ... s" line after each. Returns
     * the failures on this rank, summed.
     */
    public static int run(List<? extends Case> cases) throws Exception {
        int size = MPI.COMM_WORLD.getSize();
        int rank = MPI.COMM_WORLD.getRank();
        for (Case c : cases) {
            if (c.ranks() < 1 || c.ranks() > size) {
                throw new IllegalArgumentException(c.name() + " needs " + c.ranks() + " ranks; the world has " + size);
            }
        }
        int failures = 0;
        for (Case c : cases) {
            long start = System.nanoTime();
            boolean in = rank < c.ranks();
            Intracomm comm = MPI.COMM_WORLD.split(in ? 0 : 1, rank);
            try {
                if (in) {
                    failures += c.run(comm);
                }
            } finally {
                comm.free();
            }
            quietBarrier(MPI.COMM_WORLD);
            if (rank == 0) {
                say(String.format("CASE %s on %d ranks done in %.1f s", c.name(), c.ranks(),
                        (System.nanoTime() - start) * 1e-9));
            }
        }
        return failures;
    }

    /** Prints one line in one write, so that mpirun does not interleave the ranks' lines. */
    public static void say(String line) {
        byte[] b = (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.out.write(b, 0, b.length);
        System.out.flush();
    }

    /**
     * A barrier over {@code comm} that sleeps while it waits: Open MPI's blocking calls poll, and a polling rank takes
     * a core from the ranks still computing (the machine may have fewer cores than ranks).
     */
    public static void quietBarrier(Intracomm comm) throws MPIException, InterruptedException {
        mpi.Request r = comm.iBarrier();
        while (!r.test()) {
            Thread.sleep(2);
        }
    }
}
