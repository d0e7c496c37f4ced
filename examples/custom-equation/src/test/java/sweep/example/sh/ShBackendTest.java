package sweep.example.sh;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.prop.Backends;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * The equation has no device solver: a solver asked for on the TornadoVM backend is refused with a message naming the
 * backend option, instead of running on the Java backend unannounced.
 */
class ShBackendTest {
    @Test
    void theTornadoBackendIsRefused() {
        PropSpec spec = PropSpec.builder(20, 30).equation(ShEquation.NAME).dh(10).dt(1e-3).nt(10).build();
        String old = System.getProperty(Backends.BACKEND);
        System.setProperty(Backends.BACKEND, "tornado");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Propagator(spec));
            assertTrue(e.getMessage().contains("the sh equation has no device solver: run it with --backend java or"
                    + " auto"), e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty(Backends.BACKEND);
            } else {
                System.setProperty(Backends.BACKEND, old);
            }
        }
        System.setProperty(Backends.BACKEND, "auto");
        try (Propagator p = new Propagator(spec)) {
            assertTrue(p.backendDescription().startsWith("Java"), p.backendDescription());
        } finally {
            if (old == null) {
                System.clearProperty(Backends.BACKEND);
            } else {
                System.setProperty(Backends.BACKEND, old);
            }
        }
    }
}
