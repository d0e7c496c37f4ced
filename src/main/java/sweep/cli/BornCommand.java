package sweep.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sweep.equation.Equations;
import sweep.equation.Parameter;
import sweep.equation.WaveEquation;
import sweep.io.ModelFiles;
import sweep.io.Npy;
import sweep.parallel.ModelParallel;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;

/**
 * {@code sweep born}: linearised (Born) modelling, the derivative of the forward record with respect to the model in
 * the direction of a perturbation ({@code --dvp} for the acoustic vp), on one domain or under {@code mpirun}.
 */
@Command(name = "born", mixinStandardHelpOptions = true,
        description = "Born modelling: the linearised record J*dm of the perturbation --dvp (per parameter: --d<name>)"
                + " in the background model, float32 (B, nt, nrec, nfield) to --out; 'sweep rtm' is its exact adjoint"
                + " (with the same --storage).")
public final class BornCommand implements Callable<Integer> {
    @Spec
    CommandSpec cmd;

    @Mixin
    ProblemOptions problem;

    @Option(names = "--out", required = true, description = "output Born record .npy")
    Path out;

    @Option(names = "--storage", description = "the cells that scatter, as the gradient of this storage keeps them:"
            + " full (every cell, the exact derivative) or boundary (not the PML pads; the default)")
    GradientCommand.StorageChoice storage;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    BackendOptions backendOptions;

    @Mixin
    ReportOptions report;

    /**
     * Adds to the {@code born} subcommand of {@code cl} one option {@code --dNAME} (a float32 .npy perturbation) per
     * parameter of every installed equation.
     */
    static void addPerturbationOptions(CommandLine cl) {
        CommandLine born = cl.getSubcommands().get("born");
        if (born == null) {
            return;
        }
        Map<String, Parameter> params = new LinkedHashMap<>();
        for (WaveEquation e : Equations.installed().values()) {
            for (Parameter p : e.parametersOfEveryDimension()) {
                params.putIfAbsent(p.name(), p);
            }
        }
        for (Parameter p : params.values()) {
            String name = "--d" + p.name();
            if (born.getCommandSpec().findOption(name) == null) {
                born.getCommandSpec().addOption(OptionSpec.builder(name).type(Path.class).paramLabel("FILE")
                        .description("perturbation of " + p.name() + ", " + p.unit() + ": float32 .npy or SEG-Y of"
                                + " the model's shape (absent: zero)").build());
            }
        }
    }

    /** The perturbation files of {@code eq}'s parameters (null where absent); refuses another equation's. */
    private List<Path> perturbationFiles(WaveEquation eq) {
        Set<String> all = new LinkedHashSet<>();
        for (WaveEquation e : Equations.installed().values()) {
            e.parametersOfEveryDimension().forEach(p -> all.add(p.name()));
        }
        for (String name : all) {
            OptionSpec o = cmd.findOption("--d" + name);
            if (o != null && o.getValue() != null && !eq.parameterNames().contains(name)) {
                throw new IllegalArgumentException("--d" + name + " perturbs a parameter the " + eq.name()
                        + " equation does not have: give --d" + String.join(", --d", eq.parameterNames()));
            }
        }
        List<Path> files = new ArrayList<>();
        boolean any = false;
        for (String name : eq.parameterNames()) {
            OptionSpec o = cmd.findOption("--d" + name);
            Path f = o == null ? null : o.getValue();
            any |= f != null;
            files.add(f);
        }
        if (!any) {
            throw new IllegalArgumentException("give the model perturbation: --d" + String.join(" and/or --d",
                    eq.parameterNames()) + " (float32 .npy of the model's shape)");
        }
        return files;
    }

    @Override
    public Integer call() throws Exception {
        try (AutoCloseable b = backendOptions.apply()) {
            return run();
        }
    }

