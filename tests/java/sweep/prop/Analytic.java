package sweep.prop;

import sweep.core.Wavelets;

/**
 * Closed-form pressure of a point source in a homogeneous medium, for the propagator's source convention (the
 * wavelet times v²dt² added at one cell, i.e. a source term v²·w(t)·dV·δ(x)): 3-D u = dV·w(t − r/v)/(4πr); 2-D
 * u = dA/(2π)·∫₀^∞ w(t − (r/v)·cosh θ) dθ (the 2-D Green's function H(t − r/v)/(2π√(t² − r²/v²)) convolved with w,
 * with τ = (r/v)·cosh θ removing the singularity).
 */
public final class Analytic {
    private Analytic() {
    }

    public static double[] trace3d(double r, double v, double cellVolume, double freq, int nt, double dt) {
        double t0 = 1.5 / freq;
        double[] u = new double[nt];
        for (int n = 0; n < nt; n++) {
            u[n] = cellVolume * Wavelets.ricker(freq, t0, n * dt - r / v) / (4 * Math.PI * r);
        }
        return u;
    }

    public static double[] trace2d(double r, double v, double cellArea, double freq, int nt, double dt) {
        double t0 = 1.5 / freq;
        double[] u = new double[nt];
        double tau0 = r / v;
        for (int n = 0; n < nt; n++) {
            double t = n * dt;
            // w(t - tau) vanishes (< 1e-9) for t - tau < -1.5/freq + ...: integrate tau up to t + t0 + 2/freq.
            double tauMax = t + 2.5 / freq;
            if (tauMax <= tau0) {
                continue;
            }
            double thetaMax = acosh(tauMax / tau0);
            int m = 4000;
            double dth = thetaMax / m;
            double s = 0;
            for (int j = 0; j <= m; j++) {
                double wgt = (j == 0 || j == m) ? 1 : (j % 2 == 1 ? 4 : 2);
                s += wgt * Wavelets.ricker(freq, t0, t - tau0 * Math.cosh(j * dth));
            }
            u[n] = cellArea / (2 * Math.PI) * s * dth / 3;
        }
        return u;
    }

    private static double acosh(double x) {
        return Math.log(x + Math.sqrt(x * x - 1));
    }

    /** Relative L2 error ||a − b|| / ||b||. */
    public static double relL2(float[] a, int offset, int stride, double[] b) {
        double num = 0;
        double den = 0;
        for (int n = 0; n < b.length; n++) {
            double d = a[offset + n * stride] - b[n];
            num += d * d;
            den += b[n] * b[n];
        }
        return Math.sqrt(num / den);
    }

    public static int argMaxAbs(double[] b) {
        int k = 0;
        for (int n = 1; n < b.length; n++) {
            if (Math.abs(b[n]) > Math.abs(b[k])) {
                k = n;
            }
        }
        return k;
    }

    static int argMaxAbs(float[] a, int offset, int stride, int nt) {
        int k = 0;
        for (int n = 1; n < nt; n++) {
            if (Math.abs(a[offset + n * stride]) > Math.abs(a[offset + k * stride])) {
                k = n;
            }
        }
        return k;
    }

    public static float[] constant(int cells, float v) {
        float[] m = new float[cells];
        java.util.Arrays.fill(m, v);
        return m;
    }
}
