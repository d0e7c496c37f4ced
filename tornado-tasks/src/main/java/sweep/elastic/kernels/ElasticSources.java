package sweep.elastic.kernels;

import sweep.kernels.Parallel;
import sweep.kernels.Sources;

/**
 * Receiver sampling of the elastic fields (packed as in {@link ElasticLayout}). Source injection uses
 * {@link Sources}: a force adds {@code b·w} at its velocity node ({@link Sources#inject} with the buoyancy array and
 * the wavelet divided by the cell volume), an explosive source adds the negated, dt-scaled wavelet to each normal
 * stress ({@link Sources#add}).
 */
public final class ElasticSources {
    private ElasticSources() {
    }

    /**
     * 1/3 rounded to float (a multiplication, not a division: OpenCL's float division need not be correctly rounded).
     */
    private static final float THIRD = 1.0f / 3.0f;

    /**
     * Writes sample n of {@code nval} recorded values into {@code rec[n·nval + j]}: for {@code kind[j] = 0} the
     * pressure at the normal-stress node {@code idx[j]} (of the σxx slot), −(σxx + σzz)·0.5 in 2-D and
     * −(σxx + σyy + σzz)·(1/3 as a float) in 3-D; otherwise {@code v[idx[j]]}, a velocity component at its own node
     * (idx includes the component's slot offset).
     */
    public static void sample(float[] v, float[] s, int[] idx, int[] kind, float[] rec, int nval, int ndim, int len,
                              int n) {
        for (@Parallel int j = 0; j < nval; j++) {
            int i = idx[j];
            float val;
            if (kind[j] == 0) {
                if (ndim == 2) {
                    val = -(s[i] + s[len + i]) * 0.5f;
                } else {
                    val = -(s[i] + s[len + i] + s[2 * len + i]) * THIRD;
                }
            } else {
                val = v[i];
            }
            rec[n * nval + j] = val;
        }
    }

    /**
     * Transpose of {@link #sample}: adds sample n of the residual {@code res[n·nval + j]} back at each recorded node,
     * for a pressure {@code −r·0.5} (2-D) or {@code −r·(1/3 as a float)} (3-D) into each normal stress, for a velocity
     * r into {@code vb}. Sequential: several receivers may share a node.
     */
    public static void sampleAdjoint(float[] vb, float[] sb, int[] idx, int[] kind, float[] res, int nval, int ndim,
                                     int len, int n) {
        for (int j = 0; j < nval; j++) {
            int i = idx[j];
            float r = res[n * nval + j];
            if (kind[j] == 0) {
                if (ndim == 2) {
                    float q = -r * 0.5f;
                    sb[i] = sb[i] + q;
                    sb[len + i] = sb[len + i] + q;
                } else {
                    float q = -r * THIRD;
                    sb[i] = sb[i] + q;
                    sb[len + i] = sb[len + i] + q;
                    sb[2 * len + i] = sb[2 * len + i] + q;
                }
            } else {
                vb[i] = vb[i] + r;
            }
        }
    }
}
