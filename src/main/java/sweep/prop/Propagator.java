package sweep.prop;

import java.util.Arrays;
import java.util.List;
import sweep.equation.EquationSolver;
import sweep.equation.StepStages;
import sweep.equation.WaveEquation;

/**
 * The single-domain solver of a {@link PropSpec} (SWEEP's {@code PropTorch}): forward modelling of a batch of shots and
 * the exact adjoint gradient, for whichever equation the spec names. One API for every equation: a model is
 * parameter-major ({@link sweep.equation.WaveEquation#parameters()}: acoustic {@code vp}, cells floats; elastic vp, vs,
 * rho one after the other, 3·cells floats, each z first, x fastest), a record is {@code (B, nt, nrec, nfield)} with the
 * spec's {@link PropSpec#recordFields()}, a gradient holds dJ/d(each parameter) likewise ({@link Gradient}). Elastic
 * sources are of the spec's {@link PropSpec#sourceType()}. This facade hands each call to the solver the equation makes
 * ({@link sweep.equation.WaveEquation#solver}). Construction is cheap; buffers are allocated at the first call and
 * reused. Not thread-safe: one run at a time.
 *
 * <p>On a single domain (the whole model, no halo hook) this facade is the boundary of the API: every model a call
 * gives is checked here, once, before the solver sees it (its length, each value by the equation's
 * {@link WaveEquation#checkModel}, the time step against {@link WaveEquation#cflVelocity} by
 * {@link PropSpec#checkCfl}), and the solver's PML velocity is set to that CFL velocity unless
 * {@link #setPmlVelocity} fixed one. On a tile the decomposition layer ({@code sweep.parallel.ModelParallel}) does the
 * same for the global model and passes each tile its window of it.
 */
public final class Propagator implements AutoCloseable {
    private final PropSpec spec;
    private final EquationSolver solver;
    /** Whether this facade checks the models given (a single domain: the whole model, no halo hook). */
    private final boolean checksModels;
    /** The PML velocity {@link #setPmlVelocity} fixed (0: each model's CFL velocity). */
    private double fixedPmlVelocity;
    /** The PML velocity last passed to the solver by the model check (NaN: none yet). */
    private double solverPmlVelocity = Double.NaN;

    /** A single-domain solver for {@code spec}. */
    public Propagator(PropSpec spec) {
        this(spec, Grid.single(spec));
    }

    /** A solver for one tile {@code grid} of {@code spec} with no neighbours. */
    public Propagator(PropSpec spec, Grid grid) {
        this(spec, grid, null);
    }

    /**
     * A solver for one tile {@code grid} of {@code spec} whose cut faces are filled by {@code halo} (the
     * domain-decomposition layer; an equation with several fields per exchange needs a hook that implements
     * {@link HaloHook#exchange(float[], int)}); sources and receivers are then given in tile-physical coordinates, and
     * models over {@link #modelWindow()}. Every run of such a solver is collective over the tile's neighbours (it
     * exchanges halos): every tile runs the same calls.
     */
    public Propagator(PropSpec spec, Grid grid, HaloHook halo) {
        this.spec = spec;
        WaveEquation eq = spec.equation();
        if (System.getProperty(Backends.BACKEND, "java").trim().equals("tornado") && !eq.hasDeviceSolver()) {
            throw new IllegalArgumentException("the " + eq.name() + " equation has no device solver: run it with"
                    + " --backend java or auto (" + Backends.BACKEND + "=java or auto; auto runs it on the Java"
                    + " backend)");
        }
        this.solver = spec.equation().solver(spec, grid, halo);
        this.checksModels = halo == null && solver.modelWindow().isWhole(spec.shape());
    }

