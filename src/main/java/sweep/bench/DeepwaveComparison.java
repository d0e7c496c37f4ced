package sweep.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import sweep.equation.WaveEquation;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Same-run comparison with Deepwave's C kernels: runs sweep-java's forward step and the benchmark drivers of
 * {@code bench/deepwave} (built against a Deepwave checkout by {@code bench/deepwave/build.sh}, outside the repository)
 * on the same problem, interleaved round by round (Deepwave, sweep, Deepwave, sweep, ...), each warmed up first.
 * Deepwave parallelises over shots, so its T-thread figure is T shots on T threads; sweep runs one shot on T threads.
 * Throughput is cells × steps / s with the PML cells counted, (n + 2·abcn)^ndim cells per shot and step for both.
 * {@link #born} compares acoustic Born modelling with Deepwave's {@code scalar_born} the same way, and
 * {@link #gradient} compares one acoustic gradient on one thread the same way (Deepwave storing every step's
 * wavefield term, sweep boundary saving), with each code's gradient/forward time ratio from the same rounds.
 */
public final class DeepwaveComparison {
    /**
     * One compared configuration: Mcells/s of both codes per round (wall clock) and, on one thread, per CPU second of
     * the working thread (NaN on more threads), robust to time the scheduler gave to other processes.
     */
    public record Row(String label, int threads, double[] deepwave, double[] sweep, double[] deepwaveCpu,
                      double[] sweepCpu) {
        /** Per-round ratios sweep / Deepwave. */
        public double[] ratios() {
            return ratios(sweep, deepwave);
        }

        /** Per-round ratios of the CPU-time figures (NaN on more than one thread). */
        public double[] cpuRatios() {
            return ratios(sweepCpu, deepwaveCpu);
        }

        static double[] ratios(double[] a, double[] b) {
            double[] r = new double[a.length];
            for (int k = 0; k < r.length; k++) {
                r[k] = a[k] / b[k];
            }
            return r;
        }
    }

    /**
     * One compared gradient configuration on one thread: seconds per round of each code's forward run and gradient
     * (forward with storage and adjoint run) of the same problem ({@link Benchmark.GradientProblem}).
     */
    public record GradientRow(String label, double[] deepwaveForward, double[] deepwaveGradient, double[] sweepForward,
                              double[] sweepGradient) {
        /**
         * Per-round gradient speed ratios sweep / Deepwave: Deepwave's gradient time over sweep's (> 1: sweep faster).
         */
        public double[] speedRatios() {
            return Row.ratios(deepwaveGradient, sweepGradient);
        }

        /** Per-round gradient time over forward time of Deepwave. */
        public double[] deepwaveGradientPerForward() {
            return Row.ratios(deepwaveGradient, deepwaveForward);
        }

        /** Per-round gradient time over forward time of sweep. */
        public double[] sweepGradientPerForward() {
            return Row.ratios(sweepGradient, sweepForward);
        }
    }

    /** Warm-up of each sweep configuration before its first timed round, at least one call. */
    private static final long WARMUP_NANOS = 3_000_000_000L;

    private final Path dir;
    private final int repeats;
    private final int steps;
    private final PrintStream log;
    private final long warmupNanos;

    /** A comparison against the drivers in {@code dir}, {@code repeats} rounds of {@code steps} steps each. */
    public DeepwaveComparison(Path dir, int repeats, int steps, PrintStream log) {
        this(dir, repeats, steps, log, WARMUP_NANOS);
    }

    /** As above with the warm-up of each sweep configuration given (tests use a short one). */
    DeepwaveComparison(Path dir, int repeats, int steps, PrintStream log, long warmupNanos) {
        if (repeats < 1 || steps < 1) {
            throw new IllegalArgumentException("repeats and steps must be >= 1, got " + repeats + " and " + steps);
        }
        this.dir = dir;
        this.repeats = repeats;
        this.steps = steps;
        this.log = log;
        this.warmupNanos = warmupNanos;
    }

    /** The driver executable for a Deepwave propagator ("scalar", "acoustic", "elastic") and dimension, checked. */
    public Path driver(String equation, int ndim) {
        Path p = dir.resolve("dw_" + equation + "_" + ndim + "d");
        if (!Files.isExecutable(p)) {
            throw new IllegalArgumentException("--compare-deepwave " + dir + ": no executable " + p.getFileName()
                    + " there; build the drivers with bench/deepwave/build.sh DEEPWAVE_SRC " + dir
                    + " (docs/performance.md)");
        }
        return p;
    }

    /**
     * The Deepwave propagator that solves the same equation as {@code eq} (its driver's name: {@code scalar} for
     * acoustic, {@code acoustic} for acoustic-vd, {@code elastic}); IllegalArgumentException for an equation Deepwave
     * has no propagator of.
     */
    public static String peer(WaveEquation eq) {
        String peer = PEERS.get(eq.name());
        if (peer == null) {
            throw new IllegalArgumentException("--compare-deepwave: Deepwave has no propagator of the " + eq.name()
                    + " equation; it compares " + String.join(", ", PEERS.keySet()));
        }
        return peer;
    }

    /** Our equations and the names of Deepwave's drivers of the same equation (bench/deepwave). */
    private static final Map<String, String> PEERS = new java.util.TreeMap<>(
            Map.of("acoustic", "scalar", "acoustic-vd", "acoustic", "elastic", "elastic"));

    /**
     * Compares the forward step of {@code eq} with its Deepwave peer ({@link #peer}) on a cube or square of {@code n}
     * cells per axis, {@code abcn} PML cells per side, order 8, for each thread count: sweep one shot on T threads,
     * and for T &gt; 1 also T shots on T threads as Deepwave runs them ({@link #shotsRow}).
     */
    public List<Row> run(WaveEquation eq, int ndim, int n, int abcn, int[] threadCounts) {
        Path exe = driver(peer(eq), ndim);
        int[] shape = ndim == 2 ? new int[] {n, n} : new int[] {n, n, n};
        String label = eq.name() + " " + ndim + "-D " + n + (ndim == 2 ? "^2" : "^3");
        float[] model = eq.benchmarkModel(Math.toIntExact(cells(shape)));
        List<Row> rows = new ArrayList<>();
        for (int t : threadCounts) {
            rows.add(compare(exe, label, shape, abcn, t, threads -> {
                Propagator p = new Propagator(Benchmark.spec(eq, shape, 8, abcn, steps, threads, Map.of()));
                return new SweepRun() {
                    @Override
                    public double[] time() {
                        return new double[] {p.timeSteps(model, steps), p.lastStepsCpuSeconds()};
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            }));
            if (t > 1) {
                rows.add(shotsRow(exe, eq, label, shape, abcn, t, model));
            }
        }
        return rows;
    }

    /**
     * T shots on T threads, as Deepwave's T-thread figure: T propagators of one thread each, stepped at the same time
     * (the library's way to run shots side by side in one process; {@code mpirun} shot groups are the command line's),
     * Mcells/s of all of them together.
     */
    private Row shotsRow(Path exe, WaveEquation eq, String label, int[] shape, int abcn, int t, float[] model) {
        return compare(exe, label + ", " + t + " shots", shape, abcn, t, threads -> {
            Propagator[] ps = new Propagator[threads];
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            for (int k = 0; k < threads; k++) {
                ps[k] = new Propagator(Benchmark.spec(eq, shape, 8, abcn, steps, 1, Map.of()));
            }
            List<Callable<Double>> shots = new ArrayList<>();
            for (Propagator p : ps) {
                shots.add(() -> p.timeSteps(model, steps));
            }
            return new SweepRun() {
                @Override
                public double[] time() {
                    long t0 = System.nanoTime();
                    try {
                        for (Future<Double> f : pool.invokeAll(shots)) {
                            f.get();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted");
                    } catch (ExecutionException e) {
                        throw new IllegalStateException(e.getCause());
                    }
                    return new double[] {(System.nanoTime() - t0) * 1e-9 / threads, Double.NaN};
                }

                @Override
                public void close() {
                    pool.shutdown();
                    for (Propagator p : ps) {
                        p.close();
                    }
                }
            };
        });
    }

    /**
     * Compares Born modelling of the acoustic equation (background and scattered field advanced together, one shot
     * per thread count: {@link Benchmark.BornProblem}) with Deepwave's Born propagator ({@code scalar_born}) on a cube
     * or square of {@code n} cells per axis, {@code abcn} PML cells per side, order 8, for each thread count.
     */
    public List<Row> born(int ndim, int n, int abcn, int[] threadCounts) {
        Path exe = driver("scalar_born", ndim);
        int[] shape = ndim == 2 ? new int[] {n, n} : new int[] {n, n, n};
        String label = "acoustic Born " + ndim + "-D " + n + (ndim == 2 ? "^2" : "^3");
        List<Row> rows = new ArrayList<>();
        for (int t : threadCounts) {
            rows.add(compare(exe, label, shape, abcn, t, threads -> {
                Benchmark.BornProblem b = Benchmark.bornProblem(sweep.equation.Equations.named("acoustic"), shape, 8,
                        abcn, threads, steps, Map.of());
                Propagator p = new Propagator(b.spec());
                return new SweepRun() {
                    @Override
                    public double[] time() {
                        return b.time(p);
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            }));
        }
        return rows;
    }

    /** One sweep configuration under comparison. */
    private interface SweepRun extends AutoCloseable {
        /** One timed run: {wall-clock seconds, CPU seconds of the calling thread (NaN: not measured)}. */
        double[] time();

        @Override
        void close();
    }

    private static long cells(int[] shape) {
        long c = 1;
        for (int s : shape) {
            c *= s;
        }
        return c;
    }

    private Row compare(Path exe, String label, int[] shape, int abcn, int threads,
                        java.util.function.IntFunction<SweepRun> sweepRun) {
        double cellsPerStep = 1;
        for (int s : shape) {
            cellsPerStep *= s + 2.0 * abcn;
        }
        double[] dw = new double[repeats];
        double[] sw = new double[repeats];
        double[] dwc = new double[repeats];
        double[] swc = new double[repeats];
        double work = cellsPerStep * steps / 1e6;
        session(exe, c -> {
            try (SweepRun p = sweepRun.apply(threads)) {
                long until = System.nanoTime() + warmupNanos;
                do { // warm-up: JIT compilation (C2 in the background) and first touch of the arrays
                    p.time();
                } while (System.nanoTime() < until);
                for (int r = 0; r < repeats; r++) {
                    double[] d = c.send("run");
                    dw[r] = threads * work / d[0];
                    dwc[r] = threads == 1 ? work / d[1] : Double.NaN;
                    double[] s = p.time();
                    sw[r] = work / s[0];
                    swc[r] = threads == 1 ? work / s[1] : Double.NaN;
                }
            }
        }, Integer.toString(shape[0]), Integer.toString(abcn), Integer.toString(steps), Integer.toString(threads),
                Integer.toString(threads));
        Row row = new Row(label, threads, dw, sw, dwc, swc);
        log.printf("  %-22s threads=%d  Deepwave %s  sweep %s  sweep/Deepwave %s%s%n", label, threads, stats(dw),
                stats(sw), ratioStats(row.ratios()), threads == 1 ? "; per CPU second: Deepwave " + stats(dwc)
                        + ", sweep " + stats(swc) + ", ratio " + ratioStats(row.cpuRatios()) : "");
        return row;
    }

    /**
     * Compares one acoustic gradient on one thread, Deepwave's (its forward storing every step's wavefield term in
     * memory, then its backward) against sweep's (boundary saving), on a square or cube of {@code n} cells per axis,
     * {@code abcn} PML cells per side, order 8: the problem of {@link Benchmark#gradientRatio}. Each round runs
     * Deepwave's forward and gradient, then sweep's forward and gradient, so each code's gradient/forward ratio comes
     * from the same rounds.
     */
    public GradientRow gradient(int ndim, int n, int abcn) {
        Path exe = driver("scalar", ndim);
        if (n < 10) {
            throw new IllegalArgumentException("--compare-deepwave --gradient needs at least 10 cells per axis (one"
                    + " receiver every 10 cells), got --size " + n);
        }
        int[] shape = ndim == 2 ? new int[] {n, n} : new int[] {n, n, n};
        String label = "acoustic " + ndim + "-D " + n + (ndim == 2 ? "^2" : "^3");
        double[] dwf = new double[repeats];
        double[] dwg = new double[repeats];
        double[] swf = new double[repeats];
        double[] swg = new double[repeats];
        session(exe, c -> {
            Benchmark.GradientProblem g = Benchmark.gradientProblem(sweep.equation.Equations.named("acoustic"), shape,
                    8, abcn, 1, steps, Map.of());
            try (Propagator p = new Propagator(g.spec())) {
                long until = System.nanoTime() + warmupNanos;
                int k = 0;
                do { // warm-up: JIT compilation, first touch of the solver's arrays; at least two pairs
                    g.forward(p);
                    g.gradient(p);
                } while (++k < 2 || System.nanoTime() < until);
                for (int r = 0; r < repeats; r++) {
                    dwf[r] = c.send("run")[0];
                    dwg[r] = c.send("grad")[0];
                    long t0 = System.nanoTime();
                    g.forward(p);
                    long t1 = System.nanoTime();
                    g.gradient(p);
                    swf[r] = (t1 - t0) * 1e-9;
                    swg[r] = (System.nanoTime() - t1) * 1e-9;
                }
            }
        }, Integer.toString(n), Integer.toString(abcn), Integer.toString(steps), "1", "1", "grad");
        GradientRow row = new GradientRow(label, dwf, dwg, swf, swg);
        log.printf("  %-22s threads=1  gradient s: Deepwave %s  sweep %s  speed sweep/Deepwave %s;"
                + " gradient/forward: Deepwave %s, sweep %s%n", label, secondsStats(dwg), secondsStats(swg),
                ratioStats(row.speedRatios()), ratioStats(row.deepwaveGradientPerForward()),
                ratioStats(row.sweepGradientPerForward()));
        return row;
    }

    /**
     * Starts the driver, with OpenMP's waiting threads asleep ({@code OMP_WAIT_POLICY=passive} unless the environment
     * sets it): under libgomp's default its threads spin for some 300 000 PAUSEs (about 8 ms here) after each run and
     * take a core from the sweep run that follows (under {@code active}, sweep's two-thread run fell to 0.53 of its
     * speed); Deepwave's own runs are as fast either way (docs/performance.md).
     */
    private static Process start(Path exe, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putIfAbsent("OMP_WAIT_POLICY", "passive");
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        try {
            return pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + exe + ": " + e.getMessage());
        }
    }

    private static void finish(Process proc) {
        try {
            if (!proc.waitFor(30, TimeUnit.SECONDS)) {
                proc.destroy();
            }
        } catch (InterruptedException e) {
            proc.destroy();
            Thread.currentThread().interrupt();
        }
    }

    /** Sends one command word to the running driver and returns {wall-clock seconds, CPU seconds of its process}. */
    @FunctionalInterface
    private interface Commands {
        double[] send(String word) throws IOException;
    }

    /** The rounds of one comparison, run while the driver waits for commands. */
    @FunctionalInterface
    private interface Rounds {
        void run(Commands c) throws IOException;
    }

    /**
     * Starts the driver with {@code args}, waits for its "ready", runs {@code rounds} against it, then tells it to
     * quit; a lost driver becomes one message naming it, and the process is always waited for (or destroyed).
     */
    private static void session(Path exe, Rounds rounds, String... args) {
        Process proc = start(exe, args);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(proc.getInputStream(),
                StandardCharsets.US_ASCII));
             Writer out = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.US_ASCII)) {
            expect(in, "ready", exe, proc);
            rounds.run(word -> command(in, out, word, exe, proc));
            out.write("quit\n");
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException("lost the Deepwave driver " + exe + ": " + e.getMessage());
        } finally {
            finish(proc);
        }
    }

    /** One command of the driver ("run" or "grad"): {wall-clock seconds, CPU seconds of its process}. */
    private static double[] command(BufferedReader in, Writer out, String word, Path exe, Process proc)
            throws IOException {
        out.write(word + "\n");
        out.flush();
        String[] f = expect(in, "seconds", exe, proc).trim().split("\\s+");
        if (f.length < 4 || !f[2].equals("cpu")) {
            throw new IllegalStateException("the Deepwave driver " + exe.getFileName() + " answered '"
                    + String.join(" ", f) + "' instead of 'seconds W cpu C': rebuild it with bench/deepwave/build.sh");
        }
        return new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[3])};
    }

    private static String expect(BufferedReader in, String word, Path exe, Process proc) throws IOException {
        String line = in.readLine();
        if (line == null || !line.startsWith(word)) {
            String code = "";
            try {
                if (proc.waitFor(5, TimeUnit.SECONDS)) {
                    code = " (exit code " + proc.exitValue() + ")";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the Deepwave driver " + exe.getFileName() + " answered '" + line
                    + "' instead of '" + word + " ...'" + code + ": rebuild it with bench/deepwave/build.sh");
        }
        return line;
    }

    /** "median (min-max)" of the values. */
    public static String stats(double[] v) {
        return String.format("%.1f (%.1f-%.1f)", Benchmark.median(v), Benchmark.min(v), Benchmark.max(v));
    }

    /** "median (min-max)" of seconds, three decimals. */
    public static String secondsStats(double[] v) {
        return String.format("%.3f (%.3f-%.3f)", Benchmark.median(v), Benchmark.min(v), Benchmark.max(v));
    }

    /** "median (min-max)" of ratios, two decimals. */
    public static String ratioStats(double[] v) {
        return String.format("%.2f (%.2f-%.2f)", Benchmark.median(v), Benchmark.min(v), Benchmark.max(v));
    }
}
