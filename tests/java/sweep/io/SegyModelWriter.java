package sweep.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A SEG-Y model writer for tests, laid out byte by byte from the standard's byte numbers and sharing no code with
 * {@link SegyModel}: a trace per (y, x) column, samples along z.
 */
public final class SegyModelWriter {
    private SegyModelWriter() {
    }

    /**
     * The IBM bits of {@code v} by repeated division by 16 (not the reader's routine): sign, exponent base 16 biased by
     * 64, a 24-bit fraction in [1/16, 1); exact for values with at most 21 significant bits.
     */
    public static int ibmBits(float v) {
        if (v == 0) {
            return 0;
        }
        double a = Math.abs((double) v);
        int e = 64;
        while (a >= 1) {
            a /= 16;
            e++;
        }
        while (a < 1.0 / 16) {
            a *= 16;
            e--;
        }
        long fraction = Math.round(a * (1 << 24));
        return (v < 0 ? 0x80000000 : 0) | (e << 24) | (int) fraction;
    }

    /** Options of the little writer below. */
    public record Layout(int format, ByteOrder order, int interval, int extended, boolean lines) {
        public static Layout ieee() {
            return new Layout(5, ByteOrder.BIG_ENDIAN, 20000, 0, true);
        }
    }

    /** Writes {@code m} of {@code shape} as a SEG-Y model: a trace per (y, x) column, inline y+1, crossline x+1. */
    public static void write(Path p, float[] m, int[] shape, Layout l) throws IOException {
        int nz = shape[0];
        int ny = shape.length == 3 ? shape[1] : 1;
        int nx = shape[shape.length - 1];
        int traces = ny * nx;
        ByteBuffer b = ByteBuffer.allocate(3600 + 3200 * l.extended + traces * (240 + 4 * nz)).order(l.order);
        b.putShort(3217 - 1, (short) l.interval);
        b.putShort(3221 - 1, (short) nz);
        b.putShort(3225 - 1, (short) l.format);
        b.putShort(3503 - 1, (short) 1);
        b.putShort(3505 - 1, (short) l.extended);
        for (int y = 0; y < ny; y++) {
            for (int x = 0; x < nx; x++) {
                int t = y * nx + x;
                int at = 3600 + 3200 * l.extended + t * (240 + 4 * nz);
                b.putInt(at + 1 - 1, t + 1);
                b.putShort(at + 115 - 1, (short) nz);
                b.putShort(at + 117 - 1, (short) l.interval);
                if (l.lines) {
                    b.putInt(at + 189 - 1, 100 + y);
                    b.putInt(at + 193 - 1, 7 + 2 * x);
                }
                for (int z = 0; z < nz; z++) {
                    float v = m[(z * ny + y) * nx + x];
                    b.putInt(at + 240 + 4 * z, l.format == 1 ? ibmBits(v) : Float.floatToRawIntBits(v));
                }
            }
        }
        Files.write(p, b.array());
    }


    /** Writes {@code m} of {@code shape} as big-endian IEEE floats with a sample interval of {@code dz} in mm. */
    public static void write(Path p, float[] m, double dz, int... shape) throws IOException {
        write(p, m, shape, new Layout(5, ByteOrder.BIG_ENDIAN, (int) Math.round(dz * 1000), 0, true));
    }
}
