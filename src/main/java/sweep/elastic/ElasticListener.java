package sweep.elastic;

/**
 * Receives elastic wavefield snapshots during a forward run: after step t (done = t + 1), the velocities at
 * (done − ½)·dt and the stresses at done·dt, physical region only (z-first, x fastest), each a fresh copy.
 */
@FunctionalInterface
public interface ElasticListener {
    /**
     * Called with the fields of shot {@code shot} after {@code done} steps, in the order vx, vz, σxx, σzz, σxz (2-D)
     * or vx, vy, vz, σxx, σyy, σzz, σxy, σxz, σyz (3-D).
     */
    void snapshot(int shot, int done, float[][] fields);
}
