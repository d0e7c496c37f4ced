package sweep.prop;

/**
 * The parameters of an elastic run: P and S velocities (m/s) and density (kg/m³), each float32 in the model's
 * physical shape {@code (nz, nx)} or {@code (nz, ny, nx)}, x fastest. vs = 0 marks a fluid (e.g. water).
 */
public record ElasticModel(float[] vp, float[] vs, float[] rho) {
    /** A homogeneous model of {@code cells} cells. */
    public static ElasticModel constant(int cells, float vp, float vs, float rho) {
        float[] a = new float[cells];
        float[] b = new float[cells];
        float[] c = new float[cells];
        java.util.Arrays.fill(a, vp);
        java.util.Arrays.fill(b, vs);
        java.util.Arrays.fill(c, rho);
        return new ElasticModel(a, b, c);
    }

    /**
     * Checks every value (vp &gt; 0, 0 ≤ vs with a positive bulk modulus, i.e. vs &lt; vp·√3/2, rho &gt; 0, all
     * finite) and the sizes against {@code cells}; returns the largest vp.
     */
    double validate(int cells, String shape) {
        check(vp, "vp", cells, shape);
        check(vs, "vs", cells, shape);
        check(rho, "rho", cells, shape);
        double vmax = 0;
        for (int i = 0; i < cells; i++) {
            float p = vp[i];
            float s = vs[i];
            float r = rho[i];
            if (!Float.isFinite(p) || !Float.isFinite(s) || !Float.isFinite(r)) {
                throw new IllegalArgumentException("elastic model holds a non-finite value at flat index " + i
                        + " (vp " + p + ", vs " + s + ", rho " + r + ")");
            }
            if (!(p > 0)) {
                throw new IllegalArgumentException("vp holds a non-positive velocity (" + p + ") at flat index " + i
                        + ": vp must be > 0 m/s");
            }
            if (!(s >= 0)) {
                throw new IllegalArgumentException("vs holds a negative velocity (" + s + ") at flat index " + i
                        + ": vs must be >= 0 m/s (0 = fluid)");
            }
            if (!(r > 0)) {
                throw new IllegalArgumentException("rho holds a non-positive density (" + r + ") at flat index " + i
                        + ": rho must be > 0 kg/m³");
            }
            if (!(4.0 * s * s < 3.0 * p * p)) {
                throw new IllegalArgumentException("vs=" + s + " is not below vp·√3/2 (vp=" + p + ") at flat index " + i
                        + ": the bulk modulus would not be positive; check that vp and vs are not swapped");
            }
            vmax = Math.max(vmax, p);
        }
        return vmax;
    }

    private static void check(float[] a, String name, int cells, String shape) {
        if (a == null || a.length != cells) {
            throw new IllegalArgumentException(name + " has " + (a == null ? "no" : String.valueOf(a.length))
                    + " values; the shape " + shape + " needs " + cells);
        }
    }
}
