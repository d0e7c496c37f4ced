package sweep.parallel;

import java.util.Arrays;
import java.util.List;

/**
 * Routes sources and receivers between the global grid and the tiles: which tile owns each coordinate (each point
 * has exactly one owner) and how per-tile receiver records go back together. Pure and collective-free.
 *
 * <p>Coordinates are integer grid indices ordered (x, z) in 2-D and (x, y, z) in 3-D (x first), while grid shapes
 * are (nz, nx) / (nz, ny, nx) (z first). Coordinate component {@code i} therefore indexes shape axis
 * {@code ndim-1-i}. Records have the receiver axis at position -2, e.g. {@code (B, nt, nrec, nfield)}.
 */
public final class Routing {

    private Routing() {
    }

    /**
     * The coordinates one tile owns.
     *
     * @param localCoords same layout as the global coords; owned entries shifted to tile-local indices
     *                    ({@code x - ox}, {@code y - oy}; z unchanged), entries owned elsewhere zeroed
     * @param mask        {@code (nshots, npts)}, true where this tile owns the point
     */
    public record Partition(int[][][] localCoords, boolean[][] mask) {
        /** Indices of the points this tile owns for {@code shot}, ascending: its columns of the global record. */
        public int[] ownedIndices(int shot) {
            boolean[] m = mask[shot];
            int[] idx = new int[m.length];
            int k = 0;
            for (int i = 0; i < m.length; i++) {
                if (m[i]) {
                    idx[k++] = i;
                }
            }
            return Arrays.copyOf(idx, k);
        }
    }

    /**
     * One tile's record and the global receiver index of each of its columns.
     *
     * @param globalIndices global receiver index of each tile column, in tile order
     * @param data          flat record, row-major
     * @param shape         record shape with the receiver axis at -2, e.g. {@code (B, nt, nrecTile, nfield)}
     */
    public record TileRecord(int[] globalIndices, float[] data, int[] shape) {
        /** Checks the shape against the data and the index count against the receiver axis. */
        public TileRecord {
            if (shape == null || shape.length < 2) {
                throw new IllegalArgumentException("record shape must have >= 2 axes with receivers at axis -2, got "
                        + Arrays.toString(shape));
            }
            shape = shape.clone();
            globalIndices = globalIndices.clone();
            new Shaped<>(data, shape);
            if (globalIndices.length != shape[shape.length - 2]) {
                throw new IllegalArgumentException(globalIndices.length + " global indices for a record of shape "
                        + Arrays.toString(shape) + " with " + shape[shape.length - 2]
                        + " receiver columns: pass one index per column (axis -2)");
            }
        }
    }

    /**
     * Selects and shifts the coordinates that fall in this rank's tile. Ownership is half-open,
     * {@code o <= c < o + n} per split axis, so tiles partition the grid and every point has exactly one owner.
     * Only the tile coordinate (yi, xi) of {@code topology} matters, not its shot group.
     *
     * @param coords      {@code (nshots, npts, ndim)} global grid indices, (x, z) or (x, y, z); each must lie on the grid
     * @param globalShape {@code (nz, [ny,] nx)}, divisible by the tile grid (pad first); ndim must match the coords
     */
    public static Partition partitionGlobalCoords(int[][][] coords, MeshTopology topology, int[] globalShape) {
        MeshTopology.Extent tile = topology.localExtent(globalShape);
        int[] size = tile.shape();
        int[] offset = tile.offsets();
        int ndim = globalShape.length;
        int[][][] local = new int[coords.length][][];
        boolean[][] mask = new boolean[coords.length][];
        for (int s = 0; s < coords.length; s++) {
            local[s] = new int[coords[s].length][ndim];
            mask[s] = new boolean[coords[s].length];
            for (int p = 0; p < coords[s].length; p++) {
                int[] c = coords[s][p];
                if (c == null || c.length != ndim) {
                    throw new IllegalArgumentException("coords[" + s + "][" + p + "] has "
                            + (c == null ? "no" : String.valueOf(c.length)) + " components but globalShape "
                            + Arrays.toString(globalShape) + " has ndim=" + ndim
                            + ": give (x, z) in 2-D or (x, y, z) in 3-D");
                }
                boolean owned = true;
                for (int i = 0; i < ndim; i++) {
                    int axis = ndim - 1 - i;
                    if (c[i] < 0 || c[i] >= globalShape[axis]) {
                        throw new IllegalArgumentException("coords[" + s + "][" + p + "] = " + Arrays.toString(c)
                                + " is off the grid " + Arrays.toString(globalShape) + " (component " + i + " = "
                                + c[i] + " not in [0, " + globalShape[axis] + ")): coordinates are (x, [y,] z) "
                                + "grid indices");
                    }
                    owned &= c[i] >= offset[axis] && c[i] < offset[axis] + size[axis];
                }
                if (owned) {
                    mask[s][p] = true;
                    for (int i = 0; i < ndim; i++) {
                        local[s][p][i] = c[i] - offset[ndim - 1 - i];
                    }
                }
            }
        }
        return new Partition(local, mask);
    }

