package sweep.equation;

/**
 * One model parameter of a {@link WaveEquation}: its name (also its command-line option {@code --name} and its
 * job-file keys), its unit, what it is, and the bounds an inversion keeps it in unless a job says otherwise.
 *
 * @param name        the parameter's name, lower case (e.g. "vp")
 * @param unit        its unit as printed (e.g. "m/s", "kg/m³")
 * @param description one line: what it is and which values are allowed (e.g. "P velocity, > 0")
 * @param fwiMin      the default lower bound of an inversion
 * @param fwiMax      the default upper bound of an inversion
 * @param fwiMaxUpdate the default largest change of one model update, in {@code unit}
 * @param zeroIsAbsent whether 0 means the parameter is absent at a cell (e.g. vs = 0 in a fluid): pictures draw such
 *                     cells grey
 */
public record Parameter(String name, String unit, String description, double fwiMin, double fwiMax,
                        double fwiMaxUpdate, boolean zeroIsAbsent) {
    /** A parameter for which 0 is an ordinary value (or not allowed). */
    public Parameter(String name, String unit, String description, double fwiMin, double fwiMax, double fwiMaxUpdate) {
        this(name, unit, description, fwiMin, fwiMax, fwiMaxUpdate, false);
    }
}
