package sweep.parallel;

import java.util.Arrays;
import java.util.OptionalInt;

/**
 * Rank-grid layout of a {@code (shotGroups, py, px)} decomposition: which shot group and tile a rank holds, its
 * neighbours, and the box of the global grid it owns. Pure data, no MPI.
 *
 * <p>{@code worldSize = shotGroups * py * px}, and a rank's coordinate is
 * {@code shotGroup = rank / (py*px)}, {@code yi = (rank % (py*px)) / px}, {@code xi = rank % px}. Ranks that differ
 * only in shot group hold the same tile. Depth z is never split; 2-D problems must use {@code py == 1}.
 */
public final class MeshTopology {

    /** A split horizontal axis: y (crossline) or x (lateral). Depth z is never split, so it has no entry. */
    public enum Axis { Y, X }

    /** The low (index 0) or high end of an axis. */
    public enum Side { LOW, HIGH }

    /**
     * The part of the global grid one tile owns, in global indices.
     *
     * @param shape   local extents, same ndim as the global shape: {@code (nz, [ny_loc,] nx_loc)}
     * @param offsets global index of the tile's origin, {@code (0, [oy,] ox)}; the leading 0 is the unsplit depth
     */
    public record Extent(int[] shape, int[] offsets) {
        /** Keeps private copies of both arrays. */
        public Extent {
            shape = shape.clone();
            offsets = offsets.clone();
        }

        /** A copy of the local shape. */
        @Override
        public int[] shape() {
            return shape.clone();
        }

        /** A copy of the offsets. */
        @Override
        public int[] offsets() {
            return offsets.clone();
        }

        @Override
        public String toString() {
            return "Extent[shape=" + Arrays.toString(shape) + ", offsets=" + Arrays.toString(offsets) + "]";
        }
    }

    private final int py, px, shotGroups, worldSize, rank;
    private final int shotGroup, yi, xi;

