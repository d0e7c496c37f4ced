package sweep.prop;

import java.util.Arrays;
import sweep.core.FdWeights;
import sweep.kernels.Layout;
import sweep.prop.spi.GridView;

/**
 * Geometry of one solver's computational grid: a tile of the physical model (the whole model for a single domain)
 * plus its CPML pads, with a halo of order/2 cells around it, and the kernel arrays ({@code geo}, {@code coef},
 * CPML {@code prof}) derived from global positions so that a tile computes each cell exactly as one domain would.
 */
public final class Grid {
    /** The spec this grid was made from. */
    public final PropSpec spec;
    /** Number of space dimensions. */
    public final int ndim;
    /** Halo width: half the spatial order. */
    public final int h;
    /** Computational sizes per slot z, y, x (y = 1 in 2-D). */
    public final int nz;
    public final int ny;
    public final int nx;
    /** Computational index of the tile's first physical cell per slot (= low-side PML width). */
    public final int pz0;
    public final int py0;
    public final int px0;
    /** Physical tile sizes per slot. */
    public final int tz;
    public final int ty;
    public final int tx;
    /** The kernels' geometry array (slots in {@code sweep.kernels.Layout}); read-only by convention. */
    public final int[] geo;
    /** The kernels' coefficient array (slots in {@code sweep.kernels.Layout}); read-only by convention. */
    public final float[] coef;
    /** Global computational offset of computational cell 0, per slot. */
    private final int[] gOff;
    /** Global computational size and band widths per slot. */
    private final int[] gN;
    private final int[] gWlo;
    private final int[] gWhi;
    private final GridView view;

    /** Single-domain grid: the whole physical model with the spec's absorbing widths. */
    public static Grid single(PropSpec spec) {
        int[] off = new int[spec.ndim()];
        return new Grid(spec, off, spec.shape(), spec.globalPmlWidths());
    }

