package sweep.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strict reader and writer of NumPy {@code .npy} files (format versions 1.0 and 2.0, little-endian,
 * C order), used for velocity models, source/receiver index arrays and wavefield snapshots.
 *
 * <p>Readable dtypes: {@code <f4}, {@code <f8}, {@code <i4}, {@code <i8}, {@code |b1}, {@code |u1}
 * (a {@code <} prefix is also accepted for the 1-byte types). Writers produce {@code <f4} and
 * {@code <i4}, in version 1.0 unless the header is too long for it. Every malformed or unsupported
 * file is reported as a {@link FormatException} naming the file, the value seen and what to do;
 * I/O failures are wrapped in {@link UncheckedIOException}.
 */
public final class Npy {

    /** The six bytes every .npy file starts with. */
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** Total header length (magic through newline) is padded to a multiple of this, as NumPy does. */
    static final int ALIGN = 64;
    /** Bytes moved per FileChannel call; a multiple of every item size. */
    static final int CHUNK = 1 << 20;

    /** Longest header dict accepted when reading (NumPy itself refuses more than 10000 by default). */
    static final int MAX_HEADER = 1 << 24;

    private static final String SUPPORTED =
            "float32 '<f4', float64 '<f8', int32 '<i4', int64 '<i8', bool '|b1', uint8 '|u1'";

    private Npy() {}

    /** A malformed, unsupported or unexpected .npy file, or invalid arguments to a writer. */
    public static final class FormatException extends IllegalArgumentException {
        public FormatException(String message) {
            super(message);
        }
    }

    /**
     * An array read from a .npy file: its NumPy dtype string (normalised, e.g. {@code "<f4"} or
     * {@code "|u1"}), its C-order shape ({@code []} for a scalar) and its elements in a Java array of
     * the matching type: {@code float[]}, {@code double[]}, {@code int[]}, {@code long[]},
     * {@code boolean[]} or {@code byte[]} (uint8, to be read with {@link Byte#toUnsignedInt}).
     * The shape is copied; the data array is shared, not copied.
     */
    public record Array(String dtype, int[] shape, Object data) {
        public Array {
            shape = shape.clone();
            long n = java.lang.reflect.Array.getLength(data);
            if (n != product(shape)) {
                throw new FormatException("shape " + shapeText(shape) + " holds " + product(shape)
                        + " elements but the data has " + n);
            }
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        /** Number of elements (the product of the shape; 1 for a scalar). */
        public int size() {
            return java.lang.reflect.Array.getLength(data);
        }

        /** The float32 data; refuses any other dtype (no silent conversion from float64). */
        public float[] asFloat32() {
            return as(float[].class, "float32 '<f4'");
        }

        /** The float64 data; refuses any other dtype. */
        public double[] asFloat64() {
            return as(double[].class, "float64 '<f8'");
        }

        /** The int64 data; refuses any other dtype. */
        public long[] asInt64() {
            return as(long[].class, "int64 '<i8'");
        }

        /** The bool data; refuses any other dtype. */
        public boolean[] asBool() {
            return as(boolean[].class, "bool '|b1'");
        }

        /** The raw uint8 bytes (unsigned: use {@link Byte#toUnsignedInt}); refuses any other dtype. */
        public byte[] asUint8() {
            return as(byte[].class, "uint8 '|u1'");
        }

        /**
         * Integer data as {@code int[]}: int32 as is (shared), int64 narrowed to a new array; an int64
         * value outside the int range, or any other dtype, is a {@link FormatException}.
         */
        public int[] asInt32() {
            if (data instanceof int[] ints) {
                return ints;
            }
            long[] longs = as(long[].class, "int32 '<i4' or int64 '<i8'");
            int[] out = new int[longs.length];
            for (int i = 0; i < longs.length; i++) {
                if (longs[i] != (int) longs[i]) {
                    throw new FormatException("int64 value " + longs[i] + " at flat index " + i
                            + " does not fit in int32; indices must lie in ["
                            + Integer.MIN_VALUE + ", " + Integer.MAX_VALUE + "]");
                }
                out[i] = (int) longs[i];
            }
            return out;
        }

        private <T> T as(Class<T> type, String wanted) {
            if (!type.isInstance(data)) {
                throw new FormatException("array has dtype '" + dtype + "', expected " + wanted
                        + "; convert it with numpy (a.astype(...)) before use");
            }
            return type.cast(data);
        }

        @Override
        public String toString() {
            return "Npy.Array[dtype=" + dtype + ", shape=" + shapeText(shape) + "]";
        }
    }

