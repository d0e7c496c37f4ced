package sweep.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import sweep.backend.JavaBackend;
import sweep.equation.WaveEquation;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * End-to-end throughput benchmark of any installed equation: time steps of the forward propagator in Mcells/s (cells ×
 * steps / s, PML cells counted) for several thread counts, against a memory-bandwidth bound measured in the same run by
 * a triad over large arrays (the equation's {@link WaveEquation#bytesPerCellUpdate} moved per cell update), and the
 * time of a gradient over a forward run. Figures are medians over repeats after a warm-up.
 */
public final class Benchmark {
    /** One measured configuration. */
    public record Row(String label, int threads, double median, double min, double max, double boundMcells) {
        public double ratio() {
            return median / boundMcells;
        }
    }

    /** The peak frequency the benchmark problems' settings derive from, Hz (their sources are an impulse). */
    public static final double PEAK_HZ = 10;

    private final int repeats;
    private final int steps;
    private final PrintStream log;
    /** The equation settings of the measured runs (the rest: defaults, or derived from {@link #PEAK_HZ}). */
    private Map<String, String> settings = Map.of();
    /** The storage of the timed gradients (null: the equation's default). */
    private Storage storage;

    public Benchmark(int repeats, int steps, PrintStream log) {
        if (repeats < 1 || steps < 1) {
            throw new IllegalArgumentException("repeats and steps must be >= 1, got " + repeats + " and " + steps);
        }
        this.repeats = repeats;
        this.steps = steps;
        this.log = log;
    }

    /** The equation settings of the runs measured from now on (e.g. "mechanisms" = "1"), checked when a run is built. */
    public Benchmark settings(Map<String, String> s) {
        this.settings = s == null ? Map.of() : Map.copyOf(s);
        return this;
    }

    /** The storage of the gradients timed from now on ({@link #gradientRatio}); null: the equation's default. */
    public Benchmark storage(Storage s) {
        this.storage = s;
        return this;
    }

    /**
     * Triad bandwidth a = b + s·c over arrays of {@code n} floats, bytes/s (12 bytes per element), median of repeats.
     */
    public double triadBandwidth(int threads, int n) {
        float[] a = new float[n];
        float[] b = new float[n];
        float[] c = new float[n];
        Arrays.fill(b, 1f);
        Arrays.fill(c, 2f);
        double[] t = new double[repeats + 1];
        try (JavaBackend be = new JavaBackend(threads)) {
            for (int r = 0; r <= repeats; r++) {
                long t0 = System.nanoTime();
                be.parallelFor(0, n, (lo, hi) -> {
                    for (int i = lo; i < hi; i++) {
                        a[i] = b[i] + 3f * c[i];
                    }
                });
                t[r] = (System.nanoTime() - t0) * 1e-9;
            }
        }
        double med = median(Arrays.copyOfRange(t, 1, t.length));
        return 12.0 * n / med;
    }

    /**
     * The benchmark problem of {@code eq} on {@code shape}: 10 m cells, dt 1 ms, {@code steps} steps, the given order
     * and PML width, the equation's default source type, recorded fields and storage (boundary saving but for an
     * equation without it), the settings given and the others derived from {@link #PEAK_HZ}.
     */
    public static PropSpec spec(WaveEquation eq, int[] shape, int order, int abcn, int steps, int threads,
                                Map<String, String> settings) {
        PropSpec.Builder b = PropSpec.builder(shape).equation(eq).dh(10).dt(1e-3).nt(steps).order(order).abcn(abcn)
                .threads(threads);
        settings.forEach(b::setting);
        return b.settingsFromPeakFrequency(PEAK_HZ).build();
    }

    /**
     * Measures the forward step of {@code eq} ({@link Propagator#timeSteps}: one source at the centre, no receivers)
     * on the equation's homogeneous {@link WaveEquation#benchmarkModel} of {@code shape} for each thread count, after a
     * warm-up of 3 s (JIT compilation, first touch of the arrays).
     */
    public List<Row> forward(WaveEquation eq, String label, int[] shape, int order, int abcn, int[] threadCounts,
                             double[] boundMcells) {
        List<Row> rows = new ArrayList<>();
        float[] model = model(eq, shape);
        for (int k = 0; k < threadCounts.length; k++) {
            PropSpec spec = spec(eq, shape, order, abcn, steps, threadCounts[k], settings);
            double[] mc = new double[repeats];
            try (Propagator p = new Propagator(spec)) {
                long until = System.nanoTime() + 3_000_000_000L;
                do { // warm-up: JIT compilation (C2 in the background) and first touch of the arrays
                    p.timeSteps(model, steps);
                } while (System.nanoTime() < until);
                log.printf("  %-28s on %s%n", label, p.backendDescription());
                for (int r = 0; r < repeats; r++) {
                    mc[r] = p.cellsPerStep() * (double) steps / p.timeSteps(model, steps) / 1e6;
                }
                if (!Double.isNaN(p.lastTransferSeconds())) {
                    log.printf("  %-28s steady steps only: the shot's uploads, first step and downloads took %.3f s"
                            + " more%n", label, p.lastTransferSeconds());
                }
            }
            double[] sorted = mc.clone();
            Arrays.sort(sorted);
            Row row = new Row(label, threadCounts[k], median(mc), sorted[0], sorted[sorted.length - 1], boundMcells[k]);
            log.printf("  %-28s threads=%d  %8.1f Mcells/s (min %.1f, max %.1f)%n", label, row.threads(), row.median(),
                    row.min(), row.max());
            rows.add(row);
        }
        return rows;
    }

    /**
     * Measures Born modelling of {@code eq} ({@link BornProblem}: one shot, the background and the scattered field
     * advanced together) on {@code shape} for each thread count, after a warm-up of 3 s; Mcells/s counts the cells of
     * the grid once per step, as {@link #forward} does.
     */
    public List<Row> born(WaveEquation eq, String label, int[] shape, int order, int abcn, int[] threadCounts,
                          double[] boundMcells) {
        eq.requireBornOperator("sweep bench --born");
        List<Row> rows = new ArrayList<>();
        for (int k = 0; k < threadCounts.length; k++) {
            BornProblem b = bornProblem(eq, shape, order, abcn, threadCounts[k], steps, settings);
            double[] mc = new double[repeats];
            try (Propagator p = new Propagator(b.spec())) {
                long until = System.nanoTime() + 3_000_000_000L;
                do { // warm-up: JIT compilation (C2 in the background) and first touch of the arrays
                    b.time(p);
                } while (System.nanoTime() < until);
                log.printf("  %-28s Born on %s%n", label, p.backendDescription());
                for (int r = 0; r < repeats; r++) {
                    mc[r] = p.cellsPerStep() * (double) steps / b.time(p)[0] / 1e6;
                }
            }
            double[] sorted = mc.clone();
            Arrays.sort(sorted);
            Row row = new Row(label, threadCounts[k], median(mc), sorted[0], sorted[sorted.length - 1], boundMcells[k]);
            log.printf("  %-28s threads=%d  Born %8.1f Mcells/s (min %.1f, max %.1f)%n", label, row.threads(),
                    row.median(), row.min(), row.max());
            rows.add(row);
        }
        return rows;
    }

    /**
     * The least memory traffic of one Born cell update, bytes: two of the equation's updates (background and scattered
     * field) and the secondary source between them (a term written and read, the model perturbation read).
     */
    public static int bornBytesPerCellUpdate(WaveEquation eq, int ndim) {
        return 2 * eq.bytesPerCellUpdate(ndim) + 12;
    }

    /**
     * The Born benchmark problem of an equation: its homogeneous {@link WaveEquation#benchmarkModel} with a
     * perturbation of 4 % of it everywhere, {@code steps} steps, one shot with a Ricker source (10 Hz) at the centre
     * and one receiver beside it. Deepwave's Born driver ({@code bench/deepwave}, {@code dw_scalar_born}) sets up the
     * same problem.
     */
    record BornProblem(PropSpec spec, float[] model, float[] perturbation, int[][][] sources, int[][][] receivers,
                       float[] wavelet) {
        /** One Born run: {wall-clock seconds, CPU seconds of the calling thread (NaN when not measured)}. */
        double[] time(Propagator p) {
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            p.born(wavelet, sources, receivers, model, perturbation);
            double sec = (System.nanoTime() - t0) * 1e-9;
            long c1 = mx.getCurrentThreadCpuTime();
            return new double[] {sec, c0 < 0 || c1 < 0 ? Double.NaN : (c1 - c0) * 1e-9};
        }
    }

    /** The Born benchmark problem of {@code eq} on {@code shape} (z first), see {@link BornProblem}. */
    static BornProblem bornProblem(WaveEquation eq, int[] shape, int order, int abcn, int threads, int steps,
                                   Map<String, String> settings) {
        float[] model = model(eq, shape);
        float[] dm = new float[model.length];
        for (int i = 0; i < dm.length; i++) {
            dm[i] = 0.04f * model[i];
        }
        PropSpec spec = spec(eq, shape, order, abcn, steps, threads, settings);
        int nd = shape.length;
        int[] c = nd == 2 ? new int[] {shape[1] / 2, shape[0] / 2} : new int[] {shape[2] / 2, shape[1] / 2,
                shape[0] / 2};
        int[] r = c.clone();
        r[0] = Math.min(r[0] + 1, shape[nd - 1] - 1);
        return new BornProblem(spec, model, dm, new int[][][] {{c}}, new int[][][] {{r}},
                sweep.core.Wavelets.ricker(PEAK_HZ, steps, 1e-3));
    }

    /**
     * The gradient benchmark problem of an equation: its homogeneous {@link WaveEquation#benchmarkModel} (10 m cells,
     * dt 1 ms), {@code steps} steps, one shot with a Ricker source (10 Hz) at x = nx/2 (3-D: y = ny/2), z = 2,
     * receivers at x = 0, 10, 20, ... at z = 2 (3-D: y = ny/2) recording the default fields, the equation's default
     * storage (boundary saving for acoustic), and zero
     * observed data (the residual is the record itself). For acoustic, the Deepwave driver's {@code grad} mode
     * ({@code bench/deepwave/dw_driver.c}) sets up the same problem.
     */
    record GradientProblem(PropSpec spec, float[] model, int[][][] sources, int[][][] receivers, float[] wavelet,
                           float[] observed) {
        /** One forward run (records at the receivers, no gradient tape). */
        void forward(Propagator p) {
            p.forward(wavelet, sources, receivers, model);
        }

        /** One gradient: forward with the spec's storage, L2 misfit against the observed data, adjoint run. */
        sweep.prop.Gradient gradient(Propagator p) {
            return p.forwardAndGradient(wavelet, sources, receivers, model, observed, sweep.prop.Misfit.L2);
        }
    }

    /**
     * The equation's homogeneous benchmark model of {@code shape}; refuses a shape whose model does not fit a Java
     * array (a clear error, where the array size would overflow).
     */
    private static float[] model(WaveEquation named, int[] shape) {
        WaveEquation eq = named.inDimensions(shape.length);
        long cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        if (cells * eq.parameterCount() > MemoryEstimate.MAX_ARRAY) {
            throw new IllegalArgumentException(shape.length + "-D " + Arrays.toString(shape) + ": " + cells
                    + " cells of " + eq.parameterCount() + " parameter(s) do not fit a Java array: choose a smaller"
                    + " --size");
        }
        return eq.benchmarkModel((int) cells);
    }

    /** The gradient benchmark problem of {@code eq} on {@code shape} (z first), see {@link GradientProblem}. */
    static GradientProblem gradientProblem(WaveEquation eq, int[] shape, int order, int abcn, int threads, int steps,
                                           Map<String, String> settings) {
        float[] model = model(eq, shape);
        PropSpec spec = spec(eq, shape, order, abcn, steps, threads, settings);
        int nd = shape.length;
        int nx = shape[nd - 1];
        int[][] rec = new int[nx / 10][];
        for (int r = 0; r < rec.length; r++) {
            rec[r] = nd == 2 ? new int[] {10 * r, 2} : new int[] {10 * r, shape[1] / 2, 2};
        }
        int[][][] src = {{nd == 2 ? new int[] {nx / 2, 2} : new int[] {nx / 2, shape[1] / 2, 2}}};
        float[] w = sweep.core.Wavelets.ricker(10, steps, 1e-3);
        float[] observed = new float[steps * rec.length * spec.nfield()];
        return new GradientProblem(spec, model, src, new int[][][] {rec}, w, observed);
    }

    /**
     * Time of one gradient of {@code eq} (forward with the storage set by {@link #storage}, else the equation's default;
     * misfit; adjoint run) over the time of one forward-only run, same problem ({@code steps} steps, one shot, a line of receivers: {@link GradientProblem}),
     * medians over the repeats.
     */
    public double gradientRatio(WaveEquation eq, String label, int[] shape, int order, int abcn, int threads) {
        GradientProblem g = gradientProblem(eq, shape, order, abcn, threads, steps, settings);
        if (storage != null) {
            g = new GradientProblem(g.spec().toBuilder().storage(storage).build(), g.model(), g.sources(),
                    g.receivers(), g.wavelet(), g.observed());
        }
        String kept = g.spec().storage().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        double[] tf = new double[repeats];
        double[] tg = new double[repeats];
        try (Propagator p = new Propagator(g.spec())) {
            for (int r = 0; r < 2; r++) { // warm-up: JIT compilation, first-touch of the solver's arrays
                g.forward(p);
                g.gradient(p);
            }
            for (int r = 0; r < repeats; r++) {
                long t0 = System.nanoTime();
                g.forward(p);
                long t1 = System.nanoTime();
                g.gradient(p);
                long t2 = System.nanoTime();
                tf[r] = (t1 - t0) * 1e-9;
                tg[r] = (t2 - t1) * 1e-9;
            }
        }
        double ratio = median(tg) / median(tf);
        double[] rr = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            rr[r] = tg[r] / tf[r];
        }
        log.printf("  %-28s %s threads=%d  forward %.3f s, gradient (%s) %.3f s: ratio %.2f (per repeat %.2f-%.2f)%n",
                label, eq.name(), threads, median(tf), kept, median(tg), ratio, min(rr), max(rr));
        return ratio;
    }

    /** Smallest of the values (NaN when there are none). */
    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    /** Largest of the values (NaN when there are none). */
    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }

    /** Median of the values (mean of the middle two for an even count). */
    public static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
}
