package sweep.prop;

/**
 * The trace-normalised correlation misfit J = Σ_traces ω (1 − ⟨s, o⟩ / (‖s‖ ‖o‖)) (Choi and Alkhalifah, 2012), ω =
 * ‖s‖² / (‖s‖² + κ ‖o‖²) the weight of {@link TraceMisfit#WEAK_SYNTHETIC}: blind to each trace's amplitude (but for
 * ω), so a wrong source strength or a missing attenuation does not drive the model. A trace is one receiver's one
 * field; a trace whose synthetic or observed norm is 0 contributes 0 (and no adjoint source) and is
 * counted ({@link #zeroTraces()}).
 */
public final class TraceNormalizedCorrelation extends TraceMisfit {
    /** The misfit of records of {@code nt} time samples, {@code (nt, traces)} flat. */
    public TraceNormalizedCorrelation(int nt) {
        super(nt);
    }

    /**
     * J of one shot's {@code (nt, traces)} records, summed trace by trace in double; {@code residual} gets
     * dJ/ds = ω (⟨s, o⟩ s / ‖s‖² − o) / (‖s‖ ‖o‖) + (1 − ⟨s, o⟩ / (‖s‖ ‖o‖)) dω/ds per trace. Each trace's figures
     * depend on that trace alone, so a decomposed run that holds only some traces writes the same residual bits for
     * them.
     */
    @Override
    public double evaluate(float[] syn, float[] obs, float[] residual) {
        int traces = traces(syn, obs, residual);
        double[] ss = new double[traces];
        double[] oo = new double[traces];
        double[] so = new double[traces];
        for (int t = 0; t < nt; t++) {
            int row = t * traces;
            for (int c = 0; c < traces; c++) {
                double s = syn[row + c];
                double o = obs[row + c];
                ss[c] += s * s;
                oo[c] += o * o;
                so[c] += s * o;
            }
        }
        double j = 0;
        double[] a = new double[traces]; // residual = a·s − b·o per trace
        double[] b = new double[traces];
        long zero = 0;
        for (int c = 0; c < traces; c++) {
            if (ss[c] == 0 || oo[c] == 0) {
                zero++;
                continue;
            }
            double norms = Math.sqrt(ss[c]) * Math.sqrt(oo[c]);
            double unweighted = 1 - so[c] / norms;
            double w = weight(ss[c], oo[c]);
            j += w * unweighted;
            b[c] = w / norms;
            a[c] = w * so[c] / (ss[c] * norms) + unweighted * weightSlope(ss[c], oo[c]);
        }
        for (int t = 0; t < nt; t++) {
            int row = t * traces;
            for (int c = 0; c < traces; c++) {
                residual[row + c] = (float) (a[c] * syn[row + c] - b[c] * obs[row + c]);
            }
        }
        leftOut(zero);
        return j;
    }
}