    // ------------------------------------------------------------------ reading

    /** Reads any supported .npy file; {@code what} (e.g. {@code "--vp"}) prefixes error messages. */
    public static Array read(Path path, String what) {
        try (FileChannel ch = open(path, what)) {
            return read(ch, new Where(path, what));
        } catch (IOException e) {
            throw new UncheckedIOException(label(path, what) + "cannot read: " + IoErrors.reason(path, e), e);
        }
    }

    /** Reads a float32 file of any shape; anything but {@code <f4} is refused with a message naming {@code what}. */
    public static Array readFloat32(Path path, String what) {
        return readFloat32(path, what, null);
    }

    /**
     * Reads a float32 file and checks its shape against {@code expectedShape} (null: any shape;
     * an entry of -1: any length on that axis).
     */
    public static Array readFloat32(Path path, String what, int[] expectedShape) {
        Array a = read(path, what);
        if (!(a.data() instanceof float[])) {
            throw new FormatException(label(path, what) + "dtype is '" + a.dtype() + "' with shape "
                    + shapeText(a.shape) + ", expected float32 '<f4'; convert it with numpy: "
                    + "np.save(path, a.astype('<f4'))");
        }
        checkShape(a, expectedShape, path, what);
        return a;
    }

    /**
     * Reads an int32 or int64 file as int data (see {@link Array#asInt32()}); the returned Array
     * always has dtype {@code <i4} and {@code int[]} data. Shape checked as in
     * {@link #readFloat32(Path, String, int[])}.
     */
    public static Array readInts(Path path, String what, int[] expectedShape) {
        Array a = read(path, what);
        if (!(a.data() instanceof int[] || a.data() instanceof long[])) {
            throw new FormatException(label(path, what) + "dtype is '" + a.dtype() + "' with shape "
                    + shapeText(a.shape) + ", expected int32 '<i4' or int64 '<i8'; convert it with "
                    + "numpy: np.save(path, a.astype('<i4'))");
        }
        checkShape(a, expectedShape, path, what);
        int[] ints;
        try {
            ints = a.asInt32();
        } catch (FormatException e) {
            throw new FormatException(label(path, what) + e.getMessage());
        }
        return new Array("<i4", a.shape, ints);
    }

    /** Reads an int32 or int64 file of any shape as int data. */
    public static Array readInts(Path path, String what) {
        return readInts(path, what, null);
    }

    // ------------------------------------------------------------------ reading parts of a file

    /**
     * What the header of a .npy file says: its dtype (normalised as in {@link Array}), its C-order shape and the byte
     * offset of its first element. The file's length has been checked against it.
     */
    public record Header(String dtype, int[] shape, long dataOffset) {
        public Header {
            shape = shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }
    }

    /** Reads and checks only the header of a .npy file (no data); {@code what} prefixes error messages. */
    public static Header header(Path path, String what) {
        try (FileChannel ch = open(path, what)) {
            return readHeader(ch, new Where(path, what), false);
        } catch (IOException e) {
            throw new UncheckedIOException(label(path, what) + "cannot read: " + IoErrors.reason(path, e), e);
        }
    }

    /**
     * The header of a float32 file whose shape matches {@code expectedShape} (null: any; -1: any length on that axis),
     * refused with the same messages as {@link #readFloat32(Path, String, int[])}; reads no data.
     */
    public static Header headerFloat32(Path path, String what, int[] expectedShape) {
        Header h = header(path, what);
        checkFloat32(h, expectedShape, path, what);
        return h;
    }

    private static void checkFloat32(Header h, int[] expectedShape, Path path, String what) {
        if (!h.dtype.equals("<f4")) {
            throw new FormatException(label(path, what) + "dtype is '" + h.dtype + "' with shape "
                    + shapeText(h.shape) + ", expected float32 '<f4'; convert it with numpy: "
                    + "np.save(path, a.astype('<f4'))");
        }
        checkShape(h.shape, h.dtype, expectedShape, path, what);
    }

