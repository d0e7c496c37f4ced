package sweep.fwi;

/**
 * An {@link Objective} over a set of shots whose data can be replaced between evaluations (another frequency band,
 * another encoding): same grid, time axis and receiver count, possibly other shots, wavelets and observed data.
 */
public interface DataObjective extends Objective {
    /** The acquisition the next evaluations use. */
    void setAcquisition(Acquisition acq);

    /** The misfit the next evaluations use (from the start: {@link sweep.prop.Misfit#L2}). */
    void setMisfit(sweep.prop.Misfit misfit);

    /**
     * The spectra a wavelet estimate needs ({@link WaveletEstimate#batchSpectra}) of the acquisition's synthetic data
     * at {@code model} (this rank's {@link #tile()} of it) against its observed data, every shot's added in shot
     * order; the same on every rank.
     */
    float[] waveletSpectra(float[] model, int nfft);

    /**
     * The source illumination of the acquisition's shots at {@code model}: Σ over shots and time steps of the source
     * wavefield squared, one value per cell (shots added in shot order), of this rank's {@link #tile()} of the model
     * (the model given as that part too). One forward run of every shot.
     */
    float[] illumination(float[] model);

    /**
     * Weights (one per cell of this rank's {@link #tile()}) that every later gradient's parameter blocks are multiplied
     * by before the gradient conditioner runs ({@link GradientConditioner#illuminationWeights}); null: none.
     */
    void setPreconditioner(float[] weights);
}
