package sweep.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A box of cells of a computational grid: the half-open index ranges [z0, z1) × [y0, y1) × [x0, x1) (in 2-D y0 = 0,
 * y1 = 1). Solvers and backends pass boxes; the kernels take the six bounds as scalars.
 */
public record Box(int z0, int z1, int y0, int y1, int x0, int x1) {
    /** The box of these bounds, or null when it holds no cell. */
    public static Box orNull(int z0, int z1, int y0, int y1, int x0, int x1) {
        return z0 < z1 && y0 < y1 && x0 < x1 ? new Box(z0, z1, y0, y1, x0, x1) : null;
    }

    /** The box {@code {z0, z1, y0, y1, x0, x1}}. */
    public static Box of(int[] bounds) {
        if (bounds.length != 6) {
            throw new IllegalArgumentException("a box has 6 bounds {z0, z1, y0, y1, x0, x1}, got " + bounds.length);
        }
        return new Box(bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5]);
    }

    /** Number of cells. */
    public long volume() {
        return (long) (z1 - z0) * (y1 - y0) * (x1 - x0);
    }

    /** Cells in all the boxes together, as an array length (fails beyond 2^31 − 1). */
    public static int volume(Iterable<Box> boxes) {
        long n = 0;
        for (Box b : boxes) {
            n += b.volume();
        }
        return Math.toIntExact(n);
    }

    /** Whether cell (z, y, x) lies in this box. */
    public boolean contains(int z, int y, int x) {
        return z >= z0 && z < z1 && y >= y0 && y < y1 && x >= x0 && x < x1;
    }

    /** This box with the y range [ya, ye) instead of its own. */
    public Box withY(int ya, int ye) {
        return new Box(z0, z1, ya, ye, x0, x1);
    }

    /**
     * Boxes covering the cells of this box that are not in {@code inner} exactly once (z slabs, then y, then x);
     * {@code inner} must lie inside this box; null means empty (then the result is this box alone).
     */
    public List<Box> minus(Box inner) {
        List<Box> boxes = new ArrayList<>();
        if (inner == null) {
            boxes.add(this);
            return boxes;
        }
        Box n = inner;
        addIfCells(boxes, z0, n.z0, y0, y1, x0, x1);
        addIfCells(boxes, n.z1, z1, y0, y1, x0, x1);
        addIfCells(boxes, n.z0, n.z1, y0, n.y0, x0, x1);
        addIfCells(boxes, n.z0, n.z1, n.y1, y1, x0, x1);
        addIfCells(boxes, n.z0, n.z1, n.y0, n.y1, x0, n.x0);
        addIfCells(boxes, n.z0, n.z1, n.y0, n.y1, n.x1, x1);
        return boxes;
    }

    /** Adds the box of these bounds to {@code boxes} when it holds a cell. */
    public static void addIfCells(List<Box> boxes, int z0, int z1, int y0, int y1, int x0, int x1) {
        Box b = orNull(z0, z1, y0, y1, x0, x1);
        if (b != null) {
            boxes.add(b);
        }
    }
}
