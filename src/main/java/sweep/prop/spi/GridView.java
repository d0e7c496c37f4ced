package sweep.prop.spi;

import java.util.ArrayList;
import java.util.List;
import sweep.core.Box;
import sweep.kernels.Layout;

/**
 * What a backend needs of a solver's grid, read-only: its sizes, the kernels' geometry and weight arrays, and the boxes
 * each pass of a time step runs over (PML slabs, interior, boundary-saving ring, the stencil-clear part of the
 * adjoint). Everything derives from the {@code geo} array (see {@link Layout}); {@code sweep.prop.Grid#view()} gives
 * a grid's.
 */
public final class GridView {
    private final int[] geo;
    private final float[] coef;
    private final boolean freeSurface;
    private final int ndim;
    private final int h;
    private final int nz;
    private final int ny;
    private final int nx;
    private final List<Box> pmlBoxes;
    private final Box interior;
    private final Box clearBox;
    private final List<Box> clearOuter;
    private final List<Box> ring;
    private final int ringSize;

    /**
     * A view of the grid of kernel geometry {@code geo} and weights {@code coef} (kept, not copied: backends pass these
     * very arrays to the kernels, and device plans rely on their identity).
     */
    public GridView(int[] geo, float[] coef, boolean freeSurface) {
        if (geo.length != Layout.GEO_SIZE) {
            throw new IllegalArgumentException("geo has " + geo.length + " slots; Layout.GEO_SIZE is "
                    + Layout.GEO_SIZE);
        }
        this.geo = geo;
        this.coef = coef;
        this.freeSurface = freeSurface;
        ndim = geo[Layout.NDIM];
        h = geo[Layout.H];
        nz = geo[Layout.NZ];
        ny = geo[Layout.NY];
        nx = geo[Layout.NX];
        pmlBoxes = List.copyOf(outerBoxes(geo[Layout.ZBL], geo[Layout.ZBH], geo[Layout.YBL], geo[Layout.YBH],
                geo[Layout.XBL], geo[Layout.XBH]));
        interior = Box.orNull(geo[Layout.ZBL], geo[Layout.ZBH], geo[Layout.YBL], geo[Layout.YBH], geo[Layout.XBL],
                geo[Layout.XBH]);
        int[] lim = stencilClearLimits();
        clearBox = Box.orNull(lim[0], lim[1], lim[2], lim[3], lim[4], lim[5]);
        clearOuter = List.copyOf(outerBoxes(lim[0], lim[1], lim[2], lim[3], lim[4], lim[5]));
        ring = List.copyOf(computeRing());
        ringSize = Box.volume(ring);
    }

    /** Number of space dimensions. */
    public int ndim() {
        return ndim;
    }

    /** Stencil half-width (order/2): the halo width. */
    public int h() {
        return h;
    }

    /** Computational size along z (physical tile plus PML pads). */
    public int nz() {
        return nz;
    }

    /** Computational size along y (1 in 2-D). */
    public int ny() {
        return ny;
    }

    /** Computational size along x. */
    public int nx() {
        return nx;
    }

    /** Length of one wavefield array (computational grid, halo and row padding). */
    public int length() {
        return geo[Layout.LEN];
    }

    /** The kernels' geometry array ({@link Layout}): the grid's own, never to be written. */
    public int[] geo() {
        return geo;
    }

    /** The kernels' finite-difference weights ({@link Layout}): the grid's own, never to be written. */
    public float[] coef() {
        return coef;
    }

    /** Whether the top face is a free surface (the image method mirrors the wavefield above it). */
    public boolean freeSurface() {
        return freeSurface;
    }

    /** Length of one CPML auxiliary array: the band slabs of every axis ({@link Layout#aux}). */
    public int auxLength() {
        return geo[Layout.AUX_LEN];
    }

    /** Whether any cell lies in a PML band (then the CPML auxiliaries have {@link #auxLength()} floats). */
    public boolean hasPml() {
        return geo[Layout.ZBL] > 0 || geo[Layout.ZBH] < nz || geo[Layout.YBL] > 0 || geo[Layout.YBH] < ny
                || geo[Layout.XBL] > 0 || geo[Layout.XBH] < nx;
    }

    /** Boxes covering all PML-band cells exactly once (slabs: z, then y, then x). */
    public List<Box> pmlBoxes() {
        return pmlBoxes;
    }

