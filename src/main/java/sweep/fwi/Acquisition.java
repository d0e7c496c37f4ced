package sweep.fwi;

/**
 * What an FWI inverts: the global problem spec, the source wavelet ({@code nt} or {@code (B, nt)}), source and
 * receiver cells per shot (coordinates x-first, as in {@link sweep.prop.Propagator}) and the observed record
 * {@code (B, nt, nrec, 1)}.
 */
public record Acquisition(sweep.prop.PropSpec spec, float[] wavelet, int[][][] sources, int[][][] receivers,
                          float[] observed) {
}
