package sweep.viscoacoustic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.complex.Complex;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * The visco-acoustic equation against physics and against {@code acoustic-vd}: with Q = 10⁶ its record is the
 * variable-density one; in a homogeneous medium of Q = 20 the spectra of two receivers on one line from the source
 * give back Q (the spectral ratio, geometric spreading removed) within 10 % across the fitted band, and their phase
 * difference the phase velocity: vp at f_ref within 0.5 %, Kjartansson's constant-Q law c(f) = vp·(f/f_ref)^γ,
 * γ = arctan(1/Q)/π, within 1 % at the band's ends; in 2-D and 3-D.
 */
class ViscoAcousticPhysicsTest {
    private static float[] constant(int n, float v) {
        float[] a = new float[n];
        Arrays.fill(a, v);
        return a;
    }

    private static float[] stack(float[]... parts) {
        int n = 0;
        for (float[] p : parts) {
            n += p.length;
        }
        float[] m = new float[n];
        int o = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, m, o, p.length);
            o += p.length;
        }
        return m;
    }

    /**
     * 2-D and 3-D, vp 2000 m/s, rho 1800 kg/m³, Q = 10⁶ (three solids over 3–30 Hz, f_ref 10 Hz): the pressure record
     * against acoustic-vd's for the same vp and rho, relative L2 below 1e-3.
     */
    @Test
    void anAlmostInfiniteQGivesTheVariableDensityRecord() {
        for (int nd = 2; nd <= 3; nd++) {
            int[] shape = nd == 2 ? new int[] {50, 60} : new int[] {26, 28, 30};
            int n = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
            int nt = nd == 2 ? 300 : 180;
            double dt = 1e-3;
            int[][][] src = {{nd == 2 ? new int[] {20, 18} : new int[] {10, 12, 11}}};
            int[][][] rec = {nd == 2 ? new int[][] {{40, 18}, {50, 40}, {10, 30}}
                    : new int[][] {{22, 12, 11}, {10, 24, 20}, {25, 20, 5}}};
            float[] w = Wavelets.ricker(10, nt, dt);
            float[] vp = constant(n, 2000);
            float[] rho = constant(n, 1800);
            PropSpec vd = PropSpec.builder(shape).equation("acoustic-vd").dh(10).dt(dt).nt(nt).abcn(10).build();
            PropSpec va = vd.toBuilder().equation(ViscoAcousticEquation.NAME).setting("q_band", "3,30")
                    .setting("f_ref", "10").build();
            float[] a;
            float[] b;
            try (Propagator p = new Propagator(vd)) {
                a = p.forward(w, src, rec, stack(vp, rho)).data();
            }
            try (Propagator p = new Propagator(va)) {
                b = p.forward(w, src, rec, stack(vp, rho, constant(n, 1e6f))).data();
            }
            double num = 0;
            double den = 0;
            for (int i = 0; i < a.length; i++) {
                num += (a[i] - (double) b[i]) * (a[i] - (double) b[i]);
                den += (double) a[i] * a[i];
            }
            double rel = Math.sqrt(num / den);
            System.out.printf(Locale.ROOT, "visco-acoustic Q = 1e6 against acoustic-vd, %d-D: relative L2 %.3e%n", nd,
                    rel);
            assertTrue(rel < 1e-3, nd + "-D: Q = 1e6 differs from acoustic-vd by " + rel);
        }
    }

    /** The spectrum of {@code nt} samples of receiver r of {@code nrec} in record d, zero-padded to {@code nfft}. */
    private static Complex[] spectrum(float[] d, int nrec, int r, int nt, int nfft) {
        double[] x = new double[nfft];
        for (int t = 0; t < nt; t++) {
            // a cosine taper over the last fifth: the record ends without a jump
            double taper = t < 0.8 * nt ? 1 : 0.5 * (1 + Math.cos(Math.PI * (t - 0.8 * nt) / (0.2 * nt)));
            x[t] = d[t * nrec + r] * taper;
        }
        return new FastFourierTransformer(DftNormalization.STANDARD).transform(x, TransformType.FORWARD);
    }

    /**
     * Q = 20, vp 2000 m/s at f_ref 10 Hz, rho 1800 kg/m³, three solids over 5–20 Hz, a 10 Hz Ricker; receivers r1 and
     * r2 from the source on one line. Per frequency f of the band: Q(f) = −π·f·Δr/(c(f)·ln(A2/(A1·g))), g = (r1/r2)^½
     * in 2-D (far field of a line source), r1/r2 in 3-D; c(f) = 2π·f·Δr/Δφ from the phase difference (unwrapped from
     * the low frequencies).
     */
    @Test
    void aConstantQMediumAttenuatesAndDispersesAsTheConstantQLaw() {
        double q = 20;
        double vp = 2000;
        double fRef = 10;
        double dh = 10;
        double dt = 1.5e-3;
        for (int nd = 2; nd <= 3; nd++) {
            int[] shape = nd == 2 ? new int[] {80, 90} : new int[] {44, 44, 64};
            int n = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
            int nt = nd == 2 ? 600 : 420;
            int xs = 8;
            int r1 = 15;
            int r2 = nd == 2 ? 75 : 50;
            int mid = shape[0] / 2;
            int[][][] src = {{nd == 2 ? new int[] {xs, mid} : new int[] {xs, mid, mid}}};
            int[][][] rec = {nd == 2 ? new int[][] {{xs + r1, mid}, {xs + r2, mid}}
                    : new int[][] {{xs + r1, mid, mid}, {xs + r2, mid, mid}}};
            PropSpec spec = PropSpec.builder(shape).equation(ViscoAcousticEquation.NAME).dh(dh).dt(dt).nt(nt)
                    .abcn(16).setting("q_band", "5,20").setting("f_ref", Double.toString(fRef)).build();
            float[] w = Wavelets.ricker(fRef, nt, dt);
            float[] d;
            try (Propagator p = new Propagator(spec)) {
                d = p.forward(w, src, rec, stack(constant(n, (float) vp), constant(n, 1800),
                        constant(n, (float) q))).data();
            }
            int nfft = 8192;
            Complex[] s1 = spectrum(d, 2, 0, nt, nfft);
            Complex[] s2 = spectrum(d, 2, 1, nt, nfft);
            double dr = (r2 - r1) * dh;
            double g = nd == 2 ? Math.sqrt((double) r1 / r2) : (double) r1 / r2;
            double gamma = Math.atan(1 / q) / Math.PI;
            double worstQ = 0;
            double phase = 0;
            double prev = 0;
            double refErr = Double.NaN;
            double endErr = 0;
            for (int k = 1; k * (1 / (nfft * dt)) <= 20 + 1e-9; k++) {
                double f = k / (nfft * dt);
                // unwrap Δφ = arg(S1/S2) from 0 Hz up
                double dp = s1[k].divide(s2[k]).getArgument();
                double step = dp - prev;
                step -= 2 * Math.PI * Math.round(step / (2 * Math.PI));
                phase += step;
                prev = dp;
                if (f < 5 - 1e-9) {
                    continue;
                }
                double c = 2 * Math.PI * f * dr / phase;
                double ratio = s2[k].abs() / (s1[k].abs() * g);
                double qf = -Math.PI * f * dr / (c * Math.log(ratio));
                worstQ = Math.max(worstQ, Math.abs(qf / q - 1));
                double law = vp * Math.pow(f / fRef, gamma);
                double err = Math.abs(c / law - 1);
                if (Math.abs(f - fRef) < 0.5 / (nfft * dt)) {
                    refErr = Math.abs(c / vp - 1);
                }
                if (f < 5.2 || f > 19.8) {
                    endErr = Math.max(endErr, err);
                }
            }
            System.out.printf(Locale.ROOT, "visco-acoustic Q = 20, %d-D: worst Q error over 5-20 Hz %.2f %%, phase"
                    + " velocity at f_ref %.3f %% off vp, at the band's ends %.3f %% off the constant-Q law%n", nd,
                    100 * worstQ, 100 * refErr, 100 * endErr);
            assertTrue(worstQ < 0.10, nd + "-D: Q from the spectral ratio is off by " + 100 * worstQ + " %");
            assertTrue(refErr < 0.005, nd + "-D: the phase velocity at f_ref is off by " + 100 * refErr + " %");
            assertTrue(endErr < 0.01, nd + "-D: the phase velocity at the band's ends is off the law by " + 100
                    * endErr + " %");
        }
    }
}
