package sweep.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** An independent SEG-Y reader for tests: a file held in memory; offsets are the standard's 1-based byte numbers. */
public record SegyFile(byte[] bytes) {
    public static SegyFile read(Path p) throws IOException {
        return new SegyFile(Files.readAllBytes(p));
    }

    public int i32(long byteNumber) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN).getInt((int) byteNumber - 1);
    }

    public int i16(long byteNumber) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN).getShort((int) byteNumber - 1);
    }

    /** The file's sample count per trace, from the binary header. */
    public int ns() {
        return i16(3221);
    }

    /** First byte number of trace k's header (k from 0), fixed-length traces. */
    public long trace(int k) {
        return 3601L + (long) k * (240 + 4L * ns());
    }

    /** Header field of trace k at its 1-based byte number within the trace header. */
    public int th32(int k, int byteNumber) {
        return i32(trace(k) + byteNumber - 1);
    }

    public int th16(int k, int byteNumber) {
        return i16(trace(k) + byteNumber - 1);
    }

    public float[] samples(int k) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
        float[] out = new float[ns()];
        for (int t = 0; t < out.length; t++) {
            out[t] = Float.intBitsToFloat(b.getInt((int) (trace(k) + 240 - 1) + 4 * t));
        }
        return out;
    }

    public int traces() {
        return (int) ((bytes.length - 3600) / (240 + 4L * ns()));
    }
}
