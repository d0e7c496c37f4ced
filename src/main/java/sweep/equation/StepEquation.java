package sweep.equation;

import java.util.ArrayList;
import java.util.List;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * A {@link WaveEquation} whose solver is the {@link StepSolver} skeleton: the equation gives its {@link Step} and a
 * few counts, and gets forward modelling, full and checkpointed gradients, memory figures and model checks from them.
 * Besides the declarations of {@link WaveEquation} without a default (name, parameters, fields, what is recorded and
 * injected, the stable dt, halo points) a subclass writes {@link #step}, {@link #auxiliaries},
 * {@link #coefficientArrays}, {@link #adjointWorkArrays} and {@link #tapeFloatsPerCell}.
 */
public abstract class StepEquation implements WaveEquation {
    /** The step of a run of {@code spec} on {@code grid} (one per solver). */
    protected abstract Step step(PropSpec spec, Grid grid);

    /**
     * The state arrays after the fields: CPML memory variables and any other level the step keeps (e.g. the previous
     * level of a leapfrog), each an array of the grid's length. Default none.
     */
    public List<String> auxiliaries(int ndim) {
        return List.of();
    }

    /** The state arrays of a step in order: {@link #fields}, then {@link #auxiliaries}. */
    public final List<String> state(int ndim) {
        List<String> s = new ArrayList<>(fields(ndim));
        s.addAll(auxiliaries(ndim));
        return List.copyOf(s);
    }

    /** Arrays of the grid's length the step keeps for its coefficients (made from the model). */
    public abstract int coefficientArrays(int ndim);

    /** Arrays of the grid's length the adjoint run works in besides the adjoint state (scratch, node gradients). */
    public abstract int adjointWorkArrays(int ndim);

    /** Floats per computational cell and step the forward run tapes for the gradient. */
    public abstract int tapeFloatsPerCell(int ndim);

    /** Floats of the CPML profiles the step keeps (default: {@link Grid#staggeredProfiles}' 4·(nz + ny + nx)). */
    public long profileFloats(Grid g) {
        return 4L * (g.nz() + g.ny() + g.nx());
    }

    @Override
    public EquationSolver solver(PropSpec spec, Grid grid, HaloHook halo) {
        return new StepSolver(spec, grid, halo, step(spec, grid));
    }

    /** Checkpointing (the default, memory bounded), then full storage. */
    @Override
    public List<Storage> storages() {
        return List.of(Storage.CHECKPOINTING, Storage.FULL);
    }

    @Override
    public boolean hasDeviceSolver() {
        return false;
    }

    /**
     * Every value of each parameter allowed by its declaration ({@link Parameter#allows}: finite, inside its
     * {@link Parameter#lowest()} and {@link Parameter#highest()}); the message names the array, the value, its global
     * position and the allowed values.
     */
    @Override
    public void checkModel(float[] model, int[] shape, int[] origin, int[] physical, String[] names) {
        checkDimension(shape.length);
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        int np = parameterCount();
        if (model.length != (long) np * n) {
            throw new IllegalArgumentException("an " + name() + " model holds " + String.join(", ", parameterNames())
                    + " one after the other, " + np + " x " + n + " values, got " + model.length);
        }
        for (int k = 0; k < np; k++) {
            Cells.checkValues(model, k * n, shape, origin, physical, names[k], parameters().get(k));
        }
    }

    @Override
    public int pmlAuxiliariesPerAxis(int ndim) {
        return auxiliaries(ndim).size() / ndim;
    }

    /** The caller's arrays, the model stacked parameter-major and the solver's copy of its window. */
    @Override
    public int modelFloatsPerCell() {
        return 3 * parameterCount();
    }

    @Override
    public List<String> defaultInversion() {
        return List.of(parameterNames().get(0));
    }

    /** The fields and the coefficient arrays. */
    @Override
    public long fieldBytes(Grid g) {
        return 4L * (fields(g.ndim()).size() + coefficientArrays(g.ndim())) * g.length();
    }

    /** The auxiliary state arrays and the profiles. */
    @Override
    public long cpmlBytes(Grid g) {
        return 4L * (auxiliaries(g.ndim()).size() * (long) g.length() + profileFloats(g));
    }

    /** The adjoint state and the work arrays. */
    @Override
    public long adjointBytes(Grid g, Storage storage) {
        return 4L * (state(g.ndim()).size() + adjointWorkArrays(g.ndim())) * (long) g.length();
    }

    /** For CHECKPOINTING the schedule, e.g. "2000 steps in segments of 60, 33 checkpoints, 1 level". */
    @Override
    public String storagePlan(Grid g, Storage storage, int nt) {
        return storage == Storage.CHECKPOINTING ? StepSolver.schedule(g, nt).toString() : null;
    }

    /** FULL: every step's tape; CHECKPOINTING: the schedule's checkpoints and one segment's tape. */
    @Override
    public long tapeBytes(Grid g, Storage storage, int nt) {
        long step = StepSolver.tapeBytesPerStep(g);
        if (storage == Storage.CHECKPOINTING) {
            return StepSolver.schedule(g, nt).bytes(StepSolver.stateBytes(g), step);
        }
        return nt * step;
    }
}
