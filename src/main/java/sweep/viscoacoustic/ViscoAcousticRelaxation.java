package sweep.viscoacoustic;

import sweep.acousticvd.PressureRelaxation;
import sweep.backend.CpuKernels;
import sweep.kernels.Layout;
import sweep.prop.PropSpec;
import sweep.viscoacoustic.kernels.ViscoAcousticKernels;

/**
 * The standard linear solids of a visco-acoustic run as the variable-density solver's memory variables: the fit of
 * {@link ConstantQ} to the run's settings (mechanisms, Q band, reference frequency), the coefficients of
 * {@link ViscoAcousticCoefficients} and the kernels of {@link ViscoAcousticKernels}.
 */
final class ViscoAcousticRelaxation implements PressureRelaxation {
    private final ViscoAcousticCoefficients coefficients;
    private final int mechanisms;
    /** Whether the memory kernels run as their Vector API twins ({@link CpuKernels#useCpuKernels()}; the same bits). */
    private final boolean vector = CpuKernels.useCpuKernels();

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

    @Override
    public void stepRows(float[] p, float[] s, float[] c, float[] constants, float[] div, int divOff, int[] geo, int z0,
                         int z1) {
        if (vector) {
            ViscoAcousticVectorKernels.memory(p, s, c, constants, div, divOff, geo, mechanisms, z0, z1);
        } else {
            ViscoAcousticKernels.memory(p, s, c, constants, div, divOff, geo, mechanisms, z0, z1, 0, geo[Layout.NY], 0,
                    geo[Layout.NX]);
        }
    }

    @Override
    public void transposeRows(float[] pb, float[] sb, float[] c, float[] constants, float[] div, int divOff,
                              float[] gc, float[] divBar, int[] geo, int z0, int z1) {
        if (vector) {
            ViscoAcousticVectorKernels.memoryTranspose(pb, sb, c, constants, div, divOff, gc, divBar, geo, mechanisms,
                    z0, z1);
        } else {
            ViscoAcousticKernels.memoryTranspose(pb, sb, c, constants, div, divOff, gc, divBar, geo, mechanisms, z0,
                    z1, 0, geo[Layout.NY], 0, geo[Layout.NX]);
        }
    }
}
