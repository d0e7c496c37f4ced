package sweep.parallel;

import java.nio.FloatBuffer;
import mpi.MPI;
import mpi.Request;

/**
 * Run under mpirun by {@link MpiSmokeTest}: every rank sends a direct float buffer to its right neighbour on a ring
 * (non-blocking, in two halves through {@code slice}) and all-reduces a double, checks what it received, and prints
 * one {@code smoke rank=R size=N left=L first=F last=G sum=S} line. With {@code --fail-rank K}, rank K throws after
 * the exchange instead, which must end the whole job with a non-zero exit.
 */
public final class MpiSmokeMain {

    /** Floats sent to the right neighbour. */
    static final int N = 1000;

    private MpiSmokeMain() {
    }

    /** The value rank {@code r} sends at index {@code i}. */
    static float value(int r, int i) {
        return r * 10000 + i + 0.5f;
    }

    /** Entry point for one rank. */
    public static void main(String[] args) throws Exception {
        int failRank = args.length == 2 && args[0].equals("--fail-rank") ? Integer.parseInt(args[1]) : -1;
        Mpi.init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;

        FloatBuffer send = MPI.newFloatBuffer(N);
        FloatBuffer recv = MPI.newFloatBuffer(N);
        for (int i = 0; i < N; i++) {
            send.put(i, value(rank, i));
            recv.put(i, Float.NaN);
        }
        int h = N / 2;
        Request[] requests = {
            MPI.COMM_WORLD.iRecv(recv.slice(0, h), h, MPI.FLOAT, left, 1),
            MPI.COMM_WORLD.iRecv(recv.slice(h, N - h), N - h, MPI.FLOAT, left, 2),
            MPI.COMM_WORLD.iSend(send.slice(0, h), h, MPI.FLOAT, right, 1),
            MPI.COMM_WORLD.iSend(send.slice(h, N - h), N - h, MPI.FLOAT, right, 2),
        };
        Request.waitAll(requests);
        for (Request r : requests) {
            r.free();
        }
        for (int i = 0; i < N; i++) {
            if (recv.get(i) != value(left, i)) {
                throw new AssertionError("rank " + rank + ": element " + i + " from rank " + left + " is "
                        + recv.get(i) + ", expected " + value(left, i));
            }
        }
        if (rank == failRank) {
            throw new IllegalStateException("rank " + rank + " fails on purpose (--fail-rank)");
        }
        double[] mine = {rank + 0.25};
        double[] sum = new double[1];
        MPI.COMM_WORLD.allReduce(mine, sum, 1, MPI.DOUBLE, MPI.SUM);
        System.out.println("smoke rank=" + rank + " size=" + size + " left=" + left + " first=" + recv.get(0)
                + " last=" + recv.get(N - 1) + " sum=" + sum[0]);
        System.out.flush();
        Mpi.finish();
    }
}
