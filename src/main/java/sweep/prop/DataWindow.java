package sweep.prop;

/**
 * A data window, the same on synthetic and observed traces and on the adjoint source: traces whose horizontal
 * source–receiver offset lies outside [{@code minOffset}, {@code maxOffset}] m are left out; with a {@code
 * muteVelocity} (m/s, 0: none) every sample earlier than the line t = {@code muteTime} + |offset| / muteVelocity is
 * muted, with a half-cosine ramp over the {@code taper} seconds before the line (a top mute); with a {@code
 * tailVelocity} (0: none) every sample later than t = {@code tailTime} + |offset| / tailVelocity is muted, with the
 * ramp over the {@code taper} seconds after that line (a tail mute: e.g. the early arrivals only). A windowed misfit
 * is J(M s, M o), M the window's weights, and its adjoint source M ∂J/∂(M s).
 */
public record DataWindow(double minOffset, double maxOffset, double muteVelocity, double muteTime, double taper,
                         double tailVelocity, double tailTime) {
    /**
     * Checks the window: offsets 0 <= min <= max (max may be infinite), mute velocities >= 0 and finite, finite
     * times, a taper >= 0.
     */
    public DataWindow {
        if (!(minOffset >= 0) || !(maxOffset >= minOffset)) {
            throw new IllegalArgumentException("offsets must satisfy 0 <= min <= max, got [" + minOffset + ", "
                    + maxOffset + "] m");
        }
        if (!(muteVelocity >= 0) || Double.isInfinite(muteVelocity) || !Double.isFinite(muteTime)
                || !(taper >= 0) || Double.isInfinite(taper)) {
            throw new IllegalArgumentException("the mute needs a velocity >= 0 m/s (0: none), a finite time and a"
                    + " taper >= 0 s, got " + muteVelocity + " m/s, " + muteTime + " s, " + taper + " s");
        }
        if (!(tailVelocity >= 0) || Double.isInfinite(tailVelocity) || !Double.isFinite(tailTime)) {
            throw new IllegalArgumentException("the tail mute needs a velocity >= 0 m/s (0: none) and a finite"
                    + " time, got " + tailVelocity + " m/s, " + tailTime + " s");
        }
    }

    /** A window of offsets and a top mute only (no tail mute). */
    public DataWindow(double minOffset, double maxOffset, double muteVelocity, double muteTime, double taper) {
        this(minOffset, maxOffset, muteVelocity, muteTime, taper, 0, 0);
    }

    /**
     * The window's weights of one shot's {@code (nt, receivers, nfield)} record: {@code source} and {@code receivers}
     * are grid cells, (x, z) or (x, y, z), in the global grid of spacing {@code dh} (model order z, [y,] x).
     */
    public float[] weights(int[] source, int[][] receivers, int nt, int nfield, double[] dh, double dt) {
        int nr = receivers.length;
        float[] w = new float[nt * nr * nfield];
        for (int r = 0; r < nr; r++) {
            double ox = (receivers[r][0] - source[0]) * dh[dh.length - 1];
            double oy = dh.length == 3 ? (receivers[r][1] - source[1]) * dh[1] : 0;
            double offset = Math.sqrt(ox * ox + oy * oy);
            if (offset < minOffset || offset > maxOffset) {
                continue;
            }
            double line = muteVelocity > 0 ? muteTime + offset / muteVelocity : Double.NEGATIVE_INFINITY;
            double tail = tailVelocity > 0 ? tailTime + offset / tailVelocity : Double.POSITIVE_INFINITY;
            for (int t = 0; t < nt; t++) {
                double time = t * dt;
                float v = (float) (ramp(time - (line - taper)) * ramp(tail + taper - time));
                for (int f = 0; f < nfield; f++) {
                    w[(t * nr + r) * nfield + f] = v;
                }
            }
        }
        return w;
    }

    /** The half-cosine ramp of a sample {@code d} s past the ramp's start: 0 before it, 1 after {@link #taper}. */
    private double ramp(double d) {
        if (d >= taper) {
            return 1;
        }
        if (d < 0) {
            return 0;
        }
        return 0.5 * (1 - Math.cos(Math.PI * d / taper));
    }

    /** {@code inner} seen through this window, for records of {@code spec} (its nt, fields, dh and dt). */
    public Misfit around(Misfit inner, PropSpec spec) {
        return new Windowed(inner, this, spec, null);
    }

    /** The misfit under a window; {@code weights} set once it is bound to a shot. */
    private record Windowed(Misfit inner, DataWindow window, PropSpec spec, float[] weights) implements Misfit {
        @Override
        public Misfit forShot(int[][] sources, int[][] receivers) {
            if (weights != null) {
                return this;
            }
            if (sources.length != 1) {
                throw new IllegalArgumentException("a data window needs one source per shot (its offsets), got "
                        + sources.length + ": no windows with encoded supershots");
            }
            return new Windowed(inner, window, spec, window.weights(sources[0], receivers, spec.nt(), spec.nfield(),
                    spec.dh(), spec.dt()));
        }

        @Override
        public double evaluate(float[] syn, float[] obs, float[] residual) {
            if (weights == null) {
                throw new IllegalStateException("a windowed misfit is evaluated for a shot: call forShot first");
            }
            if (syn.length != weights.length || obs.length != weights.length) {
                throw new IllegalArgumentException("records of " + syn.length + " and " + obs.length
                        + " values for a window of " + weights.length);
            }
            float[] s = new float[syn.length];
            float[] o = new float[obs.length];
            for (int i = 0; i < s.length; i++) {
                s[i] = weights[i] * syn[i];
                o[i] = weights[i] * obs[i];
            }
            double j = inner.evaluate(s, o, residual);
            for (int i = 0; i < residual.length; i++) {
                residual[i] *= weights[i];
            }
            return j;
        }

        @Override
        public Misfit unwindowed() {
            return inner;
        }
    }
}
