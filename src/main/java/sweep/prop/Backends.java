package sweep.prop;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import sweep.prop.spi.DeviceBackend;
import sweep.prop.spi.DeviceStepper;

/**
 * Backend choice for the whole JVM: the Java backend (always there) or the TornadoVM backend (only in a build made with
 * the Maven profile {@code -Ptornado}, which registers it as a {@link DeviceBackend} service, and a JVM started through
 * TornadoVM's argfile). The choice is carried by system properties, read when a {@link Propagator} first sets its
 * model:
 * <ul>
 * <li>{@value #BACKEND}: {@code java} (the library's default), {@code tornado}, or {@code auto} (TornadoVM when its
 * runtime and a device are found, else Java; the {@code sweep} command's default);</li>
 * <li>{@value #DEVICE}: TornadoVM's {@code backend:device} index as listed by {@code sweep devices};</li>
 * <li>strict math: TornadoVM's own {@value #FMA} = false and {@value #OPENCL_FLAGS} = {@code -w} (no FMA contraction,
 * no fast-math), so that the TornadoVM backend's results are bit-identical to the Java backend's. TornadoVM reads
 * them once, when its runtime starts: {@link #select} must run before the first TornadoVM call.</li>
 * </ul>
 */
public final class Backends {
    /** System property choosing the backend: {@code java}, {@code tornado} or {@code auto}. */
    public static final String BACKEND = DeviceStepper.PROPERTY;
    /** System property choosing the TornadoVM device, {@code backend:device}. */
    public static final String DEVICE = "sweep.tornado.device";
    /** TornadoVM's switch for FMA contraction (false under strict math). */
    public static final String FMA = "tornado.enable.fma";
    /**
     * TornadoVM's OpenCL compiler flags ({@code -w} under strict math: no
     * {@code -cl-mad-enable -cl-fast-relaxed-math}).
     */
    public static final String OPENCL_FLAGS = "tornado.opencl.compiler.flags";
    /** The name of the TornadoVM backend's {@link DeviceBackend}. */
    private static final String TORNADO = "tornado";

    private Backends() {
    }

    /**
     * Sets the backend properties for this JVM and returns a handle that restores the previous values when closed.
     *
     * @param backend    {@code java}, {@code tornado} or {@code auto}
     * @param strictMath FMA contraction and fast-math off on the TornadoVM backend (no effect on the Java backend,
     * which never contracts)
     * @param device     {@code i:j}, or null for TornadoVM's default device
     */
    public static AutoCloseable select(String backend, boolean strictMath, String device) {
        String b = backend == null ? "auto" : backend.trim();
        if (!b.equals("java") && !b.equals("tornado") && !b.equals("auto")) {
            throw new IllegalArgumentException("--backend " + backend + " is not a backend: use java, tornado or auto");
        }
        if (device != null && !device.trim().matches("\\d+:\\d+")) {
            throw new IllegalArgumentException("--device " + device + " must be backend:device indices, e.g. 0:0"
                    + " (see `sweep devices`)");
        }
        if (device != null && b.equals("java")) {
            throw new IllegalArgumentException("--device " + device
                    + " names a TornadoVM device, but --backend is java");
        }
        String[] keys = {BACKEND, DEVICE, FMA, OPENCL_FLAGS};
        String[] old = new String[keys.length];
        for (int k = 0; k < keys.length; k++) {
            old[k] = System.getProperty(keys[k]);
        }
        System.setProperty(BACKEND, b);
        if (device != null) {
            System.setProperty(DEVICE, device.trim());
        }
        if (strictMath) {
            System.setProperty(FMA, "false");
            System.setProperty(OPENCL_FLAGS, "-w");
        }
        return () -> {
            for (int k = 0; k < keys.length; k++) {
                if (old[k] == null) {
                    System.clearProperty(keys[k]);
                } else {
                    System.setProperty(keys[k], old[k]);
                }
            }
        };
    }

    /** Whether this JVM was started through TornadoVM's argfile (its runtime classes are configured). */
    public static boolean tornadoJvm() {
        return System.getProperty("tornado.load.api.implementation") != null;
    }

    /** Whether this build contains the TornadoVM backend (compiled by {@code -Ptornado}). */
    public static boolean tornadoBuild() {
        return provider(TORNADO) != null;
    }

    /** The registered device backend of this name, or null (none registered, or it cannot be loaded). */
    private static DeviceBackend provider(String name) {
        try {
            for (DeviceBackend b : ServiceLoader.load(DeviceBackend.class, Backends.class.getClassLoader())) {
                if (b.name().equals(name)) {
                    return b;
                }
            }
        } catch (ServiceConfigurationError | LinkageError e) {
            return null;
        }
        return null;
    }

