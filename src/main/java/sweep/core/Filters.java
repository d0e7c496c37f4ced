package sweep.core;

import uk.me.berndporr.iirj.Butterworth;

/**
 * Causal Butterworth low-pass filtering of wavelets and records along time (iirj). Causal on purpose: a causal
 * time-invariant filter with zero initial state commutes with the wave equation's response, so filtering the wavelet
 * and filtering the record it produces give the same data; that is what makes a multi-band FWI consistent when the
 * observed data and the wavelet are filtered alike.
 */
public final class Filters {
    private Filters() {
    }

    /**
     * Returns a copy of {@code data} with every trace low-passed: the data are {@code (groups, nt, ntrace)} row-major
     * (a wavelet {@code (B, nt)} is groups = B, ntrace = 1; a record {@code (B, nt, nrec, 1)} is ntrace = nrec).
     *
     * @param cutoff corner frequency in Hz, below the Nyquist frequency {@code 1/(2 dt)}
     * @param order  Butterworth order (poles), 1..16
     */
    public static float[] lowPass(float[] data, int groups, int nt, int ntrace, double dt, double cutoff, int order) {
        if ((long) groups * nt * ntrace != data.length) {
            throw new IllegalArgumentException("data of " + data.length + " values are not (" + groups + ", " + nt
                    + ", " + ntrace + ")");
        }
        double nyquist = 0.5 / dt;
        if (!(cutoff > 0 && cutoff < nyquist)) {
            throw new IllegalArgumentException("low-pass corner " + cutoff + " Hz must lie in (0, " + nyquist
                    + ") Hz, the Nyquist frequency of dt=" + dt + " s");
        }
        if (order < 1 || order > 16) {
            throw new IllegalArgumentException("Butterworth order must be 1..16, got " + order);
        }
        float[] out = new float[data.length];
        Butterworth bw = new Butterworth();
        bw.lowPass(order, 1 / dt, cutoff);
        for (int g = 0; g < groups; g++) {
            for (int r = 0; r < ntrace; r++) {
                bw.reset();
                int base = g * nt * ntrace + r;
                for (int t = 0; t < nt; t++) {
                    out[base + t * ntrace] = (float) bw.filter(data[base + t * ntrace]);
                }
            }
        }
        return out;
    }
}
