package sweep.fwi;

import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import sweep.imaging.Illumination;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Padding;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;

/**
 * The FWI objective on a decomposed mesh with shot groups, for any equation: every rank gives and takes its
 * {@link ModelTile} of the model and gradient (parameter-major), group g runs the g-th block of shots. The tile is
 * padded to the mesh's tile inside the objective (the pad's cells copy the edge, and their gradient is folded back onto
 * it), so the gradient of each tile is that rank's part of the one-domain gradient, bit for bit, when no pad is needed.
 */
public final class DecomposedObjective implements DataObjective {
    private final ModelParallelMesh mesh;
    private final ModelParallel mp;
    private final int[] shape;
    private final int[] padded;
    private final int nfield;
    private final GradientConditioner conditioner;
    private Misfit misfit = Misfit.L2;
    private final ModelTile tile;
    private float[] preconditioner;
    private float[] wavelet;
    private int[][][] sources;
    private int[][][] receivers;
    private float[] observed;
    private int nt;

    public DecomposedObjective(Acquisition acq, ModelParallelMesh mesh, int muteRows) {
        this(acq, mesh, GradientConditioner.muteRows(acq.spec().shape(), muteRows));
    }

    /**
     * With the gradient conditioned by {@code conditioner} (smoothing, muted rows, source taper, mask) on the gathered
     * global gradient, as on one domain.
     */
    public DecomposedObjective(Acquisition acq, ModelParallelMesh mesh, GradientConditioner conditioner) {
        this.mesh = mesh;
        this.conditioner = conditioner;
        this.shape = acq.spec().shape();
        this.padded = Padding.paddedShape(shape, mesh.topology());
        this.nfield = acq.spec().nfield();
        this.tile = ModelTile.of(mesh, shape, acq.spec().equation().parameterCount());
        this.mp = new ModelParallel(acq.spec().withShape(padded), mesh);
        setAcquisition(acq);
    }

    /** Takes this shot group's block of the shots (their count must be a multiple of the shot groups). */
    @Override
    public void setAcquisition(Acquisition acq) {
        if (!Arrays.equals(acq.spec().shape(), shape)) {
            throw new IllegalArgumentException("a new acquisition must keep the model shape " + Arrays.toString(shape));
        }
        int shots = acq.sources().length;
        int groups = mesh.topology().shotGroups();
        if (shots % groups != 0) {
            throw new IllegalArgumentException(shots + " shots do not split evenly into " + groups + " shot groups");
        }
        int per = shots / groups;
        int g = mesh.topology().shotGroup();
        this.nt = acq.spec().nt();
        int nrec = acq.receivers()[0].length * nfield;
        int stride = ShotWavelets.stride(acq.wavelet(), acq.sources(), nt);
        this.sources = Arrays.copyOfRange(acq.sources(), g * per, (g + 1) * per);
        this.receivers = Arrays.copyOfRange(acq.receivers(), g * per, (g + 1) * per);
        this.observed = Arrays.copyOfRange(acq.observed(), g * per * nt * nrec, (g + 1) * per * nt * nrec);
        this.wavelet = stride == 0 ? acq.wavelet()
                : Arrays.copyOfRange(acq.wavelet(), g * per * stride, (g + 1) * per * stride);
    }

    @Override
    public ModelTile tile() {
        return tile;
    }

    /**
     * The group's record is gathered on its root, which forms each shot's spectra; they go to the group's ranks and
     * are added over the shot groups in global shot order ({@link ModelParallel#sumShotsInOrder}): one domain's bits.
     */
    @Override
    public float[] waveletSpectra(float[] model, int nfft) {
        Record group = mp.gatherRecord(mp.forward(wavelet, sources, receivers, tile.padded(model)));
        int traces = receivers[0].length * nfield;
        int per = nt * traces;
        int len = WaveletEstimate.spectraLength(nfft);
        float[][] perShot = new float[sources.length][];
        try {
            for (int b = 0; b < sources.length; b++) {
                perShot[b] = group == null ? new float[len] : WaveletEstimate.shotSpectra(
                        Arrays.copyOfRange(group.data(), b * per, (b + 1) * per),
                        Arrays.copyOfRange(observed, b * per, (b + 1) * per), nt, traces, nfft);
                mesh.model().bcast(perShot[b], len, MPI.FLOAT, 0);
            }
            return mp.sumShotsInOrder(perShot, len);
        } catch (MPIException e) {
            throw new IllegalStateException("wavelet spectra reduction failed: " + e.getMessage(), e);
        }
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
        Gradient g = mp.forwardAndGradient(wavelet, sources, receivers, tile.padded(model), observed, misfit);
        float[] mine = tile.folded(g.parameters());
        System.arraycopy(mine, 0, grad, 0, grad.length);
        conditioner.condition(grad, preconditioner, tile);
        return g.misfit();
    }

    /**
     * This rank's tile of the illumination: each shot's added over the shot groups in global shot order
     * ({@link ModelParallel#sumShotsInOrder}), the pad cut off: one domain's bits.
     */
    @Override
    public float[] illumination(float[] model) {
        int tileCells = 1;
        for (int d : mp.tile().shape()) {
            tileCells *= d;
        }
        Illumination il = new Illumination(sources.length, tileCells);
        mp.forward(wavelet, sources, receivers, tile.padded(model), 1, il);
        try {
            return tile.unpadded(mp.sumShotsInOrder(il.perShot(), tileCells));
        } catch (MPIException e) {
            throw new IllegalStateException("illumination reduction failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void setPreconditioner(float[] weights) {
        this.preconditioner = weights;
    }

    /** Bytes this rank's tile solver holds ({@link ModelParallel#bytesHeld()}). */
    public long bytesHeld() {
        return mp.bytesHeld();
    }

    @Override
    public void close() {
        mp.close();
    }
}