    /**
     * Checks a model a call gives (null: the previous one, checked then) on a single domain: its length, its values
     * ({@link WaveEquation#checkModel}, names the parameter and the cell) and the CFL condition; then sets the solver's
     * PML velocity to the model's CFL velocity unless one was fixed.
     */
    private void checkModel(float[] model) {
        if (model == null || !checksModels) {
            return;
        }
        WaveEquation eq = spec.equation();
        int[] shape = spec.shape();
        int cells = solver.modelWindow().cells();
        long need = (long) eq.parameterCount() * cells;
        if (model.length != need) {
            List<String> names = eq.parameterNames();
            String list = names.size() == 1 ? names.get(0) : String.join(", ", names.subList(0, names.size() - 1))
                    + " and " + names.get(names.size() - 1) + " one after the other";
            throw new IllegalArgumentException("model has " + model.length + " values; the " + eq.name() + " model"
                    + " holds " + list + ", each of the shape " + Arrays.toString(shape) + ": it needs " + need + " ("
                    + eq.parameterCount() + " x " + cells + ")");
        }
        eq.checkModel(model, shape, null, null, eq.parameterNames().toArray(new String[0]));
        double v = eq.cflVelocity(model, cells, spec);
        spec.checkCfl(v);
        if (fixedPmlVelocity == 0 && spec.maxVel() == 0 && v != solverPmlVelocity) {
            solver.setPmlVelocity(v);
            solverPmlVelocity = v;
        }
    }

    public PropSpec spec() {
        return spec;
    }

    public Grid grid() {
        return solver.grid();
    }

    /**
     * The cells of the global model each parameter's part of a model covers: the whole model on a single domain; on a
     * tile, the tile widened by the equation's {@link sweep.equation.WaveEquation#modelMargin} on the sides that face
     * another tile (the tile itself for acoustic).
     */
    public CellWindow modelWindow() {
        return solver.modelWindow();
    }

    /**
     * Bytes of wavefield, model, CPML, adjoint and tape memory this solver holds now (0 before the first forward);
     * a solver that only ran forward-only calls holds no gradient memory.
     */
    public long bytesHeld() {
        return solver.bytesHeld();
    }

