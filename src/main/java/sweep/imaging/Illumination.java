package sweep.imaging;

import sweep.prop.WavefieldListener;

/**
 * The source illumination of a batch of shots, Σ over the steps of the source wavefield squared, gathered from a
 * forward run's snapshots (one per step) shot by shot: {@link #perShot()} keeps each shot's sum, so that the
 * decomposition layer can add them over shot groups in global shot order, as {@link #total()} does on one domain.
 */
public final class Illumination implements WavefieldListener {
    private final float[][] perShot;

    /** An empty illumination of {@code shots} shots on {@code cells} cells (the snapshots' length). */
    public Illumination(int shots, int cells) {
        perShot = new float[shots][cells];
    }

    @Override
    public void snapshot(int shot, int step, float[] field) {
        float[] s = perShot[shot];
        if (field.length != s.length) {
            throw new IllegalArgumentException("snapshot of " + field.length + " cells; the illumination has "
                    + s.length);
        }
        for (int i = 0; i < s.length; i++) {
            s[i] += field[i] * field[i];
        }
    }

    /** Each shot's illumination, in shot order (the arrays themselves). */
    public float[][] perShot() {
        return perShot;
    }

    /** The sum over the shots, added in shot order. */
    public float[] total() {
        float[] t = new float[perShot[0].length];
        for (float[] s : perShot) {
            for (int i = 0; i < t.length; i++) {
                t[i] += s[i];
            }
        }
        return t;
    }
}