    /**
     * Places each tile's receiver columns at their global index; the global receiver count is one more than the
     * largest index any tile holds. See {@link #assembleTileRecords(List, int)}.
     */
    public static Shaped<float[]> assembleTileRecords(List<TileRecord> gathered) {
        int nrec = 0;
        for (TileRecord t : gathered) {
            for (int g : t.globalIndices()) {
                nrec = Math.max(nrec, g + 1);
            }
        }
        return assembleTileRecords(gathered, nrec);
    }

    /**
     * Places each tile's receiver columns at their global index in a record of {@code nrec} receivers. Tiles
     * owning no receiver contribute nothing; a global index no tile owns stays zero. All tiles must come from ONE
     * shot group: an index held by two tiles is an error, not a silent overwrite.
     */
    public static Shaped<float[]> assembleTileRecords(List<TileRecord> gathered, int nrec) {
        if (gathered.isEmpty()) {
            throw new IllegalArgumentException("no tile records to assemble: pass one entry per tile of the shot group"
                    + " (a tile owning no receiver sends a record with 0 columns)");
        }
        if (nrec < 0) {
            throw new IllegalArgumentException("nrec=" + nrec + " must be >= 0");
        }
        int[] shape = gathered.get(0).shape().clone();
        int n = shape.length;
        shape[n - 2] = nrec;
        long outer = Shaped.size(Arrays.copyOf(shape, n - 2), "record shape");
        int inner = shape[n - 1];
        float[] out = new float[Math.toIntExact(Shaped.size(shape, "record shape"))];
        int[] owner = new int[nrec];
        Arrays.fill(owner, -1);
        for (int t = 0; t < gathered.size(); t++) {
            TileRecord tile = gathered.get(t);
            int[] ts = tile.shape().clone();
            int nt = ts[ts.length - 2];
            ts[ts.length - 2] = nrec;
            if (!Arrays.equals(ts, shape)) {
                throw new IllegalArgumentException("tile " + t + " has record shape " + Arrays.toString(tile.shape())
                        + " but tile 0 has " + Arrays.toString(gathered.get(0).shape())
                        + ": all axes but the receiver axis (-2) must agree");
            }
            for (int j = 0; j < nt; j++) {
                int g = tile.globalIndices()[j];
                if (g < 0 || g >= nrec) {
                    throw new IllegalArgumentException("tile " + t + " column " + j + " has global index " + g
                            + ", outside [0, nrec=" + nrec + ")");
                }
                if (owner[g] >= 0) {
                    throw new IllegalArgumentException("global receiver index " + g + " is held by tile " + owner[g]
                            + " and tile " + t + ": assemble the tiles of one shot group only (each receiver has "
                            + "exactly one owner)");
                }
                owner[g] = t;
                for (int o = 0; o < outer; o++) {
                    System.arraycopy(tile.data(), (o * nt + j) * inner, out, (o * nrec + g) * inner, inner);
                }
            }
        }
        return new Shaped<>(out, shape);
    }
}
