package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector shape of all the Java backend's Vector API kernels, in a class of its own so that {@link CpuKernels}
 * loads without the {@code jdk.incubator.vector} module: the preferred shape, or the width in bits given by the
 * property {@code sweep.cpu.vectorbits} (128, 256 or 512, never wider than the preferred one). One shape for every
 * kernel: code run with two shapes in one JVM shares the Vector API's library methods, whose type profiles then see
 * two vector classes, and C2 then boxed the vectors of the adjoint kernels (docs/performance.md).
 */
public final class CpuSpecies {
    private CpuSpecies() {
    }

    /** Name of the system property that sets the vector width in bits. */
    static final String PROPERTY = "sweep.cpu.vectorbits";

    /** The species every CPU kernel uses. */
    public static final VectorSpecies<Float> S = choose(Integer.getInteger(PROPERTY,
            FloatVector.SPECIES_PREFERRED.vectorBitSize()));

    private static VectorSpecies<Float> choose(int bits) {
        int pref = FloatVector.SPECIES_PREFERRED.vectorBitSize();
        int b = Math.min(bits, pref);
        if (b != 128 && b != 256 && b != 512) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be 128, 256 or 512, got " + bits);
        }
        return FloatVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(b));
    }
}
