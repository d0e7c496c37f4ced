package sweep.kit;

import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/** The conformance kit on the acoustic equation: smooth random vp between 1800 and 2600 m/s. */
class AcousticKitTest extends EquationKit {
    @Override
    protected WaveEquation equation() {
        return Equations.named("acoustic");
    }

    @Override
    protected float[] model(int[] shape, long seed) {
        return smoothField(seed, 2200, 400, shape);
    }
}
