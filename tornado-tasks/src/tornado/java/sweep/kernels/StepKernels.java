package sweep.kernels;

/**
 * Device-side glue for the TornadoVM backend: the time-step index lives in {@code step[0]} on the device (a task's
 * scalar arguments are fixed when its task graph is built), and these tasks pass it to the portable kernels, which
 * TornadoVM inlines, so the arithmetic is exactly theirs.
 */
public final class StepKernels {
    private StepKernels() {
    }

    /** {@link Sources#sample} at step {@code step[0]}. */
    public static void sample(float[] u, int[] idx, float[] rec, int nrec, int[] step) {
        Sources.sample(u, idx, rec, nrec, step[0]);
    }

    /** {@link Sources#inject} at step {@code step[0]}. */
    public static void inject(float[] un, float[] v2, int[] idx, float[] wavelet, int nsrc, int nt, int[] step) {
        Sources.inject(un, v2, idx, wavelet, nsrc, nt, step[0]);
    }

    /** Advances the device-side step counter. */
    public static void advance(int[] step) {
        step[0] = step[0] + 1;
    }
}
