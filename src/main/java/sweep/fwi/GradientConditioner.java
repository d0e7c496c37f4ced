package sweep.fwi;

import java.util.Arrays;

/**
 * What FWI does to each parameter's gradient before the optimiser sees it: a Gaussian smoothing along each axis, then
 * weights per cell (the top rows muted, a taper around every source, a mask). It runs on the whole gradient that every
 * rank holds, so the result does not depend on how the model is split into tiles.
 *
 * <p>The smoothing is the separable convolution with a Gaussian of standard deviation σ_a metres along axis a,
 * truncated at 4σ and normalised to sum 1, with zeros beyond the model's edges (symmetric, so the smoothed gradient
 * stays a descent direction; cells within 4σ of an edge lose the weight that falls outside). The taper around a source
 * is ½(1 − cos(π d/r)) at d metres from its cell, d &lt; r, and 1 beyond; around several sources the smallest value.
 */
public final class GradientConditioner {
    private final int[] shape;
    private final int cells;
    /** Per axis (model order z, (y), x) the smoothing kernel, or null for none along that axis. */
    private final double[][] kernels;
    /** Per cell the weight the gradient is multiplied by after the smoothing, or null for none. */
    private final float[] weight;
    private final long fingerprint;

    private GradientConditioner(int[] shape, double[][] kernels, float[] weight, long fingerprint) {
        this.shape = shape.clone();
        int n = 1;
        for (int d : shape) {
            n *= d;
        }
        this.cells = n;
        this.kernels = kernels;
        this.weight = weight;
        this.fingerprint = fingerprint;
    }

    /** Only the top {@code rows} rows muted (zero: the gradient as it is). */
    public static GradientConditioner muteRows(int[] shape, int rows) {
        return of(shape, new double[] {1}, rows, null, 0, null, null);
    }

    /**
     * The conditioner of a model of {@code shape} (z first) and spacing {@code dh} (one value or one per axis):
     * smoothing lengths {@code smooth} in metres per axis in model order (null, or zeros: none), the top {@code rows}
     * rows muted, a taper of {@code taper} metres (0: none) around the {@code sources} cells (B, nsrc, ndim) given x
     * first as everywhere else, and a {@code mask} in the model's shape (null: none) whose values multiply the
     * gradient.
     */
    public static GradientConditioner of(int[] shape, double[] dh, int rows, double[] smooth, double taper,
                                         int[][][] sources, float[] mask) {
        int ndim = shape.length;
        int n = 1;
        for (int d : shape) {
            n *= d;
        }
        double[] h = new double[ndim];
        for (int a = 0; a < ndim; a++) {
            h[a] = dh.length == 1 ? dh[0] : dh[a];
        }
        double[][] kernels = new double[ndim][];
        long fp = 0; // the settings beyond the muted rows: 0 without any
        if (smooth != null) {
            if (smooth.length != ndim) {
                throw new IllegalArgumentException("smoothing needs one length per axis (" + ndim + "), got "
                        + smooth.length);
            }
            for (int a = 0; a < ndim; a++) {
                if (!(smooth[a] >= 0) || Double.isInfinite(smooth[a])) {
                    throw new IllegalArgumentException("smoothing lengths must be >= 0 and finite, got "
                            + Arrays.toString(smooth));
                }
                if (smooth[a] > 0) {
                    kernels[a] = gaussian(smooth[a] / h[a]);
                    fp = fp * 31 + a * 17L + Double.hashCode(smooth[a]);
                }
            }
        }
        if (!(taper >= 0) || Double.isInfinite(taper)) {
            throw new IllegalArgumentException("the source taper radius must be >= 0 and finite, got " + taper);
        }
        if (taper > 0) {
            fp = fp * 31 + Double.hashCode(taper);
        }
        float[] w = null;
        if (rows > 0 || taper > 0 || mask != null) {
            w = new float[n];
            Arrays.fill(w, 1f);
            int plane = n / shape[0];
            Arrays.fill(w, 0, Math.min(rows, shape[0]) * plane, 0f);
            if (taper > 0 && sources != null) {
                taper(w, shape, h, taper, sources);
                fp = fp * 31 + Arrays.deepHashCode(sources);
            }
            if (mask != null) {
                if (mask.length != n) {
                    throw new IllegalArgumentException("the gradient mask has " + mask.length + " values; the model "
                            + Arrays.toString(shape) + " has " + n);
                }
                for (int i = 0; i < n; i++) {
                    w[i] *= mask[i];
                }
                fp = fp * 31 + Arrays.hashCode(mask) + 1;
            }
        }
        return new GradientConditioner(shape, kernels, w, fp);
    }

