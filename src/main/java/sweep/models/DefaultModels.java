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

    /**
     * The FWI demo model, 2000 m deep and 6000 m wide at any spacing {@code dh} (200×600 cells at 10 m): a water-like
     * top layer, dipping sediment layers offset by a normal fault, a high-velocity salt-like body and a low-velocity
     * gas lens. Velocities 1500–4500 m/s. Shape {@code (round(2000/dh), round(6000/dh))}.
     */
    public static float[] fwi2d(double dh) {
        int nz = (int) Math.round(2000 / dh);
        int nx = (int) Math.round(6000 / dh);
        float[] v = new float[nz * nx];
        for (int iz = 0; iz < nz; iz++) {
            for (int ix = 0; ix < nx; ix++) {
                v[iz * nx + ix] = (float) fwiVelocity((ix + 0.5) * dh, 0, (iz + 0.5) * dh);
            }
        }
        return v;
    }

    /**
     * The 3-D counterpart of {@link #fwi2d}: 2000 m deep, 2000 m along y and 6000 m along x, shape
     * {@code (round(2000/dh), round(2000/dh), round(6000/dh))}. The fault's strike turns with y, the fast body and
     * the slow lens are ellipsoids centred at y = 1000 m, where the model's section is the 2-D model.
     */
    public static float[] fwi3d(double dh) {
        int nz = (int) Math.round(2000 / dh);
        int ny = (int) Math.round(2000 / dh);
        int nx = (int) Math.round(6000 / dh);
        float[] v = new float[nz * ny * nx];
        for (int iz = 0; iz < nz; iz++) {
            for (int iy = 0; iy < ny; iy++) {
                for (int ix = 0; ix < nx; ix++) {
                    v[(iz * ny + iy) * nx + ix] = (float) fwiVelocity((ix + 0.5) * dh, (iy + 0.5) * dh - 1000,
                            (iz + 0.5) * dh);
                }
            }
        }
        return v;
    }

    /** Velocity of the FWI model at (x, y, z) in m, y measured from the central section. */
    private static double fwiVelocity(double x, double y, double z) {
        // fault: in the section y = 0 a line dipping from (3200, 300) to (2600, 2000); the hanging wall (left) drops
        // 150 m; its trace shifts 0.15 m in x per m of y
        double faultX = 3200 + 0.15 * y - (z - 300) * 600 / 1700;
        double zz = (x < faultX && z > 300) ? z - 150 : z;
        double dip = 0.06 * (x - 3000);
        double vel;
        if (z < 250) {
            vel = 1500;
        } else if (zz + dip < 600) {
            vel = 1900;
        } else if (zz + dip < 950) {
            vel = 2300;
        } else if (zz + dip < 1350) {
            vel = 2800;
        } else {
            vel = 3300;
        }
        double bx = (x - 4500) / 650;
        double by = y / 700;
        double bz = (z - 1150) / 300;
        if (bx * bx + by * by + bz * bz < 1) {
            vel = 4500;
        }
        double lx = (x - 1600) / 450;
        double ly = y / 500;
        double lz = (z - 800) / 120;
        if (lx * lx + ly * ly + lz * lz < 1) {
            vel = 1700;
        }
        return vel;
    }

    /**
     * A smoothed copy of a 2-D model (Gaussian of standard deviation {@code sigma} cells, edges replicated), for
     * starting models; {@code keepRows} top rows are copied unsmoothed (a known water layer).
     */
    public static float[] smooth(float[] v, int nz, int nx, double sigma, int keepRows) {
        int r = (int) Math.ceil(3 * sigma);
        double[] k = new double[2 * r + 1];
        double sum = 0;
        for (int i = -r; i <= r; i++) {
            k[i + r] = Math.exp(-0.5 * i * i / (sigma * sigma));
            sum += k[i + r];
        }
        double[] tmp = new double[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                double a = 0;
                for (int i = -r; i <= r; i++) {
                    a += k[i + r] * v[z * nx + Math.min(nx - 1, Math.max(0, x + i))];
                }
                tmp[z * nx + x] = a / sum;
            }
        }
        float[] out = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                if (z < keepRows) {
                    out[z * nx + x] = v[z * nx + x];
                    continue;
                }
                double a = 0;
                for (int i = -r; i <= r; i++) {
                    a += k[i + r] * tmp[Math.min(nz - 1, Math.max(keepRows, z + i)) * nx + x];
                }
                out[z * nx + x] = (float) (a / sum);
            }
        }
        return out;
    }
}
