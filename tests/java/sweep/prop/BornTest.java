package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/**
 * The acoustic Born operator J against a central difference of forward records, and its refusal of bad perturbations
 * (its dot product against the gradient is the conformance kit's, {@code EquationKit}).
 */
class BornTest {
    /**
     * Full storage, a smooth perturbation everywhere; boundary saving (the interior's fused kernel), a perturbation
     * that vanishes within 12 cells of the edges (boundary saving leaves the PML pads, which repeat the edge cells,
     * out of J).
     */
    @Test
    void bornIsTheDerivativeOfTheRecord() {
        int nz = 40;
        int nx = 60;
        float[] v = TestModels.smoothRandom(21, 2200, 400, nz, nx);
        float[] dm = TestModels.smoothRandom(41, 0, 100, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(350).abcn(10).freeSurface(true).maxVel(3000)
                .storage(Storage.FULL).build();
        assertTrue(linearisationError(spec, v, dm) < 1e-3);
        float[] inner = dm.clone();
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                if (z >= nz - 12 || x < 12 || x >= nx - 12) {
                    inner[z * nx + x] = 0;
                }
            }
        }
        assertTrue(linearisationError(spec.toBuilder().storage(Storage.BOUNDARY_SAVING).build(), v, inner) < 1e-3);
    }

    /** The relative L2 difference of J·δm to the central difference of forward records, ε = 0.1. */
    static double linearisationError(PropSpec spec, float[] v, float[] dm) {
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
            System.out.printf("Born linearisation, %s: relative L2 difference to the central difference %.2e%n",
                    spec.storage(), rel);
            return rel;
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
