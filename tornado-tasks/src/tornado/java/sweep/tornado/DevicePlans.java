package sweep.tornado;

import java.util.List;
import sweep.acoustic.tornado.AcousticStepKernels;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * What every equation's TornadoVM stepper does the same way with its plan: reading the math mode of the JVM, naming
 * the device, touching the arrays a graph uploads, building the plan on the chosen device (OpenCL programs built with
 * {@code -w} only under strict math), freeing it, and sizing a tape store.
 */
public final class DevicePlans {
    private DevicePlans() {
    }

    /** Whether this JVM runs TornadoVM under strict math ({@code -Dtornado.enable.fma=false}). */
    public static boolean strictMath() {
        return "false".equalsIgnoreCase(System.getProperty("tornado.enable.fma", "true").trim());
    }

    /** The device's name and description for logs, and the math mode. */
    public static String describe(TornadoDevice device, boolean strict) {
        return "TornadoVM " + device.getDeviceName() + " (" + device.getDescription() + ")"
                + (strict ? ", strict math" : "");
    }

    /**
     * Adds to {@code t} one task per array of {@code arrays} ({@code float[]} or {@code int[]}) that reads it into
     * {@code touch}, so that the graph uploads and keeps arrays no kernel of its own uses; returns {@code t}.
     */
    public static TaskGraph touchAll(TaskGraph t, Object[] arrays, float[] touch) {
        int k = 0;
        for (Object o : arrays) {
            if (o instanceof int[] ia) {
                t.task("touch" + k++, AcousticStepKernels::touchInt, ia, touch);
            } else {
                t.task("touch" + k++, AcousticStepKernels::touch, (float[]) o, touch);
            }
        }
        return t;
    }

    /**
     * System property adding OpenCL build options under strict math (after {@code -w}), e.g. {@code -cl-opt-disable}
     * for a driver that contracts products and sums into FMAs on its own (NVIDIA's OpenCL does: TornadoVM emits no
     * {@code FP_CONTRACT OFF}; docs/tornadovm.md).
     */
    public static final String STRICT_OPENCL_FLAGS = "sweep.tornado.strictOpenclFlags";

    /**
     * A plan of {@code graphs} on {@code device}; under strict math its OpenCL programs are built with {@code -w}
     * (plus {@value #STRICT_OPENCL_FLAGS}) only. Work-group sizes are left to the OpenCL driver: TornadoVM's own
     * choice for NVIDIA GPUs need not divide a 3-D box's extents, which an OpenCL 1.2 driver refuses
     * (CL_INVALID_WORK_GROUP_SIZE, the kernel not run).
     */
    public static TornadoExecutionPlan plan(List<ImmutableTaskGraph> graphs, TornadoDevice device, boolean strict) {
        TornadoExecutionPlan p = new TornadoExecutionPlan(graphs.toArray(new ImmutableTaskGraph[0]));
        p.withDevice(device);
        p.withDefaultScheduler();
        if (strict) {
            String extra = System.getProperty(STRICT_OPENCL_FLAGS, "").trim();
            p.withCompilerFlags(TornadoVMBackendType.OPENCL, extra.isEmpty() ? "-w" : "-w " + extra);
        }
        return p;
    }

    /** Frees the device memory of {@code plan}. */
    public static void close(TornadoExecutionPlan plan) {
        try {
            plan.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot free the TornadoVM plan's device memory: " + e, e);
        }
    }

    /** {@code n} as the length of one device array, or an error naming the {@code what} tape and the ways out. */
    public static int storeLength(long n, String what) {
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the " + what + " tape on the TornadoVM backend needs " + n
                    + " floats in one device array (at most 2^31): use boundary saving, fewer steps or a smaller"
                    + " model");
        }
        return (int) n;
    }
}
