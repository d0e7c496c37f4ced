package sweep.prop;

/**
 * Receives wavefield snapshots during a forward run (the physical region only, z-first, x fastest): the pressure of
 * the acoustic equations, the particle speed |v| of the elastic one.
 */
@FunctionalInterface
public interface WavefieldListener {
    /**
     * Called with the wavefield of shot {@code shot} at time step {@code step} (time {@code step·dt}); the array is
     * a fresh copy the listener may keep.
     */
    void snapshot(int shot, int step, float[] field);
}
