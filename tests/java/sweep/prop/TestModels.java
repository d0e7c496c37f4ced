package sweep.prop;

import java.util.Random;

/** Deterministic heterogeneous test models. */
final class TestModels {
    private TestModels() {
    }

    /**
     * A smooth random velocity model around {@code v0} (±{@code amp}), a sum of a few random low-wavenumber cosines,
     * on shape (nz, nx) or (nz, ny, nx).
     */
    static float[] smoothRandom(long seed, double v0, double amp, int... shape) {
        Random rnd = new Random(seed);
        int nz = shape[0];
        int ny = shape.length == 3 ? shape[1] : 1;
        int nx = shape[shape.length - 1];
        int modes = 6;
        double[][] k = new double[modes][4];
        for (double[] m : k) {
            m[0] = rnd.nextDouble() * 3 * Math.PI / nz;
            m[1] = rnd.nextDouble() * 3 * Math.PI / ny;
            m[2] = rnd.nextDouble() * 3 * Math.PI / nx;
            m[3] = rnd.nextDouble() * 2 * Math.PI;
        }
        float[] v = new float[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    double s = 0;
                    for (double[] m : k) {
                        s += Math.cos(m[0] * z + m[1] * y + m[2] * x + m[3]);
                    }
                    v[(z * ny + y) * nx + x] = (float) (v0 + amp * s / modes);
                }
            }
        }
        return v;
    }
}
