package sweep.elastic;

import sweep.elastic.kernels.ElasticLayout;
import sweep.prop.spi.DeviceBackend;
import sweep.prop.spi.DeviceStepper;

/**
 * The elastic equation on a device: a stepper that keeps one grid's velocities, stresses, parameters, CPML memory
 * variables and tape on an accelerator for a whole shot, with the Java backend's arithmetic and order (bit-identical
 * under strict math), and runs the adjoint of a shot from the tape its forward run left ({@link ElasticDeviceTape}).
 * Opened by a {@link DeviceBackend} for {@code sweep.elastic.ElasticSolver}; a backend without it returns null. Arrays
 * are laid out as in {@code sweep.elastic.kernels.ElasticLayout}.
 */
public interface ElasticDeviceStepper extends DeviceStepper {
    /**
     * Sets the kernel geometry {@code geo} (the acoustic slots and {@code ElasticLayout}'s), the staggered weights
     * {@code coef}, the buoyancy {@code b} (dt/ρ at the velocity nodes), the moduli {@code m} (dt-scaled) and the CPML
     * profiles {@code prof}; all copied. The geometry and weights are the grid's and never change.
     */
    void setModel(int[] geo, float[] coef, float[] b, float[] m, float[] prof);

    /**
     * Runs one shot of {@code nt} steps from rest with the Java stepper's sub-steps in its order (velocity, forces,
     * velocity images, receivers, stress, explosive sources, stress rule); returns {@code rec[t·nval + j]}, the
     * value {@code j} recorded at step t. When {@code tape} is not null, records what the adjoint run needs into it
     * (its storage decides what); when {@code every} &gt; 0 hands the velocities and stresses to {@code snapshots}
     * after every step that is a multiple of it.
     */
    float[] shot(ElasticShot shot, int nt, ElasticDeviceTape tape, int every, Snapshots snapshots);

    /** Receives the fields {@link #shot} copies from the device. */
    @FunctionalInterface
    interface Snapshots {
        /** v and σ after {@code step} steps (buffers the caller must copy from before the next call). */
        void at(int step, float[] v, float[] s);
    }

    /**
     * The adjoint run of one shot, with the Java backend's transposed sub-steps in its order: for the residual
     * {@code residual} ({@code (nt, nval)}, as the record) writes the node gradients dJ/d(dt/ρ) into {@code gb} (layout
     * of b) and dJ/d(dt·moduli) into {@code gm} (layout of m), and the adjoint value at each injection entry at each
     * step into {@code srcAdjoint[t·count + e]} (σ̄ after the transposed stress rule for explosive sources, v̄ before
     * the transposed velocity sub-step for forces), from which the caller forms dJ/dwavelet.
     */
    void backward(ElasticDeviceTape tape, float[] residual, int nt, float[] srcAdjoint, float[] gb, float[] gm);

    /** The velocities after the last shot (packed, halos included), copied from the device. */
    float[] velocities();

    /** The stresses after the last shot (packed, halos included), copied from the device. */
    float[] stresses();
}
