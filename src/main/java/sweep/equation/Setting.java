package sweep.equation;

/**
 * One run setting of a {@link WaveEquation} beside its parameters (e.g. the number of relaxation mechanisms of an
 * attenuating equation): a value for the whole run, given to {@code PropSpec.Builder#setting}, as the command-line
 * option {@code --name} with underscores as hyphens, and as the job-file key {@code name}.
 *
 * @param name              lower case with underscores, e.g. "f_ref"
 * @param description       one line: what it is, its unit and the allowed values
 * @param defaultValue      the value of a run that does not give one, in the form {@link WaveEquation#checkSetting}
 *                          takes; null when a run must give it
 * @param fromPeakFrequency whether the command line, when neither option nor job key gives a setting without a default,
 *                          passes the source wavelet's peak frequency in Hz (the equation's {@code checkSetting} may
 *                          turn that into its value)
 */
public record Setting(String name, String description, String defaultValue, boolean fromPeakFrequency) {
    /** The command-line option of the setting: {@code --} and the name with hyphens for underscores. */
    public String option() {
        return "--" + name.replace('_', '-');
    }
}
