package sweep.prop;

/**
 * The solver of one equation on one grid, behind the {@link Propagator} facade: models are parameter-major float
 * arrays ({@link PropSpec.Equation#parameters()}), records {@code (B, nt, nrec, nfield)} with the spec's fields, and
 * gradients per parameter. {@link AcousticSolver} and {@link ElasticSolver} implement it.
 */
interface EquationSolver extends AutoCloseable {
    Grid grid();

    long bytesHeld();

    Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                   WavefieldListener listener);

    Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model);

    Gradient gradient(float[] residual);

    Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                float[] observed, Misfit misfit);

    double timeSteps(float[] model, int steps);

    String backendDescription();

    long cellsPerStep();

    void setPmlVelocity(double v);

    void setOverlap(boolean on);

    /** Test hook: the levels a boundary-saving adjoint run rebuilds (acoustic). */
    void rebuildListener(WavefieldListener l);

    @Override
    void close();
}
