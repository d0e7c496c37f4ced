package sweep.viscoacoustic;

import org.apache.commons.math3.complex.Complex;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * L standard linear solids in parallel (the generalised standard linear solid) fitted to a constant quality factor Q
 * over a frequency band, for the visco-acoustic equation. The modulus is M(ω) = M_R·R(ω) with
 * R(ω) = 1 + Σ_l τ_l·iωτσ_l/(1 + iωτσ_l): relaxation times τσ_l = 1/(2π f_l), the f_l log-spaced from fmin/1.2 to
 * 1.2·fmax (solids just beyond the band keep Q flat up to its ends), and per solid the strength τ_l (strain relaxation
 * time τε_l = τσ_l·(1 + τ_l)). Then Q⁻¹(ω) = Im R/Re R = Σ τ_l s1_l/(1 + Σ τ_l s2_l) with
 * s1_l = ωτσ_l/(1 + ω²τσ_l²) and s2_l = ω²τσ_l²/(1 + ω²τσ_l²).
 *
 * <p>The fit is Emmerich and Korn's (1987) linearisation: Q⁻¹ = q at 4L + 1 frequencies log-spaced over the band,
 * multiplied out, Σ_l τ_l (s1_l − q·s2_l) = q, is linear in the τ_l and solved by least squares (normal equations),
 * for each q separately: with 3 solids over a decade Q(f) stays within 2 % of the target for Q from 10 to 1000 (see
 * the tests). The strengths are smooth in q, and {@link #dTauDq} gives their exact derivative (for the gradient with
 * respect to Q).
 */
public final class ConstantQ {
    /** How far beyond the band the outermost solids' relaxation frequencies lie (a factor). */
    static final double WIDEN = 1.2;

    private final int mechanisms;
    private final double fmin;
    private final double fmax;
    private final double[] tauSigma;
    /** s1_l and s2_l at the fit frequencies, row k, column l. */
    private final double[][] s1;
    private final double[][] s2;

    /** {@code mechanisms} solids fitted over [fmin, fmax] Hz (0 &lt; fmin &lt; fmax). */
    public ConstantQ(int mechanisms, double fmin, double fmax) {
        if (mechanisms < 1 || mechanisms > 8) {
            throw new IllegalArgumentException("the number of relaxation mechanisms must be 1 to 8, got "
                    + mechanisms);
        }
        if (!(fmin > 0) || !(fmax > fmin) || Double.isInfinite(fmax)) {
            throw new IllegalArgumentException("the Q band must be 0 < FMIN < FMAX (Hz), got " + fmin + ", " + fmax);
        }
        this.mechanisms = mechanisms;
        this.fmin = fmin;
        this.fmax = fmax;
        tauSigma = new double[mechanisms];
        double lo = fmin / WIDEN;
        double hi = fmax * WIDEN;
        for (int l = 0; l < mechanisms; l++) {
            double f = mechanisms == 1 ? Math.sqrt(fmin * fmax) : lo * Math.pow(hi / lo, l / (mechanisms - 1.0));
            tauSigma[l] = 1 / (2 * Math.PI * f);
        }
        int nk = 4 * mechanisms + 1;
        s1 = new double[nk][mechanisms];
        s2 = new double[nk][mechanisms];
        for (int k = 0; k < nk; k++) {
            double w = 2 * Math.PI * fmin * Math.pow(fmax / fmin, k / (nk - 1.0));
            for (int l = 0; l < mechanisms; l++) {
                double x = w * tauSigma[l];
                s1[k][l] = x / (1 + x * x);
                s2[k][l] = x * x / (1 + x * x);
            }
        }
    }

    public int mechanisms() {
        return mechanisms;
    }

    public double fmin() {
        return fmin;
    }

    public double fmax() {
        return fmax;
    }

    /** The relaxation times τσ_l in seconds (a copy). */
    public double[] relaxationTimes() {
        return tauSigma.clone();
    }

    /** The strengths τ_l of the solids fitted to the quality factor {@code quality} (&gt; 0; infinite: all 0). */
    public double[] tau(double quality) {
        checkQuality(quality);
        double q = 1 / quality;
        DMatrixRMaj n = normalMatrix(q);
        DMatrixRMaj rhs = new DMatrixRMaj(mechanisms, 1);
        for (int l = 0; l < mechanisms; l++) {
            double acc = 0;
            for (int k = 0; k < s1.length; k++) {
                acc += (s1[k][l] - q * s2[k][l]) * q;
            }
            rhs.set(l, 0, acc);
        }
        return solve(n, rhs);
    }

