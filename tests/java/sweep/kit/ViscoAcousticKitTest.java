package sweep.kit;

import sweep.equation.Equations;
import sweep.equation.WaveEquation;
import sweep.prop.PropSpec;

/**
 * The conformance kit on the visco-acoustic equation: smooth random vp, rho and a low Q (strong attenuation over the
 * kit's short records), three solids over 5–100 Hz (the kit's wavelets peak at 28–51 Hz), f_ref 30 Hz.
 */
class ViscoAcousticKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named("visco-acoustic");
    }

    @Override
    protected PropSpec.Builder spec(int[] shape, int nt, int abcn, int order) {
        return super.spec(shape, nt, abcn, order).setting("q_band", "5,100").setting("f_ref", "30");
    }

    /** vp 2000-2500 m/s, rho 1800-2200 kg/m³, q 15-45, parameter-major. */
    @Override
    protected float[] model(int[] shape, long seed) {
        float[] vp = smoothField(seed, 2250, 250, shape);
        float[] rho = smoothField(seed + 2, 2000, 200, shape);
        float[] q = smoothField(seed + 4, 30, 15, shape);
        int n = vp.length;
        float[] m = new float[3 * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(rho, 0, m, n, n);
        System.arraycopy(q, 0, m, 2 * n, n);
        return m;
    }
}
