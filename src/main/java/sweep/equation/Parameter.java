package sweep.equation;

/**
 * One model parameter of a {@link WaveEquation}: its name (also its command-line option {@code --name} and its
 * job-file keys), its unit, what it is, the values it may take, and the bounds an inversion keeps it in unless a job
 * says otherwise.
 *
 * @param name        the parameter's name, lower case (e.g. "vp")
 * @param unit        its unit as printed (e.g. "m/s", "kg/m³"; "1" for a dimensionless one)
 * @param description one line: what it is and which values are allowed (e.g. "P velocity, > 0")
 * @param fwiMin      the default lower bound of an inversion
 * @param fwiMax      the default upper bound of an inversion
 * @param fwiMaxUpdate the default largest change of one model update, in {@code unit}
 * @param zeroIsAbsent whether 0 means the parameter is absent at a cell (e.g. vs = 0 in a fluid): pictures draw such
 *                     cells grey, and 0 is an allowed value
 * @param lowest      allowed values lie above it (exclusive; 0 for a positive quantity, e.g. −0.5 for a Thomsen
 *                    parameter that must keep 1 + 2ε positive)
 * @param highest     allowed values lie below it (exclusive; +∞ when unbounded)
 */
public record Parameter(String name, String unit, String description, double fwiMin, double fwiMax,
                        double fwiMaxUpdate, boolean zeroIsAbsent, double lowest, double highest) {
    public Parameter {
        if (!(lowest < highest) || !(fwiMin < fwiMax)) {
            throw new IllegalArgumentException("parameter " + name + ": its allowed values (" + lowest + ", " + highest
                    + ") and its inversion bounds [" + fwiMin + ", " + fwiMax + "] must each be a non-empty range");
        }
    }

    /** A positive parameter (values above 0), or one for which 0 means absent. */
    public Parameter(String name, String unit, String description, double fwiMin, double fwiMax, double fwiMaxUpdate,
                     boolean zeroIsAbsent) {
        this(name, unit, description, fwiMin, fwiMax, fwiMaxUpdate, zeroIsAbsent, 0, Double.POSITIVE_INFINITY);
    }

    /** A positive parameter: values above 0. */
    public Parameter(String name, String unit, String description, double fwiMin, double fwiMax, double fwiMaxUpdate) {
        this(name, unit, description, fwiMin, fwiMax, fwiMaxUpdate, false);
    }

    /**
     * A parameter whose values lie in the open range ({@code lowest}, {@code highest}), e.g. a signed Thomsen
     * parameter ε in (−0.5, ∞); an inversion's default bounds {@code fwiMin}, {@code fwiMax} lie inside it.
     */
    public static Parameter bounded(String name, String unit, String description, double lowest, double highest,
                                    double fwiMin, double fwiMax, double fwiMaxUpdate) {
        return new Parameter(name, unit, description, fwiMin, fwiMax, fwiMaxUpdate, false, lowest, highest);
    }

    /** Whether {@code v} is an allowed value: finite, inside ({@link #lowest}, {@link #highest}), or 0 when absent. */
    public boolean allows(double v) {
        return Double.isFinite(v) && (v > lowest && v < highest || zeroIsAbsent && v == 0);
    }

    /** The allowed values in words, e.g. "> 0", ">= 0", "> -0.5", "in (0, 1)". */
    public String allowed() {
        String lo = (zeroIsAbsent && lowest == 0 ? ">= " : "> ") + plain(lowest);
        return highest == Double.POSITIVE_INFINITY ? lo : "in " + (zeroIsAbsent && lowest == 0 ? "[" : "(")
                + plain(lowest) + ", " + plain(highest) + ")";
    }

    /** Whether the parameter has no unit (printed as "1"). */
    public boolean dimensionless() {
        return unit == null || unit.isEmpty() || unit.equals("1");
    }

    /** {@code v} with its unit, to {@code digits} significant digits: "1500 m/s", "0.1234" (no unit when dimensionless). */
    public String format(double v, int digits) {
        String n = new java.math.BigDecimal(v).round(new java.math.MathContext(digits)).stripTrailingZeros()
                .toPlainString();
        return dimensionless() ? n : n + " " + unit;
    }

    private static String plain(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}
