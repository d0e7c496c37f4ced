package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** The CPML absorbs: energy left in the box after the pulse has gone, and reflection against a far-boundary reference. */
class PmlTest {
    static final double V = 2000;
    static final double DH = 10;
    static final double F = 12;

    @Test
    void energyLeavesTheBox() {
        int n = 101;
        double dt = 1e-3;
        int nt = 900;
        PropSpec spec = PropSpec.builder(n, n).dh(DH).dt(dt).nt(nt).abcn(20).build();
        double[] energy = new double[nt + 1];
        try (Propagator p = new Propagator(spec)) {
            p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{50, 50}}}, new int[][][] {{{0, 0}}},
                    Analytic.constant(n * n, (float) V), 1, (shot, step, field) -> {
                        double e = 0;
                        for (float f : field) {
                            e += (double) f * f;
                        }
                        energy[step] = e;
                    });
        }
        double peak = 0;
        for (double e : energy) {
            peak = Math.max(peak, e);
        }
        // The pulse (about 0.2 s long) crosses the 500 m half-width by ~0.4 s; by 0.9 s it is long gone.
        double ratio = energy[nt] / peak;
        System.out.printf("PML: energy left after the pulse has gone / peak energy = %.3e%n", ratio);
        assertTrue(ratio < 1e-4, "energy ratio " + ratio);
        assertTrue(peak > 0);
    }

    @Test
    void reflectionFromTwentyCellPmlIsBelowOnePercent() {
        double dt = 1e-3;
        int nt = 500;
        float[] w = Wavelets.ricker(F, nt, dt);
        // Small model: receiver 10 cells from the right PML; reference: same source/receiver far from any boundary.
        int nz = 81;
        int nx = 81;
        PropSpec small = PropSpec.builder(nz, nx).dh(DH).dt(dt).nt(nt).abcn(20).build();
        int off = 200;
        PropSpec big = PropSpec.builder(nz + 2 * off, nx + 2 * off).dh(DH).dt(dt).nt(nt).abcn(20).build();
        float[] rs;
        float[] rb;
        try (Propagator p = new Propagator(small)) {
            rs = p.forward(w, new int[][][] {{{40, 40}}}, new int[][][] {{{70, 40}}},
                    Analytic.constant(nz * nx, (float) V)).data();
        }
        try (Propagator p = new Propagator(big)) {
            rb = p.forward(w, new int[][][] {{{40 + off, 40 + off}}}, new int[][][] {{{70 + off, 40 + off}}},
                    Analytic.constant((nz + 2 * off) * (nx + 2 * off), (float) V)).data();
        }
        double maxDirect = 0;
        double maxDiff = 0;
        for (int t = 0; t < nt; t++) {
            maxDirect = Math.max(maxDirect, Math.abs(rb[t]));
            maxDiff = Math.max(maxDiff, Math.abs(rs[t] - rb[t]));
        }
        double ratio = maxDiff / maxDirect;
        System.out.printf("PML: reflected amplitude / direct amplitude = %.3e%n", ratio);
        assertTrue(ratio < 0.01, "reflection ratio " + ratio);
    }
}