    /**
     * Reads a selection of a float32 file of {@code expectedShape} (checked as in
     * {@link #readFloat32(Path, String, int[])}) without reading the rest: element {@code (i0, ..., ik)} of the result
     * (C order, shape {@code (index[0].length, ..., index[k].length)}) is the file's element
     * {@code (index[0][i0], ..., index[k][ik])}; a null list takes the whole axis. Indices may repeat (e.g. an edge
     * replicated past the end of an axis) and need not be sorted. The file is read with positional reads, one run of
     * nearby selected elements of the last selected axis at a time; the axes after it are read whole.
     */
    public static float[] readFloat32Selection(Path path, String what, int[] expectedShape, int[][] index) {
        Where at = new Where(path, what);
        try (FileChannel ch = open(path, what)) {
            Header h = readHeader(ch, at, false);
            checkFloat32(h, expectedShape, path, what);
            return readSelection(ch, h, index, at);
        } catch (IOException e) {
            throw new UncheckedIOException(label(path, what) + "cannot read: " + IoErrors.reason(path, e), e);
        }
    }

    /** Elements of a run read at once when they lie at most this far apart (the gap is read and dropped). */
    static final int GAP = 256;

    private static float[] readSelection(FileChannel ch, Header h, int[][] index, Where at) throws IOException {
        int[] shape = h.shape;
        int nd = shape.length;
        if (index == null || index.length != nd) {
            throw new IllegalArgumentException(label(at.path, at.what) + "a selection needs one index list per axis"
                    + " of the shape " + shapeText(shape) + ", got " + (index == null ? "none" : index.length));
        }
        int[] outShape = new int[nd];
        for (int a = 0; a < nd; a++) {
            outShape[a] = index[a] == null ? shape[a] : index[a].length;
            if (index[a] != null) {
                for (int i : index[a]) {
                    if (i < 0 || i >= shape[a]) {
                        throw new IllegalArgumentException(label(at.path, at.what) + "selected index " + i
                                + " on axis " + a + " is outside the shape " + shapeText(shape));
                    }
                }
            }
        }
        long total = product(outShape);
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(label(at.path, at.what) + "the selection " + shapeText(outShape)
                    + " holds " + total + " values, more than a Java array holds; select less");
        }
        int k = nd - 1; // the last axis that is not read whole: the axes after it form each element
        while (k >= 0 && whole(index[k], shape[k])) {
            k--;
        }
        if (k < 0 || total == 0) {
            return (float[]) readData(ch, "<f4", (int) total, h.dataOffset, at);
        }
        float[] out = new float[(int) total];
        long inner = 1;
        for (int a = k + 1; a < nd; a++) {
            inner *= shape[a];
        }
        int[] sel = index[k];
        List<int[]> runs = runs(sel, inner);
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        int[] lead = new int[k]; // odometer over the selected indices of axes 0..k-1
        long leadOut = 0;
        while (true) {
            long row = 0; // flat index, in elements of axis k, of (lead..., 0)
            for (int a = 0; a < k; a++) {
                row = row * shape[a] + (index[a] == null ? lead[a] : index[a][lead[a]]);
            }
            row *= shape[k];
            long outBase = leadOut * sel.length * inner;
            for (int[] run : runs) {
                readRun(ch, h.dataOffset, row, run, sel, inner, buf, out, outBase, at);
            }
            leadOut++;
            int a = k - 1;
            while (a >= 0 && ++lead[a] == outShape[a]) {
                lead[a] = 0;
                a--;
            }
            if (a < 0) {
                break;
            }
        }
        return out;
    }

    private static boolean whole(int[] idx, int n) {
        if (idx == null) {
            return true;
        }
        if (idx.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (idx[i] != i) {
                return false;
            }
        }
        return true;
    }

