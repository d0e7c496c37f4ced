package sweep.prop;

import java.util.Locale;

/**
 * Model cells in messages: the position "(z, x) = (12, 34)" or "(z, y, x) = (...)" of a cell in the global model
 * (also when the array is one rank's tile of it), the check of a velocity model that names the first bad cell so, and
 * the check of a batch of shots' source and receiver lists ({@link #checkShots}).
 * Part of the equation contract: an equation's {@link sweep.equation.WaveEquation#checkModel} names a bad cell with
 * {@link #position}, the form the command line and the conformance kit expect.
 */
public final class Cells {
    private Cells() {
    }

    /**
     * The position of flat index {@code i} of a row-major array of {@code shape} (z first, x fastest) whose first cell
     * lies at {@code origin} of the global model (null: at 0), as "(z, x) = (12, 34)" or "(z, y, x) = (1, 2, 3)".
     */
    public static String position(int[] shape, long i, int[] origin) {
        int nd = shape.length;
        long[] p = new long[nd];
        long r = i;
        for (int a = nd - 1; a >= 0; a--) {
            p[a] = r % shape[a] + (origin == null ? 0 : origin[a]);
            r /= shape[a];
        }
        return nd == 2 ? String.format(Locale.ROOT, "(z, x) = (%d, %d)", p[0], p[1])
                : String.format(Locale.ROOT, "(z, y, x) = (%d, %d, %d)", p[0], p[1], p[2]);
    }

    /**
     * Whether flat index {@code i} of a row-major array of {@code shape} whose first cell lies at {@code origin} falls
     * inside a model of {@code physical} cells per axis (null: every cell does), i.e. is not padding of a decomposed
     * run.
     */
    public static boolean inside(int[] shape, long i, int[] origin, int[] physical) {
        if (physical == null) {
            return true;
        }
        long r = i;
        for (int a = shape.length - 1; a >= 0; a--) {
            if (r % shape[a] + (origin == null ? 0 : origin[a]) >= physical[a]) {
                return false;
            }
            r /= shape[a];
        }
        return true;
    }

    /**
     * Throws {@link IllegalArgumentException} at the first cell (in z, y, x order) of a velocity model {@code v} of
     * {@code shape} that is not finite or not positive, giving its value and global position ({@code origin} as in
     * {@link #position}); {@code what} starts the message (e.g. "--vp: model.npy").
     */
    public static void checkVelocity(float[] v, int[] shape, int[] origin, String what) {
        checkVelocity(v, shape, origin, null, what);
    }

    /**
     * As {@link #checkVelocity(float[], int[], int[], String)} for a tile that may hold cells beyond the physical model
     * (a pad to a mesh): cells whose global position reaches {@code physical} on some axis are not checked (null:
     * every cell is).
     */
    public static void checkVelocity(float[] v, int[] shape, int[] origin, int[] physical, String what) {
        checkPositive(v, 0, shape, origin, physical, what, "velocity", "m/s", "velocities must be finite and > 0 m/s");
    }

