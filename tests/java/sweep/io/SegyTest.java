package sweep.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Byte-level tests of {@link Segy} against the SEG-Y rev 1 byte numbers, with a small independent reader written
 * here (big-endian fields at the standard's 1-based byte numbers; no code shared with the writer).
 */
class SegyTest {

    @TempDir
    Path dir;

    /** (shots, nt, nrec) record with distinct values, C order. */
    static float[] record(int shots, int nt, int nrec) {
        float[] r = new float[shots * nt * nrec];
        for (int b = 0; b < shots; b++) {
            for (int t = 0; t < nt; t++) {
                for (int g = 0; g < nrec; g++) {
                    r[(b * nt + t) * nrec + g] = (float) (b * 1000 + t + g / 8.0 - 0.5 * Math.sin(t + b));
                }
            }
        }
        return r;
    }

    static final int B = 2, NT = 7, NREC = 3;
    static final double DT = 0.0025;
    static final double[] SOURCES = {100.0, 0.0, 10.0, 250.25, 12.5, 20.0};
    /** Receivers per shot: (B, NREC, 3). */
    static final double[] RECEIVERS = {
        0.0, 0.0, 0.0, 50.0, 0.0, 5.0, 212.37, -3.5, 7.75,
        300.0, 1.0, 0.0, 310.0, 2.0, 0.0, 320.007, 3.0, 1234.5};

    Path written() {
        Path p = dir.resolve("shots.sgy");
        Segy.write(p, record(B, NT, NREC), B, NT, NREC, DT, SOURCES, RECEIVERS, List.of("TEST LINE", "SECOND"));
        return p;
    }

    // ------------------------------------------------------------------ layout and headers

    @Test
    void fileSizeIsHeadersPlusFixedLengthTraces() throws IOException {
        SegyFile f = SegyFile.read(written());
        assertEquals(3200 + 400 + B * NREC * (240 + 4 * NT), f.bytes().length);
        assertEquals(B * NREC, f.traces());
    }

    @Test
    void textualHeaderIsEbcdicCardsWithRev1Lines() throws IOException {
        byte[] b = SegyFile.read(written()).bytes();
        // EBCDIC (code page 037) by hand: C=C3, 1=F1, space=40, S=E2, E=C5, G=C7, Y=E8, R=D9, V=E5, 3=F3, 9=F9
        assertEquals((byte) 0xC3, b[0]);
        assertEquals((byte) 0x40, b[1]); // "C 1 "
        assertEquals((byte) 0xF1, b[2]);
        assertEquals((byte) 0x40, b[3]);
        int[] line39 = {0xC3, 0xF3, 0xF9, 0x40, 0xE2, 0xC5, 0xC7, 0x40, 0xE8, 0x40, 0xD9, 0xC5, 0xE5, 0xF1};
        for (int i = 0; i < line39.length; i++) {
            assertEquals((byte) line39[i], b[38 * 80 + i], "line 39 byte " + i);
        }
        for (int line = 0; line < 40; line++) {
            assertEquals((byte) 0xC3, b[line * 80], "line " + (line + 1) + " starts with C");
        }
        for (int i = 0; i < 3200; i++) { // no ASCII letters/controls: every byte is EBCDIC space, letter, digit or sign
            int v = b[i] & 0xff;
            assertTrue(v == 0x40 || v >= 0x4A, "byte " + i + " = " + Integer.toHexString(v) + " is not EBCDIC text");
        }
        assertEquals("TEST LINE", ebcdicToAscii(b, 9 * 80 + 4, 9));
    }

    /** Decodes upper-case letters, digits and space of EBCDIC 037 (enough for the check above). */
    static String ebcdicToAscii(byte[] b, int from, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            int v = b[i] & 0xff;
            if (v == 0x40) {
                sb.append(' ');
            } else if (v >= 0xC1 && v <= 0xC9) {
                sb.append((char) ('A' + v - 0xC1));
            } else if (v >= 0xD1 && v <= 0xD9) {
                sb.append((char) ('J' + v - 0xD1));
            } else if (v >= 0xE2 && v <= 0xE9) {
                sb.append((char) ('S' + v - 0xE2));
            } else if (v >= 0xF0 && v <= 0xF9) {
                sb.append((char) ('0' + v - 0xF0));
            } else {
                sb.append('?');
            }
        }
        return sb.toString();
    }

    @Test
    void binaryHeaderFieldsAtTheStandardsByteNumbers() throws IOException {
        SegyFile f = SegyFile.read(written());
        assertEquals(NREC, f.i16(3213), "data traces per ensemble");
        assertEquals(2500, f.i16(3217), "sample interval (µs)");
        assertEquals(2500, f.i16(3219), "original sample interval");
        assertEquals(NT, f.i16(3221), "samples per trace");
        assertEquals(NT, f.i16(3223), "original samples per trace");
        assertEquals(5, f.i16(3225), "format code: IEEE float");
        assertEquals(1, f.i16(3255), "measurement system: metres");
        byte[] b = f.bytes();
        assertEquals(0x01, b[3500]); // 3501-3502: revision 0x0100, big-endian
        assertEquals(0x00, b[3501]);
        assertEquals(1, f.i16(3503), "fixed-length trace flag");
        assertEquals(0, f.i16(3505), "extended textual headers");
        for (int n = 3507; n <= 3600; n++) {
            assertEquals(0, b[n - 1], "unassigned byte " + n);
        }
    }

    @Test
    void traceHeadersCarryNumbersGeometryAndSampling() throws IOException {
        SegyFile f = SegyFile.read(written());
        for (int k = 0; k < B * NREC; k++) {
            int shot = k / NREC, r = k % NREC;
            assertEquals(k + 1, f.th32(k, 1), "trace sequence in line");
            assertEquals(k + 1, f.th32(k, 5), "trace sequence in file");
            assertEquals(shot + 1, f.th32(k, 9), "field record number");
            assertEquals(r + 1, f.th32(k, 13), "trace number in record");
            assertEquals(shot + 1, f.th32(k, 17), "energy source point");
            assertEquals(1, f.th16(k, 29), "trace id: seismic");
            assertEquals(-100, f.th16(k, 69), "elevation scalar");
            assertEquals(-100, f.th16(k, 71), "coordinate scalar");
            assertEquals(1, f.th16(k, 89), "coordinate units");
            assertEquals(NT, f.th16(k, 115), "samples in trace");
            assertEquals(2500, f.th16(k, 117), "sample interval");
            int g = 3 * (shot * NREC + r);
            assertEquals(Math.round(SOURCES[3 * shot] * 100), f.th32(k, 73), "source x (cm)");
            assertEquals(Math.round(SOURCES[3 * shot + 1] * 100), f.th32(k, 77), "source y (cm)");
            assertEquals(Math.round(SOURCES[3 * shot + 2] * 100), f.th32(k, 49), "source depth (cm)");
            assertEquals(Math.round(RECEIVERS[g] * 100), f.th32(k, 81), "group x (cm)");
            assertEquals(Math.round(RECEIVERS[g + 1] * 100), f.th32(k, 85), "group y (cm)");
            assertEquals(Math.round(-RECEIVERS[g + 2] * 100), f.th32(k, 41), "group elevation (cm)");
        }
        // trace 3 = shot 2, receiver 1, spelled out
        assertEquals(4, f.th32(3, 1));
        assertEquals(2, f.th32(3, 9));
        assertEquals(1, f.th32(3, 13));
        assertEquals(25025, f.th32(3, 73));
        assertEquals(1250, f.th32(3, 77));
        assertEquals(2000, f.th32(3, 49));
        assertEquals(30000, f.th32(3, 81));
        assertEquals(100, f.th32(3, 85));
        assertEquals(0, f.th32(3, 41));
        assertEquals(32001, f.th32(5, 81)); // 320.007 m rounds to the nearest cm
        assertEquals(-123450, f.th32(5, 41)); // elevation = -depth
        // offset: signed distance in whole metres (receiver 0 of shot 1 is left of the source: negative)
        assertEquals(-100, f.th32(0, 37));
        assertEquals(Math.round(Math.hypot(212.37 - 100, -3.5)), f.th32(2, 37));
        assertEquals(Math.round(Math.hypot(300 - 250.25, 1 - 12.5)), f.th32(3, 37));
    }

    @Test
    void samplesRoundTripShotByShotReceiversInOrder() throws IOException {
        float[] rec = record(B, NT, NREC);
        SegyFile f = SegyFile.read(written());
        for (int b = 0; b < B; b++) {
            for (int r = 0; r < NREC; r++) {
                float[] want = new float[NT];
                for (int t = 0; t < NT; t++) {
                    want[t] = rec[(b * NT + t) * NREC + r];
                }
                assertArrayEquals(want, f.samples(b * NREC + r), "shot " + b + " receiver " + r);
            }
        }
    }

    @Test
    void sameReceiversForEveryShotAndSpecialFloats() throws IOException {
        int shots = 3, nt = 4, nrec = 2;
        float[] rec = record(shots, nt, nrec);
        rec[5] = Float.NaN;
        rec[6] = Float.NEGATIVE_INFINITY;
        rec[7] = -0.0f;
        double[] src = {0, 0, 0, 10, 0, 0, 20, 0, 0};
        double[] recv = {5, 0, 0, 15, 0, 2};
        Path p = dir.resolve("fixed.sgy");
        Segy.write(p, rec, shots, nt, nrec, 0.001, src, recv);
        SegyFile f = SegyFile.read(p);
        assertEquals(shots * nrec, f.traces());
        assertEquals(1000, f.i16(3217));
        for (int k = 0; k < shots * nrec; k++) {
            assertEquals(Math.round(recv[3 * (k % nrec)] * 100), f.th32(k, 81));
            assertEquals(Math.round(-recv[3 * (k % nrec) + 2] * 100), f.th32(k, 41));
            float[] s = f.samples(k);
            for (int t = 0; t < nt; t++) {
                float want = rec[((k / nrec) * nt + t) * nrec + k % nrec];
                assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(s[t]), "trace " + k + " t " + t);
            }
        }
    }

    @Test
    void largestSixteenBitValuesAreAccepted() throws IOException {
        Path p = dir.resolve("big.sgy");
        Segy.write(p, new float[32767], 1, 32767, 1, 0.032767, new double[3], new double[3]);
        SegyFile f = SegyFile.read(p);
        assertEquals(32767, f.i16(3221));
        assertEquals(32767, f.i16(3217));
        assertEquals(32767, f.th16(0, 115));
        // a float32 dt that is 800 µs up to rounding is accepted as 800
        Segy.write(p, new float[1], 1, 1, 1, (double) 0.0008f, new double[3], new double[3]);
        assertEquals(800, SegyFile.read(p).i16(3217));
    }

    // ------------------------------------------------------------------ errors

    static String fails(Runnable r) {
        return assertThrows(Segy.FormatException.class, r::run).getMessage();
    }

    @Test
    void impossibleValuesAreRefusedWithTheValueNamed() {
        Path p = dir.resolve("bad.sgy");
        float[] rec = record(B, NT, NREC);
        String m = fails(() -> Segy.write(p, rec, B, NT, NREC, 0.040, SOURCES, RECEIVERS));
        assertTrue(m.contains("40000") && m.contains("16-bit"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, 1.2345e-3, SOURCES, RECEIVERS));
        assertTrue(m.contains("whole") && m.contains("1234.5"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, 2e-7, SOURCES, RECEIVERS));
        assertTrue(m.contains("16-bit"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, 0, SOURCES, RECEIVERS));
        assertTrue(m.contains("positive"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, Double.NaN, SOURCES, RECEIVERS));
        assertTrue(m.contains("positive"), m);
        m = fails(() -> Segy.write(p, new float[32768], 1, 32768, 1, DT, new double[3], new double[3]));
        assertTrue(m.contains("32768 samples"), m);
        m = fails(() -> Segy.write(p, new float[32768], 1, 1, 32768, DT, new double[3], new double[3 * 32768]));
        assertTrue(m.contains("32768 receivers"), m);
        m = fails(() -> Segy.write(p, new float[3], 1, 1, 3, DT, new double[] {3e7, 0, 0}, new double[9]));
        assertTrue(m.contains("source 0 x") && m.contains("32-bit"), m);
        double[] nanRecv = RECEIVERS.clone();
        nanRecv[3 * 4 + 1] = Double.NaN;
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, DT, SOURCES, nanRecv));
        assertTrue(m.contains("receiver 1 of shot 1 y") && m.contains("NaN"), m);
    }

    @Test
    void mismatchedShapesAreRefused() {
        Path p = dir.resolve("bad.sgy");
        float[] rec = record(B, NT, NREC);
        String m = fails(() -> Segy.write(p, new float[rec.length - 1], B, NT, NREC, DT, SOURCES, RECEIVERS));
        assertTrue(m.contains("41 samples") && m.contains("(2, 7, 3)") && m.contains("42"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, DT, new double[3], RECEIVERS));
        assertTrue(m.contains("sources have 3 values") && m.contains("(2, 3)"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, DT, SOURCES, new double[10]));
        assertTrue(m.contains("receivers have 10 values") && m.contains("(3, 3)") && m.contains("(2, 3, 3)"), m);
        m = fails(() -> Segy.write(p, new float[0], 0, NT, NREC, DT, new double[0], RECEIVERS));
        assertTrue(m.contains(">= 1"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, DT, SOURCES, RECEIVERS, List.of("x".repeat(77))));
        assertTrue(m.contains("77 characters"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, DT, SOURCES, RECEIVERS, List.of("caf\u00e9")));
        assertTrue(m.contains("U+00E9"), m);
        m = fails(() -> Segy.write(p, rec, B, NT, NREC, DT, SOURCES, RECEIVERS,
                java.util.Collections.nCopies(30, "line")));
        assertTrue(m.contains("30 description lines"), m);
        assertFalse(Files.exists(p), "nothing written on refusal");
    }

    // ------------------------------------------------------------------ atomicity

    @Test
    void writesAtomicallyAndLeavesNoTemporaryFile() throws IOException {
        Path p = dir.resolve("shots.sgy");
        Files.writeString(p, "old content");
        written();
        assertEquals(3600 + B * NREC * (240 + 4 * NT), Files.size(p));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(p), s.toList());
        }
        Path missing = dir.resolve("no-such-dir").resolve("x.sgy");
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> Segy.write(missing, record(B, NT, NREC), B, NT, NREC, DT, SOURCES, RECEIVERS));
        assertTrue(e.getMessage().contains("x.sgy"), e.getMessage());
    }
}
