package sweep.equation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The checkpoint schedule's arithmetic: a plan fits its budget, can reverse every segment of its run (Griewank's
 * C(s + r, s)), takes the fewest levels that fit, and the default is the least memory of one level (segments near
 * √(nt·state/tape)); a budget below the least any plan needs is refused with the figures. (That a checkpointed
 * gradient has full storage's bits at every level is tested on an equation that runs on the skeleton: the SH example.)
 */
class CheckpointScheduleTest {
    @Test
    void binomialCountsFollowPascalsRule() {
        assertEquals(1, CheckpointSchedule.reversible(0, 7));
        assertEquals(8, CheckpointSchedule.reversible(1, 7));
        assertEquals(10, CheckpointSchedule.reversible(3, 2));
        for (int s = 1; s < 8; s++) {
            for (int r = 1; r < 8; r++) {
                assertEquals(CheckpointSchedule.reversible(s - 1, r) + CheckpointSchedule.reversible(s, r - 1),
                        CheckpointSchedule.reversible(s, r));
            }
        }
    }

    @Test
    void theDefaultIsTheLeastMemoryThatReRunsEachStepOnce() {
        int nt = 2000;
        long state = 7 * 1000;
        long tape = 3 * 1000;
        CheckpointSchedule cs = CheckpointSchedule.plan(nt, state, tape, 0);
        assertEquals(1, cs.levels());
        int leaves = (nt + cs.segment() - 1) / cs.segment();
        assertEquals(leaves - 1, cs.slots(), "one level: a state at every segment start but the first");
        double sqrt = Math.sqrt(nt * (double) state / tape);
        assertTrue(Math.abs(cs.segment() - sqrt) < 0.2 * sqrt, cs + " against √(nt·state/tape) = " + sqrt);
        for (int k = 1; k <= nt; k++) {
            long bytes = ((nt + k - 1) / k - 1) * state + k * tape;
            assertTrue(cs.bytes(state, tape) <= bytes, "segments of " + k + " would need less: " + bytes);
        }
    }

    @Test
    void aBudgetIsKeptWithTheFewestLevels() {
        int nt = 1500;
        long state = 5 * 4096;
        long tape = 2 * 4096;
        long least = CheckpointSchedule.plan(nt, state, tape, 0).bytes(state, tape);
        int last = 1;
        for (double f : new double[] {1.0, 0.5, 0.25, 0.1, 0.05}) {
            long budget = (long) (f * least);
            CheckpointSchedule cs = CheckpointSchedule.plan(nt, state, tape, budget);
            int leaves = (nt + cs.segment() - 1) / cs.segment();
            assertTrue(cs.bytes(state, tape) <= budget, cs + " over the budget " + budget);
            assertTrue(CheckpointSchedule.reversible(cs.slots(), cs.levels()) >= leaves, cs + " cannot reverse");
            assertTrue(cs.levels() >= last, "a smaller budget never takes fewer levels: " + cs);
            if (cs.levels() > 1) {
                CheckpointSchedule fewer = new CheckpointSchedule(nt, 1, 0, cs.levels() - 1);
                for (int k = 1; k <= nt; k++) {
                    int l = (nt + k - 1) / k;
                    int s = 0;
                    while (CheckpointSchedule.reversible(s, fewer.levels()) < l) {
                        s++;
                    }
                    assertTrue(s * state + k * tape > budget, "fewer levels fit with segments of " + k);
                }
            }
            last = cs.levels();
        }
        assertTrue(last > 2, "the tightest budget takes several levels");
    }

    @Test
    void aBudgetBelowTheLeastAnyPlanNeedsIsRefusedWithTheFigures() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CheckpointSchedule.plan(100, 1 << 20, 1 << 16, 1 << 19));
        assertTrue(e.getMessage().contains("--checkpoint-memory") && e.getMessage().contains("1.0 MiB"),
                e.getMessage());
    }
}
