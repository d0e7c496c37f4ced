package sweep.acoustic;

import sweep.prop.Storage;

/**
 * What one shot's forward run on the Java backend left for its adjoint run (filled by {@link AcousticTapeRecorder}):
 * with {@link Storage#FULL} the Laplacian-plus-source term of every step; with {@link Storage#BOUNDARY_SAVING} the ring
 * of every level 0..nt−1 and the last two levels.
 */
final class AcousticTape implements AcousticShotTape {
    final int[] srcIdx;
    final int[] recIdx;
    final float[] wavelet;
    /** FULL: the Laplacian-plus-source term of every step. */
    float[][] terms;
    /** BOUNDARY_SAVING: ring of every level 0..nt-1, and the last two levels. */
    float[][] rings;
    float[] last;
    float[] beforeLast;

    /**
     * Whether this tape lives in the recorder's and the adjoint's own buffers (one shot's forward run straight followed
     * by its adjoint run): its rings and last levels are overwritten by the next such tape, and its adjoint run may
     * consume them.
     */
    final boolean transientBuffers;

    AcousticTape(int[] srcIdx, int[] recIdx, float[] wavelet, boolean transientBuffers) {
        this.srcIdx = srcIdx;
        this.recIdx = recIdx;
        this.wavelet = wavelet;
        this.transientBuffers = transientBuffers;
    }

    @Override
    public int[] srcIdx() {
        return srcIdx;
    }

    @Override
    public int[] recIdx() {
        return recIdx;
    }

    @Override
    public long bytes() {
        if (transientBuffers) {
            return 0; // counted in the recorder's and the adjoint's bytes()
        }
        long n = 0;
        if (terms != null) {
            for (float[] t : terms) {
                n += t.length;
            }
        }
        if (rings != null) {
            for (float[] r : rings) {
                n += r.length;
            }
            n += last.length + beforeLast.length;
        }
        return 4 * n;
    }
}
