package sweep.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.bench.Benchmark;
import sweep.bench.DeepwaveComparison;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;
import sweep.prop.Backends;

/** {@code sweep bench}: forward throughput (Mcells/s) per thread count against the measured bandwidth bound. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark the forward propagator (Java backend or TornadoVM device): 2-D 2000x2000 and 3-D 256^3,"
                + " order 8, abcn 20; Mcells/s and the ratio to the memory-bandwidth bound (16 bytes/cell).")
public final class BenchCommand implements Callable<Integer> {
    /**
     * The equation of the two single-equation benchmarks: {@code --kernels} times its kernels one by one
     * ({@code KernelBenchmark}), and Deepwave's gradient driver mirrors its gradient ({@code --compare-deepwave
     * --gradient}).
     */
    private static final String ACOUSTIC_KERNELS = "acoustic";

    @Option(names = "--repeats", defaultValue = "5",
            description = "timed repeats per case, median reported (default ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--steps", defaultValue = "10", description = "time steps per repeat (default ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--threads", split = ",", description = "thread counts (default: 1 and all cores)")
    int[] threads;

    @Option(names = "--setting", paramLabel = "NAME=VALUE", description = "a setting of the equation (see sweep"
            + " equations; e.g. mechanisms=1 of visco-acoustic), repeatable; the settings derived from a wavelet's peak"
            + " frequency take 10 Hz")
    Map<String, String> settings;

    @Option(names = "--only", description = "run only the 2d or the 3d case")
    String only;

    @Option(names = "--order", defaultValue = "8", description = "spatial order (default ${DEFAULT-VALUE})")
    int order;

    @Option(names = "--gradient", description = "also time one gradient (the equation's default storage, or"
            + " --storage) against one forward run; with --compare-deepwave: compare the acoustic gradient (boundary"
            + " saving) with Deepwave's on one thread instead")
    boolean gradient;

    @Option(names = "--storage", description = "with --gradient: the storage of the timed gradient (full, boundary or"
            + " checkpoint, those the equation has; default its first)")
    GradientCommand.StorageChoice storage;

    @Option(names = "--born", description = "time Born modelling (background and scattered field together) instead"
            + " of the forward step, bound at two updates and the secondary source per cell; with --compare-deepwave:"
            + " against Deepwave's scalar_born (acoustic)")
    boolean born;

    @Option(names = "--bandwidth",
            description = "memory bandwidth of the device in GB/s for the bound (default: a triad"
            + " measured on the host, which is the device only on the Java backend)")
    Double bandwidth;

    @Option(names = "--size", description = "cells per axis of the cases (default: 2000 for 2-D, 256 for 3-D; half that"
            + " for an equation that moves more than 32 bytes per cell update, e.g. elastic)", split = ",")
    int[] size;

    @Option(names = "--equation", defaultValue = "acoustic", description = "any installed equation (./sweep equations;"
            + " default ${DEFAULT-VALUE}): its forward step on a homogeneous model, one source of its default type,"
            + " bound at its bytes per cell update")
    String equation;

    @Option(names = "--compare-deepwave", paramLabel = "DIR", description = "instead: compare with Deepwave's C kernel"
            + " in the same run, interleaved round by round (drivers built by bench/deepwave/build.sh into DIR;"
            + " Deepwave runs T shots on T threads)")
    java.nio.file.Path deepwave;

    @Mixin
    BackendOptions backendOptions;

    @Option(names = "--kernels",
            description = "per-kernel benchmark instead: each kernel on one thread, portable and CPU "
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
        if (repeats < 1 || steps < 1) {
            throw new IllegalArgumentException((repeats < 1 ? "--repeats " + repeats : "--steps " + steps)
                    + " must be at least 1");
        }
        if (size != null && (size.length > 2 || Arrays.stream(size).anyMatch(n -> n < 1))) {
            throw new IllegalArgumentException("--size " + Arrays.toString(size).replaceAll("[\\[\\] ]", "")
                    + ": give one or two cell counts per axis (2-D, 3-D), each at least 1");
        }
        if (threads != null) {
            for (int t : threads) {
                ProblemOptions.checkThreads(t, "--threads");
            }
        }
        sweep.core.FdWeights.halfWidth(order);
        String backendName = System.getProperty(Backends.BACKEND);
        boolean device = "tornado".equals(backendName)
                || ("auto".equals(backendName) && Backends.tornadoUnavailable() == null);
        if (device && threads == null) {
            tc = new int[] {1}; // the Java threads do not matter on a device
        }
        WaveEquation eq = Equations.named(equation == null ? "acoustic" : equation);
        if (kernels && !eq.name().equals(ACOUSTIC_KERNELS)) {
            throw new IllegalArgumentException("--kernels times the " + ACOUSTIC_KERNELS + " wing's kernels one by one:"
                    + " drop --equation " + eq.name() + " or --kernels");
        }
        if ("tornado".equals(backendName) && !eq.hasDeviceSolver()) {
            throw new IllegalArgumentException("--equation " + eq.name() + " has no device solver: drop --backend"
                    + " tornado");
        }
        int n2 = size != null ? size[0] : eq.bytesPerCellUpdate(2) > 32 ? 1000 : 2000;
        int n3 = size != null ? size[size.length - 1] : eq.bytesPerCellUpdate(3) > 32 ? 128 : 256;
        int[] shape2 = {n2, n2};
        int[] shape3 = {n3, n3, n3};
        String label2 = "2-D " + n2 + "x" + n2;
        String label3 = "3-D " + n3 + "^3";
        if (born) {
            eq.requireBornOperator("sweep bench --born");
            if (kernels || gradient) {
                throw new IllegalArgumentException("--born times whole Born runs: drop " + (kernels ? "--kernels"
                        : "--gradient"));
            }
        }
        if (storage != null && (!gradient || deepwave != null)) {
            throw new IllegalArgumentException("--storage sets the storage of the gradient that --gradient times"
                    + (deepwave != null ? "; the comparison with Deepwave's gradient runs boundary saving" : ": add"
                    + " --gradient"));
        }
        if (deepwave != null) {
            return compareDeepwave(eq, n2, n3, tc);
        }
        Benchmark b = new Benchmark(repeats, steps, System.out).settings(settings)
                .storage(storage == null ? null : storage.storage);
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
        System.out.printf("sweep bench%s: %s, %d repeats x %d steps, order %d, abcn 20, %d cores, load average %s%n",
                born ? " --born" : "", eq.name(), repeats, steps, order, cores, loadAverage());
        double[] bw = new double[tc.length];
        for (int k = 0; k < tc.length; k++) {
            bw[k] = bandwidth != null ? bandwidth * 1e9 : b.triadBandwidth(tc[k], 1 << 26);
            System.out.printf("  %s bandwidth threads=%d: %.1f GB/s%n",
                    bandwidth != null ? "given (--bandwidth)" : "host triad", tc[k], bw[k] / 1e9);
        }
        List<Benchmark.Row> rows = new ArrayList<>();
        int bytes2 = born ? Benchmark.bornBytesPerCellUpdate(eq, 2) : eq.bytesPerCellUpdate(2);
        int bytes3 = born ? Benchmark.bornBytesPerCellUpdate(eq, 3) : eq.bytesPerCellUpdate(3);
        // the dimensions the equation runs: a 2-D-only one has no 3-D case
        boolean run2 = (only == null || only.equals("2d")) && eq.dimensions().contains(2);
        boolean run3 = (only == null || only.equals("3d")) && eq.dimensions().contains(3);
        if (!run2 && !run3) {
            throw new IllegalArgumentException("--only " + only + ": the " + eq.name() + " equation runs "
                    + String.join(" and ", eq.dimensions().stream().map(d -> d + "-D").toList()) + " models only");
        }
        if (run2) {
            rows.addAll(born ? b.born(eq, label2, shape2, order, 20, tc, bound(bw, bytes2))
                    : b.forward(eq, label2, shape2, order, 20, tc, bound(bw, bytes2)));
        }
        if (run3) {
            rows.addAll(born ? b.born(eq, label3, shape3, order, 20, tc, bound(bw, bytes3))
                    : b.forward(eq, label3, shape3, order, 20, tc, bound(bw, bytes3)));
        }
        if (gradient) {
            int t = tc[tc.length - 1];
            if (run2) {
                b.gradientRatio(eq, label2, shape2, order, 20, t);
            }
            if (run3) {
                b.gradientRatio(eq, label3, shape3, order, 20, t);
            }
        }
        System.out.println();
        System.out.printf("%-16s %7s %12s %21s %14s %7s   (bound: bandwidth / %s)%n", "case", "threads", "Mcells/s",
                "min-max", "bound Mcells/s", "ratio", bytes2 + " B (2-D), " + bytes3 + " B (3-D) per cell");
        for (Benchmark.Row r : rows) {
            System.out.printf("%-16s %7d %12.1f %10.1f-%-10.1f %14.0f %7.3f%n", r.label(), r.threads(), r.median(),
                    r.min(), r.max(), r.boundMcells(), r.ratio());
        }
        System.out.printf("load average at the end: %s%n", loadAverage());
        return 0;
    }

    private int compareDeepwave(WaveEquation eq, int n2, int n3, int[] tc) {
        if (kernels) {
            throw new IllegalArgumentException("--compare-deepwave times whole runs, not kernels: drop --kernels");
        }
        if (gradient && !eq.name().equals(ACOUSTIC_KERNELS)) {
            throw new IllegalArgumentException("--compare-deepwave --gradient compares the acoustic gradient only"
                    + " (Deepwave's other drivers time the forward step): drop --equation " + eq.name()
                    + " or --gradient");
        }
        if (gradient && threads != null && !(threads.length == 1 && threads[0] == 1)) {
            throw new IllegalArgumentException("--compare-deepwave --gradient runs on one thread, got --threads "
                    + java.util.Arrays.toString(threads).replaceAll("[\\[\\] ]", "") + ": drop --threads");
        }
        if (order != 8) {
            throw new IllegalArgumentException("--compare-deepwave runs order 8 (the drivers are built for it), got"
                    + " --order " + order);
        }
        DeepwaveComparison c = new DeepwaveComparison(deepwave, repeats, steps, System.out);
        if (born && !eq.name().equals(ACOUSTIC_KERNELS)) {
            throw new IllegalArgumentException("--compare-deepwave --born compares acoustic Born modelling with"
                    + " Deepwave's scalar_born: drop --equation " + eq.name());
        }
        for (int nd = 2; nd <= 3; nd++) {
            if (only == null || only.equals(nd + "d")) {
                c.driver(born ? "scalar_born" : DeepwaveComparison.peer(eq), nd); // every driver there first
            }
        }
        if (gradient) {
            for (int nd = 2; nd <= 3; nd++) {
                int n = nd == 2 ? n2 : n3;
                if ((only == null || only.equals(nd + "d")) && n < 10) {
                    throw new IllegalArgumentException("--compare-deepwave --gradient needs at least 10 cells per axis"
                            + " (one receiver every 10 cells), got --size " + n + " for " + nd + "-D");
                }
            }
            return compareDeepwaveGradient(c, n2, n3);
        }
        System.out.printf("sweep bench --compare-deepwave %s%s: %s, %d rounds x %d steps (Deepwave, sweep, Deepwave,"
                + " ...), order 8, abcn 20, %d cores, load average %s%n", deepwave, born ? " --born" : "", eq.name(),
                repeats, steps, Runtime.getRuntime().availableProcessors(), loadAverage());
        List<DeepwaveComparison.Row> rows = new ArrayList<>();
        if (only == null || only.equals("2d")) {
            rows.addAll(born ? c.born(2, n2, 20, tc) : c.run(eq, 2, n2, 20, tc));
        }
        if (only == null || only.equals("3d")) {
            rows.addAll(born ? c.born(3, n3, 20, tc) : c.run(eq, 3, n3, 20, tc));
        }
        System.out.println();
        System.out.printf("%-31s %7s %26s %26s %22s%n", "case", "threads", "Deepwave Mcells/s", "sweep Mcells/s",
                "sweep/Deepwave");
        for (DeepwaveComparison.Row r : rows) {
            System.out.printf("%-31s %7d %26s %26s %22s%n", r.label(), r.threads(),
                    DeepwaveComparison.stats(r.deepwave()), DeepwaveComparison.stats(r.sweep()),
                    DeepwaveComparison.ratioStats(r.ratios()));
        }
        for (DeepwaveComparison.Row r : rows) {
            if (r.threads() == 1) {
                System.out.printf("%-31s %7s %26s %26s %22s%n", r.label(), "1 (CPU)",
                        DeepwaveComparison.stats(r.deepwaveCpu()),
                        DeepwaveComparison.stats(r.sweepCpu()),
                        DeepwaveComparison.ratioStats(r.cpuRatios()));
            }
        }
        System.out.println("medians (min-max) over the rounds; ratio: per-round sweep/Deepwave; Deepwave at T threads"
                + " runs T shots (it parallelises over shots), sweep one shot on T threads (', T shots': T shots at"
                + " once, one thread each); (CPU): Mcells per CPU"
                + " second of the working thread (one thread), which time given to other processes does not count");
        System.out.printf("load average at the end: %s%n", loadAverage());
        return 0;
    }

    private int compareDeepwaveGradient(DeepwaveComparison c, int n2, int n3) {
        System.out.printf("sweep bench --compare-deepwave %s --gradient: acoustic, one thread, %d rounds x %d steps"
                + " (Deepwave forward and gradient, sweep forward and gradient, ...), order 8, abcn 20, one source and"
                + " a line of receivers near the top; Deepwave stores every step's wavefield term, sweep saves the"
                + " boundaries; %d cores, load average %s%n", deepwave, repeats, steps,
                Runtime.getRuntime().availableProcessors(), loadAverage());
        List<DeepwaveComparison.GradientRow> rows = new ArrayList<>();
        if (only == null || only.equals("2d")) {
            rows.add(c.gradient(2, n2, 20));
        }
        if (only == null || only.equals("3d")) {
            rows.add(c.gradient(3, n3, 20));
        }
        System.out.println();
        System.out.printf("%-22s %26s %26s %22s %22s %22s%n", "case (1 thread)", "Deepwave gradient s",
                "sweep gradient s", "speed sweep/Deepwave", "Deepwave grad/fwd", "sweep grad/fwd");
        for (DeepwaveComparison.GradientRow r : rows) {
            System.out.printf("%-22s %26s %26s %22s %22s %22s%n", r.label(),
                    DeepwaveComparison.secondsStats(r.deepwaveGradient()),
                    DeepwaveComparison.secondsStats(r.sweepGradient()),
                    DeepwaveComparison.ratioStats(r.speedRatios()),
                    DeepwaveComparison.ratioStats(r.deepwaveGradientPerForward()),
                    DeepwaveComparison.ratioStats(r.sweepGradientPerForward()));
        }
        for (DeepwaveComparison.GradientRow r : rows) {
            System.out.printf("%-22s forward s: Deepwave %s, sweep %s%n", r.label(),
                    DeepwaveComparison.secondsStats(r.deepwaveForward()),
                    DeepwaveComparison.secondsStats(r.sweepForward()));
        }
        System.out.println("medians (min-max) over the rounds; speed: per-round Deepwave gradient time / sweep gradient"
                + " time (> 1: sweep faster); grad/fwd: per-round gradient time / forward time of the same code, the"
                + " forward with the same source and receivers and no storage");
        System.out.printf("load average at the end: %s%n", loadAverage());
        return 0;
    }

    private static double[] bound(double[] bw, int bytesPerCell) {
        double[] out = new double[bw.length];
        for (int k = 0; k < bw.length; k++) {
            out[k] = bw[k] / bytesPerCell / 1e6;
        }
        return out;
    }

    /** The 1, 5 and 15 minute load averages of /proc/loadavg, or the JVM's one-minute figure elsewhere. */
    static String loadAverage() {
        try {
            String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return String.format("%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage());
        }
    }
}
