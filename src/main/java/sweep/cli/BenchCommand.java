package sweep.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sweep.bench.Benchmark;

/** {@code sweep bench}: forward throughput (Mcells/s) per thread count against the measured bandwidth bound. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark the Java backend: 2-D 2000x2000 and 3-D 256^3, order 8, abcn 20.")
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--repeats", defaultValue = "5", description = "timed repeats per case, median reported (default ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--steps", defaultValue = "10", description = "time steps per repeat (default ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--threads", split = ",", description = "thread counts (default: 1 and all cores)")
    int[] threads;

    @Option(names = "--only", description = "run only the 2d or the 3d case")
    String only;

    @Option(names = "--order", defaultValue = "8", description = "spatial order (default ${DEFAULT-VALUE})")
    int order;

    @Option(names = "--gradient", description = "also time one gradient (boundary saving) against one forward run")
    boolean gradient;

    @Option(names = "--kernels", description = "per-kernel benchmark instead: each kernel on one thread, portable and CPU "
            + "variant alternating, --repeats timed repeats after 2 warm-ups")
    boolean kernels;

    @Override
    public Integer call() {
        int cores = Runtime.getRuntime().availableProcessors();
        int[] tc = threads != null ? threads : (cores > 1 ? new int[] {1, cores} : new int[] {1});
        if (only != null && !only.equals("2d") && !only.equals("3d")) {
            throw new IllegalArgumentException("--only must be 2d or 3d, got '" + only + "'");
        }
        Benchmark b = new Benchmark(repeats, steps, System.out);
        if (kernels) {
            double bw = b.triadBandwidth(1, 1 << 26);
            System.out.printf("sweep bench --kernels: order %d, triad bandwidth 1 thread %.1f GB/s -> bound %.0f Mcells/s "
                    + "at 16 B/cell%n", order, bw / 1e9, bw / 16 / 1e6);
            sweep.bench.KernelBenchmark kb = new sweep.bench.KernelBenchmark(repeats, 2, System.out);
            if (only == null || only.equals("2d")) {
                kb.run(2, 2000, 20, order, bw / 16 / 1e6);
            }
            if (only == null || only.equals("3d")) {
                kb.run(3, 256, 20, order, bw / 16 / 1e6);
            }
            return 0;
        }
        System.out.printf("sweep bench: %d repeats x %d steps, order %d, abcn 20, %d cores%n", repeats, steps, order, cores);
        double[] bound = new double[tc.length];
        for (int k = 0; k < tc.length; k++) {
            double bw = b.triadBandwidth(tc[k], 1 << 26);
            bound[k] = bw / 16 / 1e6;
            System.out.printf("  triad bandwidth threads=%d: %.1f GB/s -> bound %.0f Mcells/s at 16 B/cell%n",
                    tc[k], bw / 1e9, bound[k]);
        }
        List<Benchmark.Row> rows = new ArrayList<>();
        if (only == null || only.equals("2d")) {
            rows.addAll(b.propagator("2-D 2000x2000", new int[] {2000, 2000}, order, 20, tc, bound));
        }
        if (only == null || only.equals("3d")) {
            rows.addAll(b.propagator("3-D 256^3", new int[] {256, 256, 256}, order, 20, tc, bound));
        }
        if (gradient) {
            int t = tc[tc.length - 1];
            if (only == null || only.equals("2d")) {
                b.gradientRatio("2-D 2000x2000", new int[] {2000, 2000}, order, 20, t);
            }
            if (only == null || only.equals("3d")) {
                b.gradientRatio("3-D 256^3", new int[] {256, 256, 256}, order, 20, t);
            }
        }
        System.out.println();
        System.out.printf("%-16s %7s %12s %21s %14s %7s%n", "case", "threads", "Mcells/s", "min-max", "bound Mcells/s",
                "ratio");
        for (Benchmark.Row r : rows) {
            System.out.printf("%-16s %7d %12.1f %10.1f-%-10.1f %14.0f %7.3f%n", r.label(), r.threads(), r.median(),
                    r.min(), r.max(), r.boundMcells(), r.ratio());
        }
        return 0;
    }
}
