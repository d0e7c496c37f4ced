package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** On the same coarse grid, the error against the analytic 2-D solution falls as the spatial order rises. */
class OrderConvergenceTest {
    @Test
    void errorDecreasesWithOrder() {
        double v = 2000;
        double dh = 20; // ~3.3 cells per minimum wavelength at 12 Hz Ricker: dispersion shows
        double f = 12;
        double dt = 4e-4;
        int nt = 1000;
        int nz = 101;
        int nx = 121;
        int[] orders = {2, 4, 8, 16};
        double[] errs = new double[orders.length];
        int sx = 60;
        int sz = 50;
        int rx = sx + 35;
        double[] exact = Analytic.trace2d(35 * dh, v, dh * dh, f, nt, dt);
        for (int i = 0; i < orders.length; i++) {
            PropSpec spec = PropSpec.builder(nz, nx).dh(dh).dt(dt).nt(nt).abcn(20).order(orders[i]).build();
            try (Propagator p = new Propagator(spec)) {
                Record r = p.forward(Wavelets.ricker(f, nt, dt), new int[][][] {{{sx, sz}}},
                        new int[][][] {{{rx, sz}}}, Analytic.constant(nz * nx, (float) v));
                errs[i] = Analytic.relL2(r.data(), 0, 1, exact);
            }
            System.out.printf("order %2d: relative L2 error %.4e%n", orders[i], errs[i]);
        }
        for (int i = 1; i < orders.length; i++) {
            assertTrue(errs[i] < errs[i - 1], "order " + orders[i] + " error " + errs[i] + " not below order "
                    + orders[i - 1] + " error " + errs[i - 1]);
        }
    }
}
