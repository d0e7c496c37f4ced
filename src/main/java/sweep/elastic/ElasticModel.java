package sweep.elastic;

import sweep.prop.CellWindow;
import sweep.prop.Cells;

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
     * Checks the sizes against the window {@code w} of the model and every value (vp &gt; 0, 0 ≤ vs with a positive
     * bulk modulus, i.e. vs &lt; vp·√3/2, rho &gt; 0, all finite; a bad cell is named by its global position); returns
     * the largest vp.
     */
    double validate(CellWindow w, boolean whole) {
        int cells = w.cells();
        String shape = (whole ? "shape " : "model window ") + java.util.Arrays.toString(w.shape());
        check(vp, "vp", cells, shape);
        check(vs, "vs", cells, shape);
        check(rho, "rho", cells, shape);
        Cells.checkElastic(vp, vs, rho, w.shape(), w.origin(), null, new String[] {"vp", "vs", "rho"});
        double vmax = 0;
        for (int i = 0; i < cells; i++) {
            vmax = Math.max(vmax, vp[i]);
        }
        return vmax;
    }

    private static void check(float[] a, String name, int cells, String shape) {
        if (a == null || a.length != cells) {
            throw new IllegalArgumentException(name + " has " + (a == null ? "no" : String.valueOf(a.length))
                    + " values; the " + shape + " needs " + cells);
        }
    }
}
