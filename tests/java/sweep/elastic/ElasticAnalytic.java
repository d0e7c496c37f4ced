package sweep.elastic;

/**
 * Closed-form wavefields of point sources in a homogeneous isotropic elastic full space, for the elastic solver's
 * conventions (docs/elastic.md): a force F(t) = w(t) ê_j (N/m in 2-D), or an isotropic moment source of moment rate
 * w(t) entering the stress equation as ∂t σ = C:∂t ε − w(t)·I·δ(x) (Aki &amp; Richards' stress glut, an explosion for
 * w &gt; 0). Derived here, following Aki &amp; Richards, "Quantitative Seismology" (2nd ed., 2002), §4.2 (potentials of
 * a point force, Lamé's solution) and Kausel, "Fundamental Solutions in Elastodynamics" (2006) for the 2-D (plane
 * strain) line load:
 *
 * <ul>
 *   <li>scalar 2-D Green's function of ∂tt − c²∇²: g_c = H(t − r/c)/(2πc²√(t² − r²/c²)); with τ = (r/c)·cosh θ,
 *       (q * g_c)(t) = A_c[q]/(2πc²), A_c[q](t) = ∫₀^∞ q(t − (r/c)cosh θ) dθ;</li>
 *   <li>2-D explosion: u = ∇Φ, Φ = −(1/ρ)·M * g_α (M = ∫w), so with p = −(σxx+σzz)/2 = −(λ+μ)∇·u,
 *       p = (λ+μ)/(λ+2μ)·A_α[ẇ]/(2πα²) and v_r = C_α[ẇ]/(2πρα³), C_c[q] = ∫ q(t − (r/c)cosh θ)·cosh θ dθ;</li>
 *   <li>2-D force along ê_j (Helmholtz split of ê_j·δ with the 2-D Laplace kernel χ, ∇²χ = δ):
 *       u_i = (1/ρ)[δ_ij F*g_β + ∂_i∂_j (F * (g_α − g_β) *ₓ χ)]; with rW' = K_c = (1/2π)(t − √(t² − r²/c²)₊) for
 *       W_c = g_c *ₓ χ this is u_i = (1/ρ)[δ_ij F*g_β + (δ_ij − 2γ_iγ_j)/(2πr²)·F*(R_β − R_α) + γ_iγ_j F*(g_α − g_β)],
 *       R_c = √(t² − r²/c²)₊, and F*R_c = B_c[F] = (r/c)² ∫ F(t − (r/c)cosh θ) sinh²θ dθ; velocities take Ḟ;</li>
 *   <li>3-D explosion: Φ = −M(t − r/α)/(4πρα²r), v_r = [ẇ(τ)/(αr) + w(τ)/r²]/(4πρα²), and
 *       p = −(σxx+σyy+σzz)/3 = K·ẇ(τ)/(4πρα⁴r), K = λ + 2μ/3, τ = t − r/α.</li>
 * </ul>
 * The wavelet is the Ricker of {@code sweep.core.Wavelets} (peak 1.5/f), negligible before t = 0 and after 3/f.
 */
final class ElasticAnalytic {
    private ElasticAnalytic() {
    }

    /** Ricker wavelet (order 0) or its first time derivative (order 1) at t. */
    static double ricker(double f, int order, double t) {
        double u = Math.PI * f * (t - 1.5 / f);
        double a = u * u;
        if (order == 0) {
            return (1 - 2 * a) * Math.exp(-a);
        }
        return (2 * a - 3) * Math.exp(-a) * 2 * Math.PI * f * u;
    }

    /**
     * ∫ q(t − (r/c)cosh θ)·k(θ) dθ over the θ where the wavelet argument lies in [0, 3/f] (composite Simpson), k = 1
     * (kind 0), cosh θ (kind 1) or sinh²θ (kind 2); q is the Ricker of derivative order {@code order}.
     */
    static double integral(double t, double r, double c, double f, int order, int kind) {
        double tau0 = r / c;
        double hi = t / tau0;
        if (hi <= 1) {
            return 0;
        }
        double lo = Math.max(1, (t - 3.0 / f) / tau0);
        double th0 = acosh(lo);
        double th1 = acosh(hi);
        int m = 600;
        double d = (th1 - th0) / m;
        double sum = 0;
        for (int j = 0; j <= m; j++) {
            double th = th0 + j * d;
            double wgt = j == 0 || j == m ? 1 : j % 2 == 1 ? 4 : 2;
            double k = kind == 0 ? 1 : kind == 1 ? Math.cosh(th) : Math.sinh(th) * Math.sinh(th);
            sum += wgt * ricker(f, order, t - tau0 * Math.cosh(th)) * k;
        }
        return sum * d / 3;
    }

    private static double acosh(double x) {
        return Math.log(x + Math.sqrt(x * x - 1));
    }

    /** 2-D explosion: pressure −(σxx+σzz)/2 at distance r and time t. */
    static double explosion2dP(double r, double t, double vp, double vs, double rho, double f) {
        double mu = rho * vs * vs;
        double l2m = rho * vp * vp;
        double lam = l2m - 2 * mu;
        return (lam + mu) / l2m * integral(t, r, vp, f, 1, 0) / (2 * Math.PI * vp * vp);
    }

    /** 2-D explosion: radial particle velocity at distance r and time t. */
    static double explosion2dVr(double r, double t, double vp, double rho, double f) {
        return integral(t, r, vp, f, 1, 1) / (2 * Math.PI * rho * vp * vp * vp);
    }

    /**
     * 2-D point force along axis j (0 = x, 1 = z) of amplitude w(t): particle velocity component i at offset
     * (dx, dz) from the force's node, time t.
     */
    static double force2dV(int i, int j, double dx, double dz, double t, double vp, double vs, double rho,
                           double f) {
        double r = Math.hypot(dx, dz);
        double[] g = {dx / r, dz / r};
        double dij = i == j ? 1 : 0;
        double aA = integral(t, r, vp, f, 1, 0) / (2 * Math.PI * vp * vp);
        double aB = integral(t, r, vs, f, 1, 0) / (2 * Math.PI * vs * vs);
        double bA = (r / vp) * (r / vp) * integral(t, r, vp, f, 1, 2);
        double bB = (r / vs) * (r / vs) * integral(t, r, vs, f, 1, 2);
        return (dij * aB + (dij - 2 * g[i] * g[j]) / (2 * Math.PI * r * r) * (bB - bA) + g[i] * g[j] * (aA - aB)) / rho;
    }

    /** 3-D explosion: pressure −(σxx+σyy+σzz)/3 at distance r and time t. */
    static double explosion3dP(double r, double t, double vp, double vs, double rho, double f) {
        double mu = rho * vs * vs;
        double l2m = rho * vp * vp;
        double k = l2m - 4 * mu / 3;
        return k * ricker(f, 1, t - r / vp) / (4 * Math.PI * l2m * vp * vp * r);
    }

    /** 3-D explosion: radial particle velocity at distance r and time t. */
    static double explosion3dVr(double r, double t, double vp, double rho, double f) {
        double tau = t - r / vp;
        return (ricker(f, 1, tau) / (vp * r) + ricker(f, 0, tau) / (r * r)) / (4 * Math.PI * rho * vp * vp);
    }

    /** Relative L2 error ||a − b|| / ||b|| of record column (offset, stride) against b. */
    static double relL2(float[] a, int offset, int stride, double[] b) {
        double num = 0;
        double den = 0;
        for (int n = 0; n < b.length; n++) {
            double d = a[offset + n * stride] - b[n];
            num += d * d;
            den += b[n] * b[n];
        }
        return Math.sqrt(num / den);
    }
}
