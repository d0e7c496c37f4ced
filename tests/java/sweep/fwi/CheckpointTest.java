package sweep.fwi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FWI checkpoints: a saved state (two parameters and their L-BFGS diagonal) reads back exactly; any flipped byte, a
 * truncation, an old-format file or another job's file is refused with a message naming the file and saying to start afresh; a checkpoint that began from
 * another starting model reads as stale (null).
 */
class CheckpointTest {
    @TempDir
    Path dir;

    private static final int N = 38;
    /** Parameters of the model: two blocks of 19 cells, with an L-BFGS diagonal that is not the identity. */
    private static final int P = 2;
    private static final long JOB = 0x1234_5678_9abcL;

    private static Fwi.State state() {
        Fwi.State st = new Fwi.State(new float[N], 3, P);
        st.scale[1] = 0.37;
        for (int i = 0; i < N; i++) {
            st.model[i] = 1500 + 7 * i;
            st.grad[i] = (float) Math.sin(i);
        }
        st.misfit = 0.25;
        st.initialMisfit = 1.5;
        st.history.add(new Fwi.Iteration(1, 0.5, 1, 3, 0.1));
        st.history.add(new Fwi.Iteration(2, 0.25, 0.5, 2, 0.2));
        for (int k = 0; k < 2; k++) {
            double[] s = new double[N];
            double[] y = new double[N];
            for (int i = 0; i < N; i++) {
                s[i] = 0.1 * (i + k);
                y[i] = 0.3 * (i + 1) + k;
            }
            assertTrue(st.lbfgs.update(s, y));
        }
        return st;
    }

    private static final float[] START = {1, 2, 3};

    /** The whole model of N values as {@code parameters} parameters. */
    private static ModelTile tile(int parameters) {
        return ModelTile.whole(new int[] {1, N / parameters}, parameters);
    }

    @Test
    void aSavedStateReadsBackExactly() {
        Path f = dir.resolve("cp.bin");
        Fwi.State st = state();
        Fwi.save(st, f, JOB, Fwi.fingerprint(START), tile(P), true);
        Fwi.State back = Fwi.load(f, 3, tile(P), JOB, Fwi.fingerprint(START));
        assertArrayEquals(st.model, back.model);
        assertArrayEquals(st.grad, back.grad);
        assertEquals(st.misfit, back.misfit);
        assertEquals(st.initialMisfit, back.initialMisfit);
        assertEquals(st.history, back.history);
        assertEquals(st.lbfgs.size(), back.lbfgs.size());
        assertArrayEquals(st.scale, back.scale);
        Iterator<Lbfgs.Pair> a = st.lbfgs.pairs().iterator();
        for (Lbfgs.Pair p : back.lbfgs.pairs()) {
            Lbfgs.Pair q = a.next();
            assertArrayEquals(q.s(), p.s());
            assertArrayEquals(q.y(), p.y());
            assertEquals(q.rho(), p.rho());
        }
        assertNull(Fwi.load(f, 3, tile(P), JOB, Fwi.fingerprint(new float[] {1, 2, 4})), "another start: stale");
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> Fwi.load(f, 3, tile(P), JOB + 1, Fwi.fingerprint(START)));
        assertTrue(other.getMessage().contains("different job"), other.getMessage());
    }

    private void refused(Path f, String what) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Fwi.load(f, 3, tile(P), JOB, Fwi.fingerprint(START)), what);
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("without --resume"),
                what + ": " + e.getMessage());
    }

    @Test
    void everyFlippedByteTruncationAndOldFormatAreRefused() throws IOException {
        Path good = dir.resolve("good.bin");
        Fwi.save(state(), good, JOB, Fwi.fingerprint(START), tile(P), true);
        byte[] bytes = Files.readAllBytes(good);
        Path f = dir.resolve("bad.bin");
        for (int i = 0; i < bytes.length; i++) {
            byte[] b = bytes.clone();
            b[i] ^= (byte) (1 << (i % 8));
            Files.write(f, b);
            refused(f, "byte " + i + " of " + bytes.length + " flipped");
        }
        for (int len : new int[] {0, 3, 4, 15, 16, bytes.length / 2, bytes.length - 1}) {
            Files.write(f, Arrays.copyOf(bytes, len));
            refused(f, "truncated to " + len + " bytes");
        }
        Files.write(f, Arrays.copyOf(bytes, bytes.length + 1));
        refused(f, "one byte appended");
        for (int magic : new int[] {0x53574632, 0x53574633, 0x53574634}) { // no checksums; one parameter; ordered hash
            try (OutputStream o = Files.newOutputStream(f); DataOutputStream d = new DataOutputStream(o)) {
                d.writeInt(magic);
                d.writeLong(JOB);
                d.writeInt(N);
            }
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Fwi.load(f, 3, tile(P), JOB, Fwi.fingerprint(START)));
            assertTrue(e.getMessage().contains("earlier version"), e.getMessage());
        }
        Path good2 = dir.resolve("good2.bin");
        Fwi.save(state(), good2, JOB, Fwi.fingerprint(START), tile(P), true);
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> Fwi.load(good2, 3, tile(1), JOB, Fwi.fingerprint(START)));
        assertTrue(other.getMessage().contains("holds 2 parameters"), other.getMessage());
    }
}
