package sweep.fwi;

import java.util.SplittableRandom;
import sweep.prop.ShotWavelets;

/**
 * Encoded supershots: the B shots are blended into K supershots (shot b joins supershot b mod K), each shot's wavelet
 * and observed record multiplied by a random ±1 code, so one simulation stands for B/K shots. The codes are redrawn
 * for every iteration from (seed, band, iteration) alone, so a resumed inversion draws the same ones. Needs a fixed
 * receiver spread (every shot records at the same cells) and B divisible by K.
 */
public final class EncodedObjective implements Objective {
    private final DataObjective inner;
    private final Acquisition base;
    private final int supershots;
    private final long seed;
    private final int band;

    /** {@code inner} evaluates the encoded acquisition; {@code base} holds the B individual shots. */
    public EncodedObjective(DataObjective inner, Acquisition base, int supershots, long seed, int band) {
        int shots = base.sources().length;
        check(base.sources(), base.receivers(), supershots);
        this.inner = inner;
        this.base = base;
        this.supershots = supershots;
        this.seed = seed;
        this.band = band;
        inner.setAcquisition(encode(base, codes(shots, seed, band, 1), supershots));
    }

    /**
     * Checks that shots of these sources and receivers can be blended into {@code supershots} supershots: the count
     * divides the shots, every shot records at the same receivers and has as many sources as the others; an
     * {@link IllegalArgumentException} saying what to change otherwise.
     */
    public static void check(int[][][] sources, int[][][] receivers, int supershots) {
        int shots = sources.length;
        if (supershots < 1 || shots % supershots != 0) {
            throw new IllegalArgumentException("supershots must divide the " + shots + " shots, got " + supershots);
        }
        for (int b = 1; b < shots; b++) {
            if (!java.util.Arrays.deepEquals(receivers[b], receivers[0])) {
                throw new IllegalArgumentException("supershots need every shot to record at the same receivers; shot "
                        + b + " differs from shot 0: give every shot the same receivers, or turn supershots off (0)");
            }
            if (sources[b].length != sources[0].length) {
                throw new IllegalArgumentException("supershots need the same number of sources in every shot; shot "
                        + b + " has " + sources[b].length + ", shot 0 has " + sources[0].length + ": give every"
                        + " shot as many sources, or turn supershots off (0)");
            }
        }
    }

    /** The ±1 code of every shot for one iteration of one band. */
    public static float[] codes(int shots, long seed, int band, int iteration) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + band * 0xBF58476D1CE4E5B9L + iteration);
        float[] c = new float[shots];
        for (int b = 0; b < shots; b++) {
            c[b] = r.nextBoolean() ? 1f : -1f;
        }
        return c;
    }

    /**
     * The K supershots of {@code acq} under {@code codes}: supershot k fires the sources of shots k, k+K, k+2K, ...
     * (in that order) with their wavelets times the codes, and its observed record is the coded sum of theirs.
     */
    public static Acquisition encode(Acquisition acq, float[] codes, int supershots) {
        int shots = acq.sources().length;
        int per = shots / supershots;
        int nt = acq.spec().nt();
        int nsrc = acq.sources()[0].length;
        int nrec = acq.receivers()[0].length * acq.spec().nfield(); // traces of all fields
        int stride = ShotWavelets.stride(acq.wavelet(), acq.sources(), nt);
        int[][][] src = new int[supershots][per * nsrc][];
        int[][][] rec = new int[supershots][][];
        float[] w = new float[supershots * per * nsrc * nt];
        float[] obs = new float[supershots * nt * nrec];
        for (int k = 0; k < supershots; k++) {
            rec[k] = acq.receivers()[k];
            for (int j = 0; j < per; j++) {
                int b = k + j * supershots;
                float c = codes[b];
                float[] wb = ShotWavelets.of(acq.wavelet(), stride, b, nsrc, nt);
                for (int s = 0; s < nsrc; s++) {
                    src[k][j * nsrc + s] = acq.sources()[b][s];
                    int at = (k * per * nsrc + j * nsrc + s) * nt;
                    for (int t = 0; t < nt; t++) {
                        w[at + t] = c * wb[s * nt + t];
                    }
                }
                int from = b * nt * nrec;
                int to = k * nt * nrec;
                for (int i = 0; i < nt * nrec; i++) {
                    obs[to + i] += c * acq.observed()[from + i];
                }
            }
        }
        return new Acquisition(acq.spec(), w, src, rec, obs);
    }

    @Override
    public boolean beginIteration(int iteration) {
        inner.setAcquisition(encode(base, codes(base.sources().length, seed, band, iteration), supershots));
        return true;
    }

    @Override
    public double evaluate(float[] model, float[] grad) {
        return inner.evaluate(model, grad);
    }

    @Override
    public ModelTile tile() {
        return inner.tile();
    }

    /** Leaves {@code inner} open: whoever made it closes it (it outlives one band). */
    @Override
    public void close() {
    }
}
