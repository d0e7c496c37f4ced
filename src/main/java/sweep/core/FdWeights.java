package sweep.core;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Central finite-difference weights for first and second derivatives of even order 2..16, and staggered-grid
 * first-derivative weights of the same orders, computed once in double precision by solving the Taylor
 * (Vandermonde) system with EJML.
 */
public final class FdWeights {
    private FdWeights() {
    }

    /** Whether {@code order} is an even spatial order in 2..16. */
    public static boolean isOrder(int order) {
        return order >= 2 && order <= 16 && order % 2 == 0;
    }

    /** Checks that {@code order} is an even spatial order in 2..16 and returns the half-width order/2. */
    public static int halfWidth(int order) {
        if (!isOrder(order)) {
            throw new IllegalArgumentException("spatial order must be even and in 2..16, got " + order
                    + ": use 2, 4, 6, 8 (default), 10, 12, 14 or 16");
        }
        return order / 2;
    }

    /**
     * Second-derivative weights {@code c[0..h]} on unit spacing: f'' ≈ c0 f(0) + Σ_k c_k (f(k) + f(-k)).
     */
    public static double[] second(int order) {
        int h = halfWidth(order);
        // Σ_k c_k * 2 k^m / m! = δ_{m,2} for m = 2, 4, ..., 2h
        double[] ck = solve(h, 2);
        double[] c = new double[h + 1];
        double c0 = 0;
        for (int k = 1; k <= h; k++) {
            c[k] = ck[k - 1];
            c0 -= 2 * ck[k - 1];
        }
        c[0] = c0;
        return c;
    }

    /**
     * First-derivative weights {@code d[0..h]} (d[0] = 0) on unit spacing: f' ≈ Σ_k d_k (f(k) − f(−k)).
     */
    public static double[] first(int order) {
        int h = halfWidth(order);
        // Σ_k d_k * 2 k^m / m! = δ_{m,1} for m = 1, 3, ..., 2h-1
        double[] dk = solve(h, 1);
        double[] d = new double[h + 1];
        System.arraycopy(dk, 0, d, 1, h);
        return d;
    }

    /** Largest |symbol| of the second-derivative stencil on unit spacing: |c0| + 2 Σ |c_k| (reached at the Nyquist wavenumber). */
    public static double secondDerivativeSymbolMax(int order) {
        double[] c = second(order);
        double s = Math.abs(c[0]);
        for (int k = 1; k < c.length; k++) {
            s += 2 * Math.abs(c[k]);
        }
        return s;
    }

    /**
     * Staggered-grid first-derivative weights {@code c[0..h]} (c[0] = 0) on unit spacing, for a derivative taken
     * half-way between nodes: f'(0) ≈ Σ_k c_k (f(k − ½) − f(−(k − ½))). Order 2 gives c1 = 1, order 4 gives 9/8 and
     * −1/24.
     */
    public static double[] staggered(int order) {
        int h = halfWidth(order);
        // Σ_k c_k * 2 (k - 1/2)^m / m! = δ_{m,1} for m = 1, 3, ..., 2h-1
        DMatrixRMaj a = new DMatrixRMaj(h, h);
        DMatrixRMaj b = new DMatrixRMaj(h, 1);
        for (int row = 0; row < h; row++) {
            int m = 1 + 2 * row;
            double fact = 1;
            for (int j = 2; j <= m; j++) {
                fact *= j;
            }
            for (int k = 1; k <= h; k++) {
                a.set(row, k - 1, 2 * Math.pow(k - 0.5, m) / fact);
            }
            b.set(row, 0, row == 0 ? 1 : 0);
        }
        DMatrixRMaj x = new DMatrixRMaj(h, 1);
        if (!CommonOps_DDRM.solve(a, b, x)) {
            throw new IllegalStateException("staggered finite-difference system is singular for half-width " + h);
        }
        double[] c = new double[h + 1];
        System.arraycopy(x.data, 0, c, 1, h);
        return c;
    }

    /**
     * Σ_k |c_k| of the staggered weights of {@code order}: the largest |symbol| of the staggered first derivative on
     * unit spacing divided by 2 (reached at the Nyquist wavenumber), which sets the elastic stability limit
     * dt ≤ dh/(vp·√ndim·Σ|c_k|). 1.28631 at order 8.
     */
    public static double staggeredAbsSum(int order) {
        double s = 0;
        for (double c : staggered(order)) {
            s += Math.abs(c);
        }
        return s;
    }

    private static double[] solve(int h, int firstPower) {
        DMatrixRMaj a = new DMatrixRMaj(h, h);
        DMatrixRMaj b = new DMatrixRMaj(h, 1);
        for (int row = 0; row < h; row++) {
            int m = firstPower + 2 * row;
            double fact = 1;
            for (int j = 2; j <= m; j++) {
                fact *= j;
            }
            for (int k = 1; k <= h; k++) {
                a.set(row, k - 1, 2 * Math.pow(k, m) / fact);
            }
            b.set(row, 0, row == 0 ? 1 : 0);
        }
        DMatrixRMaj x = new DMatrixRMaj(h, 1);
        if (!CommonOps_DDRM.solve(a, b, x)) {
            throw new IllegalStateException("finite-difference system is singular for half-width " + h);
        }
        return x.data.clone();
    }
}
