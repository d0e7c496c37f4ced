package sweep.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import mpi.MPI;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.imaging.ImageFilters;
import sweep.imaging.Lsrtm;
import sweep.io.Json;
import sweep.io.ModelFiles;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.parallel.ModelParallel;
import sweep.parallel.Padding;
import sweep.parallel.Shaped;
import sweep.prop.Misfit;
import sweep.prop.Propagator;
import sweep.prop.Record;

/**
 * {@code sweep lsrtm}: least-squares reverse-time migration, CGLS on the Born operator from a zero image, writing the
 * image and the data residual after every iteration; resumable after a kill.
 */
@Command(name = "lsrtm", mixinStandardHelpOptions = true,
        description = "Least-squares RTM: conjugate gradients (CGLS) on min |J m - d|^2 for the image m of --observed"
                + " in the background model; writes image_<k>.npy after iteration k, residual.json (|d - J m_k|"
                + " per iteration), image.png and a checkpoint into --out; resumable with --resume.")
public final class LsrtmCommand implements Callable<Integer> {
    /** The checkpoint's file name in the output folder. */
    static final String CHECKPOINT = "checkpoint.bin";

    @Mixin
    ProblemOptions problem;

    @Mixin
    ImagingOptions imaging;

    @Option(names = "--iterations", required = true, description = "CGLS iterations (each a Born and an adjoint run)")
    int iterations;

    @Option(names = "--out", required = true, description = "output folder")
    Path out;

