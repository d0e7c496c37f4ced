package sweep.acousticvd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import sweep.acousticvd.kernels.PressureRelaxationKernels;
import sweep.backend.CpuKernels;
import sweep.backend.CpuSpecies;
import sweep.kernels.Layout;

/**
 * CPU-specialised variants of the memory-variable kernels of {@link PressureRelaxationKernels} for the Java backend:
 * the same arguments over whole rows (z, y) and, per cell, exactly the same sequence of float operations (no fused
 * multiply-add), vectorised across x with the Vector API; the part of a row shorter than a vector goes to the portable
 * kernel. Bit-identical to {@link PressureRelaxationKernels}.
 *
 * <p>Needs the {@code jdk.incubator.vector} module; use it only when {@link CpuKernels#vectorAvailable()} says so.
 */
final class PressureRelaxationVectorKernels {
    private static final VectorSpecies<Float> S = CpuSpecies.S;

    private PressureRelaxationVectorKernels() {
    }

    /** {@link PressureRelaxationKernels#memory} on the rows [z0, z1), every y and x. */
    static void memory(float[] p, float[] s, float[] c, float[] alpha, float[] div, int divOff, int[] geo, int nmech,
                       int z0, int z1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int vl = S.length();
        int xe = nx / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int row = off + z * sz + y * sy;
                int cells = divOff + (z * ny + y) * nx;
                for (int x = 0; x < xe; x += vl) {
                    int i = row + x;
                    FloatVector e = FloatVector.fromArray(S, div, cells + x);
                    FloatVector q = FloatVector.fromArray(S, p, i);
                    for (int l = 0; l < nmech; l++) {
                        int j = l * len + i;
                        FloatVector old = FloatVector.fromArray(S, s, j);
                        FloatVector next = old.mul(alpha[l]).add(FloatVector.fromArray(S, c, j).mul(e));
                        q = q.add(next.add(old).mul(0.5f));
                        next.intoArray(s, j);
                    }
                    q.intoArray(p, i);
                }
                if (xe < nx) {
                    PressureRelaxationKernels.memory(p, s, c, alpha, div, divOff, geo, nmech, z, z + 1, y, y + 1, xe,
                            nx);
                }
            }
        }
    }

    /** {@link PressureRelaxationKernels#memoryTranspose} on the rows [z0, z1), every y and x. */
    static void memoryTranspose(float[] pb, float[] sb, float[] c, float[] alpha, float[] div, int divOff, float[] gc,
                                float[] divBar, int[] geo, int nmech, int z0, int z1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        int vl = S.length();
        int xe = nx / vl * vl;
        for (int z = z0; z < z1; z++) {
            for (int y = 0; y < ny; y++) {
                int row = off + z * sz + y * sy;
                int cells = (z * ny + y) * nx;
                for (int x = 0; x < xe; x += vl) {
                    int i = row + x;
                    FloatVector e = FloatVector.fromArray(S, div, divOff + cells + x);
                    FloatVector half = FloatVector.fromArray(S, pb, i).mul(0.5f);
                    FloatVector acc = FloatVector.zero(S);
                    for (int l = 0; l < nmech; l++) {
                        int j = l * len + i;
                        FloatVector t = FloatVector.fromArray(S, sb, j).add(half);
                        t.mul(alpha[l]).add(half).intoArray(sb, j);
                        acc = acc.add(FloatVector.fromArray(S, c, j).mul(t));
                        FloatVector.fromArray(S, gc, j).add(e.mul(t)).intoArray(gc, j);
                    }
                    acc.intoArray(divBar, cells + x);
                }
                if (xe < nx) {
                    PressureRelaxationKernels.memoryTranspose(pb, sb, c, alpha, div, divOff, gc, divBar, geo, nmech, z,
                            z + 1, y, y + 1, xe, nx);
                }
            }
        }
    }
}