    /**
     * Forward modelling without snapshots; see
     * {@link #forward(float[], int[][][], int[][][], float[], int, WavefieldListener)}.
     */
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model) {
        checkModel(model);
        return solver.forward(wavelet, sources, receivers, model, 0, null);
    }

    /**
     * Runs B shots and returns their records {@code (B, nt, nrec, nfield)}. Acoustic: the pressure at the receivers,
     * sample t being the wavefield at time {@code t·dt}. Elastic: the spec's fields in its order, sample t holding p at
     * t·dt and velocities at (t+½)·dt, each at its own node of the receiver's cell (docs/elastic.md).
     *
     * @param wavelet   source time function: {@code nt} values shared by all shots, {@code (B, nt)} one per shot or
     *                  {@code (B, nsrc, nt)} one per source (see {@link ShotWavelets})
     * @param sources   per shot, source cells as grid indices (x, z) in 2-D or (x, y, z) in 3-D of the physical model
     * @param receivers per shot, receiver cells, same convention; every shot has the same number of receivers
     * @param model     the model, parameter-major, physical shape of the spec (z first, x fastest); null reuses the
     *                  model of the previous call
     * @param snapshotEvery when positive, {@code listener} receives the wavefield every so many steps (acoustic)
     * @param listener  snapshot receiver, or null
     */
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                          WavefieldListener listener) {
        checkModel(model);
        return solver.forward(wavelet, sources, receivers, model, snapshotEvery, listener);
    }

    /**
     * A gradient-capable forward run: as {@link #forward(float[], int[][][], int[][][], float[])} (the same record,
     * bit for bit), and keeps what {@link #gradient(float[])} needs (see {@link Storage}; memory grows with the batch
     * size B).
     */
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model) {
        checkModel(model);
        return solver.forwardForGradient(wavelet, sources, receivers, model);
    }

    /**
     * The adjoint run of the last {@link #forwardForGradient} call: for a residual dJ/drecord of the record's shape,
     * returns dJ/d(each parameter) (physical shape, summed over shots in shot order) and dJ/dwavelet {@code (B, nt)}.
     */
    public Gradient gradient(float[] residual) {
        return solver.gradient(residual);
    }

    /**
     * Forward run, misfit J = ½ Σ (syn − obs)² against {@code observed} (the record's shape; every recorded field
     * counts, unweighted) and adjoint run, shot by shot (memory of one shot's tape at a time). Returns the misfit
     * summed over shots in double, dJ/d(each parameter) and dJ/dwavelet.
     */
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                       float[] observed, Misfit misfit) {
        checkModel(model);
        return solver.forwardAndGradient(wavelet, sources, receivers, model, observed, misfit);
    }

    /**
     * The Born (linearised) record {@code (B, nt, nrec, nfield)}: the derivative of the {@link #forward} record with
     * respect to the model in the direction {@code perturbation} (parameter-major, the model's layout; any finite
     * values), exact for the discrete step, PML and free surface included; {@link #gradient} of the same spec is its
     * exact adjoint. Throws IllegalArgumentException for an equation without one
     * ({@link WaveEquation#hasBornOperator()}).
     */
    public Record born(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, float[] perturbation) {
        WaveEquation eq = spec.equation();
        eq.requireBornOperator("Born modelling");
        checkModel(model);
        checkPerturbation(eq, perturbation, solver.modelWindow().cells());
        return solver.born(wavelet, sources, receivers, model, perturbation);
    }

    /**
     * Refuses a perturbation that is not parameter-major over {@code cells} cells or holds a NaN or Inf (named by
     * parameter and cell).
     */
    public static void checkPerturbation(WaveEquation eq, float[] perturbation, int cells) {
        long need = (long) eq.parameterCount() * cells;
        if (perturbation == null || perturbation.length != need) {
            throw new IllegalArgumentException("the model perturbation has " + (perturbation == null ? "no"
                    : perturbation.length) + " values; the model's layout (" + String.join(", ", eq.parameterNames())
                    + ", " + cells + " cells each) needs " + need);
        }
        for (int i = 0; i < perturbation.length; i++) {
            if (!Float.isFinite(perturbation[i])) {
                throw new IllegalArgumentException("the model perturbation of " + eq.parameterNames().get(i / cells)
                        + " is " + perturbation[i] + " at cell " + (i % cells) + ": it must be finite");
            }
        }
    }

    /**
     * The homogeneous time step of the solver as linear stages with their transposes (see {@link StepStages}), on
     * {@code model}, checked as for a forward run; null when the equation's solver does not show them. One domain only.
     */
    public StepStages stepStages(float[] model) {
        if (!checksModels) {
            throw new IllegalStateException("the stages of a step are shown on one domain only");
        }
        checkModel(model);
        return solver.stepStages(model);
    }

    /** Test hook: a listener for the wavefield levels a boundary-saving acoustic adjoint run rebuilds. */
    void rebuildListener(WavefieldListener l) {
        solver.rebuildListener(l);
    }

    /**
     * For benchmarks: sets the model, then times {@code steps} time steps (halo exchange included) of one shot with a
     * source at the centre of the tile (elastic: explosive) and no receivers; returns the seconds of the time loop
     * alone.
     */
    public double timeSteps(float[] model, int steps) {
        checkModel(model);
        return solver.timeSteps(model, steps);
    }

    /**
     * CPU seconds the calling thread spent in the steps of the last {@link #timeSteps} call on the Java backend (on one
     * thread all the work); NaN on a device or when unsupported.
     */
    public double lastStepsCpuSeconds() {
        return solver.lastStepsCpuSeconds();
    }

    /**
     * On a device: the seconds of the last {@link #timeSteps} shot outside its steady time loop (uploads, first step,
     * downloads), which {@link #timeSteps} leaves out; NaN on the Java backend.
     */
    public double lastTransferSeconds() {
        return solver.lastTransferSeconds();
    }

    /**
     * The backend this solver runs forward records on: "Java backend (N threads)" or the TornadoVM device (chosen when
     * the model is first set; before that: the Java backend).
     */
    public String backendDescription() {
        return solver.backendDescription();
    }

    /** Cells updated per time step: the computational grid, PML pads included. */
    public long cellsPerStep() {
        return solver.cellsPerStep();
    }

    /**
     * Sets the velocity used for the CPML profile when the spec leaves maxVel at 0 (the domain-decomposition layer
     * passes the global model's CFL velocity so every tile builds the same profile); 0 restores the model's own
     * CFL velocity.
     */
    public void setPmlVelocity(double v) {
        solver.setPmlVelocity(v);
        fixedPmlVelocity = v;
        solverPmlVelocity = Double.NaN;
    }

    /**
     * With a halo hook: hide the halo exchange behind the update of the cells away from the cuts (acoustic), or run the
     * serial path (update, then exchange; the default, and the only path of the elastic step). Both give the same bits.
     */
    public void setOverlap(boolean on) {
        solver.setOverlap(on);
    }

    @Override
    public void close() {
        solver.close();
    }
}
