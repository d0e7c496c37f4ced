package sweep.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.backend.JavaBackend;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * End-to-end throughput benchmark of the Java backend: time steps of the forward propagator in Mcells/s (cells × steps
 * / s, PML cells counted) for several thread counts, against a memory-bandwidth bound measured in the same run by a
 * triad over large arrays (16 bytes moved per cell update). Figures are medians over repeats after a warm-up.
 */
public final class Benchmark {
    /** One measured configuration. */
    public record Row(String label, int threads, double median, double min, double max, double boundMcells) {
        public double ratio() {
            return median / boundMcells;
        }
    }

    private final int repeats;
    private final int steps;
    private final PrintStream log;

    public Benchmark(int repeats, int steps, PrintStream log) {
        if (repeats < 1 || steps < 1) {
            throw new IllegalArgumentException("repeats and steps must be >= 1, got " + repeats + " and " + steps);
        }
        this.repeats = repeats;
        this.steps = steps;
        this.log = log;
    }

    /** Triad bandwidth a = b + s·c over arrays of {@code n} floats, bytes/s (12 bytes per element), median of repeats. */
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

    /** Measures the propagator on a homogeneous model of {@code shape} for each thread count. */
    public List<Row> propagator(String label, int[] shape, int order, int abcn, int[] threadCounts, double[] boundMcells) {
        List<Row> rows = new ArrayList<>();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Arrays.fill(vp, 2500f);
        for (int k = 0; k < threadCounts.length; k++) {
            PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(steps).order(order).abcn(abcn)
                    .threads(threadCounts[k]).build();
            double[] mc = new double[repeats];
            try (Propagator p = new Propagator(spec)) {
                p.timeSteps(vp, steps); // warm-up: JIT compilation and first touch of the arrays
                log.printf("  %-28s on %s%n", label, p.backendDescription());
                for (int r = 0; r < repeats; r++) {
                    mc[r] = p.cellsPerStep() * (double) steps / p.timeSteps(vp, steps) / 1e6;
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

    /** Bytes one elastic cell update moves at least (fields read and written, parameters read): 80 (2-D), 140 (3-D). */
    public static int elasticBytesPerCell(int ndim) {
        // 2-D: velocity step reads 3 stresses and 2 buoyancies, updates 2 velocities (36 B); stress step reads 2
        // velocities and 3 moduli, updates 3 stresses (44 B). 3-D: 6 + 3 + 2·3 = 15 floats and 3 + 5 + 2·6 = 20 floats.
        return ndim == 2 ? 80 : 140;
    }

    /**
     * A homogeneous elastic model (vp 2500 m/s, vs 1400 m/s, rho 2000 kg/m³) of {@code cells} cells, parameter-major
     * (vp, vs, rho one after the other).
     */
    public static float[] elasticModel(int cells) {
        float[] m = new float[3 * cells];
        Arrays.fill(m, 0, cells, 2500f);
        Arrays.fill(m, cells, 2 * cells, 1400f);
        Arrays.fill(m, 2 * cells, 3 * cells, 2000f);
        return m;
    }

    /** The elastic benchmark problem: {@code shape}, 10 m cells, dt 1 ms, {@code steps} steps, order, PML width. */
    public static PropSpec elasticSpec(int[] shape, int order, int abcn, int steps, int threads, Storage storage) {
        return PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(steps).order(order)
                .abcn(abcn).threads(threads).storage(storage).build();
    }

    /**
     * Measures the elastic forward step (one explosive shot at the centre, {@link Propagator#timeSteps}) on the
     * homogeneous model of {@link #elasticModel} for each thread count.
     */
    public List<Row> elastic(String label, int[] shape, int order, int abcn, int[] threadCounts, double[] boundMcells) {
        List<Row> rows = new ArrayList<>();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] model = elasticModel(cells);
        for (int k = 0; k < threadCounts.length; k++) {
            PropSpec spec = elasticSpec(shape, order, abcn, steps, threadCounts[k], Storage.BOUNDARY_SAVING);
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
     * Time of one elastic gradient (forward with boundary saving, misfit, adjoint run) over the time of one forward-only
     * run, same problem ({@code steps} steps, one explosive shot, a line of receivers recording p, vx, vz), medians
     * over the repeats; prints the per-repeat range.
     */
    public double elasticGradientRatio(String label, int[] shape, int order, int abcn, int threads) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] model = elasticModel(cells);
        int nd = shape.length;
        PropSpec spec = elasticSpec(shape, order, abcn, steps, threads, Storage.BOUNDARY_SAVING).toBuilder()
                .sourceType("explosive").recordFields(nd == 2 ? "p,vx,vz" : "p,vx,vy,vz").build();
        int nx = shape[nd - 1];
        int[][] rec = new int[Math.max(1, nx / 10)][];
        for (int r = 0; r < rec.length; r++) {
            rec[r] = nd == 2 ? new int[] {10 * r, 2} : new int[] {10 * r, shape[1] / 2, 2};
        }
        int[][][] src = {{nd == 2 ? new int[] {nx / 2, 2} : new int[] {nx / 2, shape[1] / 2, 2}}};
        float[] w = sweep.core.Wavelets.ricker(10, steps, 1e-3);
        double[] tf = new double[repeats];
        double[] tg = new double[repeats];
        try (Propagator p = new Propagator(spec)) {
            float[] obs = new float[steps * rec.length * spec.nfield()];
            int[][][] recs = {rec};
            for (int r = 0; r < 2; r++) { // warm-up: JIT compilation, first touch of the solver's arrays
                p.forward(w, src, recs, model);
                p.forwardAndGradient(w, src, recs, model, obs, sweep.prop.Misfit.L2);
            }
            for (int r = 0; r < repeats; r++) {
                long t0 = System.nanoTime();
                p.forward(w, src, recs, model);
                long t1 = System.nanoTime();
                p.forwardAndGradient(w, src, recs, model, obs, sweep.prop.Misfit.L2);
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
        log.printf("  %-28s elastic threads=%d  forward %.3f s, gradient (boundary saving) %.3f s: ratio %.2f (per repeat"
                + " %.2f-%.2f)%n", label, threads, median(tf), median(tg), ratio, min(rr), max(rr));
        return ratio;
    }

    /**
     * The acoustic gradient benchmark problem: a homogeneous model (vp 2500 m/s, 10 m cells, dt 1 ms), {@code steps}
     * steps, one shot with a Ricker source (10 Hz) at x = nx/2 (3-D: y = ny/2), z = 2, receivers at x = 0, 10, 20, ...
     * at z = 2 (3-D: y = ny/2), boundary saving, and zero observed data (the residual is the record itself). The
     * Deepwave driver's {@code grad} mode ({@code bench/deepwave/dw_driver.c}) sets up the same problem.
     */
    record GradientProblem(PropSpec spec, float[] vp, int[][][] sources, int[][][] receivers, float[] wavelet,
                           float[] observed) {
        /** One forward run (records at the receivers, no gradient tape). */
        void forward(Propagator p) {
            p.forward(wavelet, sources, receivers, vp);
        }

        /** One gradient: forward with boundary saving, L2 misfit against the observed data, adjoint run. */
        sweep.prop.Gradient gradient(Propagator p) {
            return p.forwardAndGradient(wavelet, sources, receivers, vp, observed, sweep.prop.Misfit.L2);
        }
    }

    /** The gradient benchmark problem on {@code shape} (z first), see {@link GradientProblem}. */
    static GradientProblem gradientProblem(int[] shape, int order, int abcn, int threads, int steps) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Arrays.fill(vp, 2500f);
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(steps).order(order).abcn(abcn).threads(threads)
                .storage(sweep.prop.Storage.BOUNDARY_SAVING).build();
        int nd = shape.length;
        int nx = shape[nd - 1];
        int[][] rec = new int[nx / 10][];
        for (int r = 0; r < rec.length; r++) {
            rec[r] = nd == 2 ? new int[] {10 * r, 2} : new int[] {10 * r, shape[1] / 2, 2};
        }
        int[][][] src = {{nd == 2 ? new int[] {nx / 2, 2} : new int[] {nx / 2, shape[1] / 2, 2}}};
        float[] w = sweep.core.Wavelets.ricker(10, steps, 1e-3);
        return new GradientProblem(spec, vp, src, new int[][][] {rec}, w, new float[steps * rec.length]);
    }

    /**
     * Time of one gradient (forward with boundary saving, misfit, adjoint run) over the time of one forward-only run,
     * same problem ({@code steps} steps, one shot, a line of receivers: {@link GradientProblem}), medians over the
     * repeats.
     */
    public double gradientRatio(String label, int[] shape, int order, int abcn, int threads) {
        GradientProblem g = gradientProblem(shape, order, abcn, threads, steps);
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
        log.printf("  %-28s threads=%d  forward %.3f s, gradient (boundary saving) %.3f s: ratio %.2f (per repeat "
                + "%.2f-%.2f)%n", label, threads, median(tf), median(tg), ratio, min(rr), max(rr));
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
