package sweep.models;

/** Velocity models made in code, deterministic, for the demo job and examples. */
public final class DefaultModels {
    private DefaultModels() {
    }

    /**
     * A 2-D layered model (nz, nx) at any spacing: four layers from 1500 to 3500 m/s with a gently dipping interface,
     * and a circular high-velocity anomaly (4000 m/s) in the third layer.
     */
    public static float[] layeredWithAnomaly(int nz, int nx) {
        float[] v = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                double fz = (double) z / nz;
                double fx = (double) x / nx;
                double vel;
                if (fz < 0.2) {
                    vel = 1500;
                } else if (fz < 0.45 + 0.05 * fx) {
                    vel = 2000;
                } else if (fz < 0.7) {
                    vel = 2800;
                } else {
                    vel = 3500;
                }
                double dz = fz - 0.57;
                double dx = (fx - 0.5) * nx / nz;
                if (dz * dz + dx * dx < 0.08 * 0.08) {
                    vel = 4000;
                }
                v[z * nx + x] = (float) vel;
            }
        }
        return v;
    }
}
