package sweep.cli;

import picocli.CommandLine.Option;
import sweep.prop.Backends;

/**
 * The backend options of the commands that propagate ({@code forward}, {@code gradient}, {@code fwi}, {@code bench}):
 * {@code --backend java|tornado|auto}, {@code --strict-math} and {@code --device i:j}, mapped onto the system properties
 * of {@link Backends} for the duration of the command.
 */
public final class BackendOptions {
    @Option(names = "--backend", defaultValue = "auto",
            description = "java, tornado or auto (default: tornado when this build has the TornadoVM backend, the JVM was"
                    + " started through TornadoVM and a device is found; else java)")
    String backend;

    @Option(names = "--strict-math",
            description = "TornadoVM without FMA contraction and fast-math: results bit-identical to the Java backend")
    boolean strictMath;

    @Option(names = "--device", description = "TornadoVM device backend:device, e.g. 0:0 (see `sweep devices`)")
    String device;

    /**
     * Sets the backend properties (before any TornadoVM class is touched) and returns the handle that restores them.
     * An explicit {@code --backend tornado} in a JVM without the TornadoVM backend fails here, with what to do.
     */
    AutoCloseable apply() {
        if ("tornado".equals(backend == null ? null : backend.trim()) && Backends.tornadoUnavailable() != null) {
            throw new IllegalStateException("--backend tornado: " + Backends.tornadoUnavailable()
                    + "; see `sweep devices` and docs/tornadovm.md");
        }
        return Backends.select(backend, strictMath, device);
    }
}
