package sweep.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import mpi.MPI;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.bench.Benchmark;
import sweep.parallel.BalancedGrid;
import sweep.parallel.HaloExchange;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * {@code mpirun -np N sweep bench-dd}: domain-decomposed forward throughput against the single domain on one rank with
 * N× the threads, both measured in the same job, repeat by repeat in turn (rank 0 drives the single-domain reference
 * in a JVM of its own while the others wait), the ratio the median of the repeats' pairs; and the halo-exchange time
 * per step, split per rank into copying, posting and waiting, next to the same exchange timed back to back.
 */
@Command(name = "bench-dd", mixinStandardHelpOptions = true,
        description = "Under mpirun -np N: DD forward (N ranks x --threads) vs one domain (1 rank x N*--threads);"
                + " 2-D 2000x2000 and 3-D 192^3, order 8, abcn 20.")
public final class BenchDdCommand implements Callable<Integer> {
    @Option(names = "--repeats", defaultValue = "5", description = "timed repeats, the decomposed and the single-domain"
            + " run in turn; medians reported (default ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--steps", description = "time steps per repeat (default: 50 in 2-D, 10 in 3-D: a repeat of about"
            + " 0.2 s either way; a 2-D repeat of 10 steps, 35 ms, let a moment's hiccup of one core decide its ratio)")
    Integer stepsOption;

    /** Steps per repeat of the case being run ({@link #stepsFor}). */
    private int steps;

    /** {@code --steps}, or the default for a case of dimension {@code dim}. */
    private int stepsFor(String dim) {
        return stepsOption != null ? stepsOption : dim.equals("2d") ? 50 : 10;
    }

    @Option(names = "--threads", defaultValue = "1", description = "threads per rank (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--only", description = "run only the 2d or the 3d case")
    String only;

    @Option(names = "--overlap", description = "also time the path that overlaps the halo exchange with the update,"
            + " alternating with the serial path repeat by repeat (default: serial only)")
    boolean overlap;

    @Option(names = "--px", description = "tiles along x (with --py; default: the balanced grid the other commands"
            + " pick, 3-D cut along y first)")
    Integer px;

    @Option(names = "--py", description = "tiles along y, 3-D only (with --px)")
    Integer py;

    @Option(names = "--reference", hidden = true, description = "internal: serve the single-domain reference of --only"
            + " on this many threads, without MPI: one timed run per line 'time' on standard input (rank 0 starts it)")
    int referenceThreads;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public Integer call() throws Exception {
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    private Integer run() throws Exception {
        if (only != null && !only.equals("2d") && !only.equals("3d")) {
            throw new IllegalArgumentException("--only must be 2d or 3d, got '" + only + "'");
        }
        if ((px == null) != (py == null)) {
            throw new IllegalArgumentException("--px and --py go together (got --px " + px + ", --py " + py
                    + "): give both, or neither for the balanced grid");
        }
        if (referenceThreads > 0) {
            serveReference();
            return 0;
        }
        Mpi.init(new String[0]);
        int world = MPI.COMM_WORLD.getSize();
        if (px != null && (px < 1 || py < 1 || px * py != world)) {
            throw new IllegalArgumentException("--py " + py + " x --px " + px + " must be " + world
                    + " tiles, one per rank");
        }
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            System.out.printf("sweep bench-dd: %d ranks x %d thread(s) vs 1 rank x %d threads; %d repeats x %s steps;"
                    + " %s halo exchange%n", world, threads, world * threads, repeats,
                    stepsOption != null ? stepsOption.toString()
                            : stepsFor("2d") + " (2-D) / " + stepsFor("3d") + " (3-D)",
                    overlap ? "serial and overlapped" : "serial");
            System.out.printf("%-12s %18s %18s %7s %16s%n", "case", "single Mcells/s", "DD Mcells/s", "ratio",
                    "halo ms/step");
        }
        if (only == null || only.equals("2d")) {
            run("2-D 2000^2", "2d", world, rank);
        }
        if (only == null || only.equals("3d")) {
            run("3-D 192^3", "3d", world, rank);
        }
        return 0;
    }

    private static int[] shapeOf(String dim) {
        return dim.equals("2d") ? new int[] {2000, 2000} : new int[] {192, 192, 192};
    }

