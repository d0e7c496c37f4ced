package sweep.prop;

import java.util.List;

/**
 * One halo exchange of an equation's run (see {@link sweep.equation.WaveEquation#haloPoints}): where in the step it happens, the
 * wavefield components it carries, all in one message per neighbour, packed one component after the other, and whether
 * its sub-step also reads the corner halos (cells the diagonal neighbour owns; see
 * {@link HaloHook#exchangeWithCorners}).
 */
public record HaloPoint(String name, List<String> fields, boolean corners) {
    public HaloPoint {
        fields = List.copyOf(fields);
    }

    /** An exchange of the cut faces alone (a star stencil's). */
    public HaloPoint(String name, List<String> fields) {
        this(name, fields, false);
    }

    /** The number of components the exchange carries. */
    public int components() {
        return fields.size();
    }
}