    /**
     * Groups the positions of {@code sel} into runs {first, last, positions...}: selected elements at most
     * {@link #GAP} apart whose span fits in one {@link #CHUNK}-byte read (or one element, when an element alone is
     * larger).
     */
    private static List<int[]> runs(int[] sel, long inner) {
        Integer[] order = new Integer[sel.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (p, q) -> Integer.compare(sel[p], sel[q]));
        long perChunk = Math.max(1, CHUNK / (4 * inner));
        List<int[]> runs = new ArrayList<>();
        int i = 0;
        while (i < order.length) {
            int first = sel[order[i]];
            int j = i + 1;
            while (j < order.length && sel[order[j]] - sel[order[j - 1]] <= GAP
                    && sel[order[j]] - first < perChunk) {
                j++;
            }
            int[] run = new int[2 + j - i];
            run[0] = first;
            run[1] = sel[order[j - 1]];
            for (int p = i; p < j; p++) {
                run[2 + p - i] = order[p];
            }
            runs.add(run);
            i = j;
        }
        return runs;
    }

    /** Reads one run of elements of axis k in row {@code row} and places each selected one in {@code out}. */
    private static void readRun(FileChannel ch, long dataOffset, long row, int[] run, int[] sel, long inner,
                                ByteBuffer buf, float[] out, long outBase, Where at) throws IOException {
        long span = (run[1] - run[0] + 1) * inner;
        long pos = dataOffset + 4 * (row + run[0]) * inner;
        if (4 * span <= buf.capacity()) {
            buf.clear().limit((int) (4 * span));
            readFully(ch, buf, pos, at);
            FloatBuffer f = buf.asFloatBuffer();
            for (int p = 2; p < run.length; p++) {
                int j = run[p];
                f.get((int) ((sel[j] - run[0]) * inner), out, (int) (outBase + j * inner), (int) inner);
            }
            return;
        }
        for (int p = 2; p < run.length; p++) { // one element larger than a chunk: read it in pieces
            int j = run[p];
            long from = dataOffset + 4 * (row + sel[j]) * inner;
            for (long done = 0; done < inner; ) {
                int n = (int) Math.min(inner - done, buf.capacity() / 4);
                buf.clear().limit(4 * n);
                readFully(ch, buf, from + 4 * done, at);
                buf.asFloatBuffer().get(out, (int) (outBase + j * inner + done), n);
                done += n;
            }
        }
    }

    /** Opens an input for reading, once {@link InputFiles#requireRegular} has let it pass. */
    private static FileChannel open(Path path, String what) throws IOException {
        InputFiles.requireRegular(path, what);
        return FileChannel.open(path, StandardOpenOption.READ);
    }

    private record Where(Path path, String what) {
        FormatException error(String problem) {
            return new FormatException(label(path, what) + problem);
        }
    }

    private static Array read(FileChannel ch, Where at) throws IOException {
        Header h = readHeader(ch, at, true);
        int count = (int) product(h.shape);
        return new Array(h.dtype, h.shape, readData(ch, h.dtype, count, h.dataOffset, at));
    }

