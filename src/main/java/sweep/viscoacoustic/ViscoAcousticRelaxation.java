package sweep.viscoacoustic;

import sweep.acousticvd.PressureRelaxation;
import sweep.prop.PropSpec;

/**
 * The standard linear solids of a visco-acoustic run as the variable-density solver's memory variables: the fit of
 * {@link ConstantQ} to the run's settings (mechanisms, Q band, reference frequency) and the coefficients of
 * {@link ViscoAcousticCoefficients}; the solver runs their memory update.
 */
final class ViscoAcousticRelaxation implements PressureRelaxation {
    private final ViscoAcousticCoefficients coefficients;
    private final int mechanisms;

    ViscoAcousticRelaxation(PropSpec spec) {
        this.coefficients = ViscoAcousticEquation.coefficients(spec);
        this.mechanisms = coefficients.mechanisms();
    }

    @Override
    public int mechanisms() {
        return mechanisms;
    }

    /** α_l, each solid's memory decay per step. */
    @Override
    public float[] constants() {
        double[] a = coefficients.alpha();
        float[] out = new float[a.length];
        for (int l = 0; l < a.length; l++) {
            out[l] = (float) a[l];
        }
        return out;
    }

    @Override
    public void coefficients(double[] par, double[] out) {
        coefficients.cell(par[0], par[1], par[2], out);
    }

    @Override
    public void gradient(double[] par, double gk, double[] gc, double[] out) {
        coefficients.gradient(par[0], par[1], par[2], gk, gc, out);
    }
}
