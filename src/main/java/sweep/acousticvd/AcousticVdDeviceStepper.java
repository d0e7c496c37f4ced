package sweep.acousticvd;

import sweep.prop.Storage;
import sweep.prop.spi.DeviceBackend;
import sweep.prop.spi.DeviceStepper;

/**
 * The variable-density acoustic equation on a device: a stepper that keeps one grid's pressure, velocities,
 * parameters, CPML memory variables and tape on an accelerator for a whole shot, with the Java backend's arithmetic
 * and order (bit-identical under strict math), and runs the adjoint of a shot from the tape its forward run left.
 * Opened by a {@link DeviceBackend} for {@code sweep.acousticvd.AcousticVdSolver} (one domain); a backend without it
 * returns null. Arrays are laid out as {@code sweep.acousticvd.kernels.AcousticVdKernels} says.
 */
public interface AcousticVdDeviceStepper extends DeviceStepper {
    /**
     * Sets the kernel geometry {@code geo}, the staggered weights {@code coef}, the rebuilt box of boundary saving
     * {@code box} ({z0, z1, y0, y1, x0, x1}), dt·K at the nodes {@code kdt}, the buoyancies dt/ρ̄ at the velocity
     * nodes {@code bv}, the CPML profiles {@code prof} and, for an equation with a {@link PressureRelaxation}, its
     * decays per step {@code alpha} and coefficients {@code cmem} (mechanism l at {@code l·LEN + i}; both null
     * without); all copied. Geometry, weights, box and the number of mechanisms are the grid's and never change.
     */
    void setModel(int[] geo, float[] coef, int[] box, float[] kdt, float[] bv, float[] prof, float[] alpha,
                  float[] cmem);

    /**
     * Runs one shot of {@code nt} steps from rest with the Java solver's sub-steps in its order (record p, velocity,
     * vz images, pressure, record v, sources, surface); returns {@code rec[t·nval + j]}, value j recorded at step t.
     * When {@code tape} is not null, records what the adjoint run needs into it (its storage decides what); when
     * {@code every} &gt; 0 hands the pressure to {@code snapshots} after every step that is a multiple of it.
     */
    float[] shot(Shot shot, int nt, Tape tape, int every, Snapshots snapshots);

    /**
     * The adjoint run of one shot with the Java solver's transposed sub-steps in its order: for the residual
     * {@code residual} ({@code (nt, nval)}, as the record) writes the node gradients dJ/d(dt·K) into {@code gk},
     * dJ/d(dt/ρ̄) into {@code gb} and, with a relaxation, dJ/dc_l into {@code gc} (null without), and p̄ at each source
     * cell at each step into {@code srcAdjoint[t·count + k]} (after the surface's transpose), from which the caller
     * forms dJ/dwavelet and the sources' share of dJ/dvp.
     */
    void backward(Tape tape, float[] residual, int nt, float[] srcAdjoint, float[] gk, float[] gb, float[] gc);

    /** The pressure after the last shot (halos included), copied from the device. */
    float[] pressure();

    /** The velocities after the last shot (packed, halos included), copied from the device. */
    float[] velocities();

    /** Receives the pressure {@link #shot} copies from the device. */
    @FunctionalInterface
    interface Snapshots {
        /** p after {@code step} steps (a buffer the caller must copy from before the next call). */
        void at(int step, float[] p);
    }

    /**
     * One shot's entries: the source cells {@code src} (array indices) with their scales vp²dt² and cumulative wavelets
     * {@code cum[k·nt + t]} (p[src[k]] += scale[k]·cum[k·nt + t] after step t); the recorded values
     * {@code valueIdx[j]} (array indices into p, or into the packed velocities) with {@code valueIsP[j]} 1 for p and 0
     * for a velocity, j = r·nfield + f as in the record; {@code nfield} values per receiver.
     */
    record Shot(int[] src, float[] scale, float[] cum, int[] valueIdx, int[] valueIsP, int nfield) {
    }

    /**
     * What one shot's gradient-capable forward run keeps for its adjoint run: with {@link Storage#FULL} every step's
     * brackets; with {@link Storage#BOUNDARY_SAVING} p and the velocities outside the rebuilt box after every step and
     * the state after the last step ({@code lastP}, {@code lastV}); with {@link Storage#CHECKPOINTING} the state (p,
     * velocities, both CPML memories, the relaxation's memory variables) before every {@code checkpointEvery}-th step,
     * from which the adjoint run re-runs each segment. The backend decides the layout of its stores: they stay on the
     * device after the forward run ({@code stores} null) and come to the host only when the device needs their place
     * for another shot's tape.
     */
    final class Tape {
        public final Storage storage;
        public final Shot shot;
        /** Checkpointing: the steps between checkpoints (0 for the other storages). */
        public final int checkpointEvery;
        /** The backend's tape arrays copied to the host, or null while the device holds them. */
        public float[][] stores;
        public float[] lastP;
        public float[] lastV;

        /** An empty tape of {@code shot}; {@code checkpointEvery} steps between checkpoints (checkpointing only). */
        public Tape(Storage storage, Shot shot, int checkpointEvery) {
            if ((storage == Storage.CHECKPOINTING) != (checkpointEvery > 0)) {
                throw new IllegalArgumentException("a " + storage + " tape with " + checkpointEvery + " steps between"
                        + " checkpoints: checkpointing needs at least 1, the other storages 0");
            }
            this.storage = storage;
            this.shot = shot;
            this.checkpointEvery = checkpointEvery;
        }

        /** Bytes the tape holds on the host. */
        public long bytes() {
            long n = 0;
            if (stores != null) {
                for (float[] a : stores) {
                    n += a.length;
                }
            }
            n += lastP == null ? 0 : lastP.length;
            n += lastV == null ? 0 : lastV.length;
            return 4 * n;
        }
    }
}
