package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real mpirun jobs on 2 and 4 ranks: non-blocking ring exchange on direct buffers, allReduce, and a failing rank. */
class MpiSmokeTest {

    private static final Pattern LINE = Pattern.compile(
            "smoke rank=(\\d+) size=(\\d+) left=(\\d+) first=(\\S+) last=(\\S+) sum=(\\S+)");

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void ringExchangeAndAllReduce(int ranks) throws Exception {
        MpiRunner.Result r = MpiRunner.run(ranks, MpiSmokeMain.class);
        assertEquals(0, r.exitCode(), r::describe);
        List<String> lines = r.linesStartingWith("smoke ");
        assertEquals(ranks, lines.size(), r::describe);
        List<Integer> seen = new ArrayList<>();
        double expectedSum = 0;
        for (int k = 0; k < ranks; k++) {
            expectedSum += k + 0.25;
        }
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            assertTrue(m.matches(), line);
            int rank = Integer.parseInt(m.group(1));
            int left = (rank + ranks - 1) % ranks;
            seen.add(rank);
            assertEquals(ranks, Integer.parseInt(m.group(2)), line);
            assertEquals(left, Integer.parseInt(m.group(3)), line);
            assertEquals(MpiSmokeMain.value(left, 0), Float.parseFloat(m.group(4)), line);
            assertEquals(MpiSmokeMain.value(left, MpiSmokeMain.N - 1), Float.parseFloat(m.group(5)), line);
            assertEquals(expectedSum, Double.parseDouble(m.group(6)), line);
        }
        assertEquals(ranks, seen.stream().distinct().count(), "one line per rank: " + seen);
    }

    @Test
    void aFailingRankEndsTheJobWithNonZeroExit() throws Exception {
        MpiRunner.Result r = MpiRunner.run(2, MpiSmokeMain.class, "--fail-rank", "1");
        assertFalse(r.timedOut(), r::describe);
        assertNotEquals(0, r.exitCode(), r::describe);
        assertTrue(r.stderr().contains("fails on purpose"), r::describe);
    }
}
