package sweep.kit;

import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/** The conformance kit on the variable-density acoustic equation: smooth random vp and rho. */
class AcousticVdKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named("acoustic-vd");
    }

    /** vp 2100-2700 m/s, rho 1800-2200 kg/m³, parameter-major. */
    @Override
    protected float[] model(int[] shape, long seed) {
        float[] vp = smoothField(seed, 2400, 300, shape);
        float[] rho = smoothField(seed + 2, 2000, 200, shape);
        int n = vp.length;
        float[] m = new float[2 * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(rho, 0, m, n, n);
        return m;
    }
}
