package sweep.prop;

import java.util.Arrays;
import sweep.backend.CpuElastic2D;
import sweep.backend.CpuElastic3D;
import sweep.backend.CpuKernels;
import sweep.equation.EquationSolver;
import sweep.kernels.ElasticLayout;
import sweep.kernels.Layout;

/**
 * The elastic solver behind {@link Propagator}: {@link ElasticPropagator} with the spec's source type and recorded
 * fields, models parameter-major ({@code [vp, vs, rho]}, each over {@link ElasticPropagator#modelWindow()}) and
 * gradients {@code (3, cells)}, and the facade's halo hook at every exchange point (each point's fields in one call).
 * Made by the elastic equation ({@code sweep.elastic.ElasticEquation}), which also takes its memory figures from
 * here.
 */
public final class ElasticSolver implements EquationSolver {
    private final PropSpec spec;
    private final Grid grid;
    private final ElasticPropagator solver;
    /** The spec's source type and recorded fields. */
    private final ElasticSource type;
    private final java.util.List<ElasticField> fields;
    /** The model of the last call that gave one (a null model reuses it). */
    private ElasticModel last;

    public ElasticSolver(PropSpec spec, Grid grid, HaloHook halo) {
        this.spec = spec;
        this.grid = grid;
        ElasticHalo h = halo == null ? null : (point, packed, components) -> {
            if (point == ElasticHalo.Point.NODE_GRADIENT) {
                halo.exchangeWithCorners(packed, components); // see ElasticEquation.haloPoints
            } else {
                halo.exchange(packed, components);
            }
        };
        this.solver = new ElasticPropagator(spec, grid, h);
        this.type = ElasticSource.parse(spec.sourceType());
        this.fields = ElasticField.parseList(String.join(",", spec.recordFields()), spec.ndim());
    }

    @Override
    public CellWindow modelWindow() {
        return solver.modelWindow();
    }

    /**
     * Wavefield arrays of a solver of {@code g}: velocities, stresses, buoyancy and moduli (packed per component) and
     * the CPU kernels' per-thread rows.
     */
    public static long fieldBytes(Grid g) {
        int nd = g.ndim;
        long scratch = !CpuKernels.useCpuKernels() ? 0 : nd == 3 ? CpuElastic3D.scratchSize(g.nx)
                : CpuElastic2D.scratchSize(g.nx);
        return 4L * g.length() * (2L * ElasticLayout.velocities(nd) + ElasticLayout.stresses(nd)
                + ElasticLayout.moduli(nd)) + 4L * MemoryEstimate.threads(g) * scratch;
    }

    /** CPML arrays of a solver of {@code g}: the memory variables on each axis's band slabs and the profiles. */
    public static long cpmlBytes(Grid g) {
        return 4L * (psiFloats(g) + 4L * (g.nz + g.ny + g.nx));
    }

    /**
     * The adjoint run's own arrays (without the tape): adjoint fields, memory-variable adjoints, node gradients and,
     * with boundary saving, the rebuilt fields and one step's terms.
     */
    public static long adjointBytes(Grid g, Storage storage) {
        int nd = g.ndim;
        long nv = ElasticLayout.velocities(nd);
        long ns = ElasticLayout.stresses(nd);
        long len = g.length();
        long n = len * (2 * nv + ns + ElasticLayout.moduli(nd)) + psiFloats(g);
        if (storage == Storage.BOUNDARY_SAVING) {
            n += len * (nv + ns) + (nv + ns) * MemoryEstimate.computationalCells(g);
        }
        return 4L * n;
    }

    /**
     * One shot's tape for {@code nt} steps: FULL keeps every component per step, BOUNDARY_SAVING the ring of h cells
     * around the rebuilt box per step and the last fields.
     */
    public static long tapeBytes(Grid g, Storage storage, int nt) {
        int nd = g.ndim;
        long comps = ElasticLayout.velocities(nd) + ElasticLayout.stresses(nd);
        if (storage == Storage.FULL) {
            return 4L * nt * comps * MemoryEstimate.computationalCells(g);
        }
        return 4L * (Math.max(0, nt - 1) * comps * ringCells(g) + comps * g.length());
    }

    /** Floats of the CPML memory variables ({@link ElasticStepper#elasticGeo}'s slabs). */
    private static long psiFloats(Grid g) {
        int[] geo = ElasticStepper.elasticGeo(g);
        return geo[ElasticLayout.PSI_X] + (long) ElasticLayout.psiPerAxis(g.ndim) * geo[ElasticLayout.SLAB_X];
    }

    /**
     * Cells of the boundary-saving ring: the h cells outside the rebuilt box [?BL, ?BHH) along each axis, no corners
     * (as the elastic adjoint lays it out).
     */
    private static long ringCells(Grid g) {
        int[] geo = ElasticStepper.elasticGeo(g);
        int[] n3 = {g.nz, g.ny, g.nx};
        int[] lo = {geo[Layout.ZBL], geo[Layout.YBL], geo[Layout.XBL]};
        int[] hi = {geo[ElasticLayout.ZBHH], geo[ElasticLayout.YBHH], geo[ElasticLayout.XBHH]};
        for (int s = 0; s < 3; s++) {
            if (hi[s] <= lo[s]) {
                return 0; // no rebuilt box
            }
        }
        long cells = 0;
        for (int s = 0; s < 3; s++) {
            long across = 1;
            for (int o = 0; o < 3; o++) {
                if (o != s) {
                    across *= hi[o] - lo[o];
                }
            }
            cells += across * ((lo[s] - Math.max(0, lo[s] - g.h)) + (Math.min(n3[s], hi[s] + g.h) - hi[s]));
        }
        return cells;
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
        return solver.forward(wavelet, sources, type, receivers, fields, model(model));
    }

    @Override
    public Record forwardForGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model) {
        return solver.forwardForGradient(wavelet, sources, type, receivers, fields,
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
        ElasticGradient g = solver.forwardAndGradient(wavelet, sources, type, receivers, fields,
                model(model), observed, misfit);
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
