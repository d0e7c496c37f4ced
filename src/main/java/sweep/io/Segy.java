package sweep.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writer of shot records as SEG-Y revision 1 files (IEEE float samples, big-endian, fixed-length traces), the
 * exchange format that seismic processing and viewing tools read.
 *
 * <p>File layout: a 3200-byte textual header in <b>EBCDIC</b> (IBM code page 037; revision 1 describes the
 * textual header as EBCDIC and every reader accepts it, whereas ASCII is only formally allowed from revision 2 on),
 * a 400-byte binary header, then one trace per (shot, receiver), shot by shot and receivers in input order, each a
 * 240-byte trace header followed by {@code nt} 4-byte IEEE floats (format code 5). No extended textual headers.
 *
 * <p>Binary header (byte numbers of the standard, 1-based): 3201 job id 1, 3205 line 1, 3209 reel 1,
 * 3213 receivers per shot, 3217/3219 sample interval in µs, 3221/3223 samples per trace, 3225 format code 5,
 * 3229 sorting code 1 (as recorded), 3255 measurement system 1 (metres), 3501 revision {@code 0x0100},
 * 3503 fixed-length flag 1, 3505 number of extended textual headers 0; everything else 0.
 *
 * <p>Trace header: 1 and 5 trace sequence number in the file (from 1), 9 field record number = shot number
 * (from 1), 13 trace number within the record = receiver number (from 1), 17 energy source point = shot number,
 * 29 trace identification 1 (seismic data), 31/33 summed/stacked traces 1, 35 data use 1, 37 signed horizontal
 * offset in whole metres (distance source to receiver, negative when the receiver's x is less than the source's),
 * 41 receiver group elevation ({@code -z}), 45 surface elevation at the source 0, 49 source depth below the
 * surface ({@code z}), 69 elevation scalar {@value #ELEVATION_SCALAR}, 71 coordinate scalar
 * {@value #COORDINATE_SCALAR}, 73/77 source x/y, 81/85 receiver (group) x/y, 89 coordinate units 1 (length),
 * 115 samples in this trace, 117 sample interval in µs. Both scalars are -100: the stored integers are
 * centimetres (value = stored / 100 m), so positions are kept to the nearest centimetre.
 *
 * <p>Positions are in metres: x and y horizontal, z depth below the datum (the model top), positive down; the
 * datum is taken as elevation 0, so a receiver's elevation is {@code -z}. Impossible values (a sample interval that
 * is not a whole number of microseconds or does not fit the 16-bit field, too many samples or receivers for the
 * 16-bit fields, coordinates that overflow 32 bits in centimetres, mismatched lengths, non-finite positions) are a
 * {@link FormatException} naming the value; the write is atomic (temporary file + rename).
 */
public final class Segy {

    /** Bytes of the textual file header (40 lines of 80 characters). */
    public static final int TEXT_HEADER_BYTES = 3200;
    /** Bytes of the binary file header. */
    public static final int BINARY_HEADER_BYTES = 400;
    /** Bytes of each trace header. */
    public static final int TRACE_HEADER_BYTES = 240;
    /** Data sample format code of 4-byte IEEE floating point. */
    public static final int FORMAT_IEEE_FLOAT = 5;
    /** SEG-Y revision number written at byte 3501: rev 1.0 as {@code 0x0100}. */
    public static final int REVISION = 0x0100;
    /** Scalar applied to the coordinates (bytes 73-88): negative, so the real value is the stored one / 100. */
    public static final short COORDINATE_SCALAR = -100;
    /** Scalar applied to the elevations and depths (bytes 41-68): the real value is the stored one / 100. */
    public static final short ELEVATION_SCALAR = -100;
    /** Largest value of the standard's 16-bit (two's complement) header fields. */
    public static final int MAX_16BIT = Short.MAX_VALUE;
    /** Free description lines that fit in the textual header (lines C10 to C38). */
    public static final int MAX_DESCRIPTION_LINES = 29;
    /** Characters per description line (80 minus the {@code "Cnn "} prefix). */
    public static final int MAX_DESCRIPTION_CHARS = 76;

    private static final Charset EBCDIC = Charset.forName("IBM037");
    private static final int CHUNK = 1 << 20;

    private Segy() {}

    /** Invalid arguments to the SEG-Y writer: impossible header values or inconsistent shapes. */
    public static final class FormatException extends IllegalArgumentException {
        public FormatException(String message) {
            super(message);
        }
    }

    /**
     * Atomically writes a record of {@code shots} shots as a SEG-Y rev 1 file; see {@link #write(Path, float[], int,
     * int, int, double, double[], double[], List)}. The textual header carries no free description lines.
     */
    public static void write(Path path, float[] record, int shots, int nt, int nrec, double dt,
                             double[] sources, double[] receivers) {
        write(path, record, shots, nt, nrec, dt, sources, receivers, List.of());
    }

    /**
     * Atomically writes a record as a SEG-Y rev 1 file.
     *
     * @param record      samples of shape (shots, nt, nrec), C order: sample {@code t} of receiver {@code r} of
     *                    shot {@code b} is {@code record[(b * nt + t) * nrec + r]}
     * @param dt          sample interval in seconds; must be a whole number of microseconds, 1 to 32767
     * @param sources     source positions, shape (shots, 3): {@code x, y, z} in metres per shot
     * @param receivers   receiver positions in metres, shape (nrec, 3) when every shot uses the same receivers,
     *                    or (shots, nrec, 3) when they move with the shot
     * @param description up to {@value #MAX_DESCRIPTION_LINES} lines of printable ASCII (at most
     *                    {@value #MAX_DESCRIPTION_CHARS} characters each) for lines C10 onwards of the textual header
     */
    public static void write(Path path, float[] record, int shots, int nt, int nrec, double dt,
                             double[] sources, double[] receivers, List<String> description) {
        String at = path + ": cannot write SEG-Y: ";
        Layout lay = check(at, record, shots, nt, nrec, dt, sources, receivers);
        byte[] text = textHeader(at, lay, description);
        byte[] binary = binaryHeader(lay);
        int traceBytes = TRACE_HEADER_BYTES + 4 * nt;
        AtomicFiles.write(path, "SEG-Y file", ch -> {
            AtomicFiles.writeFully(ch, ByteBuffer.wrap(text));
            AtomicFiles.writeFully(ch, ByteBuffer.wrap(binary));
            ByteBuffer buf = ByteBuffer.allocateDirect(Math.max(traceBytes, CHUNK - CHUNK % traceBytes))
                    .order(ByteOrder.BIG_ENDIAN);
            for (int b = 0; b < shots; b++) {
                for (int r = 0; r < nrec; r++) {
                    if (buf.remaining() < traceBytes) {
                        flush(ch, buf);
                    }
                    int start = buf.position();
                    traceHeader(buf, lay, b, r);
                    buf.position(start + TRACE_HEADER_BYTES);
                    int base = b * nt * nrec + r;
                    for (int t = 0; t < nt; t++) {
                        buf.putFloat(record[base + t * nrec]);
                    }
                }
            }
            flush(ch, buf);
        });
    }

    private static void flush(FileChannel ch, ByteBuffer buf) throws IOException {
        buf.flip();
        AtomicFiles.writeFully(ch, buf);
        buf.clear();
    }

    /** Validated arguments with the header values derived from them. */
    private record Layout(int shots, int nt, int nrec, int dtMicros, double[] sources, double[] receivers,
                          boolean perShot) {
        /** Offset of receiver r of shot b's (x, y, z) in {@link #receivers}. */
        int receiver(int b, int r) {
            return 3 * (perShot ? b * nrec + r : r);
        }
    }

    private static Layout check(String at, float[] record, int shots, int nt, int nrec, double dt,
                                double[] sources, double[] receivers) {
        if (shots < 1 || nt < 1 || nrec < 1) {
            throw new FormatException(at + "record shape (" + shots + ", " + nt + ", " + nrec
                    + ") (shots, nt, nrec) must have every dimension >= 1");
        }
        if (nt > MAX_16BIT) {
            throw new FormatException(at + nt + " samples per trace do not fit the 16-bit field at bytes 3221 and"
                    + " 115 (at most " + MAX_16BIT + " in SEG-Y rev 1); resample or cut the record");
        }
        if (nrec > MAX_16BIT) {
            throw new FormatException(at + nrec + " receivers per shot do not fit the 16-bit field at byte 3213"
                    + " (at most " + MAX_16BIT + "); write the receivers in several files");
        }
        long n = (long) shots * nt * nrec;
        if (record == null || record.length != n) {
            throw new FormatException(at + "record has " + (record == null ? "no" : record.length) + " samples but"
                    + " shape (" + shots + ", " + nt + ", " + nrec + ") (shots, nt, nrec) needs " + n);
        }
        if (!(dt > 0) || !Double.isFinite(dt)) {
            throw new FormatException(at + "sample interval dt = " + dt + " s must be a positive number of seconds");
        }
        double micros = dt * 1e6;
        long us = Math.round(micros);
        if (us < 1 || us > MAX_16BIT) {
            throw new FormatException(at + "sample interval dt = " + dt + " s is " + fmt(micros) + " µs, outside the"
                    + " 16-bit field at bytes 3217 and 117 (1 to " + MAX_16BIT + " µs); resample the record");
        }
        if (Math.abs(micros - us) > Math.max(1e-3, 1e-7 * micros)) {
            throw new FormatException(at + "sample interval dt = " + dt + " s is " + fmt(micros) + " µs, not a whole"
                    + " number of microseconds as SEG-Y stores it; choose dt as whole microseconds or resample");
        }
        if (sources == null || sources.length != 3L * shots) {
            throw new FormatException(at + "sources have " + (sources == null ? "no" : sources.length) + " values,"
                    + " expected shape (" + shots + ", 3) = " + 3L * shots + " (x, y, z per shot)");
        }
        boolean perShot;
        if (receivers != null && receivers.length == 3L * nrec) {
            perShot = false;
        } else if (receivers != null && receivers.length == 3L * shots * nrec) {
            perShot = true;
        } else {
            throw new FormatException(at + "receivers have " + (receivers == null ? "no" : receivers.length)
                    + " values, expected shape (" + nrec + ", 3) = " + 3L * nrec + " (same receivers for every shot)"
                    + " or (" + shots + ", " + nrec + ", 3) = " + 3L * shots * nrec + " (receivers per shot)");
        }
        checkPositions(at, "source", sources, 1);
        checkPositions(at, "receiver", receivers, perShot ? nrec : receivers.length / 3);
        Layout lay = new Layout(shots, nt, nrec, (int) us, sources.clone(), receivers.clone(), perShot);
        for (int b = 0; b < shots; b++) { // offsets in whole metres must fit too
            for (int r = 0; r < nrec; r++) {
                offset(at, lay, b, r);
            }
        }
        return lay;
    }

    private static void checkPositions(String at, String what, double[] xyz, int perGroup) {
        String[] axis = {"x", "y", "z"};
        for (int i = 0; i < xyz.length; i++) {
            double v = xyz[i];
            int k = i / 3;
            String name = what + (perGroup == 1 ? " " + k : " " + (k % perGroup)
                    + (xyz.length / 3 > perGroup ? " of shot " + k / perGroup : "")) + " " + axis[i % 3];
            if (!Double.isFinite(v)) {
                throw new FormatException(at + name + " = " + v + " m is not a finite position");
            }
            double scaled = Math.rint(v * 100.0);
            if (Math.abs(scaled) > Integer.MAX_VALUE) {
                throw new FormatException(at + name + " = " + v + " m does not fit the 32-bit header field in"
                        + " centimetres (scalar -100; |value| <= " + Integer.MAX_VALUE / 100 + " m)");
            }
        }
    }

    /** Stored integer of a position in metres (scalar -100: centimetres). */
    private static int centi(double metres) {
        return (int) Math.rint(metres * 100.0);
    }

    /** Signed horizontal source-receiver distance in whole metres (negative when the receiver's x is smaller). */
    private static int offset(String at, Layout lay, int b, int r) {
        int s = 3 * b, g = lay.receiver(b, r);
        double dx = lay.receivers[g] - lay.sources[s], dy = lay.receivers[g + 1] - lay.sources[s + 1];
        double d = Math.copySign(Math.hypot(dx, dy), dx);
        if (Math.abs(Math.rint(d)) > Integer.MAX_VALUE) {
            throw new FormatException(at + "offset " + d + " m of receiver " + r + " of shot " + b
                    + " does not fit the 32-bit field at byte 37");
        }
        return (int) Math.rint(d);
    }

    // ------------------------------------------------------------------ headers

    private static byte[] textHeader(String at, Layout lay, List<String> description) {
        if (description == null) {
            description = List.of();
        }
        if (description.size() > MAX_DESCRIPTION_LINES) {
            throw new FormatException(at + description.size() + " description lines, at most "
                    + MAX_DESCRIPTION_LINES + " fit in the textual header");
        }
        List<String> lines = new ArrayList<>();
        lines.add("SWEEP-JAVA SYNTHETIC SHOT RECORDS, SEG-Y REV 1");
        lines.add("SHOTS " + lay.shots + ", RECEIVERS PER SHOT " + lay.nrec + ", TRACES " + (long) lay.shots * lay.nrec);
        lines.add("SAMPLES PER TRACE " + lay.nt + ", SAMPLE INTERVAL " + lay.dtMicros + " MICROSECONDS");
        lines.add("SAMPLES: 4-BYTE IEEE FLOAT (FORMAT 5), BIG-ENDIAN, FIXED-LENGTH TRACES");
        lines.add("TRACE ORDER: SHOT BY SHOT, RECEIVERS IN INPUT ORDER; NUMBERS COUNT FROM 1");
        lines.add("TRACE HEADER: 9 SHOT, 13 RECEIVER, 73/77 SOURCE X/Y, 81/85 RECEIVER X/Y,");
        lines.add("49 SOURCE DEPTH, 41 RECEIVER ELEVATION (= -DEPTH), 37 OFFSET (WHOLE M)");
        lines.add("SCALARS AT 69 (ELEVATIONS) AND 71 (COORDINATES) = -100: VALUES IN CM");
        lines.add("UNITS: METRES; DEPTH POSITIVE DOWN FROM THE MODEL TOP (DATUM, ELEVATION 0)");
        for (int i = 0; i < description.size(); i++) {
            String s = description.get(i);
            if (s.length() > MAX_DESCRIPTION_CHARS) {
                throw new FormatException(at + "description line " + (i + 1) + " has " + s.length()
                        + " characters, at most " + MAX_DESCRIPTION_CHARS + " fit: " + s);
            }
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                if (c < 0x20 || c > 0x7e) {
                    throw new FormatException(at + "description line " + (i + 1) + " has character U+"
                            + String.format("%04X", (int) c) + " at " + k + "; only printable ASCII is allowed");
                }
            }
            lines.add(s);
        }
        StringBuilder sb = new StringBuilder(TEXT_HEADER_BYTES);
        for (int line = 1; line <= 40; line++) {
            String body;
            if (line == 39) {
                body = "SEG Y REV1";
            } else if (line == 40) {
                body = "END TEXTUAL HEADER";
            } else {
                body = line - 1 < lines.size() ? lines.get(line - 1) : "";
            }
            String card = String.format(Locale.ROOT, "C%2d %s", line, body);
            sb.append(card).append(" ".repeat(80 - card.length()));
        }
        byte[] text = sb.toString().getBytes(EBCDIC);
        if (text.length != TEXT_HEADER_BYTES) {
            throw new IllegalStateException("textual header is " + text.length + " bytes");
        }
        return text;
    }

    private static byte[] binaryHeader(Layout lay) {
        ByteBuffer h = ByteBuffer.allocate(BINARY_HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
        // positions are the standard's byte numbers minus 3201
        h.putInt(0, 1);                       // 3201 job identification number
        h.putInt(4, 1);                       // 3205 line number
        h.putInt(8, 1);                       // 3209 reel number
        h.putShort(12, (short) lay.nrec);     // 3213 data traces per ensemble
        h.putShort(16, (short) lay.dtMicros); // 3217 sample interval (µs)
        h.putShort(18, (short) lay.dtMicros); // 3219 ... of the original recording
        h.putShort(20, (short) lay.nt);       // 3221 samples per data trace
        h.putShort(22, (short) lay.nt);       // 3223 ... of the original recording
        h.putShort(24, (short) FORMAT_IEEE_FLOAT); // 3225 data sample format code
        h.putShort(28, (short) 1);            // 3229 trace sorting code: as recorded
        h.putShort(54, (short) 1);            // 3255 measurement system: metres
        h.putShort(300, (short) REVISION);    // 3501 SEG-Y format revision number
        h.putShort(302, (short) 1);           // 3503 fixed-length trace flag
        h.putShort(304, (short) 0);           // 3505 number of extended textual headers
        return h.array();
    }

    /** Writes trace (b, r)'s 240-byte header at the buffer's position (relative offsets = byte number - 1). */
    private static void traceHeader(ByteBuffer buf, Layout lay, int b, int r) {
        int p = buf.position();
        for (int i = 0; i < TRACE_HEADER_BYTES; i += 8) {
            buf.putLong(p + i, 0L);
        }
        int seq = b * lay.nrec + r + 1;
        int s = 3 * b, g = lay.receiver(b, r);
        buf.putInt(p, seq);                         // 1   trace sequence number within line
        buf.putInt(p + 4, seq);                     // 5   trace sequence number within file
        buf.putInt(p + 8, b + 1);                   // 9   original field record number
        buf.putInt(p + 12, r + 1);                  // 13  trace number within the field record
        buf.putInt(p + 16, b + 1);                  // 17  energy source point number
        buf.putShort(p + 28, (short) 1);            // 29  trace identification code: seismic data
        buf.putShort(p + 30, (short) 1);            // 31  vertically summed traces
        buf.putShort(p + 32, (short) 1);            // 33  horizontally stacked traces
        buf.putShort(p + 34, (short) 1);            // 35  data use: production
        buf.putInt(p + 36, offset("", lay, b, r));  // 37  source-receiver offset (m)
        buf.putInt(p + 40, centi(-lay.receivers[g + 2])); // 41 receiver group elevation
        buf.putInt(p + 44, 0);                      // 45  surface elevation at source
        buf.putInt(p + 48, centi(lay.sources[s + 2]));    // 49 source depth below surface
        buf.putShort(p + 68, ELEVATION_SCALAR);     // 69  scalar for bytes 41-68
        buf.putShort(p + 70, COORDINATE_SCALAR);    // 71  scalar for bytes 73-88
        buf.putInt(p + 72, centi(lay.sources[s]));        // 73 source x
        buf.putInt(p + 76, centi(lay.sources[s + 1]));    // 77 source y
        buf.putInt(p + 80, centi(lay.receivers[g]));      // 81 group x
        buf.putInt(p + 84, centi(lay.receivers[g + 1]));  // 85 group y
        buf.putShort(p + 88, (short) 1);            // 89  coordinate units: length (metres, see 3255)
        buf.putShort(p + 114, (short) lay.nt);      // 115 samples in this trace
        buf.putShort(p + 116, (short) lay.dtMicros); // 117 sample interval (µs)
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.6g", v);
    }
}
