package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import sweep.backend.JavaBackend;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * The parameters each node gets, recomputed here from the averaging rules of the issue for a random model: ρ at a
 * velocity node the mean of its two cells, μ at a shear node the harmonic mean of the cells around it (0 if any is 0),
 * λ and λ+2μ at the normal-stress nodes (surface moduli on a free-surface row), the edge cell repeated beyond the model
 * (PML pads and the cell past the last row/column).
 */
class ElasticParametersTest {
    private static final double DT = 1e-3;

    private static float[][] randomModel(int cells, long seed) {
        Random r = new Random(seed);
        float[] vp = new float[cells];
        float[] vs = new float[cells];
        float[] rho = new float[cells];
        for (int i = 0; i < cells; i++) {
            vp[i] = 1500f + 2000f * r.nextFloat();
            vs[i] = r.nextInt(5) == 0 ? 0f : 0.55f * vp[i] * r.nextFloat();
            rho[i] = 1000f + 1500f * r.nextFloat();
        }
        return new float[][] {vp, vs, rho};
    }

    private static double mu(float[][] m, int c) {
        return (double) m[2][c] * m[1][c] * m[1][c];
    }

    private static double hm(double... v) {
        double s = 0;
        for (double x : v) {
            if (x == 0) {
                return 0;
            }
            s += 1 / x;
        }
        return v.length / s;
    }

    private static int cl(int i, int n) {
        return Math.max(0, Math.min(n - 1, i));
    }

    @Test
    void nodes2dFollowTheAveragingRules() {
        int nz = 7;
        int nx = 9;
        int w = 3;
        float[][] m = randomModel(nz * nx, 3);
        PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(10).dt(DT).nt(1).abcn(w)
                .order(4).freeSurface(true).build();
        try (JavaBackend backend = new JavaBackend(2)) {
            ElasticStepper st = new ElasticStepper(Grid.single(spec), backend);
            st.setModel(m[0], m[1], m[2], 4000);
            int len = st.len;
            Grid g = st.g;
            // free surface: no top pad; x pads of w cells
            for (int z = 0; z < g.nz; z++) {
                for (int x = 0; x < g.nx; x++) {
                    int pz = cl(z, nz);
                    int px = cl(x - w, nx);
                    int c = pz * nx + px;
                    int cx = pz * nx + cl(x - w + 1, nx);
                    int cz = cl(z + 1, nz) * nx + px;
                    int cxz = cl(z + 1, nz) * nx + cl(x - w + 1, nx);
                    int i = g.compIndex(z, 0, x);
                    assertEquals((float) (DT / ((m[2][c] + (double) m[2][cx]) / 2)), st.b[i], "dt/ρ at vx " + z + ","
                            + x);
                    assertEquals((float) (DT / ((m[2][c] + (double) m[2][cz]) / 2)), st.b[len + i], "dt/ρ at vz");
                    double mu = mu(m, c);
                    double l2m = m[2][c] * (double) m[0][c] * m[0][c];
                    double lam = l2m - 2 * mu;
                    if (z == 0) {
                        lam = 2 * lam * mu / l2m;
                        l2m = lam + 2 * mu;
                    }
                    assertEquals((float) (DT * lam), st.m[i], "dt·λ at " + z + "," + x);
                    assertEquals((float) (DT * l2m), st.m[len + i], "dt·(λ+2μ) at " + z + "," + x);
                    assertEquals((float) (DT * hm(mu, mu(m, cx), mu(m, cz), mu(m, cxz))), st.m[2 * len + i],
                            "dt·μ at σxz " + z + "," + x);
                }
            }
        }
    }

    @Test
    void nodes3dFollowTheAveragingRules() {
        int nz = 5;
        int ny = 4;
        int nx = 6;
        int w = 2;
        float[][] m = randomModel(nz * ny * nx, 5);
        PropSpec spec = PropSpec.builder(nz, ny, nx).equation("elastic").dh(10).dt(DT).nt(1)
                .abcn(w).order(2).build();
        try (JavaBackend backend = new JavaBackend(1)) {
            ElasticStepper st = new ElasticStepper(Grid.single(spec), backend);
            st.setModel(m[0], m[1], m[2], 4000);
            int len = st.len;
            Grid g = st.g;
            for (int z = 0; z < g.nz; z++) {
                for (int y = 0; y < g.ny; y++) {
                    for (int x = 0; x < g.nx; x++) {
                        int[] zz = {cl(z - w, nz), cl(z - w + 1, nz)};
                        int[] yy = {cl(y - w, ny), cl(y - w + 1, ny)};
                        int[] xx = {cl(x - w, nx), cl(x - w + 1, nx)};
                        int c = (zz[0] * ny + yy[0]) * nx + xx[0];
                        int i = g.compIndex(z, y, x);
                        double r0 = m[2][c];
                        assertEquals((float) (DT / ((r0 + m[2][(zz[0] * ny + yy[0]) * nx + xx[1]]) / 2)), st.b[i]);
                        assertEquals((float) (DT / ((r0 + m[2][(zz[0] * ny + yy[1]) * nx + xx[0]]) / 2)), st.b[len
                                + i]);
                        assertEquals((float) (DT / ((r0 + m[2][(zz[1] * ny + yy[0]) * nx + xx[0]]) / 2)),
                                st.b[2 * len + i]);
                        double mu = mu(m, c);
                        assertEquals((float) (DT * (m[2][c] * (double) m[0][c] * m[0][c] - 2 * mu)), st.m[i]);
                        assertEquals((float) (DT * (m[2][c] * (double) m[0][c] * m[0][c])), st.m[len + i]);
                        double[] xy = new double[4];
                        double[] xz = new double[4];
                        double[] yz = new double[4];
                        for (int a = 0; a < 2; a++) {
                            for (int b = 0; b < 2; b++) {
                                xy[2 * a + b] = mu(m, (zz[0] * ny + yy[a]) * nx + xx[b]);
                                xz[2 * a + b] = mu(m, (zz[a] * ny + yy[0]) * nx + xx[b]);
                                yz[2 * a + b] = mu(m, (zz[a] * ny + yy[b]) * nx + xx[0]);
                            }
                        }
                        assertEquals((float) (DT * hm(xy)), st.m[2 * len + i], "μ at σxy");
                        assertEquals((float) (DT * hm(xz)), st.m[3 * len + i], "μ at σxz");
                        assertEquals((float) (DT * hm(yz)), st.m[4 * len + i], "μ at σyz");
                    }
                }
            }
        }
    }
}
