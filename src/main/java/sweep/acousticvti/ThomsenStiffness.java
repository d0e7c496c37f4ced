package sweep.acousticvti;

/**
 * The per-cell coefficients of the pseudo-acoustic VTI update from vp, epsilon and delta, and their chain rule: the
 * arithmetic acoustic-vti and acoustic-tti share (one place, so that both keep the same bits).
 */
public final class ThomsenStiffness {
    private ThomsenStiffness() {
    }

    /**
     * Cell i's coefficients: a0 = vp²dt², ah = a0·(1 + 2ε) and an = a0·√(1 + 2δ) (dt2 = dt²).
     */
    public static void coefficients(double vp, double epsilon, double delta, double dt2, float[] ah, float[] an,
                                    float[] a0, int i) {
        double a = vp * vp * dt2;
        a0[i] = (float) a;
        ah[i] = (float) (a * (1 + 2.0 * epsilon));
        an[i] = (float) (a * Math.sqrt(1 + 2.0 * delta));
    }

    /**
     * Adds the chain rule of {@link #coefficients} at one cell, from the gradients w0, wh, wn of a0, ah, an:
     * dJ/dvp = 2vp·dt²·(w0 + (1 + 2ε)·wh + √(1 + 2δ)·wn) to {@code g[iv]}, dJ/dε = 2vp²dt²·wh to {@code g[ie]} and
     * dJ/dδ = vp²dt²·wn/√(1 + 2δ) to {@code g[id]}.
     */
    public static void addGradient(double vp, double epsilon, double delta, double dt2, float w0, float wh, float wn,
                                   double[] gv, int iv, double[] ge, int ie, double[] gd, int id) {
        double r = Math.sqrt(1 + 2.0 * delta);
        double a = vp * vp * dt2;
        gv[iv] += 2 * vp * dt2 * (w0 + (1 + 2 * epsilon) * wh + r * wn);
        ge[ie] += 2 * a * wh;
        gd[id] += a * wn / r;
    }
}
