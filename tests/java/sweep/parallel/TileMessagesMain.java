package sweep.parallel;

import java.util.Arrays;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * Run under mpirun (2 ranks, px = 2) by {@link TileMessagesMpiTest} on a (20, 40) model: prints per rank the message
 * for a NaN at global (12, 34) in the global model ("global: ..."), the message for a bad cell at tile cell (3, 5) of
 * each rank's own tile ("tile: ..."), and the memory estimate of its tile solver against what it holds after a
 * gradient ("memory <estimate> <held>").
 */
public final class TileMessagesMain {
    static final int NZ = 20;
    static final int NX = 40;

    private TileMessagesMain() {
    }

    private static String message(Runnable r) {
        try {
            r.run();
            return "no error";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** Entry point for one rank. */
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int rank = MPI.COMM_WORLD.getRank();
        ModelParallelMesh mesh = ModelParallelMesh.create(1, 2, 1);
        PropSpec spec = PropSpec.builder(NZ, NX).dh(10).dt(1e-3).nt(40).abcn(6).maxVel(2500)
                .storage(Storage.BOUNDARY_SAVING).build();
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        int[][][] src = {{{10, 2}}};
        int[][][] rec = {{{3, 2}, {30, 2}}};
        StringBuilder out = new StringBuilder();
        try (ModelParallel mp = new ModelParallel(spec, mesh)) {
            float[] global = new float[NZ * NX];
            Arrays.fill(global, 2000f);
            global[12 * NX + 34] = Float.NaN;
            out.append("rank ").append(rank).append(" global: ").append(message(() -> mp.forward(w, src, rec, global)))
                    .append('\n');
            int[] t = mp.tile().shape();
            float[] tile = new float[t[0] * t[1]];
            Arrays.fill(tile, 2000f);
            tile[3 * t[1] + 5] = -1f;
            out.append("rank ").append(rank).append(" tile: ").append(message(() -> mp.forward(w, src, rec, tile)))
                    .append('\n');
            Arrays.fill(global, 2000f);
            mp.forwardAndGradient(w, src, rec, global, new float[spec.nt() * 2], Misfit.L2);
            long estimate = MemoryEstimate.solverBytes(mp.grid(), spec.storage(), spec.nt(), true);
            out.append("rank ").append(rank).append(" memory ").append(estimate).append(' ').append(mp.bytesHeld())
                    .append('\n');
        }
        System.out.print(out);
        System.out.flush();
        mesh.close();
        Mpi.finish();
    }
}
