package sweep.acoustic.tornado;

import sweep.kernels.Layout;
import sweep.kernels.Pack;
import sweep.kernels.Parallel;
import sweep.kernels.Sources;

/**
 * Device-side glue for the TornadoVM backend: the time-step index lives in {@code step[0]} on the device (a task's
 * scalar arguments are fixed when its task graph is built), and these tasks pass it to the portable kernels, which
 * TornadoVM inlines, so the arithmetic is exactly theirs.
 */
public final class AcousticStepKernels {
    private AcousticStepKernels() {
    }

    /** {@link Sources#sample} at step {@code step[0]}. */
    public static void sample(float[] u, int[] idx, float[] rec, int nrec, int[] step) {
        Sources.sample(u, idx, rec, nrec, step[0]);
    }

    /** {@link Sources#inject} at step {@code step[0]}. */
    public static void inject(float[] un, float[] v2, int[] idx, float[] wavelet, int nsrc, int nt, int[] step) {
        Sources.inject(un, v2, idx, wavelet, nsrc, nt, step[0]);
    }

    /**
     * Reads {@code a[0]} into {@code out[0]}: a task that makes a graph allocate and upload {@code a} (TornadoVM gives
     * no device buffer to an array that no task of the graph uses, even when the graph transfers it).
     */
    public static void touch(float[] a, float[] out) {
        out[0] = a[0];
    }

    /** As {@link #touch(float[], float[])} for an int array. */
    public static void touchInt(int[] a, float[] out) {
        out[0] = a[0];
    }

    /** Advances the device-side step counter. */
    public static void advance(int[] step) {
        step[0] = step[0] + 1;
    }

    /**
     * Zeroes {@code f[0..n)} on the device (cheaper than uploading zeros, and needed: TornadoVM does not copy in an
     * array whose first use in a task graph is a write, so the cells a kernel never writes would hold garbage).
     */
    public static void zero(float[] f, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            f[i] = 0f;
        }
    }

    /**
     * {@link Pack#unpack} of a received halo strip into {@code f}, written so that {@code f} is read as well: TornadoVM
     * treats an array whose first use in a task graph is a plain write as write-only and then neither copies nor keeps
     * its device contents, which would lose the whole wavefield. The condition on the (always non-negative) step
     * counter makes the access read-write; the value stored is the buffer's, bit for bit.
     */
    public static void unpackHalo(float[] f, float[] buf, int bufOff, int[] geo, int z0, int z1, int y0, int y1,
                                  int x0, int x1, int[] step) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nyb = y1 - y0;
        int nxb = x1 - x0;
        int n = step[0];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float v = buf[bufOff + ((z - z0) * nyb + (y - y0)) * nxb + (x - x0)];
                    f[i] = n >= 0 ? v : f[i];
                }
            }
        }
    }

    /** Steps the device-side counter back (the adjoint time loop runs n = nt−1 .. 0). */
    public static void retreat(int[] step) {
        step[0] = step[0] - 1;
    }

    /** {@link Sources#add} at step {@code step[0]}. */
    public static void addAt(float[] f, int[] idx, float[] samples, int count, int nt, int[] step) {
        Sources.add(f, idx, samples, count, nt, step[0]);
    }

    /** {@link Sources#uninject} at step {@code step[0]}. */
    public static void uninjectAt(float[] un, float[] v2, int[] idx, float[] wavelet, int nsrc, int nt, int[] step) {
        Sources.uninject(un, v2, idx, wavelet, nsrc, nt, step[0]);
    }

    /** Zeroes {@code f} at the cells {@code idx[0..count)}. */
    public static void clearAt(float[] f, int[] idx, int count) {
        for (int s = 0; s < count; s++) {
            f[idx[s]] = 0f;
        }
    }

    /** {@code wbar[s·nt + step[0]] = w[idx[s]]}: dJ/dwavelet of each source at this step. */
    public static void sampleWbar(float[] w, int[] idx, float[] wbar, int nsrc, int nt, int[] step) {
        int n = step[0];
        for (@Parallel int s = 0; s < nsrc; s++) {
            wbar[s * nt + n] = w[idx[s]];
        }
    }

    /** Copies {@code src[0..len)} into {@code store} at slot {@code step[0]} (offset step·len). */
    public static void storeAt(float[] src, float[] store, int len, int[] step) {
        int base = step[0] * len;
        for (@Parallel int i = 0; i < len; i++) {
            store[base + i] = src[i];
        }
    }

    /** Copies slot {@code step[0]} of {@code store} into {@code dst[0..len)}. */
    public static void loadAt(float[] store, float[] dst, int len, int[] step) {
        int base = step[0] * len;
        for (@Parallel int i = 0; i < len; i++) {
            dst[i] = store[base + i];
        }
    }

    /** {@link Pack#pack} of one ring box into slot {@code step[0]} of the ring store (slots of {@code slot} floats). */
    public static void packRing(float[] f, float[] store, int off, int slot, int[] geo, int z0, int z1, int y0, int y1,
                                int x0, int x1, int[] step) {
        Pack.pack(f, store, step[0] * slot + off, geo, z0, z1, y0, y1, x0, x1);
    }

    /** {@link Pack#unpack} of one ring box from slot {@code step[0] − 1} of the ring store (the level u^{n−1}). */
    public static void unpackRingBefore(float[] f, float[] store, int off, int slot, int[] geo, int z0, int z1, int y0,
                                        int y1, int x0, int x1, int[] step) {
        Pack.unpack(f, store, (step[0] - 1) * slot + off, geo, z0, z1, y0, y1, x0, x1);
    }
}
