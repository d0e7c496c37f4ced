package sweep.kernels;

/**
 * Point-source injection and receiver sampling on flat wavefield arrays, for any dimension. Sources are injected
 * one after another in list order (several sources may share a cell), so these kernels are sequential.
 */
public final class Sources {
    private Sources() {
    }

    /**
     * Adds {@code v2[idx[s]] · wavelet[s·nt + n]} to {@code un[idx[s]]} for sources s = 0..nsrc−1, where v2 holds
     * v²dt².
     */
    public static void inject(float[] un, float[] v2, int[] idx, float[] wavelet, int nsrc, int nt, int n) {
        for (int s = 0; s < nsrc; s++) {
            int i = idx[s];
            un[i] = un[i] + v2[i] * wavelet[s * nt + n];
        }
    }

    /** Writes {@code u[idx[r]]} into {@code rec[n·nrec + r]} for receivers r = 0..nrec−1. */
    public static void sample(float[] u, int[] idx, float[] rec, int nrec, int n) {
        for (@Parallel int r = 0; r < nrec; r++) {
            rec[n * nrec + r] = u[idx[r]];
        }
    }

    /** Adds {@code samples[s·nt + n]} to {@code f[idx[s]]} for s = 0..count−1 (adjoint sources, gradient terms). */
    public static void add(float[] f, int[] idx, float[] samples, int count, int nt, int n) {
        for (int s = 0; s < count; s++) {
            int i = idx[s];
            f[i] = f[i] + samples[s * nt + n];
        }
    }

    /** Subtracts {@code v2[idx[s]]·wavelet[s·nt + n]} from {@code un[idx[s]]}, undoing {@link #inject} (in reverse order). */
    public static void uninject(float[] un, float[] v2, int[] idx, float[] wavelet, int nsrc, int nt, int n) {
        for (int s = nsrc - 1; s >= 0; s--) {
            int i = idx[s];
            un[i] = un[i] - v2[i] * wavelet[s * nt + n];
        }
    }
}
