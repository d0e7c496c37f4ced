package sweep.acoustic;

import sweep.prop.spi.DeviceBackend;
import sweep.prop.spi.DeviceStepper;

/**
 * The acoustic equation on a device: a stepper that keeps one grid's wavefields, CPML auxiliaries and model on an
 * accelerator for a whole shot, with the Java backend's arithmetic and order (bit-identical under strict math), and
 * runs the adjoint of a shot from the tape its forward run left ({@link AcousticDeviceTape}). Opened by a
 * {@link DeviceBackend} for {@code sweep.prop.Propagator}.
 */
public interface AcousticDeviceStepper extends DeviceStepper {
    /** Sets v²dt² on the computational grid and the CPML profiles (both copied). */
    void setModel(float[] v2, float[] prof);

    /**
     * Runs one shot of {@code nt} steps from rest with the Java stepper's arithmetic and order (sample, CPML
     * auxiliaries, PML boxes, interior box, injection, free-surface mirror); returns {@code rec[n·nrec + r]}, the
     * wavefield u^n at {@code recIdx[r]} before step n.
     *
     * @param wavelet source time functions {@code (nsrc, nt)}
     */
    default float[] shot(int[] srcIdx, float[] wavelet, int[] recIdx, int nt) {
        return shot(srcIdx, wavelet, recIdx, nt, null, 0, null);
    }

    /**
     * As {@link #shot(int[], float[], int[], int)}, and, when {@code tape} is not null, records what the adjoint run
     * needs into it (see {@link AcousticDeviceTape}; its storage mode decides what); when {@code every} &gt; 0, hands
     * u^n (the whole computational array, copied from the device) to {@code snapshots} after every step n that is a
     * multiple of {@code every}.
     */
    float[] shot(int[] srcIdx, float[] wavelet, int[] recIdx, int nt, AcousticDeviceTape tape, int every,
            Snapshots snapshots);

    /** Receives the wavefield levels {@link #shot} copies from the device. */
    @FunctionalInterface
    interface Snapshots {
        /** u^step, the whole computational array (a buffer the caller must copy from before the next call). */
        void at(int step, float[] field);
    }

    /**
     * The adjoint run of one shot, with the Java backend's arithmetic and order ({@code AcousticAdjoint.backward},
     * portable kernels): for {@code residualT} ({@code (nrec, nt)} flat) adds dJ/d(v²dt²) on the computational grid
     * into {@code gradOut} and writes dJ/dwavelet per source into {@code wbar} ({@code (nsrc, nt)}).
     */
    void backward(AcousticDeviceTape tape, float[] residualT, int nt, float[] gradOut, float[] wbar);

    /** The wavefield u^nt of the last shot (whole computational array, halo included), copied from the device. */
    float[] wavefield();
}