    @Option(names = "--resume", description = "continue from the checkpoint in --out (same job) up to --iterations")
    boolean resume;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public Integer call() throws Exception {
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    /** The files a run of {@code n} iterations writes into the output folder. */
    static List<String> outputNames(int n) {
        List<String> names = new ArrayList<>(List.of("residual.json", "image.png", CHECKPOINT));
        for (int k = 1; k <= n; k++) {
            names.add("image_" + k + ".npy");
        }
        return names;
    }

    private Integer run() throws Exception {
        if (iterations < 1) {
            throw new IllegalArgumentException("--iterations must be at least 1, got " + iterations);
        }
        Map<String, Path> inputs = imaging.inputs(problem);
        boolean dd = meshOptions.decomposed();
        ProblemOptions.Problem pr = imaging.load(problem, "sweep lsrtm", dd);
        int shots = pr.sources().length;
        int nrec = pr.receivers()[0].length;
        float[] obs = imaging.readAll(pr);
        DistributedRun dr = dd ? new DistributedRun(meshOptions, pr.shape(), shots) : null;
        try (OutputLock lock = OutputLock.take(out, "--out", () -> Outputs.checkFolder("--out", out,
                outputNames(iterations), inputs), dd)) {
            if (dr == null) {
                try (Propagator p = new Propagator(pr.spec())) {
                    invert(pr, obs, muted(singleDomain(pr, p), pr), true);
                }
            } else {
                try (ModelParallel mp = new ModelParallel(dr.paddedSpec(pr.spec()), dr.mesh)) {
                    BornCommand.estimate(dr.paddedSpec(pr.spec()), mp.grid(), shots, nrec, pr.wavelet().length)
                            .add("whole images and records", 4L * (4L * pr.spec().equation().parameterCount()
                                    * Arrays.stream(pr.shape()).asLongStream().reduce(1, (a, b) -> a * b)
                                    + 4L * obs.length))
                            .requireHeap(dr.rankAndTile(mp.grid()));
                    invert(pr, obs, muted(decomposed(pr, dr, mp), pr), dr.worldRank == 0);
                }
            }
        } finally {
            if (dr != null) {
                dr.close();
            }
        }
        return 0;
    }

    /** Identifies the job for its checkpoint: the spec, the background model, the data and the acquisition. */
    private long jobId(ProblemOptions.Problem pr, float[] obs, float[] model) {
        long h = pr.spec().fingerprint() * 31 + imaging.muteRows;
        h = h * 31 + Arrays.hashCode(model);
        h = h * 31 + Arrays.hashCode(obs);
        h = h * 31 + Arrays.hashCode(pr.wavelet());
        h = h * 31 + Arrays.deepHashCode(pr.sources());
        return h * 31 + Arrays.deepHashCode(pr.receivers());
    }

    /** The iterations, from the start or the checkpoint; {@code root} writes the files. */
    private void invert(ProblemOptions.Problem pr, float[] obs, Operator op, boolean root) {
        long job = jobId(pr, obs, op.model());
        Path checkpoint = out.resolve(CHECKPOINT);
        int cells = op.model().length;
        Lsrtm.State st;
        if (resume && Files.exists(checkpoint)) {
            st = Lsrtm.load(checkpoint, job, cells, obs.length);
            if (st.iteration() > iterations) {
                throw new IllegalArgumentException("--resume: " + checkpoint + " holds " + st.iteration()
                        + " iterations, more than --iterations " + iterations + ": ask for at least "
                        + st.iteration());
            }
            if (root) {
                System.err.printf("sweep lsrtm: resuming after iteration %d of %d%n", st.iteration(), iterations);
            }
        } else {
            if (resume && root) {
                System.err.println("sweep lsrtm: note: --resume: no checkpoint in " + out + "; starting afresh");
            }
            st = Lsrtm.start(op, obs);
        }
        Progress progress = new Progress(root);
        progress.start("lsrtm", iterations);
        while (st.iteration() < iterations) {
            long t0 = System.nanoTime();
            st = Lsrtm.iterate(op, st);
            if (root) {
                int k = st.iteration();
                Npy.writeFloat32(out.resolve("image_" + k + ".npy"), st.image(),
                        GradientCommand.gradientShape(pr.shape(), pr.spec().equation().parameterCount()));
                Lsrtm.save(checkpoint, job, st);
                writeResidual(st);
                double rel = st.residualNorms().get(k) / st.residualNorms().get(0);
                progress.println(String.format("lsrtm iteration %d/%d: data residual %.4f of the start, %.1f s", k,
                        iterations, rel, (System.nanoTime() - t0) * 1e-9));
                progress.step(k, String.format("residual %.3f", rel));
            }
        }
        progress.finish();
        if (root) {
            int[] shape = pr.shape();
            double[] dh = pr.spec().dh();
            int one = st.image().length / pr.spec().equation().parameterCount();
            Png.diverging(out.resolve("image.png"), FwiCommand.section(Arrays.copyOf(st.image(), one), shape),
                    shape[0], shape[shape.length - 1], dh[0], dh[dh.length - 1], "LSRTM image of "
                    + pr.spec().equation().parameterNames().get(0) + " after " + st.iteration() + " iterations"
                    + (imaging.muteRows > 0 ? ", top " + imaging.muteRows + " rows muted" : ""), 99);
            writeResidual(st);
            System.err.printf("sweep lsrtm: %d iterations; data residual %.4f of the start; wrote %s%n",
                    st.iteration(), st.residualNorms().get(st.iteration()) / st.residualNorms().get(0), out);
        }
    }

    private void writeResidual(Lsrtm.State st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", st.iteration());
        m.put("residual", st.residualNorms());
        double r0 = st.residualNorms().get(0);
        m.put("relative", st.residualNorms().stream().map(r -> r / r0).toList());
        Json.write(out.resolve("residual.json"), m);
    }

    /** The Born operator on whole images and records, with the background model it runs in. */
    private interface Operator extends Lsrtm.Operator {
        float[] model();
    }

    /** {@code op} on images whose top --mute-rows rows are zero: J·M and M·Jᵀ for the mask M. */
    private Operator muted(Operator op, ProblemOptions.Problem pr) {
        int muteRows = imaging.muteRows;
        if (muteRows == 0) {
            return op;
        }
        int count = pr.spec().equation().parameterCount();
        return new Operator() {
            @Override
            public float[] born(float[] dm) {
                return op.born(ImageFilters.muteRows(dm.clone(), count, pr.shape(), muteRows));
            }

            @Override
            public float[] adjoint(float[] d) {
                return ImageFilters.muteRows(op.adjoint(d), count, pr.shape(), muteRows);
            }

            @Override
            public float[] model() {
                return op.model();
            }
        };
    }

    private static Operator singleDomain(ProblemOptions.Problem pr, Propagator p) {
        return new Operator() {
            @Override
            public float[] born(float[] dm) {
                return p.born(pr.wavelet(), pr.sources(), pr.receivers(), pr.model(), dm).data();
            }

            @Override
            public float[] adjoint(float[] d) {
                return p.forwardAndGradient(pr.wavelet(), pr.sources(), pr.receivers(), pr.model(), d,
                        Misfit.CORRELATION).parameters();
            }

            @Override
            public float[] model() {
                return pr.model();
            }
        };
    }

    /**
     * The decomposed operator on whole vectors: every rank holds the whole image and record, so that the CGLS
     * arithmetic is the single domain's on every rank; each run goes through the tiles (a perturbation padded to the
     * mesh, the image folded back by the pad's adjoint).
     */
    private Operator decomposed(ProblemOptions.Problem pr, DistributedRun dr, ModelParallel mp) throws Exception {
        float[] tileModel = dr.readModelTile(pr, problem.names(pr.spec().equation()));
        int count = pr.spec().equation().parameterCount();
        // the whole background model, for the job's identity and the image size (every rank reads it)
        float[] first = ModelFiles.read(pr.files().get(0), pr.option(0), pr.shape()).asFloat32();
        int cells = first.length;
        float[] whole = Arrays.copyOf(first, count * cells);
        for (int k = 1; k < count; k++) {
            float[] v = ModelFiles.read(pr.files().get(k), pr.option(k), pr.shape()).asFloat32();
            System.arraycopy(v, 0, whole, k * cells, cells);
        }
        int nt = pr.spec().nt();
        int[][][] src = dr.mine(pr.sources());
        int[][][] rec = dr.mine(pr.receivers());
        float[] w = pr.wavelet().length == nt ? pr.wavelet() : dr.mine(pr.wavelet(), nt);
        int[] padded = Padding.paddedShape(pr.shape(), dr.mesh.topology());
        int paddedCells = Arrays.stream(padded).reduce(1, (a, b) -> a * b);
        int perShot = nt * pr.receivers()[0].length * pr.spec().nfield();
        int g = dr.mesh.topology().shotGroup();
        return new Operator() {
            @Override
            public float[] born(float[] dm) {
                float[] pd = new float[count * paddedCells];
                for (int k = 0; k < count; k++) {
                    float[] one = dr.pad(Arrays.copyOfRange(dm, k * cells, (k + 1) * cells));
                    System.arraycopy(one, 0, pd, k * one.length, one.length);
                }
                try {
                    Record r = dr.gatherAll(mp, mp.born(w, src, rec, tileModel, pd));
                    float[] all = r != null ? r.data() : new float[pr.sources().length * perShot];
                    MPI.COMM_WORLD.bcast(all, all.length, MPI.FLOAT, 0);
                    return all;
                } catch (mpi.MPIException e) {
                    throw new IllegalStateException("Born record broadcast failed: " + e.getMessage(), e);
                }
            }

            @Override
            public float[] adjoint(float[] d) {
                float[] mine = Arrays.copyOfRange(d, g * src.length * perShot, (g + 1) * src.length * perShot);
                float[] tile = mp.forwardAndGradient(w, src, rec, tileModel, mine, Misfit.CORRELATION).parameters();
                return Padding.padToMeshAdjoint(new Shaped<>(mp.allGatherTiles(tile),
                        GradientCommand.gradientShape(padded, count)), pr.shape(), dr.mesh.topology()).data();
            }

            @Override
            public float[] model() {
                return whole;
            }
        };
    }
}
