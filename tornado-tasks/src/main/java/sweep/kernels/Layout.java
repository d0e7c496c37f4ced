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
 *
 * <p>The CPML auxiliaries of the forward step (psi, zeta) and of the adjoint (psib, zetab, cor, pb) hold, per axis
 * slot a, only the cells whose coordinate c along a lies in {@code [−H, aBL + 2H)} or {@code [aBH − 2H, Na + H)}: the
 * band and the cells beyond it that the stencils read (the forward psi H cells, the adjoint's λ 2H), which stay zero.
 * Cell (z, y, x) of slot a sits at
 * {@code (c < aBL + H ? geo[aux(a)] : geo[aux(a) + 1]) + z*geo[aux(a) + 2] + y*geo[aux(a) + 3] + x} (for band cells
 * {@code c < aBL} picks the same slab): the low and the high slab each have a base, and the gap between them is not
 * stored. The z slot keeps the wavefield's strides and the y slot its row stride (so code that walks a wavefield row
 * walks the auxiliary's row with the same steps, from another start); the x slot has short rows of its own. Slots
 * follow one another in one array of {@code AUX_LEN} floats (2-D: z and x; the y slot has no cells).
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
    /** First of the four slots per axis slot that place the CPML auxiliaries ({@link #aux}). */
    public static final int AUX = 15;
    /** Length of a CPML auxiliary array: all axis slots' band slabs. */
    public static final int AUX_LEN = 27;
    /** Number of int slots in {@code geo}. */
    public static final int GEO_SIZE = 28;

    /**
     * Slot in {@code geo} of the low slab's base of CPML axis slot a (0 = z, 1 = y, 2 = x); the high slab's base, the
     * z stride and the y stride follow it.
     */
    public static int aux(int a) {
        return AUX + 4 * a;
    }

    /**
     * Index in a CPML auxiliary array of computational cell (z, y, x) in the slab of axis slot a (0 = z, 1 = y, 2 = x):
     * valid for cells in the band or within H of it, and, added to, for their neighbours up to H along a.
     */
    public static int auxIndex(int[] geo, int a, int z, int y, int x) {
        int c = a == 0 ? z : a == 1 ? y : x;
        int s = aux(a);
        return (c < geo[ZBL + 2 * a] + geo[H] ? geo[s] : geo[s + 1]) + z * geo[s + 2] + y * geo[s + 3] + x;
    }

    /**
     * {@link #auxIndex} less the wavefield index of the same cell: added to a wavefield index it gives the auxiliary's,
     * the same for every cell of one row segment inside one band.
     */
    public static int auxShift(int[] geo, int a, int z, int y, int x) {
        return auxIndex(geo, a, z, y, x) - (geo[OFF0] + z * geo[SZ] + y * geo[SY] + x);
    }

    /**
     * Fills the {@link #aux} slots and {@link #AUX_LEN} of {@code geo} from its sizes, bands, strides and {@code OFF0}
     * and returns the auxiliaries' length (when it exceeds an int, the slots are not valid). The z slabs are whole
     * planes of the wavefield layout and the y slabs whole rows of it; the x slabs are rows of their own, a whole
     * number of 64-byte lines long. Each slot ends with a line of slack for whole-vector reads past a row.
     */
    public static long placeAuxiliaries(int[] geo) {
        int ndim = geo[NDIM];
        int h = geo[H];
        int sz = geo[SZ];
        int sy = geo[SY];
        int off = geo[OFF0];
        int[] n3 = {geo[NZ], geo[NY], geo[NX]};
        int line = 16;
        long base = 0;
        for (int s = 0; s < 3; s++) {
            if (ndim == 2 && s == 1) {
                continue;
            }
            long gap = Math.max(0, geo[ZBH + 2 * s] - geo[ZBL + 2 * s] - 4 * h);
            long lo;
            long step;
            long strideZ;
            long strideY;
            long cells;
            if (s == 0) {
                // planes (2-D: rows) of the wavefield layout: from the array's start to the low slab's end, then
                // from the high slab's start to the array's end
                lo = base + off;
                step = sz;
                strideZ = sz;
                strideY = sy;
                cells = geo[LEN] - gap * sz;
            } else if (s == 1) {
                // rows of the wavefield layout (x at the same place in the row), y slabs per computational plane
                strideY = sy;
                strideZ = (n3[1] + 2L * h - gap) * sy;
                lo = base + off - (long) h * sz;
                step = sy;
                cells = n3[0] * strideZ + sy;
            } else {
                long row = (n3[2] + 2L * h - gap + line - 1) / line * line;
                strideY = ndim == 2 ? 0 : row;
                strideZ = n3[1] * row;
                lo = base + h;
                step = 1;
                cells = n3[0] * strideZ;
            }
            geo[aux(s)] = (int) lo;
            geo[aux(s) + 1] = (int) (lo - gap * step);
            geo[aux(s) + 2] = (int) strideZ;
            geo[aux(s) + 3] = (int) strideY;
            base += (cells + line - 1) / line * line + line;
        }
        geo[AUX_LEN] = (int) Math.min(base, Integer.MAX_VALUE);
        return base;
    }

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
