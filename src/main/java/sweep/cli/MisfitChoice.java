package sweep.cli;

import java.util.Locale;
import sweep.prop.Misfit;
import sweep.prop.TraceNormalizedCorrelation;

/** The misfits a user can choose ({@code --misfit}, job key {@code misfit}): l2 and ncc. */
enum MisfitChoice {
    l2, ncc;

    /** The words of --misfit and of the job key. */
    static final String HELP = "l2: J = 1/2 sum (syn - obs)^2 (default); ncc: the trace-normalised correlation J ="
            + " sum over traces of 1 - <syn, obs> / (|syn| |obs|), blind to each trace's amplitude (a trace with a"
            + " zero synthetic or observed norm adds 0 and is counted)";

    /** The choice named {@code name} (any case); {@code where} names the setting in the error. */
    static MisfitChoice parse(String name, String where) {
        for (MisfitChoice c : values()) {
            if (c.name().equals(name.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException(where + ": must be \"l2\" or \"ncc\", got \"" + name + "\"");
    }

    /** The misfit of records of {@code nt} samples. */
    Misfit of(int nt) {
        return this == l2 ? Misfit.L2 : new TraceNormalizedCorrelation(nt);
    }

    /** The number of traces a run with {@code m} left out for a zero norm: 0 for L2. */
    static long zeroTraces(Misfit m) {
        return m instanceof TraceNormalizedCorrelation c ? c.zeroTraces() : 0;
    }
}
