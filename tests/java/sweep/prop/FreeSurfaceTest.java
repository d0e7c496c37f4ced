package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** Homogeneous half-space with a free surface equals the analytic source minus its mirror image (2-D and 3-D). */
class FreeSurfaceTest {
    static final double V = 2000;
    static final double DH = 10;
    static final double F = 12;

    @Test
    void halfSpace2dIsSourceMinusImage() {
        int nz = 100;
        int nx = 141;
        double dt = 1e-3;
        int nt = 420;
        PropSpec spec = PropSpec.builder(nz, nx).dh(DH).dt(dt).nt(nt).abcn(20).freeSurface(true).build();
        int sx = 70;
        int sz = 12;
        int[][] recs = {{sx + 30, 5}, {sx - 25, 20}, {sx + 10, 40}};
        try (Propagator p = new Propagator(spec)) {
            Record r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{sx, sz}}}, new int[][][] {recs},
                    Analytic.constant(nz * nx, (float) V));
            for (int k = 0; k < recs.length; k++) {
                double dx = DH * (recs[k][0] - sx);
                double direct = Math.hypot(dx, DH * (recs[k][1] - sz));
                double image = Math.hypot(dx, DH * (recs[k][1] + sz));
                double[] a = Analytic.trace2d(direct, V, DH * DH, F, nt, dt);
                double[] b = Analytic.trace2d(image, V, DH * DH, F, nt, dt);
                for (int n = 0; n < nt; n++) {
                    a[n] -= b[n];
                }
                double err = Analytic.relL2(r.data(), k, recs.length, a);
                System.out.printf("2-D free surface, receiver depth %d cells: relative L2 error %.4f%n", recs[k][1], err);
                assertTrue(err < 0.02, "2-D half-space relative L2 error " + err);
            }
        }
    }

    @Test
    void halfSpace3dIsSourceMinusImage() {
        int n = 61;
        double dt = 1e-3;
        int nt = 300;
        PropSpec spec = PropSpec.builder(45, n, n).dh(DH).dt(dt).nt(nt).abcn(12).freeSurface(true).build();
        int c = 30;
        int sz = 8;
        int[][] recs = {{c + 20, c, 4}, {c, c - 15, 25}};
        try (Propagator p = new Propagator(spec)) {
            Record r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{c, c, sz}}}, new int[][][] {recs},
                    Analytic.constant(45 * n * n, (float) V));
            for (int k = 0; k < recs.length; k++) {
                double hx = DH * (recs[k][0] - c);
                double hy = DH * (recs[k][1] - c);
                double direct = Math.sqrt(hx * hx + hy * hy + Math.pow(DH * (recs[k][2] - sz), 2));
                double image = Math.sqrt(hx * hx + hy * hy + Math.pow(DH * (recs[k][2] + sz), 2));
                double[] a = Analytic.trace3d(direct, V, DH * DH * DH, F, nt, dt);
                double[] b = Analytic.trace3d(image, V, DH * DH * DH, F, nt, dt);
                for (int t = 0; t < nt; t++) {
                    a[t] -= b[t];
                }
                double err = Analytic.relL2(r.data(), k, recs.length, a);
                System.out.printf("3-D free surface, receiver depth %d cells: relative L2 error %.4f%n", recs[k][2], err);
                assertTrue(err < 0.02, "3-D half-space relative L2 error " + err);
            }
        }
    }
}
