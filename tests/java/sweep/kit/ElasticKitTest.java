package sweep.kit;

import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * The conformance kit on the elastic equation: smooth random vp, vs and rho with a fluid patch (vs = 0) in the top
 * rows, so that the fluid-solid paths of the kernels and their adjoints are part of every check.
 */
class ElasticKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named("elastic");
    }

    @Override
    protected float[] model(int[] shape, long seed) {
        return elasticModel(shape, seed);
    }

    /** vp 2100-2700, vs 1000-1400 (0 on a patch of the top two rows), rho 1800-2200, parameter-major. */
    static float[] elasticModel(int[] shape, long seed) {
        float[] vp = smoothField(seed, 2400, 300, shape);
        float[] vs = smoothField(seed + 1, 1200, 200, shape);
        float[] rho = smoothField(seed + 2, 2000, 200, shape);
        int n = vp.length;
        int nx = shape[shape.length - 1];
        int perZ = n / shape[0];
        for (int i = 0; i < n; i++) {
            int x = i % nx;
            if (i / perZ < 2 && x > nx / 3 && x < nx / 2) {
                vs[i] = 0;
            }
        }
        float[] m = new float[3 * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(vs, 0, m, n, n);
        System.arraycopy(rho, 0, m, 2 * n, n);
        return m;
    }
}
