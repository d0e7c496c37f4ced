package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/** The elastic C-PML absorbs P and S waves: energy leaves the box, and the reflection off a PML is small. */
class ElasticPmlTest {
    static final double DH = 10;
    static final double F = 8;

    /**
     * A wave-energy measure over the physical region: ½ρ|v|² plus ½σ:σ/(ρ·vp²) (stress energy up to a bounded factor
     * for vs ≤ vp·√3/2); fields in {@link ElasticListener}'s order.
     */
    static double energy(float[][] f, float[] vp, float[] vs, float[] rho, int ndim) {
        int nv = ndim;
        int ns = ndim == 2 ? 3 : 6;
        double e = 0;
        for (int i = 0; i < f[0].length; i++) {
            double k = 0;
            for (int c = 0; c < nv; c++) {
                k += (double) f[c][i] * f[c][i];
            }
            double s = 0;
            for (int c = 0; c < ns; c++) {
                double w = c < ndim ? 1 : 2; // shear components count twice in σ:σ
                s += w * f[nv + c][i] * f[nv + c][i];
            }
            e += 0.5 * rho[i] * k + 0.5 * s / (rho[i] * (double) vp[i] * vp[i]);
        }
        return e;
    }

    @Test
    void energyLeavesTheBox() {
        int n = 101;
        double dt = 1e-3;
        int nt = 1200;
        PropSpec spec = PropSpec.builder(n, n).equation("elastic").dh(DH).dt(dt).nt(nt).abcn(20)
                .threads(2).build();
        ElasticModel m = ElasticModel.constant(n * n, 2000f, 1100f, 2000f);
        double[] energy = new double[nt + 1];
        try (ElasticSolver p = new ElasticSolver(spec)) {
            p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{50, 50}}}, ElasticSource.FZ,
                    new int[][][] {{{0, 0}}}, List.of(ElasticField.VZ), m, 10,
                    (shot, done, f) -> energy[done] = energy(f, m.vp(), m.vs(), m.rho(), 2));
        }
        double peak = 0;
        for (double e : energy) {
            peak = Math.max(peak, e);
        }
        // the S pulse (0.37 s long) crosses the 500 m half-width by about 0.8 s; at 1.2 s it is gone
        double ratio = energy[nt] / peak;
        System.out.printf("elastic PML: energy left after the pulse has gone / peak energy = %.3e%n", ratio);
        assertTrue(peak > 0 && ratio < 1e-4, "energy ratio " + ratio);
    }

    /** 3-D: every axis's bands (y included) absorb; order 4, a thinner PML. */
    @Test
    void energyLeavesTheBox3d() {
        int n = 24;
        double dt = 1.5e-3;
        int nt = 330;
        PropSpec spec = PropSpec.builder(n, n, n).equation("elastic").dh(DH).dt(dt).nt(nt).abcn(10)
                .order(4).threads(2).build();
        ElasticModel m = ElasticModel.constant(n * n * n, 2000f, 1100f, 2000f);
        double[] energy = new double[nt + 1];
        try (ElasticSolver p = new ElasticSolver(spec)) {
            p.forward(Wavelets.ricker(15, nt, dt), new int[][][] {{{12, 12, 12}}}, ElasticSource.FY,
                    new int[][][] {{{0, 0, 0}}}, List.of(ElasticField.VY), m, 10,
                    (shot, done, f) -> energy[done] = energy(f, m.vp(), m.vs(), m.rho(), 3));
        }
        double peak = 0;
        for (double e : energy) {
            peak = Math.max(peak, e);
        }
        double ratio = energy[nt - nt % 10] / peak;
        System.out.printf("elastic PML 3-D: energy left after the pulse has gone / peak energy = %.3e%n", ratio);
        assertTrue(peak > 0 && ratio < 1e-3, "energy ratio " + ratio);
    }

    @Test
    void reflectionOffTheCpmlIsSmall() {
        double dt = 1e-3;
        int nt = 600;
        float[] w = Wavelets.ricker(F, nt, dt);
        int n = 81;
        int off = 110;
        int big = n + 2 * off;
        List<ElasticField> fields = List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ);
        Record small;
        Record ref;
        try (ElasticSolver p = new ElasticSolver(PropSpec.builder(n, n).equation("elastic")
                .dh(DH).dt(dt).nt(nt).abcn(20).threads(2).build())) {
            small = p.forward(w, new int[][][] {{{40, 40}}}, ElasticSource.FZ, new int[][][] {{{70, 40}, {60, 68}}},
                    fields, ElasticModel.constant(n * n, 2000f, 1100f, 2000f));
        }
        try (ElasticSolver p = new ElasticSolver(PropSpec.builder(big, big)
                .equation("elastic").dh(DH).dt(dt).nt(nt).abcn(20).threads(2).build())) {
            ref = p.forward(w, new int[][][] {{{40 + off, 40 + off}}}, ElasticSource.FZ,
                    new int[][][] {{{70 + off, 40 + off}, {60 + off, 68 + off}}}, fields,
                    ElasticModel.constant(big * big, 2000f, 1100f, 2000f));
        }
        for (int k = 0; k < 2; k++) {
            for (int f = 0; f < fields.size(); f++) {
                double maxDirect = 0;
                double maxDiff = 0;
                for (int t = 0; t < nt; t++) {
                    maxDirect = Math.max(maxDirect, Math.abs(ref.get(0, t, k, f)));
                    maxDiff = Math.max(maxDiff, Math.abs(small.get(0, t, k, f) - ref.get(0, t, k, f)));
                }
                double ratio = maxDiff / maxDirect;
                System.out.printf("elastic PML, receiver %d, %s: reflected / direct amplitude = %.3e%n", k,
                        fields.get(f).label(), ratio);
                assertTrue(ratio < 0.01, "reflection ratio " + ratio + " for " + fields.get(f).label());
            }
        }
    }
}
