package sweep.kit;

import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * The conformance kit on the acoustic TTI equation: smooth random vp 1800-2200 m/s, epsilon 0.10-0.20, delta
 * 0.01-0.09 (epsilon > delta in every cell), a tilt varying over 10-40 degrees and in 3-D an azimuth over -10-70
 * degrees, parameter-major.
 */
class AcousticTtiKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named("acoustic-tti");
    }

    @Override
    protected float[] model(int[] shape, long seed) {
        float[] vp = smoothField(seed, 2000, 200, shape);
        float[] eps = smoothField(seed + 3, 0.15f, 0.05f, shape);
        float[] delta = smoothField(seed + 5, 0.05f, 0.04f, shape);
        float[] theta = smoothField(seed + 7, 25, 15, shape);
        int n = vp.length;
        float[] m = new float[(shape.length == 3 ? 5 : 4) * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(eps, 0, m, n, n);
        System.arraycopy(delta, 0, m, 2 * n, n);
        System.arraycopy(theta, 0, m, 3 * n, n);
        if (shape.length == 3) {
            System.arraycopy(smoothField(seed + 11, 30, 40, shape), 0, m, 4 * n, n);
        }
        return m;
    }
}
