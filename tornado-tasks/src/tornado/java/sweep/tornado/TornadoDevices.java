package sweep.tornado;

import java.util.ArrayList;
import java.util.List;
import uk.ac.manchester.tornado.api.TornadoBackend;
import uk.ac.manchester.tornado.api.TornadoDeviceMap;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The TornadoVM devices of this JVM, one line each ({@code tornado i:j name (description), memory}), for
 * {@code sweep devices} ({@link TornadoDeviceBackend#devices()}).
 */
final class TornadoDevices {
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
}