    /** The box of cells outside every PML band, or null when empty. */
    public Box interiorBox() {
        return interior;
    }

    /** The whole computational grid as one box. */
    public Box allBox() {
        return new Box(0, nz, 0, ny, 0, nx);
    }

    /**
     * The box of cells whose stencil (half-width h) reaches no PML band, or null when empty: the interior box moved h
     * cells inwards on every side that has a band. The adjoint's λ runs the branch-free kernel there.
     */
    public Box stencilClearBox() {
        return clearBox;
    }

    /** Boxes covering every cell outside {@link #stencilClearBox()} exactly once (the adjoint's general λ kernel). */
    public List<Box> stencilClearOuter() {
        return clearOuter;
    }

    /**
     * The ring for boundary saving: the h band cells next to each face of the interior box (no corners: the stencil is
     * a star), i.e. exactly the band cells that interior stencils read; packed box after box, each in (z, y, x) order.
     */
    public List<Box> ringBoxes() {
        return ring;
    }

    /** Cells of the ring ({@link #ringBoxes()}). */
    public int ringSize() {
        return ringSize;
    }

    /**
     * Limits [zbl, zbh, ybl, ybh, xbl, xbh] of the cells whose stencil reaches no PML band: the band limits moved h
     * cells inwards on every side that has a band.
     */
    private int[] stencilClearLimits() {
        int[] n3 = {nz, ny, nx};
        int[] lim = {geo[Layout.ZBL], geo[Layout.ZBH], geo[Layout.YBL], geo[Layout.YBH], geo[Layout.XBL],
            geo[Layout.XBH]};
        for (int s = 0; s < 3; s++) {
            int lo = lim[2 * s] > 0 ? Math.min(lim[2 * s] + h, n3[s]) : 0;
            int hi = lim[2 * s + 1] < n3[s] ? Math.max(lim[2 * s + 1] - h, 0) : n3[s];
            lim[2 * s] = lo;
            lim[2 * s + 1] = Math.max(lo, hi);
        }
        return lim;
    }

    /**
     * Boxes covering the cells of the grid outside the inner box [zbl, zbh) × [ybl, ybh) × [xbl, xbh) exactly once
     * (z slabs, then y, then x).
     */
    public List<Box> outerBoxes(int zbl, int zbh, int ybl, int ybh, int xbl, int xbh) {
        List<Box> boxes = new ArrayList<>();
        Box.addIfCells(boxes, 0, zbl, 0, ny, 0, nx);
        Box.addIfCells(boxes, zbh, nz, 0, ny, 0, nx);
        Box.addIfCells(boxes, zbl, zbh, 0, ybl, 0, nx);
        Box.addIfCells(boxes, zbl, zbh, ybh, ny, 0, nx);
        Box.addIfCells(boxes, zbl, zbh, ybl, ybh, 0, xbl);
        Box.addIfCells(boxes, zbl, zbh, ybl, ybh, xbh, nx);
        return boxes;
    }

    private List<Box> computeRing() {
        List<Box> boxes = new ArrayList<>();
        Box in = interior;
        if (in == null) {
            return boxes;
        }
        if (in.z0() > 0) {
            boxes.add(new Box(Math.max(0, in.z0() - h), in.z0(), in.y0(), in.y1(), in.x0(), in.x1()));
        }
        if (in.z1() < nz) {
            boxes.add(new Box(in.z1(), Math.min(nz, in.z1() + h), in.y0(), in.y1(), in.x0(), in.x1()));
        }
        if (in.y0() > 0) {
            boxes.add(new Box(in.z0(), in.z1(), Math.max(0, in.y0() - h), in.y0(), in.x0(), in.x1()));
        }
        if (in.y1() < ny) {
            boxes.add(new Box(in.z0(), in.z1(), in.y1(), Math.min(ny, in.y1() + h), in.x0(), in.x1()));
        }
        if (in.x0() > 0) {
            boxes.add(new Box(in.z0(), in.z1(), in.y0(), in.y1(), Math.max(0, in.x0() - h), in.x0()));
        }
        if (in.x1() < nx) {
            boxes.add(new Box(in.z0(), in.z1(), in.y0(), in.y1(), in.x1(), Math.min(nx, in.x1() + h)));
        }
        return boxes;
    }
}
