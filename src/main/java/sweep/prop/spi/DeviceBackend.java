package sweep.prop.spi;

import java.util.List;
import sweep.prop.HaloHook;

/**
 * A device backend (the TornadoVM backend, {@code sweep.tornado.TornadoDeviceBackend}, in a build made with
 * {@code -Ptornado}): found by {@link java.util.ServiceLoader} through a
 * {@code META-INF/services/sweep.prop.spi.DeviceBackend} entry, so the default build never links against the device
 * runtime. Its constructor must not touch that runtime: a provider is made even in a JVM that cannot run it, to ask
 * {@link #unavailable()}.
 */
public interface DeviceBackend {
    /** The name that selects it as {@code -D}{@value DeviceStepper#PROPERTY}, e.g. {@code tornado}. */
    String name();

    /** Why this backend cannot run in this JVM (its runtime is missing), or null; no device is probed. */
    String unavailable();

    /** One line per device of this backend ({@code sweep devices}); starts the device runtime. */
    List<String> devices();

    /**
     * A stepper for one grid ({@code halo}: a tile's halo hook that exchanges packed strips, or null on one domain)
     * that implements {@code contract} (e.g. {@code sweep.acoustic.AcousticDeviceStepper}), or null when this backend
     * has none for that equation. Throws IllegalStateException (or a runtime error) when no device starts.
     */
    <S extends DeviceStepper> S open(Class<S> contract, GridView grid, HaloHook halo);
}
