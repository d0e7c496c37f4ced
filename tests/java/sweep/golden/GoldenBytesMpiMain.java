package sweep.golden;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import mpi.MPI;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * Run on 2 ranks by {@link GoldenBytesTest#decomposedTwoRanks()}: every {@link GoldenCases} problem decomposed over the
 * problem's 2-tile mesh (2-D px = 2, 3-D py = 2, one shot group, no padding), through the public
 * {@link ModelParallel} API: the forward record of the true model gathered on the group root (and broadcast as the
 * observed data), then, for each storage of {@link #storages}, the gradient at the starting model against that record,
 * its tiles gathered into the global gradient ({@link ModelParallel#allGatherTiles}). Rank 0 prints one line
 * "GOLDEN &lt;case&gt; &lt;sha256&gt;" per record and gradient (the names of {@link GoldenBytesTest}'s constants) and
 * one "TIME &lt;problem&gt; &lt;seconds&gt;" line per problem; a failure prints "FAIL ..." and exits 1.
 */
public final class GoldenBytesMpiMain {
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int status = 0;
        try {
            for (GoldenCases.Problem p : GoldenCases.all()) {
                long t0 = System.nanoTime();
                run(p, rank);
                if (rank == 0) {
                    say(String.format("TIME %s %.2f s", p.name(), (System.nanoTime() - t0) * 1e-9));
                }
            }
        } catch (RuntimeException e) {
            say("FAIL rank " + rank + ": " + e);
            e.printStackTrace();
            status = 1;
        }
        Mpi.finish();
        System.exit(status);
    }

    static void run(GoldenCases.Problem p, int rank) throws Exception {
        try (ModelParallelMesh mesh = ModelParallelMesh.create(p.py(), p.px(), 1)) {
            PropSpec full = p.spec(1, Storage.FULL);
            int n = p.sources().length * full.nt() * p.receivers()[0].length * full.nfield();
            float[] observed = new float[n];
            try (ModelParallel mp = new ModelParallel(full, mesh)) {
                Record tile = mp.forward(p.wavelet(), p.sources(), p.receivers(), p.trueModel());
                Record all = mp.gatherRecord(tile);
                if (mesh.model().getRank() == 0) {
                    if (all.data().length != n) {
                        throw new IllegalStateException(p.name() + ": gathered record has shape "
                                + Arrays.toString(all.shape()));
                    }
                    System.arraycopy(all.data(), 0, observed, 0, n);
                }
            }
            mesh.model().bcast(observed, n, MPI.FLOAT, 0);
            if (rank == 0) {
                say("GOLDEN " + p.name() + "_RECORD " + GoldenCases.sha256(observed));
            }
            for (Storage storage : storages(p)) {
                try (ModelParallel mp = new ModelParallel(p.spec(1, storage), mesh)) {
                    Gradient g = mp.forwardAndGradient(p.wavelet(), p.sources(), p.receivers(), p.startModel(),
                            observed, Misfit.L2);
                    float[] global = mp.allGatherTiles(g.parameters());
                    if (rank == 0) {
                        say("GOLDEN " + p.name() + "_GRADIENT_" + storage + " " + GoldenCases.sha256(global));
                    }
                }
            }
        }
    }

    /**
     * The storages decomposed: all of the equation's in 2-D, its default alone in 3-D (boundary saving, with its
     * per-tile boundary rings), to keep the one launch short (the single-domain side pins all everywhere).
     */
    static List<Storage> storages(GoldenCases.Problem p) {
        List<Storage> all = p.spec().equation().storages();
        return p.spec().ndim() == 2 ? all : all.subList(0, 1);
    }

    /** One write per line, so that mpirun does not interleave the ranks' lines. */
    static void say(String line) {
        byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
        System.out.write(b, 0, b.length);
        System.out.flush();
    }
}
