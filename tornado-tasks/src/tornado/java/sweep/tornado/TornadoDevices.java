package sweep.tornado;

import java.util.ArrayList;
import java.util.List;
import uk.ac.manchester.tornado.api.TornadoBackend;
import uk.ac.manchester.tornado.api.TornadoDeviceMap;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The TornadoVM devices of this JVM, one line each ({@code tornado i:j name (description), memory}), for
 * {@code sweep devices} ({@link TornadoDeviceBackend#devices()}), and the device every device stepper runs on.
 */
public final class TornadoDevices {
    /** System property choosing the device, {@code backend:device} as in {@code tornado --devices}. */
    public static final String DEVICE_PROPERTY = "sweep.tornado.device";

    private TornadoDevices() {
    }

    /** Every device of every TornadoVM backend, the default device marked; starts TornadoVM's runtime. */
    static List<String> list() {
        List<String> out = new ArrayList<>();
        TornadoDeviceMap map = TornadoExecutionPlan.getTornadoDeviceMap();
        TornadoDevice def = TornadoExecutionPlan.DEFAULT_DEVICE;
        List<TornadoBackend> backends = map.getAllBackends();
        for (int i = 0; i < backends.size(); i++) {
            TornadoBackend be = backends.get(i);
            for (int j = 0; j < be.getNumDevices(); j++) {
                TornadoDevice d = be.getDevice(j);
                boolean isDefault = def != null && d.getDeviceName().equals(def.getDeviceName());
                out.add(String.format("tornado %d:%d  %s backend, %s (%s), %.1f GiB%s", i, j, be.getName(),
                        d.getDeviceName(), d.getDescription(), d.getMaxGlobalMemory() / (double) (1L << 30),
                        isDefault ? "  [default]" : ""));
            }
        }
        return out;
    }

    /** The device of {@link #DEVICE_PROPERTY}, or TornadoVM's default device. */
    public static TornadoDevice chooseDevice() {
        String d = System.getProperty(DEVICE_PROPERTY, "").trim();
        if (d.isEmpty()) {
            return TornadoExecutionPlan.DEFAULT_DEVICE;
        }
        String[] p = d.split(":");
        try {
            return TornadoExecutionPlan.getDevice(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(DEVICE_PROPERTY + "=" + d + " names no TornadoVM device (expected"
                    + " backend:device as listed by `tornado --devices`, e.g. 0:0): " + e.getMessage(), e);
        }
    }
}
