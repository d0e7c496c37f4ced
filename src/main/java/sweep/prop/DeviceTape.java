package sweep.prop;

/**
 * What one shot's gradient-capable forward run on a device backend keeps, on the host, for its adjoint run: with
 * {@link Storage#FULL} the Laplacian-plus-source term of every step ({@code store}, nt slots of the grid length); with
 * {@link Storage#BOUNDARY_SAVING} the boundary ring of every level 0..nt−1 ({@code store}, nt slots of the ring size)
 * and the last two levels. The store stays on the device after the forward run ({@code store} null) and comes back in
 * one transfer only when the device needs its place for another shot's tape (a batch of forward runs before their
 * adjoint runs); it then goes back in one transfer for its adjoint run.
 */
final class DeviceTape {
    final Storage storage;
    final int[] srcIdx;
    final int[] recIdx;
    final float[] wavelet;
    float[] store;
    float[] last;
    float[] beforeLast;

    DeviceTape(Storage storage, int[] srcIdx, int[] recIdx, float[] wavelet) {
        this.storage = storage;
        this.srcIdx = srcIdx;
        this.recIdx = recIdx;
        this.wavelet = wavelet;
    }

    long bytes() {
        long n = store == null ? 0 : store.length;
        n += last == null ? 0 : last.length;
        n += beforeLast == null ? 0 : beforeLast.length;
        return 4 * n;
    }
}
