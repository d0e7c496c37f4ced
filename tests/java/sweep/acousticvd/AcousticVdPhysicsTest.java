package sweep.acousticvd;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.TestTraces;

/**
 * The variable-density acoustic equation against physics and against the constant-density {@code acoustic}
 * equation: with a constant rho its pressure record is the acoustic one (the same vp, wavelet, geometry, dh, dt and
 * order), and a density-only interface reflects the direct wave of the mirror-image source times
 * (ρ2 − ρ1)/(ρ2 + ρ1), at every offset (with equal velocities the coefficient does not depend on the angle).
 */
class AcousticVdPhysicsTest {
    private static float[] constant(int n, float v) {
        float[] a = new float[n];
        Arrays.fill(a, v);
        return a;
    }

    private static float[] stack(float[] a, float[] b) {
        float[] m = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, m, a.length, b.length);
        return m;
    }

    /**
     * 2-D and 3-D, 10 cells per wavelength at 2.5 times the Ricker peak frequency, order 8, receivers 150 to 530 m
     * away in several directions: relative L2 of the records below 1 %.
     */
    @Test
    void constantDensityGivesTheAcousticRecord() {
        double vp = 2000;
        double dh = 10;
        double f = vp / (10 * dh) / 2.5;
        double[] rel = new double[2];
        for (int nd = 2; nd <= 3; nd++) {
            int[] shape = nd == 2 ? new int[] {80, 90} : new int[] {44, 46, 48};
            int nt = nd == 2 ? 450 : 260;
            double dt = 1e-3;
            int n = 1;
            for (int s : shape) {
                n *= s;
            }
            int[][][] src = {{nd == 2 ? new int[] {30, 25} : new int[] {16, 15, 14}}};
            int[][][] rec = {nd == 2 ? new int[][] {{30, 60}, {75, 25}, {70, 70}, {50, 40}}
                    : new int[][] {{16, 15, 36}, {40, 15, 14}, {36, 38, 34}, {30, 30, 24}}};
            float[] w = Wavelets.ricker(f, nt, dt);
            float[] vpm = constant(n, (float) vp);
            PropSpec base = PropSpec.builder(shape).equation("acoustic").dh(dh).dt(dt).nt(nt).abcn(20).order(8)
                    .build();
            float[] ac;
            float[] vd;
            try (Propagator p = new Propagator(base)) {
                ac = p.forward(w, src, rec, vpm).data();
            }
            try (Propagator p = new Propagator(base.toBuilder().equation(AcousticVdEquation.NAME).build())) {
                vd = p.forward(w, src, rec, stack(vpm, constant(n, 2000f))).data();
            }
            rel[nd - 2] = TestTraces.relL2(vd, ac);
            System.out.printf(Locale.ROOT, "acoustic-vd constant rho against acoustic, %d-D: relative L2 %.3e%n", nd,
                    rel[nd - 2]);
        }
        assertTrue(rel[0] < 0.01, "2-D: the constant-density record differs from acoustic's by " + rel[0]);
        assertTrue(rel[1] < 0.01, "3-D: the constant-density record differs from acoustic's by " + rel[1]);
    }

    /**
     * A density-only interface (vp 2000 m/s, rho 1000 above, 2500 below, between cell rows 49 and 50, so at the vz
     * node z = 49.5): record minus the record without the interface, against (ρ2 − ρ1)/(ρ2 + ρ1) times the record of
     * a source at the mirror image of the real one about z = 49.5, in the model without the interface; relative L2
     * below 3 % at offsets 0 to 300 m.
     */
    @Test
    void densityInterfaceReflectsWithTheImpedanceContrast() {
        int nz = 120;
        int nx = 200;
        int n = nz * nx;
        double dh = 5;
        double vp = 2000;
        double f = vp / (10 * dh) / 2.5;
        int nt = 700;
        double dt = 5e-4;
        float rho1 = 1000;
        float rho2 = 2500;
        int zi = 50;
        int zs = 20;
        int xs = 60;
        int zImage = 2 * zi - 1 - zs;
        int[] offsets = {0, 20, 40, 60};
        int[][][] rec = {new int[offsets.length][]};
        for (int k = 0; k < offsets.length; k++) {
            rec[0][k] = new int[] {xs + offsets[k], zs};
        }
        float[] w = Wavelets.ricker(f, nt, dt);
        float[] vpm = constant(n, (float) vp);
        float[] layered = constant(n, rho1);
        Arrays.fill(layered, zi * nx, n, rho2);
        PropSpec spec = PropSpec.builder(nz, nx).equation(AcousticVdEquation.NAME).dh(dh).dt(dt).nt(nt).abcn(20)
                .order(8).build();
        float[] withInterface;
        float[] direct;
        float[] image;
        try (Propagator p = new Propagator(spec)) {
            withInterface = p.forward(w, new int[][][] {{{xs, zs}}}, rec, stack(vpm, layered)).data();
            float[] homogeneous = stack(vpm, constant(n, rho1));
            direct = p.forward(w, new int[][][] {{{xs, zs}}}, rec, homogeneous).data();
            image = p.forward(w, new int[][][] {{{xs, zImage}}}, rec, homogeneous).data();
        }
        double r = (rho2 - rho1) / (double) (rho2 + rho1);
        int nrec = offsets.length;
        for (int k = 0; k < nrec; k++) {
            float[] reflected = new float[nt];
            float[] expected = new float[nt];
            for (int t = 0; t < nt; t++) {
                reflected[t] = withInterface[t * nrec + k] - direct[t * nrec + k];
                expected[t] = (float) (r * image[t * nrec + k]);
            }
            double err = TestTraces.relL2(reflected, expected);
            System.out.printf(Locale.ROOT, "acoustic-vd density interface, offset %d m: reflected against R x image"
                    + " source, relative L2 %.3e%n", (int) (offsets[k] * dh), err);
            assertTrue(err < 0.03, "offset " + offsets[k] * dh + " m: the reflection differs from R times the mirror"
                    + " source's direct wave by " + err);
        }
    }

    /**
     * A wavefield that leaves the float range stops the run, naming a cell and the step of the check (never a record
     * of Inf or NaN): a wavelet near the largest float overflows the cumulative source term in the second step.
     */
    @Test
    void anOverflowingWavefieldStopsTheRun() {
        int[] shape = {20, 24};
        PropSpec spec = PropSpec.builder(shape).equation(AcousticVdEquation.NAME).dh(10).dt(1e-3).nt(40).abcn(6)
                .threads(2).build();
        float[] w = new float[40];
        Arrays.fill(w, 0, 3, Float.MAX_VALUE / 2);
        float[] m = stack(constant(480, 2000), constant(480, 1000));
        try (Propagator p = new Propagator(spec)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> p.forward(w, new int[][][] {{{10, 12}}}, new int[][][] {{{2, 3}}}, m));
            assertTrue(e.getMessage().contains("not finite") && e.getMessage().contains("after step 40"),
                    e.getMessage());
        }
    }
}