    private static float[] model(int[] shape) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Arrays.fill(vp, 2500f);
        return vp;
    }

    private PropSpec spec(int[] shape, int threads) {
        return PropSpec.builder(shape).dh(10).dt(1e-3).nt(steps).order(8).abcn(20).threads(threads).build();
    }

    /**
     * Reference mode: the single domain of {@code --only} on {@code --reference} threads, warmed up, then one timed run
     * of {@code --steps} steps per line "time" read from standard input, each answered by a line
     * "reference DIM MCELLS"; ends at end of input or any other line.
     */
    private void serveReference() throws Exception {
        if (only == null) {
            throw new IllegalArgumentException("--reference needs --only 2d or 3d");
        }
        steps = stepsFor(only);
        int[] shape = shapeOf(only);
        float[] vp = model(shape);
        try (Propagator p = new Propagator(spec(shape, referenceThreads))) {
            long end = System.nanoTime() + WARM_UP_NANOS;
            do {
                p.timeSteps(vp, steps);
            } while (System.nanoTime() < end);
            System.err.printf("  %s single domain on %s, %d CPUs%n", shape.length == 2 ? "2-D" : "3-D",
                    p.backendDescription(), Runtime.getRuntime().availableProcessors());
            System.out.println("ready");
            System.out.flush();
            var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null && line.trim().equals("time"); ) {
                double mc = p.cellsPerStep() * (double) steps / p.timeSteps(vp, steps) / 1e6;
                System.out.println("reference " + only + " " + mc);
                System.out.flush();
            }
        }
    }

    /**
     * Starts the single-domain reference on {@code threads} threads in a JVM of its own, started with this JVM's
     * options, and waits for its warm-up: a rank that had run it in its own JVM first stepped its tile slower (C2 had
     * compiled the kernels on the single domain's rows, and its heap held the freed reference), and a user's
     * decomposed run never has that history. Its timed runs then alternate with the decomposed ones (the machine is
     * shared and its speed drifts within seconds), while the other ranks sleep.
     */
    private ReferenceJvm startReference(String dim, int threads) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "bench-dd",
                "--reference", Integer.toString(threads), "--only", dim, "--steps", Integer.toString(steps),
                "--backend", backendOptions.backend));
        if (backendOptions.strictMath) {
            cmd.add("--strict-math");
        }
        if (backendOptions.device != null) {
            cmd.addAll(List.of("--device", backendOptions.device));
        }
        List<String> wide = allCpus();
        if (!wide.isEmpty()) {
            List<String> unbound = new ArrayList<>(wide);
            unbound.addAll(cmd);
            ReferenceJvm r = ReferenceJvm.start(unbound, dim, false);
            if (r != null) {
                return r;
            }
            System.err.println("  the reference JVM could not be started on all CPUs (" + String.join(" ", wide)
                    + "); it runs on this rank's CPUs instead and its figure is low");
        }
        return ReferenceJvm.start(cmd, dim, true);
    }

    /**
     * The prefix that starts the reference JVM on every online CPU ({@code taskset -c LIST}), or nothing when this
     * rank already has them all or {@code taskset} is missing. mpirun binds each rank to one core by default when
     * ranks ≤ 2, and a child process inherits that binding: the reference's threads would share one core.
     */
    private static List<String> allCpus() {
        String online;
        try {
            online = Files.readString(Path.of("/sys/devices/system/cpu/online")).trim();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        int count = 0;
        for (String part : online.split(",")) {
            String[] ab = part.split("-");
            try {
                count += ab.length == 1 ? 1 : Integer.parseInt(ab[1]) - Integer.parseInt(ab[0]) + 1;
            } catch (NumberFormatException e) {
                return List.of();
            }
        }
        if (Runtime.getRuntime().availableProcessors() >= count) {
            return List.of();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path t = Path.of(dir.isEmpty() ? "." : dir, "taskset");
            if (Files.isExecutable(t)) {
                return List.of(t.toString(), "-c", online);
            }
        }
        return List.of();
    }

    /** The single-domain reference JVM in reference mode ({@link #serveReference}), driven line by line. */
    private static final class ReferenceJvm implements AutoCloseable {
        private final Process process;
        private final List<String> cmd;
        private final String dim;
        private final BufferedReader out;
        private final Writer in;

        private ReferenceJvm(Process process, List<String> cmd, String dim) {
            this.process = process;
            this.cmd = cmd;
            this.dim = dim;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        /** Starts it and waits for "ready"; null when it ended first and {@code mustSucceed} is false. */
        static ReferenceJvm start(List<String> cmd, String dim, boolean mustSucceed) throws Exception {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            ReferenceJvm r = new ReferenceJvm(p, cmd, dim);
            for (String line; (line = r.out.readLine()) != null; ) {
                if (line.trim().equals("ready")) {
                    return r;
                }
            }
            r.close();
            if (!mustSucceed) {
                return null;
            }
            throw r.failed();
        }

        /** One timed run of the reference: Mcells/s. */
        double time() throws Exception {
            in.write("time\n");
            in.flush();
            for (String line; (line = out.readLine()) != null; ) {
                String[] f = line.trim().split(" ");
                if (f.length == 3 && f[0].equals("reference") && f[1].equals(dim)) {
                    return Double.parseDouble(f[2]);
                }
            }
            close();
            throw failed();
        }

        private IllegalStateException failed() {
            return new IllegalStateException("the single-domain reference JVM (" + String.join(" ", cmd)
                    + ") ended with exit code " + process.exitValue() + " and no result; run it by hand (it reads"
                    + " lines 'time' on standard input) to see why");
        }

        @Override
        public void close() throws Exception {
            try {
                in.close();
            } catch (IOException e) {
                // it has ended already
            }
            process.waitFor();
        }
    }

    /**
     * A barrier that sleeps while it waits: Open MPI's blocking barrier polls, and a polling rank would take a core
     * from the single-domain reference that rank 0 times meanwhile.
     */
    private static void quietBarrier() throws Exception {
        mpi.Request r = MPI.COMM_WORLD.iBarrier();
        while (!r.test()) {
            Thread.sleep(2);
        }
    }

    /**
     * Warm-up before timing, single domain and decomposed alike: C2 compiles the Vector API kernels in the background
     * and a rank still running them interpreted or in C1 makes every other rank wait (one run of 10 steps was too
     * short: the decomposed figure came out at about half of its warm value).
     */
    private static final long WARM_UP_NANOS = 3_000_000_000L;

    /** Exchanges timed back to back after the run, for the cost of an exchange nobody waits for. */
    private static final int BACK_TO_BACK = 20;

    /** This rank's exchange count and seconds so far: total, copy, MPI post, wait. */
    private static double[] haloSnapshot(ModelParallel mp) {
        return new double[] {mp.haloExchanges(), mp.haloSeconds(), mp.haloSeconds(HaloExchange.COPY),
            mp.haloSeconds(HaloExchange.MPI_POST), mp.haloSeconds(HaloExchange.WAIT)};
    }

    /** Milliseconds per exchange between two snapshots: total, copy, MPI post, wait. */
    private static double[] perExchangeMs(double[] a, double[] b) {
        double n = Math.max(1, b[0] - a[0]);
        return new double[] {(b[1] - a[1]) / n * 1e3, (b[2] - a[2]) / n * 1e3, (b[3] - a[3]) / n * 1e3,
            (b[4] - a[4]) / n * 1e3};
    }

    private void run(String label, String dim, int world, int rank) throws Exception {
        steps = stepsFor(dim);
        int[] shape = shapeOf(dim);
        float[] vp = model(shape);
        PropSpec spec = spec(shape, threads);
        // rank 0 drives the single-domain reference, whose timed runs alternate with the decomposed ones
        ReferenceJvm reference = rank == 0 ? startReference(dim, world * threads) : null;
        try {
            runDd(label, spec, vp, world, rank, reference);
        } finally {
            if (reference != null) {
                reference.close();
            }
        }
    }

    private void runDd(String label, PropSpec spec, float[] vp, int world, int rank, ReferenceJvm reference)
            throws Exception {
        int[] shape = spec.shape();
        quietBarrier();
        BalancedGrid bg = BalancedGrid.of(world, shape, 1, shape.length == 3 ? world : 1);
        int px = this.px != null ? (shape.length == 2 ? world : this.px) : bg.px();
        int py = world / px;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(py, px, 1);
             ModelParallel mp = new ModelParallel(spec, mesh)) {
            long global = 1;
            for (int k = 0; k < shape.length; k++) {
                global *= shape[k] + 2L * spec.abcn();
            }
            // with --overlap both paths run, alternating repeat by repeat, so that they see the same machine
            boolean[] modes = overlap ? new boolean[] {false, true} : new boolean[] {false};
            // every rank warms up as long as rank 0 says (the same number of runs, so the same collective calls):
            // a rank whose kernels C2 has not compiled yet steps several times slower and the others wait for it
            long end = System.nanoTime() + WARM_UP_NANOS;
            boolean[] more = {true};
            while (more[0]) {
                for (boolean m : modes) {
                    mp.setOverlap(m);
                    mp.timeSteps(vp, steps);
                }
                more[0] = System.nanoTime() < end;
                MPI.COMM_WORLD.bcast(more, 1, MPI.BOOLEAN, 0);
            }
            int nm = modes.length;
            double[][] mc = new double[nm][repeats];
            double[][] halo = new double[nm][5];
            double[] ownSeconds = new double[nm];
            double[] ownCpu = new double[nm];
            double[] single = new double[repeats];
            for (int r = 0; r < repeats; r++) {
                if (reference != null) {
                    single[r] = reference.time();
                }
                quietBarrier();
                for (int m = 0; m < nm; m++) {
                    mp.setOverlap(modes[m]);
                    MPI.COMM_WORLD.barrier();
                    double[] before = haloSnapshot(mp);
                    double[] t = {mp.timeSteps(vp, steps)};
                    double[] after = haloSnapshot(mp);
                    for (int j = 0; j < 5; j++) {
                        halo[m][j] += after[j] - before[j];
                    }
                    ownSeconds[m] += t[0];
                    ownCpu[m] += mp.lastStepsCpuSeconds();
                    MPI.COMM_WORLD.allReduce(t, 1, MPI.DOUBLE, MPI.MAX);
                    mc[m][r] = global * (double) steps / t[0] / 1e6;
                }
            }
            // the same exchange back to back with no update in between, every rank ready: its wait is the transfer
            MPI.COMM_WORLD.barrier();
            double[] before = haloSnapshot(mp);
            mp.runHaloExchanges(BACK_TO_BACK);
            double[] alone = perExchangeMs(before, haloSnapshot(mp));
            int k = 12;
            double[] all = new double[k * world * nm];
            double[] mine = new double[k * nm];
            for (int m = 0; m < nm; m++) {
                double[] inRun = perExchangeMs(new double[5], halo[m]);
                System.arraycopy(inRun, 0, mine, k * m, 4);
                System.arraycopy(alone, 0, mine, k * m + 4, 4);
                mine[k * m + 8] = ownSeconds[m] / (repeats * (double) steps) * 1e3;
                mine[k * m + 9] = ownCpu[m] / (repeats * (double) steps) * 1e3;
                mine[k * m + 10] = mp.grid().nz() * (double) mp.grid().ny() * mp.grid().nx();
                mine[k * m + 11] = Runtime.getRuntime().availableProcessors();
            }
            MPI.COMM_WORLD.allGather(mine, k * nm, MPI.DOUBLE, all, k * nm, MPI.DOUBLE);
            if (rank == 0) {
                double singleMc = Benchmark.median(single);
                System.out.printf("  single domain ms/step %.3f (%d threads, %.0f cells per thread)%n",
                        global / (singleMc * 1e6) * 1e3, world * threads, global / (double) (world * threads));
                for (int m = 0; m < nm; m++) {
                    double dd = Benchmark.median(mc[m]);
                    double[] ratios = new double[repeats];
                    for (int r = 0; r < repeats; r++) {
                        ratios[r] = mc[m][r] / single[r];
                    }
                    double[] sorted = ratios.clone();
                    Arrays.sort(sorted);
                    double worst = 0;
                    for (int q = 0; q < world; q++) {
                        worst = Math.max(worst, all[k * (q * nm + m)]);
                    }
                    String name = nm == 1 ? label : label + (modes[m] ? " overlap" : " serial");
                    System.out.printf("%-12s %18.1f %18.1f %7.3f %16.3f   (mesh py=%d px=%d; ratio of each repeat's"
                            + " pair %.3f-%.3f)%n", name, singleMc, dd, Benchmark.median(ratios), worst, py, px,
                            sorted[0], sorted[repeats - 1]);
                    for (int q = 0; q < world; q++) {
                        int o = k * (q * nm + m);
                        System.out.printf("  rank %d ms/step %.3f = compute %.3f + halo %.3f (cpu %.3f; %.0f cells"
                                + " per thread; %.0f CPUs)%n", q, all[o + 8], all[o + 8] - all[o], all[o], all[o + 9],
                                all[o + 10] / threads, all[o + 11]);
                        System.out.printf("  halo rank %d ms/step: %.3f = copy %.3f + mpi post %.3f + wait %.3f;"
                                + " back to back %.3f = copy %.3f + mpi post %.3f + wait %.3f%n", q, all[o],
                                all[o + 1], all[o + 2], all[o + 3], all[o + 4], all[o + 5], all[o + 6], all[o + 7]);
                    }
                }
            }
        }
    }
}
