package sweep.prop;

/**
 * The source time functions of a batch, in one of three layouts: {@code nt} values shared by every source of every
 * shot, {@code (B, nt)} one per shot, or {@code (B, nsrc, nt)} one per source (every shot then has nsrc sources; used
 * e.g. by encoded supershots, whose sources carry ±1 codes). Resolves the wavelet of each source of a shot. Part of
 * the equation contract: a solver ({@link sweep.equation.EquationSolver}) takes the wavelets of every call through
 * {@link #stride} (which checks them) and {@link #of}, so that every equation accepts the same layouts.
 */
public final class ShotWavelets {
    private ShotWavelets() {
    }

    /**
     * Checks the wavelet against the batch and returns how many values one shot owns in it: 0 when shared,
     * {@code nt} per shot, {@code nsrc·nt} per source.
     */
    public static int stride(float[] wavelet, int[][][] sources, int nt) {
        if (wavelet == null) {
            throw new IllegalArgumentException("wavelet is missing");
        }
        for (float v : wavelet) {
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException("wavelet holds a non-finite value (" + v + ")");
            }
        }
        int shots = sources.length;
        if (wavelet.length == nt) {
            return 0;
        }
        if (wavelet.length == (long) shots * nt) {
            return nt;
        }
        int nsrc = sources[0].length;
        boolean uniform = true;
        for (int[][] s : sources) {
            uniform &= s.length == nsrc;
        }
        if (uniform && wavelet.length == (long) shots * nsrc * nt) {
            return nsrc * nt;
        }
        throw new IllegalArgumentException("wavelet has " + wavelet.length + " samples; expected nt=" + nt
                + " (one for all shots), B*nt=" + (long) shots * nt + " (shape (B, nt))"
                + (uniform ? " or B*nsrc*nt=" + (long) shots * nsrc * nt + " (shape (B, nsrc, nt))" : ""));
    }

    /**
     * The wavelets of shot {@code b}'s sources listed in {@code sourceIndices} (indices into {@code sources[b]}), as
     * {@code (k, nt)}; {@code stride} is {@link #stride}'s answer.
     */
    public static float[] of(float[] wavelet, int stride, int b, int[] sourceIndices, int nt) {
        float[] w = new float[sourceIndices.length * nt];
        for (int k = 0; k < sourceIndices.length; k++) {
            int from = stride == 0 ? 0 : stride == nt ? b * nt : b * stride + sourceIndices[k] * nt;
            System.arraycopy(wavelet, from, w, k * nt, nt);
        }
        return w;
    }

    /** The wavelets of all of shot {@code b}'s {@code nsrc} sources, {@code (nsrc, nt)}. */
    public static float[] of(float[] wavelet, int stride, int b, int nsrc, int nt) {
        int[] all = new int[nsrc];
        for (int i = 0; i < nsrc; i++) {
            all[i] = i;
        }
        return of(wavelet, stride, b, all, nt);
    }
}
