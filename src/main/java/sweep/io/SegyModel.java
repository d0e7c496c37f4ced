package sweep.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reader of earth models stored as SEG-Y files (one trace per x column, or per (y, x) in 3-D, samples along depth z),
 * the form in which public benchmark models such as Marmousi and the SEG/EAGE models are distributed.
 *
 * <p>Accepted: fixed-length traces of 4-byte IBM (format code 1) or IEEE (format code 5) floats, big-endian as the
 * standard says or little-endian (recognised from the format code), with any number of extended textual headers.
 * Shape: a 2-D model is {@code (samples, traces)}; a model is 3-D when the traces' inline (bytes 189-192) and
 * crossline (bytes 193-196) numbers both vary: the traces must then be sorted by inline (y, slow) and crossline
 * (x, fast), the same crosslines in every inline, and the shape is {@code (samples, inlines, crosslines)}. Values are
 * returned row-major with x fastest, as every model of this project. Anything else (another sample format,
 * variable-length traces, a file size that is not a whole number of traces, an unsorted 3-D file) is a
 * {@link FormatException} that names the file, the byte position and what was found.
 */
public final class SegyModel {

    private static final int FILE_HEADERS = Segy.TEXT_HEADER_BYTES + Segy.BINARY_HEADER_BYTES;
    /** Data sample format code of 4-byte IBM floating point. */
    public static final int FORMAT_IBM_FLOAT = 1;

    private SegyModel() {}

    /** A SEG-Y model file that cannot be read as a model, or that does not fit what it is read for. */
    public static final class FormatException extends IllegalArgumentException {
        public FormatException(String message) {
            super(message);
        }
    }

    /**
     * What a SEG-Y model file holds: its shape {@code (nz, nx)} or {@code (nz, ny, nx)}, its sample format code,
     * its byte order, the sample interval of the binary header (bytes 3217-3218, 0 when unset) and where the first
     * trace starts.
     */
    public record Header(int[] shape, int format, ByteOrder order, int sampleInterval, long firstTrace) {
        public Header {
            shape = shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        /** Samples per trace (the depth axis). */
        int samples() {
            return shape[0];
        }

        /** Bytes of one trace, its header included. */
        long traceBytes() {
            return Segy.TRACE_HEADER_BYTES + 4L * samples();
        }

        @Override
        public String toString() {
            return "SegyModel.Header[shape=" + Arrays.toString(shape) + ", format=" + format + ", order=" + order
                    + ", sampleInterval=" + sampleInterval + "]";
        }
    }

    /** Whether {@code path} names a SEG-Y file by its extension ({@code .sgy} or {@code .segy}, any case). */
    public static boolean isSegy(Path path) {
        Path name = path.getFileName();
        if (name == null) {
            return false;
        }
        String s = name.toString().toLowerCase(java.util.Locale.ROOT);
        return s.endsWith(".sgy") || s.endsWith(".segy");
    }

    /** Reads and checks the file's headers (no samples); {@code what} (e.g. {@code "--vp"}) prefixes messages. */
    public static Header header(Path path, String what) {
        try (FileChannel ch = open(path, what)) {
            return cachedHeader(ch, path, what);
        } catch (IOException e) {
            throw new UncheckedIOException(Npy.label(path, what) + "cannot read: " + IoErrors.reason(path, e), e);
        }
    }

    /**
     * The whole model as float32, row-major {@code (nz, [ny,] nx)}; its shape checked against {@code expectedShape}
     * (null: any; an entry of -1: any length on that axis).
     */
    public static Npy.Array read(Path path, String what, int[] expectedShape) {
        Header h = header(path, what);
        checkShape(h, expectedShape, path, what);
        float[] v = readSelection(path, what, expectedShape, new int[h.shape.length][]);
        return new Npy.Array("<f4", h.shape, v);
    }

