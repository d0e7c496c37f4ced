package sweep.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.io.Npy;
import sweep.parallel.ModelParallel;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.Propagator;
import sweep.prop.Record;

/**
 * {@code sweep forward}: models shot records through a model read from .npy files (acoustic: --vp; elastic: --vp, --vs,
 * --rho).
 */
@Command(name = "forward", mixinStandardHelpOptions = true,
        description = "Forward-model shot records: writes float32 (B, nt, nrec, nfield) to --out, the fields of"
                + " --record in that order (by default the equation's default record, e.g. the pressure).")
public final class ForwardCommand implements Callable<Integer> {
    @Mixin
    ProblemOptions problem;

    @Mixin
    MeshOptions meshOptions;

    @Option(names = "--out", required = true, description = "output record .npy")
    Path out;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    private Integer run() throws Exception {
        Outputs.checkFile("--out", out, problem.inputs());
        boolean dd = meshOptions.decomposed();
        ProblemOptions.Problem pr = problem.load(false, null, dd);
        if (dd) {
            return decomposed(pr);
        }
        long t0 = System.nanoTime();
        Record r;
        long held;
        try (Propagator p = new Propagator(pr.spec())) {
            r = p.forward(pr.wavelet(), pr.sources(), pr.receivers(), pr.model());
            held = p.bytesHeld();
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        Npy.writeFloat32(out, r.data(), r.shape());
        System.err.printf("sweep forward: %d shot(s), %d steps in %.2f s; wrote %s (%d, %d, %d, %d)%n",
                r.shots(), r.nt(), sec, out, r.shots(), r.nt(), r.nrec(), r.nfield());
        if (report.verbose) {
            MemoryReport.print(List.of(MemoryReport.local(0, Grid.single(pr.spec()), pr.spec().storage(),
                    pr.spec().nt(), false, held)), System.err);
        }
        return 0;
    }

    private int decomposed(ProblemOptions.Problem pr) throws Exception {
        int shots = pr.sources().length;
        try (DistributedRun dr = new DistributedRun(meshOptions, pr.shape(), shots);
             ModelParallel mp = new ModelParallel(dr.paddedSpec(pr.spec()), dr.mesh)) {
            int nrec = pr.receivers()[0].length;
            MemoryEstimate.forward(dr.paddedSpec(pr.spec()), mp.grid(), shots, nrec, pr.wavelet().length)
                    .requireHeap(dr.rankAndTile(mp.grid()));
            float[] model = dr.readModelTile(pr, problem.names(pr.spec().equation()));
            long t0 = System.nanoTime();
            float[] w = pr.wavelet().length == problem.nt ? pr.wavelet() : dr.mine(pr.wavelet(), problem.nt);
            Record tile = mp.forward(w, dr.mine(pr.sources()), dr.mine(pr.receivers()), model);
            Record r = dr.gatherAll(mp, tile);
            double sec = (System.nanoTime() - t0) * 1e-9;
            if (r != null) {
                Npy.writeFloat32(out, r.data(), r.shape());
                System.err.printf("sweep forward: %d shot(s), %d steps in %.2f s on %d ranks; wrote %s (%d, %d, %d, %d)%n",
                        r.shots(), r.nt(), sec, dr.mesh.topology().worldSize(), out, r.shots(), r.nt(), r.nrec(),
                        r.nfield());
            }
            if (report.verbose) {
                List<MemoryReport.Rank> all = MemoryReport.gather(MemoryReport.local(dr.worldRank, mp.grid(),
                        pr.spec().storage(), pr.spec().nt(), false, mp.bytesHeld()));
                if (all != null) {
                    MemoryReport.print(all, System.err);
                }
            }
        }
        return 0;
    }
}