    /** The Gaussian of standard deviation {@code sigma} cells, truncated at 4σ (at least one cell), summing to 1. */
    static double[] gaussian(double sigma) {
        int r = Math.max(1, (int) Math.ceil(4 * sigma));
        double[] k = new double[2 * r + 1];
        double sum = 0;
        for (int j = -r; j <= r; j++) {
            k[j + r] = Math.exp(-0.5 * j * j / (sigma * sigma));
            sum += k[j + r];
        }
        for (int j = 0; j < k.length; j++) {
            k[j] /= sum;
        }
        return k;
    }

    /** Multiplies {@code w} by the taper of radius {@code r} metres around every source cell. */
    private static void taper(float[] w, int[] shape, double[] h, double r, int[][][] sources) {
        int ndim = shape.length;
        int ny = ndim == 3 ? shape[1] : 1;
        int nx = shape[ndim - 1];
        for (int z = 0; z < shape[0]; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    double t = 1;
                    for (int[][] shot : sources) {
                        for (int[] s : shot) {
                            // source cells are x first: (x, z) or (x, y, z)
                            double dz = (z - s[ndim - 1]) * h[0];
                            double dx = (x - s[0]) * h[ndim - 1];
                            double dy = ndim == 3 ? (y - s[1]) * h[1] : 0;
                            double d = Math.sqrt(dz * dz + dy * dy + dx * dx);
                            if (d < r) {
                                t = Math.min(t, 0.5 * (1 - Math.cos(Math.PI * d / r)));
                            }
                        }
                    }
                    int i = (z * ny + y) * nx + x;
                    w[i] = (float) (w[i] * t);
                }
            }
        }
    }

    /**
     * Identifies the smoothing, taper and mask, for the checkpoints of a job: 0 without any of them (the muted rows
     * are the job's own setting).
     */
    public long fingerprint() {
        return fingerprint;
    }

    /** Smooths, then weights, each parameter's block of the parameter-major gradient {@code grad}, in place. */
    public void apply(float[] grad) {
        if (grad.length % cells != 0) {
            throw new IllegalArgumentException("the gradient holds " + grad.length + " values, not a multiple of the"
                    + " model's " + cells + " cells");
        }
        for (int at = 0; at < grad.length; at += cells) {
            for (int a = 0; a < shape.length; a++) {
                if (kernels[a] != null) {
                    smoothAxis(grad, at, a);
                }
            }
            if (weight != null) {
                for (int i = 0; i < cells; i++) {
                    float w = weight[i];
                    grad[at + i] = w == 0f ? 0f : grad[at + i] * w; // a muted cell is +0, whatever its sign was
                }
            }
        }
    }

    /**
     * The illumination preconditioner's weights: 1 / (I/max I + ε) per cell, the diagonal pseudo-Hessian of Shin et
     * al. (2001) from the source side, scaled so that the brightest cell weighs about 1 and none more than 1/ε.
     */
    public static float[] illuminationWeights(float[] illumination, double epsilon) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("the preconditioner's epsilon must be > 0 and finite, got " + epsilon);
        }
        double max = 0;
        for (float v : illumination) {
            max = Math.max(max, v);
        }
        if (!(max > 0) || Double.isInfinite(max)) {
            throw new IllegalArgumentException("the source illumination is " + (max > 0 ? "not finite" : "zero")
                    + " everywhere: the sources inject nothing the model holds");
        }
        float[] w = new float[illumination.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (1 / (illumination[i] / max + epsilon));
        }
        return w;
    }

    /** Multiplies each parameter's block of {@code grad} by {@code weights} (one per cell), in place; null: nothing. */
    public static void precondition(float[] grad, float[] weights) {
        if (weights == null) {
            return;
        }
        int cells = weights.length;
        if (grad.length % cells != 0) {
            throw new IllegalArgumentException("the gradient holds " + grad.length + " values, not a multiple of the"
                    + " preconditioner's " + cells + " cells");
        }
        for (int at = 0; at < grad.length; at += cells) {
            for (int i = 0; i < cells; i++) {
                grad[at + i] *= weights[i];
            }
        }
    }

    /** The convolution of the block at {@code at} with the kernel of axis {@code a}, in double, zeros outside. */
    private void smoothAxis(float[] g, int at, int a) {
        double[] k = kernels[a];
        int r = k.length / 2;
        int n = shape[a];
        int stride = 1;
        for (int b = a + 1; b < shape.length; b++) {
            stride *= shape[b];
        }
        int outer = cells / (n * stride);
        double[] line = new double[n];
        for (int o = 0; o < outer; o++) {
            for (int s = 0; s < stride; s++) {
                int base = at + o * n * stride + s;
                for (int i = 0; i < n; i++) {
                    line[i] = g[base + i * stride];
                }
                for (int i = 0; i < n; i++) {
                    double acc = 0;
                    int lo = Math.max(0, i - r);
                    int hi = Math.min(n - 1, i + r);
                    for (int j = lo; j <= hi; j++) {
                        acc += k[j - i + r] * line[j];
                    }
                    g[base + i * stride] = (float) acc;
                }
            }
        }
    }
}
