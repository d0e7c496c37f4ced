package sweep.equation;

import java.util.List;
import sweep.backend.JavaBackend;
import sweep.prop.CellWindow;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.PropSpec;

/**
 * One time step of an equation on one grid, its exact transpose and the chain rule to the equation's parameters: what
 * an equation writes when {@link StepSolver} runs everything else (shots, wavelets, sources and receivers, tapes and
 * checkpoints, misfits, memory, checks, snapshots). A step is a sequence of {@link #stages()}, each a linear map run in
 * place on the state arrays ({@link StepEquation#state}: the fields, then the CPML memory variables and any other level
 * the step keeps, each an array of the grid's {@link Grid#length()}); {@link #forward} runs one and
 * {@link #transpose} its transpose on the adjoint arrays. A leapfrog that writes its new level over the oldest one says
 * so in {@link #levelRotation()}; the solver turns the array references, nothing is copied.
 *
 * <p>The solver calls the methods below in this order: {@link #setModel()} whenever the model or the CPML velocity
 * changed; per forward step n the stages 0, 1, ... with {@link #inject} after stage {@link #sourceStage()} (source
 * sample n) and the receivers read after stage {@link #recordStage()} (record sample n); per adjoint step, n from the
 * last down, the transposes in reverse order with {@link #injectTranspose} and the receivers' transpose at the same
 * points; {@link #gradient} once per shot after the adjoint run. Kernels called from a stage keep TornadoVM's rules
 * (static methods over arrays and scalars); the helpers here ({@link #parallel}, {@link #exchange}, {@link #model})
 * are for the code around them.
 */
public abstract class Step {
    /** The run's spec and this step's grid (a whole model or one tile of it). */
    protected final PropSpec spec;
    protected final Grid grid;
    /** Half the spatial order: the halo width of every array. */
    protected final int h;
    /** Computational sizes (PML pads included; ny = 1 in 2-D). */
    protected final int nz;
    protected final int ny;
    protected final int nx;
    /** Array index of computational cell (0, 0, 0), and the index steps along z and y (0 in 2-D); along x it is 1. */
    protected final int base;
    protected final int sz;
    protected final int sy;
    /** Length of every state array. */
    protected final int len;
    /** Whether the top face is a free surface. */
    protected final boolean fs;

    private final CellWindow window;
    private final int[] shape;
    private final int[] tile;
    private final int[] origin;
    private StepSolver solver;
    private long held;
    private float[] profiles;
    private double profileVelocity = Double.NaN;

    /** A step of {@code spec} on {@code grid}; the subclass allocates its coefficient arrays in {@link #setModel()}. */
    protected Step(PropSpec spec, Grid grid) {
        this.spec = spec;
        this.grid = grid;
        this.h = grid.haloWidth();
        this.nz = grid.nz();
        this.ny = grid.ny();
        this.nx = grid.nx();
        this.base = grid.compIndex(0, 0, 0);
        this.sz = grid.strideZ();
        this.sy = grid.strideY();
        this.len = grid.length();
        this.fs = spec.freeSurface();
        this.window = CellWindow.of(grid, spec.equation().modelMargin(spec.order()));
        this.shape = spec.shape();
        this.tile = grid.tileShape();
        this.origin = grid.tileOffset();
    }

    final void attach(StepSolver s) {
        this.solver = s;
    }

    final CellWindow window() {
        return window;
    }

    // ---------------------------------------------------------------------------------------------- what a step is

    /** The stages' names in the order a forward step runs them, e.g. "velocity", "stress" (named by the kit). */
    protected abstract List<String> stages();

    /**
     * Sets the coefficient arrays from the model ({@link #model}) and the CPML profiles for {@link #pmlVelocity()}
     * (e.g. {@link Grid#staggeredProfiles}); called before the first step of a run whose model or CPML velocity is
     * new. Arrays it keeps are counted by {@link StepEquation#coefficientArrays} for the memory estimate.
     */
    protected abstract void setModel();

