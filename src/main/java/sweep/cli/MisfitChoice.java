package sweep.cli;

import java.util.Locale;
import sweep.prop.AdaptiveWaveformMisfit;
import sweep.prop.EnvelopeDifference;
import sweep.prop.Misfit;
import sweep.prop.TraceMisfit;
import sweep.prop.TraceNormalizedCorrelation;

/** The misfits a user can choose ({@code --misfit}, job key {@code misfit}): l2, ncc, envelope and awi. */
enum MisfitChoice {
    l2, ncc, envelope, awi;

    /** The words of --misfit and of the job key. */
    static final String HELP = "l2: J = 1/2 sum (syn - obs)^2 (default); ncc: the trace-normalised correlation J ="
            + " sum over traces of 1 - <syn, obs> / (|syn| |obs|), blind to each trace's amplitude (a synthetic trace"
            + " with under about 1e-4 of its observed energy fades out; a trace with a zero synthetic or observed norm"
            + " adds 0 and is counted); envelope: J = 1/2 sum over traces of"
            + " sum (E(syn)^2 - E(obs)^2)^2 / |obs|^4, E(x)^2 = x^2 + H(x)^2 with H the Hilbert transform along time"
            + " (low frequencies a band-limited record lacks; a trace with a zero observed norm adds 0 and is"
            + " counted); awi: the adaptive waveform misfit, per trace the Wiener filter w turning the observed"
            + " trace into the synthetic one and J = 1/2 sum lag^2 w^2 / sum w^2 (lag in samples): a time shift of"
            + " any size raises J smoothly, which resists cycle skipping (weak and zero traces as for ncc)";

    /** The choice named {@code name} (any case); {@code where} names the setting in the error. */
    static MisfitChoice parse(String name, String where) {
        for (MisfitChoice c : values()) {
            if (c.name().equals(name.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException(where + ": must be \"l2\", \"ncc\", \"envelope\" or \"awi\", got \"" + name
                + "\"");
    }

    /** The misfit of records of {@code nt} samples. */
    Misfit of(int nt) {
        return switch (this) {
            case l2 -> Misfit.L2;
            case ncc -> new TraceNormalizedCorrelation(nt);
            case envelope -> new EnvelopeDifference(nt);
            case awi -> new AdaptiveWaveformMisfit(nt);
        };
    }

    /** The number of traces a run with {@code m} left out for a zero norm (ncc, envelope, awi): 0 for L2. */
    static long zeroTraces(Misfit m) {
        return m.unwindowed() instanceof TraceMisfit t ? t.zeroTraces() : 0;
    }
}
