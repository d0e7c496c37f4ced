package sweep.kernels;

/**
 * Slots of the {@code int[] geo} and {@code float[] coef} arrays that every kernel receives, so kernels take a
 * handful of primitive arrays instead of dozens of scalars (TornadoVM 5.2 tasks take at most 20 parameters).
 *
 * <p>Wavefield arrays hold the tile's computational grid (physical cells plus PML pads) surrounded by a halo of
 * {@code H = order/2} cells on every side; cell (z, y, x) of the computational grid sits at
 * {@code OFF0 + z*SZ + y*SY + x}; rows and planes may hold a few unused cells past the halo (the strides are
 * padded off multiples of 4 KiB, see the Java backend's grid). In 2-D, NY is 1 and y is 0. PML bands of axis a are the cells with index
 * below {@code ?BL} or at/above {@code ?BH} (local indices, derived from global positions).
 *
 * <p>{@code prof} holds the CPML decay {@code a} and update {@code b} per cell index of each axis:
 * {@code [az(NZ) bz(NZ) ay(NY) by(NY) ax(NX) bx(NX)]}. {@code coef} holds, per axis slot a (0 = z, 1 = y,
 * 2 = x), the second-derivative weights divided by dh² at {@code a*(H+1)+k}, k = 0..H, the first-derivative
 * weights divided by dh at {@code D1 + a*H + k-1}, k = 1..H, and the summed centre weight at {@code C00}.
 * PML auxiliaries psi and zeta are packed per axis: slot a at {@code a*len + i} (2-D: z = 0, x = 1).
 */
public final class Layout {
    private Layout() {
    }

    public static final int NDIM = 0;
    public static final int H = 1;
    public static final int NZ = 2;
    public static final int NY = 3;
    public static final int NX = 4;
    public static final int SZ = 5;
    public static final int SY = 6;
    public static final int ZBL = 7;
    public static final int ZBH = 8;
    public static final int YBL = 9;
    public static final int YBH = 10;
    public static final int XBL = 11;
    public static final int XBH = 12;
    public static final int OFF0 = 13;
    public static final int LEN = 14;
    /** Number of int slots in {@code geo}. */
    public static final int GEO_SIZE = 15;

    /** Offset of the first-derivative weights in {@code coef} for half-width h. */
    public static int d1(int h) {
        return 3 * (h + 1);
    }

    /** Offset of the summed centre weight in {@code coef} for half-width h. */
    public static int c00(int h) {
        return 3 * (h + 1) + 3 * h;
    }

    /** Length of {@code coef} for half-width h. */
    public static int coefSize(int h) {
        return c00(h) + 1;
    }
}
