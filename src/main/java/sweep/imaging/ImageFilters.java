package sweep.imaging;

/**
 * The post-processing of a migrated image: the Laplacian filter that removes the low-wavenumber backscatter of
 * reverse-time migration, and the division by the source illumination. Images are parameter-major model-shaped arrays
 * ({@code count} arrays of {@code shape}, z first, x fastest).
 */
public final class ImageFilters {
    /** The share of the largest illumination added to every cell's before dividing (keeps dark cells finite). */
    public static final double ILLUMINATION_FLOOR = 1e-3;

    private ImageFilters() {
    }

    /**
     * −∇² of each of the {@code count} images, second-order differences on spacings {@code dh} (per axis, z first),
     * the value beyond an edge taken equal to the edge cell's: positive where a positive image peaks.
     */
    public static float[] laplacian(float[] image, int count, int[] shape, double[] dh) {
        int nd = shape.length;
        int nz = shape[0];
        int ny = nd == 3 ? shape[1] : 1;
        int nx = shape[nd - 1];
        int cells = nz * ny * nx;
        check(image, count, cells);
        double cz = 1 / (dh[0] * dh[0]);
        double cy = nd == 3 ? 1 / (dh[1] * dh[1]) : 0;
        double cx = 1 / (dh[nd - 1] * dh[nd - 1]);
        float[] out = new float[image.length];
        for (int k = 0; k < count; k++) {
            int o = k * cells;
            for (int z = 0; z < nz; z++) {
                for (int y = 0; y < ny; y++) {
                    for (int x = 0; x < nx; x++) {
                        int i = o + (z * ny + y) * nx + x;
                        double c = image[i];
                        double s = cz * (2 * c - image[o + (Math.max(z - 1, 0) * ny + y) * nx + x]
                                - image[o + (Math.min(z + 1, nz - 1) * ny + y) * nx + x])
                                + cx * (2 * c - image[i - (x > 0 ? 1 : 0)] - image[i + (x < nx - 1 ? 1 : 0)]);
                        if (nd == 3) {
                            s += cy * (2 * c - image[i - (y > 0 ? nx : 0)] - image[i + (y < ny - 1 ? nx : 0)]);
                        }
                        out[i] = (float) s;
                    }
                }
            }
        }
        return out;
    }

    /**
     * Each of the {@code count} images divided by the source illumination {@code illumination} (one model-shaped
     * array, e.g. Σ over shots and steps of the source wavefield squared) plus {@link #ILLUMINATION_FLOOR} of its
     * largest value.
     */
    public static float[] divideByIllumination(float[] image, int count, float[] illumination) {
        int cells = illumination.length;
        check(image, count, cells);
        double max = 0;
        for (float v : illumination) {
            max = Math.max(max, v);
        }
        if (!(max > 0)) {
            throw new IllegalArgumentException("the source illumination is zero everywhere: the sources inject"
                    + " nothing (check the wavelet)");
        }
        double floor = ILLUMINATION_FLOOR * max;
        float[] out = new float[image.length];
        for (int i = 0; i < image.length; i++) {
            out[i] = (float) (image[i] / (illumination[i % cells] + floor));
        }
        return out;
    }

    /**
     * Each of the {@code count} images with its top {@code rows} depth rows set to zero (e.g. a water layer, where
     * the source and receiver side leave their strongest artefacts), in place; returns the image.
     */
    public static float[] muteRows(float[] image, int count, int[] shape, int rows) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        check(image, count, cells);
        if (rows < 0 || rows > shape[0]) {
            throw new IllegalArgumentException("cannot mute " + rows + " rows of an image of " + shape[0]
                    + " rows: give 0 to " + shape[0]);
        }
        int perRow = cells / shape[0];
        for (int k = 0; k < count; k++) {
            java.util.Arrays.fill(image, k * cells, k * cells + rows * perRow, 0f);
        }
        return image;
    }

    private static void check(float[] image, int count, int cells) {
        if (image.length != (long) count * cells) {
            throw new IllegalArgumentException("the image has " + image.length + " values; " + count + " arrays of "
                    + cells + " cells need " + (long) count * cells);
        }
    }
}
