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
import sweep.prop.DataWindow;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * {@code sweep gradient}: a misfit against observed data (L2, trace-normalised correlation, envelope or adaptive
 * waveform) and its gradient with respect to the model (acoustic: dJ/dvp; elastic: dJ/dvp, dJ/dvs, dJ/drho).
 */
@Command(name = "gradient", mixinStandardHelpOptions = true,
        description = "Misfit J (--misfit) against --observed and its gradient to --out-grad: float32 dJ/dvp of the"
                + " model's shape (acoustic), or dJ/dvp, dJ/dvs, dJ/drho as (3, nz, [ny,] nx) (elastic).")
public final class GradientCommand implements Callable<Integer> {
    /** The equation's words on how the storage of {@code spec} keeps the forward run, " (...)", or "". */
    static String plan(sweep.prop.PropSpec spec) {
        String p = spec.equation().storagePlan(Grid.single(spec), spec.storage(), spec.nt());
        return p == null ? "" : " (" + p + ")";
    }

    /** The --storage value of {@code s}. */
    static String storageName(Storage s) {
        return switch (s) {
            case FULL -> "full";
            case BOUNDARY_SAVING -> "boundary";
            case CHECKPOINTING -> "checkpoint";
        };
    }

    /** Values of --storage. */
    enum StorageChoice {
        full(Storage.FULL), boundary(Storage.BOUNDARY_SAVING), checkpoint(Storage.CHECKPOINTING);

        final Storage storage;

        StorageChoice(Storage s) {
            this.storage = s;
        }
    }

    @Spec
    CommandSpec cmd;

    @Mixin
    ProblemOptions problem;

    @Option(names = "--observed", required = true,
            description = "observed record .npy, float32 (B, nt, nrec, nfield), nfield as forward writes it")
    Path observed;

    @Option(names = "--out-grad", required = true,
            description = "output gradient .npy, float32: model shape (acoustic) or (3, model shape) (elastic)")
    Path outGrad;

    @Option(names = "--storage", description = "wavefield memory: full (exact everywhere), boundary (no gradient in"
            + " the PML pads) or checkpoint (full's gradient, one more forward run, memory ~ sqrt(nt)); default: the"
            + " equation's first (boundary; checkpoint for visco-acoustic, which has no boundary)")
    StorageChoice storage;

    @Option(names = "--checkpoint-memory", paramLabel = "SIZE", description = "with --storage checkpoint on an"
            + " equation of the step skeleton: the most memory per shot for checkpoints and one segment's tape, e.g."
            + " 512M or 2G (more re-running below the least that re-runs each step once); default: that least")
    String checkpointMemory;

    @Option(names = "--misfit", description = MisfitChoice.HELP)
    MisfitChoice misfit = MisfitChoice.l2;

    @Option(names = "--offsets", split = ",", paramLabel = "MIN,MAX",
            description = "source-receiver offsets in m whose traces the misfit uses, synthetic and observed alike"
                    + " (default: all)")
    double[] offsets;

    @Option(names = "--mute-velocity", paramLabel = "M/S", description = "mute every sample earlier than"
            + " --mute-time + |offset| / this velocity, in the synthetic and observed data and the adjoint source")
    Double muteVelocity;

    @Option(names = "--mute-time", defaultValue = "0", paramLabel = "S",
            description = "the mute line's time at zero offset (default ${DEFAULT-VALUE})")
    double muteTime;

    @Option(names = "--mute-taper", defaultValue = "0.1", paramLabel = "S",
            description = "the half-cosine ramp before the mute line and after the tail mute line (default"
                    + " ${DEFAULT-VALUE})")
    double muteTaper;

    @Option(names = "--tail-mute-velocity", paramLabel = "M/S", description = "mute every sample later than"
            + " --tail-mute-time + |offset| / this velocity (e.g. to keep the early arrivals)")
    Double tailVelocity;

    @Option(names = "--tail-mute-time", defaultValue = "0", paramLabel = "S",
            description = "the tail mute line's time at zero offset (default ${DEFAULT-VALUE})")
    double tailTime;

