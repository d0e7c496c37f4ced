package sweep.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.bench.Benchmark;
import sweep.prop.Backends;

/** {@code sweep bench}: forward throughput (Mcells/s) per thread count against the measured bandwidth bound. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark the forward propagator (Java backend or TornadoVM device): 2-D 2000x2000 and 3-D 256^3,"
                + " order 8, abcn 20; Mcells/s and the ratio to the memory-bandwidth bound (16 bytes/cell).")
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

    @Option(names = "--bandwidth", description = "memory bandwidth of the device in GB/s for the bound (default: a triad"
            + " measured on the host, which is the device only on the Java backend)")
    Double bandwidth;

    @Option(names = "--size", description = "cells per axis of the cases (default: 2000 for 2-D, 256 for 3-D)", split = ",")
    int[] size;

    @Mixin
    BackendOptions backendOptions;

    @Option(names = "--kernels", description = "per-kernel benchmark instead: each kernel on one thread, portable and CPU "
            + "variant alternating, --repeats timed repeats after 2 warm-ups")
    boolean kernels;

    @Override
    public Integer call() throws Exception {
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    private Integer run() {
        int cores = Runtime.getRuntime().availableProcessors();
        int[] tc = threads != null ? threads : (cores > 1 ? new int[] {1, cores} : new int[] {1});
        if (only != null && !only.equals("2d") && !only.equals("3d")) {
            throw new IllegalArgumentException("--only must be 2d or 3d, got '" + only + "'");
        }
        if (bandwidth != null && !(bandwidth > 0)) {
            throw new IllegalArgumentException("--bandwidth must be > 0 GB/s, got " + bandwidth);
        }
        String backendName = System.getProperty(Backends.BACKEND);
        boolean device = "tornado".equals(backendName)
                || ("auto".equals(backendName) && Backends.tornadoUnavailable() == null);
        if (device && threads == null) {
            tc = new int[] {1}; // the Java threads do not matter on a device
        }
        int n2 = size != null ? size[0] : 2000;
        int n3 = size != null ? size[size.length - 1] : 256;
        int[] shape2 = {n2, n2};
        int[] shape3 = {n3, n3, n3};
        String label2 = "2-D " + n2 + "x" + n2;
        String label3 = "3-D " + n3 + "^3";
        Benchmark b = new Benchmark(repeats, steps, System.out);
        if (kernels) {
            double bw = b.triadBandwidth(1, 1 << 26);
            System.out.printf("sweep bench --kernels: order %d, triad bandwidth 1 thread %.1f GB/s -> bound %.0f Mcells/s "
                    + "at 16 B/cell%n", order, bw / 1e9, bw / 16 / 1e6);
            sweep.bench.KernelBenchmark kb = new sweep.bench.KernelBenchmark(repeats, 2, System.out);
            if (only == null || only.equals("2d")) {
                kb.run(2, n2, 20, order, bw / 16 / 1e6);
            }
            if (only == null || only.equals("3d")) {
                kb.run(3, n3, 20, order, bw / 16 / 1e6);
            }
            return 0;
        }
        System.out.printf("sweep bench: %d repeats x %d steps, order %d, abcn 20, %d cores%n", repeats, steps, order, cores);
        double[] bound = new double[tc.length];
        for (int k = 0; k < tc.length; k++) {
            double bw = bandwidth != null ? bandwidth * 1e9 : b.triadBandwidth(tc[k], 1 << 26);
            bound[k] = bw / 16 / 1e6;
            System.out.printf("  %s bandwidth threads=%d: %.1f GB/s -> bound %.0f Mcells/s at 16 B/cell%n",
                    bandwidth != null ? "given (--bandwidth)" : "host triad", tc[k], bw / 1e9, bound[k]);
        }
        List<Benchmark.Row> rows = new ArrayList<>();
        if (only == null || only.equals("2d")) {
            rows.addAll(b.propagator(label2, shape2, order, 20, tc, bound));
        }
        if (only == null || only.equals("3d")) {
            rows.addAll(b.propagator(label3, shape3, order, 20, tc, bound));
        }
        if (gradient) {
            int t = tc[tc.length - 1];
            if (only == null || only.equals("2d")) {
                b.gradientRatio(label2, shape2, order, 20, t);
            }
            if (only == null || only.equals("3d")) {
                b.gradientRatio(label3, shape3, order, 20, t);
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
