package sweep.equation;

import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.Misfit;
import sweep.prop.Record;
import sweep.prop.WavefieldListener;

/**
 * The solver of one equation on one grid, made by {@link WaveEquation#solver} and used through the
 * {@link sweep.prop.Propagator} facade: models are parameter-major float arrays ({@link WaveEquation#parameters()})
 * over {@link #modelWindow()}, records {@code (B, nt, nrec, nfield)} with the spec's fields, and gradients per
 * parameter. A solver runs one call at a time.
 *
 * <p><b>What the callers guarantee.</b> Every model a call gives has been checked before the solver sees it: on a
 * single domain by the facade, on a tile by the decomposition layer ({@code sweep.parallel.ModelParallel}) for the
 * global model; its length is parameters × {@link #modelWindow()} cells, every value passed
 * {@link WaveEquation#checkModel}, the spec's dt passed {@link sweep.prop.PropSpec#checkCfl} for the model's
 * {@link WaveEquation#cflVelocity}, and {@link #setPmlVelocity} was called with that velocity (the global one on a
 * tile) unless the spec's {@code maxVel} or the user fixed one. A solver need not repeat these checks.
 *
 * <p><b>What the solver does.</b> Everything else the facade documents for each call: coordinates, wavelets and
 * residuals are checked by the solver (messages name the source or receiver, its shot and the allowed range; see
 * {@link sweep.prop.ShotWavelets} and {@link Grid#cellIndices}); the wavefield is checked for NaN/Inf every
 * {@code spec.checkEvery()} steps; wavefield arrays are laid out as the {@link Grid} says ({@link Grid#length()},
 * {@link Grid#compIndex}). On a tile the solver calls its {@link sweep.prop.HaloHook} at every point
 * {@link WaveEquation#haloPoints} declares: the calls marked <em>Collective</em> below exchange halos, and every rank
 * of a tile mesh makes them together, with the same arguments apart from its own model window, sources and receivers.
 */
public interface EquationSolver extends AutoCloseable {
    /** The grid this solver runs on (the whole model, or one tile of it with its PML pads and halo). */
    Grid grid();

    /**
     * The cells of the global model each parameter's part of a model covers: the tile widened by the equation's
     * {@link WaveEquation#modelMargin} on the sides that face another tile (the whole model on one domain), e.g.
     * {@code CellWindow.of(grid, margin)}.
     */
    sweep.prop.CellWindow modelWindow();

    /**
     * Bytes of wavefield, model, CPML, adjoint and tape memory the solver holds now (0 before the first call); the
     * conformance kit compares it with the equation's memory estimate ({@link WaveEquation#fieldBytes} and
     * the others), after a forward-only run (no gradient memory) and after a gradient.
     */
    long bytesHeld();

