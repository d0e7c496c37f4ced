package sweep.fwi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import sweep.core.Filters;

/**
 * A multi-band FWI: bands from low to high frequency, each inverting data whose wavelet and observed record are
 * low-passed alike (causal Butterworth, see {@link Filters}), starting from the previous band's model, optionally with
 * encoded supershots. Each band checkpoints after every iteration to its own file, so a killed run resumes where it
 * stopped and ends with the same models as an uninterrupted one.
 */
public final class Inversion {
    /** One band: low-pass corner in Hz (0 = the unfiltered data) and L-BFGS iterations. */
    public record Band(double cutoff, int iterations) {
        public Band {
            if (!(cutoff >= 0) || Double.isInfinite(cutoff)) {
                throw new IllegalArgumentException("band cutoff must be >= 0 Hz (0 = unfiltered), got " + cutoff);
            }
            if (iterations < 0) {
                throw new IllegalArgumentException("band iterations must be >= 0, got " + iterations);
            }
        }
    }

    /**
     * How to invert: the bands, supershots (0 = every shot on its own), their code seed, the Butterworth order,
     * bounds and step settings ({@code settings.iterations()} is ignored: each band has its own), whether each
     * band starts by estimating the source wavelet ({@link WaveletEstimate}) from the acquisition's, low-passed, at the
     * band's starting model, and the illumination preconditioner's ε ({@link GradientConditioner#illuminationWeights},
     * from each band's source illumination at its starting model, fixed for the band so that the L-BFGS pairs see one
     * metric; 0: no preconditioning).
     */
    public record Options(List<Band> bands, int supershots, long seed, int filterOrder, Fwi.Settings settings,
                          boolean estimateWavelet, double precondition) {
        public Options {
            if (!(precondition >= 0) || Double.isInfinite(precondition)) {
                throw new IllegalArgumentException("the preconditioner's epsilon must be >= 0 (0 = none) and finite,"
                        + " got " + precondition);
            }
            if (bands.isEmpty()) {
                throw new IllegalArgumentException("an inversion needs at least one band");
            }
            if (supershots < 0) {
                throw new IllegalArgumentException("supershots must be >= 0 (0 = off), got " + supershots);
            }
            bands = List.copyOf(bands);
        }

        /** With the wavelet as given (no estimation) and no preconditioning. */
        public Options(List<Band> bands, int supershots, long seed, int filterOrder, Fwi.Settings settings) {
            this(bands, supershots, seed, filterOrder, settings, false, 0);
        }
    }

    /** Receives each band's progress: iterations as they finish, and the band's final state. */
    public interface Listener {
        /** After each iteration of band {@code band} (0-based). */
        default void iteration(int band, Fwi.Iteration it) {
        }

        /**
         * Before the first iteration of band {@code band} (0-based), with the misfit of its starting model (also for a
         * band resumed from its checkpoint; not for one a resumed run finds finished).
         */
        default void bandStart(int band, double misfit) {
        }

        /**
         * With wavelet estimation, before band {@code band} (0-based) starts: the wavelet it inverts with, estimated at
         * its starting model (not for a band a resumed run finds finished).
         */
        default void waveletEstimated(int band, float[] wavelet) {
        }

        /**
         * With preconditioning, before band {@code band} (0-based) starts: the source illumination at its starting
         * model whose weights precondition its gradients (this rank's {@link ModelTile} of it; not for a band a resumed
         * run finds finished).
         */
        default void illuminated(int band, float[] illumination) {
        }

        /** After band {@code band} (0-based) has finished (also for bands a resumed run finds finished). */
        default void bandDone(int band, Acquisition data, Fwi.State state) {
        }
    }

    private Inversion() {
    }

    /** The checkpoint file of band {@code band} (0-based) in {@code dir}: numbered from 1, as model_band1.npy. */
    public static Path checkpointFile(Path dir, int band) {
        return dir.resolve("checkpoint-band" + (band + 1) + ".bin");
    }