    /**
     * Parses and checks the header, and checks the file's length against it; {@code whole}: the array is to be read
     * whole, so it must fit in one Java array (a file read in parts may hold more).
     */
    private static Header readHeader(FileChannel ch, Where at, boolean whole) throws IOException {
        long fileSize = ch.size();
        if (fileSize < 10) {
            throw at.error("file is " + fileSize + " bytes long, too short to be a .npy file "
                    + "(at least 10 header bytes); check the path or regenerate the file");
        }
        ByteBuffer pre = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        pre.limit((int) Math.min(12, fileSize));
        readFully(ch, pre, 0, at);
        byte[] magic = new byte[6];
        pre.get(0, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw at.error("bad magic " + hex(magic) + ", expected " + hex(MAGIC)
                    + " (\\x93NUMPY): not a .npy file; write it with numpy.save");
        }
        int major = pre.get(6) & 0xff, minor = pre.get(7) & 0xff;
        long headerLen;
        int prefix;
        if (major == 1 && minor == 0) {
            headerLen = pre.getShort(8) & 0xffff;
            prefix = 10;
        } else if (major == 2 && minor == 0) {
            if (fileSize < 12) {
                throw at.error("file is " + fileSize + " bytes long, too short for a version 2.0 "
                        + "header; the file is truncated, regenerate it");
            }
            headerLen = pre.getInt(8) & 0xffffffffL;
            prefix = 12;
        } else {
            throw at.error("unsupported .npy format version " + major + "." + minor
                    + ", only 1.0 and 2.0 are read; re-save with numpy.save");
        }
        if (headerLen > MAX_HEADER) {
            throw at.error("header length " + headerLen + " exceeds " + MAX_HEADER
                    + " bytes; the header is corrupt, regenerate the file");
        }
        if (prefix + headerLen > fileSize) {
            throw at.error("header length " + headerLen + " runs past the end of the " + fileSize
                    + "-byte file; the file is truncated or corrupt, regenerate it");
        }
        ByteBuffer hb = ByteBuffer.allocate((int) headerLen);
        readFully(ch, hb, prefix, at);
        String header = new String(hb.array(), StandardCharsets.ISO_8859_1);

        Map<String, Object> dict = new HeaderParser(header, at).parse();
        if (!dict.keySet().equals(Set.of("descr", "fortran_order", "shape"))) {
            throw at.error("header keys are " + dict.keySet() + ", expected exactly "
                    + "[descr, fortran_order, shape]; header was " + header.strip());
        }
        if (!(dict.get("descr") instanceof String descr)) {
            throw at.error("'descr' is " + dict.get("descr") + ", expected a dtype string such as "
                    + "'<f4'; structured dtypes are not supported");
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
            throw at.error("'fortran_order' is " + dict.get("fortran_order") + ", expected True or False");
        }
        if (!(dict.get("shape") instanceof long[] dims)) {
            throw at.error("'shape' is " + dict.get("shape") + ", expected a tuple of integers");
        }
        String dtype = checkDtype(descr, at);
        if (fortran) {
            throw at.error("fortran_order is True; only C order is supported: "
                    + "re-save with np.save(path, np.ascontiguousarray(a))");
        }
        int[] shape = checkShape(dims, at, whole);
        long count = product(shape);
        int item = itemSize(dtype);
        if (count > Long.MAX_VALUE / 16) {
            throw at.error("shape " + shapeText(shape) + " holds more elements than any file can; the header is"
                    + " corrupt, regenerate the file");
        }
        long dataStart = prefix + headerLen;
        long expected = dataStart + count * item;
        if (fileSize != expected) {
            throw at.error("file is " + fileSize + " bytes but dtype '" + dtype + "' with shape "
                    + shapeText(shape) + " needs " + expected + " (" + dataStart + " header + "
                    + (long) count * item + " data); the file is "
                    + (fileSize < expected ? "truncated (an interrupted write?)" : "longer than its header says")
                    + ", regenerate it");
        }
        return new Header(dtype, shape, dataStart);
    }

    /** Returns the normalised dtype, or throws naming the problem. */
    private static String checkDtype(String descr, Where at) {
        if (descr.length() == 3 && (descr.charAt(0) == '<' || descr.charAt(0) == '|')) {
            String t = descr.substring(1);
            switch (t) {
                case "f4": case "f8": case "i4": case "i8":
                    if (descr.charAt(0) == '<') {
                        return descr;
                    }
                    break;
                case "b1": case "u1":
                    return "|" + t;
                default:
                    break;
            }
        }
        if (!descr.isEmpty() && descr.charAt(0) == '>') {
            throw at.error("dtype '" + descr + "' is big-endian; only little-endian is supported: "
                    + "re-save with np.save(path, a.astype(a.dtype.newbyteorder('<')))");
        }
        throw at.error("unsupported dtype '" + descr + "'; supported are " + SUPPORTED
                + "; convert with numpy, e.g. np.save(path, a.astype('<f4'))");
    }