    /** The chosen misfit for records of {@code spec}, inside the data window of the options when they give one. */
    private Misfit misfitOf(PropSpec spec) {
        Misfit m = misfit.of(spec.nt());
        if (offsets == null && muteVelocity == null && tailVelocity == null) {
            return m;
        }
        if (offsets != null && offsets.length != 2) {
            throw new IllegalArgumentException("--offsets: give MIN,MAX in m, got " + offsets.length + " values");
        }
        if (muteVelocity != null && !(muteVelocity > 0)) {
            throw new IllegalArgumentException("--mute-velocity: must be positive, got " + muteVelocity);
        }
        if (tailVelocity != null && !(tailVelocity > 0)) {
            throw new IllegalArgumentException("--tail-mute-velocity: must be positive, got " + tailVelocity);
        }
        boolean ramps = muteVelocity != null || tailVelocity != null;
        return new DataWindow(offsets == null ? 0 : offsets[0], offsets == null ? Double.POSITIVE_INFINITY
                : offsets[1], muteVelocity == null ? 0 : muteVelocity, muteTime, ramps ? muteTaper : 0,
                tailVelocity == null ? 0 : tailVelocity, tailTime).around(m, spec);
    }

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
        long budget = checkpointMemory == null ? 0 : MemoryEstimate.parseBytes(checkpointMemory,
                "--checkpoint-memory");
        ProblemOptions.Problem pr = problem.load(true, storage == null ? null : storage.storage, budget, dd);
        int shots = pr.sources().length;
        int nrec = pr.receivers()[0].length;
        int nt = pr.spec().nt();
        List<String> fields = ProblemOptions.fieldLabels(pr.spec());
        ProblemOptions.checkRecordShape(observed, "--observed", shots, nt, nrec, fields);
        if (dd) {
            return decomposed(pr);
        }
        float[] obs = Npy.readFloat32(observed, "--observed", new int[] {shots, nt, nrec, fields.size()})
                .asFloat32();
        ProblemOptions.checkFiniteRecord(obs, nt, nrec, fields, observed, "--observed");
        long t0 = System.nanoTime();
        Gradient g;
        long held;
        try (Propagator p = new Propagator(pr.spec())) {
            Misfit m = misfitOf(pr.spec());
            g = p.forwardAndGradient(pr.wavelet(), pr.sources(), pr.receivers(), pr.model(), obs, m);
            held = p.bytesHeld();
            zeroTraces(MisfitChoice.zeroTraces(m), shots * nrec * fields.size());
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        int[] gshape = gradientShape(pr.shape(), g.count());
        Npy.writeFloat32(outGrad, g.parameters(), gshape);
        cmd.commandLine().getOut().printf("misfit %.9e%n", g.misfit());
        cmd.commandLine().getOut().flush();
        System.err.printf("sweep gradient: %d shot(s), %d steps, storage %s, %.2f s; wrote %s %s%n", shots, nt,
                storageName(pr.spec().storage()) + plan(pr.spec()), sec, outGrad, Arrays.toString(gshape));
        if (report.verbose) {
            MemoryReport.print(List.of(MemoryReport.local(0, Grid.single(pr.spec()), pr.spec().storage(), nt, true,
                    held)), System.err);
        }
        return 0;
    }

    /** Says how many of the run's traces a trace-wise misfit left out for a zero norm, when any. */
    private void zeroTraces(long zero, long traces) {
        if (zero > 0) {
            System.err.printf("sweep gradient: %d of %d traces have a zero %s norm%s and add 0 to the %s misfit%n",
                    zero, traces, misfit == MisfitChoice.envelope ? "observed" : "synthetic or observed",
                    offsets != null || muteVelocity != null || tailVelocity != null
                            ? " (or lie outside the data window)" : "", misfit);
        }
    }

    /** The gradient file's shape: the model's for one parameter, {@code (count, model shape)} for several. */
    static int[] gradientShape(int[] shape, int count) {
        if (count == 1) {
            return shape;
        }
        int[] out = new int[shape.length + 1];
        out[0] = count;
        System.arraycopy(shape, 0, out, 1, shape.length);
        return out;
    }

    /** Each rank reads its tile of the model and its traces of the observed data; the gradient goes out tile-wise. */
    private int decomposed(ProblemOptions.Problem pr) throws Exception {
        int shots = pr.sources().length;
        int nt = pr.spec().nt();
        int nrec = pr.receivers()[0].length;
        int count = pr.spec().equation().parameterCount();
        try (DistributedRun dr = new DistributedRun(meshOptions, pr.shape(), shots);
             ModelParallel mp = new ModelParallel(dr.paddedSpec(pr.spec()), dr.mesh)) {
            MemoryEstimate.gradient(dr.paddedSpec(pr.spec()), mp.grid(), shots, nrec, pr.wavelet().length)
                    .add("gathered gradient", dr.gatherBytes(count)).requireHeap(dr.rankAndTile(mp.grid()));
            int[][][] rec = dr.mine(pr.receivers());
            float[] obs = dr.readOwnTraces(observed, "--observed", nt, nrec, ProblemOptions.fieldLabels(pr.spec()),
                    mp.ownedReceivers(rec));
            float[] model = dr.readModelTile(pr, problem.names(pr.spec().equation()));
            long t0 = System.nanoTime();
            float[] w = pr.wavelet().length == nt ? pr.wavelet() : dr.mine(pr.wavelet(), nt);
            Misfit m = misfitOf(pr.spec());
            Gradient g = mp.forwardAndGradientOwnTraces(w, dr.mine(pr.sources()), rec, model, obs, m);
            long[] zero = {MisfitChoice.zeroTraces(m)};
            mpi.MPI.COMM_WORLD.allReduce(zero, 1, mpi.MPI.LONG, mpi.MPI.SUM);
            if (dr.worldRank == 0) {
                zeroTraces(zero[0], shots * nrec * ProblemOptions.fieldLabels(pr.spec()).size());
            }
            dr.writeModelShaped(outGrad, mp, g.parameters(), g.count(), true);
            double sec = (System.nanoTime() - t0) * 1e-9;
            if (dr.worldRank == 0) {
                cmd.commandLine().getOut().printf("misfit %.9e%n", g.misfit());
                cmd.commandLine().getOut().flush();
                System.err.printf("sweep gradient: %d shot(s), %d steps, storage %s, %.2f s on %d ranks; wrote %s %s%n",
                        shots, nt, storageName(pr.spec().storage()), sec, dr.mesh.topology().worldSize(), outGrad,
                        Arrays.toString(dr.fileShape(count)));
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
