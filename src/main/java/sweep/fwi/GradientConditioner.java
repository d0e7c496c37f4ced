package sweep.fwi;

import java.util.Arrays;

/**
 * What FWI does to each parameter's gradient before the optimiser sees it: a Gaussian smoothing along each axis and
 * weights per cell (the top rows muted, a taper around every source, a mask), with a preconditioner in the symmetric
 * form of {@link #condition(float[], float[])}. Under MPI it runs on each rank's tile of
 * the gradient (the smoothing reaching into the neighbouring tiles), with the same bits as on the whole gradient.
 *
 * <p>The smoothing is the separable convolution with a Gaussian of standard deviation σ_a metres along axis a,
 * truncated at 4σ and normalised to sum 1, with zeros beyond the model's edges (symmetric, so the smoothed gradient
 * stays a descent direction; cells within 4σ of an edge lose the weight that falls outside). The taper around a source
 * is ½(1 − cos(π d/r)) at d metres from its cell, d &lt; r, and 1 beyond; around several sources the smallest value.
 */
public final class GradientConditioner {
    private final int[] shape;
    private final int cells;
    private final double[] h;
    /** Per axis (model order z, (y), x) the smoothing kernel, or null for none along that axis. */
    private final double[][] kernels;
    private final int rows;
    private final double taper;
    private final int[][][] sources;
    private final float[] mask;
    /** The tile {@link #mask} holds the cells of (the whole model: every cell). */
    private final ModelTile maskTile;
    /** Whether any cell has a weight (muted rows, taper or mask). */
    private final boolean weighted;
    private final long fingerprint;
    /** The tile the weights were last made for, and those weights (one per cell of the tile). */
    private ModelTile weightTile;
    private float[] weight;

