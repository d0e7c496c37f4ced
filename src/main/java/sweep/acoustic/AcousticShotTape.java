package sweep.acoustic;


/**
 * What a gradient-capable forward run kept of one shot for its adjoint run: a {@link AcousticTape} on the Java backend,
 * a device backend's {@link AcousticDeviceTape} ({@link OnDevice}) on a device.
 */
sealed interface AcousticShotTape permits AcousticTape, AcousticShotTape.OnDevice {
    /** The shot's source cells (flat indices). */
    int[] srcIdx();

    /** The shot's receiver cells (flat indices). */
    int[] recIdx();

    /** Bytes the tape holds on the host. */
    long bytes();

    /** A tape recorded by a device backend. */
    record OnDevice(AcousticDeviceTape tape) implements AcousticShotTape {
        @Override
        public int[] srcIdx() {
            return tape.srcIdx;
        }

        @Override
        public int[] recIdx() {
            return tape.recIdx;
        }

        @Override
        public long bytes() {
            return tape.bytes();
        }
    }
}
