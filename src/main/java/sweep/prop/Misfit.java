package sweep.prop;

/** A data misfit between one shot's synthetic and observed records, with its derivative (the adjoint source). */
public interface Misfit {
    /**
     * Returns the misfit of one shot, summed in double, and writes dJ/dsyn into {@code residual}. Arrays are
     * {@code (nt, nrec)} flat.
     */
    double evaluate(float[] syn, float[] obs, float[] residual);

    /**
     * This misfit for one shot whose sources and receivers (in trace order) lie at the given cells of the global grid,
     * (x, z) or (x, y, z): a {@link DataWindow} takes its offsets from them; other misfits are themselves. Solvers call
     * it for each shot before {@link #evaluate}; a misfit bound to a shot returns itself.
     */
    default Misfit forShot(int[][] sources, int[][] receivers) {
        return this;
    }

    /** The misfit inside a {@link DataWindow}, or this one when it has none. */
    default Misfit unwindowed() {
        return this;
    }

    /** The L2 misfit J = ½ Σ (syn − obs)², whose residual is syn − obs. */
    Misfit L2 = (syn, obs, residual) -> {
        double j = 0;
        for (int i = 0; i < syn.length; i++) {
            float r = syn[i] - obs[i];
            residual[i] = r;
            j += 0.5 * (double) r * r;
        }
        return j;
    };

    /**
     * The correlation J = Σ syn·obs, whose residual is obs itself: the gradient of a run with it is the adjoint of the
     * Born operator applied to the observed data (the reverse-time-migration image).
     */
    Misfit CORRELATION = (syn, obs, residual) -> {
        double j = 0;
        for (int i = 0; i < syn.length; i++) {
            residual[i] = obs[i];
            j += (double) syn[i] * obs[i];
        }
        return j;
    };
}
