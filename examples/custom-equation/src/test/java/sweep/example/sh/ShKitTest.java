package sweep.example.sh;

import sweep.equation.Equations;
import sweep.equation.WaveEquation;
import sweep.kit.EquationKit;

/**
 * The conformance kit on the SH equation (found by name, as the command line finds it): smooth random vs and rho; the
 * kit runs its 2-D problems, the equation's only dimension.
 */
class ShKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named(ShEquation.NAME);
    }

    /** vs 1200-1800 m/s, rho 1800-2400 kg/m³, parameter-major. */
    @Override
    protected float[] model(int[] shape, long seed) {
        float[] vs = smoothField(seed, 1500, 300, shape);
        float[] rho = smoothField(seed + 1, 2100, 300, shape);
        float[] m = new float[2 * vs.length];
        System.arraycopy(vs, 0, m, 0, vs.length);
        System.arraycopy(rho, 0, m, vs.length, vs.length);
        return m;
    }
}
