package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.spi.DeviceStepper;

/**
 * The backend property {@value DeviceStepper#PROPERTY}: {@code java} (and unset) run the Java backend; {@code tornado}
 * in a JVM without a TornadoVM runtime fails with a message saying how to get one; other names are rejected.
 */
class BackendChoiceTest {
    private static final PropSpec SPEC = PropSpec.builder(20, 24).dh(10).dt(1e-3).nt(30).order(4).abcn(5).build();

    private static float[] forward(String backend) {
        String old = System.getProperty(DeviceStepper.PROPERTY);
        if (backend == null) {
            System.clearProperty(DeviceStepper.PROPERTY);
        } else {
            System.setProperty(DeviceStepper.PROPERTY, backend);
        }
        try (Propagator p = new Propagator(SPEC)) {
            float[] vp = new float[20 * 24];
            Arrays.fill(vp, 2000f);
            return p.forward(Wavelets.ricker(20, SPEC.nt(), SPEC.dt()), new int[][][] {{{12, 10}}},
                    new int[][][] {{{3, 3}}}, vp).data();
        } finally {
            if (old == null) {
                System.clearProperty(DeviceStepper.PROPERTY);
            } else {
                System.setProperty(DeviceStepper.PROPERTY, old);
            }
        }
    }

    @Test
    void javaIsTheDefault() {
        assertArrayEquals(forward(null), forward("java"));
    }

    @Test
    void tornadoWithoutRuntimeSaysHowToGetOne() {
        if (System.getProperty("tornado.load.api.implementation") != null) {
            return; // a TornadoVM JVM: covered by the profile's own tests
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> forward("tornado"));
        assertTrue(e.getMessage().contains("tornado-argfile"), e.getMessage());
    }

    @Test
    void unknownBackendIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> forward("cuda"));
        assertTrue(e.getMessage().contains("use java, tornado or auto"), e.getMessage());
    }
}
