package sweep.backend;

import java.util.Locale;

/**
 * Chooses between the portable {@code @Parallel} kernels and their CPU-specialised (Vector API) variants (each
 * wing's, e.g. {@code sweep.acoustic.AcousticVectorKernels2D}, {@code sweep.elastic.ElasticVectorKernels2D}) for the
 * Java backend, whose solvers take the chosen set (e.g. {@code sweep.acoustic.AcousticKernelSet#forJavaBackend}). The
 * choice comes from the system property {@code sweep.kernels}: {@code auto} (the default: the CPU variants when the
 * {@code jdk.incubator.vector} module is in the boot layer, else the portable kernels), {@code cpu} (the CPU variants;
 * an error when the module is missing) or {@code portable}. Both give bit-identical results.
 */
public final class CpuKernels {
    private CpuKernels() {
    }

    /** Name of the system property that selects the kernels. */
    public static final String PROPERTY = "sweep.kernels";
    /**
     * System property: rows (y) per cache block of the Java backend's 3-D fused boundary-saving adjoint pass (read when
     * a propagator is made); 0 or less: no blocking.
     */
    public static final String ADJ_Y_BLOCK_PROPERTY = "sweep.cpu.adjyblock";

    /**
     * Whether the Vector API module is present in this JVM (started with {@code --add-modules jdk.incubator.vector}).
     */
    public static boolean vectorAvailable() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** Whether the Java backend should use the CPU-specialised kernels, per the {@code sweep.kernels} property. */
    public static boolean useCpuKernels() {
        String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "auto":
                return vectorAvailable();
            case "portable":
                return false;
            case "cpu":
                if (!vectorAvailable()) {
                    throw new IllegalStateException("-D" + PROPERTY + "=cpu needs the Vector API: start the JVM with"
                            + " --add-modules jdk.incubator.vector");
                }
                return true;
            default:
                throw new IllegalArgumentException("-D" + PROPERTY + " must be auto, cpu or portable, got '" + mode
                        + "'");
        }
    }

    /**
     * Sum of one float per 16 of psi[i, i+n) and of zeta[i, i+n) when zeta is not null: reading it brings those
     * cache lines in ahead of use (short strided pieces that no hardware stream fetches). 0 when n ≤ 0.
     */
    public static float touchLines(float[] psi, float[] zeta, int i, int n) {
        if (n <= 0) {
            return 0f;
        }
        float s = 0f;
        for (int j = 0; j < n; j += 16) {
            s += psi[i + j];
        }
        s += psi[i + n - 1];
        if (zeta != null) {
            for (int j = 0; j < n; j += 16) {
                s += zeta[i + j];
            }
            s += zeta[i + n - 1];
        }
        return s;
    }

    /**
     * Index {@code base + zn·sz + yn·sy} of the row {@code ahead} rows after (z, y) in a sweep over the box
     * [.., z1) × [y0, y1) (y fastest), or −1 when that row lies past the box.
     */
    public static int rowAhead(int base, int sz, int sy, int z, int y, int ahead, int y0, int y1, int z1) {
        int yn = y + ahead;
        int zn = z;
        if (yn >= y1) {
            yn -= y1 - y0;
            zn++;
        }
        return zn < z1 && yn < y1 ? base + zn * sz + yn * sy : -1;
    }
}
