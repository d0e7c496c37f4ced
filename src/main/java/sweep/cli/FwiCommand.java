package sweep.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import mpi.MPI;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.equation.Parameter;
import sweep.fwi.Acquisition;
import sweep.fwi.DataObjective;
import sweep.fwi.DecomposedObjective;
import sweep.fwi.Fwi;
import sweep.fwi.GradientConditioner;
import sweep.fwi.Inversion;
import sweep.fwi.ModelTile;
import sweep.fwi.SingleDomainObjective;
import sweep.io.Json;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.io.Segy;
import sweep.parallel.ModelParallel;
import sweep.parallel.TileFiles;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;

/**
 * {@code sweep fwi}: multi-band full-waveform inversion, acoustic or elastic, from a job file or flags (by default of
 * the built-in model from a smoothed start, with observed data modelled from the true model), on one domain or, under
 * mpirun, decomposed with shot groups; optionally with encoded supershots. Writes models, gradients, records, pictures
 * and summary.json to the output folder, every file atomically; resumable after a kill with --resume.
 */
@Command(name = "fwi", mixinStandardHelpOptions = true,
        description = {"Multi-band FWI (L-BFGS, per-parameter bounds) from a JSON job file and/or flags; flags override"
                + " the job file, also on --resume. Without either: the built-in 2-D model (2 km x 6 km), or with"
                + " --equation elastic the built-in elastic model (1 km x 3 km, vp and vs). Outputs in the 'out'"
                + " folder; resumable with --resume.", "Job-file keys: see 'sweep fwi --keys'."})
public final class FwiCommand implements Callable<Integer> {
    @Option(names = "--job", description = "JSON job file (keys: sweep fwi --keys); relative input paths in it are"
            + " relative to its folder")
    Path jobFile;

    @Option(names = "--keys", description = "list the job-file keys and exit")
    boolean keys;

    @Option(names = "--out", description = "output folder (default fwi-out)")
    Path out;

    @Option(names = "--iterations", description = "L-BFGS iterations of every band (default 10); overrides the job"
            + " file's 'iterations' and the bands' own. With --resume: each band continues from its checkpoint up to"
            + " this many iterations; the bands after one that runs further restart from its new model; a checkpoint"
            + " holding more iterations than this is an error")
    Integer iterations;

    @Option(names = "--bands", split = ",", description = "low-pass corners in Hz, low to high; 0 = unfiltered"
            + " (default: one unfiltered band)")
    double[] bands;

    @Option(names = "--supershots", description = "encoded supershots, 0 = off (default 0); must divide the shots")
    Integer supershots;

    @Option(names = "--seed", description = "seed of the supershot codes (default 1)")
    Long seed;

    @Option(names = "--dh", split = ",", description = "grid spacing in m (default 20 for the built-in model)")
    double[] dh;

    @Option(names = "--freq", description = "Ricker peak frequency in Hz (default 5)")
    Double freq;

    @Option(names = "--shots", description = "number of surface shots without a sources file (default 6)")
    Integer shots;

    @Option(names = "--time", description = "record length in s (default 3)")
    Double recordLength;

    @Option(names = "--storage", description = "boundary, full or checkpoint, those the equation has (default: its"
            + " first)")
    String storage;

    @Option(names = "--checkpoint-memory", paramLabel = "SIZE", description = "with checkpoint storage: the most"
            + " memory per shot for checkpoints, e.g. 512M (job key checkpoint_memory; default: the least that re-runs"
            + " each step once)")
    String checkpointMemory;

    @Option(names = "--threads", description = "Java backend threads per rank, 0 = all cores (default 0)")
    Integer threads;

    @Option(names = "--misfit", description = "l2 (default), ncc or envelope (job key misfit; sweep fwi --keys)")
    String misfit;

    @Option(names = "--equation", description = "acoustic (default) or elastic: invert vp and vs (and, with --invert,"
            + " rho) of an elastic model; without model files the built-in elastic model (1 km x 3 km, water over"
            + " solid layers with lenses seen in vs only)")
    String equation;

    @Option(names = "--invert", split = ",", description = "parameters to invert, e.g. vp,vs,rho (elastic default"
            + " vp,vs); the others keep their starting values")
    List<String> invert;

    @Option(names = "--resume", description = "continue from the band checkpoints in the output folder (same job;"
            + " flags override the job file as on a first run)")
    boolean resume;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    ReportOptions report;

    /** When this process began the command ({@link System#nanoTime}), for the run's times. */
    private long processStart;

