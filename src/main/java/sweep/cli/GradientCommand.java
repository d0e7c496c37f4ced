package sweep.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sweep.io.Npy;
import sweep.parallel.ModelParallel;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/** {@code sweep gradient}: the L2 misfit against observed data and its gradient with respect to the velocity model. */
@Command(name = "gradient", mixinStandardHelpOptions = true,
        description = "Misfit J = 1/2 sum (syn - obs)^2 against --observed and dJ/dvp (float32, model shape) to --out-grad.")
public final class GradientCommand implements Callable<Integer> {
    /** Values of --storage. */
    enum StorageChoice {
        full(Storage.FULL), boundary(Storage.BOUNDARY_SAVING);

        final Storage storage;

        StorageChoice(Storage s) {
            this.storage = s;
        }
    }

    @Spec
    CommandSpec cmd;

    @Mixin
    ProblemOptions problem;

    @Option(names = "--observed", required = true, description = "observed record .npy, float32 (B, nt, nrec, 1)")
    Path observed;

    @Option(names = "--out-grad", required = true, description = "output gradient .npy, float32, model shape")
    Path outGrad;

    @Option(names = "--storage", defaultValue = "boundary",
            description = "wavefield memory: full (exact everywhere) or boundary (no gradient in the PML pads; default)")
    StorageChoice storage;

    @Mixin
    MeshOptions meshOptions;

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
        Map<String, Path> inputs = problem.inputs();
        inputs.put("--observed", observed);
        Outputs.checkFile("--out-grad", outGrad, inputs);
        boolean dd = meshOptions.decomposed();
        ProblemOptions.Problem pr = problem.load(storage.storage, dd);
        int shots = pr.sources().length;
        int nrec = pr.receivers()[0].length;
        int nt = pr.spec().nt();
        if (dd) {
            return decomposed(pr);
        }
        float[] obs = Npy.readFloat32(observed, "--observed", new int[] {shots, nt, nrec, 1}).asFloat32();
        ProblemOptions.checkFiniteRecord(obs, nt, nrec, observed, "--observed");
        long t0 = System.nanoTime();
        Gradient g;
        long held;
        try (Propagator p = new Propagator(pr.spec())) {
            g = p.forwardAndGradient(pr.wavelet(), pr.sources(), pr.receivers(), pr.vp(), obs, Misfit.L2);
            held = p.bytesHeld();
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        Npy.writeFloat32(outGrad, g.vp(), pr.shape());
        cmd.commandLine().getOut().printf("misfit %.9e%n", g.misfit());
        cmd.commandLine().getOut().flush();
        System.err.printf("sweep gradient: %d shot(s), %d steps, storage %s, %.2f s; wrote %s %s%n", shots, nt,
                storage, sec, outGrad, Arrays.toString(pr.shape()));
        if (report.verbose) {
            MemoryReport.print(List.of(MemoryReport.local(0, Grid.single(pr.spec()), pr.spec().storage(), nt, true,
                    held)), System.err);
        }
        return 0;
    }

    /** Each rank reads its tile of the model and its traces of the observed data; the gradient goes out tile-wise. */
    private int decomposed(ProblemOptions.Problem pr) throws Exception {
        int shots = pr.sources().length;
        int nt = pr.spec().nt();
        int nrec = pr.receivers()[0].length;
        try (DistributedRun dr = new DistributedRun(meshOptions, pr.shape(), shots);
             ModelParallel mp = new ModelParallel(dr.paddedSpec(pr.spec()), dr.mesh)) {
            MemoryEstimate.gradient(dr.paddedSpec(pr.spec()), mp.grid(), shots, nrec, pr.wavelet().length)
                    .add("gathered gradient", dr.gatherBytes()).requireHeap(dr.rankAndTile(mp.grid()));
            int[][][] rec = dr.mine(pr.receivers());
            float[] obs = dr.readOwnTraces(observed, "--observed", nt, nrec, 1, mp.ownedReceivers(rec));
            float[] vp = dr.readVelocityTile(pr.vpFile(), "--vp");
            long t0 = System.nanoTime();
            float[] w = pr.wavelet().length == nt ? pr.wavelet() : dr.mine(pr.wavelet(), nt);
            Gradient g = mp.forwardAndGradientOwnTraces(w, dr.mine(pr.sources()), rec, vp, obs, Misfit.L2);
            dr.writeModelShaped(outGrad, mp, g.vp(), true);
            double sec = (System.nanoTime() - t0) * 1e-9;
            if (dr.worldRank == 0) {
                cmd.commandLine().getOut().printf("misfit %.9e%n", g.misfit());
                cmd.commandLine().getOut().flush();
                System.err.printf("sweep gradient: %d shot(s), %d steps, storage %s, %.2f s on %d ranks; wrote %s %s%n",
                        shots, nt, storage, sec, dr.mesh.topology().worldSize(), outGrad, Arrays.toString(pr.shape()));
            }
            if (report.verbose) {
                List<MemoryReport.Rank> all = MemoryReport.gather(MemoryReport.local(dr.worldRank, mp.grid(),
                        pr.spec().storage(), nt, true, mp.bytesHeld()));
                if (all != null) {
                    MemoryReport.print(all, System.err);
                }
            }
        }
        return 0;
    }
}