    /**
     * A selection of the model, as {@link Npy#readFloat32Selection}: element {@code (i0, ..., ik)} of the result is the
     * model's element {@code (index[0][i0], ..., index[k][ik])}, a null list taking the whole axis. Only the traces
     * of the selected columns are read.
     */
    public static float[] readSelection(Path path, String what, int[] expectedShape, int[][] index) {
        try (FileChannel ch = open(path, what)) {
            Header h = cachedHeader(ch, path, what);
            checkShape(h, expectedShape, path, what);
            int[] shape = h.shape;
            int nd = shape.length;
            if (index == null || index.length != nd) {
                throw new IllegalArgumentException(Npy.label(path, what) + "a selection needs one index list per axis of"
                        + " the shape " + Arrays.toString(shape));
            }
            int[][] idx = new int[nd][];
            long total = 1;
            for (int a = 0; a < nd; a++) {
                idx[a] = index[a] != null ? index[a] : range(shape[a]);
                for (int i : idx[a]) {
                    if (i < 0 || i >= shape[a]) {
                        throw new IllegalArgumentException(Npy.label(path, what) + "selected index " + i + " on axis " + a
                                + " is outside the shape " + Arrays.toString(shape));
                    }
                }
                total *= idx[a].length;
            }
            if (total > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(Npy.label(path, what) + "the selection holds " + total
                        + " values, more than a Java array holds; select less");
            }
            int[] zs = idx[0];
            int[] ys = nd == 3 ? idx[1] : new int[] {0};
            int[] xs = idx[nd - 1];
            int nx = shape[nd - 1];
            float[] out = new float[(int) total];
            ByteBuffer trace = ByteBuffer.allocate(4 * h.samples()).order(h.order);
            int columns = ys.length * xs.length;
            for (int j = 0; j < ys.length; j++) {
                for (int i = 0; i < xs.length; i++) {
                    long t = (long) ys[j] * nx + xs[i];
                    trace.clear();
                    readFully(ch, trace, h.firstTrace + t * h.traceBytes() + Segy.TRACE_HEADER_BYTES, path, what);
                    for (int k = 0; k < zs.length; k++) {
                        int bits = trace.getInt(4 * zs[k]);
                        out[k * columns + j * xs.length + i] =
                                h.format == FORMAT_IBM_FLOAT ? ibmToFloat(bits) : Float.intBitsToFloat(bits);
                    }
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(Npy.label(path, what) + "cannot read: " + IoErrors.reason(path, e), e);
        }
    }

    /**
     * Refuses a file whose sample interval (binary header bytes 3217-3218) is set and is not the grid spacing along z
     * {@code dz} (metres), read either as millimetres (the microsecond field of a time file, as many depth models are
     * written) or as whole metres (as revision 2 writes depth data). An unset interval (0) passes.
     */
    public static void checkSpacing(Path path, String what, double dz, String dzName) {
        int si = header(path, what).sampleInterval;
        if (si == 0 || Math.abs(si - dz * 1000) < 0.5 || si == dz) {
            return;
        }
        throw new FormatException(Npy.label(path, what) + "its sample interval (binary header bytes 3217-3218) is " + si
                + ", which is neither " + dzName + " " + fmt(dz) + " m in millimetres (" + Math.round(dz * 1000)
                + ") nor in metres: the model was sampled at another depth spacing; resample it or set " + dzName
                + " to its spacing");
    }

    /**
     * The value of a 4-byte IBM System/360 float: sign bit, 7-bit base-16 exponent biased by 64, 24-bit fraction
     * (value = fraction / 2^24 * 16^(exponent - 64)), rounded to the nearest float (exact unless it under- or
     * overflows float).
     */
    public static float ibmToFloat(int bits) {
        int fraction = bits & 0x00ffffff;
        if (fraction == 0) {
            return (bits < 0) ? -0.0f : 0.0f;
        }
        int exponent = (bits >>> 24) & 0x7f;
        double v = Math.scalb((double) fraction, 4 * (exponent - 64) - 24);
        return (float) (bits < 0 ? -v : v);
    }

    // ------------------------------------------------------------------ internals

    /** A file's identity for the header cache: a file read again unchanged is not scanned again. */
    private record FileKey(Path path, Object inode, long size, java.time.Instant modified) {
    }

    /** Headers of the files read so far (a 3-D model's trace headers are all read to find its shape). */
    private static final Map<FileKey, Header> HEADERS = new ConcurrentHashMap<>();

    private static Header cachedHeader(FileChannel ch, Path path, String what) throws IOException {
        FileKey key;
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            key = new FileKey(path.toAbsolutePath().normalize(), a.fileKey(), ch.size(),
                    a.lastModifiedTime().toInstant());
        } catch (IOException e) {
            return header(ch, path, what);
        }
        Header h = HEADERS.get(key);
        if (h == null) {
            h = header(ch, path, what);
            if (HEADERS.size() > 64) {
                HEADERS.clear();
            }
            HEADERS.put(key, h);
        }
        return h;
    }

    private static Header header(FileChannel ch, Path path, String what) throws IOException {
        long size = ch.size();
        if (size < FILE_HEADERS + Segy.TRACE_HEADER_BYTES) {
            throw new FormatException(Npy.label(path, what) + "holds " + size + " bytes, fewer than the "
                    + FILE_HEADERS + " bytes of SEG-Y file headers and one trace header: not a SEG-Y file");
        }
        ByteBuffer bin = ByteBuffer.allocate(Segy.BINARY_HEADER_BYTES);
        readFully(ch, bin, Segy.TEXT_HEADER_BYTES, path, what);
        ByteOrder order = ByteOrder.BIG_ENDIAN;
        int format = bin.order(order).getShort(24);
        if (!knownFormat(format)) {
            int little = bin.order(ByteOrder.LITTLE_ENDIAN).getShort(24);
            if (!knownFormat(little)) {
                throw new FormatException(Npy.label(path, what) + "the data sample format code (binary header bytes"
                        + " 3225-3226) reads " + format + " big-endian and " + little + " little-endian, neither a"
                        + " SEG-Y format: not a SEG-Y file");
            }
            order = ByteOrder.LITTLE_ENDIAN;
            format = little;
        }
        bin.order(order);
        if (format != FORMAT_IBM_FLOAT && format != Segy.FORMAT_IEEE_FLOAT) {
            throw new FormatException(Npy.label(path, what) + "samples are in format " + format + " (" + formatName(format)
                    + "; binary header bytes 3225-3226); a model must hold 4-byte IBM (1) or IEEE (5) floats: convert"
                    + " it, e.g. with segyio or Seismic Unix");
        }
        int interval = Short.toUnsignedInt(bin.getShort(16));
        int samples = Short.toUnsignedInt(bin.getShort(20));
        int extended = bin.getShort(304);
        int fixed = bin.getShort(302);
        if (extended < 0) {
            throw new FormatException(Npy.label(path, what) + "declares a variable number of extended textual headers ("
                    + extended + ", binary header bytes 3505-3506), which this reader does not follow");
        }
        long first = FILE_HEADERS + (long) Segy.TEXT_HEADER_BYTES * extended;
        ByteBuffer th = ByteBuffer.allocate(Segy.TRACE_HEADER_BYTES).order(order);
        if (size < first + Segy.TRACE_HEADER_BYTES) {
            throw new FormatException(Npy.label(path, what) + "holds " + size + " bytes, which ends before its first trace"
                    + " header at byte " + (first + 1) + " (" + extended + " extended textual headers declared)");
        }
        readFully(ch, th, first, path, what);
        int traceSamples = Short.toUnsignedInt(th.getShort(114));
        if (samples == 0) {
            samples = traceSamples;
        } else if (traceSamples != 0 && traceSamples != samples && fixed != 1) {
            throw new FormatException(Npy.label(path, what) + "the first trace holds " + traceSamples + " samples (trace"
                    + " header bytes 115-116) but the binary header says " + samples + " (bytes 3221-3222):"
                    + " variable-length traces are not supported");
        }
        if (samples == 0) {
            throw new FormatException(Npy.label(path, what) + "gives no number of samples per trace (binary header bytes"
                    + " 3221-3222 and trace header bytes 115-116 are 0)");
        }
        long traceBytes = Segy.TRACE_HEADER_BYTES + 4L * samples;
        long data = size - first;
        if (data % traceBytes != 0) {
            throw new FormatException(Npy.label(path, what) + "holds " + data + " bytes of traces after its " + first
                    + " bytes of file headers, not a whole number of " + traceBytes + "-byte traces (240-byte header + "
                    + samples + " samples of 4 bytes): the file is truncated or its traces differ in length");
        }
        long traces = data / traceBytes;
        if (traces > Integer.MAX_VALUE) {
            throw new FormatException(Npy.label(path, what) + "holds " + traces + " traces, more than a model may");
        }
        int n = (int) traces;
        int[] inline = new int[n];
        int[] crossline = new int[n];
        ByteBuffer lines = ByteBuffer.allocate(8).order(order);
        for (int t = 0; t < n; t++) {
            lines.clear();
            readFully(ch, lines, first + t * traceBytes + 188, path, what);
            inline[t] = lines.getInt(0);
            crossline[t] = lines.getInt(4);
        }
        int[] shape = isThreeD(inline, crossline) ? shape3d(inline, crossline, samples, path, what)
                : new int[] {samples, n};
        return new Header(shape, format, order, interval, first);
    }

    private static boolean isThreeD(int[] inline, int[] crossline) {
        return Arrays.stream(inline).distinct().count() > 1 && Arrays.stream(crossline).distinct().count() > 1;
    }

    private static int[] shape3d(int[] inline, int[] crossline, int samples, Path path, String what) {
        int n = inline.length;
        int nx = 1;
        while (nx < n && inline[nx] == inline[0]) {
            nx++;
        }
        int ny = n / nx;
        for (int t = 0; t < n; t++) {
            int y = t / nx;
            int x = t % nx;
            boolean sorted = y < ny && inline[t] == inline[y * nx] && crossline[t] == crossline[x]
                    && (x == 0 || crossline[t] != crossline[t - 1]) && (y == 0 || x != 0 || inline[t] != inline[t - 1]);
            if (!sorted) {
                throw new FormatException(Npy.label(path, what) + "trace " + (t + 1) + " has inline " + inline[t]
                        + " and crossline " + crossline[t] + " (trace header bytes 189-196): a 3-D model needs its "
                        + n + " traces sorted by inline (y) then crossline (x), the same " + nx + " crosslines in"
                        + " every inline (the first inline, " + inline[0] + ", has " + nx + ")");
            }
        }
        return new int[] {samples, ny, nx};
    }

    private static boolean knownFormat(int code) {
        return code >= 1 && code <= 16;
    }

    private static String formatName(int code) {
        return switch (code) {
            case 2 -> "4-byte integers";
            case 3 -> "2-byte integers";
            case 4 -> "4-byte fixed point with gain";
            case 6 -> "8-byte IEEE floats";
            case 7 -> "3-byte integers";
            case 8 -> "1-byte integers";
            case 9 -> "8-byte integers";
            case 10, 11, 12, 15, 16 -> "unsigned integers";
            default -> "not a float format this reader knows";
        };
    }

    private static void checkShape(Header h, int[] expected, Path path, String what) {
        if (expected == null) {
            return;
        }
        boolean ok = expected.length == h.shape.length;
        for (int i = 0; ok && i < expected.length; i++) {
            ok = expected[i] == -1 || expected[i] == h.shape[i];
        }
        if (!ok) {
            throw new FormatException(Npy.label(path, what) + "holds a model of shape " + Arrays.toString(h.shape)
                    + " (samples per trace, " + (h.shape.length == 3 ? "inlines, crosslines" : "traces")
                    + "), expected " + Arrays.toString(expected).replace("-1", "any"));
        }
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static FileChannel open(Path path, String what) throws IOException {
        InputFiles.requireRegular(path, what);
        return FileChannel.open(path, StandardOpenOption.READ);
    }

    private static void readFully(FileChannel ch, ByteBuffer buf, long at, Path path, String what)
            throws IOException {
        long pos = at;
        while (buf.hasRemaining()) {
            int r = ch.read(buf, pos);
            if (r < 0) {
                throw new FormatException(Npy.label(path, what) + "ends at byte " + pos + " inside a header or trace");
            }
            pos += r;
        }
        buf.flip();
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
