package sweep.viscoacoustic;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The visco-acoustic step's coefficients of one cell from its vp (the phase velocity at f_ref), rho and Q, and the
 * chain rule back from the node gradients to dJ/dvp, dJ/drho and dJ/dQ. With the solids' strengths τ_l(Q)
 * ({@link ConstantQ#tau}), the relaxed modulus M_R = ρ·vp²·F(τ) (F: {@link ConstantQ#relaxedFactor} at f_ref):
 * dt·M_U = dt·M_R·(1 + Σ τ_l), the coefficient of the pressure update, and c_l = β_l·dt·M_R·τ_l, that of the memory
 * update ({@code sweep.acousticvd.kernels.PressureRelaxationKernels}), with a_l = dt/(2τσ_l), α_l = (1 − a_l)/(1 + a_l)
 * and β_l = 2a_l/(1 + a_l). The buoyancies are the variable-density equation's; their share of dJ/drho is not here.
 */
final class ViscoAcousticCoefficients {
    /** The strengths τ_l(Q) and the factor F(τ) by Q (a model holds few distinct values; safe across threads). */
    private final ConcurrentHashMap<Double, double[]> byQuality =
            new ConcurrentHashMap<>();
    private final ConstantQ fit;
    private final double fRef;
    private final double dt;
    private final double[] alpha;
    private final double[] beta;

    /** The coefficients of the solids {@code fit}, vp the phase velocity at {@code fRef} Hz, time step {@code dt}. */
    ViscoAcousticCoefficients(ConstantQ fit, double fRef, double dt) {
        if (!(fRef > 0) || Double.isInfinite(fRef)) {
            throw new IllegalArgumentException("the reference frequency must be positive and finite, got " + fRef);
        }
        this.fit = fit;
        this.fRef = fRef;
        this.dt = dt;
        double[] ts = fit.relaxationTimes();
        alpha = new double[ts.length];
        beta = new double[ts.length];
        for (int l = 0; l < ts.length; l++) {
            double a = dt / (2 * ts[l]);
            alpha[l] = (1 - a) / (1 + a);
            beta[l] = 2 * a / (1 + a);
        }
    }

    /** α_l, the memory variables' decay per step (a copy). */
    double[] alpha() {
        return alpha.clone();
    }

    /** τ_l(q), then F(τ) at f_ref, computed once per q. */
    private double[] strengths(double q) {
        return byQuality.computeIfAbsent(q, k -> {
            double[] tau = fit.tau(k);
            double[] out = Arrays.copyOf(tau, tau.length + 1);
            out[tau.length] = fit.relaxedFactor(tau, fRef);
            return out;
        });
    }

    /** The number of solids. */
    int mechanisms() {
        return fit.mechanisms();
    }

    /**
     * The ratio of the fastest velocity of a cell of quality {@code q} (the unrelaxed one, at infinite frequency) to
     * its vp: √(M_U/(ρ·vp²)) = √(F·(1 + Σ τ_l)).
     */
    double unrelaxedRatio(double q) {
        double[] st = strengths(q);
        int n = st.length - 1;
        double sum = 0;
        for (int l = 0; l < n; l++) {
            sum += st[l];
        }
        return Math.sqrt(st[n] * (1 + sum));
    }

    /** {@code out[0]} = dt·M_U, {@code out[1 + l]} = c_l of a cell of the given vp, rho and Q. */
    void cell(double vp, double rho, double q, double[] out) {
        double[] st = strengths(q);
        double[] tau = Arrays.copyOf(st, st.length - 1);
        double mr = rho * vp * vp * st[st.length - 1];
        double sum = 0;
        for (int l = 0; l < tau.length; l++) {
            sum += tau[l];
            out[1 + l] = beta[l] * dt * mr * tau[l];
        }
        out[0] = dt * mr * (1 + sum);
    }

    /**
     * dJ/dvp, dJ/drho (through the modulus only) and dJ/dQ into {@code out[0..2]} of a cell of the given vp, rho and
     * Q from the node gradients {@code gk} = dJ/d(dt·M_U) and {@code gc[l]} = dJ/dc_l.
     */
    void gradient(double vp, double rho, double q, double gk, double[] gc, double[] out) {
        double[] tau = fit.tau(q);
        double f = fit.relaxedFactor(tau, fRef);
        double[] df = fit.relaxedFactorGradient(tau, fRef);
        double[] dtau = fit.dTauDq(q);
        double mr = rho * vp * vp * f;
        double sum = 0;
        for (double t : tau) {
            sum += t;
        }
        // dJ/dM_R with the strengths held
        double gmr = gk * dt * (1 + sum);
        for (int l = 0; l < tau.length; l++) {
            gmr += gc[l] * beta[l] * dt * tau[l];
        }
        double gq = 0;
        for (int l = 0; l < tau.length; l++) {
            // dJ/dτ_l: directly (M_R held), then through M_R = ρ·vp²·F(τ)
            double gt = gk * dt * mr + gc[l] * beta[l] * dt * mr + gmr * rho * vp * vp * df[l];
            gq += gt * dtau[l];
        }
        out[0] = gmr * 2 * rho * vp * f;
        out[1] = gmr * vp * vp * f;
        out[2] = gq;
    }
}
