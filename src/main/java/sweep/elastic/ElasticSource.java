package sweep.elastic;

import java.util.Locale;

/**
 * The kind of the sources of an elastic run ({@code --source-type}): a point force along x, y (3-D only) or z at that
 * component's velocity node, or an explosive (isotropic moment-rate) source at the normal-stress node. See
 * docs/elastic.md for the scaling.
 */
public enum ElasticSource {
    /** Isotropic moment source of moment rate w(t); w &gt; 0 is an explosion (p rises). */
    EXPLOSIVE,
    /** Point force along x at (x+½, z) (N per metre of line in 2-D, N in 3-D). */
    FX,
    /** Point force along y at (x, y+½, z), 3-D only. */
    FY,
    /** Point force along z at (x, z+½). */
    FZ;

    /** Parses {@code explosive}, {@code fx}, {@code fy} or {@code fz} (any case). */
    public static ElasticSource parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "explosive":
                return EXPLOSIVE;
            case "fx":
                return FX;
            case "fy":
                return FY;
            case "fz":
                return FZ;
            default:
                throw new IllegalArgumentException("unknown elastic source type '" + name
                        + "': use explosive, fx, fz or (3-D) fy");
        }
    }

    /** The option spelling: explosive, fx, fy, fz. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
