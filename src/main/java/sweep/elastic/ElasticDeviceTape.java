package sweep.elastic;

import sweep.prop.Storage;

/**
 * What one elastic shot's gradient-capable forward run on a device backend keeps for its adjoint run: with
 * {@link Storage#FULL} the velocity and strain terms of every step; with {@link Storage#BOUNDARY_SAVING} every
 * component on the ring around the rebuilt box after every step and the state after the last step ({@code lastV},
 * {@code lastS}). The backend decides the layout of its stores: they stay on the device after the forward run
 * ({@code stores} null) and come to the host in one transfer only when the device needs their place for another
 * shot's tape (a batch of forward runs before their adjoint runs).
 */
public final class ElasticDeviceTape {
    public final Storage storage;
    public final ElasticShot shot;
    /** The backend's tape arrays copied to the host, or null while the device holds them. */
    public float[][] stores;
    public float[] lastV;
    public float[] lastS;

    /** An empty tape of {@code shot}. */
    public ElasticDeviceTape(Storage storage, ElasticShot shot) {
        this.storage = storage;
        this.shot = shot;
    }

    /** Bytes the tape holds on the host. */
    public long bytes() {
        long n = 0;
        if (stores != null) {
            for (float[] a : stores) {
                n += a.length;
            }
        }
        n += lastV == null ? 0 : lastV.length;
        n += lastS == null ? 0 : lastS.length;
        return 4 * n;
    }
}
