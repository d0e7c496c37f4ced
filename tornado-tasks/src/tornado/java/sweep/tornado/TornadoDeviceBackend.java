package sweep.tornado;

import java.util.List;
import sweep.acoustic.tornado.TornadoAcousticStepper;
import sweep.acousticvd.tornado.TornadoAcousticVdStepper;
import sweep.elastic.tornado.TornadoElasticStepper;
import sweep.prop.HaloHook;
import sweep.prop.spi.DeviceBackend;
import sweep.prop.spi.DeviceStepper;
import sweep.prop.spi.GridView;

/**
 * The TornadoVM backend as a {@link DeviceBackend} service (registered in {@code META-INF/services} by the
 * {@code -Ptornado} build): selected by {@code -Dsweep.backend=tornado} (or {@code auto}), it opens a
 * {@link TornadoAcousticStepper} per acoustic grid, a {@link TornadoElasticStepper} per elastic one and a
 * {@link TornadoAcousticVdStepper} per variable-density acoustic one (these two on a single domain).
 * Touches no TornadoVM class until a stepper or the device list is asked for.
 */
public final class TornadoDeviceBackend implements DeviceBackend {
    /** The provider ServiceLoader makes. */
    public TornadoDeviceBackend() {
    }

    @Override
    public String name() {
        return "tornado";
    }

    @Override
    public String unavailable() {
        if (System.getProperty("tornado.load.api.implementation") == null) {
            return "this JVM was not started through TornadoVM (no TORNADOVM_HOME when ./sweep started, or java run"
                    + " without @$TORNADOVM_HOME/tornado-argfile)";
        }
        return null;
    }

    @Override
    public List<String> devices() {
        return TornadoDevices.list();
    }

    @Override
    public <S extends DeviceStepper> S open(Class<S> contract, GridView grid, HaloHook halo) {
        if (contract.isAssignableFrom(TornadoAcousticStepper.class)) {
            return contract.cast(new TornadoAcousticStepper(grid, halo));
        }
        if (contract.isAssignableFrom(TornadoElasticStepper.class) && halo == null) {
            // one domain only: a decomposed elastic run stays on the Java backend (sweep.elastic.ElasticSolver)
            return contract.cast(new TornadoElasticStepper(grid));
        }
        if (contract.isAssignableFrom(TornadoAcousticVdStepper.class) && halo == null) {
            return contract.cast(new TornadoAcousticVdStepper(grid));
        }
        return null;
    }
}
