package sweep.prop.spi;

/**
 * What every device stepper is: a solver of one grid that keeps its fields on an accelerator for a whole shot, opened
 * by a {@link DeviceBackend}. Each equation has a contract of its own that extends this one
 * ({@code sweep.acoustic.AcousticDeviceStepper} for the acoustic equation), so a backend can offer one equation and not
 * another.
 */
public interface DeviceStepper extends AutoCloseable {
    /** System property choosing the backend: {@code java} (default), {@code tornado} or {@code auto}. */
    String PROPERTY = "sweep.backend";

    /** A short description of the device, for logs. */
    String describe();

    /**
     * Seconds of the last shot's steps after the first (the first uploads the zeroed fields), up to the end of its
     * last step, before the record and fields come back; NaN when not measured.
     */
    default double lastStepLoopSeconds() {
        return Double.NaN;
    }

    /**
     * A benchmark shot's steady time from {@link #lastStepLoopSeconds} ({@code loop}, the steps after the first)
     * scaled to all its {@code steps}; NaN when not measured or with fewer than 2 steps.
     */
    static double steadySeconds(double loop, int steps) {
        return Double.isNaN(loop) || steps < 2 ? Double.NaN : loop * steps / (steps - 1);
    }

    /** Frees the device memory this stepper holds. */
    @Override
    void close();
}
