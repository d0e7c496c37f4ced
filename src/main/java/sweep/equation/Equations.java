package sweep.equation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The installed wave equations, found once through {@link ServiceLoader} on the class path (a jar that lists a
 * {@link WaveEquation} in {@code META-INF/services/sweep.equation.WaveEquation} adds one), by name.
 */
public final class Equations {
    private static volatile Map<String, WaveEquation> installed;

    private Equations() {
    }

    /** Every installed equation by name, in the order of the names. */
    public static Map<String, WaveEquation> installed() {
        Map<String, WaveEquation> m = installed;
        if (m == null) {
            synchronized (Equations.class) {
                m = installed;
                if (m == null) {
                    m = load();
                    installed = m;
                }
            }
        }
        return m;
    }

    private static Map<String, WaveEquation> load() {
        List<WaveEquation> found = new ArrayList<>();
        try {
            for (WaveEquation e : ServiceLoader.load(WaveEquation.class, Equations.class.getClassLoader())) {
                found.add(e);
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("an equation on the class path cannot be loaded: " + e.getMessage(), e);
        }
        found.sort(Comparator.comparing(WaveEquation::name));
        Map<String, WaveEquation> m = new LinkedHashMap<>();
        for (WaveEquation e : found) {
            WaveEquation before = m.putIfAbsent(e.name(), e);
            if (before != null && before.getClass() != e.getClass()) {
                throw new IllegalStateException("two equations are named '" + e.name() + "': "
                        + before.getClass().getName() + " and " + e.getClass().getName() + "; remove one jar from the"
                        + " class path");
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /** The names of the installed equations, in {@link #installed()} order. */
    public static List<String> names() {
        return List.copyOf(installed().keySet());
    }

    /**
     * The installed equation named {@code name} (any case); throws IllegalArgumentException listing the installed ones
     * otherwise.
     */
    public static WaveEquation named(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        WaveEquation e = installed().get(n);
        if (e == null) {
            throw new IllegalArgumentException("unknown equation '" + name + "': installed are "
                    + String.join(", ", names()) + " (an equation from another jar needs that jar on the class path,"
                    + " e.g. SWEEP_CLASSPATH=its.jar)");
        }
        return e;
    }
}