    /**
     * Forward modelling of a batch of shots: the record {@code (B, nt, nrec, nfield)} of the spec's fields. The model
     * is checked (see the type's comment); null reuses the model of the previous call (refuse when there was none).
     * Sources and receivers are tile-physical cells (x, z) or (x, y, z), every shot with the same number of
     * receivers; the wavelet is in one of {@link sweep.prop.ShotWavelets}' layouts. When {@code snapshotEvery} is
     * positive and {@code listener} not null, the listener receives the tile's wavefield every so many steps.
     * Collective on a tile. Keeps no gradient memory.
     */
    Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                   WavefieldListener listener);

    /**
     * As {@link #forward} without snapshots (the same record, bit for bit), and keeps what {@link #gradient} needs,
     * in the spec's {@link sweep.prop.Storage}. Collective on a tile.
     */
    Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model);

    /**
     * The exact adjoint run of the last {@link #forwardForGradient} for {@code residual} (dJ/drecord, the record's
     * shape): dJ/d(each parameter) over the tile's physical cells summed over shots in shot order, dJ/dwavelet per
     * shot {@code (B, nt)} (summed over the shot's sources), misfit NaN. Refuses without a preceding
     * {@code forwardForGradient}. Collective on a tile.
     */
    Gradient gradient(float[] residual);

    /**
     * Forward run, misfit J = {@code misfit} against {@code observed} (the record's shape) and adjoint run, shot by
     * shot (one shot's tape held at a time): the gradient as {@link #gradient} gives it, with J summed over shots in
     * double. Collective on a tile.
     */
    Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                float[] observed, Misfit misfit);

    /**
     * The Born (linearised) record: the derivative of the {@link #forward} record with respect to the model in the
     * direction {@code perturbation} (parameter-major like the model, over {@link #modelWindow()}), exact for the
     * discrete step (PML and free surface included), so that {@link #gradient} after a {@link #forwardForGradient}
     * of the same spec is its exact adjoint (the conformance kit tests the dot product). The model is checked as for
     * {@link #forward}; the perturbation's length and finiteness by the callers. Collective on a tile. The default
     * refuses: an equation that offers it says so in {@link WaveEquation#hasBornOperator()}.
     */
    default Record born(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                        float[] perturbation) {
        throw new UnsupportedOperationException("this equation has no Born operator");
    }

    /**
     * For benchmarks: sets {@code model} (checked as for {@link #forward}), then times {@code steps} forward steps of
     * one shot with a source near the centre of the tile and no receivers, halo exchanges included; returns the seconds
     * of the time loop alone. Collective on a tile.
     */
    double timeSteps(float[] model, int steps);

    /**
     * CPU seconds the calling thread spent in the steps of the last {@link #timeSteps} (on one thread all the work).
     * Default NaN: not measured.
     */
    default double lastStepsCpuSeconds() {
        return Double.NaN;
    }

    /**
     * On a device: the seconds of the last {@link #timeSteps} shot spent outside its steady time loop (the upload of
     * the zeroed fields with the first step, the record and wavefield coming back), which {@link #timeSteps} leaves
     * out. Default NaN: not on a device, or not measured.
     */
    default double lastTransferSeconds() {
        return Double.NaN;
    }

    /** The backend the solver runs on, for reports, e.g. "Java (4 threads)". Default "Java". */
    default String backendDescription() {
        return "Java";
    }

    /**
     * Cells updated per time step, for throughput figures. Default: the computational grid, PML pads included
     * ({@code grid().nz() · ny() · nx()}).
     */
    default long cellsPerStep() {
        Grid g = grid();
        return (long) g.nz() * g.ny() * g.nx();
    }

    /**
     * The velocity of the CPML profiles when the spec's {@code maxVel} is 0; 0 means the CFL velocity of each model
     * given. The callers set it before a call whose model changes it (see the type's comment), so that every tile of a
     * decomposed run builds the profiles of one domain. Refuses a negative or non-finite value.
     */
    void setPmlVelocity(double v);

    /**
     * With a halo hook: hide the halo exchange behind the update of the cells away from the cuts, or run the serial
     * path (update, then exchange); both give the same bits. Default: no-op (the serial path only).
     */
    default void setOverlap(boolean on) {
    }

    /**
     * The homogeneous time step of this solver's Java path as linear stages with their transposes, on {@code model}
     * (checked as for {@link #forward}), for the conformance kit's per-stage dot-product test; one domain only. The
     * solver's arrays are the stages' working space: a run afterwards starts from scratch as always. Default null: the
     * solver does not show its stages, and the kit tests the adjoint of whole runs only.
     */
    default StepStages stepStages(float[] model) {
        return null;
    }

    /**
     * Test hook: a listener for the wavefield levels a boundary-saving adjoint run rebuilds. Default: no-op, for
     * solvers that rebuild nothing.
     */
    default void rebuildListener(WavefieldListener l) {
    }

    /** Frees the solver's threads and device memory; the solver is not used afterwards. */
    @Override
    void close();
}
