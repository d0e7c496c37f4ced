package sweep.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.models.DefaultModels;
import sweep.prop.Propagator;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/** {@code sweep demo}: the main job on the embedded default model (until FWI lands: forward modelling of a few shots). */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Forward-model 3 surface shots through the built-in layered model with an anomaly; writes"
                + " model.npy and record.npy (float32 (3, nt, nrec, 1)) to --out.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "demo-out", description = "output folder (default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--threads", defaultValue = "0", description = "Java backend threads, 0 = all cores")
    int threads;

    @Override
    public Integer call() throws Exception {
        int nz = 150;
        int nx = 400;
        double dh = 10;
        double dt = 1e-3;
        int nt = 1500;
        float[] vp = DefaultModels.layeredWithAnomaly(nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(dh).dt(dt).nt(nt).abcn(20).freeSurface(true).threads(threads).build();
        int[][][] src = {{{50, 2}}, {{200, 2}}, {{350, 2}}};
        int nrec = nx / 2;
        int[][][] rec = new int[3][nrec][];
        for (int b = 0; b < 3; b++) {
            for (int r = 0; r < nrec; r++) {
                rec[b][r] = new int[] {2 * r, 2};
            }
        }
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        Record r;
        try (Propagator p = new Propagator(spec)) {
            r = p.forward(Wavelets.ricker(10, nt, dt), src, rec, vp);
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        Npy.writeFloat32(out.resolve("model.npy"), vp, nz, nx);
        Npy.writeFloat32(out.resolve("record.npy"), r.data(), r.shape());
        System.out.printf("sweep demo: 3 shots, %dx%d model at %.0f m, %d steps of %.1f ms, free surface, order 8:"
                + " %.2f s%n", nz, nx, dh, nt, dt * 1e3, sec);
        System.out.printf("wrote %s (velocity, float32 (%d, %d)) and %s (float32 (3, %d, %d, 1))%n",
                out.resolve("model.npy"), nz, nx, out.resolve("record.npy"), nt, nrec);
        return 0;
    }
}
