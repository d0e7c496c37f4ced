package sweep.prop;

import java.util.Arrays;

/**
 * The box of the global model's cells a solver is given: its tile, widened on each side that faces another tile by the
 * equation's model margin ({@link sweep.equation.WaveEquation#modelMargin}) and clipped to the model. A single domain's window is
 * the whole model; an acoustic tile's is the tile. Arrays over a window are row-major, z first, x fastest; a cell is
 * named by its global index. Depth is never split, so the window always spans every z.
 */
public record CellWindow(int[] origin, int[] shape) {
    public CellWindow {
        origin = origin.clone();
        shape = shape.clone();
    }

    /** The window of {@code grid}'s tile for a model margin of {@code margin} cells. */
    public static CellWindow of(Grid grid, int margin) {
        int[] full = grid.spec.shape();
        int[] off = grid.tileOffset();
        int[] ts = grid.tileShape();
        int nd = full.length;
        int[] o = new int[nd];
        int[] s = new int[nd];
        for (int a = 0; a < nd; a++) {
            int lo = Math.max(0, off[a] - margin);
            int hi = Math.min(full[a], off[a] + ts[a] + margin);
            o[a] = lo;
            s[a] = hi - lo;
        }
        return new CellWindow(o, s);
    }

    /** Cells in the window. */
    public int cells() {
        long c = 1;
        for (int n : shape) {
            c *= n;
        }
        if (c > MemoryEstimate.MAX_ARRAY) {
            throw new IllegalArgumentException("the model window " + Arrays.toString(shape) + " holds " + c
                    + " cells, more than a Java array holds: split the model across more ranks");
        }
        return (int) c;
    }

    /** Whether the window is the whole model of {@code fullShape}. */
    public boolean isWhole(int[] fullShape) {
        return Arrays.equals(shape, fullShape);
    }

    /**
     * Flat index in a window array of the global cell (z, y, x) (y = 0 in 2-D); the cell must lie in the window.
     */
    public int index(int z, int y, int x) {
        int nd = shape.length;
        int wy = nd == 3 ? shape[1] : 1;
        int oy = nd == 3 ? origin[1] : 0;
        return ((z - origin[0]) * wy + (y - oy)) * shape[nd - 1] + (x - origin[nd - 1]);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CellWindow w && Arrays.equals(origin, w.origin) && Arrays.equals(shape, w.shape);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(origin) + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return "CellWindow" + Arrays.toString(shape) + "@" + Arrays.toString(origin);
    }
}