    /**
     * Grid of a tile: physical offset and shape (z first, shape order of the spec) and per-side absorbing widths in
     * SWEEP order; a side's width must be the global width on a true edge and 0 on a cut.
     */
    public Grid(PropSpec spec, int[] tileOffset, int[] tileShape, int[] pmlWidths) {
        this.spec = spec;
        this.ndim = spec.ndim();
        this.h = FdWeights.halfWidth(spec.order());
        int[] shape = spec.shape();
        int[] gw = spec.globalPmlWidths();
        if (tileOffset.length != ndim || tileShape.length != ndim || pmlWidths.length != 2 * ndim) {
            throw new IllegalArgumentException("tile offset/shape need " + ndim + " entries and pml widths "
                    + 2 * ndim);
        }
        int[] s3 = to3(tileShape, 1);
        int[] o3 = to3(tileOffset, 0);
        int[] full3 = to3(shape, 1);
        int[] wlo = new int[3];
        int[] whi = new int[3];
        int[] gwlo = new int[3];
        int[] gwhi = new int[3];
        for (int a = 0; a < ndim; a++) {
            int slot = ndim == 2 && a == 1 ? 2 : a;
            wlo[slot] = pmlWidths[2 * a];
            whi[slot] = pmlWidths[2 * a + 1];
            gwlo[slot] = gw[2 * a];
            gwhi[slot] = gw[2 * a + 1];
        }
        gOff = new int[3];
        gN = new int[3];
        for (int s = 0; s < 3; s++) {
            if (o3[s] < 0 || s3[s] < 1 || o3[s] + s3[s] > full3[s]) {
                throw new IllegalArgumentException("tile offset " + Arrays.toString(tileOffset) + " shape "
                        + Arrays.toString(tileShape) + " lies outside the model " + Arrays.toString(shape));
            }
            boolean lowEdge = o3[s] == 0;
            boolean highEdge = o3[s] + s3[s] == full3[s];
            if (wlo[s] != (lowEdge ? gwlo[s] : 0) || whi[s] != (highEdge ? gwhi[s] : 0)) {
                throw new IllegalArgumentException("pml widths " + Arrays.toString(pmlWidths)
                        + " do not match the tile position: a true edge carries the global width "
                        + Arrays.toString(gw) + ", a cut carries 0");
            }
            gOff[s] = gwlo[s] + o3[s] - wlo[s];
            gN[s] = gwlo[s] + full3[s] + gwhi[s];
        }
        this.gWlo = gwlo;
        this.gWhi = gwhi;
        tz = s3[0];
        ty = s3[1];
        tx = s3[2];
        pz0 = wlo[0];
        py0 = wlo[1];
        px0 = wlo[2];
        nz = tz + wlo[0] + whi[0];
        ny = ty + wlo[1] + whi[1];
        nx = tx + wlo[2] + whi[2];

        geo = new int[Layout.GEO_SIZE];
        geo[Layout.NDIM] = ndim;
        geo[Layout.H] = h;
        geo[Layout.NZ] = nz;
        geo[Layout.NY] = ny;
        geo[Layout.NX] = nx;
        int[] bl = new int[3];
        int[] bh = new int[3];
        int[] n3 = {nz, ny, nx};
        for (int s = 0; s < 3; s++) {
            bl[s] = clamp(gwlo[s] - gOff[s], 0, n3[s]);
            bh[s] = clamp(gN[s] - gwhi[s] - gOff[s], bl[s], n3[s]);
        }
        geo[Layout.ZBL] = bl[0];
        geo[Layout.ZBH] = bh[0];
        geo[Layout.YBL] = bl[1];
        geo[Layout.YBH] = bh[1];
        geo[Layout.XBL] = bl[2];
        geo[Layout.XBH] = bh[2];
        long[] pad = pads(nx + 2L * h, ny + 2L * h, ndim, h);
        long nxa = nx + 2L * h + pad[0];
        long len;
        long off;
        if (ndim == 2) {
            geo[Layout.SZ] = (int) nxa;
            geo[Layout.SY] = 0;
            len = (nz + 2L * h) * nxa;
            off = h * nxa + h;
        } else {
            long nya = ny + 2L * h + pad[1];
            geo[Layout.SY] = (int) nxa;
            geo[Layout.SZ] = (int) (nya * nxa);
            len = (nz + 2L * h) * nya * nxa;
            off = h * nya * nxa + h * nxa + h;
        }
        // the acoustic row passes start their vectors at the low x band's end; the elastic ones measured no faster
        // (3-D a few per cent slower) with the grid moved, so only their rows are whole lines
        boolean move = ALIGN && nxa % ALIGN_FLOATS == 0 && spec.equation().alignsInteriorRows();
        long shift = move ? alignShift(off + bl[2]) : 0;
        if (shift > 0) {
            // whole lines again, so that arrays holding several fields (CPML axis slots, elastic components) one
            // length apart keep every field aligned
            len += ALIGN_FLOATS;
        }
        len += lengthPad(len);
        if (len > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("grid of " + len
                    + " cells (with PML and halo) exceeds Java's array limit;"
                    + " split the model across ranks (domain decomposition)");
        }
        geo[Layout.OFF0] = (int) (off + shift);
        geo[Layout.LEN] = (int) len;
        if (Layout.placeAuxiliaries(geo) > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("CPML auxiliaries of this grid exceed Java's array limit;"
                    + " split the model across ranks (domain decomposition)");
        }

        coef = new float[Layout.coefSize(h)];
        double[] c2 = FdWeights.second(spec.order());
        double[] c1 = FdWeights.first(spec.order());
        double[] dh = spec.dh();
        double c00 = 0;
        for (int a = 0; a < ndim; a++) {
            int slot = ndim == 2 && a == 1 ? 2 : a;
            double d = dh[a];
            for (int k = 0; k <= h; k++) {
                coef[slot * (h + 1) + k] = (float) (c2[k] / (d * d));
            }
            for (int k = 1; k <= h; k++) {
                coef[Layout.d1(h) + slot * h + k - 1] = (float) (c1[k] / d);
            }
            c00 += c2[0] / (d * d);
        }
        coef[Layout.c00(h)] = (float) c00;
        view = new GridView(geo, coef, spec.freeSurface());
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private int[] to3(int[] a, int fill) {
        return ndim == 3 ? a.clone() : new int[] {a[0], fill, a[1]};
    }

    /** Number of space dimensions. */
    public int ndim() {
        return ndim;
    }

    /** Computational size (physical tile plus PML pads) along z. */
    public int nz() {
        return view.nz();
    }

    /** Computational size along y (1 in 2-D). */
    public int ny() {
        return view.ny();
    }

    /** Computational size along x. */
    public int nx() {
        return view.nx();
    }

    /** Physical tile sizes along z, y (1 in 2-D) and x. */
    public int[] tileShape() {
        return ndim == 2 ? new int[] {tz, tx} : new int[] {tz, ty, tx};
    }

    /** Global position (model order, z first) of the tile's first physical cell: 0 for a single domain. */
    public int[] tileOffset() {
        int oz = gOff[0] - gWlo[0] + pz0;
        int oy = gOff[1] - gWlo[1] + py0;
        int ox = gOff[2] - gWlo[2] + px0;
        return ndim == 2 ? new int[] {oz, ox} : new int[] {oz, oy, ox};
    }

    // The layout of a wavefield array, for solvers written outside this package (an equation's own solver lays its
    // arrays out as this grid does, so that a HaloHook can exchange them). Axes are numbered as the model's: 0 = z,
    // then y (3-D), then x last; a computational cell is a physical cell of the tile or of its PML pads.

    /** Halo width: cells beyond the computational grid on every side of a wavefield array (order/2). */
    public int haloWidth() {
        return h;
    }

    /** Array index step from computational cell (z, y, x) to (z + 1, y, x). */
    public int strideZ() {
        return geo[Layout.SZ];
    }

    /** Array index step from computational cell (z, y, x) to (z, y + 1, x); 0 in 2-D. Along x the step is 1. */
    public int strideY() {
        return geo[Layout.SY];
    }

    /**
     * PML widths of this grid per side, SWEEP order {@code [z_lo, z_hi, (y_lo, y_hi,) x_lo, x_hi]}: the spec's global
     * width on a true edge ({@link PropSpec#globalPmlWidths()}), 0 on a side cut towards another tile. The tile's first
     * physical cell is computational cell (z_lo, y_lo, x_lo).
     */
    public int[] pmlWidths() {
        int[] lo = {pz0, py0, px0};
        int[] hi = {nz - tz - pz0, ny - ty - py0, nx - tx - px0};
        int[] w = new int[2 * ndim];
        for (int a = 0; a < ndim; a++) {
            int slot = ndim == 2 && a == 1 ? 2 : a;
            w[2 * a] = lo[slot];
            w[2 * a + 1] = hi[slot];
        }
        return w;
    }

    /**
     * The global physical index along model axis {@code axis} (0 = z, last = x) of computational index {@code i} of
     * this grid: negative in the global low PML pad, at or beyond the model's size in the high one. Per-cell data
     * (model values of the pads, CPML profiles) derived from it is the same on a tile as on one domain.
     */
    public int globalIndex(int axis, int i) {
        if (axis < 0 || axis >= ndim) {
            throw new IllegalArgumentException("axis " + axis + " of a " + ndim + "-D grid: use 0.." + (ndim - 1));
        }
        int slot = ndim == 2 && axis == 1 ? 2 : axis;
        return i + gOff[slot] - gWlo[slot];
    }

    /** A copy of the kernels' geometry array (see {@code sweep.kernels.Layout}). */
    public int[] geo() {
        return geo.clone();
    }

    /** Total length of one wavefield array (computational grid plus halo). */
    public int length() {
        return geo[Layout.LEN];
    }

    /** Whether any cell of this grid lies in a PML band. */
    public boolean hasPml() {
        return view.hasPml();
    }

    /** What backends need of this grid (sizes, kernel arrays, the boxes of each pass), read-only. */
    public GridView view() {
        return view;
    }

    /** Array index of tile-physical cell (z, y, x); y = 0 in 2-D. */
    public int index(int z, int y, int x) {
        return geo[Layout.OFF0] + (z + pz0) * geo[Layout.SZ] + (y + py0) * geo[Layout.SY] + (x + px0);
    }

    /** Length of a CPML auxiliary array (psi, zeta, psib, zetab): the band slabs of every axis ({@link Layout#aux}). */
    public int auxLength() {
        return geo[Layout.AUX_LEN];
    }

    /**
     * Index in a CPML auxiliary array of computational cell (z, y, x), y = 0 in 2-D, in the slab of axis slot {@code s}
     * (0 = z, 1 = y, 2 = x): for cells in the band or within h of it ({@link Layout#auxIndex}).
     */
    public int auxIndex(int s, int z, int y, int x) {
        return Layout.auxIndex(geo, s, z, y, x);
    }

    /**
     * The CPML auxiliary indices ({@link #auxIndex}) of axis slot {@code s} of every computational cell whose coordinate
     * along s lies in the axis's bands or within {@code beyond} (0..h) cells of them, in (z, y, x) order.
     */
    public int[] auxCells(int s, int beyond) {
        int lo = geo[Layout.ZBL + 2 * s] + beyond;
        int hi = geo[Layout.ZBH + 2 * s] - beyond;
        int[] out = new int[nz * ny * nx];
        int n = 0;
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    int c = s == 0 ? z : s == 1 ? y : x;
                    if (c < lo || c >= hi) {
                        out[n++] = auxIndex(s, z, y, x);
                    }
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * Zeroes, in rows z of [z0, z1), the band cells of each axis slot of the CPML auxiliary {@code a}
     * ({@link #auxLength()} floats): the cells its kernels write. The rest is never written and stays +0.0f, the zeros
     * the stencil reads beyond a band.
     */
    public void clearBandCells(float[] a, int z0, int z1) {
        if (!hasPml()) {
            return; // the auxiliaries are not allocated
        }
        int[] lo = {geo[Layout.ZBL], geo[Layout.YBL], geo[Layout.XBL]};
        int[] hi = {geo[Layout.ZBH], geo[Layout.YBH], geo[Layout.XBH]};
        for (int s = 0; s < 3; s++) {
            if (ndim == 2 && s == 1) {
                continue;
            }
            for (int z = z0; z < z1; z++) {
                for (int y = 0; y < ny; y++) {
                    if (s == 0 && (z < lo[0] || z >= hi[0]) || s == 1 && (y < lo[1] || y >= hi[1])) {
                        int i = auxIndex(s, z, y, 0);
                        Arrays.fill(a, i, i + nx, 0f);
                    } else if (s == 2 && lo[2] > 0) {
                        int i = auxIndex(2, z, y, 0);
                        Arrays.fill(a, i, i + lo[2], 0f);
                    }
                    if (s == 2 && hi[2] < nx) {
                        int j = auxIndex(2, z, y, hi[2]);
                        Arrays.fill(a, j, j + nx - hi[2], 0f);
                    }
                }
            }
        }
    }

    /**
     * Global placement along slot {@code s} (0 = z, 1 = y, 2 = x): {global computational index of computational cell 0,
     * global computational size, global low and high band widths}; the global physical index of computational cell i
     * is {@code i + [0] − [2]}. For solvers that derive their own per-cell data from global positions.
     */
    public int[] globalAxis(int s) {
        return new int[] {gOff[s], gN[s], gWlo[s], gWhi[s]};
    }

    /**
     * Array index in a wavefield array ({@link #length()} floats) of computational cell (z, y, x), y = 0 in 2-D: 0 is
     * the first cell of the low PML pad; −{@link #haloWidth()} .. −1 and {@code nz() .. nz() + haloWidth() − 1}
     * (likewise along y and x) reach the halo.
     */
    public int compIndex(int z, int y, int x) {
        return geo[Layout.OFF0] + z * geo[Layout.SZ] + y * geo[Layout.SY] + x;
    }

    /**
     * Unused floats after the profiles: the Vector API kernels read the x profiles of a row segment in whole vectors,
     * up to a vector past its last cell (without them they take a slower path for the segment at the high x end).
     */
    public static final int PROFILE_PAD = 16;

    /**
     * CPML profiles {@code [az bz ay by ax bx]} (then {@link #PROFILE_PAD} zeros) for velocity {@code vmax}, each entry
     * computed in double from the cell's global position: sigma = sigma_max·f², alpha = π·pmlFreq·(1 − f) with f the
     * fractional depth into the band, a = exp(−(sigma + alpha)·dt), b = sigma/(sigma + alpha)·(a − 1).
     */
    public float[] profiles(double vmax) {
        int[] n3 = {nz, ny, nx};
        float[] prof = new float[2 * (nz + ny + nx) + PROFILE_PAD];
        double[] dh = spec.dh();
        int base = 0;
        for (int s = 0; s < 3; s++) {
            int axis = ndim == 2 ? (s == 2 ? 1 : 0) : s;
            double d = dh[axis];
            for (int i = 0; i < n3[s]; i++) {
                int g = gOff[s] + i;
                double frac;
                int w;
                if (g < gWlo[s]) {
                    w = gWlo[s];
                    frac = (double) (gWlo[s] - g) / w;
                } else if (g >= gN[s] - gWhi[s]) {
                    w = gWhi[s];
                    frac = (double) (g - (gN[s] - gWhi[s]) + 1) / w;
                } else {
                    continue;
                }
                setProfile(prof, base + i, base + n3[s] + i, frac, w, d, vmax);
            }
            base += 2 * n3[s];
        }
        return prof;
    }

    /**
     * CPML profiles of a staggered grid for velocity {@code vmax}: per axis slot z, y, x ({@code n} its cell count)
     * {@code [a(n) b(n) a½(n) b½(n)]}, the decay a and update b at the integer and at the half positions (the y slot
     * left 0 in 2-D), each computed in double from the node's global position with {@link #profiles}' formula, f the
     * fractional depth into the band, at most 1. The elastic and the variable-density acoustic solvers use them.
     */
    public float[] staggeredProfiles(double vmax) {
        int[] n3 = {nz, ny, nx};
        float[] prof = new float[4 * (nz + ny + nx)];
        double[] dh = spec.dh();
        int base = 0;
        for (int sl = 0; sl < 3; sl++) {
            int n = n3[sl];
            if (ndim == 3 || sl != 1) {
                int axis = ndim == 2 ? (sl == 2 ? 1 : 0) : sl;
                int first = gOff[sl];
                int size = gN[sl];
                int wlo = gWlo[sl];
                int whi = gWhi[sl];
                for (int i = 0; i < n; i++) {
                    int gi = first + i;
                    // integer position gi
                    double f = -1;
                    int w = 0;
                    if (gi < wlo) {
                        w = wlo;
                        f = (double) (wlo - gi) / w;
                    } else if (gi >= size - whi) {
                        w = whi;
                        f = (double) (gi - (size - whi) + 1) / w;
                    }
                    if (f > 0) {
                        setProfile(prof, base + i, base + n + i, f, w, dh[axis], vmax);
                    }
                    // half position gi + 1/2
                    f = -1;
                    if (gi < wlo) {
                        w = wlo;
                        f = (wlo - gi - 0.5) / w;
                    } else if (whi > 0 && gi >= size - whi - 1) {
                        w = whi;
                        f = Math.min(1.0, (gi - (size - whi) + 1.5) / w);
                    }
                    if (f > 0) {
                        setProfile(prof, base + 2 * n + i, base + 3 * n + i, f, w, dh[axis], vmax);
                    }
                }
            }
            base += 4 * n;
        }
        return prof;
    }

    /** The profile of fractional depth {@code frac} into a band of {@code w} cells of size d: a at ia, b at ib. */
    private void setProfile(float[] prof, int ia, int ib, double frac, int w, double d, double vmax) {
        double sigmaMax = -3.0 * vmax * Math.log(spec.pmlReflection()) / (2.0 * w * d);
        double sigma = sigmaMax * frac * frac;
        double alpha = Math.PI * spec.pmlFreq() * (1.0 - frac);
        double a = Math.exp(-(sigma + alpha) * spec.dt());
        double b = sigma + alpha > 0 ? sigma / (sigma + alpha) * (a - 1.0) : 0.0;
        prof[ia] = (float) a;
        prof[ib] = (float) b;
    }

    /**
     * System property: extra cells at the end of every row (x) of the padded grid instead of the automatic choice, and
     * no extra rows per plane nor cells per field ({@link #lengthPad}); tests use it to compare layouts (results do not
     * depend on the layout).
     */
    public static final String ROW_PAD_PROPERTY = "sweep.grid.rowpad";

    /**
     * Extra cells per row (x) and extra rows per plane (y, 3-D), fewest first, so that rows are whole 64-byte cache
     * lines (a multiple of {@link #ALIGN_FLOATS} floats, then so are planes) and the 2h rows and planes on either side
     * of a cell fall into other L1 cache sets than the cell's own: k times the row or plane stride, k = 1..2h, is
     * never within 64 bytes of a multiple of 4 KiB. (2-D 2000² with PML 20 and order 8 has rows of exactly 2048 floats,
     * so without padding all 2h + 1 rows of a stencil share one L1 set.)
     */
    static long[] pads(long nxa, long nya, int ndim, int h) {
        Integer forced = Integer.getInteger(ROW_PAD_PROPERTY);
        if (forced != null) {
            if (forced < 0) {
                throw new IllegalArgumentException("-D" + ROW_PAD_PROPERTY + " must be >= 0, got " + forced);
            }
            return new long[] {forced, 0};
        }
        long p = 0;
        while (p < 1024 && !((!ALIGN || (nxa + p) % ALIGN_FLOATS == 0) && spreads((nxa + p) * 4, h))) {
            p++;
        }
        p = p < 1024 ? p : 0;
        long q = 0;
        while (ndim == 3 && q < 1024 && !spreads((nya + q) * (nxa + p) * 4, h)) {
            q++;
        }
        return new long[] {p, q < 1024 ? q : 0};
    }

    /**
     * Extra cells at the end of a field of {@code len} cells (a multiple of {@link #ALIGN_FLOATS}), fewest first, so
     * that fields stored one, two or three lengths apart in one array (velocity components, elastic stresses) start at
     * least 1 KiB from each other modulo 4 KiB: cores compare loads with pending stores by the low 12 address bits
     * first, and fields on the same bits ran slower (2-D 2000², 2048 rows, lengths a multiple of 4 KiB: acoustic-vd
     * 16 %, elastic 20 %; fields 512 bytes apart gained half as much). None when {@link #ROW_PAD_PROPERTY} forces the
     * row padding or {@link #ALIGN} is off.
     */
    static long lengthPad(long len) {
        if (!ALIGN || Integer.getInteger(ROW_PAD_PROPERTY) != null) {
            return 0;
        }
        for (long p = 0; p < 1024; p += ALIGN_FLOATS) {
            if (apart((len + p) * 4)) {
                return p;
            }
        }
        return 0;
    }

    /** Whether k·bytes stays at least 1 KiB away from every multiple of 4 KiB for k = 1..3. */
    private static boolean apart(long bytes) {
        for (int k = 1; k <= 3; k++) {
            long m = k * bytes % 4096;
            if (m < 1024 || m > 4096 - 1024) {
                return false;
            }
        }
        return true;
    }

    /**
     * System property {@code sweep.grid.align}: {@code false} turns off the cache-line alignment of rows and of the
     * interior's first cell ({@link #pads}, {@link #alignShift}); for comparing layouts (results do not depend on it).
     */
    static final boolean ALIGN = !"false".equals(System.getProperty("sweep.grid.align"));

    /** Floats per 64-byte cache line: rows and planes are padded to multiples of it (see {@link #pads}). */
    static final int ALIGN_FLOATS = 16;

    /**
     * Bytes from the start of a {@code float[]} object to its first element: 16 on 64-bit HotSpot with compressed class
     * pointers (the default). G1 puts every array of a real grid (over half a heap region) at the start of a region,
     * so element i lies at a 64-byte boundary when 16 + 4i is a multiple of 64. Only speed depends on this.
     */
    static final int ARRAY_BASE_BYTES = 16;

    /**
     * Cells to move the grid by (0..15) so that the cell at flat index {@code index} starts a 64-byte cache line: the
     * vectors of the kernels' row segments that start there (the interior, from the low x band's end) then load
     * whole lines, as do their neighbours one row or plane away. Unaligned 64-byte vectors straddle two lines on
     * every load (docs/performance.md, alignment).
     */
    static long alignShift(long index) {
        long first = ((64 - ARRAY_BASE_BYTES) / 4) % ALIGN_FLOATS; // the first aligned element
        return Math.floorMod(first - index, ALIGN_FLOATS);
    }

    /** Whether k·stride (bytes) stays at least 64 bytes away from every multiple of 4 KiB for k = 1..2h. */
    private static boolean spreads(long stride, int h) {
        for (int k = 1; k <= 2 * h; k++) {
            long m = k * stride % 4096;
            if (m < 64 || m > 4096 - 64) {
                return false;
            }
        }
        return true;
    }

    /**
     * Array indices of tile-physical cells given as source/receiver coordinates (x, z) or (x, y, z) (for the elastic
     * solver: of the first component slot), checked: a coordinate list of the wrong length or a cell off the tile is
     * refused, naming {@code what} (e.g. "source"), its position in the list and {@code shot}.
     */
    public int[] cellIndices(int[][] coords, String what, int shot) {
        int[] idx = new int[coords.length];
        int nd = ndim;
        for (int p = 0; p < coords.length; p++) {
            int[] c = coords[p];
            if (c == null || c.length != nd) {
                throw new IllegalArgumentException(what + " " + p + " of shot " + shot + " has "
                        + (c == null ? "no" : String.valueOf(c.length)) + " coordinates; expected " + nd
                        + (nd == 2 ? " (x, z)" : " (x, y, z)"));
            }
            int x = c[0];
            int y = nd == 3 ? c[1] : 0;
            int z = c[nd - 1];
            if (x < 0 || x >= tx || y < 0 || y >= ty || z < 0 || z >= tz) {
                throw new IllegalArgumentException(what + " " + p + " of shot " + shot + " at " + Arrays.toString(c)
                        + " lies outside the grid: coordinates are " + (nd == 2 ? "(x, z)" : "(x, y, z)")
                        + " cell indices with x < " + tx + (nd == 3 ? ", y < " + ty : "") + ", z < " + tz);
            }
            idx[p] = index(z, y, x);
        }
        return idx;
    }
}