    /**
     * Runs stage {@code stage} of a forward step on the state arrays {@code s} (in {@link StepEquation#state} order),
     * in place, calling {@link #exchange} where a field's halo is read next (the order of
     * {@link WaveEquation#haloPoints}). When {@code taping} is 1 it writes what the transpose needs for the gradient
     * into {@code tape} (this step's {@link StepEquation#tapeFloatsPerCell} floats per computational cell); when 0,
     * {@code tape} is a dummy of one float.
     */
    protected abstract void forward(int stage, float[][] s, float[] tape, int taping);

    /**
     * Runs the transpose of stage {@code stage} on the adjoint arrays {@code a} (one per state array, the same order),
     * in place, and adds this step's share of the gradient of the coefficients ({@code tape} as the forward stage
     * wrote it) into the work arrays {@code w} ({@link StepEquation#adjointWorkArrays}, zero at the start of each shot;
     * scratch may live there too). Exchanges where the forward stage's reads across a cut must be summed back.
     */
    protected abstract void transpose(int stage, float[][] a, float[][] w, float[] tape);

    /**
     * Adds source sample {@code sample} of a source at array index {@code cell} to the state (e.g. {@code s[0][cell] +=
     * scale·sample}); when {@code taping} is 1, also what the gradient of the scale needs to the tape.
     */
    protected abstract void inject(float[][] s, int cell, float sample, float[] tape, int taping);

    /** The transpose of {@link #inject}: dJ/d(sample) of a source at {@code cell} from the adjoint arrays. */
    protected abstract float injectTranspose(float[][] a, int cell);

    /**
     * dJ/d(each parameter) of one shot, parameter-major over the tile's physical cells (z first, x fastest), from the
     * work arrays after the adjoint run: the chain rule from the coefficients to the parameters, the PML pads' share
     * folded onto the edge cells they replicate ({@link #tileCell}). May exchange (a coefficient at a tile's edge made
     * of the neighbour's cells).
     */
    protected abstract float[] gradient(float[][] w);

    /** The stage after which sources are injected (−1: before the first stage). Default 0. */
    protected int sourceStage() {
        return 0;
    }

    /** The stage after which receivers read the state (−1: before the first stage). Default: the source stage. */
    protected int recordStage() {
        return sourceStage();
    }

    /**
     * What a receiver at array index {@code cell} records of field {@code field} (an index into the spec's recorded
     * fields). Default: the state array named as the field.
     */
    protected float sample(float[][] s, int field, int cell) {
        return s[solver.recordSlot(field)][cell];
    }

    /** The transpose of {@link #sample}: adds {@code r} into the adjoint arrays. */
    protected void sampleTranspose(float[][] a, int field, int cell, float r) {
        a[solver.recordSlot(field)][cell] += r;
    }

    /**
     * The state arrays after a step in terms of before it: slot i takes the array of slot {@code rotation[i]} (a
     * leapfrog of levels (previous, current) that writes the next level over the previous one: {1, 0, 2, 3, ...});
     * null when the arrays keep their places (default).
     */
    protected int[] levelRotation() {
        return null;
    }

    /**
     * The typical magnitude of the values of state array {@code slot} in a run, for the per-stage dot-product test
     * (fields of different units weigh alike). Default 1.
     */
    protected double scale(int slot) {
        return 1;
    }

    // ---------------------------------------------------------------------------------------------- helpers

    /**
     * Runs {@code body} over the rows [0, nz) on the solver's threads (contiguous ranges, one per thread; a cell's
     * arithmetic must not depend on the split).
     */
    protected final void parallel(JavaBackend.RangeBody body) {
        solver.backend().parallelFor(0, nz, body);
    }

    /** Fills the halo of {@code field} from the neighbouring tiles (nothing on one domain). */
    protected final void exchange(float[] field) {
        HaloHook halo = solver.halo();
        if (halo != null) {
            halo.exchange(field);
        }
    }

    /** Exchanges {@code components} arrays packed one after the other in one message per neighbour. */
    protected final void exchange(float[] packed, int components) {
        HaloHook halo = solver.halo();
        if (halo != null) {
            halo.exchange(packed, components);
        }
    }