    /** The first band's checkpoint as earlier versions named it (they numbered the checkpoints from 0). */
    private static Path earlierFirstCheckpoint(Path dir) {
        return dir.resolve("checkpoint-band0.bin");
    }

    /**
     * Checks, before a resumed run writes anything, every band checkpoint in {@code dir} that it would read, as the
     * run itself would (format, checksum, job, model size and parameters; see {@link Fwi#inspect}), and the iteration
     * count of each whose band would continue from it (its band starts from the model it began from: the first band
     * from the starting model of fingerprint {@code startId} ({@link ModelTile#fingerprint}) and {@code values} values,
     * a later one from the end of the band before it, when that band is finished). Folders of the earlier naming
     * (checkpoint-band0.bin) are refused. Returns, per band, the iterations its checkpoint holds when the band
     * continues from it, {@link #NO_CHECKPOINT} when it has none, {@link #STALE_CHECKPOINT} when it has one but starts
     * afresh (an earlier band will change the model it starts from).
     */
    public static int[] checkCheckpoints(Path dir, long startId, int values, Options o, long job) {
        Path earlier = earlierFirstCheckpoint(dir);
        if (Files.exists(earlier)) {
            throw new IllegalArgumentException(earlier + " is a checkpoint of an earlier version of sweep, which"
                    + " numbered the bands' checkpoints from 0: rename each checkpoint-bandK.bin to"
                    + " checkpoint-band(K+1).bin, highest K first, or start afresh without --resume");
        }
        int[] done = new int[o.bands().size()];
        Long from = startId; // what the band starts from; null: not known before the run
        for (int k = 0; k < o.bands().size(); k++) {
            Path f = checkpointFile(dir, k);
            if (!Files.exists(f)) {
                from = null;
                done[k] = NO_CHECKPOINT;
                continue;
            }
            Fwi.Summary s = Fwi.inspect(f, values, o.settings().count(), job * 31 + k);
            int asked = o.bands().get(k).iterations();
            if (from != null && from == s.startId()) {
                Fwi.checkIterations(f, s.iterations(), asked);
                from = s.iterations() == asked ? s.modelId() : null;
                done[k] = s.iterations();
            } else {
                from = null; // stale: the run starts this band afresh
                done[k] = STALE_CHECKPOINT;
            }
        }
        return done;
    }

    /** {@link #checkCheckpoints}: the band has no checkpoint. */
    public static final int NO_CHECKPOINT = -1;
    /** {@link #checkCheckpoints}: the band's checkpoint is of another starting model: the band starts afresh. */
    public static final int STALE_CHECKPOINT = -2;

    /** The acquisition with wavelet and observed data low-passed at {@code cutoff} Hz (0: unchanged). */
    public static Acquisition filtered(Acquisition acq, double cutoff, int order) {
        if (cutoff == 0) {
            return acq;
        }
        int nt = acq.spec().nt();
        double dt = acq.spec().dt();
        int groups = acq.wavelet().length / nt;
        float[] w = Filters.lowPass(acq.wavelet(), groups, nt, 1, dt, cutoff, order);
        int shots = acq.sources().length;
        int traces = acq.receivers()[0].length * acq.spec().nfield();
        float[] obs = Filters.lowPass(acq.observed(), shots, nt, traces, dt, cutoff, order);
        return new Acquisition(acq.spec(), w, acq.sources(), acq.receivers(), obs);
    }

