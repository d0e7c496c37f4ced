package sweep.prop;

import java.lang.reflect.InvocationTargetException;

/**
 * A forward stepper that keeps one grid's wavefields, CPML auxiliaries and model on an accelerator for a whole shot
 * (the TornadoVM backend, {@code sweep.prop.TornadoStepper}, compiled only by the Maven profile {@code -Ptornado}).
 * It is loaded by name, so the default build never links against TornadoVM.
 *
 * <p>Selected with the system property {@value #PROPERTY} ({@code java}, the default, {@code tornado} or {@code auto};
 * see {@link Backends}).
 */
interface DeviceStepper extends AutoCloseable {
    /** System property choosing the backend: {@code java} (default) or {@code tornado}. */
    String PROPERTY = "sweep.backend";

    /** Sets v²dt² on the computational grid and the CPML profiles (both copied). */
    void setModel(float[] v2, float[] prof);

    /**
     * Runs one shot of {@code nt} steps from rest with the Java stepper's arithmetic and order (sample, CPML
     * auxiliaries, PML boxes, interior box, injection, free-surface mirror); returns {@code rec[n·nrec + r]}, the
     * wavefield u^n at {@code recIdx[r]} before step n.
     *
     * @param wavelet source time functions {@code (nsrc, nt)}
     */
    default float[] shot(int[] srcIdx, float[] wavelet, int[] recIdx, int nt) {
        return shot(srcIdx, wavelet, recIdx, nt, null, 0, null);
    }

    /**
     * As {@link #shot(int[], float[], int[], int)}, and, when {@code tape} is not null, records what the adjoint run
     * needs into it (see {@link DeviceTape}; its storage mode decides what); when {@code every} &gt; 0, hands u^n
     * (the whole computational array, copied from the device) to {@code snapshots} after every step n that is a
     * multiple of {@code every}.
     */
    float[] shot(int[] srcIdx, float[] wavelet, int[] recIdx, int nt, DeviceTape tape, int every, Snapshots snapshots);

    /** Receives the wavefield levels {@link #shot} copies from the device. */
    @FunctionalInterface
    interface Snapshots {
        /** u^step, the whole computational array (a buffer the caller must copy from before the next call). */
        void at(int step, float[] field);
    }

    /**
     * The adjoint run of one shot, with the Java backend's arithmetic and order ({@code JavaAdjoint.backward}, portable
     * kernels): for {@code residualT} ({@code (nrec, nt)} flat) adds dJ/d(v²dt²) on the computational grid into
     * {@code gradOut} and writes dJ/dwavelet per source into {@code wbar} ({@code (nsrc, nt)}).
     */
    void backward(DeviceTape tape, float[] residualT, int nt, float[] gradOut, float[] wbar);

    /** The wavefield u^nt of the last shot (whole computational array, halo included), copied from the device. */
    float[] wavefield();

    /** A short description of the device, for logs. */
    String describe();

    @Override
    void close();

    /** Whether {@value #PROPERTY} is {@code auto}: the device only where it can, the Java backend elsewhere. */
    static boolean auto() {
        return System.getProperty(PROPERTY, "java").trim().equals("auto");
    }

    /**
     * The backend named by {@value #PROPERTY}: null for the Java backend, else a device stepper for {@code grid}
     * (a tile with its halo hook {@code halo} under domain decomposition, else null).
     * {@code auto} opens the TornadoVM backend when its runtime is in this JVM and a device starts, else returns null.
     */
    static DeviceStepper open(Grid grid, HaloHook halo) {
        String name = System.getProperty(PROPERTY, "java").trim();
        if (name.isEmpty() || name.equals("java")) {
            return null;
        }
        if (name.equals("auto")) {
            if (Backends.tornadoUnavailable() != null) {
                return null;
            }
            try {
                return openTornado(grid, halo);
            } catch (IllegalStateException e) {
                if (System.getProperty(Backends.DEVICE) != null) {
                    throw e;
                }
                System.err.println("sweep: no usable TornadoVM device, running on the Java backend: " + e.getMessage());
                return null;
            }
        }
        if (!name.equals("tornado")) {
            throw new IllegalArgumentException(PROPERTY + "=" + name + " is not a backend: use java, tornado or auto");
        }
        return openTornado(grid, halo);
    }

    private static DeviceStepper openTornado(Grid grid, HaloHook halo) {
        Class<?> c;
        try {
            c = Class.forName("sweep.prop.TornadoStepper");
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(PROPERTY + "=tornado, but this build has no TornadoVM backend (or TornadoVM is"
                    + " not on the module path): build with `mvn -Ptornado` (JDK 25, TORNADOVM_HOME set) and start the JVM"
                    + " with @$TORNADOVM_HOME/tornado-argfile", e);
        }
        try {
            return (DeviceStepper) c.getDeclaredConstructor(Grid.class, HaloHook.class).newInstance(grid, halo);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof IllegalArgumentException) {
                throw (IllegalArgumentException) t;
            }
            if (t instanceof Error && !(t instanceof LinkageError)) {
                throw (Error) t;
            }
            throw new IllegalStateException("cannot start the TornadoVM backend (is the JVM started with"
                    + " @$TORNADOVM_HOME/tornado-argfile and is there an OpenCL device?): " + t, t);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot start the TornadoVM backend (is the JVM started with"
                    + " @$TORNADOVM_HOME/tornado-argfile?): " + e, e);
        }
    }
}