    /** The velocity of the CPML profiles: the spec's maxVel, or the one the callers set, or the model's CFL one. */
    protected final double pmlVelocity() {
        return solver.pmlVelocity();
    }

    /**
     * The value of parameter {@code param} at the model cell of computational cell (z, y, x) (y = 0 in 2-D): the
     * physical cell, or in a PML pad the edge cell it replicates; the cell may lie up to the equation's
     * {@link WaveEquation#modelMargin} beyond the tile on a side that faces another tile.
     */
    protected final float model(int param, int z, int y, int x) {
        return solver.modelValue(param * window.cells() + windowCell(z, y, x));
    }

    /** The value of parameter {@code param} at physical cell {@code k} of the tile (row-major over its shape). */
    protected final float tileModel(int param, int k) {
        int tx = tile[tile.length - 1];
        int ty = tile.length == 3 ? tile[1] : 1;
        int x = k % tx;
        int y = (k / tx) % ty;
        int z = k / (tx * ty);
        int nd = tile.length;
        return solver.modelValue(param * window.cells() + window.index(z + origin[0],
                nd == 3 ? y + origin[1] : 0, x + origin[nd - 1]));
    }

    /** The cells of the tile, the length of one parameter's part of {@link #gradient}. */
    protected final int tileCells() {
        int c = 1;
        for (int t : tile) {
            c *= t;
        }
        return c;
    }

    /**
     * The tile's physical cell (row-major index over its shape) whose model value computational cell (z, y, x) uses
     * (pads folded onto the edge cells), or −1 when that cell is another tile's: where {@link #gradient} adds the
     * share of a coefficient at (z, y, x).
     */
    protected final int tileCell(int z, int y, int x) {
        int nd = shape.length;
        int gz = clamp(grid.globalIndex(0, z), shape[0]) - origin[0];
        int gy = nd == 3 ? clamp(grid.globalIndex(1, y), shape[1]) - origin[1] : 0;
        int gx = clamp(grid.globalIndex(nd - 1, x), shape[nd - 1]) - origin[nd - 1];
        int ty = nd == 3 ? tile[1] : 1;
        int tx = tile[nd - 1];
        if (gz < 0 || gz >= tile[0] || gy < 0 || gy >= ty || gx < 0 || gx >= tx) {
            return -1;
        }
        return (gz * ty + gy) * tx + gx;
    }

    private int windowCell(int z, int y, int x) {
        int nd = shape.length;
        int gz = clamp(grid.globalIndex(0, z), shape[0]);
        int gy = nd == 3 ? clamp(grid.globalIndex(1, y), shape[1]) : 0;
        int gx = clamp(grid.globalIndex(nd - 1, x), shape[nd - 1]);
        return window.index(gz, gy, gx);
    }

    private static int clamp(int i, int n) {
        return Math.max(0, Math.min(n - 1, i));
    }

    /**
     * A new array of the grid's length for a coefficient (allocate each once; count them in
     * {@link StepEquation#coefficientArrays}).
     */
    protected final float[] newArray() {
        held += len;
        return new float[len];
    }

    /**
     * The CPML profiles of a staggered grid for {@link #pmlVelocity()} ({@link Grid#staggeredProfiles}: per axis slot
     * z, y, x of n cells {@code [a(n) b(n) a½(n) b½(n)]}, at {@link #profileOffset}), made anew only when the velocity
     * changed.
     */
    protected final float[] staggeredProfiles() {
        double v = pmlVelocity();
        if (profiles == null || v != profileVelocity) {
            profiles = grid.staggeredProfiles(v);
            profileVelocity = v;
        }
        return profiles;
    }

    /** Where the profiles of model axis {@code axis} (0 = z, then y, x last) start in {@link #staggeredProfiles()}. */
    protected final int profileOffset(int axis) {
        int slot = grid.ndim() == 2 && axis == 1 ? 2 : axis;
        return slot == 0 ? 0 : slot == 1 ? 4 * nz : 4 * (nz + ny);
    }

    /** Floats of the arrays made by {@link #newArray} and the profiles. */
    final long heldFloats() {
        return held + (profiles == null ? 0 : profiles.length);
    }
}
