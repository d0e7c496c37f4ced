package sweep.fwi;

import sweep.imaging.Illumination;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.Propagator;
import sweep.prop.Record;

/**
 * The FWI objective on one domain: L2 misfit and its exact adjoint gradient from a {@link Propagator}, for any equation
 * (the model and gradient parameter-major, {@link sweep.equation.WaveEquation#parameters()}).
 */
public final class SingleDomainObjective implements DataObjective {
    private Acquisition acq;
    private final Propagator solver;
    private final GradientConditioner conditioner;
    private Misfit misfit = Misfit.L2;
    private float[] preconditioner;
    private final ModelTile tile;

    /** {@code muteRows}: top rows whose gradient is zeroed (cells the inversion must not change, e.g. near sources). */
    public SingleDomainObjective(Acquisition acq, int muteRows) {
        this(acq, GradientConditioner.muteRows(acq.spec().shape(), muteRows));
    }

    /** With the gradient conditioned by {@code conditioner} (smoothing, muted rows, source taper, mask). */
    public SingleDomainObjective(Acquisition acq, GradientConditioner conditioner) {
        this.acq = acq;
        this.solver = new Propagator(acq.spec());
        this.conditioner = conditioner;
        this.tile = ModelTile.whole(acq.spec().shape(), acq.spec().equation().parameterCount());
    }

    @Override
    public ModelTile tile() {
        return tile;
    }

    @Override
    public void setAcquisition(Acquisition acq) {
        if (acq.spec().nt() != this.acq.spec().nt()) {
            throw new IllegalArgumentException("a new acquisition must keep nt=" + this.acq.spec().nt());
        }
        this.acq = acq;
    }

    @Override
    public void setMisfit(Misfit misfit) {
        if (misfit == null) {
            throw new IllegalArgumentException("misfit is missing: use Misfit.L2");
        }
        this.misfit = misfit;
    }

    @Override
    public double evaluate(float[] model, float[] grad) {
        Gradient g = solver.forwardAndGradient(acq.wavelet(), acq.sources(), acq.receivers(), model, acq.observed(),
                misfit);
        if (g.parameters().length != grad.length) {
            throw new IllegalArgumentException("the gradient holds " + grad.length + " values; the model's "
                    + acq.spec().equation().parameters() + " need " + g.parameters().length);
        }
        System.arraycopy(g.parameters(), 0, grad, 0, grad.length);
        conditioner.condition(grad, preconditioner);
        return g.misfit();
    }

    @Override
    public float[] waveletSpectra(float[] model, int nfft) {
        Record r = solver.forward(acq.wavelet(), acq.sources(), acq.receivers(), model);
        return WaveletEstimate.batchSpectra(r.data(), acq.observed(), acq.sources().length, acq.spec().nt(),
                acq.receivers()[0].length * acq.spec().nfield(), nfft);
    }

    @Override
    public float[] illumination(float[] model) {
        Illumination il = new Illumination(acq.sources().length, model.length / acq.spec().equation().parameterCount());
        solver.forward(acq.wavelet(), acq.sources(), acq.receivers(), model, 1, il);
        return il.total();
    }

    @Override
    public void setPreconditioner(float[] weights) {
        this.preconditioner = weights;
    }

    /** Bytes its solver holds ({@link Propagator#bytesHeld()}). */
    public long bytesHeld() {
        return solver.bytesHeld();
    }

    @Override
    public void close() {
        solver.close();
    }
}