    /**
     * @param py         tiles along y (1 for 2-D)
     * @param px         tiles along x
     * @param shotGroups number of shot-parallel groups
     * @param worldSize  total number of ranks; must equal {@code shotGroups * py * px}
     * @param rank       this rank, in {@code [0, worldSize)}
     */
    public MeshTopology(int py, int px, int shotGroups, int worldSize, int rank) {
        requirePositive("py", py);
        requirePositive("px", px);
        requirePositive("shotGroups", shotGroups);
        long product = (long) shotGroups * py * px;
        if (product != worldSize) {
            throw new IllegalArgumentException("worldSize=" + worldSize + " does not equal shotGroups*py*px = "
                    + shotGroups + "*" + py + "*" + px + " = " + product
                    + ": choose a grid whose product is the number of ranks (see BalancedGrid.of)");
        }
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank=" + rank + " is outside [0, worldSize=" + worldSize
                    + "): pass this process's rank in the world");
        }
        this.py = py;
        this.px = px;
        this.shotGroups = shotGroups;
        this.worldSize = worldSize;
        this.rank = rank;
        this.shotGroup = rank / (py * px);
        this.yi = (rank % (py * px)) / px;
        this.xi = rank % px;
    }

    public int py() { return py; }

    public int px() { return px; }

    public int shotGroups() { return shotGroups; }

    public int worldSize() { return worldSize; }

    public int rank() { return rank; }

    /** This rank's shot group, {@code rank / (py*px)}. */
    public int shotGroup() { return shotGroup; }

    /** This rank's tile index along y. */
    public int yi() { return yi; }

    /** This rank's tile index along x. */
    public int xi() { return xi; }

    /** Number of tiles along {@code axis} ({@code py} or {@code px}). */
    public int tiles(Axis axis) {
        return axis == Axis.Y ? py : px;
    }

    /** This rank's tile index along {@code axis} ({@code yi} or {@code xi}). */
    public int tileIndex(Axis axis) {
        return axis == Axis.Y ? yi : xi;
    }

    /** This rank's index inside its shot group, {@code yi*px + xi}; 0 marks the group's root. */
    public int tileRank() {
        return yi * px + xi;
    }

    /** Global rank of this shot group's root (its tile 0): {@code shotGroup * py * px}. */
    public int groupRootRank() {
        return shotGroup * py * px;
    }

    /**
     * Whether this tile lies on the {@code side} edge of the global grid along {@code axis}. A 1-tile axis is on
     * both edges: that single tile owns the absorbing boundary on both sides.
     */
    public boolean isEdge(Axis axis, Side side) {
        return side == Side.LOW ? tileIndex(axis) == 0 : tileIndex(axis) == tiles(axis) - 1;
    }

    /**
     * Global rank of the tile next to this one on {@code side} along {@code axis}, in the same shot group; empty at a
     * true edge of the grid (no wrap-around).
     */
    public OptionalInt neighbourRank(Axis axis, Side side) {
        if (isEdge(axis, side)) {
            return OptionalInt.empty();
        }
        int step = side == Side.LOW ? -1 : 1;
        return OptionalInt.of(axis == Axis.Y ? rankAt(shotGroup, yi + step, xi) : rankAt(shotGroup, yi, xi + step));
    }

    /** Inverse of the coordinate formulas: the global rank holding tile {@code (yi, xi)} of {@code shotGroup}. */
    public int rankAt(int shotGroup, int yi, int xi) {
        requireIndex("shotGroup", shotGroup, shotGroups);
        requireIndex("yi", yi, py);
        requireIndex("xi", xi, px);
        return shotGroup * py * px + yi * px + xi;
    }

    /**
     * The box of the global grid this rank's tile owns. {@code globalShape} is {@code (nz, nx)} or
     * {@code (nz, ny, nx)}; nz is never split. Tiles are uniform, so nx must be a multiple of px and ny of py.
     *
     * @throws IllegalArgumentException when the shape is not 2-D/3-D, a 2-D shape meets {@code py > 1}, or an axis
     *                                  does not divide evenly (pad it with {@link Padding#padToMesh})
     */
    public Extent localExtent(int[] globalShape) {
        int ndim = checkGlobalShape(globalShape);
        int[] shape = globalShape.clone();
        int[] offsets = new int[ndim];
        shape[ndim - 1] = globalShape[ndim - 1] / px;
        offsets[ndim - 1] = xi * shape[ndim - 1];
        if (ndim == 3) {
            shape[1] = globalShape[1] / py;
            offsets[1] = yi * shape[1];
        }
        return new Extent(shape, offsets);
    }

    /** Validates a global wavefield shape against this mesh and returns its ndim (2 or 3). */
    int checkGlobalShape(int[] globalShape) {
        if (globalShape == null || (globalShape.length != 2 && globalShape.length != 3)) {
            throw new IllegalArgumentException("globalShape must be (nz, nx) or (nz, ny, nx), got "
                    + Arrays.toString(globalShape) + ": pass the wavefield shape without batch axes");
        }
        for (int d : globalShape) {
            if (d <= 0) {
                throw new IllegalArgumentException("globalShape " + Arrays.toString(globalShape)
                        + " has a non-positive extent " + d + ": every extent must be >= 1");
            }
        }
        int ndim = globalShape.length;
        if (ndim == 2 && py != 1) {
            throw new IllegalArgumentException("a 2-D globalShape " + Arrays.toString(globalShape) + " needs py=1, got py="
                    + py + ": split 2-D models along x only");
        }
        int nx = globalShape[ndim - 1];
        if (nx % px != 0) {
            throw new IllegalArgumentException("nx=" + nx + " is not a multiple of px=" + px
                    + ": pad the model with Padding.padToMesh or pick (py, px) with BalancedGrid.of");
        }
        if (ndim == 3 && globalShape[1] % py != 0) {
            throw new IllegalArgumentException("ny=" + globalShape[1] + " is not a multiple of py=" + py
                    + ": pad the model with Padding.padToMesh or pick (py, px) with BalancedGrid.of");
        }
        return ndim;
    }

    @Override
    public String toString() {
        return "MeshTopology[rank=" + rank + "/" + worldSize + ", shotGroup=" + shotGroup + "/" + shotGroups
                + ", (yi, xi)=(" + yi + ", " + xi + ") of (py, px)=(" + py + ", " + px + ")]";
    }

    private static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + "=" + value + " must be >= 1");
        }
    }

    private static void requireIndex(String name, int value, int bound) {
        if (value < 0 || value >= bound) {
            throw new IllegalArgumentException(name + "=" + value + " is outside [0, " + bound + ")");
        }
    }
}
