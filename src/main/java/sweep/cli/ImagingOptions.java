package sweep.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;
import sweep.io.Npy;

/** The options {@code sweep rtm} and {@code sweep lsrtm} share: the data to migrate, the muted rows, the storage. */
final class ImagingOptions {
    @Option(names = "--observed", required = true,
            description = "reflection data .npy, float32 (B, nt, nrec, nfield), nfield as forward writes it")
    Path observed;

    @Option(names = "--mute-rows", defaultValue = "0", description = "zero the image's top N depth rows, e.g. the"
            + " water layer (rtm: after filtering; lsrtm: they stay out of the inversion); default ${DEFAULT-VALUE}")
    int muteRows;

    @Option(names = "--storage", description = "the cells that image, as the gradient of this storage keeps them:"
            + " full (every cell) or boundary (not the PML pads; the default)")
    GradientCommand.StorageChoice storage;

    /** The input files of {@code problem} and --observed, for the check that no output overwrites one. */
    Map<String, Path> inputs(ProblemOptions problem) {
        Map<String, Path> in = problem.inputs();
        in.put("--observed", observed);
        return in;
    }

    /**
     * The problem of command {@code what} (its equation must have a Born operator), with --mute-rows and the shape of
     * --observed checked.
     */
    ProblemOptions.Problem load(ProblemOptions problem, String what, boolean decomposed) {
        problem.waveEquation().requireBornOperator(what);
        ProblemOptions.Problem pr = problem.load(true, storage == null ? null : storage.storage, decomposed);
        if (muteRows < 0 || muteRows >= pr.shape()[0]) {
            throw new IllegalArgumentException("--mute-rows must be 0 to " + (pr.shape()[0] - 1) + " (the model has "
                    + pr.shape()[0] + " rows), got " + muteRows);
        }
        ProblemOptions.checkRecordShape(observed, "--observed", pr.sources().length, pr.spec().nt(),
                pr.receivers()[0].length, ProblemOptions.fieldLabels(pr.spec()));
        return pr;
    }

    /** The whole observed record of {@code pr}, a NaN or Inf refused with its position. */
    float[] readAll(ProblemOptions.Problem pr) {
        int nt = pr.spec().nt();
        int nrec = pr.receivers()[0].length;
        List<String> fields = ProblemOptions.fieldLabels(pr.spec());
        float[] obs = Npy.readFloat32(observed, "--observed", new int[] {pr.sources().length, nt, nrec,
                fields.size()}).asFloat32();
        ProblemOptions.checkFiniteRecord(obs, nt, nrec, fields, observed, "--observed");
        return obs;
    }
}