    private GradientConditioner(int[] shape, double[] h, double[][] kernels, int rows, double taper,
                                int[][][] sources, float[] mask, ModelTile maskTile, long fingerprint) {
        this.shape = shape.clone();
        int n = 1;
        for (int d : shape) {
            n *= d;
        }
        this.cells = n;
        this.h = h;
        this.kernels = kernels;
        this.rows = rows;
        this.taper = taper;
        this.sources = sources;
        this.mask = mask;
        this.maskTile = maskTile;
        this.weighted = rows > 0 || (taper > 0 && sources != null) || mask != null;
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
     * gradient. With a mask it weights whole-model gradients only (one domain; a tile's mask: the next method).
     */
    public static GradientConditioner of(int[] shape, double[] dh, int rows, double[] smooth, double taper,
                                         int[][][] sources, float[] mask) {
        return of(shape, dh, rows, smooth, taper, sources, mask, mask == null ? null : ModelTile.whole(shape, 1));
    }

    /**
     * As {@link #of(int[], double[], int, double[], double, int[][][], float[])} with the mask given as the cells of
     * {@code maskTile} only (its tile of the mask file, so that no rank holds the whole mask): the conditioner then
     * weights gradients of that tile only. Collective over the tile's ranks when there is a mask.
     */
    public static GradientConditioner of(int[] shape, double[] dh, int rows, double[] smooth, double taper,
                                         int[][][] sources, float[] mask, ModelTile maskTile) {
        int ndim = shape.length;
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
        if (taper > 0 && sources != null) {
            fp = fp * 31 + Arrays.deepHashCode(sources);
        }
        if (mask != null) {
            if (mask.length != maskTile.cells() || !Arrays.equals(maskTile.globalShape(), shape)) {
                throw new IllegalArgumentException("the gradient mask has " + mask.length + " values; the model "
                        + Arrays.toString(shape) + " has " + maskTile.cells() + " in the tile");
            }
            fp = fp * 31 + maskTile.fingerprint(mask) + 1;
        }
        return new GradientConditioner(shape, h, kernels, rows, taper, taper > 0 ? sources : null, mask, maskTile,
                fp);
    }

    /**
     * The weight of every cell of {@code tile} (1, 0 on the muted rows, times the taper around the sources, times the
     * mask), made once per tile: each cell's value is the same whatever the tiling.
     */
    private float[] weights(ModelTile tile) {
        if (tile == weightTile) {
            return weight;
        }
        int ndim = shape.length;
        int[] ts = tile.shape();
        int[] to = tile.offset();
        int tny = ndim == 3 ? ts[1] : 1;
        int tnx = ts[ndim - 1];
        int oy = ndim == 3 ? to[1] : 0;
        int ox = to[ndim - 1];
        if (mask != null && !(Arrays.equals(maskTile.shape(), ts) && Arrays.equals(maskTile.offset(), to))) {
            throw new IllegalStateException("the gradient mask holds the tile at " + Arrays.toString(maskTile.offset())
                    + ", not the one at " + Arrays.toString(to));
        }
        float[] w = new float[tile.cells()];
        for (int z = 0; z < shape[0]; z++) {
            for (int y = 0; y < tny; y++) {
                for (int x = 0; x < tnx; x++) {
                    int i = (z * tny + y) * tnx + x;
                    float v = z < rows ? 0f : 1f;
                    if (sources != null) {
                        v = (float) (v * taperAt(z, oy + y, ox + x));
                    }
                    if (mask != null) {
                        v *= mask[i];
                    }
                    w[i] = v;
                }
            }
        }
        weightTile = tile;
        weight = w;
        return w;
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

    /** The taper of radius {@link #taper} metres around every source cell at cell (z, y, x): the smallest. */
    private double taperAt(int z, int y, int x) {
        int ndim = shape.length;
        double t = 1;
        for (int[][] shot : sources) {
            for (int[] s : shot) {
                // source cells are x first: (x, z) or (x, y, z)
                double dz = (z - s[ndim - 1]) * h[0];
                double dx = (x - s[0]) * h[ndim - 1];
                double dy = ndim == 3 ? (y - s[1]) * h[1] : 0;
                double d = Math.sqrt(dz * dz + dy * dy + dx * dx);
                if (d < taper) {
                    t = Math.min(t, 0.5 * (1 - Math.cos(Math.PI * d / taper)));
                }
            }
        }
        return t;
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
        apply(grad, ModelTile.whole(shape, grad.length / cells));
    }

    /**
     * As {@link #apply(float[])} on {@code tile}'s part of the gradient (under MPI the smoothing reaches into the
     * neighbouring tiles): the same bits as on the whole gradient. Collective over the tiles.
     */
    public void apply(float[] grad, ModelTile tile) {
        if (!Arrays.equals(tile.globalShape(), shape)) {
            throw new IllegalArgumentException("a conditioner of a model " + Arrays.toString(shape) + " cannot"
                    + " condition a gradient of " + Arrays.toString(tile.globalShape()));
        }
        int n = tile.cells();
        for (int at = 0; at < grad.length; at += n) {
            for (int a = 0; a < shape.length; a++) {
                if (kernels[a] != null) {
                    smoothAxis(grad, at, a, tile);
                }
            }
            if (weighted) {
                float[] w = weights(tile);
                for (int i = 0; i < n; i++) {
                    grad[at + i] = w[i] == 0f ? 0f : grad[at + i] * w[i]; // a muted cell is +0, whatever its sign
                }
            }
        }
    }

    /**
     * The search direction's gradient as the optimiser sees it: the raw gradient {@code grad} (this rank's tile of
     * it, parameter-major) preconditioned by {@code preconditioner} (one weight per cell, e.g. {@link
     * #illuminationWeights}; null: none) and conditioned by this conditioner, in place. The result is C g with C
     * symmetric and positive semi-definite, so that −C g is a descent direction of the misfit: without smoothing C =
     * W P (the cell weights W times the preconditioner P, diagonal), with smoothing S it is R S R with R = √(W P)
     * (only S when there are neither weights nor a preconditioner). Weights applied after a smoothing alone (W S P)
     * would make C unsymmetric, and −C g can then point uphill where the illumination changes fast. Collective over
     * the tiles.
     */
    public void condition(float[] grad, float[] preconditioner) {
        if (grad.length % cells != 0) {
            throw new IllegalArgumentException("the gradient holds " + grad.length + " values, not a multiple of the"
                    + " model's " + cells + " cells");
        }
        condition(grad, preconditioner, ModelTile.whole(shape, grad.length / cells));
    }

    /** As {@link #condition(float[], float[])} on {@code tile}'s part of the gradient. Collective over the tiles. */
    public void condition(float[] grad, float[] preconditioner, ModelTile tile) {
        boolean smooth = false;
        for (double[] k : kernels) {
            smooth |= k != null;
        }
        if (!smooth || preconditioner == null && !weighted) {
            precondition(grad, preconditioner);
            apply(grad, tile);
            return;
        }
        int n = tile.cells();
        if (preconditioner != null && preconditioner.length != n || grad.length % n != 0) {
            throw new IllegalArgumentException("a gradient of " + grad.length + " values and a preconditioner of "
                    + (preconditioner == null ? 0 : preconditioner.length) + " weights for a tile of " + n + " cells");
        }
        float[] w = weighted ? weights(tile) : null;
        float[] root = new float[n];
        for (int i = 0; i < n; i++) {
            double c = (preconditioner == null ? 1 : preconditioner[i]) * (w == null ? 1 : w[i]);
            root[i] = (float) Math.sqrt(c);
        }
        for (int at = 0; at < grad.length; at += n) {
            for (int i = 0; i < n; i++) {
                grad[at + i] = root[i] == 0f ? 0f : grad[at + i] * root[i];
            }
            for (int a = 0; a < shape.length; a++) {
                if (kernels[a] != null) {
                    smoothAxis(grad, at, a, tile);
                }
            }
            for (int i = 0; i < n; i++) {
                grad[at + i] = root[i] == 0f ? 0f : grad[at + i] * root[i]; // a muted cell is +0, whatever its sign
            }
        }
    }

    /**
     * The illumination preconditioner's weights: 1 / (I/max I + ε) per cell, the diagonal pseudo-Hessian of Shin et
     * al. (2001) from the source side, scaled so that the brightest cell weighs about 1 and none more than 1/ε.
     */
    public static float[] illuminationWeights(float[] illumination, double epsilon) {
        return illuminationWeights(illumination, epsilon, null);
    }

    /**
     * As {@link #illuminationWeights(float[], double)} for {@code tile}'s part of the illumination (the maximum over
     * every tile; null: the whole model). Collective over the tiles.
     */
    public static float[] illuminationWeights(float[] illumination, double epsilon, ModelTile tile) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("the preconditioner's epsilon must be > 0 and finite, got " + epsilon);
        }
        double max = 0;
        for (float v : illumination) {
            max = Math.max(max, v);
        }
        if (tile != null) {
            max = tile.max(max);
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

    /**
     * The convolution of the block at {@code at} of a tile array with the kernel of axis {@code a}, in double, zeros
     * outside the model: along y and x the tile first widened by the kernel's reach from its neighbours.
     */
    private void smoothAxis(float[] g, int at, int a, ModelTile tile) {
        double[] k = kernels[a];
        int r = k.length / 2;
        int[] ts = tile.shape();
        int n = shape[a];
        int own = tile.offset()[a];
        int[] range = a == 0 ? new int[] {0, n} : tile.widenedRange(a, r);
        float[] block = Arrays.copyOfRange(g, at, at + tile.cells());
        float[] src = a == 0 ? block : tile.widened(block, a, r);
        int width = range[1] - range[0];
        int stride = 1;
        for (int b = a + 1; b < ts.length; b++) {
            stride *= ts[b];
        }
        int outer = tile.cells() / (ts[a] * stride);
        for (int o = 0; o < outer; o++) {
            for (int s = 0; s < stride; s++) {
                int in = o * width * stride + s;
                int out = at + o * ts[a] * stride + s;
                for (int i = 0; i < ts[a]; i++) {
                    int gi = own + i;
                    double acc = 0;
                    int lo = Math.max(0, gi - r);
                    int hi = Math.min(n - 1, gi + r);
                    for (int j = lo; j <= hi; j++) {
                        acc += k[j - gi + r] * src[in + (j - range[0]) * stride];
                    }
                    g[out + i * stride] = (float) acc;
                }
            }
        }
    }
}
