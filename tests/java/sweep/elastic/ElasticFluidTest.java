package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.Analytic;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * vs = 0 is a fluid: in a vs = 0 full space the pressure is the acoustic one, and a water layer over a solid runs
 * stably and gives, until the sea-floor echo arrives, the pressure of a fluid half-space under a free surface.
 */
class ElasticFluidTest {
    static final double VP = 1500;
    static final double RHO = 1000;
    static final double DH = 5;
    static final double F = 12;

    /**
     * The acoustic reference is {@link Analytic#trace2d}: the field u of ∂tt u = c²∇²u + c²·w·δ, so u/c² = w * g. An
     * explosive source of moment rate w in a fluid gives ∂tt p = c²∇²p + ẇ·δ, i.e. p = ∂t(u/c²), taken here as a
     * centred difference over one dt (error ~ (ω·dt)²/24 ~ 0.1 %), centred at t·dt − dt/2 (the explosive source acts
     * half a step late, see {@link ElasticDirectWaveTest}).
     */
    @Test
    void fluidFullSpaceGivesTheAcousticPressure() {
        int n = 121;
        double dt = 1e-3;
        int nt = 400;
        int c = 60;
        int[][] recs = {{c + 40, c}, {c - 25, c + 30}, {c, c - 35}};
        PropSpec spec = PropSpec.builder(n, n).equation("elastic").dh(DH).dt(dt).nt(nt).abcn(20)
                .order(8).threads(2).build();
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec)) {
            r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{c, c}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {recs}, List.of(ElasticField.P), ElasticModel.constant(n * n, (float) VP, 0f,
                            (float) RHO));
        }
        for (int k = 0; k < recs.length; k++) {
            double dist = DH * Math.hypot(recs[k][0] - c, recs[k][1] - c);
            double[] u = Analytic.trace2d(dist, VP, 1, F, nt + 1, dt);
            double[] p = new double[nt];
            for (int t = 1; t < nt; t++) {
                p[t] = (u[t] - u[t - 1]) / dt / (VP * VP);
            }
            double err = ElasticAnalytic.relL2(r.data(), k, recs.length, p);
            System.out.printf("vs = 0 full space vs acoustic pressure, r = %.0f m: relative L2 error %.4f%n", dist,
                    err);
            assertTrue(err < 0.03, "fluid pressure relative L2 error " + err + " at r = " + dist);
        }
    }

    @Test
    void waterLayerOverSolidIsStableAndFluidAboveTheSeaFloor() {
        int nz = 90;
        int nx = 160;
        int floor = 45; // water rows 0..44, solid below
        double dt = 1e-3;
        int nt = 1400;
        float[] vp = new float[nz * nx];
        float[] vs = new float[nz * nx];
        float[] rho = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                boolean water = z < floor;
                vp[z * nx + x] = water ? (float) VP : 2500f;
                vs[z * nx + x] = water ? 0f : 1300f;
                rho[z * nx + x] = water ? (float) RHO : 2200f;
            }
        }
        int sx = 80;
        int sz = 10;
        int[][] recs = {{sx + 25, sz}, {sx - 20, 18}};
        PropSpec spec = PropSpec.builder(nz, nx).equation("elastic").dh(DH).dt(dt).nt(nt).abcn(20)
                .order(8).freeSurface(true).threads(2).build();
        double[] energy = new double[nt + 1];
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec)) {
            r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{sx, sz}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {recs}, List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ),
                    new ElasticModel(vp, vs, rho), 10, (shot, done, f) -> energy[done] = ElasticPmlTest.energy(f,
                            vp, vs, rho, 2));
        }
        double peak = 0;
        for (double e : energy) {
            peak = Math.max(peak, e);
        }
        double ratio = energy[nt] / peak;
        System.out.printf("water layer over a solid: energy after %d steps / peak = %.3e%n", nt, ratio);
        assertTrue(peak > 0 && ratio < 1e-2, "energy must leave through the PML, ratio " + ratio);
        for (float v : r.data()) {
            assertTrue(Float.isFinite(v));
        }
        // before the sea-floor echo (path source -> floor -> receiver) the water is a fluid half-space
        for (int k = 0; k < recs.length; k++) {
            double ex = DH * (recs[k][0] - sx);
            double d1 = Math.hypot(ex, DH * (recs[k][1] - sz));
            double d2 = Math.hypot(ex, DH * (recs[k][1] + sz));
            double echo = Math.hypot(ex, DH * (2 * floor - sz - recs[k][1]));
            int tEnd = (int) ((echo / VP - 0.6 / F) / dt);
            double[] exact = new double[tEnd];
            for (int t = 0; t < tEnd; t++) {
                double time = t * dt - dt / 2;
                exact[t] = ElasticAnalytic.explosion2dP(d1, time, VP, 0, RHO, F)
                        - ElasticAnalytic.explosion2dP(d2, time, VP, 0, RHO, F);
            }
            double err = ElasticAnalytic.relL2(r.data(), 3 * k, 3 * recs.length, exact);
            System.out.printf("water layer, receiver %s, first %d samples: relative L2 error %.4f%n",
                    java.util.Arrays.toString(recs[k]), tEnd, err);
            assertTrue(err < 0.03, "water-layer pressure before the sea-floor echo: relative L2 error " + err);
        }
    }
}
