package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/** dJ/dvp against central finite differences, boundary saving against full storage, batches and thread counts. */
class GradientTest {
    /**
     * Gradient along a smooth random direction against a fourth-order central difference of J, FULL storage. The spec fixes maxVel:
     * the CPML profile is a constant of the gradient, so it must not follow the perturbed model's maximum.
     */
    static double fdCheck(PropSpec spec, float[] v, float[] vObs, int[][][] src, int[][][] rec) {
        int nt = spec.nt();
        float[] w = Wavelets.ricker(12, nt, spec.dt());
        int[] shape = spec.shape();
        float[] dir = TestModels.smoothRandom(99, 0, 1, shape);
        float[] obs;
        try (Propagator p = new Propagator(spec)) {
            obs = p.forward(w, src, rec, vObs).data();
            Gradient g = p.forwardAndGradient(w, src, rec, v, obs, Misfit.L2);
            double analytic = 0;
            for (int i = 0; i < v.length; i++) {
                analytic += (double) g.vp()[i] * dir[i];
            }
            // Fourth-order central difference: its O(eps^4) truncation allows a step large enough that the float
            // rounding noise of the misfit (~1e-7 of J) stays far below the difference being measured.
            double eps = 16.0; // m/s along a direction of unit amplitude
            double j1 = misfit(p, w, src, rec, shifted(v, dir, eps), obs);
            double jm1 = misfit(p, w, src, rec, shifted(v, dir, -eps), obs);
            double j2 = misfit(p, w, src, rec, shifted(v, dir, 2 * eps), obs);
            double jm2 = misfit(p, w, src, rec, shifted(v, dir, -2 * eps), obs);
            double fd = (8 * (j1 - jm1) - (j2 - jm2)) / (12 * eps);
            double rel = Math.abs(fd - analytic) / Math.abs(fd);
            System.out.printf("gradient check %dD fs=%b: analytic %.8e, finite difference %.8e, rel. error %.2e%n",
                    spec.ndim(), spec.freeSurface(), analytic, fd, rel);
            return rel;
        }
    }