    @Override
    public Integer call() throws Exception {
        processStart = System.nanoTime();
        if (keys) {
            FwiJob.KEYS.forEach((k, v) -> System.out.printf("  %-13s %s%n", k, v));
            return 0;
        }
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    private Integer run() throws Exception {
        FwiJob job = jobFile == null ? FwiJob.empty() : FwiJob.read(jobFile);
        job.flag("out", "--out", out).flag("iterations", "--iterations", iterations).flag("supershots", "--supershots",
                supershots).flag("seed", "--seed", seed).flag("dh", "--dh", dh).flag("ricker", "--freq", freq)
                .flag("shots", "--shots", shots).flag("time", "--time", recordLength)
                .flag("storage", "--storage", storage).flag("checkpoint_memory", "--checkpoint-memory", checkpointMemory)
                .flag("threads", "--threads", threads).flag("misfit", "--misfit", misfit)
                .flag("equation", "--equation", equation)
                .flag("invert", "--invert", invert == null ? null : String.join(",", invert)).mesh(meshOptions);
        if (bands != null) {
            job.flag("bands", "--bands", bands);
        }
        FwiJob.Resolved r = job.resolve();
        Path dir = r.out();
        MeshOptions mesh = MeshOptions.of(r.mesh(), job.where("mesh"));
        PropSpec spec = r.spec();
        ProblemOptions.checkThreads(spec.threads(), job.where("threads"));
        int[] shape = r.shape();
        int nshots = r.sources().length;
        int nrec = r.receivers()[0].length;
        boolean dd = mesh.decomposed();
        DistributedRun run = dd ? new DistributedRun(mesh, shape, nshots) : null;
        try {
            if (dd && r.options().supershots() % run.mesh.topology().shotGroups() != 0) {
                throw new IllegalArgumentException(job.where("supershots") + ": " + r.options().supershots()
                        + " supershots do not split evenly into " + run.mesh.topology().shotGroups() + " shot groups");
            }
            PropSpec solverSpec = dd ? run.paddedSpec(spec) : spec;
            Grid grid = dd ? ModelParallel.tileGrid(solverSpec, run.mesh.topology()) : Grid.single(spec);
            int count = spec.equation().parameterCount();
            MemoryEstimate.fwi(solverSpec, grid, nshots, nrec, r.wavelet().length, r.options().settings().memory())
                    .add("gathered outputs", dd ? run.gatherBytes(count) : 0)
                    .requireHeap(dd ? run.rankAndTile(grid) : "this FWI");
            Inputs in = Inputs.read(r, dd ? ModelTile.of(run.mesh, shape, count) : ModelTile.whole(shape, count));
            try (OutputLock lock = OutputLock.take(dir, job.where("out"), () -> Outputs.checkFolder(job.where("out"),
                    dir, outputNames(r.options().bands().size(), parameterNames(r)), job.inputFiles()), dd)) {
                invert(r, in, run, solverSpec, grid, lock);
            }
        } finally {
            if (run != null) {
                run.close();
            }
        }
        return 0;
    }

    /**
     * This rank's tile of the true model (null when not known) and of the starting model, the gradient conditioner
     * (with its tile of the mask), and, on the root, the decimated sections of both models for pictures (cells where a
     * parameter is absent as NaN; null elsewhere).
     */
    private record Inputs(ModelTile tile, float[] trueModel, float[] start, GradientConditioner conditioner,
                          float[][] trueSections, float[][] startSections) {
        /** Reads the models' and the mask's tiles and gathers the sections. Collective. */
        static Inputs read(FwiJob.Resolved r, ModelTile tile) {
            float[] t = r.trueModel() == null ? null : r.trueModel().tile(tile);
            float[] s = r.start().tile(tile);
            GradientConditioner c = r.conditioner().apply(tile);
            return new Inputs(tile, t, s, c, t == null ? null : sections(r, t, tile), sections(r, s, tile));
        }

        private static float[][] sections(FwiJob.Resolved r, float[] m, ModelTile tile) {
            int np = parameterNames(r).size();
            float[][] out = new float[np][];
            for (int k = 0; k < np; k++) {
                float[] section = tile.gatherSection(m, k, pictureStep(r));
                out[k] = section == null ? null : absentAsNaN(r, section, k);
            }
            return tile.isRoot() ? out : null;
        }
    }

    /**
     * The run once the output folder is locked: the observed data (modelled when not given), the checks of a resumed
     * run's checkpoints (before anything in the folder is written), then the inversion and its outputs.
     */
    private void invert(FwiJob.Resolved r, Inputs in, DistributedRun run, PropSpec solverSpec, Grid grid,
                        OutputLock lock) throws Exception {
        Path dir = r.out();
        PropSpec spec = r.spec();
        int[] shape = r.shape();
        int nt = spec.nt();
        int nshots = r.sources().length;
        int nrec = r.receivers()[0].length;
        boolean dd = run != null;
        boolean root = run == null || run.worldRank == 0;
        if (root) {
            System.err.printf("sweep fwi: %s %s at %s m, %d shots, %d receivers, %d steps of %.3g ms,"
                            + " %d band(s)%s%n", r.description(), Arrays.toString(shape), fmt(r.dh()), nshots, nrec,
                    nt, spec.dt() * 1e3, r.options().bands().size(),
                    r.options().supershots() > 0 ? ", " + r.options().supershots() + " encoded supershots" : "");
            if (!r.defaults().isEmpty()) {
                System.err.println("sweep fwi: defaults for a model file: " + String.join("; ", r.defaults())
                        + "; set the keys to change them");
            }
        }
        ModelTile tile = in.tile();
        FwiRunLog log = new FwiRunLog(dir, resume, root, processStart);
        long t0 = System.nanoTime();
        float[] observed = r.observed();
        long source = observed != null ? 0 : observedSource(r, tile.fingerprint(in.trueModel()));
        if (observed != null) {
            if (root) {
                System.err.printf("sweep fwi: observed data: given (%d shots)%n", nshots);
            }
        } else {
            observed = resume ? reusedObserved(dir, log, source, nshots * nt * nrec * spec.nfield(), run) : null;
            if (observed != null) {
                if (root) {
                    System.err.println("sweep fwi: observed data: --resume reuses " + dir.resolve("observed.npy")
                            + ", modelled by the first run of this job");
                }
            } else {
                if (root) {
                    System.err.printf("sweep fwi: observed data: modelling %d shots in the true model ...%n", nshots);
                }
                observed = observed(spec, r.wavelet(), r.sources(), r.receivers(), tile.padded(in.trueModel()), run);
                if (root) {
                    System.err.printf("sweep fwi: observed data: modelled in %.1f s%n",
                            (System.nanoTime() - t0) * 1e-9);
                }
            }
        }
        double observedSeconds = (System.nanoTime() - t0) * 1e-9;
        Acquisition acq = new Acquisition(spec, r.wavelet(), r.sources(), r.receivers(), observed);
        long startId = tile.fingerprint(in.start());
        long jobId = jobId(r, observed, startId, in.conditioner());
        if (resume) {
            int values = Math.toIntExact(tile.globalCells() * tile.parameters());
            lock.check(() -> {
                int[] done = Inversion.checkCheckpoints(dir, startId, values, r.options(), jobId);
                String where = resumePoint(r, done);
                log.resumedAt(where);
                if (root) {
                    System.err.println("sweep fwi: --resume: " + (where == null ? "no checkpoint in " + dir
                            + " of this job; starting afresh" : where));
                }
            });
        }
        if (r.observed() == null) {
            log.observed(source, Arrays.hashCode(observed), observedSeconds);
        }
        double[][] scales = root ? scales(in) : null;
        writeInputs(dir, r, observed, in, scales, run, root);
        long t1 = System.nanoTime();
        List<Fwi.State> states;
        long held;
        Listener listener = null;
        try (DataObjective obj = dd ? new DecomposedObjective(acq, run.mesh, in.conditioner())
                : new SingleDomainObjective(acq, in.conditioner())) {
            obj.setMisfit(r.windowedMisfit());
            listener = new Listener(dir, r, root, scales, tile, in.trueModel(), run, log);
            states = Inversion.run(obj, acq, in.start(), r.options(), dir, resume, root, jobId, listener);
            held = obj instanceof DecomposedObjective d ? d.bytesHeld()
                    : ((SingleDomainObjective) obj).bytesHeld();
        } finally {
            if (listener != null) {
                listener.close();
            }
        }
        double fwiSeconds = (System.nanoTime() - t1) * 1e-9;
        Fwi.State last = states.get(states.size() - 1);
        writeModelArray(dir.resolve("model_final.npy"), last.model(), r, tile, run, root);
        writeModelArray(dir.resolve("gradient_final.npy"), last.gradient(), r, tile, run, root);
        long td = System.nanoTime();
        float[] wavelet = listener.lastWavelet();
        float[][] synthetic = {firstShot(spec, wavelet, r, tile.padded(in.start()), run),
            firstShot(spec, wavelet, r, tile.padded(last.model()), run)};
        if (root) {
            System.err.printf("sweep fwi: data picture: shot 1 modelled in the starting and the final model (%.1f s)%n",
                    (System.nanoTime() - td) * 1e-9);
        }
        int np = parameterNames(r).size();
        float[][] modelSections = new float[np][];
        float[][] gradientSections = new float[np][];
        for (int k = 0; k < np; k++) {
            modelSections[k] = tile.gatherSection(last.model(), k, pictureStep(r));
            gradientSections[k] = tile.gatherSection(last.gradient(), k, pictureStep(r));
        }
        Object startError = in.trueModel() == null ? null : modelError(r, in.start(), in.trueModel(), tile);
        Object byDepth = in.trueModel() == null ? null
                : depthErrors(r, in.start(), last.model(), in.trueModel(), tile);
        Finals finals = new Finals(modelSections, gradientSections, startError,
                in.trueModel() == null ? null : listener.errors.get(listener.errors.size() - 1), byDepth,
                listener.lastData.observed(), synthetic);
        List<MemoryReport.Rank> memory = MemoryReport.gather(MemoryReport.local(dd ? run.worldRank : 0, grid,
                solverSpec.storage(), nt, true, held));
        if (root && report.verbose) {
            MemoryReport.print(memory, System.err);
        }
        if (root) {
            Map<String, Object> mem = new LinkedHashMap<>();
            mem.put("note", "bytes per rank: solver = fields + CPML + adjoint + tape (estimated for the rank's"
                    + " grid), solver_bytes_held = its arrays after the run, peak_heap_bytes = the most Java heap"
                    + " in use at any moment (just before a garbage collection, or at the end)");
            mem.put("solver_bytes_single_domain", MemoryEstimate.solverBytes(Grid.single(spec), spec.storage(),
                    nt, true));
            mem.put("ranks", MemoryReport.json(memory));
            writeResults(dir, r, in, states, listener, observedSeconds, fwiSeconds, run, mem, scales, finals);
        }
    }

    /**
     * Prints one line per iteration, drives the progress bar, writes each band's model and gradient
     * ({@link #writeModelArray}) and picture (from a decimated section), and keeps each band's model error.
     */
    private static final class Listener implements Inversion.Listener, AutoCloseable {
        private final Path dir;
        private final FwiJob.Resolved r;
        private final boolean root;
        private final double[][] scales;
        private final ModelTile tile;
        /** This rank's tile of the true model; null when not known. */
        private final float[] trueModel;
        private final DistributedRun run;
        private final Progress progress;
        /** Each finished band's model RMS error ({@link #modelError}; when the true model is known). */
        final List<Object> errors = new ArrayList<>();
        /** The last finished band's data: its filtered observed data and its wavelet (estimated or not). */
        Acquisition lastData;
        /** The bands whose wavelet this process estimated (a resumed run skips those it finds finished). */
        private final Set<Integer> estimated = new HashSet<>();
        private long bandStart = System.nanoTime();
        /** When the last stage line was printed (for the next one's time). */
        private long lastStage = bandStart;
        /** The seconds of the current band's iterations in this process. */
        private final List<Double> iterationSeconds = new ArrayList<>();
        private final FwiRunLog log;

        Listener(Path dir, FwiJob.Resolved r, boolean root, double[][] scales, ModelTile tile, float[] trueModel,
                 DistributedRun run, FwiRunLog log) {
            this.log = log;
            this.dir = dir;
            this.r = r;
            this.root = root;
            this.scales = scales;
            this.tile = tile;
            this.trueModel = trueModel;
            this.run = run;
            this.progress = new Progress(root);
        }

        /** Seconds since the last stage line, and now the start of the next. */
        private double stageSeconds() {
            long now = System.nanoTime();
            double s = (now - lastStage) * 1e-9;
            lastStage = now;
            return s;
        }

        @Override
        public void bandStart(int band, double misfit) {
            iterationSeconds.clear();
            if (root) {
                progress.println(String.format("%s: misfit %.6e at its starting model (%.1f s)", bandName(r, band),
                        misfit, stageSeconds()));
            }
            if (root && misfit == 0) {
                System.err.println("sweep fwi: warning: " + bandName(r, band) + ": the misfit is exactly 0 at the"
                        + " start (the synthetic data equal the observed data: is the record long enough to see where"
                        + " the models differ?); this band cannot change the model");
            }
        }

        @Override
        public void iteration(int band, Fwi.Iteration it) {
            if (!root) {
                return;
            }
            int total = r.options().bands().get(band).iterations();
            iterationSeconds.add(it.seconds());
            double mean = iterationSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            int left = total - it.index();
            progress.start(bandName(r, band), total);
            progress.println(String.format("%s iteration %3d/%d  misfit %.6e  step %.3g  evaluations %d  %.1f s%s",
                    bandName(r, band), it.index(), total, it.misfit(), it.step(), it.evaluations(), it.seconds(),
                    left > 0 ? String.format("  (about %s left in the band)", duration(mean * left)) : ""));
            progress.step(it.index(), String.format("misfit %.3e", it.misfit()));
            lastStage = System.nanoTime();
            log.band(band, (lastStage - bandStart) * 1e-9);
        }

        /** The start wavelet and each band's estimate, drawn together into wavelets.png as they come. */
        private final List<double[]> wavelets = new ArrayList<>();
        private final List<String> waveletLabels = new ArrayList<>();

        @Override
        public void waveletEstimated(int band, float[] wavelet) {
            estimated.add(band);
            if (!root) {
                return;
            }
            progress.println(String.format("%s: wavelet estimated at the band's starting model, peak |w| %.4g"
                    + " (%.1f s)", bandName(r, band), peak(wavelet), stageSeconds()));
            Npy.writeFloat32(dir.resolve("wavelet_band" + (band + 1) + ".npy"), wavelet, wavelet.length);
            if (wavelets.isEmpty()) {
                wavelets.add(toDouble(Arrays.copyOf(r.wavelet(), wavelet.length)));
                waveletLabels.add("start (Ricker)");
            }
            // the bands before it that a resumed run found finished: their estimates as the first run wrote them
            for (int k = wavelets.size() == 1 ? 0 : band; k < band; k++) {
                Path earlier = dir.resolve("wavelet_band" + (k + 1) + ".npy");
                if (Files.isRegularFile(earlier)) {
                    wavelets.add(toDouble(Npy.readFloat32(earlier, earlier.toString(), new int[] {wavelet.length})
                            .asFloat32()));
                    waveletLabels.add("estimate, " + bandName(r, k));
                }
            }
            wavelets.add(toDouble(wavelet));
            waveletLabels.add("estimate, " + bandName(r, band));
            // up to a tenth past the last sample above 1 % of its curve's peak in any curve
            int end = 1;
            for (double[] w : wavelets) {
                double top = 0;
                for (double x : w) {
                    top = Math.max(top, Math.abs(x));
                }
                for (int t = w.length - 1; t >= 0; t--) {
                    if (Math.abs(w[t]) > 1e-2 * top) {
                        end = Math.max(end, t + 1);
                        break;
                    }
                }
            }
            int shown = Math.min(wavelet.length, end + end / 10 + 1);
            Png.curves(dir.resolve("wavelets.png"), wavelets.stream().map(w -> Arrays.copyOf(w, shown)).toList(),
                    waveletLabels, "source wavelet per band", String.format("sample (dt = %.3g ms)",
                    r.spec().dt() * 1e3), "amplitude", false);
        }

        @Override
        public void illuminated(int band, float[] illumination) {
            if (root) {
                progress.println(String.format("%s: illumination at the band's starting model (%.1f s)",
                        bandName(r, band), stageSeconds()));
            }
            writeModelArray(dir.resolve("illumination_band" + (band + 1) + ".npy"), illumination, r, tile, run, root);
        }

        private static double peak(float[] w) {
            double m = 0;
            for (float x : w) {
                m = Math.max(m, Math.abs(x));
            }
            return m;
        }

        private static double[] toDouble(float[] w) {
            double[] d = new double[w.length];
            for (int i = 0; i < w.length; i++) {
                d[i] = w[i];
            }
            return d;
        }

        @Override
        public void bandDone(int band, Acquisition data, Fwi.State st) {
            lastData = data;
            log.band(band, (System.nanoTime() - bandStart) * 1e-9);
            bandStart = System.nanoTime();
            lastStage = bandStart;
            if (root) {
                progress.finish();
            }
            float[] m = st.model();
            writeModelArray(dir.resolve("model_band" + (band + 1) + ".npy"), m, r, tile, run, root);
            writeModelArray(dir.resolve("gradient_band" + (band + 1) + ".npy"), st.gradient(), r, tile, run, root);
            for (int k = 0; k < parameterNames(r).size(); k++) {
                float[] section = tile.gatherSection(m, k, pictureStep(r));
                if (root) {
                    sectionPicture(dir.resolve("model_band" + (band + 1) + suffix(r, k) + ".png"), r, section, k,
                            scales[k], "model after " + bandName(r, band));
                }
            }
            errors.add(trueModel == null ? null : modelError(r, m, trueModel, tile));
        }

        /**
         * The last band's wavelet: its estimate when the job estimates wavelets (read back from the band's file when a
         * resumed run found the band finished and did not estimate it again), else the band's filtered wavelet.
         */
        float[] lastWavelet() {
            int k = r.options().bands().size() - 1;
            Path file = dir.resolve("wavelet_band" + (k + 1) + ".npy");
            if (r.options().estimateWavelet() && !estimated.contains(k) && Files.isRegularFile(file)) {
                return Npy.readFloat32(file, file.toString(), new int[] {r.spec().nt()}).asFloat32();
            }
            return lastData.wavelet();
        }

        @Override
        public void close() {
            progress.finish();
        }
    }

    /** {@code seconds} for a person: "40 s", "12 min", "2.5 h". */
    static String duration(double seconds) {
        if (seconds < 90) {
            return String.format("%.0f s", seconds);
        }
        if (seconds < 5400) {
            return String.format("%.0f min", seconds / 60);
        }
        return String.format("%.1f h", seconds / 3600);
    }

    private static String bandName(FwiJob.Resolved r, int band) {
        double c = r.options().bands().get(band).cutoff();
        String range = c == 0 ? " (all)" : " (<" + new DecimalFormat("0.###").format(c) + " Hz)";
        return "band " + (band + 1) + "/" + r.options().bands().size() + range;
    }

    /** The model's parameter names: acoustic [vp], elastic [vp, vs, rho] (the blocks of a model or gradient). */
    static List<String> parameterNames(FwiJob.Resolved r) {
        return r.spec().equation().parameterNames();
    }

    /** Whether the model has several parameters: files and pictures then name each. */
    private static boolean severalParameters(FwiJob.Resolved r) {
        return r.spec().equation().parameterCount() > 1;
    }

    /** Whether the equation records several kinds of field: data files and pictures then name each. */
    private static boolean severalFields(FwiJob.Resolved r) {
        return r.spec().equation().recordable(r.shape().length).size() > 1;
    }

    /** The file-name suffix of parameter k: none for one parameter, else "_" and its name ("_vp", "_vs", ...). */
    private static String suffix(FwiJob.Resolved r, int k) {
        return severalParameters(r) ? "_" + parameterNames(r).get(k) : "";
    }

    /** The unit of parameter k in pictures: none for a dimensionless one (its unit "1"). */
    private static String unit(FwiJob.Resolved r, int k) {
        Parameter p = r.spec().equation().parameters().get(k);
        return p.dimensionless() ? "" : p.unit();
    }

    /** The .npy shape of a model or gradient: the model's shape, with a leading parameter axis for several. */
    private static int[] arrayShape(FwiJob.Resolved r) {
        int[] s = r.shape();
        if (!severalParameters(r)) {
            return s;
        }
        int[] a = new int[s.length + 1];
        a[0] = parameterNames(r).size();
        System.arraycopy(s, 0, a, 1, s.length);
        return a;
    }

    /**
     * The cells where parameter k is absent (0 of a {@link sweep.equation.Parameter#zeroIsAbsent()} parameter, e.g.
     * vs in a fluid) as NaN (grey), in place.
     */
    private static float[] absentAsNaN(FwiJob.Resolved r, float[] v, int k) {
        if (r.spec().equation().parameters().get(k).zeroIsAbsent()) {
            for (int i = 0; i < v.length; i++) {
                v[i] = v[i] == 0f ? Float.NaN : v[i];
            }
        }
        return v;
    }

    /**
     * One colour scale per parameter for every picture of it (true, starting, per-band and final model): the finite
     * range over the pictures of the true model (when known) and the starting model; an inverted value outside it
     * takes the end colour. On the root (which holds the sections).
     */
    private static double[][] scales(Inputs in) {
        int n = in.startSections().length;
        double[][] out = new double[n][];
        for (int k = 0; k < n; k++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (float[][] m : in.trueSections() == null ? List.<float[][]>of(in.startSections())
                    : List.of(in.trueSections(), in.startSections())) {
                for (float v : m[k]) {
                    if (Float.isFinite(v)) {
                        lo = Math.min(lo, v);
                        hi = Math.max(hi, v);
                    }
                }
            }
            out[k] = lo <= hi ? new double[] {lo, hi} : new double[] {0, 1};
        }
        return out;
    }

    /** A picture of parameter k from its section as {@link ModelTile#gatherSection} gives it ({@link #pictureStep}). */
    private static void sectionPicture(Path file, FwiJob.Resolved r, float[] section, int k, double[] scale,
                                       String title) {
        drawSection(file, r, absentAsNaN(r, section, k), k, scale, title);
    }

    private static void drawSection(Path file, FwiJob.Resolved r, float[] v, int k, double[] scale, String title) {
        int step = pictureStep(r);
        int[] s = r.shape();
        String name = parameterNames(r).get(k);
        Png.model(file, v, (s[0] + step - 1) / step, (s[s.length - 1] + step - 1) / step, r.dh()[0] * step,
                r.dh()[r.dh().length - 1] * step, severalParameters(r) ? name + ": " + title : title, unit(r, k),
                scale[0], scale[1]);
    }

    /** Largest picture in cells: a model's vertical section is drawn from every k-th cell beyond it. */
    private static final int PICTURE_CELLS = 1 << 19;

    /**
     * The step between the cells a picture shows (1: every cell): the smallest that keeps a section within
     * {@link #PICTURE_CELLS}, so that pictures of a large model need no global array.
     */
    static int pictureStep(FwiJob.Resolved r) {
        int[] s = r.shape();
        long nz = s[0];
        long nx = s[s.length - 1];
        int step = 1;
        while (((nz + step - 1) / step) * ((nx + step - 1) / step) > PICTURE_CELLS) {
            step++;
        }
        return step;
    }

    /**
     * Writes the true (when known) and starting models ({@link #writeModelArray}) and, on the root, their pictures and
     * the observed data (.npy, SEG-Y, a picture of the first shot). Collective.
     */
    private static void writeInputs(Path dir, FwiJob.Resolved r, float[] observed, Inputs in, double[][] scales,
                                    DistributedRun run, boolean root) {
        if (in.trueModel() != null) {
            writeModelArray(dir.resolve("model_true.npy"), in.trueModel(), r, in.tile(), run, root);
        }
        writeModelArray(dir.resolve("model_start.npy"), in.start(), r, in.tile(), run, root);
        if (!root) {
            return;
        }
        int[] s = r.shape();
        PropSpec spec = r.spec();
        int nshots = r.sources().length;
        int nrec = r.receivers()[0].length;
        int nf = spec.nfield();
        int np = parameterNames(r).size();
        for (int k = 0; k < np; k++) {
            if (in.trueModel() != null) {
                drawSection(dir.resolve("model_true" + suffix(r, k) + ".png"), r, in.trueSections()[k], k, scales[k],
                        "true model");
            }
            drawSection(dir.resolve("model_start" + suffix(r, k) + ".png"), r, in.startSections()[k], k, scales[k],
                    "starting model");
        }
        Npy.writeFloat32(dir.resolve("observed.npy"), observed, nshots, spec.nt(), nrec, nf);
        // SEG-Y: one trace per receiver and field, fields fastest (the order of the .npy's last two axes)
        double[] sxyz = new double[3 * nshots];
        for (int b = 0; b < nshots; b++) {
            metres(r.sources()[b][0], r.dh(), s.length, sxyz, b);
        }
        double[] rxyz = new double[3 * nshots * nrec * nf];
        for (int b = 0; b < nshots; b++) {
            for (int k = 0; k < nrec; k++) {
                for (int f = 0; f < nf; f++) {
                    metres(r.receivers()[b][k], r.dh(), s.length, rxyz, (b * nrec + k) * nf + f);
                }
            }
        }
        String fields = severalFields(r) ? " (traces: receivers x fields " + fieldNames(spec) + ")" : "";
        Segy.write(dir.resolve("observed.sgy"), observed, nshots, spec.nt(), nrec * nf, spec.dt(), sxyz, rxyz,
                List.of(ascii("sweep-java fwi: observed data of " + r.description() + fields,
                        Segy.MAX_DESCRIPTION_CHARS)));
        if (!severalFields(r)) {
            Png.gather(dir.resolve("observed_shot1.png"), observed, 0, spec.nt(), nrec, spec.dt(), "observed, shot 1",
                    99);
            return;
        }
        for (int f = 0; f < nf; f++) {
            float[] one = new float[spec.nt() * nrec];
            for (int t = 0; t < spec.nt(); t++) {
                for (int k = 0; k < nrec; k++) {
                    one[t * nrec + k] = observed[(t * nrec + k) * nf + f];
                }
            }
            String field = fieldNames(spec).get(f);
            Png.gather(dir.resolve("observed_shot1_" + field + ".png"), one, 0, spec.nt(), nrec, spec.dt(),
                    "observed " + field + ", shot 1", 99);
        }
    }

    /**
     * {@code model_error.png}, final − true model of parameter k on the seismic map, and {@code profiles.png}, the
     * true, starting and final model against depth at a quarter, half and three quarters of the section's width
     * (suffixed per parameter when there are several); the sections {@code (pz, pnx)} at spacings {@code dz}, {@code
     * dx}.
     */
    private static void errorAndProfiles(Path dir, FwiJob.Resolved r, int k, float[] truth, float[] start,
                                         float[] fin, int pz, int pnx, double dz, double dx, String prefix) {
        String unit = unit(r, k).isEmpty() ? "" : ", " + unit(r, k);
        float[] diff = new float[fin.length];
        for (int i = 0; i < diff.length; i++) {
            diff[i] = fin[i] - truth[i];
        }
        Png.diverging(dir.resolve("model_error" + suffix(r, k) + ".png"), diff, pz, pnx, dz, dx,
                prefix + "final - true model" + unit, 99);
        List<double[]> curves = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (int q = 1; q <= 3; q++) {
            int x = Math.min(pnx - 1, q * pnx / 4);
            for (int m = 0; m < 3; m++) {
                float[] f = m == 0 ? truth : m == 1 ? start : fin;
                double[] c = new double[pz];
                for (int z = 0; z < pz; z++) {
                    c[z] = Float.isFinite(f[z * pnx + x]) ? f[z * pnx + x] : 0;
                }
                curves.add(c);
                labels.add(new String[] {"true", "start", "final"}[m] + " at x = " + Math.round(x * dx) + " m");
            }
        }
        Png.curves(dir.resolve("profiles" + suffix(r, k) + ".png"), curves, labels, prefix
                + "depth profiles (true, start, final)", "depth sample (" + Math.round(dz * 100) / 100.0 + " m each)",
                r.spec().equation().parameters().get(k).name() + unit, false);
    }

    /**
     * Writes shot 1's synthetic data in the starting and the final model ({@code synthetic_shot1.npy}, {@code (2, nt,
     * nrec, nfield)}) and draws them against the last band's observed data with their residuals ({@code
     * data_shot1.png}, per field when there are several); returns the residuals' relative norms for the summary.
     */
    private static Map<String, Object> dataResidual(Path dir, FwiJob.Resolved r, Finals finals) {
        PropSpec spec = r.spec();
        int nt = spec.nt();
        int nrec = r.receivers()[0].length;
        int nf = spec.nfield();
        int n = nt * nrec * nf;
        float[] obs = Arrays.copyOf(finals.observed(), n);
        float[] both = new float[2 * n];
        System.arraycopy(finals.synthetic()[0], 0, both, 0, n);
        System.arraycopy(finals.synthetic()[1], 0, both, n, n);
        Npy.writeFloat32(dir.resolve("synthetic_shot1.npy"), both, 2, nt, nrec, nf);
        double oo = 0;
        double[] rr = new double[2];
        for (int i = 0; i < n; i++) {
            oo += (double) obs[i] * obs[i];
            for (int m = 0; m < 2; m++) {
                double d = (double) finals.synthetic()[m][i] - obs[i];
                rr[m] += d * d;
            }
        }
        String band = bandName(r, r.options().bands().size() - 1);
        for (int f = 0; f < nf; f++) {
            List<float[]> gathers = new ArrayList<>();
            for (int m = 0; m < 2; m++) {
                float[] o = field(obs, nt, nrec, nf, f);
                float[] syn = field(finals.synthetic()[m], nt, nrec, nf, f);
                float[] res = new float[syn.length];
                for (int i = 0; i < res.length; i++) {
                    res[i] = syn[i] - o[i];
                }
                gathers.addAll(List.of(o, syn, res));
            }
            String name = nf > 1 ? fieldNames(spec).get(f) + " " : "";
            String sfx = nf > 1 ? "_" + fieldNames(spec).get(f) : "";
            String observed = "observed " + name + "(" + band + ")";
            Png.gatherPanels(dir.resolve("data_shot1" + sfx + ".png"), gathers, List.of(observed,
                    "synthetic, starting model", "synthetic - observed, starting model", observed,
                    "synthetic, final model", "synthetic - observed, final model"), 3, nt, nrec, spec.dt(), 99);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("start", oo > 0 ? Math.sqrt(rr[0] / oo) : null);
        out.put("final", oo > 0 ? Math.sqrt(rr[1] / oo) : null);
        out.put("note", "||synthetic - observed|| / ||observed|| over shot 1's traces, every field, with the last"
                + " band's filtered data and wavelet, unwindowed (synthetic_shot1.npy, data_shot1.png)");
        return out;
    }

    /** Field f of a record {@code (nt, nrec, nfield)} as {@code (nt, nrec)}. */
    private static float[] field(float[] rec, int nt, int nrec, int nf, int f) {
        float[] one = new float[nt * nrec];
        for (int i = 0; i < one.length; i++) {
            one[i] = rec[i * nf + f];
        }
        return one;
    }

    /** The recorded fields' names in record order (acoustic: p). */
    private static List<String> fieldNames(PropSpec spec) {
        return spec.recordFields();
    }

    /**
     * The RMS model error of {@code m} against the true model {@code t} (both this rank's tile): acoustic one number,
     * several parameters one per parameter, by name; the same on every rank. Collective.
     */
    private static Object modelError(FwiJob.Resolved r, float[] m, float[] t, ModelTile tile) {
        return rowsError(r, m, t, tile, 0, r.shape()[0]);
    }

    /**
     * The RMS errors of the starting model {@code start} and the final {@code fin} against {@code t} (this rank's
     * tiles) over the rows below the muted top rows (the water layer) and over four depth ranges of those rows, each
     * as {@link #modelError} gives it. Every tile holds whole columns, so a row range is a range of z in each.
     * Collective.
     */
    private static Object depthErrors(FwiJob.Resolved r, float[] start, float[] fin, float[] t, ModelTile tile) {
        int nz = r.shape()[0];
        int top = Math.min(Math.max(r.muteRows(), 0), nz - 1);
        List<int[]> ranges = new ArrayList<>();
        ranges.add(new int[] {top, nz});
        int parts = Math.min(4, nz - top);
        for (int p = 0; p < parts; p++) {
            ranges.add(new int[] {top + (nz - top) * p / parts, top + (nz - top) * (p + 1) / parts});
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            int[] z = ranges.get(i);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("range", i == 0 ? "below the muted rows" : "depth range " + i + "/" + parts);
            e.put("z_from_m", z[0] * r.dh()[0]);
            e.put("z_to_m", z[1] * r.dh()[0]);
            e.put("start", rowsError(r, start, t, tile, z[0], z[1]));
            e.put("final", rowsError(r, fin, t, tile, z[0], z[1]));
            out.add(e);
        }
        return out;
    }

    /** {@link #modelError} over the rows {@code [z0, z1)} only. Collective. */
    private static Object rowsError(FwiJob.Resolved r, float[] m, float[] t, ModelTile tile, int z0, int z1) {
        List<String> names = parameterNames(r);
        int nz = r.shape()[0];
        int perRow = tile.cells() / nz;
        double[] diff = new double[m.length];
        for (int i = 0; i < m.length; i++) {
            int z = (i % tile.cells()) / perRow;
            diff[i] = z >= z0 && z < z1 ? (double) m[i] - t[i] : 0;
        }
        long cells = tile.globalCells() / nz * (z1 - z0);
        Map<String, Double> e = new LinkedHashMap<>();
        for (int k = 0; k < names.size(); k++) {
            double[] only = new double[names.size()];
            only[k] = 1;
            e.put(names.get(k), Math.sqrt(tile.dot(diff, diff, only) / cells));
        }
        return names.size() == 1 ? e.get(names.get(0)) : e;
    }

    /** Parameter k's figure of a {@link #modelError}. */
    private static double errorOf(FwiJob.Resolved r, Object error, int k) {
        return error instanceof Double d ? d : ((Map<?, ?>) error).get(parameterNames(r).get(k)) instanceof Double d
                ? d : Double.NaN;
    }

    /**
     * Writes a model-shaped array of this rank's tile (whole parameters: a model, gradient or illumination) to
     * {@code file}: tile by tile ({@link TileFiles}) under MPI when it is large ({@link TileFiles#writesTileWise}),
     * else gathered and written by the root. Collective.
     */
    private static void writeModelArray(Path file, float[] local, FwiJob.Resolved r, ModelTile tile,
                                        DistributedRun run, boolean root) {
        int count = local.length / tile.cells();
        int[] shape = count == 1 ? r.shape() : arrayShape(r);
        if (run != null && TileFiles.writesTileWise(shape)) {
            TileFiles.writeTiles(file, tile.padded(local), count, r.shape(), run.mesh, false);
            return;
        }
        float[] all = tile.gather(local);
        if (root) {
            Npy.writeFloat32(file, all, shape);
        }
    }

    /** What the end of a run writes besides the per-band files: the final model's and gradient's sections. */
    /**
     * What the end of a run draws and reports: the final model's and gradient's sections, the model errors, the last
     * band's observed data (every shot) and shot 1's synthetic data in the starting and the final model.
     */
    private record Finals(float[][] model, float[][] gradient, Object startError, Object finalError,
                          Object byDepth, float[] observed, float[][] synthetic) {
    }

    private static void writeResults(Path dir, FwiJob.Resolved r, Inputs in, List<Fwi.State> states, Listener l,
                                     double observedSeconds, double fwiSeconds, DistributedRun run,
                                     Map<String, Object> memory, double[][] scales, Finals finals) {
        int[] s = r.shape();
        int nz = s[0];
        int nx = s[s.length - 1];
        double dz = r.dh()[0];
        double dx = r.dh()[r.dh().length - 1];
        List<String> names = parameterNames(r);
        List<Double> misfit = new ArrayList<>();
        List<double[]> perBand = new ArrayList<>();
        List<String> bandLabels = new ArrayList<>();
        List<Map<String, Object>> bandList = new ArrayList<>();
        int iterations = 0;
        for (int k = 0; k < states.size(); k++) {
            Fwi.State st = states.get(k);
            List<Double> m = new ArrayList<>();
            m.add(st.initialMisfit());
            st.history().forEach(it -> m.add(it.misfit()));
            misfit.addAll(k == 0 ? m : m.subList(1, m.size()));
            // a band that starts at misfit 0 stays there (no step can lower it): drawn at 1, "no change"
            perBand.add(m.stream().mapToDouble(v -> st.initialMisfit() == 0 ? 1 : v / st.initialMisfit()).toArray());
            bandLabels.add(bandName(r, k) + (st.initialMisfit() == 0 ? ": misfit exactly 0 throughout" : ""));
            iterations += st.history().size();
            Map<String, Object> b = new LinkedHashMap<>();
            Inversion.Band band = r.options().bands().get(k);
            b.put("cutoff_hz", band.cutoff());
            b.put("iterations", st.history());
            b.put("misfit", m);
            b.put("misfit_reduction", reduction(st));
            if (in.trueModel() != null) {
                b.put("model_rms_error", l.errors.get(k));
            }
            b.put("seconds", l.log.bandSeconds(k));
            bandList.add(b);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("equation", r.spec().equation().name().toLowerCase(java.util.Locale.ROOT));
        summary.put("parameters", names);
        summary.put("inverted", r.options().settings().parameters().stream().filter(Fwi.Parameter::inverted)
                .map(Fwi.Parameter::name).toList());
        summary.put("misfit_function", r.misfit().name());
        summary.put("misfit", misfit);
        summary.put("misfit_note", "per iteration across all bands (each band starts from its own filtered data;"
                + " with supershots each iteration has its own codes)");
        summary.put("bands", bandList);
        summary.put("supershots", r.options().supershots());
        if (in.trueModel() != null) {
            summary.put("model_rms_error_start", finals.startError());
            summary.put("model_rms_error_final", finals.finalError());
            summary.put("model_rms_error_note", "RMS over every cell of the model against the true model"
                    + (names.size() > 1 ? ", per parameter (vp, vs in m/s, rho in kg/m^3)" : ", m/s")
                    + "; model_rms_error_by_depth: the same over the rows below the muted top rows (the water layer)"
                    + " and over four depth ranges of them, z from and to in m");
            summary.put("model_rms_error_by_depth", finals.byDepth());
        }
        summary.put("data_residual_shot1", dataResidual(dir, r, finals));
        summary.put("seconds_observed", observedSeconds);
        summary.put("seconds_fwi", fwiSeconds);
        summary.put("seconds_total", l.log.totalSeconds());
        summary.put("processes", l.log.processes());
        summary.put("seconds_note", "seconds_observed and seconds_fwi: this process; seconds_total and each band's"
                + " seconds: every process of the run (" + FwiRunLog.FILE + "), a --resume adding one");
        l.log.save();
        Map<String, Object> mesh = new LinkedHashMap<>();
        mesh.put("ranks", run == null ? 1 : run.mesh.topology().worldSize());
        mesh.put("shot_groups", run == null ? 1 : run.mesh.topology().shotGroups());
        mesh.put("py", run == null ? 1 : run.mesh.topology().py());
        mesh.put("px", run == null ? 1 : run.mesh.topology().px());
        summary.put("mesh", mesh);
        summary.put("memory", memory);
        Map<String, Object> grid = new LinkedHashMap<>();
        grid.put("shape", s);
        grid.put("dh", r.dh());
        grid.put("dt", r.spec().dt());
        grid.put("nt", r.spec().nt());
        summary.put("grid", grid);
        Json.write(dir.resolve("summary.json"), summary);
        int step = pictureStep(r);
        int pz = (nz + step - 1) / step;
        int pnx = (nx + step - 1) / step;
        for (int k = 0; k < names.size(); k++) {
            String name = names.get(k);
            String title = "FWI model after " + iterations + " iterations";
            sectionPicture(dir.resolve("model_final" + suffix(r, k) + ".png"), r, finals.model()[k], k, scales[k],
                    title);
            List<float[]> panels = new ArrayList<>();
            List<String> titles = new ArrayList<>();
            String prefix = severalParameters(r) ? name + ": " : "";
            if (in.trueModel() != null) {
                panels.add(in.trueSections()[k]);
                titles.add(prefix + "true model");
            }
            panels.add(in.startSections()[k]);
            titles.add(prefix + "starting model");
            panels.add(absentAsNaN(r, finals.model()[k], k));
            titles.add(prefix + title);
            Png.modelPanels(dir.resolve("models" + suffix(r, k) + ".png"), panels, titles, pz, pnx, dz * step,
                    dx * step, unit(r, k));
            if (in.trueModel() != null) {
                errorAndProfiles(dir, r, k, in.trueSections()[k], in.startSections()[k], panels.get(2), pz, pnx,
                        dz * step, dx * step, prefix);
            }
            Png.diverging(dir.resolve("gradient_final" + suffix(r, k) + ".png"), finals.gradient()[k], pz, pnx,
                    dz * step, dx * step, prefix + "final gradient, dJ/d" + names.get(k)
                    + (unit(r, k).isEmpty() ? "" : " per " + unit(r, k))
                    + " (as the optimiser sees it: preconditioned, smoothed, muted)", 99);
        }
        Png.curves(dir.resolve("misfit.png"), perBand, bandLabels, "misfit per band, relative to the band's start",
                "misfit / misfit at the band's start", true);
        StringBuilder err = new StringBuilder();
        if (in.trueModel() != null) {
            err.append("; model RMS error");
            for (int k = 0; k < names.size(); k++) {
                if (names.size() > 1 && !r.options().settings().parameters().get(k).inverted()) {
                    continue;
                }
                Parameter q = r.spec().equation().parameters().get(k);
                err.append(String.format("%s %s%s -> %s", k == 0 ? "" : ",", names.size() > 1 ? names.get(k) + " " : "",
                        q.format(errorOf(r, finals.startError(), k), 4), q.format(errorOf(r, finals.finalError(), k),
                        4)));
                if (r.muteRows() > 0 && finals.byDepth() instanceof List<?> depth
                        && depth.get(0) instanceof Map<?, ?> below) {
                    err.append(String.format(" (below the %d muted rows %s -> %s)", r.muteRows(),
                            q.format(errorOf(r, below.get("start"), k), 4),
                            q.format(errorOf(r, below.get("final"), k), 4)));
                }
            }
        }
        // each band has its own (filtered) data: its misfit compares with its own start only
        StringBuilder mis = new StringBuilder("misfit");
        for (int k = 0; k < states.size(); k++) {
            Fwi.State st = states.get(k);
            mis.append(String.format("%s %.6e -> %.6e (%.1f %% lower%s)", k == 0 ? "" : ",", st.initialMisfit(),
                    st.misfit(), 100 * reduction(st), states.size() > 1 ? ", band " + (k + 1) : ""));
        }
        System.out.printf("%s%s; FWI %.1f s; outputs in %s%n", mis, err, fwiSeconds, dir);
    }

    /** The band's relative misfit reduction, 0 for a band that starts (and so stays) at misfit 0. */
    private static double reduction(Fwi.State st) {
        return st.initialMisfit() == 0 ? 0 : 1 - st.misfit() / st.initialMisfit();
    }

    /** Cell (x[, y], z) to metres (x, y, z) into {@code xyz[3i..]}. */
    private static void metres(int[] cell, double[] dh, int ndim, double[] xyz, int i) {
        double dz = dh[0];
        double dx = dh[dh.length - 1];
        double dy = dh.length == 3 ? dh[1] : dh[0];
        xyz[3 * i] = cell[0] * dx;
        xyz[3 * i + 1] = ndim == 3 ? cell[1] * dy : 0;
        xyz[3 * i + 2] = cell[ndim - 1] * dz;
    }

    /** The model itself in 2-D; the section through the middle of y in 3-D (for pictures). */
    static float[] section(float[] v, int[] shape) {
        if (shape.length == 2) {
            return v;
        }
        int nz = shape[0];
        int ny = shape[1];
        int nx = shape[2];
        float[] s = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            System.arraycopy(v, (z * ny + ny / 2) * nx, s, z * nx, nx);
        }
        return s;
    }

    /**
     * Identifies the job for its checkpoints: the spec, the settings, the starting model and the data, but not the
     * iteration counts (an iteration does not depend on how many follow it, so a resumed run may ask for more).
     */
    /**
     * What modelled observed data are made from: the grid and settings, the wavelet, the geometry and the true model
     * (its {@link ModelTile#fingerprint}); a resumed run reuses the observed.npy it wrote only when this is the same.
     */
    private static long observedSource(FwiJob.Resolved r, long trueModel) {
        long h = r.spec().fingerprint();
        h = h * 31 + Arrays.hashCode(r.wavelet());
        h = h * 31 + Arrays.deepHashCode(r.sources());
        h = h * 31 + Arrays.deepHashCode(r.receivers());
        return h * 31 + trueModel;
    }

    /**
     * The observed data a first run of this job modelled and wrote to {@code dir}/observed.npy, when the run log says
     * they were made from {@code source} and the file still holds them ({@code values} float32 values, their hash as
     * logged); null otherwise (they are modelled again). World rank 0 reads and decides, every rank gets the data.
     * Collective.
     */
    private static float[] reusedObserved(Path dir, FwiRunLog log, long source, int values, DistributedRun run)
            throws Exception {
        boolean root = run == null || run.worldRank == 0;
        float[] data = null;
        if (root) {
            Path f = dir.resolve("observed.npy");
            try {
                if (Files.isRegularFile(f)) {
                    float[] d = Npy.readFloat32(f, "observed.npy").asFloat32();
                    if (d.length == values && log.observedFrom(source, Arrays.hashCode(d))) {
                        data = d;
                    }
                }
            } catch (RuntimeException e) {
                data = null; // unreadable: modelled again
            }
        }
        if (run == null) {
            return data;
        }
        int[] ok = {data != null ? 1 : 0};
        MPI.COMM_WORLD.bcast(ok, 1, MPI.INT, 0);
        if (ok[0] == 0) {
            return null;
        }
        float[] all = root ? data : new float[values];
        MPI.COMM_WORLD.bcast(all, values, MPI.FLOAT, 0);
        return all;
    }

    /**
     * What a resumed run continues from, given {@link Inversion#checkCheckpoints}'s figures per band, as one line
     * ("band 1/2 (<4 Hz) finished (8 iterations); band 2/2 (all) continues after iteration 3 of 10"); null when no
     * band has a checkpoint it continues from.
     */
    private static String resumePoint(FwiJob.Resolved r, int[] done) {
        List<String> parts = new ArrayList<>();
        boolean any = false;
        for (int k = 0; k < done.length; k++) {
            int asked = r.options().bands().get(k).iterations();
            String band = bandName(r, k);
            if (done[k] >= 0) {
                any = true;
                parts.add(done[k] == asked
                        ? band + " finished (" + asked + (asked == 1 ? " iteration)" : " iterations)")
                        : done[k] == 0 ? band + " continues before its first iteration"
                        : band + " continues after iteration " + done[k] + " of " + asked);
            } else {
                parts.add(band + " starts afresh" + (done[k] == Inversion.STALE_CHECKPOINT
                        ? " (its checkpoint began from another model)" : ""));
                break;
            }
        }
        return any ? String.join("; ", parts) : null;
    }

    private static long jobId(FwiJob.Resolved r, float[] observed, long startId, GradientConditioner conditioner) {
        long h = r.spec().fingerprint();
        h = h * 31 + Long.hashCode(startId);
        h = h * 31 + Arrays.hashCode(observed);
        h = h * 31 + Arrays.hashCode(r.wavelet());
        h = h * 31 + Arrays.deepHashCode(r.sources());
        h = h * 31 + Arrays.deepHashCode(r.receivers());
        Inversion.Options o = r.options();
        for (Inversion.Band b : o.bands()) {
            h = h * 31 + Double.hashCode(b.cutoff());
        }
        h = h * 31 + o.supershots();
        h = h * 31 + Long.hashCode(o.seed());
        h = h * 31 + o.filterOrder();
        h = h * 31 + o.settings().hashCode(); // its iterations are 0: each band has its own
        h = h * 31 + r.muteRows();
        if (r.misfit() != MisfitChoice.l2) { // L2 jobs keep their ids
            h = h * 31 + r.misfit().name().hashCode();
        }
        if (r.window() != null) { // jobs without a data window keep their ids
            h = h * 31 + r.window().hashCode();
        }
        if (o.estimateWavelet()) {
            h = h * 31 + 1;
        }
        if (o.precondition() > 0) { // jobs without preconditioning keep their ids
            h = h * 31 + Double.hashCode(o.precondition());
        }
        if (conditioner.fingerprint() != 0) { // jobs without smoothing, taper or mask keep their ids
            h = h * 31 + conditioner.fingerprint();
        }
        return h;
    }

    /**
     * The files a run of {@code bands} bands writes into its output folder, for a model of the named parameters (one:
     * acoustic names; several: one picture per parameter, suffixed _vp, _vs, _rho).
     */
    static List<String> outputNames(int bands, List<String> parameters) {
        List<String> names = new ArrayList<>(List.of("model_true.npy", "model_start.npy", "observed.npy",
                "observed.sgy", "model_final.npy", "gradient_final.npy", "misfit.png", "summary.json",
                FwiRunLog.FILE, "synthetic_shot1.npy", "observed_shot1.png", "data_shot1.png"));
        List<String> suffixes = new ArrayList<>();
        if (parameters.size() == 1) {
            suffixes.add("");
        } else {
            parameters.forEach(p -> suffixes.add("_" + p));
            for (String f : List.of("p", "vx", "vy", "vz")) {
                names.addAll(List.of("observed_shot1_" + f + ".png", "data_shot1_" + f + ".png"));
            }
        }
        for (String x : suffixes) {
            names.addAll(List.of("model_true" + x + ".png", "model_start" + x + ".png", "model_final" + x + ".png",
                    "gradient_final" + x + ".png", "models" + x + ".png", "model_error" + x + ".png",
                    "profiles" + x + ".png"));
        }
        names.add("wavelets.png");
        for (int k = 0; k < bands; k++) {
            names.addAll(List.of("model_band" + (k + 1) + ".npy", "gradient_band" + (k + 1) + ".npy",
                    "wavelet_band" + (k + 1) + ".npy", "illumination_band" + (k + 1) + ".npy",
                    Inversion.checkpointFile(Path.of(""), k).toString()));
            for (String x : suffixes) {
                names.add("model_band" + (k + 1) + x + ".png");
            }
        }
        return names;
    }

    /**
     * Observed data from the true model ({@code vTrue}: the solver's tile of it, the whole model on one domain),
     * forward-only (no gradient memory); the same array on every rank.
     */
    private static float[] observed(PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] vTrue,
                                    DistributedRun run) throws Exception {
        if (run == null) {
            try (Propagator p = new Propagator(spec)) {
                return p.forward(w, src, rec, vTrue).data();
            }
        }
        float[] all = new float[src.length * spec.nt() * rec[0].length * spec.nfield()];
        int stride = ShotWavelets.stride(w, src, spec.nt());
        float[] mineW = stride == 0 ? w : run.mine(w, stride);
        float[] padded = vTrue;
        try (ModelParallel mp = new ModelParallel(run.paddedSpec(spec), run.mesh)) {
            Record tile = mp.forward(mineW, run.mine(src), run.mine(rec), padded);
            Record g = run.gatherAll(mp, tile);
            if (g != null) {
                System.arraycopy(g.data(), 0, all, 0, all.length);
            }
        }
        MPI.COMM_WORLD.bcast(all, all.length, MPI.FLOAT, 0);
        return all;
    }

    /**
     * Shot 1's record {@code (nt, nrec, nfield)} in the model {@code padded} (the solver's tile of it, the whole model
     * on one domain) with the wavelet {@code w} ({@code (nt,)} or one per shot), forward-only, on world rank 0 (null
     * elsewhere). Decomposed, every shot group models its own first shot (the same time as one), group 0's being shot
     * 1. Collective.
     */
    private static float[] firstShot(PropSpec spec, float[] w, FwiJob.Resolved r, float[] padded,
                                     DistributedRun run) throws Exception {
        int[][][] src = r.sources();
        int[][][] rec = r.receivers();
        int stride = ShotWavelets.stride(w, src, spec.nt());
        int shot = run == null ? 0 : run.mesh.topology().shotGroup() * (src.length / run.mesh.topology().shotGroups());
        float[] one = stride == 0 ? w : Arrays.copyOfRange(w, shot * stride, (shot + 1) * stride);
        if (run == null) {
            try (Propagator p = new Propagator(spec)) {
                return p.forward(one, new int[][][] {src[0]}, new int[][][] {rec[0]}, padded).data();
            }
        }
        try (ModelParallel mp = new ModelParallel(run.paddedSpec(spec), run.mesh)) {
            Record tile = mp.forward(one, new int[][][] {run.mine(src)[0]}, new int[][][] {run.mine(rec)[0]}, padded);
            Record group = mp.gatherRecord(tile);
            return run.worldRank == 0 ? group.data() : null;
        }
    }

    /** {@code text} in printable ASCII, at most {@code max} characters (for the SEG-Y textual header). */
    private static String ascii(String text, int max) {
        String s = text.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    private static String fmt(double[] dh) {
        return dh.length == 1 ? String.valueOf(dh[0]) : Arrays.toString(dh);
    }
}
