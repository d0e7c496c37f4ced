package sweep.kit;

import java.util.List;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * The conformance kit on the acoustic VTI equation: smooth random vp 1800-2200 m/s, epsilon 0.10-0.20 and delta
 * 0.01-0.09 (epsilon > delta in every cell), parameter-major.
 */
class AcousticVtiKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named("acoustic-vti");
    }

    @Override
    protected float[] model(int[] shape, long seed) {
        float[] vp = smoothField(seed, 2000, 200, shape);
        float[] eps = smoothField(seed + 3, 0.15f, 0.05f, shape);
        float[] delta = smoothField(seed + 5, 0.05f, 0.04f, shape);
        int n = vp.length;
        float[] m = new float[3 * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(eps, 0, m, n, n);
        System.arraycopy(delta, 0, m, 2 * n, n);
        return m;
    }
}
