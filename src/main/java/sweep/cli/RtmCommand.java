package sweep.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sweep.equation.WaveEquation;
import sweep.imaging.ImageFilters;
import sweep.imaging.Illumination;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.parallel.ModelParallel;
import sweep.parallel.Padding;
import sweep.parallel.Shaped;
import sweep.prop.Gradient;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.Propagator;

/**
 * {@code sweep rtm}: reverse-time migration, the adjoint of the Born operator applied to the observed data, optionally
 * Laplacian-filtered and divided by the source illumination; a picture beside the image.
 */
@Command(name = "rtm", mixinStandardHelpOptions = true,
        description = "Reverse-time migration: the image J^T d of --observed in the background model (float32 of the"
                + " model's shape, or (nparam, ...) for several parameters) to --out, a PNG beside it; with --filter"
                + " none and no --illumination exactly the adjoint of 'sweep born' (same --storage).")
public final class RtmCommand implements Callable<Integer> {
    /** Values of --filter. */
    enum Filter {
        none, laplacian
    }

    @Mixin
    ProblemOptions problem;

    @Mixin
    ImagingOptions imaging;

    @Option(names = "--out", required = true, description = "output image .npy (the PNG goes beside it)")
    Path out;

    @Option(names = "--filter", defaultValue = "none",
            description = "none (the adjoint of born, the default) or laplacian (-del^2 of the image: removes the"
                    + " low-wavenumber backscatter)")
    Filter filter;

    @Option(names = "--illumination", description = "divide the image by the source illumination (sum over shots and"
            + " steps of the source wavefield squared, plus 0.1 % of its largest value); costs a forward run")
    boolean illumination;


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

    /** The picture beside {@code out}: its name with .png for .npy. */
    static Path pngBeside(Path out) {
        String name = out.getFileName().toString();
        String base = name.endsWith(".npy") ? name.substring(0, name.length() - 4) : name;
        return out.resolveSibling(base + ".png");
    }

    private Integer run() throws Exception {
        Map<String, Path> inputs = imaging.inputs(problem);
        problem.waveEquation().requireBornOperator("sweep rtm");
        Outputs.checkFile("--out", out, inputs);
        Outputs.checkFile("--out (its picture)", pngBeside(out), inputs);
        boolean dd = meshOptions.decomposed();
        ProblemOptions.Problem pr = imaging.load(problem, "sweep rtm", dd);
        return dd ? decomposed(pr) : single(pr);
    }

    private int single(ProblemOptions.Problem pr) {
        int shots = pr.sources().length;
        float[] obs = imaging.readAll(pr);
        long t0 = System.nanoTime();
        float[] image;
        float[] illum = null;
        try (Propagator p = new Propagator(pr.spec())) {
            Gradient g = p.forwardAndGradient(pr.wavelet(), pr.sources(), pr.receivers(), pr.model(), obs,
                    Misfit.CORRELATION);
            image = g.parameters();
            if (illumination) {
                Illumination il = new Illumination(shots, pr.model().length / g.count());
                p.forward(pr.wavelet(), pr.sources(), pr.receivers(), pr.model(), 1, il);
                illum = il.total();
            }
        }
        finish(pr, image, illum, shots, (System.nanoTime() - t0) * 1e-9, 1);
        return 0;
    }

    /** Filters the global image as asked and writes it with its picture. */
    private void finish(ProblemOptions.Problem pr, float[] image, float[] illum, int shots, double sec, int ranks) {
        WaveEquation eq = pr.spec().equation();
        int count = eq.parameterCount();
        int[] shape = pr.shape();
        float[] img = image;
        if (filter == Filter.laplacian) {
            img = ImageFilters.laplacian(img, count, shape, pr.spec().dh());
        }
        if (illum != null) {
            img = ImageFilters.divideByIllumination(img, count, illum);
        }
        ImageFilters.muteRows(img, count, shape, imaging.muteRows);
        int[] fileShape = GradientCommand.gradientShape(shape, count);
        Npy.writeFloat32(out, img, fileShape);
        int cells = img.length / count;
        double[] dh = pr.spec().dh();
        String title = "RTM image of " + eq.parameterNames().get(0) + (filter == Filter.laplacian ? ", Laplacian"
                : "") + (illum != null ? ", illumination-compensated" : "") + (imaging.muteRows > 0 ? ", top "
                + imaging.muteRows + " rows muted" : "");
        Png.diverging(pngBeside(out), FwiCommand.section(Arrays.copyOf(img, cells), shape), shape[0],
                shape[shape.length - 1], dh[0], dh[dh.length - 1], title, 99);
        System.err.printf("sweep rtm: %d shot(s), %d steps, storage %s, filter %s%s, %.2f s%s; wrote %s %s and %s%n",
                shots, pr.spec().nt(), GradientCommand.storageName(pr.spec().storage()), filter,
                illum != null ? ", illumination" : "", sec, ranks > 1 ? " on " + ranks + " ranks" : "", out,
                Arrays.toString(fileShape), pngBeside(out));
    }

    /**
     * Each rank images its tile from its traces; the image (and illumination) tiles are gathered and world rank 0
     * filters and writes them.
     */
    private int decomposed(ProblemOptions.Problem pr) throws Exception {
        int shots = pr.sources().length;
        int nt = pr.spec().nt();
        int nrec = pr.receivers()[0].length;
        int count = pr.spec().equation().parameterCount();
        try (DistributedRun dr = new DistributedRun(meshOptions, pr.shape(), shots);
             ModelParallel mp = new ModelParallel(dr.paddedSpec(pr.spec()), dr.mesh)) {
            MemoryEstimate.gradient(dr.paddedSpec(pr.spec()), mp.grid(), shots, nrec, pr.wavelet().length)
                    .add("gathered image", dr.gatherBytes(count) + (illumination ? dr.gatherBytes(1) : 0))
                    .requireHeap(dr.rankAndTile(mp.grid()));
            int[][][] rec = dr.mine(pr.receivers());
            int[][][] src = dr.mine(pr.sources());
            float[] obs = dr.readOwnTraces(imaging.observed, "--observed", nt, nrec, ProblemOptions.fieldLabels(pr.spec()),
                    mp.ownedReceivers(rec));
            float[] model = dr.readModelTile(pr, problem.names(pr.spec().equation()));
            long t0 = System.nanoTime();
            float[] w = pr.wavelet().length == nt ? pr.wavelet() : dr.mine(pr.wavelet(), nt);
            Gradient g = mp.forwardAndGradientOwnTraces(w, src, rec, model, obs, Misfit.CORRELATION);
            int[] padded = Padding.paddedShape(pr.shape(), dr.mesh.topology());
            float[] image = Padding.padToMeshAdjoint(new Shaped<>(mp.allGatherTiles(g.parameters()),
                    GradientCommand.gradientShape(padded, count)), pr.shape(), dr.mesh.topology()).data();
            float[] illum = null;
            if (illumination) {
                int tileCells = model.length / count;
                Illumination il = new Illumination(src.length, tileCells);
                mp.forward(w, src, rec, null, 1, il);
                float[] tile = mp.sumShotsInOrder(il.perShot(), tileCells);
                illum = Padding.unpadFromMesh(new Shaped<>(mp.allGatherTiles(tile), padded), pr.shape(),
                        dr.mesh.topology()).data();
            }
            if (dr.worldRank == 0) {
                finish(pr, image, illum, shots, (System.nanoTime() - t0) * 1e-9, dr.mesh.topology().worldSize());
            }
        }
        return 0;
    }
}
