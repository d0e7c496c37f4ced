package sweep.cli;

import java.util.Arrays;
import java.util.concurrent.Callable;
import mpi.MPI;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.bench.Benchmark;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * {@code mpirun -np N sweep bench-dd}: domain-decomposed forward throughput against the single domain on one rank with
 * N× the threads, both measured in the same job (rank 0 runs the single-domain reference while the others wait), and
 * the halo-exchange time per step.
 */
@Command(name = "bench-dd", mixinStandardHelpOptions = true,
        description = "Under mpirun -np N: DD forward (N ranks x --threads) vs one domain (1 rank x N*--threads);"
                + " 2-D 2000x2000 and 3-D 192^3, order 8, abcn 20.")
public final class BenchDdCommand implements Callable<Integer> {
    @Option(names = "--repeats", defaultValue = "5", description = "timed repeats, median reported (default ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--steps", defaultValue = "10", description = "time steps per repeat (default ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--threads", defaultValue = "1", description = "threads per rank (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--only", description = "run only the 2d or the 3d case")
    String only;

    @Option(names = "--overlap", description = "overlap the halo exchange with the update (default: serial)")
    boolean overlap;

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
        Mpi.init(new String[0]);
        int world = MPI.COMM_WORLD.getSize();
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            System.out.printf("sweep bench-dd: %d ranks x %d thread(s) vs 1 rank x %d threads; %d repeats x %d steps;"
                    + " %s halo exchange%n", world, threads, world * threads, repeats, steps,
                    overlap ? "overlapped" : "serial");
            System.out.printf("%-12s %18s %18s %7s %16s%n", "case", "single Mcells/s", "DD Mcells/s", "ratio",
                    "halo ms/step");
        }
        if (only == null || only.equals("2d")) {
            run("2-D 2000^2", new int[] {2000, 2000}, world, rank);
        }
        if (only == null || only.equals("3d")) {
            run("3-D 192^3", new int[] {192, 192, 192}, world, rank);
        }
        return 0;
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

    private void run(String label, int[] shape, int world, int rank) throws Exception {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Arrays.fill(vp, 2500f);
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(steps).order(8).abcn(20).threads(threads).build();
        double single = 0;
        if (rank == 0) {
            try (Propagator p = new Propagator(spec.toBuilder().threads(world * threads).build())) {
                p.timeSteps(vp, steps);
                double[] mc = new double[repeats];
                for (int r = 0; r < repeats; r++) {
                    mc[r] = p.cellsPerStep() * (double) steps / p.timeSteps(vp, steps) / 1e6;
                }
                single = Benchmark.median(mc);
                System.out.printf("  %s single domain on %s%n", label, p.backendDescription());
            }
        }
        quietBarrier();
        int px = shape.length == 2 ? world : (world % 2 == 0 && world > 2 ? world / 2 : world);
        int py = world / px;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(py, px, 1);
             ModelParallel mp = new ModelParallel(spec, mesh)) {
            mp.setOverlap(overlap);
            long global = 1;
            for (int k = 0; k < shape.length; k++) {
                global *= shape[k] + 2L * spec.abcn();
            }
            mp.timeSteps(vp, steps);
            double[] mc = new double[repeats];
            double halo0 = mp.haloSeconds();
            long ex0 = mp.haloExchanges();
            for (int r = 0; r < repeats; r++) {
                MPI.COMM_WORLD.barrier();
                double[] t = {mp.timeSteps(vp, steps)};
                MPI.COMM_WORLD.allReduce(t, 1, MPI.DOUBLE, MPI.MAX);
                mc[r] = global * (double) steps / t[0] / 1e6;
            }
            double[] halo = {(mp.haloSeconds() - halo0) / Math.max(1, mp.haloExchanges() - ex0) * 1e3};
            MPI.COMM_WORLD.allReduce(halo, 1, MPI.DOUBLE, MPI.MAX);
            if (rank == 0) {
                double dd = Benchmark.median(mc);
                System.out.printf("%-12s %18.1f %18.1f %7.3f %16.3f   (mesh py=%d px=%d)%n", label, single, dd,
                        dd / single, halo[0], py, px);
            }
        }
    }
}
