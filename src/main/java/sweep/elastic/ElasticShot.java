package sweep.elastic;

/**
 * One elastic shot as the kernels see it, for a device stepper ({@link ElasticDeviceStepper}): the injection
 * entries (array index with the component's slot, and their dt-scaled samples, {@code nt} per entry), whether they are
 * explosive (added to the stresses after the stress sub-step) or forces (injected with the buoyancy after the velocity
 * sub-step), the recorded values (array index and kind: 0 pressure, 1 a velocity component at its node) and, for a
 * gradient, the force entries whose samples enter the velocity terms of the tape (compact index of the term array and
 * samples; none for explosive sources).
 */
public final class ElasticShot {
    public final int[] srcIdx;
    public final float[] samples;
    public final boolean explosive;
    public final int[] recIdx;
    public final int[] kind;
    public final int[] termIdx;
    public final float[] termSamples;

    /** A shot: the arrays are kept, not copied. */
    public ElasticShot(int[] srcIdx, float[] samples, boolean explosive, int[] recIdx, int[] kind, int[] termIdx,
                       float[] termSamples) {
        if (recIdx.length != kind.length) {
            throw new IllegalArgumentException("recIdx has " + recIdx.length + " entries but kind has " + kind.length
                    + ": one kind per recorded value");
        }
        this.srcIdx = srcIdx;
        this.samples = samples;
        this.explosive = explosive;
        this.recIdx = recIdx;
        this.kind = kind;
        this.termIdx = termIdx;
        this.termSamples = termSamples;
    }
}