    private static int[] checkShape(long[] dims, Where at, boolean whole) {
        int[] shape = new int[dims.length];
        boolean empty = false;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw at.error("shape " + shapeText(dims) + " has negative dimension " + dims[i]
                        + " on axis " + i + "; the header is corrupt, regenerate the file");
            }
            if (dims[i] > Integer.MAX_VALUE) {
                throw at.error("shape " + shapeText(dims) + " has dimension " + dims[i] + " on axis " + i
                        + ", more than a Java array holds (" + Integer.MAX_VALUE + "); split the array");
            }
            shape[i] = (int) dims[i];
            empty |= dims[i] == 0;
        }
        long n = 1;
        for (int d : shape) {
            n *= d;
            if (whole && !empty && n > Integer.MAX_VALUE) {
                throw at.error("shape " + shapeText(dims) + " has more than " + Integer.MAX_VALUE
                        + " elements, more than a Java array holds; split the array");
            }
        }
        return shape;
    }

    private static Object readData(FileChannel ch, String dtype, int count, long pos, Where at)
            throws IOException {
        int item = itemSize(dtype);
        Object out = switch (dtype) {
            case "<f4" -> new float[count];
            case "<f8" -> new double[count];
            case "<i4" -> new int[count];
            case "<i8" -> new long[count];
            case "|b1" -> new boolean[count];
            default -> new byte[count];
        };
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(CHUNK, Math.max(item, (long) count * item)))
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int done = 0; done < count; ) {
            int k = Math.min(count - done, buf.capacity() / item);
            buf.clear().limit(k * item);
            readFully(ch, buf, pos + (long) done * item, at);
            switch (dtype) {
                case "<f4" -> buf.asFloatBuffer().get((float[]) out, done, k);
                case "<f8" -> buf.asDoubleBuffer().get((double[]) out, done, k);
                case "<i4" -> buf.asIntBuffer().get((int[]) out, done, k);
                case "<i8" -> buf.asLongBuffer().get((long[]) out, done, k);
                case "|b1" -> {
                    boolean[] b = (boolean[]) out;
                    for (int i = 0; i < k; i++) {
                        b[done + i] = buf.get(i) != 0;
                    }
                }
                default -> buf.get((byte[]) out, done, k);
            }
            done += k;
        }
        return out;
    }

    /** Fills {@code buf} from its position to its limit with bytes starting at file offset {@code pos}, then flips it. */
    private static void readFully(FileChannel ch, ByteBuffer buf, long pos, Where at) throws IOException {
        int start = buf.position();
        while (buf.hasRemaining()) {
            int r = ch.read(buf, pos + buf.position() - start);
            if (r < 0) {
                throw at.error("file ended early at byte " + (pos + buf.position() - start)
                        + "; the file is truncated (or was changed while being read), regenerate it");
            }
        }
        buf.flip();
    }

    private static void checkShape(Array a, int[] expected, Path path, String what) {
        checkShape(a.shape, a.dtype(), expected, path, what);
    }

    private static void checkShape(int[] shape, String dtype, int[] expected, Path path, String what) {
        if (expected == null) {
            return;
        }
        boolean ok = expected.length == shape.length;
        for (int i = 0; ok && i < expected.length; i++) {
            ok = expected[i] == -1 || expected[i] == shape[i];
        }
        if (!ok) {
            StringBuilder want = new StringBuilder("(");
            for (int i = 0; i < expected.length; i++) {
                want.append(i > 0 ? ", " : "").append(expected[i] == -1 ? "any" : String.valueOf(expected[i]));
            }
            want.append(expected.length == 1 ? ",)" : ")");
            throw new FormatException(label(path, what) + "shape is " + shapeText(shape) + " (dtype '"
                    + dtype + "'), expected " + want);
        }
    }

    /** Parser for the Python-literal header dict: string keys; values are strings, True/False or int tuples. */
    private static final class HeaderParser {
        private final String s;
        private final Where at;
        private int i;

        HeaderParser(String s, Where at) {
            this.s = s;
            this.at = at;
        }

        Map<String, Object> parse() {
            Map<String, Object> map = new LinkedHashMap<>();
            expect('{');
            while (peek() != '}') {
                String key = string();
                expect(':');
                Object value = value();
                if (map.put(key, value) != null) {
                    throw fail("duplicate key '" + key + "'");
                }
                if (peek() != ',') {
                    break;
                }
                i++;
            }
            expect('}');
            if (peek() != 0) {
                throw fail("unexpected text after the closing brace");
            }
            return map;
        }

        private Object value() {
            char c = peek();
            if (c == '\'' || c == '"') {
                return string();
            }
            if (c == '(') {
                return tuple();
            }
            for (String word : new String[] {"True", "False"}) {
                if (s.startsWith(word, i)) {
                    i += word.length();
                    return word.equals("True");
                }
            }
            throw fail("expected a string, True, False or a tuple");
        }

        private String string() {
            char q = peek();
            if (q != '\'' && q != '"') {
                throw fail("expected a quoted string");
            }
            int end = s.indexOf(q, i + 1);
            if (end < 0) {
                throw fail("unterminated string");
            }
            String v = s.substring(i + 1, end);
            i = end + 1;
            return v;
        }

        private long[] tuple() {
            expect('(');
            long[] dims = new long[4];
            int n = 0;
            while (peek() != ')') {
                int start = i;
                if (s.charAt(i) == '-') {
                    i++;
                }
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                String digits = s.substring(start, i);
                if (i < s.length() && s.charAt(i) == 'L') {
                    i++; // Python 2 long literal, as written by old NumPy
                }
                if (digits.isEmpty() || digits.equals("-")) {
                    throw fail("expected an integer in the shape tuple");
                }
                if (n == dims.length) {
                    dims = Arrays.copyOf(dims, 2 * n);
                }
                try {
                    dims[n++] = Long.parseLong(digits);
                } catch (NumberFormatException e) {
                    throw at.error("shape dimension " + digits + " is far too large for a Java array; "
                            + "the header is corrupt or the array must be split");
                }
                if (peek() != ',') {
                    break;
                }
                i++;
            }
            expect(')');
            return Arrays.copyOf(dims, n);
        }

        /** Skips whitespace; returns the next character, or 0 at the end. */
        private char peek() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            return i < s.length() ? s.charAt(i) : 0;
        }

        private void expect(char c) {
            if (peek() != c) {
                throw fail("expected '" + c + "'");
            }
            i++;
        }

        private FormatException fail(String problem) {
            return at.error("malformed header dict: " + problem + " at character " + i + " of "
                    + s.strip() + "; write the file with numpy.save");
        }
    }

    // ------------------------------------------------------------------ writing

    /** Atomically writes {@code data} as a C-order float32 ({@code <f4}) array of the given shape. */
    public static void writeFloat32(Path path, float[] data, int... shape) {
        write(path, "<f4", shape, data.length, (buf, off, k) -> buf.asFloatBuffer().put(data, off, k));
    }

    /** Atomically writes {@code data} as a C-order int32 ({@code <i4}) array of the given shape. */
    public static void writeInt32(Path path, int[] data, int... shape) {
        write(path, "<i4", shape, data.length, (buf, off, k) -> buf.asIntBuffer().put(data, off, k));
    }

    /** Copies elements {@code [off, off + k)} into {@code buf} at position 0. */
    private interface Filler {
        void fill(ByteBuffer buf, int off, int k);
    }

    private static void write(Path path, String dtype, int[] shape, int length, Filler filler) {
        for (int d : shape) {
            if (d < 0) {
                throw new FormatException(path + ": cannot write shape " + shapeText(shape)
                        + ": negative dimension " + d);
            }
        }
        if (product(shape) != length) {
            throw new FormatException(path + ": cannot write shape " + shapeText(shape) + " ("
                    + product(shape) + " elements) from " + length + " values; pass the array's true shape");
        }
        byte[] header = header(dtype, shape);
        int item = itemSize(dtype);
        AtomicFiles.write(path, ".npy file", out -> {
            writeFully(out, ByteBuffer.wrap(header));
            ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(CHUNK, Math.max(item, (long) length * item)))
                    .order(ByteOrder.LITTLE_ENDIAN);
            for (int done = 0; done < length; ) {
                int k = Math.min(length - done, buf.capacity() / item);
                buf.clear();
                filler.fill(buf, done, k);
                buf.limit(k * item);
                writeFully(out, buf);
                done += k;
            }
        });
    }

    /**
     * The header a float32 file of {@code shape} starts with (its length, a multiple of 64 bytes, is the offset of the
     * data), for writers that place the data themselves (see {@link #writeFloat32Box}).
     */
    public static byte[] float32Header(int... shape) {
        return header("<f4", shape.clone());
    }

    /**
     * Writes {@code data}, a C-order box of {@code count} elements, at {@code offset} of a float32 array of
     * {@code shape} whose data starts at byte {@code dataOffset} of {@code ch}, with positional writes (one per
     * contiguous run of the file; the channel's position is not used). Other parts of the file are left alone, so
     * that several processes may each write their own box of one file.
     */
    public static void writeFloat32Box(FileChannel ch, long dataOffset, int[] shape, int[] offset, int[] count,
                                       float[] data) throws IOException {
        int nd = shape.length;
        if (offset.length != nd || count.length != nd) {
            throw new IllegalArgumentException("box offset " + Arrays.toString(offset) + " and count "
                    + Arrays.toString(count) + " need one entry per axis of " + shapeText(shape));
        }
        for (int a = 0; a < nd; a++) {
            if (offset[a] < 0 || count[a] < 0 || (long) offset[a] + count[a] > shape[a]) {
                throw new IllegalArgumentException("box at " + Arrays.toString(offset) + " of "
                        + Arrays.toString(count) + " does not lie inside " + shapeText(shape));
            }
        }
        if (product(count) != data.length) {
            throw new IllegalArgumentException("a box of " + Arrays.toString(count) + " holds " + product(count)
                    + " values, got " + data.length);
        }
        if (data.length == 0) {
            return;
        }
        int k = nd - 1; // the last axis the box does not cover whole: each of its runs is contiguous in the file
        while (k > 0 && offset[k] == 0 && count[k] == shape[k]) {
            k--;
        }
        long inner = 1;
        for (int a = k + 1; a < nd; a++) {
            inner *= shape[a];
        }
        long run = count[k] * inner;
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(CHUNK, 4 * run)).order(ByteOrder.LITTLE_ENDIAN);
        int[] lead = new int[k];
        long src = 0;
        while (true) {
            long row = 0;
            for (int a = 0; a < k; a++) {
                row = row * shape[a] + offset[a] + lead[a];
            }
            long pos = dataOffset + 4 * ((row * shape[k] + offset[k]) * inner);
            for (long done = 0; done < run; ) {
                int n = (int) Math.min(run - done, buf.capacity() / 4);
                buf.clear();
                buf.asFloatBuffer().put(data, (int) (src + done), n);
                buf.limit(4 * n);
                long at = pos + 4 * done;
                while (buf.hasRemaining()) {
                    at += ch.write(buf, at);
                }
                done += n;
            }
            src += run;
            int a = k - 1;
            while (a >= 0 && ++lead[a] == count[a]) {
                lead[a] = 0;
                a--;
            }
            if (a < 0) {
                break;
            }
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    /**
     * The complete header (magic, version, length, dict, space padding, newline) for a C-order
     * array, padded so its length is a multiple of {@link #ALIGN}; version 1.0 unless the dict
     * needs more than 65535 bytes, then 2.0.
     */
    static byte[] header(String dtype, int[] shape) {
        String dict = "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
        int prefix = 10;
        int total = pad(prefix + dict.length() + 1);
        if (total - prefix > 0xffff) {
            prefix = 12;
            total = pad(prefix + dict.length() + 1);
        }
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).put((byte) (prefix == 10 ? 1 : 2)).put((byte) 0);
        if (prefix == 10) {
            b.putShort((short) (total - prefix));
        } else {
            b.putInt(total - prefix);
        }
        b.put(dict.getBytes(StandardCharsets.ISO_8859_1));
        while (b.position() < total - 1) {
            b.put((byte) ' ');
        }
        b.put((byte) '\n');
        return b.array();
    }

    private static int pad(int n) {
        return (n + ALIGN - 1) / ALIGN * ALIGN;
    }

    // ------------------------------------------------------------------ helpers

    static int itemSize(String dtype) {
        return dtype.charAt(2) - '0';
    }

    /** Element count of a shape; Long.MAX_VALUE if it overflows (never equal to a real length). */
    private static long product(int[] shape) {
        long n = 1;
        try {
            for (int d : shape) {
                n = Math.multiplyExact(n, d);
            }
        } catch (ArithmeticException e) {
            return Arrays.stream(shape).anyMatch(d -> d == 0) ? 0 : Long.MAX_VALUE;
        }
        return n;
    }

    /** Python tuple text: {@code ()}, {@code (5,)}, {@code (2, 3)}. */
    static String shapeText(int[] shape) {
        return shapeText(Arrays.stream(shape).asLongStream().toArray());
    }

    private static String shapeText(long[] shape) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            sb.append(i > 0 ? ", " : "").append(shape[i]);
        }
        return sb.append(shape.length == 1 ? ",)" : ")").toString();
    }

    /** "what: path: ", the start of every message about an input file of this package ("path: " without what). */
    static String label(Path path, String what) {
        return (what == null || what.isEmpty() ? "" : what + ": ") + path + ": ";
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b & 0xff));
        }
        return sb.toString();
    }
}
