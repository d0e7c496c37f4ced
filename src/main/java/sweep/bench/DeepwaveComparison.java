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
import java.util.concurrent.TimeUnit;
import sweep.prop.ElasticModel;
import sweep.prop.ElasticPropagator;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * Same-run comparison with Deepwave's C kernels: runs sweep-java's forward step and the benchmark drivers of
 * {@code bench/deepwave} (built against a Deepwave checkout by {@code bench/deepwave/build.sh}, outside the repository)
 * on the same problem, interleaved round by round (Deepwave, sweep, Deepwave, sweep, ...), each warmed up first.
 * Deepwave parallelises over shots, so its T-thread figure is T shots on T threads; sweep runs one shot on T threads.
 * Throughput is cells × steps / s with the PML cells counted, (n + 2·abcn)^ndim cells per shot and step for both.
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

        private static double[] ratios(double[] a, double[] b) {
            double[] r = new double[a.length];
            for (int k = 0; k < r.length; k++) {
                r[k] = a[k] / b[k];
            }
            return r;
        }
    }

    /** Warm-up of each sweep configuration before its first timed round, at least one call. */
    private static final long WARMUP_NANOS = 3_000_000_000L;

    private final Path dir;
    private final int repeats;
    private final int steps;
    private final PrintStream log;

    /** A comparison against the drivers in {@code dir}, {@code repeats} rounds of {@code steps} steps each. */
    public DeepwaveComparison(Path dir, int repeats, int steps, PrintStream log) {
        if (repeats < 1 || steps < 1) {
            throw new IllegalArgumentException("repeats and steps must be >= 1, got " + repeats + " and " + steps);
        }
        this.dir = dir;
        this.repeats = repeats;
        this.steps = steps;
        this.log = log;
    }

    /** The driver executable for an equation ("scalar" or "elastic") and dimension, checked to exist. */
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
     * Compares the acoustic ({@code elastic} false: Deepwave's scalar kernel) or elastic forward step on a cube or
     * square of {@code n} cells per axis, {@code abcn} PML cells per side, order 8, for each thread count.
     */
    public List<Row> run(boolean elastic, int ndim, int n, int abcn, int[] threadCounts) {
        Path exe = driver(elastic ? "elastic" : "scalar", ndim);
        int[] shape = ndim == 2 ? new int[] {n, n} : new int[] {n, n, n};
        String label = (elastic ? "elastic " : "acoustic ") + ndim + "-D " + n + (ndim == 2 ? "^2" : "^3");
        List<Row> rows = new ArrayList<>();
        for (int t : threadCounts) {
            rows.add(compare(exe, label, shape, elastic, abcn, t));
        }
        return rows;
    }

    private Row compare(Path exe, String label, int[] shape, boolean elastic, int abcn, int threads) {
        int cells = 1;
        double cellsPerStep = 1;
        for (int s : shape) {
            cells *= s;
            cellsPerStep *= s + 2.0 * abcn;
        }
        double[] dw = new double[repeats];
        double[] sw = new double[repeats];
        double[] dwc = new double[repeats];
        double[] swc = new double[repeats];
        double work = cellsPerStep * steps / 1e6;
        ProcessBuilder pb = new ProcessBuilder(exe.toString(), Integer.toString(shape[0]), Integer.toString(abcn),
                Integer.toString(steps), Integer.toString(threads), Integer.toString(threads));
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process proc;
        try {
            proc = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + exe + ": " + e.getMessage());
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(proc.getInputStream(),
                StandardCharsets.US_ASCII));
             Writer out = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.US_ASCII)) {
            expect(in, "ready", exe, proc);
            if (elastic) {
                ElasticModel model = Benchmark.elasticModel(cells);
                PropSpec spec = Benchmark.elasticSpec(shape, 8, abcn, steps, threads, Storage.BOUNDARY_SAVING);
                try (ElasticPropagator p = new ElasticPropagator(spec)) {
                    long until = System.nanoTime() + WARMUP_NANOS;
                    do { // warm-up: JIT compilation (C2 in the background) and first touch of the arrays
                        p.timeSteps(model, steps);
                    } while (System.nanoTime() < until);
                    for (int r = 0; r < repeats; r++) {
                        double[] d = runDeepwave(in, out, exe, proc);
                        dw[r] = threads * work / d[0];
                        dwc[r] = threads == 1 ? work / d[1] : Double.NaN;
                        sw[r] = work / p.timeSteps(model, steps);
                        swc[r] = threads == 1 ? work / p.lastStepsCpuSeconds() : Double.NaN;
                    }
                }
            } else {
                float[] vp = new float[cells];
                Arrays.fill(vp, 2500f);
                PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(steps).order(8).abcn(abcn)
                        .threads(threads).build();
                try (Propagator p = new Propagator(spec)) {
                    long until = System.nanoTime() + WARMUP_NANOS;
                    do { // warm-up: JIT compilation (C2 in the background) and first touch of the arrays
                        p.timeSteps(vp, steps);
                    } while (System.nanoTime() < until);
                    for (int r = 0; r < repeats; r++) {
                        double[] d = runDeepwave(in, out, exe, proc);
                        dw[r] = threads * work / d[0];
                        dwc[r] = threads == 1 ? work / d[1] : Double.NaN;
                        sw[r] = work / p.timeSteps(vp, steps);
                        swc[r] = threads == 1 ? work / p.lastStepsCpuSeconds() : Double.NaN;
                    }
                }
            }
            out.write("quit\n");
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException("lost the Deepwave driver " + exe + ": " + e.getMessage());
        } finally {
            try {
                if (!proc.waitFor(30, TimeUnit.SECONDS)) {
                    proc.destroy();
                }
            } catch (InterruptedException e) {
                proc.destroy();
                Thread.currentThread().interrupt();
            }
        }
        Row row = new Row(label, threads, dw, sw, dwc, swc);
        log.printf("  %-22s threads=%d  Deepwave %s  sweep %s  sweep/Deepwave %s%s%n", label, threads, stats(dw),
                stats(sw), ratioStats(row.ratios()), threads == 1 ? "; per CPU second: Deepwave " + stats(dwc)
                        + ", sweep " + stats(swc) + ", ratio " + ratioStats(row.cpuRatios()) : "");
        return row;
    }

    /** One round of the driver: {wall-clock seconds, CPU seconds of its process}. */
    private static double[] runDeepwave(BufferedReader in, Writer out, Path exe, Process proc) throws IOException {
        out.write("run\n");
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

    /** "median (min-max)" of ratios, two decimals. */
    public static String ratioStats(double[] v) {
        return String.format("%.2f (%.2f-%.2f)", Benchmark.median(v), Benchmark.min(v), Benchmark.max(v));
    }
}
