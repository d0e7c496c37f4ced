package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** The direct wave in a homogeneous medium against the analytic Green's function, 2-D and 3-D, order 8. */
class DirectWaveTest {
    static final double V = 2000;
    static final double DH = 10;
    static final double F = 12; // Ricker peak; ~30 Hz upper band edge -> >= 6.6 cells per minimum wavelength

    @Test
    void direct3dMatchesGreensFunction() {
        int n = 61;
        double dt = 1e-3;
        int nt = 330;
        PropSpec spec = PropSpec.builder(n, n, n).dh(DH).dt(dt).nt(nt).abcn(12).order(8).build();
        int c = 30;
        int[][][] src = {{{c, c, c}}};
        int[][] recs = {{c + 25, c, c}, {c, c, c + 25}, {c + 15, c + 15, c + 10}};
        try (Propagator p = new Propagator(spec)) {
            Record r = p.forward(Wavelets.ricker(F, nt, dt), src, new int[][][] {recs},
                    Analytic.constant(n * n * n, (float) V));
            for (int k = 0; k < recs.length; k++) {
                double dist = DH * Math.sqrt(sq(recs[k][0] - c) + sq(recs[k][1] - c) + sq(recs[k][2] - c));
                double[] exact = Analytic.trace3d(dist, V, DH * DH * DH, F, nt, dt);
                double err = Analytic.relL2(r.data(), k, recs.length, exact);
                System.out.printf("3-D direct wave r=%.1f m: relative L2 error %.4f%n", dist, err);
                assertTrue(err < 0.02, "3-D relative L2 error " + err + " at r=" + dist);
                assertEquals(Analytic.argMaxAbs(exact), Analytic.argMaxAbs(r.data(), k, recs.length, nt), 1,
                        "arrival (peak) time within one dt");
            }
        }
    }

    @Test
    void direct2dMatchesGreensFunction() {
        int nz = 121;
        int nx = 141;
        double dt = 1e-3;
        int nt = 450;
        PropSpec spec = PropSpec.builder(nz, nx).dh(DH).dt(dt).nt(nt).abcn(20).order(8).build();
        int cz = 60;
        int cx = 70;
        int[][][] src = {{{cx, cz}}};
        int[][] recs = {{cx + 40, cz}, {cx, cz + 40}, {cx + 30, cz - 30}, {cx - 10, cz + 5}};
        try (Propagator p = new Propagator(spec)) {
            Record r = p.forward(Wavelets.ricker(F, nt, dt), src, new int[][][] {recs},
                    Analytic.constant(nz * nx, (float) V));
            for (int k = 0; k < recs.length; k++) {
                double dist = DH * Math.hypot(recs[k][0] - cx, recs[k][1] - cz);
                double[] exact = Analytic.trace2d(dist, V, DH * DH, F, nt, dt);
                double err = Analytic.relL2(r.data(), k, recs.length, exact);
                System.out.printf("2-D direct wave r=%.1f m: relative L2 error %.4f%n", dist, err);
                assertTrue(err < 0.02, "2-D relative L2 error " + err + " at r=" + dist);
                assertEquals(Analytic.argMaxAbs(exact), Analytic.argMaxAbs(r.data(), k, recs.length, nt), 1,
                        "arrival (peak) time within one dt");
            }
        }
    }

    private static double sq(double a) {
        return a * a;
    }
}
