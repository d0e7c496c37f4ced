package sweep.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import mpi.MPI;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.core.Wavelets;
import sweep.fwi.Acquisition;
import sweep.fwi.DecomposedObjective;
import sweep.fwi.Fwi;
import sweep.fwi.Objective;
import sweep.fwi.SingleDomainObjective;
import sweep.io.Json;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.io.Segy;
import sweep.models.DefaultModels;
import sweep.parallel.ModelParallel;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * {@code sweep fwi}: full-waveform inversion of the built-in model (layers, a fault, a fast body, a slow lens) from a
 * smoothed start, with observed data modelled from the true model; on one domain or, under mpirun, decomposed with
 * shot groups. Writes models, the observed record, the final gradient and summary.json to --out.
 */
@Command(name = "fwi", mixinStandardHelpOptions = true,
        description = "FWI of the built-in 2-D model (2 km x 6 km); outputs in --out; resumable with --resume.")
public final class FwiCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "fwi-out", description = "output folder (default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--iterations", defaultValue = "10", description = "L-BFGS iterations (default ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--dh", defaultValue = "20", description = "grid spacing in m (default ${DEFAULT-VALUE}: 100x300 cells)")
    double dh;

    @Option(names = "--freq", defaultValue = "5", description = "Ricker peak frequency in Hz (default ${DEFAULT-VALUE})")
    double freq;

    @Option(names = "--shots", defaultValue = "6", description = "number of surface shots (default ${DEFAULT-VALUE})")
    int shots;

    @Option(names = "--time", defaultValue = "3.0", description = "record length in s (default ${DEFAULT-VALUE})")
    double recordLength;

    @Option(names = "--storage", defaultValue = "boundary", description = "full or boundary (default ${DEFAULT-VALUE})")
    GradientCommand.StorageChoice storage;

    @Option(names = "--threads", defaultValue = "0", description = "Java backend threads per rank, 0 = all cores")
    int threads;

    @Option(names = "--resume", description = "continue from --out/checkpoint.bin (same options as the interrupted run)")
    boolean resume;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    BackendOptions backendOptions;

    @Override
    public Integer call() throws Exception {
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    private Integer run() throws Exception {
        if (shots < 1) {
            throw new IllegalArgumentException("--shots must be >= 1, got " + shots);
        }
        float[] vTrue = DefaultModels.fwi2d(dh);
        int nz = (int) Math.round(2000 / dh);
        int nx = (int) Math.round(6000 / dh);
        int water = (int) Math.ceil(250 / dh);
        float[] start = DefaultModels.smooth(vTrue, nz, nx, 250 / dh, water);
        PropSpec probe = PropSpec.builder(nz, nx).dh(dh).dt(1e-3).nt(1).build();
        double dt = Math.floor(0.8 * probe.maxStableDt(4500) * 1e4) / 1e4;
        int nt = (int) Math.ceil(recordLength / dt);
        PropSpec spec = PropSpec.builder(nz, nx).dh(dh).dt(dt).nt(nt).abcn(20).freeSurface(true).maxVel(4500)
                .storage(storage.storage).threads(threads).build();
        float[] w = Wavelets.ricker(freq, nt, dt);
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][][];
        int nrec = nx / 2;
        for (int b = 0; b < shots; b++) {
            int sx = (int) Math.round((b + 0.5) * nx / shots);
            src[b] = new int[][] {{sx, 1}};
            rec[b] = new int[nrec][];
            for (int r = 0; r < nrec; r++) {
                rec[b][r] = new int[] {2 * r, 1};
            }
        }
        boolean dd = meshOptions.decomposed();
        DistributedRun run = dd ? new DistributedRun(meshOptions, spec.shape(), shots) : null;
        boolean root = run == null || run.worldRank == 0;
        try {
            if (root) {
                Files.createDirectories(out);
                System.err.printf("sweep fwi: model %dx%d at %.0f m, %d shots, %d receivers, %d steps of %.2f ms,"
                        + " Ricker %.1f Hz, %d iterations%n", nz, nx, dh, shots, nrec, nt, dt * 1e3, freq, iterations);
            }
            long t0 = System.nanoTime();
            float[] observed = observed(spec, w, src, rec, vTrue, run);
            double observedSeconds = (System.nanoTime() - t0) * 1e-9;
            Acquisition acq = new Acquisition(spec, w, src, rec, observed);
            Fwi.Settings settings = new Fwi.Settings(iterations, 1400, 4700, 100, 5);
            Fwi.Checkpoint cp = new Fwi.Checkpoint(out.resolve("checkpoint.bin"), resume, root);
            if (root) {
                Npy.writeFloat32(out.resolve("model_true.npy"), vTrue, nz, nx);
                Npy.writeFloat32(out.resolve("model_start.npy"), start, nz, nx);
                Npy.writeFloat32(out.resolve("observed.npy"), observed, shots, nt, nrec, 1);
                double[] sxyz = new double[3 * shots];
                for (int b = 0; b < shots; b++) {
                    sxyz[3 * b] = src[b][0][0] * dh;
                    sxyz[3 * b + 2] = src[b][0][1] * dh;
                }
                double[] rxyz = new double[3 * nrec];
                for (int r = 0; r < nrec; r++) {
                    rxyz[3 * r] = rec[0][r][0] * dh;
                    rxyz[3 * r + 2] = rec[0][r][1] * dh;
                }
                Segy.write(out.resolve("observed.sgy"), observed, shots, nt, nrec, dt, sxyz, rxyz,
                        List.of("sweep-java fwi: observed data modelled from the built-in true model"));
                Png.model(out.resolve("model_true.png"), vTrue, nz, nx, dh, dh, "true model", "m/s");
                Png.model(out.resolve("model_start.png"), start, nz, nx, dh, dh, "starting model", "m/s");
                Png.gather(out.resolve("observed_shot0.png"), observed, 0, nt, nrec, dt, "observed, shot 1", 99);
            }
            long t1 = System.nanoTime();
            Fwi.State st;
            try (Objective obj = dd ? new DecomposedObjective(acq, run.mesh, water)
                    : new SingleDomainObjective(acq, water)) {
                st = Fwi.run(obj, start, settings, cp, it -> {
                    if (root) {
                        System.out.printf("iteration %3d/%d  misfit %.6e  step %.3g  evaluations %d  %.1f s%n",
                                it.index(), iterations, it.misfit(), it.step(), it.evaluations(), it.seconds());
                        System.out.flush();
                    }
                });
            }
            double fwiSeconds = (System.nanoTime() - t1) * 1e-9;
            if (root) {
                Npy.writeFloat32(out.resolve("model_final.npy"), st.model(), nz, nx);
                Npy.writeFloat32(out.resolve("gradient_final.npy"), st.gradient(), nz, nx);
                Map<String, Object> summary = new LinkedHashMap<>();
                List<Double> misfit = new ArrayList<>();
                misfit.add(st.initialMisfit());
                st.history().forEach(it -> misfit.add(it.misfit()));
                summary.put("misfit", misfit);
                summary.put("iterations", st.history());
                summary.put("misfit_reduction", 1 - st.misfit() / st.initialMisfit());
                summary.put("model_rms_error_start", rms(start, vTrue));
                summary.put("model_rms_error_final", rms(st.model(), vTrue));
                summary.put("seconds_observed", observedSeconds);
                summary.put("seconds_fwi", fwiSeconds);
                Map<String, Object> mesh = new LinkedHashMap<>();
                mesh.put("ranks", run == null ? 1 : run.mesh.topology().worldSize());
                mesh.put("shot_groups", run == null ? 1 : run.mesh.topology().shotGroups());
                mesh.put("py", run == null ? 1 : run.mesh.topology().py());
                mesh.put("px", run == null ? 1 : run.mesh.topology().px());
                summary.put("mesh", mesh);
                summary.put("grid", Map.of("nz", nz, "nx", nx, "dh", dh, "dt", dt, "nt", nt));
                Json.write(out.resolve("summary.json"), summary);
                Png.model(out.resolve("model_final.png"), st.model(), nz, nx, dh, dh,
                        "FWI model after " + st.history().size() + " iterations", "m/s");
                Png.diverging(out.resolve("gradient_final.png"), st.gradient(), nz, nx, dh, dh, "final gradient", 99);
                Png.curve(out.resolve("misfit.png"), misfit.stream().mapToDouble(Double::doubleValue).toArray(),
                        "misfit per iteration", "misfit", true);
                System.out.printf("misfit %.6e -> %.6e (%.1f %% lower); model RMS error %.1f -> %.1f m/s; FWI %.1f s;"
                                + " outputs in %s%n", st.initialMisfit(), st.misfit(),
                        100 * (1 - st.misfit() / st.initialMisfit()), rms(start, vTrue), rms(st.model(), vTrue),
                        fwiSeconds, out);
            }
        } finally {
            if (run != null) {
                run.close();
            }
        }
        return 0;
    }

    /** Observed data from the true model, forward-only (no gradient memory); the same array on every rank. */
    private static float[] observed(PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[] vTrue,
                                    DistributedRun run) throws Exception {
        if (run == null) {
            try (Propagator p = new Propagator(spec)) {
                return p.forward(w, src, rec, vTrue).data();
            }
        }
        float[] all = new float[src.length * spec.nt() * rec[0].length];
        try (ModelParallel mp = new ModelParallel(run.paddedSpec(spec), run.mesh)) {
            Record tile = mp.forward(w, run.mine(src), run.mine(rec), run.pad(vTrue));
            Record r = run.gatherAll(mp, tile);
            if (r != null) {
                System.arraycopy(r.data(), 0, all, 0, all.length);
            }
        }
        MPI.COMM_WORLD.bcast(all, all.length, MPI.FLOAT, 0);
        return all;
    }

    private static double rms(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.pow(a[i] - b[i], 2);
        }
        return Math.sqrt(s / a.length);
    }
}
