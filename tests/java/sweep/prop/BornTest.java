package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/**
 * The acoustic Born operator J: the dot product against the gradient (its adjoint) for each storage, with PML and a
 * free surface, 2-D and 3-D; and J·δm against a central difference of forward records.
 */
class BornTest {
    /** |⟨J·δm, d⟩ − ⟨δm, Jᵀ·d⟩| / |⟨J·δm, d⟩| for smooth random δm and data d (the Born record of another one). */
    static double dotProduct(PropSpec spec, float[] v, int[][][] src, int[][][] rec) {
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        float[] dm = TestModels.smoothRandom(31, 0, 50, spec.shape());
        try (Propagator p = new Propagator(spec)) {
            float[] jdm = p.born(w, src, rec, v, dm).data();
            // band-limited data: the Born record of another perturbation
            float[] d = p.born(w, src, rec, v, TestModels.smoothRandom(32, 0, 50, spec.shape())).data();
            p.forwardForGradient(w, src, rec, v);
            float[] jtd = p.gradient(d).vp();
            double lhs = dot(jdm, d);
            double rhs = dot(dm, jtd);
            double rel = Math.abs(lhs - rhs) / Math.abs(lhs);
            System.out.printf("Born dot product %dD fs=%b %s: <J dm, d> %.9e, <dm, J^T d> %.9e, rel. %.2e%n",
                    spec.ndim(), spec.freeSurface(), spec.storage(), lhs, rhs, rel);
            return rel;
        }
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    @Test
    void dotProduct2d() {
        int nz = 36;
        int nx = 48;
        float[] v = TestModels.smoothRandom(21, 2200, 400, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(260).abcn(10).freeSurface(true).build();
        int[][][] src = {{{10, 3}}, {{40, 30}}};
        int[][][] rec = {{{3, 2}, {24, 20}, {45, 1}}, {{3, 2}, {24, 20}, {45, 1}}};
        assertTrue(dotProduct(spec, v, src, rec) < 1e-5);
        assertTrue(dotProduct(spec.toBuilder().storage(Storage.FULL).freeSurface(false).build(), v, src, rec) < 1e-5);
    }

    @Test
    void dotProduct3d() {
        int n = 22;
        float[] v = TestModels.smoothRandom(23, 2200, 400, n, n, n);
        PropSpec spec = PropSpec.builder(n, n, n).dh(10).dt(1e-3).nt(120).order(4).abcn(6).freeSurface(true).build();
        int[][][] src = {{{11, 10, 4}}};
        int[][][] rec = {{{3, 4, 2}, {18, 12, 9}}};
        assertTrue(dotProduct(spec, v, src, rec) < 1e-5);
    }

    @Test
    void bornIsTheDerivativeOfTheRecord() {
        int nz = 40;
        int nx = 60;
        float[] v = TestModels.smoothRandom(21, 2200, 400, nz, nx);
        float[] dm = TestModels.smoothRandom(41, 0, 100, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(350).abcn(10).freeSurface(true).maxVel(3000)
                .storage(Storage.FULL).build();
        float[] w = Wavelets.ricker(12, spec.nt(), spec.dt());
        int[][][] src = {{{10, 5}}, {{50, 8}}};
        int[][][] rec = {{{5, 30}, {30, 35}, {55, 2}}, {{5, 30}, {30, 35}, {55, 2}}};
        double eps = 0.1; // 10 m/s at most
        try (Propagator p = new Propagator(spec)) {
            float[] jdm = p.born(w, src, rec, v, dm).data();
            float[] plus = p.forward(w, src, rec, GradientTest.shifted(v, dm, eps)).data();
            float[] minus = p.forward(w, src, rec, GradientTest.shifted(v, dm, -eps)).data();
            double num = 0;
            double den = 0;
            for (int i = 0; i < jdm.length; i++) {
                double fd = ((double) plus[i] - minus[i]) / (2 * eps);
                num += (fd - jdm[i]) * (fd - jdm[i]);
                den += (double) jdm[i] * jdm[i];
            }
            double rel = Math.sqrt(num / den);
            System.out.printf("Born linearisation: relative L2 difference to the central difference %.2e%n", rel);
            assertTrue(rel < 1e-3, "relative L2 " + rel);
        }
    }

    @Test
    void badPerturbationsAreRefused() {
        PropSpec spec = PropSpec.builder(20, 20).dh(10).dt(1e-3).nt(10).abcn(4).build();
        float[] v = TestModels.smoothRandom(21, 2200, 0, 20, 20);
        float[] w = Wavelets.ricker(15, 10, 1e-3);
        int[][][] src = {{{10, 3}}};
        int[][][] rec = {{{3, 2}}};
        try (Propagator p = new Propagator(spec)) {
            assertThrows(IllegalArgumentException.class, () -> p.born(w, src, rec, v, new float[7]));
            float[] dm = new float[400];
            dm[123] = Float.NaN;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.born(w, src, rec, v, dm));
            assertTrue(e.getMessage().contains("cell 123"), e.getMessage());
        }
    }
}