    private Integer run() throws Exception {
        Map<String, Path> inputs = problem.inputs();
        WaveEquation eq = problem.waveEquation();
        eq.requireBornOperator("sweep born");
        List<Path> files = perturbationFiles(eq);
        for (int k = 0; k < files.size(); k++) {
            inputs.put("--d" + eq.parameterNames().get(k), files.get(k));
        }
        Outputs.checkFile("--out", out, inputs);
        boolean dd = meshOptions.decomposed();
        ProblemOptions.Problem pr = problem.load(true, storage == null ? null : storage.storage, dd);
        for (int k = 0; k < files.size(); k++) {
            if (files.get(k) != null) {
                int[] s = ModelFiles.shape(files.get(k), option(eq, k));
                if (!java.util.Arrays.equals(s, pr.shape())) {
                    throw new IllegalArgumentException(option(eq, k) + ": " + files.get(k) + ": shape "
                            + java.util.Arrays.toString(s) + " differs from the model's "
                            + java.util.Arrays.toString(pr.shape()));
                }
            }
        }
        if (dd) {
            return decomposed(pr, files);
        }
        int cells = pr.model().length / eq.parameterCount();
        float[] dm = new float[pr.model().length];
        for (int k = 0; k < files.size(); k++) {
            if (files.get(k) != null) {
                float[] d = ModelFiles.read(files.get(k), option(eq, k), pr.shape()).asFloat32();
                checkFinite(d, pr.shape(), null, option(eq, k) + ": " + files.get(k));
                System.arraycopy(d, 0, dm, k * cells, cells);
            }
        }
        long t0 = System.nanoTime();
        Record r;
        long held;
        try (Propagator p = new Propagator(pr.spec())) {
            r = p.born(pr.wavelet(), pr.sources(), pr.receivers(), pr.model(), dm);
            held = p.bytesHeld();
        }
        double sec = (System.nanoTime() - t0) * 1e-9;
        Npy.writeFloat32(out, r.data(), r.shape());
        System.err.printf("sweep born: %d shot(s), %d steps in %.2f s; wrote %s (%d, %d, %d, %d)%n", r.shots(), r.nt(),
                sec, out, r.shots(), r.nt(), r.nrec(), r.nfield());
        if (report.verbose) {
            MemoryReport.print(List.of(MemoryReport.local(0, Grid.single(pr.spec()), pr.spec().storage(),
                    pr.spec().nt(), false, held)), System.err);
        }
        return 0;
    }

    /**
     * Refuses a NaN or Inf in a perturbation (or its tile of {@code shape} at {@code origin} of the global model),
     * naming {@code what} and the cell's global position.
     */
    private static void checkFinite(float[] d, int[] shape, int[] origin, String what) {
        for (int i = 0; i < d.length; i++) {
            if (!Float.isFinite(d[i])) {
                throw new IllegalArgumentException(what + ": non-finite value (" + d[i] + ") at "
                        + sweep.prop.Cells.position(shape, i, origin) + ": a perturbation must be finite");
            }
        }
    }

    private static String option(WaveEquation eq, int k) {
        return "--d" + eq.parameterNames().get(k);
    }

    /** The memory of a Born run: a forward run's, and the scattered field's arrays beside it. */
    static MemoryEstimate estimate(PropSpec spec, Grid grid, int shots, int nrec, long waveletFloats) {
        WaveEquation eq = spec.equation();
        return MemoryEstimate.forward(spec, grid, shots, nrec, waveletFloats)
                .add("scattered field", eq.fieldBytes(grid) + eq.cpmlBytes(grid) + 8L * grid.length());
    }

    private int decomposed(ProblemOptions.Problem pr, List<Path> files) throws Exception {
        int shots = pr.sources().length;
        WaveEquation eq = pr.spec().equation();
        try (DistributedRun dr = new DistributedRun(meshOptions, pr.shape(), shots);
             ModelParallel mp = new ModelParallel(dr.paddedSpec(pr.spec()), dr.mesh)) {
            int nrec = pr.receivers()[0].length;
            estimate(dr.paddedSpec(pr.spec()), mp.grid(), shots, nrec, pr.wavelet().length)
                    .requireHeap(dr.rankAndTile(mp.grid()));
            float[] model = dr.readModelTile(pr, problem.names(pr.spec().equation()));
            int n = model.length / eq.parameterCount();
            float[] dm = new float[model.length];
            for (int k = 0; k < files.size(); k++) {
                if (files.get(k) != null) {
                    float[] t = dr.readTile(files.get(k), option(eq, k));
                    sweep.parallel.MeshTopology.Extent e = dr.mesh.topology().localExtent(
                            sweep.parallel.Padding.paddedShape(pr.shape(), dr.mesh.topology()));
                    checkFinite(t, e.shape(), e.offsets(), option(eq, k) + ": " + files.get(k));
                    System.arraycopy(t, 0, dm, k * n, n);
                }
            }
            long t0 = System.nanoTime();
            float[] w = pr.wavelet().length == problem.nt ? pr.wavelet() : dr.mine(pr.wavelet(), problem.nt);
            Record tile = mp.born(w, dr.mine(pr.sources()), dr.mine(pr.receivers()), model, dm);
            Record r = dr.gatherAll(mp, tile);
            double sec = (System.nanoTime() - t0) * 1e-9;
            if (r != null) {
                Npy.writeFloat32(out, r.data(), r.shape());
                System.err.printf("sweep born: %d shot(s), %d steps in %.2f s on %d ranks; wrote %s (%d, %d, %d, %d)%n",
                        r.shots(), r.nt(), sec, dr.mesh.topology().worldSize(), out, r.shots(), r.nt(), r.nrec(),
                        r.nfield());
            }
        }
        return 0;
    }
}
