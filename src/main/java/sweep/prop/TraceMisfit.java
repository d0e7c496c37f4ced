package sweep.prop;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;

/**
 * A misfit computed trace by trace over one shot's {@code (nt, traces)} records (a trace: one receiver's one field),
 * each trace's figures from that trace alone, so that a decomposed run holding only some traces writes the same
 * residual bits for them; it counts the traces it had to leave out for a zero norm.
 */
public abstract class TraceMisfit implements Misfit {
    /**
     * κ of the trace weight ω = ‖s‖² / (‖s‖² + κ ‖o‖²) of the amplitude-blind misfits (ncc, awi): a synthetic trace
     * holding less than about this fraction of its observed energy (its arrivals still beyond the end of the record,
     * say) fades out of J smoothly. Unweighted, such a trace's adjoint source grows as 1/‖s‖ and swamps every other
     * trace, and J changes on the scale of ‖s‖, so that no step of a line search lowers it.
     */
    public static final double WEAK_SYNTHETIC = 1e-4;

    /** Time samples per trace. */
    protected final int nt;
    private final AtomicLong zeroTraces = new AtomicLong();

    /** A misfit of records of {@code nt} time samples. */
    protected TraceMisfit(int nt) {
        if (nt < 1) {
            throw new IllegalArgumentException("nt must be >= 1, got " + nt);
        }
        this.nt = nt;
    }

    /** How many traces so far contributed 0 because of a zero norm (which norms: the misfit says). */
    public long zeroTraces() {
        return zeroTraces.get();
    }

    /** The number of traces of records {@code syn}, {@code obs} and {@code residual}, checked alike. */
    protected int traces(float[] syn, float[] obs, float[] residual) {
        if (syn.length != obs.length || syn.length != residual.length || syn.length % nt != 0) {
            throw new IllegalArgumentException("records of " + syn.length + ", " + obs.length + " and "
                    + residual.length + " values are not (" + nt + ", traces) alike");
        }
        return syn.length / nt;
    }

    /** The FFT length of a trace of {@code nt} samples zero-padded against wrap-around: the next power of two >= 2·nt. */
    protected static int paddedLength(int nt) {
        return Integer.highestOneBit(Math.max(2, 2 * nt - 1)) << 1;
    }

    /** The FFT (unscaled forward, 1/N inverse) of {@code x} (real and imaginary parts) in place. */
    protected static void fft(double[][] x, TransformType type) {
        FastFourierTransformer.transformInPlace(x, DftNormalization.STANDARD, type);
    }

    /** ω = ‖s‖² / (‖s‖² + κ ‖o‖²) of a trace of synthetic energy {@code ss} and observed energy {@code oo}. */
    protected static double weight(double ss, double oo) {
        return ss / (ss + WEAK_SYNTHETIC * oo);
    }

    /** dω/ds = (this) · s: 2 κ ‖o‖² / (‖s‖² + κ ‖o‖²)² of a trace of energies {@code ss} and {@code oo}. */
    protected static double weightSlope(double ss, double oo) {
        double floor = WEAK_SYNTHETIC * oo;
        return 2 * floor / ((ss + floor) * (ss + floor));
    }

    /** Counts {@code n} more traces left out for a zero norm. */
    protected void leftOut(long n) {
        if (n > 0) {
            zeroTraces.addAndGet(n);
        }
    }
}
