package sweep.prop;

import java.util.Arrays;

/**
 * The elastic solver behind {@link Propagator}: {@link ElasticPropagator} with the spec's source type and recorded
 * fields, models parameter-major ({@code [vp, vs, rho]}, each over {@link ElasticPropagator#modelWindow()}) and
 * gradients {@code (3, cells)}, and the facade's halo hook at every exchange point (each point's fields in one call).
 */
final class ElasticSolver implements EquationSolver {
    private final PropSpec spec;
    private final Grid grid;
    private final ElasticPropagator solver;
    /** The model of the last call that gave one (a null model reuses it). */
    private ElasticModel last;

    ElasticSolver(PropSpec spec, Grid grid, HaloHook halo) {
        this.spec = spec;
        this.grid = grid;
        ElasticHalo h = halo == null ? null : (point, packed, components) -> {
            if (point == ElasticHalo.Point.NODE_GRADIENT) {
                halo.exchangeWithCorners(packed, components); // see PropSpec.Equation.haloPoints
            } else {
                halo.exchange(packed, components);
            }
        };
        this.solver = new ElasticPropagator(spec, grid, h);
    }

    /** The cells each parameter's part of a model covers. */
    CellWindow modelWindow() {
        return solver.modelWindow();
    }

    @Override
    public Grid grid() {
        return grid;
    }

    @Override
    public long bytesHeld() {
        return solver.bytesHeld();
    }

    /** The (vp, vs, rho) of a parameter-major model array, or the last one for null. */
    private ElasticModel model(float[] m) {
        if (m == null) {
            if (last == null) {
                throw new IllegalArgumentException("no elastic model given and none set by an earlier call: pass the"
                        + " model (vp, vs, rho one after the other) on the first call");
            }
            return last;
        }
        CellWindow w = solver.modelWindow();
        int n = w.cells();
        if (m.length != 3 * n) {
            throw new IllegalArgumentException("elastic model has " + m.length + " values; it needs vp, vs and rho one"
                    + " after the other, 3 x " + n + " = " + 3 * n + " for the " + (w.isWhole(spec.shape()) ? "shape "
                    : "model window ") + Arrays.toString(w.shape()));
        }
        last = new ElasticModel(Arrays.copyOfRange(m, 0, n), Arrays.copyOfRange(m, n, 2 * n),
                Arrays.copyOfRange(m, 2 * n, 3 * n));
        return last;
    }

    @Override
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                          WavefieldListener listener) {
        if (listener != null && snapshotEvery > 0) {
            throw new IllegalArgumentException("snapshots of an elastic run have several components: use"
                    + " ElasticPropagator.forward with an ElasticListener");
        }
        return solver.forward(wavelet, sources, spec.sourceType(), receivers, spec.recordFields(), model(model));
    }

    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model) {
        return solver.forwardForGradient(wavelet, sources, spec.sourceType(), receivers, spec.recordFields(),
                model(model));
    }

    @Override
    public Gradient gradient(float[] residual) {
        ElasticGradient g = solver.gradient(residual);
        return new Gradient(g.parameters(), 3, g.wavelet(), g.misfit());
    }

    @Override
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                       float[] observed, Misfit misfit) {
        ElasticGradient g = solver.forwardAndGradient(wavelet, sources, spec.sourceType(), receivers,
                spec.recordFields(), model(model), observed, misfit);
        return new Gradient(g.parameters(), 3, g.wavelet(), g.misfit());
    }

    @Override
    public double timeSteps(float[] model, int steps) {
        return solver.timeSteps(model(model), steps);
    }

    @Override
    public double lastStepsCpuSeconds() {
        return solver.lastStepsCpuSeconds();
    }

    @Override
    public String backendDescription() {
        return solver.backendDescription() + ", elastic";
    }

    @Override
    public long cellsPerStep() {
        return (long) grid.nz * grid.ny * grid.nx;
    }

    @Override
    public void setPmlVelocity(double v) {
        solver.setPmlVelocity(v);
    }

    @Override
    public void setOverlap(boolean on) {
        // the elastic step has no overlapped path: it always updates, then exchanges (the bit-exact reference)
    }

    @Override
    public void rebuildListener(WavefieldListener l) {
        throw new UnsupportedOperationException("the elastic rebuild listener is ElasticPropagator's");
    }

    @Override
    public void close() {
        solver.close();
    }
}
