package sweep.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector shape of the Java backend's Vector API kernels, in a class of its own so that {@link CpuKernels} loads
 * without the {@code jdk.incubator.vector} module. Property {@code sweep.cpu.vectorbits} (128, 256 or 512) overrides
 * the default: 256-bit vectors, or the preferred shape when that is narrower.
 */
final class CpuSpecies {
    private CpuSpecies() {
    }

    /** Name of the system property that sets the vector width in bits. */
    static final String PROPERTY = "sweep.cpu.vectorbits";

    /** The species every CPU kernel uses. */
    static final VectorSpecies<Float> S = choose(Integer.getInteger(PROPERTY, 256));

    private static VectorSpecies<Float> choose(int bits) {
        int pref = FloatVector.SPECIES_PREFERRED.vectorBitSize();
        int b = Math.min(bits, pref);
        if (b != 128 && b != 256 && b != 512) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be 128, 256 or 512, got " + bits);
        }
        return FloatVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(b));
    }
}
