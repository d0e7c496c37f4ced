package sweep.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import sweep.acoustic.AcousticKernelSet;
import sweep.acoustic.AcousticVectorAdjointKernels3D;
import sweep.acoustic.AcousticVectorKernels3D;
import sweep.backend.CpuKernels;
import sweep.core.Box;
import sweep.kernels.Layout;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.spi.GridView;

/**
 * Per-kernel benchmark on one thread: each forward and adjoint kernel, portable ({@code sweep.kernels}) and CPU
 * variant ({@code sweep.backend.Cpu*}), run over the boxes the propagator gives it (PML bands, interior box,
 * stencil-clear box and the rest) of a 2-D 2000² or 3-D 256³ grid with its PML pads, order 8 by default. The two
 * variants alternate within every repeat (A/B/A/B), after warm-up repeats, so that both see the same machine load;
 * each line gives the median and min–max Mcells/s (cells of the kernel's boxes / s), the CPU/portable ratio of the
 * medians, and the ratio to a 16-byte-per-cell triad bound measured in the same run. Warm-up runs both variants
 * for at least 0.5 s (JIT compilation); a timed sample repeats the kernel's sweep so that it lasts about 20 ms.
 */
public final class KernelBenchmark {
    /** One kernel on one box, from the given kernel set (portable or Vector API). */
    @FunctionalInterface
    private interface Kernel {
        void run(AcousticKernelSet set, Box b);
    }

    private final int repeats;
    private final int warmups;
    private final PrintStream log;
    /** The two kernel sets of the grid being run, timed against each other. */
    private AcousticKernelSet portable;
    private AcousticKernelSet vector;

    /**
     * A benchmark that times {@code repeats} samples per variant after at least {@code warmups} untimed rounds (and at
     * least 0.5 s of them), printing to {@code log}.
     */
    public KernelBenchmark(int repeats, int warmups, PrintStream log) {
        if (repeats < 1 || warmups < 0) {
            throw new IllegalArgumentException("repeats must be >= 1 and warm-ups >= 0, got " + repeats + " and "
                    + warmups);
        }
        this.repeats = repeats;
        this.warmups = warmups;
        this.log = log;
    }

