package sweep.prop;

/**
 * A batch of shot records, flat row-major with shape {@code (B, nt, nrec, nfield)} as SWEEP returns them.
 */
public record Record(float[] data, int shots, int nt, int nrec, int nfield) {
    public Record {
        if ((long) shots * nt * nrec * nfield != data.length) {
            throw new IllegalArgumentException("record data length " + data.length + " does not match shape ("
                    + shots + ", " + nt + ", " + nrec + ", " + nfield + ")");
        }
    }

    /** Sample of shot b, time step t, receiver r, field f. */
    public float get(int b, int t, int r, int f) {
        return data[((b * nt + t) * nrec + r) * nfield + f];
    }

    /** Shape as an int array, for writing. */
    public int[] shape() {
        return new int[] {shots, nt, nrec, nfield};
    }
}
