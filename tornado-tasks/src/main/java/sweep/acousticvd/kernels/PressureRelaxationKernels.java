package sweep.acousticvd.kernels;

import sweep.kernels.Layout;
import sweep.kernels.Parallel;

/**
 * The memory variables of L relaxation mechanisms at the pressure nodes (a {@code sweep.acousticvd.PressureRelaxation},
 * e.g. the standard linear solids of the visco-acoustic equation), run after the variable-density acoustic pressure
 * update of the same cells (which leaves each cell's divergence bracket e, the term it multiplied by the node's
 * coefficient, in {@code div}). Per cell and mechanism l, Crank–Nicolson on τσ_l·∂r_l/∂t = M_R·τ_l·e − r_l with
 * s_l = dt·r_l: s_l' = α_l·s_l + c_l·e and p ← p + (s_l' + s_l)/2, mechanism after mechanism;
 * α_l = (1 − a_l)/(1 + a_l), a_l = dt/(2τσ_l), and {@code c} holds c_l = dt·M_R·τ_l·2a_l/(1 + a_l) per cell. The
 * kernels update the cells [z0, z1) × [y0, y1) × [x0, x1) of the computational grid; every cell on its own, so any
 * split gives the same bits.
 *
 * <p>Arrays have {@code sweep.kernels.Layout}'s layout ({@code geo} the grid's geometry); the memory variables and
 * their coefficients are packed per mechanism, mechanism l at {@code l·LEN + i}; {@code alpha} holds α_l;
 * {@code div} is indexed by the computational cell c = (z·NY + y)·NX + x from {@code divOff}, as the
 * variable-density kernels tape their pressure bracket.
 */
public final class PressureRelaxationKernels {
    private PressureRelaxationKernels() {
    }

    /** The memory update and its share of the pressure, mechanism after mechanism (see the class documentation). */
    public static void memory(float[] p, float[] s, float[] c, float[] alpha, float[] div, int divOff, int[] geo,
                              int nmech, int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    float e = div[divOff + (z * ny + y) * nx + x];
                    float q = p[i];
                    for (int l = 0; l < nmech; l++) {
                        int j = l * len + i;
                        float old = s[j];
                        float next = alpha[l] * old + c[j] * e;
                        q = q + (next + old) * 0.5f;
                        s[j] = next;
                    }
                    p[i] = q;
                }
            }
        }
    }

    /**
     * Transpose of {@link #memory} for the adjoint pressure p̄ and memory variables s̄ (after the step):
     * mechanism by mechanism t_l = s̄_l + p̄/2, s̄_l ← α_l·t_l + p̄/2; p̄ is unchanged; {@code divBar} (indexed as
     * {@code div}) receives Σ_l c_l·t_l, the memory's share of the adjoint divergence bracket, and the node gradient
     * dJ/dc_l += e·t_l.
     */
    public static void memoryTranspose(float[] pb, float[] sb, float[] c, float[] alpha, float[] div, int divOff,
                                       float[] gc, float[] divBar, int[] geo, int nmech, int z0, int z1, int y0,
                                       int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int i = off + z * sz + y * sy + x;
                    int cell = (z * ny + y) * nx + x;
                    float e = div[divOff + cell];
                    float half = pb[i] * 0.5f;
                    float acc = 0.0f;
                    for (int l = 0; l < nmech; l++) {
                        int j = l * len + i;
                        float t = sb[j] + half;
                        sb[j] = alpha[l] * t + half;
                        acc = acc + c[j] * t;
                        gc[j] = gc[j] + e * t;
                    }
                    divBar[cell] = acc;
                }
            }
        }
    }
}