    /**
     * Runs every kernel of a grid of {@code n}^ndim physical cells with {@code abcn} PML cells per side at the given
     * order, and prints one line per kernel; {@code boundMcells} is the bandwidth bound to print the ratio against.
     */
    public void run(int ndim, int n, int abcn, int order, double boundMcells) {
        if (!CpuKernels.vectorAvailable()) {
            throw new IllegalStateException("the CPU kernels need the jdk.incubator.vector module: run the JVM with "
                    + "--add-modules jdk.incubator.vector (the sweep launcher does)");
        }
        // the solver's own layout (padded rows, interior on a cache-line start) and weights
        int[] shape = ndim == 2 ? new int[] {n, n} : new int[] {n, n, n};
        Grid grid = Grid.single(PropSpec.builder(shape).dh(10).dt(1e-3).nt(1).order(order).abcn(abcn).build());
        int[] geo = grid.geo();
        float[] coef = grid.view().coef();
        int nc = n + 2 * abcn;
        long len = grid.length();
        // CPML-like profiles with the solver's zero pad after them (the CPU kernels' last x vector reads into it)
        float[] prof = new float[2 * (nc + geo[Layout.NY] + nc) + 16];
        Arrays.fill(prof, 0.95f);
        int base = 0;
        for (int m : new int[] {nc, geo[Layout.NY], nc}) {
            Arrays.fill(prof, base + m, base + 2 * m, -0.02f);
            base += 2 * m;
        }
        Arrays.fill(prof, base, prof.length, 0f);
        int l = (int) len;
        Random r = new Random(1);
        float[] u = rnd(r, l, 1f);
        float[] un = rnd(r, l, 1f);
        float[] v2 = rnd(r, l, 0.05f);
        float[] qb = rnd(r, l, 1f);
        float[] qp = rnd(r, l, 1f);
        float[] w = rnd(r, l, 1f);
        float[] grad = rnd(r, l, 1f);
        float[] a3 = rnd(r, grid.auxLength(), 1f);
        float[] b3 = rnd(r, grid.auxLength(), 1f);
        float[] c3 = rnd(r, grid.auxLength(), 1f);
        float[] scr = new float[Math.max(AcousticVectorKernels3D.scratchSize(geo),
                AcousticVectorAdjointKernels3D.scratchSize(geo))];

        portable = AcousticKernelSet.of(ndim, false);
        vector = AcousticKernelSet.of(ndim, true);
        GridView view = grid.view();
        List<Box> band = view.pmlBoxes();
        Box in = view.interiorBox();
        Box clear = view.stencilClearBox();
        List<Box> clearOuter = view.stencilClearOuter();
        boolean d2 = ndim == 2;
        String dims = d2 ? "2-D " + n + "^2" : "3-D " + n + "^3";
        log.printf("kernels %s + PML %d, order %d, one thread: Mcells/s median (min-max), portable vs CPU variant "
                + "alternating; bound %.0f Mcells/s%n", dims, abcn, order, boundMcells);
        log.printf("  %-34s %24s %24s %7s %7s%n", "kernel (boxes)", "portable", "cpu", "cpu/p", "cpu/bnd");
        time("fwd psi (PML bands)", band, boundMcells, (k, b) -> k.psi(u, a3, prof, coef, geo, b.z0(), b.z1(), b, scr));
        time("fwd pml update (PML bands)", band, boundMcells,
            (k, b) -> k.pml(u, un, v2, a3, b3, prof, coef, geo, b.z0(), b.z1(), b, scr));
        time("fwd interior (interior box)", List.of(in), boundMcells,
            (k, b) -> k.interior(u, un, v2, coef, geo, b.z0(), b.z1(), b, scr));
        // the rows outside the z and y bands, x bands included: portable psi + pml (x slabs) + interior against the
        // fused CPU pass the stepper runs (innerRows)
        Box rows = new Box(in.z0(), in.z1(), in.y0(), in.y1(), 0, nc);
        List<Box> xSlabs = List.of(new Box(rows.z0(), rows.z1(), rows.y0(), rows.y1(), 0, abcn),
                new Box(rows.z0(), rows.z1(), rows.y0(), rows.y1(), nc - abcn, nc));
        time("fwd inner rows (x bands + interior)", List.of(rows), boundMcells, (k, b) -> {
            if (k.vector()) {
                k.innerRows(u, un, v2, a3, b3, prof, coef, geo, b.z0(), b.z1(), b, scr);
                return;
            }
            for (Box x : xSlabs) {
                k.psi(u, a3, prof, coef, geo, x.z0(), x.z1(), x, scr);
            }
            for (Box x : xSlabs) {
                k.pml(u, un, v2, a3, b3, prof, coef, geo, x.z0(), x.z1(), x, scr);
            }
            k.interior(u, un, v2, coef, geo, in.z0(), in.z1(), in, scr);
        });
        time("adj rebuildScale (interior box)", List.of(in), boundMcells,
            (k, b) -> k.rebuildScale(u, un, v2, qb, w, grad, coef, geo, 1, b.z0(), b.z1(), b, scr));
        time("adj scale (PML bands)", band, boundMcells,
            (k, b) -> k.scale(qb, v2, w, grad, un, geo, b.z0(), b.z1(), b));
        time("adj pmlZeta (PML bands)", band, boundMcells,
            (k, b) -> k.pmlZeta(w, c3, a3, prof, geo, b.z0(), b.z1(), b));
        time("adj pmlPsi (PML bands)", band, boundMcells,
            (k, b) -> k.pmlPsi(w, a3, c3, b3, prof, coef, geo, b.z0(), b.z1(), b, scr));
        time("adj interior λ (stencil-clear box)", List.of(clear), boundMcells,
            (k, b) -> k.adjointInterior(qp, qb, w, coef, geo, b.z0(), b.z1(), b, scr));
        time("adj general λ (rest)", clearOuter, boundMcells,
            (k, b) -> k.adjointGeneral(qp, qb, w, a3, b3, coef, geo, b.z0(), b.z1(), b, scr));
    }

    private void time(String name, List<Box> boxes, double bound, Kernel k) {
        long cells = Box.volume(boxes);
        // warm-up: both variants alternately for at least `warmups` rounds and 0.5 s (JIT compilation), which also
        // sizes a sample: enough sweeps that one takes about 20 ms
        int inner = 1;
        long t0 = System.nanoTime();
        for (int rep = 0; rep < warmups || System.nanoTime() - t0 < 500_000_000L; rep++) {
            long a = System.nanoTime();
            sweep(k, boxes, portable, 1);
            sweep(k, boxes, vector, 1);
            long per = Math.max(1, (System.nanoTime() - a) / 2);
            inner = (int) Math.max(1, Math.min(1000, 20_000_000L / per));
        }
        double[] p = new double[repeats];
        double[] c = new double[repeats];
        for (int rep = 0; rep < repeats; rep++) {
            for (int v = 0; v < 2; v++) {
                boolean cpu = v == 1;
                long a = System.nanoTime();
                sweep(k, boxes, cpu ? vector : portable, inner);
                (cpu ? c : p)[rep] = cells * (double) inner / ((System.nanoTime() - a) * 1e-9) / 1e6;
            }
        }
        double mp = Benchmark.median(p);
        double mcpu = Benchmark.median(c);
        log.printf("  %-34s %8.1f (%6.1f-%6.1f) %8.1f (%6.1f-%6.1f) %7.2f %7.3f%n", name, mp, Benchmark.min(p),
                Benchmark.max(p), mcpu, Benchmark.min(c), Benchmark.max(c), mcpu / mp, mcpu / bound);
    }

    private static void sweep(Kernel k, List<Box> boxes, AcousticKernelSet set, int times) {
        for (int t = 0; t < times; t++) {
            for (Box b : boxes) {
                k.run(set, b);
            }
        }
    }

    private static float[] rnd(Random r, int n, float scale) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = scale * (r.nextFloat() - 0.5f);
        }
        return a;
    }
}
