package sweep.fwi;

/**
 * What an FWI inverts: the global problem spec (its equation; elastic: the source type and the recorded fields), the
 * source wavelet ({@code nt}, {@code (B, nt)} or {@code (B, nsrc, nt)}), source and receiver cells per shot
 * (coordinates x-first, as in {@link sweep.prop.Propagator}) and the observed record {@code (B, nt, nrec, nfield)},
 * nfield = {@code spec.nfield()} (1 for acoustic).
 */
public record Acquisition(sweep.prop.PropSpec spec, float[] wavelet, int[][][] sources, int[][][] receivers,
                          float[] observed) {
}
