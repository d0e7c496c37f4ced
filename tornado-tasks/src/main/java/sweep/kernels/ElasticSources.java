package sweep.kernels;

/**
 * Receiver sampling of the elastic fields (packed as in {@link ElasticLayout}). Source injection uses
 * {@link Sources}: a force adds {@code b·w} at its velocity node ({@link Sources#inject} with the buoyancy array and
 * the wavelet divided by the cell volume), an explosive source adds the negated, dt-scaled wavelet to each normal
 * stress ({@link Sources#add}).
 */
public final class ElasticSources {
    private ElasticSources() {
    }

    /** 1/3 rounded to float (a multiplication, not a division: OpenCL's float division need not be correctly rounded). */
    private static final float THIRD = 1.0f / 3.0f;

    /**
     * Writes sample n of {@code nval} recorded values into {@code rec[n·nval + j]}: for {@code kind[j] = 0} the
     * pressure at the normal-stress node {@code idx[j]} (of the σxx slot), −(σxx + σzz)·0.5 in 2-D and
     * −(σxx + σyy + σzz)·(1/3 as a float) in 3-D; otherwise {@code v[idx[j]]}, a velocity component at its own node (idx includes
     * the component's slot offset).
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
}
