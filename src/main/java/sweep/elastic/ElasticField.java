package sweep.elastic;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A field an elastic run records at its receivers ({@code --record p,vx,vz[,vy]}), each at its own node of the
 * receiver's cell (x, z): p at (x, z), vx at (x+½, z), vz at (x, z+½), vy at (x, y+½, z); no interpolation.
 */
public enum ElasticField {
    /** Pressure, the negated mean normal stress: −(σxx+σzz)/2 in 2-D, −(σxx+σyy+σzz)/3 in 3-D (Pa), at t·dt. */
    P,
    /** Particle velocity along x (m/s) at (t+½)·dt. */
    VX,
    /** Particle velocity along y (m/s) at (t+½)·dt, 3-D only. */
    VY,
    /** Particle velocity along z (m/s, positive downwards) at (t+½)·dt. */
    VZ;

    /** The option spelling: p, vx, vy, vz. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a comma-separated list such as {@code p,vx,vz}: the record's field order. vy needs {@code ndim = 3}; a
     * field may appear once.
     */
    public static List<ElasticField> parseList(String list, int ndim) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("the list of recorded fields is empty: give e.g. p,vx,vz"
                    + (ndim == 3 ? ",vy" : ""));
        }
        List<ElasticField> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String n = part.trim().toLowerCase(Locale.ROOT);
            ElasticField f;
            switch (n) {
                case "p":
                    f = P;
                    break;
                case "vx":
                    f = VX;
                    break;
                case "vy":
                    f = VY;
                    break;
                case "vz":
                    f = VZ;
                    break;
                default:
                    throw new IllegalArgumentException("unknown recorded field '" + part.trim() + "' in '" + list
                            + "': use p, vx, vz" + (ndim == 3 ? " or vy" : ""));
            }
            out.add(f);
        }
        check(out, ndim);
        return out;
    }

    /** Checks a field list for an ndim-dimensional run: not empty, no repeats, vy only in 3-D. */
    static void check(List<ElasticField> fields, int ndim) {
        if (fields == null || fields.isEmpty()) {
            throw new IllegalArgumentException("the list of recorded fields is empty: give e.g. p,vx,vz");
        }
        for (int k = 0; k < fields.size(); k++) {
            ElasticField f = fields.get(k);
            if (f == null) {
                throw new IllegalArgumentException("recorded field " + k + " is null");
            }
            if (f == VY && ndim != 3) {
                throw new IllegalArgumentException("vy is recorded in 3-D only; this model is 2-D: use p, vx, vz");
            }
            if (fields.indexOf(f) != k) {
                throw new IllegalArgumentException("recorded field " + f.label() + " is listed twice in "
                        + String.join(",", fields.stream().map(ElasticField::label).toList()) + ": list each field"
                        + " once");
            }
        }
    }
}
