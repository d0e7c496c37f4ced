package sweep.acousticvd.tornado;

import sweep.kernels.Parallel;

/**
 * Device-side glue of the TornadoVM backend's variable-density acoustic stepper, at the device's step counter
 * {@code step[0]}: the record, the sources, the residual and the adjoint values at the sources, with loops of their
 * own doing what {@code sweep.acousticvd.AcousticVdSolver} does on the host, in the same order (sources and residual
 * one value after another, so two at one cell add up as on the host). Nothing here computes beyond those sums.
 */
public final class AcousticVdStepKernels {
    private AcousticVdStepKernels() {
    }

    /**
     * {@code rec[step·nval + j] = (which == 1 ? p : v)[idx[j]]} for the values j with {@code isP[j] == which}: the
     * pressure values before a step (which 1), the velocity values after it (which 0). The others keep their value.
     */
    public static void sample(float[] p, float[] v, int[] idx, int[] isP, float[] rec, int nval, int which,
                              int[] step) {
        int base = step[0] * nval;
        for (@Parallel int j = 0; j < nval; j++) {
            float old = rec[base + j];
            float val = which == 1 ? p[idx[j]] : v[idx[j]];
            rec[base + j] = isP[j] == which ? val : old;
        }
    }

    /** {@code p[src[k]] += scale[k]·cum[k·nt + step]}, k = 0..count−1 in turn: the sources after the step. */
    public static void inject(float[] p, int[] src, float[] scale, float[] cum, int count, int nt, int[] step) {
        int n = step[0];
        for (int k = 0; k < count; k++) {
            int i = src[k];
            p[i] = p[i] + scale[k] * cum[k * nt + n];
        }
    }

    /** Undoes {@link #inject} in reverse order (k = count−1 down to 0), as boundary saving's rebuild does. */
    public static void uninject(float[] p, int[] src, float[] scale, float[] cum, int count, int nt, int[] step) {
        int n = step[0];
        for (int k = count - 1; k >= 0; k--) {
            int i = src[k];
            p[i] = p[i] - scale[k] * cum[k * nt + n];
        }
    }

    /**
     * The transposed record of step {@code step[0]}: adds {@code res[(step·nrec + r)·nf + f]} to p̄ or v̄ at the
     * value's index, field after field, receiver after receiver (the host's order).
     */
    public static void addResidual(float[] pb, float[] vb, int[] idx, int[] isP, float[] res, int nrec, int nf,
                                   int[] step) {
        int base = step[0] * nrec * nf;
        for (int f = 0; f < nf; f++) {
            for (int r = 0; r < nrec; r++) {
                int j = r * nf + f;
                int i = idx[j];
                if (isP[j] == 1) {
                    pb[i] = pb[i] + res[base + j];
                } else {
                    vb[i] = vb[i] + res[base + j];
                }
            }
        }
    }

    /** {@code out[step·count + k] = pb[src[k]]}: p̄ at the source cells at this step. */
    public static void gatherAt(float[] pb, int[] src, float[] out, int count, int[] step) {
        int base = step[0] * count;
        for (@Parallel int k = 0; k < count; k++) {
            out[base + k] = pb[src[k]];
        }
    }
}