    /**
     * Runs the bands in order and returns each band's final state (its arrays this rank's part of the model, as
     * {@code start} is: the objective's {@link Objective#tile()}). {@code checkpoints} is the folder of the band
     * checkpoints (null: none); {@code write} is false on all MPI ranks but one; {@code job} identifies the job (see
     * {@link Fwi.Checkpoint}). Without {@code resume}, stale band checkpoints in the folder are deleted first.
     * Collective under MPI.
     */
    public static List<Fwi.State> run(DataObjective objective, Acquisition acq, float[] start, Options o,
                                      Path checkpoints, boolean resume, boolean write, long job, Listener listener) {
        if (checkpoints != null && write && !resume) {
            deleteStale(earlierFirstCheckpoint(checkpoints));
            for (int k = 0; ; k++) {
                if (!deleteStale(checkpointFile(checkpoints, k)) && k >= o.bands().size()) {
                    break;
                }
            }
        }
        List<Fwi.State> states = new ArrayList<>();
        float[] model = start;
        for (int k = 0; k < o.bands().size(); k++) {
            Band band = o.bands().get(k);
            Fwi.Checkpoint cp = checkpoints == null ? null
                    : new Fwi.Checkpoint(checkpointFile(checkpoints, k), resume, write, job * 31 + k);
            // a band a resumed run finds finished is read back, not run: its stages are skipped, its outputs written
            boolean finished = resume && cp != null && finished(cp, model, band.iterations(), o, objective.tile());
            Acquisition data = filtered(acq, band.cutoff(), o.filterOrder());
            if (o.estimateWavelet() && !finished) {
                data = estimated(objective, data, model);
                listener.waveletEstimated(k, data.wavelet());
            }
            if (o.precondition() > 0 && !finished) {
                objective.setAcquisition(data);
                float[] illumination = objective.illumination(model);
                listener.illuminated(k, illumination);
                objective.setPreconditioner(GradientConditioner.illuminationWeights(illumination, o.precondition(),
                        objective.tile()));
            }
            Objective obj;
            if (o.supershots() > 0) {
                obj = new EncodedObjective(objective, data, o.supershots(), o.seed(), k);
            } else {
                objective.setAcquisition(data);
                obj = objective;
            }
            Fwi.Settings bs = o.settings().withIterations(band.iterations());
            int bandIndex = k;
            Fwi.State st = Fwi.run(obj, model, bs, cp, finished ? null : m -> listener.bandStart(bandIndex, m),
                    it -> listener.iteration(bandIndex, it));
            states.add(st);
            listener.bandDone(k, data, st);
            model = st.model();
        }
        return states;
    }

    /**
     * Whether the band checkpoint {@code cp} holds all {@code iterations} of a band that began from {@code model} (this
     * rank's tile). Collective.
     */
    private static boolean finished(Fwi.Checkpoint cp, float[] model, int iterations, Options o, ModelTile tile) {
        if (!Files.exists(cp.file())) {
            return false;
        }
        long startId = tile.fingerprint(model);
        int count = o.settings().count();
        Fwi.Summary s = Fwi.inspect(cp.file(), Math.toIntExact(tile.globalCells() * count), count, cp.job());
        return s.startId() == startId && s.iterations() == iterations;
    }

    /**
     * {@code data} with the wavelet estimated from its own at {@code model} ({@link WaveletEstimate}): one wavelet of
     * {@code nt} samples for every shot.
     */
    static Acquisition estimated(DataObjective objective, Acquisition data, float[] model) {
        int nt = data.spec().nt();
        if (data.wavelet().length != nt) {
            throw new IllegalArgumentException("wavelet estimation estimates one wavelet for every shot; the"
                    + " acquisition has " + data.wavelet().length / nt + " wavelets of " + nt + " samples");
        }
        int nfft = WaveletEstimate.fftLength(nt);
        objective.setAcquisition(data);
        float[] w = WaveletEstimate.estimate(data.wavelet(), objective.waveletSpectra(model, nfft), nt, nfft);
        return new Acquisition(data.spec(), w, data.sources(), data.receivers(), data.observed());
    }

    /** Deletes a stale checkpoint; whether there was one. */
    private static boolean deleteStale(Path f) {
        try {
            return Files.deleteIfExists(f);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the stale checkpoint " + f, e);
        }
    }
}
