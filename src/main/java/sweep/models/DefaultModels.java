package sweep.models;

import sweep.equation.FwiExample;

/** Velocity models (and elastic models) made in code, deterministic, for the demo job, examples and tests. */
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

    /** Depth (m) of the sea floor of {@link #elastic2d}. */
    public static final double ELASTIC_WATER_DEPTH = 150;
    /** Extent (m) of {@link #elastic2d}: depth and width. */
    public static final double ELASTIC_DEPTH = 1000, ELASTIC_WIDTH = 3000;

    /** The shape {@code (nz, nx)} of {@link #elastic2d} at spacing {@code dh}. */
    public static int[] elastic2dShape(double dh) {
        return new int[] {(int) Math.round(ELASTIC_DEPTH / dh), (int) Math.round(ELASTIC_WIDTH / dh)};
    }

    /**
     * The elastic FWI model, 1000 m deep and 3000 m wide at any spacing {@code dh}, parameter-major
     * {@code [vp | vs | rho]} each {@code (round(1000/dh), round(3000/dh))}: a 150 m water layer (vp 1500 m/s, vs 0,
     * rho 1000 kg/m³) over three dipping solid layers (vp 2000/2500/3000 m/s, vs 950/1250/1700 m/s, rho
     * 2000/2150/2300 kg/m³), and in the second layer two lenses seen only in vs: a fast one (vs 1650 m/s) and a slow
     * one (vs 950 m/s), each with the vp and rho of the layer around it. A cell takes the values at its centre, so
     * the water is the top {@link #waterRows} rows exactly.
     */
    public static float[] elastic2d(double dh) {
        return elastic2d(dh, true);
    }

    /**
     * {@link #elastic2d} without its two vs lenses: the layers only. The default starting model is this background
     * smoothed, so the lenses are what an inversion must find, and only vs can show them.
     */
    public static float[] elastic2dBackground(double dh) {
        return elastic2d(dh, false);
    }

    private static float[] elastic2d(double dh, boolean lenses) {
        int[] shape = elastic2dShape(dh);
        int nz = shape[0];
        int nx = shape[1];
        int n = nz * nx;
        float[] m = new float[3 * n];
        for (int iz = 0; iz < nz; iz++) {
            for (int ix = 0; ix < nx; ix++) {
                double[] c = elasticCell((ix + 0.5) * dh, (iz + 0.5) * dh, lenses);
                int i = iz * nx + ix;
                m[i] = (float) c[0];
                m[n + i] = (float) c[1];
                m[2 * n + i] = (float) c[2];
            }
        }
        return m;
    }

    /** The top rows of {@link #elastic2d} at spacing {@code dh} that are water (cell centres above the sea floor). */
    public static int waterRows(double dh) {
        return (int) Math.ceil(ELASTIC_WATER_DEPTH / dh - 0.5);
    }

    /** (vp, vs, rho) of the elastic model at (x, z) in m. */
    private static double[] elasticCell(double x, double z, boolean lenses) {
        if (z < ELASTIC_WATER_DEPTH) {
            return new double[] {1500, 0, 1000};
        }
        double base1 = 380 + 0.04 * (x - 1500);
        double base2 = 680 - 0.05 * (x - 1500);
        if (z < base1) {
            return new double[] {2000, 950, 2000};
        }
        if (z < base2) {
            double vs = 1250;
            double fx = (x - 1000) / 380;
            double fz = (z - 530) / 85;
            if (lenses && fx * fx + fz * fz < 1) {
                vs = 1650; // fast in vs only
            }
            double sx = (x - 2150) / 330;
            double sz = (z - 520) / 80;
            if (lenses && sx * sx + sz * sz < 1) {
                vs = 950; // slow in vs only
            }
            return new double[] {2500, vs, 2150};
        }
        return new double[] {3000, 1700, 2300};
    }

    /**
     * The default starting model of {@link #elastic2d}: each parameter of {@link #elastic2dBackground} (no lenses)
     * smoothed by {@link #smooth} (Gaussian of {@code sigma} cells) below the water, which is kept exact (vs = 0
     * there, so it stays a fluid).
     */
    public static float[] elastic2dStart(double dh, double sigma) {
        int[] shape = elastic2dShape(dh);
        return smoothParameters(elastic2dBackground(dh), 3, shape[0], shape[1], sigma, waterRows(dh));
    }

    /**
     * {@link #smooth} applied to each of the {@code count} parameters of a parameter-major 2-D model. Smoothing is
     * linear and takes the same weights for every parameter, so a bound such as vs &lt; vp·√3/2 that holds in every
     * cell also holds after it.
     */
    public static float[] smoothParameters(float[] model, int count, int nz, int nx, double sigma, int keepRows) {
        int n = nz * nx;
        if (model.length != count * n) {
            throw new IllegalArgumentException("model has " + model.length + " values, not " + count + " x " + nz
                    + " x " + nx);
        }
        float[] out = new float[model.length];
        for (int k = 0; k < count; k++) {
            float[] one = java.util.Arrays.copyOfRange(model, k * n, (k + 1) * n);
            System.arraycopy(smooth(one, nz, nx, sigma, keepRows), 0, out, k * n, n);
        }
        return out;
    }

    /**
     * A smoothed copy of a 2-D model (Gaussian of standard deviation {@code sigma} cells, edges replicated), for
     * starting models; {@code keepRows} top rows are copied unsmoothed (a known water layer).
     */
    public static float[] smooth(float[] v, int nz, int nx, double sigma, int keepRows) {
        return smoothColumns(v, nz, 0, nx, nx, 0, nx, sigma, keepRows);
    }

    /** How many columns on each side {@link #smooth} reads for one cell: ceil(3σ). */
    public static int smoothReach(double sigma) {
        return (int) Math.ceil(3 * sigma);
    }

    /**
     * Columns [x0, x0 + n) of {@link #smooth} of a 2-D model of {@code nx} columns, from a block holding its columns
     * [lo, hi) (all rows), which must include those within {@link #smoothReach} of the output columns: the same values,
     * bit for bit, as the whole model's smoothing, so that each rank can smooth its tile.
     */
    public static float[] smoothColumns(float[] block, int nz, int lo, int hi, int nx, int x0, int n, double sigma,
                                        int keepRows) {
        int r = smoothReach(sigma);
        if (lo > Math.max(0, x0 - r) || hi < Math.min(nx, x0 + n + r) || block.length != nz * (hi - lo)) {
            throw new IllegalArgumentException("columns [" + lo + ", " + hi + ") do not hold the reach " + r
                    + " of columns [" + x0 + ", " + (x0 + n) + ")");
        }
        double[] k = new double[2 * r + 1];
        double sum = 0;
        for (int i = -r; i <= r; i++) {
            k[i + r] = Math.exp(-0.5 * i * i / (sigma * sigma));
            sum += k[i + r];
        }
        int w = hi - lo;
        double[] tmp = new double[nz * n];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < n; x++) {
                double a = 0;
                for (int i = -r; i <= r; i++) {
                    a += k[i + r] * block[z * w + Math.min(nx - 1, Math.max(0, x0 + x + i)) - lo];
                }
                tmp[z * n + x] = a / sum;
            }
        }
        float[] out = new float[nz * n];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < n; x++) {
                if (z < keepRows) {
                    out[z * n + x] = block[z * w + x0 + x - lo];
                    continue;
                }
                double a = 0;
                for (int i = -r; i <= r; i++) {
                    a += k[i + r] * tmp[Math.min(nz - 1, Math.max(keepRows, z + i)) * n + x];
                }
                out[z * n + x] = (float) (a / sum);
            }
        }
        return out;
    }

    /**
     * The built-in marine FWI example on {@link #fwi2d}'s grid at spacing {@code dh}: {@code truth} holds
     * {@code count} parameters, parameter-major; 250 m of water muted, receivers on row 1, a 250 m smoothing of every
     * parameter for the start, 3 s of recording.
     */
    public static FwiExample marineExample(String description, float[] truth, int count, double dh) {
        int nz = (int) Math.round(2000 / dh);
        int nx = (int) Math.round(6000 / dh);
        int water = (int) Math.ceil(250 / dh);
        return new FwiExample() {
            @Override
            public String description() {
                return description;
            }

            @Override
            public int[] shape() {
                return new int[] {nz, nx};
            }

            @Override
            public float[] trueModel() {
                return truth;
            }

            @Override
            public int waterRows() {
                return water;
            }

            @Override
            public int receiverRow() {
                return 1;
            }

            @Override
            public double smoothMetres() {
                return 250;
            }

            @Override
            public double time() {
                return 3.0;
            }

            @Override
            public float[] startModel(double sigmaCells, int keepRows) {
                return smoothParameters(truth, count, nz, nx, sigmaCells, keepRows);
            }
        };
    }
}
