package sweep.acousticvd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.acousticvd.kernels.AcousticVdAdjointKernels;
import sweep.acousticvd.kernels.AcousticVdKernels;
import sweep.acousticvd.kernels.PressureRelaxationKernels;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * The pressure stage with memory variables (e.g. visco-acoustic's) as the solver runs it, against mathematics: the
 * variable-density pressure kernel (CPML included, taping its bracket) followed by the memory kernel, and its transpose
 * (the memory kernel's, whose share of the bracket's adjoint enters the pointwise transpose of the pressure kernel as
 * its extra term, then the gather into the adjoint velocities) pass the dot-product test on random states, 2-D and
 * 3-D.
 */
class PressureRelaxationStageTest {
    private static final int NMECH = 3;

    @Test
    void pressureStageWithMemoryVariablesPassesTheDotProductTest() {
        for (int[] shape : new int[][] {{12, 14}, {7, 8, 9}}) {
            PropSpec spec = PropSpec.builder(shape).equation("acoustic-vd").dh(10).dt(1e-3).nt(4).order(4).abcn(3)
                    .build();
            Grid g = Grid.single(spec);
            int[] geo = g.geo();
            int len = g.length();
            int nd = shape.length;
            int nz = g.nz();
            int ny = g.ny();
            int nx = g.nx();
            int cells = nz * ny * nx;
            Random r = new Random(11 + nd);
            float[] prof = g.staggeredProfiles(2500);
            float[] coef = new float[3 * 2];
            for (int k = 0; k < coef.length; k++) {
                coef[k] = (float) (0.05 + 0.05 * r.nextDouble());
            }
            float[] kdt = positive(r, len);
            float[] c = positive(r, NMECH * len);
            float[] alpha = {0.8f, 0.9f, 0.95f};
            boolean[] comp = new boolean[len];
            for (int z = 0; z < nz; z++) {
                for (int y = 0; y < ny; y++) {
                    for (int x = 0; x < nx; x++) {
                        comp[g.compIndex(z, y, x)] = true;
                    }
                }
            }
            float[] p = random(r, len, 1, comp);
            float[] v = random(r, nd * len, 1, comp);
            float[] psi = random(r, nd * len, 1, comp);
            float[] s = random(r, NMECH * len, 1, comp);
            float[] pb = random(r, len, 1, comp);
            float[] psib = random(r, nd * len, 1, comp);
            float[] sb = random(r, NMECH * len, 1, comp);
            // forward: x = (p, v, psi, s) -> (p', psi', s')
            float[] p1 = p.clone();
            float[] psi1 = psi.clone();
            float[] s1 = s.clone();
            float[] div = new float[cells];
            AcousticVdKernels.pressure(p1, v, kdt, psi1, prof, coef, geo, 0, nz, 0, ny, 0, nx, div, 0, 1);
            PressureRelaxationKernels.memory(p1, s1, c, alpha, div, 0, geo, NMECH, 0, nz, 0, ny, 0, nx);
            // transpose: y = (p̄', ψ̄', s̄') -> (p̄, v̄, ψ̄, s̄)
            float[] pb1 = pb.clone();
            float[] psib1 = psib.clone();
            float[] sb1 = sb.clone();
            float[] divBar = new float[cells];
            PressureRelaxationKernels.memoryTranspose(pb1, sb1, c, alpha, div, 0, new float[NMECH * len], divBar, geo,
                    NMECH, 0, nz, 0, ny, 0, nx);
            float[] e = new float[nd * len];
            AcousticVdAdjointKernels.pressurePoint(pb1, psib1, kdt, prof, e, new float[len], geo, 0, nz, 0, ny, 0, nx,
                    div, 0, divBar, 1);
            float[] vb = new float[nd * len];
            AcousticVdAdjointKernels.velocityGather(vb, e, coef, geo, 0, 0, nz, 0, ny, 0, nx);
            double lhs = dot(p1, pb, comp, 1) + dot(psi1, psib, comp, nd) + dot(s1, sb, comp, NMECH);
            double rhs = dot(p, pb1, comp, 1) + dot(v, vb, comp, nd) + dot(psi, psib1, comp, nd)
                    + dot(s, sb1, comp, NMECH);
            double size = Math.abs(dot(p1, pb, comp, 1)) + Math.abs(dot(psi1, psib, comp, nd))
                    + Math.abs(dot(s1, sb, comp, NMECH));
            System.out.printf("visco-acoustic pressure stage %d-D: <Fx,y> %.9e <x,F'y> %.9e%n", nd, lhs, rhs);
            assertEquals(lhs, rhs, 1e-6 * size, nd + "-D pressure stage with memory variables");
        }
    }

    private static double dot(float[] a, float[] b, boolean[] comp, int parts) {
        int len = comp.length;
        double acc = 0;
        for (int k = 0; k < parts; k++) {
            for (int i = 0; i < len; i++) {
                if (comp[i]) {
                    acc += (double) a[k * len + i] * b[k * len + i];
                }
            }
        }
        return acc;
    }

    /** Random values on the computational cells of each of the n/len parts, zero in the halo. */
    private static float[] random(Random r, int n, double scale, boolean[] comp) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            if (comp[i % comp.length]) {
                a[i] = (float) (scale * r.nextGaussian());
            }
        }
        return a;
    }

    private static float[] positive(Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) (0.1 + 0.4 * r.nextDouble());
        }
        return a;
    }
}