    /**
     * d τ_l / dQ at {@code quality}: from the normal equations NᵀN·τ = Nᵀb with N = s1 − q·s2 and b = q,
     * d τ/dq = (NᵀN)⁻¹ (N'ᵀ(b − Nτ) + Nᵀ(b' − N'τ)), N' = −s2, b' = 1, and dq/dQ = −1/Q².
     */
    public double[] dTauDq(double quality) {
        checkQuality(quality);
        double q = 1 / quality;
        double[] tau = tau(quality);
        int nk = s1.length;
        double[] resid = new double[nk];
        double[] dres = new double[nk];
        for (int k = 0; k < nk; k++) {
            double nt = 0;
            double s2t = 0;
            for (int l = 0; l < mechanisms; l++) {
                nt += (s1[k][l] - q * s2[k][l]) * tau[l];
                s2t += s2[k][l] * tau[l];
            }
            resid[k] = q - nt;
            dres[k] = 1 + s2t;
        }
        DMatrixRMaj rhs = new DMatrixRMaj(mechanisms, 1);
        for (int l = 0; l < mechanisms; l++) {
            double acc = 0;
            for (int k = 0; k < nk; k++) {
                acc += -s2[k][l] * resid[k] + (s1[k][l] - q * s2[k][l]) * dres[k];
            }
            rhs.set(l, 0, acc);
        }
        double[] dq = solve(normalMatrix(q), rhs);
        double chain = -q * q;
        for (int l = 0; l < mechanisms; l++) {
            dq[l] *= chain;
        }
        return dq;
    }

    /** R(f) = 1 + Σ τ_l iωτσ_l/(1 + iωτσ_l) of the strengths {@code tau} at frequency f (Hz). */
    public Complex relaxation(double[] tau, double f) {
        double w = 2 * Math.PI * f;
        double re = 1;
        double im = 0;
        for (int l = 0; l < mechanisms; l++) {
            double x = w * tauSigma[l];
            re += tau[l] * x * x / (1 + x * x);
            im += tau[l] * x / (1 + x * x);
        }
        return new Complex(re, im);
    }

    /** Q(f) = Re R/Im R of the strengths {@code tau} (infinite where they are all 0). */
    public double quality(double[] tau, double f) {
        Complex r = relaxation(tau, f);
        return r.getReal() / r.getImaginary();
    }

    /**
     * The factor Re(R(fRef)^(−1/2))² that makes the phase velocity at fRef equal vp: with the relaxed modulus
     * M_R = ρ·vp²·factor the complex velocity is √(M_R·R/ρ), whose phase velocity 1/Re(√(ρ/(M_R·R))) is vp at fRef.
     */
    public double relaxedFactor(double[] tau, double fRef) {
        double c = relaxation(tau, fRef).sqrt().reciprocal().getReal();
        return c * c;
    }

    /** d {@link #relaxedFactor} / d τ_l: 2·Re(R^(−1/2))·Re(−½·R^(−3/2)·dR/dτ_l), dR/dτ_l = iωτσ_l/(1 + iωτσ_l). */
    public double[] relaxedFactorGradient(double[] tau, double fRef) {
        Complex r = relaxation(tau, fRef);
        Complex inv = r.sqrt().reciprocal();
        Complex d = inv.multiply(inv).multiply(inv).multiply(-0.5);
        double w = 2 * Math.PI * fRef;
        double[] out = new double[mechanisms];
        for (int l = 0; l < mechanisms; l++) {
            double x = w * tauSigma[l];
            Complex dr = new Complex(x * x / (1 + x * x), x / (1 + x * x));
            out[l] = 2 * inv.getReal() * d.multiply(dr).getReal();
        }
        return out;
    }

    /** The phase velocity at f of a medium whose phase velocity at fRef is 1. */
    public double phaseVelocityRatio(double[] tau, double f, double fRef) {
        double atF = relaxation(tau, f).sqrt().reciprocal().getReal();
        double atRef = relaxation(tau, fRef).sqrt().reciprocal().getReal();
        return atRef / atF;
    }

    /** (s1 − q·s2)ᵀ(s1 − q·s2). */
    private DMatrixRMaj normalMatrix(double q) {
        DMatrixRMaj n = new DMatrixRMaj(mechanisms, mechanisms);
        for (int k = 0; k < s1.length; k++) {
            for (int i = 0; i < mechanisms; i++) {
                double ai = s1[k][i] - q * s2[k][i];
                for (int j = 0; j < mechanisms; j++) {
                    n.add(i, j, ai * (s1[k][j] - q * s2[k][j]));
                }
            }
        }
        return n;
    }

    private double[] solve(DMatrixRMaj n, DMatrixRMaj rhs) {
        DMatrixRMaj x = new DMatrixRMaj(mechanisms, 1);
        if (!CommonOps_DDRM.solve(n, rhs, x)) {
            throw new IllegalStateException("the constant-Q fit's normal equations are singular (" + mechanisms
                    + " mechanisms over " + fmin + " to " + fmax + " Hz)");
        }
        double[] out = new double[mechanisms];
        for (int l = 0; l < mechanisms; l++) {
            out[l] = x.get(l, 0);
        }
        return out;
    }

    private static void checkQuality(double quality) {
        if (!(quality > 0)) {
            throw new IllegalArgumentException("Q must be > 0, got " + quality);
        }
    }
}