    /**
     * Why the TornadoVM backend cannot run in this JVM, or null when its classes and runtime are there (devices are not
     * probed).
     */
    public static String tornadoUnavailable() {
        DeviceBackend b = provider(TORNADO);
        if (b == null) {
            return "this build has no TornadoVM backend: build with `mvn -Ptornado package` (JDK 25, TORNADOVM_HOME set"
                    + " to a TornadoVM SDK)";
        }
        return b.unavailable();
    }

    /**
     * One line per backend and device: the Java backend first, then every TornadoVM device as {@code tornado i:j}, or a
     * line saying why there is none.
     */
    public static List<String> devices() {
        List<String> out = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors();
        boolean vec = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        out.add("java         Java backend: " + cores + " core(s), " + (vec ? "Vector API kernels" : "portable kernels")
                + ", JDK " + Runtime.version().feature());
        String why = tornadoUnavailable();
        if (why != null) {
            out.add("tornado      no TornadoVM SDK/runtime: " + why);
            return out;
        }
        try {
            List<String> l = provider(TORNADO).devices();
            if (l.isEmpty()) {
                out.add("tornado      TornadoVM runtime found, but no device");
            }
            out.addAll(l);
        } catch (RuntimeException | LinkageError e) {
            out.add("tornado      TornadoVM runtime failed to start: " + e);
        }
        return out;
    }

    /** Whether {@value #BACKEND} is {@code auto}: the device only where it can, the Java backend elsewhere. */
    public static boolean auto() {
        return System.getProperty(BACKEND, "java").trim().equals("auto");
    }

    /**
     * {@link #open} for an equation whose device stepper runs one domain only: a tile of a decomposed run
     * ({@code decomposed}) stays on the Java backend (null) under {@code auto} and is refused under {@code tornado},
     * the message naming the {@code equation}.
     */
    public static <S extends DeviceStepper> S openOneDomain(Class<S> contract, Grid grid, boolean decomposed,
                                                            String equation) {
        if (!decomposed) {
            return open(contract, grid, null);
        }
        if (System.getProperty(BACKEND, "java").trim().equals(TORNADO)) {
            throw new IllegalStateException("the TornadoVM backend runs " + equation + " models on one domain only: a"
                    + " decomposed " + equation + " run (--px/--py above 1) needs --backend java or auto (auto runs it"
                    + " on the Java backend)");
        }
        return null;
    }

    /**
     * The backend named by {@value #BACKEND} for {@code grid} (a tile with its halo hook {@code halo} under domain
     * decomposition, else null): null for the Java backend, else a device stepper of the equation's {@code contract}.
     * {@code auto} opens the TornadoVM backend when its runtime is in this JVM, a device starts and the backend has a
     * stepper of {@code contract}, else returns null.
     */
    public static <S extends DeviceStepper> S open(Class<S> contract, Grid grid, HaloHook halo) {
        String name = System.getProperty(BACKEND, "java").trim();
        if (name.isEmpty() || name.equals("java")) {
            return null;
        }
        if (name.equals("auto")) {
            if (tornadoUnavailable() != null) {
                return null;
            }
            try {
                return openTornado(contract, grid, halo, true);
            } catch (IllegalStateException e) {
                if (System.getProperty(DEVICE) != null) {
                    throw e;
                }
                System.err.println("sweep: no usable TornadoVM device, running on the Java backend: " + e.getMessage());
                return null;
            }
        }
        if (!name.equals(TORNADO)) {
            throw new IllegalArgumentException(BACKEND + "=" + name + " is not a backend: use java, tornado or auto");
        }
        return openTornado(contract, grid, halo, false);
    }

    /**
     * Opens the TornadoVM backend's stepper of {@code contract}; when the backend has none for it, null under
     * {@code auto} (the Java backend runs that equation) and an error under {@code tornado}.
     */
    private static <S extends DeviceStepper> S openTornado(Class<S> contract, Grid grid, HaloHook halo, boolean auto) {
        DeviceBackend b = provider(TORNADO);
        if (b == null) {
            throw new IllegalStateException(BACKEND + "=tornado, but this build has no TornadoVM backend (or TornadoVM"
                    + " is not on the module path): build with `mvn -Ptornado` (JDK 25, TORNADOVM_HOME set) and start the"
                    + " JVM with @$TORNADOVM_HOME/tornado-argfile");
        }
        S s;
        try {
            s = b.open(contract, grid.view(), halo);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException("cannot start the TornadoVM backend (is the JVM started with"
                    + " @$TORNADOVM_HOME/tornado-argfile and is there an OpenCL device?): " + e, e);
        }
        if (s == null) {
            if (auto) {
                return null;
            }
            throw new IllegalStateException("the TornadoVM backend has no " + contract.getSimpleName() + ": use "
                    + BACKEND + "=java (or auto)");
        }
        return s;
    }
}