    static float[] shifted(float[] v, float[] dir, double eps) {
        float[] o = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            o[i] = (float) (v[i] + eps * dir[i]);
        }
        return o;
    }

    static double misfit(Propagator p, float[] w, int[][][] src, int[][][] rec, float[] v, float[] obs) {
        float[] syn = p.forward(w, src, rec, v).data();
        double j = 0;
        for (int i = 0; i < syn.length; i++) {
            double r = (double) syn[i] - obs[i];
            j += 0.5 * r * r;
        }
        return j;
    }

    @Test
    void finiteDifference2d() {
        int nz = 40;
        int nx = 60;
        float[] v = TestModels.smoothRandom(21, 2200, 400, nz, nx);
        float[] vObs = TestModels.smoothRandom(22, 2200, 400, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(350).abcn(10).storage(Storage.FULL)
                .maxVel(3000).build();
        int[][][] src = {{{10, 5}}, {{50, 8}}};
        int[][][] rec = {{{5, 30}, {30, 35}, {55, 2}}, {{5, 30}, {30, 35}, {55, 2}}};
        assertTrue(fdCheck(spec, v, vObs, src, rec) < 1e-3);
        assertTrue(fdCheck(spec.toBuilder().freeSurface(true).build(), v, vObs, src, rec) < 1e-3);
    }

    @Test
    void finiteDifference3d() {
        int n = 26;
        float[] v = TestModels.smoothRandom(23, 2200, 400, n, n, n);
        float[] vObs = TestModels.smoothRandom(24, 2200, 400, n, n, n);
        PropSpec spec = PropSpec.builder(n, n, n).dh(10).dt(1e-3).nt(200).abcn(6).order(6).freeSurface(true)
                .storage(Storage.FULL).maxVel(3000).build();
        int[][][] src = {{{8, 10, 4}}};
        int[][][] rec = {{{20, 20, 10}, {3, 15, 22}, {13, 2, 1}}};
        assertTrue(fdCheck(spec, v, vObs, src, rec) < 1e-3);
    }

    @Test
    void boundarySavingMatchesFullInTheInterior() {
        int nz = 60;
        int nx = 70;
        float[] v = TestModels.smoothRandom(31, 2200, 400, nz, nx);
        float[] vObs = TestModels.smoothRandom(32, 2200, 400, nz, nx);
        int nt = 500;
        PropSpec full = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(nt).abcn(15).storage(Storage.FULL).build();
        PropSpec bs = full.toBuilder().storage(Storage.BOUNDARY_SAVING).build();
        float[] w = Wavelets.ricker(12, nt, 1e-3);
        int[][][] src = {{{20, 10}}};
        int[][][] rec = {{{5, 50}, {35, 55}, {65, 45}, {50, 3}}};
        float[] obs;
        Gradient gf;
        Gradient gb;
        try (Propagator p = new Propagator(full)) {
            obs = p.forward(w, src, rec, vObs).data();
            gf = p.forwardAndGradient(w, src, rec, v, obs, Misfit.L2);
        }
        try (Propagator p = new Propagator(bs)) {
            gb = p.forwardAndGradient(w, src, rec, v, obs, Misfit.L2);
        }
        assertEquals(gf.misfit(), gb.misfit(), 0.0, "the forward runs are the same computation");
        // Edge cells of the physical model also receive the PML pads' gradient under FULL only: compare inside them.
        double num = 0;
        double den = 0;
        for (int z = 1; z < nz - 1; z++) {
            for (int x = 1; x < nx - 1; x++) {
                double a = gf.vp()[z * nx + x];
                double b = gb.vp()[z * nx + x];
                num += (a - b) * (a - b);
                den += a * a;
            }
        }
        double rel = Math.sqrt(num / den);
        System.out.printf("BOUNDARY_SAVING vs FULL gradient, physical interior: relative L2 difference %.2e%n", rel);
        assertTrue(rel < 1e-3, "relative difference " + rel);
        assertTrue(den > 0);
    }

    @Test
    void rebuiltWavefieldMatchesForward() {
        int nz = 50;
        int nx = 64;
        int nt = 600;
        float[] v = TestModels.smoothRandom(41, 2200, 400, nz, nx);
        PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(nt).abcn(12).freeSurface(true)
                .storage(Storage.BOUNDARY_SAVING).build();
        float[] w = Wavelets.ricker(12, nt, 1e-3);
        int[][][] src = {{{30, 6}}};
        int[][][] rec = {{{10, 3}}};
        float[][] fwd = new float[nt + 1][];
        float[][] rebuilt = new float[nt + 1][];
        try (Propagator p = new Propagator(spec)) {
            p.forward(w, src, rec, v, 1, (s, n, f) -> fwd[n] = f);
            p.forwardForGradient(w, src, rec, v);
            p.rebuildListener((s, n, f) -> rebuilt[n] = f);
            p.gradient(new float[nt]);
        }
        // Error of each rebuilt level relative to the largest wavefield norm of the run (early levels hold little
        // more than the source, so a per-level ratio would measure float noise against almost nothing).
        double maxNorm = 0;
        for (int n = 1; n <= nt - 2; n++) {
            double e = 0;
            for (float f : fwd[n]) {
                e += (double) f * f;
            }
            maxNorm = Math.max(maxNorm, Math.sqrt(e));
        }
        double worst = 0;
        for (int n = 1; n <= nt - 2; n++) {
            double num = 0;
            for (int i = 0; i < fwd[n].length; i++) {
                num += Math.pow(fwd[n][i] - rebuilt[n][i], 2);
            }
            worst = Math.max(worst, Math.sqrt(num) / maxNorm);
        }
        System.out.printf("boundary saving: worst L2 error of a rebuilt wavefield level (relative to the largest"
                + " wavefield norm) over %d levels: %.2e%n", nt - 2, worst);
        assertTrue(worst < 1e-3, "rebuilt wavefield error " + worst);
        assertTrue(rebuilt[1] != null && rebuilt[nt - 2] != null, "every level 1..nt-2 is rebuilt");
    }

    @Test
    void memoryOfBothStrategiesAndForwardOnly() {
        int n = 600;
        int nt = 1000;
        float[] v = Analytic.constant(n * n, 2000f);
        float[] w = Wavelets.ricker(10, nt, 1e-3);
        int[][][] src = {{{300, 300}}};
        int[][][] rec = {{{100, 100}}};
        long[] held = new long[3];
        PropSpec spec = PropSpec.builder(n, n).dh(10).dt(1e-3).nt(nt).abcn(20).build();
        try (Propagator p = new Propagator(spec)) {
            p.forward(w, src, rec, v);
            held[0] = p.bytesHeld();
        }
        try (Propagator p = new Propagator(spec.toBuilder().storage(Storage.FULL).build())) {
            p.forwardForGradient(w, src, rec, v);
            held[1] = p.bytesHeld();
        }
        try (Propagator p = new Propagator(spec.toBuilder().storage(Storage.BOUNDARY_SAVING).build())) {
            p.forwardForGradient(w, src, rec, v);
            held[2] = p.bytesHeld();
        }
        // rows of n + 40 + 8 = 648 floats padded to 656 (whole 64-byte lines), one line more so that the grid can
        // move its interior's first cell onto a line start (Grid.alignShift), and 112 floats more so that fields one
        // length apart start 1 KiB apart modulo 4 KiB (Grid.lengthPad: 425104 floats are 576 bytes past a multiple)
        long len = (long) (n + 40 + 8) * 656 + 16 + 112;
        long prof = 2L * (n + 40 + 1 + n + 40);
        // psi and zeta keep per axis the cells within 3h of the bands, [-4, 28) and [612, 644) along it (Layout): along z
        // 64 rows of the wavefield layout (the array's own tail of 16 + 112 floats included), along x 640 rows of 64
        // floats; each slot then one 16-float line of slack
        long aux = (64L * 656 + 16 + 112 + 16) + (640L * 64 + 16);
        // forward-only: u, u_prev, v2, psi, zeta and the profiles, plus the CPU kernels' per-thread scratch (two
        // vectors per thread in 2-D); nothing for the gradient
        long scratch = held[0] - 4 * (3 * len + 2 * aux + prof);
        assertTrue(scratch >= 0 && scratch <= 4L * 64 * Runtime.getRuntime().availableProcessors(),
                "forward-only solver holds only the forward arrays and small per-thread scratch: " + held[0]
                        + " bytes, " + scratch + " beyond the forward arrays");
        double ratio = (double) (held[2] - held[0]) / (held[1] - held[0]);
        System.out.printf("memory at 600x600, nt=1000: forward-only %.1f MB, FULL %.1f MB, BOUNDARY_SAVING %.1f MB"
                + " (gradient memory ratio %.3f, total ratio %.3f)%n", held[0] / 1e6, held[1] / 1e6, held[2] / 1e6,
                ratio, (double) held[2] / held[1]);
        assertTrue((double) held[2] / held[1] < 0.15, "boundary saving holds " + held[2] + " of FULL's " + held[1]);
    }

    @Test
    void batchGradientIsTheSumOfShotGradientsAndThreadCountDoesNotMatter() {
        int nz = 36;
        int nx = 44;
        int nt = 250;
        float[] v = TestModels.smoothRandom(51, 2200, 400, nz, nx);
        float[] vObs = TestModels.smoothRandom(52, 2200, 400, nz, nx);
        float[] w = Wavelets.ricker(12, nt, 1e-3);
        int[][][] src = {{{5, 3}}, {{22, 10}}, {{40, 30}}};
        int[][] recs = {{2, 20}, {20, 33}, {41, 5}};
        int[][][] rec = {recs, recs, recs};
        for (Storage st : new Storage[] {Storage.FULL, Storage.BOUNDARY_SAVING}) {
            PropSpec spec = PropSpec.builder(nz, nx).dh(10).dt(1e-3).nt(nt).abcn(8).freeSurface(true).storage(st)
                    .threads(1).build();
            float[] obs;
            Gradient batch;
            float[] sum = new float[nz * nx];
            try (Propagator p = new Propagator(spec)) {
                obs = p.forward(w, src, rec, vObs).data();
                batch = p.forwardAndGradient(w, src, rec, v, obs, Misfit.L2);
                for (int b = 0; b < 3; b++) {
                    float[] ob = java.util.Arrays.copyOfRange(obs, b * nt * 3, (b + 1) * nt * 3);
                    Gradient one = p.forwardAndGradient(w, new int[][][] {src[b]}, new int[][][] {recs}, v, ob,
                            Misfit.L2);
                    for (int i = 0; i < sum.length; i++) {
                        sum[i] += one.vp()[i];
                    }
                }
                // the explicit API gives the same gradient as the one-call API
                float[] syn = p.forwardForGradient(w, src, rec, v).data();
                float[] res = new float[syn.length];
                for (int i = 0; i < res.length; i++) {
                    res[i] = syn[i] - obs[i];
                }
                assertArrayEquals(bits(batch.vp()), bits(p.gradient(res).vp()), st + ": gradient(residual) API");
                // the tapes of the explicit API survive their adjoint run
                assertArrayEquals(bits(batch.vp()), bits(p.gradient(res).vp()), st + ": gradient(residual) again");
            }
            assertArrayEquals(bits(sum), bits(batch.vp()), st + ": batch gradient = sum of shot gradients");
            for (int threads = 2; threads <= 3; threads++) {
                try (Propagator p = new Propagator(spec.toBuilder().threads(threads).build())) {
                    Gradient g = p.forwardAndGradient(w, src, rec, v, obs, Misfit.L2);
                    assertArrayEquals(bits(batch.vp()), bits(g.vp()), st + ": threads=" + threads);
                    assertArrayEquals(bits(batch.wavelet()), bits(g.wavelet()), st + ": wavelet gradient threads=" + threads);
                }
            }
        }
    }

    @Test
    void gradientNeedsAGradientCapableForward() {
        PropSpec spec = PropSpec.builder(20, 20).dh(10).dt(1e-3).nt(20).abcn(4).build();
        try (Propagator p = new Propagator(spec)) {
            assertThrows(IllegalStateException.class, () -> p.gradient(new float[20]));
            p.forward(Wavelets.ricker(10, 20, 1e-3), new int[][][] {{{5, 5}}}, new int[][][] {{{6, 6}}},
                    Analytic.constant(400, 2000));
            assertThrows(IllegalStateException.class, () -> p.gradient(new float[20]));
            p.forwardForGradient(Wavelets.ricker(10, 20, 1e-3), new int[][][] {{{5, 5}}}, new int[][][] {{{6, 6}}},
                    Analytic.constant(400, 2000));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.gradient(new float[7]));
            assertTrue(e.getMessage().contains("needs 20"), e.getMessage());
        }
    }

    static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }
}
