package sweep.equation;

import java.util.Locale;
import sweep.prop.MemoryEstimate;

/**
 * Where a checkpointed gradient keeps the forward state, and how far it re-runs: the reversal of {@code nt} steps in
 * segments of at most {@link #segment()} steps (each re-run once with its tape, then run backwards) with at most
 * {@link #slots()} states held besides the zero initial one, placed binomially (Griewank's rule: with s free slots
 * and r levels of re-running, C(s + r, s) segments can be reversed). With {@link #levels()} = 1 the states are those
 * of every segment start, stored by the first forward run, and the adjoint costs one more forward run; a tighter
 * memory budget takes more levels, each at most one more forward run. A schedule depends only on its inputs, so every
 * rank of a decomposed run, given the same figures, re-runs the same steps (their halo exchanges pair up).
 *
 * @param nt      steps of the run
 * @param segment steps taped at once
 * @param slots   states held at most besides the initial one
 * @param levels  levels of re-running (1: each step re-run once)
 */
public record CheckpointSchedule(int nt, int segment, int slots, int levels) {
    /** The most levels a plan takes before it refuses a budget. */
    private static final int MAX_LEVELS = 64;

    /**
     * The schedule of {@code nt} steps for a state of {@code stateBytes} and a tape of {@code tapeBytesPerStep} per
     * step: with {@code budget} ≤ 0 the one of least memory among those that re-run every step once (segments of about
     * √(nt·state/tape) steps); else the one of fewest levels whose checkpoints and segment tape fit in
     * {@code budget} bytes (least memory among those). Throws IllegalArgumentException when no plan fits the budget
     * (one state and a short segment's tape, or the whole run's tape).
     */
    public static CheckpointSchedule plan(int nt, long stateBytes, long tapeBytesPerStep, long budget) {
        if (nt < 1) {
            throw new IllegalArgumentException("a checkpoint schedule needs nt >= 1, got " + nt);
        }
        for (int r = 1; r <= MAX_LEVELS; r++) {
            CheckpointSchedule best = null;
            long bestBytes = Long.MAX_VALUE;
            for (int k = 1; k <= nt; k++) {
                int leaves = (nt + k - 1) / k;
                int s = slotsFor(leaves, r);
                if (s < 0) {
                    continue;
                }
                long bytes = s * stateBytes + k * tapeBytesPerStep;
                if (bytes < bestBytes) {
                    bestBytes = bytes;
                    best = new CheckpointSchedule(nt, k, s, r);
                }
            }
            if (best != null && (budget <= 0 || bestBytes <= budget)) {
                return best;
            }
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT, "the checkpoint memory budget of %s cannot"
                + " hold a checkpointed gradient of %d steps (one state takes %s, one step's tape %s): raise"
                + " --checkpoint-memory (job key checkpoint_memory) or give no budget (the least memory that re-runs"
                + " each step once)", size(budget), nt, size(stateBytes), size(tapeBytesPerStep)));
    }

    /** Bytes as {@link MemoryEstimate#gib}, below 1 MiB in KiB. */
    private static String size(long bytes) {
        return bytes >= 1 << 20 ? MemoryEstimate.gib(bytes) : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }

    /** The fewest free slots s with C(s + r, s) ≥ {@code leaves}, or −1 when above {@code leaves} − 1. */
    private static int slotsFor(int leaves, int r) {
        for (int s = 0; s < leaves; s++) {
            if (reversible(s, r) >= leaves) {
                return s;
            }
        }
        return -1;
    }

    /** C(s + r, s) (saturating): the segments that s free slots and r levels reverse. */
    static long reversible(int s, int r) {
        long c = 1;
        for (int i = 1; i <= s; i++) {
            c = c * (r + i) / i;
            if (c > Integer.MAX_VALUE) {
                return Integer.MAX_VALUE;
            }
        }
        return c;
    }

    /** Bytes the schedule holds: {@link #slots()} states and one segment's tape. */
    public long bytes(long stateBytes, long tapeBytesPerStep) {
        return slots * stateBytes + segment * tapeBytesPerStep;
    }

    /**
     * Where the reversal of steps [from, to) with {@code free} free slots stores its next state: a segment boundary
     * after {@code from} that leaves the later part reversible with one slot less, or −1 when [from, to) is one
     * segment or no slot is free (then each segment is re-run from {@code from}; a planned schedule never needs it).
     */
    int split(int from, int to, int free) {
        int leaves = (to - from + segment - 1) / segment;
        if (leaves <= 1 || free <= 0) {
            return -1;
        }
        int r = 1;
        while (reversible(free, r) < leaves) {
            r++;
        }
        long right = Math.min(reversible(free - 1, r), leaves - 1);
        return from + (int) (leaves - right) * segment;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d steps in segments of %d, %d checkpoints, %d level%s", nt, segment, slots,
                levels, levels == 1 ? "" : "s");
    }
}
