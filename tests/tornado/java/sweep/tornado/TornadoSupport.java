package sweep.tornado;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * Shared helpers of the TornadoVM tests: skipping (with a message) when this JVM has no TornadoVM runtime or device,
 * the math mode, and the comparisons (strict: same bits; TornadoVM's default math: within a tolerance).
 */
public final class TornadoSupport {
    /** Relative tolerance for TornadoVM's default math (FMA contraction, fast-math), relative to max |reference|. */
    public static final double TOLERANCE = 1e-5;
    /**
     * Tolerance for whole forward records under TornadoVM's default math: the per-operation differences (about 1 ulp)
     * accumulate over the time steps (measured: up to 1.7e-5 of the record's maximum after 90 steps in a two-layer
     * model), so records get 1e-4; under strict math they must still be bit-identical.
     */
    public static final double RECORD_TOLERANCE = 1e-4;

    private static String unavailable;
    private static TornadoDevice device;
    private static boolean probed;

    private TornadoSupport() {
    }

    /** Skips the calling test, with the reason, when no TornadoVM runtime or device is available. */
    public static synchronized TornadoDevice requireDevice() {
        if (!probed) {
            probed = true;
            if (System.getProperty("tornado.load.api.implementation") == null) {
                unavailable = "this JVM was not started with TornadoVM's argfile (run mvn -Ptornado test with"
                        + " TORNADOVM_HOME set)";
            } else {
                try {
                    device = TornadoExecutionPlan.DEFAULT_DEVICE;
                    if (device == null) {
                        unavailable = "TornadoVM found no device";
                    }
                } catch (Throwable t) {
                    unavailable = "TornadoVM runtime or device unavailable: " + t;
                }
            }
            if (unavailable == null) {
                System.out.println("[tornado tests] device " + device.getDeviceName() + " (" + device.getDescription()
                        + "), " + (strict() ? "strict math: bit-identical expected" : "TornadoVM default math: within "
                        + TOLERANCE + " (kernels) / " + RECORD_TOLERANCE + " (records) of max |ref| expected"));
            } else {
                System.out.println("[tornado tests] SKIPPED: " + unavailable);
            }
        }
        Assumptions.assumeTrue(unavailable == null, unavailable);
        return device;
    }

    /** Whether this JVM runs TornadoVM with FMA contraction off (then the OpenCL flags are "-w" only). */
    public static boolean strict() {
        return "false".equalsIgnoreCase(System.getProperty("tornado.enable.fma", "true").trim());
    }

    /**
     * Strict math: the arrays have the same bits. Default math: every element within {@link #TOLERANCE} times the
     * largest magnitude of the reference. Fails when the reference is all zero (a vacuous comparison).
     */
    public static void compare(float[] expected, float[] actual, String what) {
        compare(expected, actual, what, TOLERANCE);
    }

    /** As {@link #compare(float[], float[], String)} with the given tolerance for TornadoVM's default math. */
    public static void compare(float[] expected, float[] actual, String what, double tolerance) {
        if (expected.length != actual.length) {
            fail(what + ": length " + actual.length + ", expected " + expected.length);
        }
        double max = 0;
        for (float v : expected) {
            max = Math.max(max, Math.abs(v));
        }
        assertTrue(max > 0, what + ": the reference is all zero; the comparison would be vacuous");
        int differing = 0;
        int first = -1;
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToRawIntBits(expected[i]) != Float.floatToRawIntBits(actual[i])) {
                differing++;
                if (first < 0) {
                    first = i;
                }
                worst = Math.max(worst, Math.abs((double) expected[i] - actual[i]) / max);
            }
        }
        String summary = what + ": " + differing + " of " + expected.length
                + " values differ in bits, max |diff|/max|ref| = "
                + worst + (first >= 0 ? " (first at " + first + ": " + actual[first] + " vs " + expected[first] + ")"
                        : "");
        System.out.println("[tornado tests] " + summary);
        if (strict()) {
            assertTrue(differing == 0, summary);
        } else {
            assertTrue(worst <= tolerance && Double.isFinite(worst), summary + " (tolerance " + tolerance + ")");
        }
    }
}
