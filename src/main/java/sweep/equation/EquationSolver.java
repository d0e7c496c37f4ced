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
 * parameter. The facade documents each call; a solver runs one call at a time.
 */
public interface EquationSolver extends AutoCloseable {
    Grid grid();

    /**
     * The cells of the global model each parameter's part of a model covers: the tile widened by the equation's
     * {@link WaveEquation#modelMargin} on the sides that face another tile (the whole model on one domain).
     */
    sweep.prop.CellWindow modelWindow();

    long bytesHeld();

    Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                   WavefieldListener listener);

    Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model);

    Gradient gradient(float[] residual);

    Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                float[] observed, Misfit misfit);

    double timeSteps(float[] model, int steps);

    /** CPU seconds the calling thread spent in the steps of the last {@link #timeSteps}; NaN where not measured. */
    double lastStepsCpuSeconds();

    String backendDescription();

    long cellsPerStep();

    void setPmlVelocity(double v);

    void setOverlap(boolean on);

    /** Test hook: the levels a boundary-saving adjoint run rebuilds (equations that rebuild them; others ignore it). */
    void rebuildListener(WavefieldListener l);

    @Override
    void close();
}