    /**
     * Throws {@link IllegalArgumentException} at the first cell (in z, y, x order) of the parameter that starts at
     * {@code from} in {@code v} (one value per cell of {@code shape}) that is not finite or not positive: "WHAT holds a
     * non-positive QUANTITY (value UNIT) at (z, x) = (.., ..): RULE", or "a non-finite value"; {@code origin} and
     * {@code physical} as in {@link #checkVelocity(float[], int[], int[], int[], String)}.
     */
    public static void checkPositive(float[] v, int from, int[] shape, int[] origin, int[] physical, String what,
                                     String quantity, String unit, String rule) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        for (int i = 0; i < n; i++) {
            float x = v[from + i];
            if ((!(x > 0) || x == Float.POSITIVE_INFINITY) && inside(shape, i, origin, physical)) {
                throw new IllegalArgumentException(what + " holds " + (Float.isFinite(x) ? "a non-positive " + quantity
                        + " (" + x + " " + unit + ")" : "a non-finite value (" + x + ")") + " at "
                        + position(shape, i, origin) + ": " + rule);
            }
        }
    }

    /**
     * Throws {@link IllegalArgumentException} at the first cell (in z, y, x order) of parameter {@code p} (starting at
     * {@code from} in {@code v}, one value per cell of {@code shape}) that it does not allow
     * ({@link sweep.equation.Parameter#allows}): "WHAT holds vs = -3.0 m/s at (z, x) = (.., ..): vs must be finite and
     * > 0", or "a non-finite value"; {@code origin} and {@code physical} as in
     * {@link #checkVelocity(float[], int[], int[], int[], String)}.
     */
    public static void checkValues(float[] v, int from, int[] shape, int[] origin, int[] physical, String what,
                                   sweep.equation.Parameter p) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        for (int i = 0; i < n; i++) {
            float x = v[from + i];
            if (!p.allows(x) && inside(shape, i, origin, physical)) {
                String seen = Float.isFinite(x) ? p.name() + " = " + p.format(x, 6) : "a non-finite value (" + x + ")";
                throw new IllegalArgumentException(what + " holds " + seen + " at " + position(shape, i, origin) + ": "
                        + p.name() + " must be finite and " + p.allowed() + (p.dimensionless() ? "" : " " + p.unit()));
            }
        }
    }

    /**
     * Throws {@link IllegalArgumentException} at the first cell (in z, y, x order) of an elastic model whose values are
     * not usable: vp, vs or rho not finite, vp &lt;= 0, vs &lt; 0, rho &lt;= 0, or vs not below vp·√3/2 (the bulk
     * modulus would not be positive). The message names the array ({@code names}: vp, vs, rho, e.g. "--vs: vs.npy"),
     * the value and the cell's global position ({@code origin}, {@code physical} as in
     * {@link #checkVelocity(float[], int[], int[], int[], String)}).
     */
    public static void checkElastic(float[] vp, float[] vs, float[] rho, int[] shape, int[] origin, int[] physical,
                                    String[] names) {
        for (int i = 0; i < vp.length; i++) {
            float p = vp[i];
            float s = vs[i];
            float r = rho[i];
            boolean bad = !(p > 0) || p == Float.POSITIVE_INFINITY || !(s >= 0) || s == Float.POSITIVE_INFINITY
                    || !(r > 0) || r == Float.POSITIVE_INFINITY || !(4.0 * s * s < 3.0 * p * p);
            if (!bad || !inside(shape, i, origin, physical)) {
                continue;
            }
            String at = " at " + position(shape, i, origin);
            float[] vals = {p, s, r};
            for (int k = 0; k < 3; k++) {
                if (!Float.isFinite(vals[k])) {
                    throw new IllegalArgumentException(names[k] + " holds a non-finite value (" + vals[k] + ")" + at
                            + ": model values must be finite");
                }
            }
            if (!(p > 0)) {
                throw new IllegalArgumentException(names[0] + " holds a non-positive velocity (" + p + " m/s)" + at
                        + ": vp must be > 0 m/s");
            }
            if (!(s >= 0)) {
                throw new IllegalArgumentException(names[1] + " holds a negative velocity (" + s + " m/s)" + at
                        + ": vs must be >= 0 m/s (0 = fluid)");
            }
            if (!(r > 0)) {
                throw new IllegalArgumentException(names[2] + " holds a non-positive density (" + r + " kg/m³)" + at
                        + ": rho must be > 0 kg/m³");
            }
            throw new IllegalArgumentException(names[1] + ": vs=" + s + " is not below vp·√3/2 (vp=" + p + " in "
                    + names[0] + ")" + at + ": the bulk modulus would not be positive; check that vp and vs are not"
                    + " swapped");
        }
    }

    /**
     * Checks the shape of a batch of shots, as every solver call takes it: at least one shot, one receiver list per
     * shot, every shot with the same number of receivers; returns the number of shots B.
     */
    public static int checkShots(int[][][] sources, int[][][] receivers) {
        if (sources == null || sources.length == 0) {
            throw new IllegalArgumentException("sources must hold at least one shot, shape (B, nsrc, ndim)");
        }
        if (receivers == null || receivers.length != sources.length) {
            throw new IllegalArgumentException("receivers must hold one entry per shot: sources have B="
                    + sources.length + ", receivers have " + (receivers == null ? "none" : receivers.length));
        }
        int nrec = receivers[0].length;
        for (int b = 0; b < receivers.length; b++) {
            if (receivers[b].length != nrec) {
                throw new IllegalArgumentException("every shot needs the same number of receivers: shot 0 has " + nrec
                        + ", shot " + b + " has " + receivers[b].length);
            }
        }
        return sources.length;
    }
}
