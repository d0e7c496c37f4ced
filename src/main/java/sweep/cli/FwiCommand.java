package sweep.cli;

import java.nio.file.Path;
import java.text.DecimalFormat;
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
import sweep.fwi.Acquisition;
import sweep.fwi.DataObjective;
import sweep.fwi.DecomposedObjective;
import sweep.fwi.Fwi;
import sweep.fwi.Inversion;
import sweep.fwi.SingleDomainObjective;
import sweep.io.Json;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.io.Segy;
import sweep.parallel.ModelParallel;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;

/**
 * {@code sweep fwi}: multi-band full-waveform inversion from a job file or flags (by default of the built-in model
 * from a smoothed start, with observed data modelled from the true model), on one domain or, under mpirun, decomposed
 * with shot groups; optionally with encoded supershots. Writes models, gradients, records, pictures and
 * summary.json to the output folder, every file atomically; resumable after a kill with --resume.
 */
@Command(name = "fwi", mixinStandardHelpOptions = true,
        description = {"Multi-band FWI (L-BFGS, velocity bounds) from a JSON job file and/or flags; flags override the"
                + " job file, also on --resume. Without either: the built-in 2-D model (2 km x 6 km). Outputs in the 'out' folder;"
                + " resumable with --resume.", "Job-file keys: see 'sweep fwi --keys'."})
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

    @Option(names = "--storage", description = "boundary or full (default boundary)")
    String storage;

    @Option(names = "--threads", description = "Java backend threads per rank, 0 = all cores (default 0)")
    Integer threads;

    @Option(names = "--resume", description = "continue from the band checkpoints in the output folder (same job;"
            + " flags override the job file as on a first run)")
    boolean resume;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
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
                .flag("storage", "--storage", storage).flag("threads", "--threads", threads).mesh(meshOptions);
        if (bands != null) {
            job.flag("bands", "--bands", bands);
        }
        FwiJob.Resolved r = job.resolve();
        Path dir = r.out();
        Outputs.checkFolder(job.where("out"), dir, outputNames(r.options().bands().size()), job.inputFiles());
        MeshOptions mesh = MeshOptions.of(r.mesh(), job.where("mesh"));
        PropSpec spec = r.spec();
        ProblemOptions.warnThreads(spec.threads(), job.where("threads"));
        int[] shape = r.shape();
        int nt = spec.nt();
        int nshots = r.sources().length;
        int nrec = r.receivers()[0].length;
        boolean dd = mesh.decomposed();
        DistributedRun run = dd ? new DistributedRun(mesh, shape, nshots) : null;
        boolean root = run == null || run.worldRank == 0;
        try {
            if (dd && r.options().supershots() % run.mesh.topology().shotGroups() != 0) {
                throw new IllegalArgumentException(job.where("supershots") + ": " + r.options().supershots()
                        + " supershots do not split evenly into " + run.mesh.topology().shotGroups() + " shot groups");
            }
            PropSpec solverSpec = dd ? run.paddedSpec(spec) : spec;
            Grid grid = dd ? ModelParallel.tileGrid(solverSpec, run.mesh.topology()) : Grid.single(spec);
            MemoryEstimate.fwi(solverSpec, grid, nshots, nrec, r.wavelet().length, r.options().settings().memory())
                    .requireHeap(dd ? run.rankAndTile(grid) : "this FWI");
            if (root) {
                System.err.printf("sweep fwi: %s %s at %s m, %d shots, %d receivers, %d steps of %.3g ms,"
                                + " %d band(s)%s%n", r.description(), Arrays.toString(shape), fmt(r.dh()), nshots, nrec,
                        nt, spec.dt() * 1e3, r.options().bands().size(),
                        r.options().supershots() > 0 ? ", " + r.options().supershots() + " encoded supershots" : "");
            }
            long t0 = System.nanoTime();
            float[] observed = r.observed() != null ? r.observed()
                    : observed(spec, r.wavelet(), r.sources(), r.receivers(), r.vTrue(), run);
            double observedSeconds = (System.nanoTime() - t0) * 1e-9;
            Acquisition acq = new Acquisition(spec, r.wavelet(), r.sources(), r.receivers(), observed);
            if (root) {
                writeInputs(dir, r, observed);
            }
            long jobId = jobId(r, observed);
            long t1 = System.nanoTime();
            Listener listener = new Listener(dir, r, root);
            List<Fwi.State> states;
            long held;
            try (DataObjective obj = dd ? new DecomposedObjective(acq, run.mesh, r.muteRows())
                    : new SingleDomainObjective(acq, r.muteRows())) {
                states = Inversion.run(obj, acq, r.start(), r.options(), dir, resume, root, jobId, listener);
                held = obj instanceof DecomposedObjective d ? d.bytesHeld()
                        : ((SingleDomainObjective) obj).bytesHeld();
            } finally {
                listener.close();
            }
            double fwiSeconds = (System.nanoTime() - t1) * 1e-9;
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
                writeResults(dir, r, states, listener, observedSeconds, fwiSeconds, run, mem);
            }
        } finally {
            if (run != null) {
                run.close();
            }
        }
        return 0;
    }

    /** Prints one line per iteration, drives the progress bar, writes each band's model and gradient. */
    private static final class Listener implements Inversion.Listener, AutoCloseable {
        private final Path dir;
        private final FwiJob.Resolved r;
        private final boolean root;
        private final Progress progress;
        final List<Double> seconds = new ArrayList<>();
        private long bandStart = System.nanoTime();

        Listener(Path dir, FwiJob.Resolved r, boolean root) {
            this.dir = dir;
            this.r = r;
            this.root = root;
            this.progress = new Progress(root);
        }

        private String bandName(int band) {
            double c = r.options().bands().get(band).cutoff();
            String range = c == 0 ? " (all)" : " (<" + new DecimalFormat("0.###").format(c) + " Hz)";
            return "band " + (band + 1) + "/" + r.options().bands().size() + range;
        }

        @Override
        public void iteration(int band, Fwi.Iteration it) {
            if (!root) {
                return;
            }
            int total = r.options().bands().get(band).iterations();
            progress.start(bandName(band), total);
            progress.println(String.format("%s iteration %3d/%d  misfit %.6e  step %.3g  evaluations %d  %.1f s",
                    bandName(band), it.index(), total, it.misfit(), it.step(), it.evaluations(), it.seconds()));
            progress.step(it.index(), String.format("misfit %.3e", it.misfit()));
        }

        @Override
        public void bandDone(int band, Acquisition data, Fwi.State st) {
            seconds.add((System.nanoTime() - bandStart) * 1e-9);
            bandStart = System.nanoTime();
            if (!root) {
                return;
            }
            progress.finish();
            Npy.writeFloat32(dir.resolve("model_band" + (band + 1) + ".npy"), st.model(), r.shape());
            Npy.writeFloat32(dir.resolve("gradient_band" + (band + 1) + ".npy"), st.gradient(), r.shape());
            int[] s = r.shape();
            Png.model(dir.resolve("model_band" + (band + 1) + ".png"), section(st.model(), s), s[0], s[s.length - 1],
                    r.dh()[0], r.dh()[r.dh().length - 1], "model after " + bandName(band), "m/s");
        }

        @Override
        public void close() {
            progress.finish();
        }
    }

    private static void writeInputs(Path dir, FwiJob.Resolved r, float[] observed) {
        int[] s = r.shape();
        int nz = s[0];
        int nx = s[s.length - 1];
        double dz = r.dh()[0];
        double dx = r.dh()[r.dh().length - 1];
        PropSpec spec = r.spec();
        int nshots = r.sources().length;
        int nrec = r.receivers()[0].length;
        if (r.vTrue() != null) {
            Npy.writeFloat32(dir.resolve("model_true.npy"), r.vTrue(), s);
            Png.model(dir.resolve("model_true.png"), section(r.vTrue(), s), nz, nx, dz, dx, "true model", "m/s");
        }
        Npy.writeFloat32(dir.resolve("model_start.npy"), r.start(), s);
        Png.model(dir.resolve("model_start.png"), section(r.start(), s), nz, nx, dz, dx, "starting model", "m/s");
        Npy.writeFloat32(dir.resolve("observed.npy"), observed, nshots, spec.nt(), nrec, 1);
        double[] sxyz = new double[3 * nshots];
        for (int b = 0; b < nshots; b++) {
            metres(r.sources()[b][0], r.dh(), s.length, sxyz, b);
        }
        double[] rxyz = new double[3 * nshots * nrec];
        for (int b = 0; b < nshots; b++) {
            for (int k = 0; k < nrec; k++) {
                metres(r.receivers()[b][k], r.dh(), s.length, rxyz, b * nrec + k);
            }
        }
        Segy.write(dir.resolve("observed.sgy"), observed, nshots, spec.nt(), nrec, spec.dt(), sxyz, rxyz,
                List.of(ascii("sweep-java fwi: observed data of " + r.description(), Segy.MAX_DESCRIPTION_CHARS)));
        Png.gather(dir.resolve("observed_shot1.png"), observed, 0, spec.nt(), nrec, spec.dt(), "observed, shot 1", 99);
    }

    private static void writeResults(Path dir, FwiJob.Resolved r, List<Fwi.State> states, Listener l,
                                     double observedSeconds, double fwiSeconds, DistributedRun run,
                                     Map<String, Object> memory) {
        int[] s = r.shape();
        int nz = s[0];
        int nx = s[s.length - 1];
        double dz = r.dh()[0];
        double dx = r.dh()[r.dh().length - 1];
        Fwi.State last = states.get(states.size() - 1);
        Npy.writeFloat32(dir.resolve("model_final.npy"), last.model(), s);
        Npy.writeFloat32(dir.resolve("gradient_final.npy"), last.gradient(), s);
        List<Double> misfit = new ArrayList<>();
        List<Map<String, Object>> bandList = new ArrayList<>();
        int iterations = 0;
        for (int k = 0; k < states.size(); k++) {
            Fwi.State st = states.get(k);
            List<Double> m = new ArrayList<>();
            m.add(st.initialMisfit());
            st.history().forEach(it -> m.add(it.misfit()));
            misfit.addAll(k == 0 ? m : m.subList(1, m.size()));
            iterations += st.history().size();
            Map<String, Object> b = new LinkedHashMap<>();
            Inversion.Band band = r.options().bands().get(k);
            b.put("cutoff_hz", band.cutoff());
            b.put("iterations", st.history());
            b.put("misfit", m);
            b.put("misfit_reduction", 1 - st.misfit() / st.initialMisfit());
            if (r.vTrue() != null) {
                b.put("model_rms_error", rms(st.model(), r.vTrue()));
            }
            b.put("seconds", k < l.seconds.size() ? l.seconds.get(k) : Double.NaN);
            bandList.add(b);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("misfit", misfit);
        summary.put("misfit_note", "per iteration across all bands (each band starts from its own filtered data;"
                + " with supershots each iteration has its own codes)");
        summary.put("bands", bandList);
        summary.put("supershots", r.options().supershots());
        if (r.vTrue() != null) {
            summary.put("model_rms_error_start", rms(r.start(), r.vTrue()));
            summary.put("model_rms_error_final", rms(last.model(), r.vTrue()));
        }
        summary.put("seconds_observed", observedSeconds);
        summary.put("seconds_fwi", fwiSeconds);
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
        Png.model(dir.resolve("model_final.png"), section(last.model(), s), nz, nx, dz, dx,
                "FWI model after " + iterations + " iterations", "m/s");
        List<float[]> panels = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        if (r.vTrue() != null) {
            panels.add(section(r.vTrue(), s));
            titles.add("true model");
        }
        panels.add(section(r.start(), s));
        titles.add("starting model");
        panels.add(section(last.model(), s));
        titles.add("FWI model after " + iterations + " iterations");
        Png.modelPanels(dir.resolve("models.png"), panels, titles, nz, nx, dz, dx, "m/s");
        Png.diverging(dir.resolve("gradient_final.png"), section(last.gradient(), s), nz, nx, dz, dx,
                "final gradient", 99);
        Png.curve(dir.resolve("misfit.png"), misfit.stream().mapToDouble(Double::doubleValue).toArray(),
                "misfit per iteration", "misfit", true);
        Fwi.State first = states.get(0);
        String err = r.vTrue() == null ? "" : String.format("; model RMS error %.1f -> %.1f m/s",
                rms(r.start(), r.vTrue()), rms(last.model(), r.vTrue()));
        System.out.printf("misfit %.6e -> %.6e over %d band(s) (last band: %.1f %% lower)%s; FWI %.1f s;"
                        + " outputs in %s%n",
                first.initialMisfit(), last.misfit(), states.size(), 100 * (1 - last.misfit() / last.initialMisfit()),
                err, fwiSeconds, dir);
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
    private static long jobId(FwiJob.Resolved r, float[] observed) {
        long h = r.spec().fingerprint();
        h = h * 31 + Arrays.hashCode(r.start());
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
        return h;
    }

    /** The files a run of {@code bands} bands writes into its output folder. */
    static List<String> outputNames(int bands) {
        List<String> names = new ArrayList<>(List.of("model_true.npy", "model_true.png", "model_start.npy",
                "model_start.png", "observed.npy", "observed.sgy", "observed_shot1.png", "model_final.npy",
                "model_final.png", "gradient_final.npy", "gradient_final.png", "misfit.png", "summary.json"));
        for (int k = 0; k < bands; k++) {
            names.addAll(List.of("model_band" + (k + 1) + ".npy", "model_band" + (k + 1) + ".png",
                    "gradient_band" + (k + 1) + ".npy", Inversion.checkpointFile(Path.of(""), k).toString()));
        }
        return names;
    }

    /** Observed data from the true model, forward-only (no gradient memory); the same array on every rank. */
    private static float[] observed(PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] vTrue,
                                    DistributedRun run) throws Exception {
        if (run == null) {
            try (Propagator p = new Propagator(spec)) {
                return p.forward(w, src, rec, vTrue).data();
            }
        }
        float[] all = new float[src.length * spec.nt() * rec[0].length];
        int stride = ShotWavelets.stride(w, src, spec.nt());
        float[] mineW = stride == 0 ? w : run.mine(w, stride);
        try (ModelParallel mp = new ModelParallel(run.paddedSpec(spec), run.mesh)) {
            Record tile = mp.forward(mineW, run.mine(src), run.mine(rec), run.pad(vTrue));
            Record g = run.gatherAll(mp, tile);
            if (g != null) {
                System.arraycopy(g.data(), 0, all, 0, all.length);
            }
        }
        MPI.COMM_WORLD.bcast(all, all.length, MPI.FLOAT, 0);
        return all;
    }

    /** {@code text} in printable ASCII, at most {@code max} characters (for the SEG-Y textual header). */
    private static String ascii(String text, int max) {
        String s = text.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    private static String fmt(double[] dh) {
        return dh.length == 1 ? String.valueOf(dh[0]) : Arrays.toString(dh);
    }

    private static double rms(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.pow(a[i] - b[i], 2);
        }
        return Math.sqrt(s / a.length);
    }
}
