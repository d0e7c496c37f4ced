package sweep.acoustic;

import sweep.prop.Storage;

/**
 * What one shot's gradient-capable forward run on a device backend keeps, on the host, for its adjoint run: with
 * {@link Storage#FULL} the Laplacian-plus-source term of every step ({@code store}, nt slots of the grid length); with
 * {@link Storage#BOUNDARY_SAVING} the boundary ring of every level 0..nt−1 ({@code store}, nt slots of the ring size)
 * and the last two levels. The store may stay on the device after the forward run ({@code store} null) and come back
 * in one transfer only when the device needs its place for another shot's tape (a batch of forward runs before their
 * adjoint runs); the backend decides and fills these fields.
 */
public final class AcousticDeviceTape {
    public final Storage storage;
    public final int[] srcIdx;
    public final int[] recIdx;
    public final float[] wavelet;
    public float[] store;
    public float[] last;
    public float[] beforeLast;

    /** An empty tape of one shot: its sources, receivers and source time functions {@code (nsrc, nt)}. */
    public AcousticDeviceTape(Storage storage, int[] srcIdx, int[] recIdx, float[] wavelet) {
        this.storage = storage;
        this.srcIdx = srcIdx;
        this.recIdx = recIdx;
        this.wavelet = wavelet;
    }

    /** Bytes the tape holds on the host. */
    public long bytes() {
        long n = store == null ? 0 : store.length;
        n += last == null ? 0 : last.length;
        n += beforeLast == null ? 0 : beforeLast.length;
        return 4 * n;
    }
}
