package sweep.prop;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A misfit computed trace by trace over one shot's {@code (nt, traces)} records (a trace: one receiver's one field),
 * each trace's figures from that trace alone, so that a decomposed run holding only some traces writes the same
 * residual bits for them; it counts the traces it had to leave out for a zero norm.
 */
public abstract class TraceMisfit implements Misfit {
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

    /** Counts {@code n} more traces left out for a zero norm. */
    protected void leftOut(long n) {
        if (n > 0) {
            zeroTraces.addAndGet(n);
        }
    }
}
