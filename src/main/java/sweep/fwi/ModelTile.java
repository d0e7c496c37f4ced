package sweep.fwi;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import sweep.io.ModelFiles;
import sweep.parallel.MeshTopology;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Padding;
import sweep.parallel.TileFiles;

/**
 * The cells of a global model that an FWI optimiser holds on this rank: the whole model on one domain, the rank's tile
 * of it (the mesh's pad left out) under MPI, each of the model's parameters one after the other, and the sums, maxima
 * and gathers over every rank's cells. Sums run in one order that does not depend on the tiling (per (y, x) column
 * over z, then the columns in global order, parameter after parameter), so an inversion takes the same steps, bit for
 * bit, on any mesh.
 */
public final class ModelTile implements Lbfgs.InnerProduct {
    private final int[] globalShape;
    private final int count;
    private final int[] shape;
    private final int[] offset;
    private final int cells;
    private final int columns;
    private final int globalColumns;
    /** The model communicator of the rank's shot group; null for the whole model. */
    private final Intracomm comm;
    private final MeshTopology topo;
    /** Per rank of {@link #comm}: its tile's y offset, y extent, x offset, x extent (real cells). */
    private final int[][] boxes;
    /** The padded tile's shape, z first (the solver's tile); the real shape on one domain. */
    private final int[] paddedShape;

    private ModelTile(int[] globalShape, int count, int[] shape, int[] offset, int[] paddedShape, Intracomm comm,
                      MeshTopology topo, int[][] boxes) {
        this.globalShape = globalShape.clone();
        this.count = count;
        this.shape = shape;
        this.offset = offset;
        this.paddedShape = paddedShape;
        this.comm = comm;
        this.topo = topo;
        this.boxes = boxes;
        this.cells = product(shape);
        this.columns = cells / shape[0];
        this.globalColumns = product(globalShape) / globalShape[0];
    }

    /** The whole model of {@code shape} (z first) with {@code count} parameters, on one domain. */
    public static ModelTile whole(int[] shape, int count) {
        return new ModelTile(shape, count, shape.clone(), new int[shape.length], shape.clone(), null, null, null);
    }

    /**
     * This rank's tile of the model of {@code shape} (z first, unpadded) with {@code count} parameters on
     * {@code mesh}: the tile of the model padded to the mesh ({@link Padding}) without its pad cells. Refuses a pad
     * wider than a tile (its cells would fold onto another rank's). Collective over the mesh's {@code model}
     * communicator.
     */
    public static ModelTile of(ModelParallelMesh mesh, int[] shape, int count) {
        MeshTopology topo = mesh.topology();
        int[] padded = Padding.paddedShape(shape, topo);
        MeshTopology.Extent ext = topo.localExtent(padded);
        int ndim = shape.length;
        int[] real = ext.shape();
        for (int a = 1; a < ndim; a++) {
            int pad = padded[a] - shape[a];
            if (pad >= ext.shape()[a]) {
                throw new IllegalArgumentException("the model's " + shape[a] + " cells along " + (a == ndim - 1 ? "x"
                        : "y") + " pad to " + padded[a] + " for " + (a == ndim - 1 ? "px = " + topo.px() : "py = "
                        + topo.py()) + ": a pad of " + pad + " cells is wider than a tile of " + ext.shape()[a]
                        + "; choose a mesh that divides the model or leaves a pad narrower than a tile");
            }
            real[a] = Math.min(ext.shape()[a], shape[a] - ext.offsets()[a]);
        }
        int[] off = ext.offsets();
        int[] mine = {ndim == 3 ? off[1] : 0, ndim == 3 ? real[1] : 1, off[ndim - 1], real[ndim - 1]};
        Intracomm comm = mesh.model();
        int[][] boxes;
        try {
            int n = comm.getSize();
            int[] all = new int[4 * n];
            comm.allGather(mine, 4, MPI.INT, all, 4, MPI.INT);
            boxes = new int[n][];
            for (int r = 0; r < n; r++) {
                boxes[r] = Arrays.copyOfRange(all, 4 * r, 4 * r + 4);
            }
        } catch (MPIException e) {
            throw new IllegalStateException("FWI tile setup failed: " + e.getMessage(), e);
        }
        return new ModelTile(shape, count, real, off, ext.shape(), comm, topo, boxes);
    }

    /** Whether this is the whole model (one domain). */
    public boolean isWhole() {
        return comm == null;
    }

    /** The global model's shape, z first. */
    public int[] globalShape() {
        return globalShape.clone();
    }

    /** The tile's shape (real cells), z first. */
    public int[] shape() {
        return shape.clone();
    }

    /** The tile's offset in the global model, z first. */
    public int[] offset() {
        return offset.clone();
    }

    /** The number of model parameters. */
    public int parameters() {
        return count;
    }

    /** The tile's cells per parameter. */
    public int cells() {
        return cells;
    }

    /** The values a tile array holds (every parameter's cells). */
    public int length() {
        return count * cells;
    }

    /** The global model's cells per parameter. */
    public long globalCells() {
        return (long) globalColumns * globalShape[0];
    }

    /** Whether this rank writes what is gathered (rank 0 of its shot group's tiles; always on one domain). */
    public boolean isRoot() {
        return comm == null || rankOf() == 0;
    }

    private int rankOf() {
        try {
            return comm.getRank();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Σ a·b (each term weighted by {@code weights[k]} on parameter k's cells when not null), over every rank's cells:
     * per (y, x) column the terms added in z order, then the columns added in global order, parameter after
     * parameter; the same double on every rank and on every mesh. Collective.
     */
    @Override
    public double dot(double[] a, double[] b, double[] weights) {
        int n = count * columns;
        double[] part = new double[n];
        for (int k = 0; k < count; k++) {
            double w = weights == null ? 1 : weights[k];
            for (int z = 0; z < shape[0]; z++) {
                int at = k * cells + z * columns;
                int p = k * columns;
                if (weights == null) {
                    for (int c = 0; c < columns; c++) {
                        part[p + c] += a[at + c] * b[at + c];
                    }
                } else {
                    for (int c = 0; c < columns; c++) {
                        part[p + c] += w * (a[at + c] * b[at + c]);
                    }
                }
            }
        }
        if (comm == null) {
            double s = 0;
            for (double v : part) {
                s += v;
            }
            return s;
        }
        try {
            double[] all = isRoot() ? new double[count * globalColumns] : null;
            gatherParts(part, part.length, count, MPI.DOUBLE, all);
            double[] s = {0};
            if (all != null) {
                for (int k = 0; k < count; k++) {
                    for (int gc = 0; gc < globalColumns; gc++) {
                        s[0] += all[columnAt(gc, k)];
                    }
                }
            }
            comm.bcast(s, 1, MPI.DOUBLE, 0);
            return s[0];
        } catch (MPIException e) {
            throw new IllegalStateException("FWI sum over the tiles failed: " + e.getMessage(), e);
        }
    }

    /** Where each rank's part starts in the root's buffer of the last gather. */
    private int[] displacements;

    /** Where global column {@code gc} of parameter k lies in a gathered buffer of per-column values. */
    private int columnAt(int gc, int k) {
        if (columnIndex == null) {
            columnIndex = new int[globalColumns];
            columnRank = new int[globalColumns];
            int nx = globalShape[globalShape.length - 1];
            for (int r = 0; r < boxes.length; r++) {
                int[] bx = boxes[r];
                for (int y = 0; y < bx[1]; y++) {
                    for (int x = 0; x < bx[3]; x++) {
                        int gcol = (bx[0] + y) * nx + bx[2] + x;
                        columnIndex[gcol] = y * bx[3] + x;
                        columnRank[gcol] = r;
                    }
                }
            }
        }
        int r = columnRank[gc];
        return displacements[r] + k * boxes[r][1] * boxes[r][3] + columnIndex[gc];
    }

    private int[] columnIndex;
    private int[] columnRank;

    /**
     * Gathers each rank's {@code values} ({@code rows} values per real (y, x) column of its tile) onto the root into
     * {@code all} (null on the other ranks), rank after rank; sets {@link #displacements}. The root receives into a
     * direct buffer: Open MPI's Java bindings (4.1) size the native buffer of a gatherv into a Java array as the
     * largest displacement times its count, not plus, which overflows (a crash, seen on a 60 × 80 × 80 model on 2 × 2
     * ranks) or allocates far too much.
     */
    private void gatherParts(Object values, int length, int rows, Datatype type, Object all) throws MPIException {
        int n = boxes.length;
        int[] counts = new int[n];
        displacements = new int[n];
        int total = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = rows * boxes[r][1] * boxes[r][3];
            displacements[r] = total;
            total += counts[r];
        }
        boolean floats = values instanceof float[];
        Object recv = all == null ? values
                : floats ? MPI.newFloatBuffer(total) : MPI.newDoubleBuffer(total); // not read on the other ranks
        comm.gatherv(values, length, type, recv, counts, displacements, type, 0);
        if (all != null && floats) {
            ((FloatBuffer) recv).get((float[]) all, 0, total);
        } else if (all != null) {
            ((DoubleBuffer) recv).get((double[]) all, 0, total);
        }
    }

    /** The largest of every rank's {@code local}, the same on every rank. Collective. */
    public double max(double local) {
        if (comm == null) {
            return local;
        }
        double[] v = {local};
        try {
            comm.allReduce(v, 1, MPI.DOUBLE, MPI.MAX);
        } catch (MPIException e) {
            throw new IllegalStateException("FWI maximum over the tiles failed: " + e.getMessage(), e);
        }
        return v[0];
    }

    /** The largest |v| over parameter k's cells of every rank. Collective. */
    public double maxAbs(double[] v, int k) {
        double m = 0;
        for (int i = k * cells; i < (k + 1) * cells; i++) {
            m = Math.max(m, Math.abs(v[i]));
        }
        return max(m);
    }

    /** Whether {@code local} is true on every rank. Collective. */
    public boolean all(boolean local) {
        return max(local ? 0 : 1) == 0;
    }

    /**
     * A 64-bit fingerprint of a model (whole parameters) given as this tile's part: the XOR over every cell of every
     * rank of a hash of its global index and its value's bits ({@link #cellHash}), the same for any tiling. Collective.
     */
    public long fingerprint(float[] local) {
        long h = 0;
        int gcells = Math.toIntExact(globalCells());
        int[] box = box();
        int ny = globalShape.length == 3 ? globalShape[1] : 1;
        int nx = globalShape[globalShape.length - 1];
        for (int k = 0; k < local.length / cells; k++) {
            for (int z = 0; z < shape[0]; z++) {
                for (int y = 0; y < box[1]; y++) {
                    long g = (long) k * gcells + ((long) z * ny + box[0] + y) * nx + box[2];
                    int at = k * cells + (z * box[1] + y) * box[3];
                    for (int x = 0; x < box[3]; x++) {
                        h ^= cellHash(g + x, Float.floatToRawIntBits(local[at + x]));
                    }
                }
            }
        }
        if (comm == null) {
            return h;
        }
        long[] v = {h};
        try {
            comm.allReduce(v, 1, MPI.LONG, MPI.BXOR);
        } catch (MPIException e) {
            throw new IllegalStateException("FWI fingerprint over the tiles failed: " + e.getMessage(), e);
        }
        return v[0];
    }

    /** The largest value of one parameter over every rank's cells, and the global index of its first cell. */
    public record Peak(float value, long index) {
    }

    /**
     * The largest value of parameter k of a tile array over every rank's cells (NaN never counts), and the first
     * cell in global order that holds it (its index within the parameter, z first, x fastest); the same on every
     * rank. Collective.
     */
    public Peak peak(float[] local, int k) {
        int[] box = box();
        int ny = globalShape.length == 3 ? globalShape[1] : 1;
        int nx = globalShape[globalShape.length - 1];
        float best = Float.NEGATIVE_INFINITY;
        long at = Long.MAX_VALUE;
        for (int z = 0; z < shape[0]; z++) {
            for (int y = 0; y < box[1]; y++) {
                int i = k * cells + (z * box[1] + y) * box[3];
                long g = ((long) z * ny + box[0] + y) * nx + box[2];
                for (int x = 0; x < box[3]; x++) {
                    float v = local[i + x];
                    if (v > best || (v == best && g + x < at)) {
                        best = v;
                        at = g + x;
                    }
                }
            }
        }
        if (comm == null) {
            return new Peak(best, at);
        }
        double[] mine = {best, at};
        double[] all = new double[2 * boxes.length];
        try {
            comm.allGather(mine, 2, MPI.DOUBLE, all, 2, MPI.DOUBLE);
        } catch (MPIException e) {
            throw new IllegalStateException("FWI maximum over the tiles failed: " + e.getMessage(), e);
        }
        for (int r = 0; r < boxes.length; r++) {
            float v = (float) all[2 * r];
            long g = (long) all[2 * r + 1];
            if (v > best || (v == best && g < at)) {
                best = v;
                at = g;
            }
        }
        return new Peak(best, at);
    }

    /**
     * This tile's cells of a model file (float32 .npy or SEG-Y, see {@link ModelFiles}) of the model's shape (one
     * parameter; checked, {@code what} names it in messages), read without the other tiles' bytes. Not collective.
     */
    public float[] read(Path file, String what) {
        return comm == null ? ModelFiles.readSelection(file, what, globalShape, new int[globalShape.length][])
                : unpadded(TileFiles.readTile(file, what, globalShape, topo));
    }

    /** The fingerprint of a whole (global) array, as {@link #fingerprint} gives for any tiling of it. */
    public static long fingerprintOfWhole(float[] global) {
        long h = 0;
        for (int i = 0; i < global.length; i++) {
            h ^= cellHash(i, Float.floatToRawIntBits(global[i]));
        }
        return h;
    }

    /** The hash of one cell: its global index (parameter-major) and its value's bits, mixed (SplitMix64 finaliser). */
    public static long cellHash(long index, int bits) {
        return mix(mix(index + 0x9E3779B97F4A7C15L) ^ (bits & 0xffffffffL));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The global index (within its parameter, z first, x fastest) of cell {@code i} of one parameter's tile block. */
    public long globalIndex(int i) {
        int[] box = box();
        int x = i % box[3];
        int y = (i / box[3]) % box[1];
        int z = i / (box[3] * box[1]);
        int ny = globalShape.length == 3 ? globalShape[1] : 1;
        return ((long) z * ny + box[0] + y) * globalShape[globalShape.length - 1] + box[2] + x;
    }

    /** This rank's (y offset, y extent, x offset, x extent); in 2-D y is (0, 1). */
    private int[] box() {
        int nd = shape.length;
        return new int[] {nd == 3 ? offset[1] : 0, nd == 3 ? shape[1] : 1, offset[nd - 1], shape[nd - 1]};
    }

    /** This tile's part of a global (parameter-major) array of the model's shape; a copy. */
    public float[] slice(float[] global) {
        if (global.length % globalCells() != 0) {
            throw new IllegalArgumentException(global.length + " values are not whole parameters of the model "
                    + Arrays.toString(globalShape));
        }
        int blocks = (int) (global.length / globalCells());
        float[] out = new float[blocks * cells];
        int[] box = box();
        int ny = globalShape.length == 3 ? globalShape[1] : 1;
        int nx = globalShape[globalShape.length - 1];
        int gcells = Math.toIntExact(globalCells());
        for (int k = 0; k < blocks; k++) {
            for (int z = 0; z < shape[0]; z++) {
                for (int y = 0; y < box[1]; y++) {
                    System.arraycopy(global, k * gcells + (z * ny + box[0] + y) * nx + box[2], out,
                            k * cells + (z * box[1] + y) * box[3], box[3]);
                }
            }
        }
        return out;
    }

    /**
     * The global array on the root ({@link #isRoot()}) from every rank's tile array (whole parameters); null on the
     * other ranks; the array itself on one domain. Collective.
     */
    public float[] gather(float[] local) {
        if (comm == null) {
            return local;
        }
        int blocks = local.length / cells;
        float[] all = isRoot() ? new float[blocks * shape[0] * globalColumns] : null;
        float[] out = isRoot() ? new float[all.length] : null;
        return (float[]) gatherTiles(local, blocks, MPI.FLOAT, all, out);
    }

    /** As {@link #gather(float[])} for a double tile array. Collective. */
    public double[] gather(double[] local) {
        if (comm == null) {
            return local;
        }
        int blocks = local.length / cells;
        double[] all = isRoot() ? new double[blocks * shape[0] * globalColumns] : null;
        double[] out = isRoot() ? new double[all.length] : null;
        return (double[]) gatherTiles(local, blocks, MPI.DOUBLE, all, out);
    }

    /**
     * Gathers every rank's tile array of {@code blocks} parameters into {@code all} on the root (rank order) and
     * places it into {@code out} in global order; returns {@code out} (null on the other ranks).
     */
    private Object gatherTiles(Object local, int blocks, Datatype type, Object all, Object out) {
        try {
            gatherParts(local, java.lang.reflect.Array.getLength(local), blocks * shape[0], type, all);
            if (out == null) {
                return null;
            }
            int gcells = Math.toIntExact(globalCells());
            int ny = globalShape.length == 3 ? globalShape[1] : 1;
            int nx = globalShape[globalShape.length - 1];
            int nz = shape[0];
            for (int r = 0; r < boxes.length; r++) {
                int[] bx = boxes[r];
                int tc = nz * bx[1] * bx[3];
                for (int k = 0; k < blocks; k++) {
                    for (int z = 0; z < nz; z++) {
                        for (int y = 0; y < bx[1]; y++) {
                            System.arraycopy(all, displacements[r] + k * tc + (z * bx[1] + y) * bx[3], out,
                                    k * gcells + (z * ny + bx[0] + y) * nx + bx[2], bx[3]);
                        }
                    }
                }
            }
            return out;
        } catch (MPIException e) {
            throw new IllegalStateException("FWI gather of the tiles failed: " + e.getMessage(), e);
        }
    }

    /**
     * Writes a tile array (whole parameters) as the global array to {@code out} (on the root; null on the other
     * ranks, which only send), as big-endian floats, one z plane of one parameter at a time: no rank holds more than a
     * plane of the global array. Collective.
     */
    public void write(DataOutputStream out, float[] local) throws IOException {
        writePlanes(out, local, local.length / cells, MPI.FLOAT);
    }

    /** As {@link #write(DataOutputStream, float[])} for a double tile array. Collective. */
    public void write(DataOutputStream out, double[] local) throws IOException {
        writePlanes(out, local, local.length / cells, MPI.DOUBLE);
    }

    private void writePlanes(DataOutputStream out, Object local, int blocks, Datatype type) throws IOException {
        boolean floats = local instanceof float[];
        int nx = globalShape[globalShape.length - 1];
        for (int row = 0; row < blocks * shape[0]; row++) {
            Object plane;
            if (comm == null) {
                plane = local;
            } else {
                Object mine = java.lang.reflect.Array.newInstance(local.getClass().getComponentType(), columns);
                System.arraycopy(local, row * columns, mine, 0, columns);
                Object all = isRoot() ? java.lang.reflect.Array.newInstance(mine.getClass().getComponentType(),
                        globalColumns) : null;
                plane = all == null ? null : java.lang.reflect.Array.newInstance(mine.getClass().getComponentType(),
                        globalColumns);
                try {
                    gatherParts(mine, columns, 1, type, all);
                } catch (MPIException e) {
                    throw new IllegalStateException("FWI gather of the tiles failed: " + e.getMessage(), e);
                }
                if (plane != null) {
                    for (int r = 0; r < boxes.length; r++) {
                        int[] bx = boxes[r];
                        for (int y = 0; y < bx[1]; y++) {
                            System.arraycopy(all, displacements[r] + y * bx[3], plane, (bx[0] + y) * nx + bx[2],
                                    bx[3]);
                        }
                    }
                }
            }
            if (out == null || plane == null) {
                continue;
            }
            int at = comm == null ? row * columns : 0;
            for (int c = 0; c < globalColumns; c++) {
                if (floats) {
                    out.writeFloat(((float[]) plane)[at + c]);
                } else {
                    out.writeDouble(((double[]) plane)[at + c]);
                }
            }
        }
    }

    /**
     * Every {@code step}-th cell along z and x of parameter k's vertical section (the model itself in 2-D, the
     * middle of y in 3-D), ceil(nz/step) × ceil(nx/step) values, on the root (null on the other ranks): for pictures,
     * without a global array on any rank. Collective.
     */
    public float[] gatherSection(float[] local, int k, int step) {
        int nd = globalShape.length;
        int nz = globalShape[0];
        int nx = globalShape[nd - 1];
        int pz = (nz + step - 1) / step;
        int px = (nx + step - 1) / step;
        float[] pic = new float[pz * px];
        int[] box = box();
        int y = nd == 3 ? globalShape[1] / 2 - box[0] : 0;
        if (y >= 0 && y < box[1]) {
            for (int z = 0; z < nz; z += step) {
                for (int x = (box[2] + step - 1) / step * step; x < box[2] + box[3]; x += step) {
                    pic[(z / step) * px + x / step] = local[k * cells + (z * box[1] + y) * box[3] + x - box[2]];
                }
            }
        }
        if (comm == null) {
            return pic;
        }
        try { // each cell comes from one rank, zeros from the others: the sum is that value
            comm.reduce(pic, pic.length, MPI.FLOAT, MPI.SUM, 0);
        } catch (MPIException e) {
            throw new IllegalStateException("FWI picture gather failed: " + e.getMessage(), e);
        }
        return isRoot() ? pic : null;
    }

    /** Reads a global float array of {@code blocks} parameters from {@code in}, keeping this tile's cells. */
    public float[] readFloats(DataInputStream in, int blocks) throws IOException {
        float[] out = new float[blocks * cells];
        readCells(in, blocks, keep -> {
            float v = in.readFloat();
            if (keep >= 0) {
                out[keep] = v;
            }
        });
        return out;
    }

    /** As {@link #readFloats} for doubles. */
    public double[] readDoubles(DataInputStream in, int blocks) throws IOException {
        double[] out = new double[blocks * cells];
        readCells(in, blocks, keep -> {
            double v = in.readDouble();
            if (keep >= 0) {
                out[keep] = v;
            }
        });
        return out;
    }

    /** Reads one value of a global array: {@code keep} is its index in this tile's array, or −1 if not this tile's. */
    @FunctionalInterface
    private interface CellReader {
        void read(int keep) throws IOException;
    }

    /** Calls {@code reader} for every cell of a global array of {@code blocks} parameters, in file order. */
    private void readCells(DataInputStream in, int blocks, CellReader reader) throws IOException {
        int[] box = box();
        int ny = globalShape.length == 3 ? globalShape[1] : 1;
        int nx = globalShape[globalShape.length - 1];
        for (int k = 0; k < blocks; k++) {
            for (int z = 0; z < shape[0]; z++) {
                for (int y = 0; y < ny; y++) {
                    int ly = y - box[0];
                    boolean mineY = ly >= 0 && ly < box[1];
                    for (int x = 0; x < nx; x++) {
                        int lx = x - box[2];
                        reader.read(mineY && lx >= 0 && lx < box[3]
                                ? k * cells + (z * box[1] + ly) * box[3] + lx : -1);
                    }
                }
            }
        }
    }

    /**
     * The solver's tile model from this tile's (whole parameters): the mesh's pad cells, on the high side of the last
     * tiles, copy the edge cell ({@link Padding#padToMesh}); the array itself when there is no pad.
     */
    public float[] padded(float[] local) {
        if (Arrays.equals(paddedShape, shape)) {
            return local;
        }
        int blocks = local.length / cells;
        int nd = shape.length;
        int pny = nd == 3 ? paddedShape[1] : 1;
        int pnx = paddedShape[nd - 1];
        int[] box = box();
        int pcells = shape[0] * pny * pnx;
        float[] out = new float[blocks * pcells];
        for (int k = 0; k < blocks; k++) {
            for (int z = 0; z < shape[0]; z++) {
                for (int y = 0; y < pny; y++) {
                    int src = k * cells + (z * box[1] + Math.min(y, box[1] - 1)) * box[3];
                    int dst = k * pcells + (z * pny + y) * pnx;
                    System.arraycopy(local, src, out, dst, box[3]);
                    Arrays.fill(out, dst + box[3], dst + pnx, local[src + box[3] - 1]);
                }
            }
        }
        return out;
    }

    /**
     * The adjoint of {@link #padded}: each pad cell's value added onto the edge cell it copies, in double, in the order
     * of {@link Padding#padToMeshAdjoint} (the same bits); the array itself when there is no pad.
     */
    public float[] folded(float[] paddedTile) {
        if (Arrays.equals(paddedShape, shape)) {
            return paddedTile;
        }
        int nd = shape.length;
        int pny = nd == 3 ? paddedShape[1] : 1;
        int pnx = paddedShape[nd - 1];
        int[] box = box();
        return Padding.foldPad(paddedTile, pny, pnx, box[1], box[3]);
    }

    /** The real cells of a solver tile array (whole parameters): the pad cut off; the array itself without a pad. */
    public float[] unpadded(float[] paddedTile) {
        if (Arrays.equals(paddedShape, shape)) {
            return paddedTile;
        }
        int nd = shape.length;
        int pny = nd == 3 ? paddedShape[1] : 1;
        int pnx = paddedShape[nd - 1];
        int blocks = paddedTile.length / (shape[0] * pny * pnx);
        int[] box = box();
        float[] out = new float[blocks * cells];
        for (int o = 0; o < blocks * shape[0]; o++) {
            for (int y = 0; y < box[1]; y++) {
                System.arraycopy(paddedTile, (o * pny + y) * pnx, out, (o * box[1] + y) * box[3], box[3]);
            }
        }
        return out;
    }

    /**
     * One parameter's block of a tile array widened along {@code axis} (1: y of a 3-D model, the last: x) by up to
     * {@code reach} cells each side from the neighbouring tiles (cells beyond the model's edges left out): the
     * returned array has this tile's shape but, along the axis, the extent [lo, hi) of {@link #widenedRange}.
     * Collective over the ranks of the tile's line along the axis.
     */
    public float[] widened(float[] block, int axis, int reach) {
        int nd = shape.length;
        int[] range = widenedRange(axis, reach);
        int[] wide = shape.clone();
        wide[axis] = range[1] - range[0];
        float[] out = new float[product(wide)];
        copyBox(block, shape, offset[axis], out, wide, range[0], axis, offset[axis], offset[axis] + shape[axis]);
        if (comm == null) {
            return out;
        }
        boolean alongX = axis == nd - 1;
        int tiles = alongX ? topo.px() : topo.py();
        int me = alongX ? topo.xi() : topo.yi();
        try {
            for (int d = 1; d < tiles; d++) {
                for (int dir = -1; dir <= 1; dir += 2) {
                    int to = me + dir * d;
                    int from = me - dir * d;
                    int toRank = to >= 0 && to < tiles ? lineRank(alongX, to) : -1;
                    int fromRank = from >= 0 && from < tiles ? lineRank(alongX, from) : -1;
                    float[] send = new float[0];
                    if (toRank >= 0) {
                        int[] theirs = rangeOf(toRank, axis, reach);
                        int lo = Math.max(theirs[0], offset[axis]);
                        int hi = Math.min(theirs[1], offset[axis] + shape[axis]);
                        if (hi > lo) {
                            int[] part = shape.clone();
                            part[axis] = hi - lo;
                            send = new float[product(part)];
                            copyBox(block, shape, offset[axis], send, part, lo, axis, lo, hi);
                        }
                    }
                    float[] recv = new float[0];
                    int lo = 0;
                    int hi = 0;
                    if (fromRank >= 0) {
                        int[] b = boxes[fromRank];
                        int start = alongX ? b[2] : b[0];
                        int len = alongX ? b[3] : b[1];
                        lo = Math.max(range[0], start);
                        hi = Math.min(range[1], start + len);
                        if (hi > lo) {
                            int[] part = shape.clone();
                            part[axis] = hi - lo;
                            recv = new float[product(part)];
                        }
                    }
                    comm.sendRecv(send, send.length, MPI.FLOAT, toRank >= 0 ? toRank : MPI.PROC_NULL, 31 + dir,
                            recv, recv.length, MPI.FLOAT, fromRank >= 0 ? fromRank : MPI.PROC_NULL, 31 + dir);
                    if (recv.length > 0) {
                        int[] part = shape.clone();
                        part[axis] = hi - lo;
                        copyBox(recv, part, lo, out, wide, range[0], axis, lo, hi);
                    }
                }
            }
        } catch (MPIException e) {
            throw new IllegalStateException("FWI smoothing exchange failed: " + e.getMessage(), e);
        }
        return out;
    }

    /** [lo, hi): the global extent along {@code axis} of this tile widened by {@code reach}, within the model. */
    public int[] widenedRange(int axis, int reach) {
        return new int[] {Math.max(0, offset[axis] - reach),
                Math.min(globalShape[axis], offset[axis] + shape[axis] + reach)};
    }

    /** The widened range along {@code axis} of the tile of model-communicator rank {@code r}. */
    private int[] rangeOf(int r, int axis, int reach) {
        boolean alongX = axis == shape.length - 1;
        int start = alongX ? boxes[r][2] : boxes[r][0];
        int len = alongX ? boxes[r][3] : boxes[r][1];
        return new int[] {Math.max(0, start - reach), Math.min(globalShape[axis], start + len + reach)};
    }

    /** The model-communicator rank of the tile at index {@code i} along x (or y) in this tile's line. */
    private int lineRank(boolean alongX, int i) {
        return alongX ? topo.yi() * topo.px() + i : i * topo.px() + topo.xi();
    }

    /**
     * Copies the cells with axis coordinate in [lo, hi) (global) from {@code src} (shape {@code srcShape}, its axis
     * starting at global {@code srcLo}) to {@code dst} (shape {@code dstShape}, axis from {@code dstLo}); the other
     * axes are the same in both.
     */
    private static void copyBox(float[] src, int[] srcShape, int srcLo, float[] dst, int[] dstShape, int dstLo,
                                int axis, int lo, int hi) {
        int inner = 1;
        for (int a = axis + 1; a < srcShape.length; a++) {
            inner *= srcShape[a];
        }
        int outer = 1;
        for (int a = 0; a < axis; a++) {
            outer *= srcShape[a];
        }
        int sn = srcShape[axis];
        int dn = dstShape[axis];
        for (int o = 0; o < outer; o++) {
            System.arraycopy(src, (o * sn + lo - srcLo) * inner, dst, (o * dn + lo - dstLo) * inner,
                    (hi - lo) * inner);
        }
    }

    private static int product(int[] s) {
        int n = 1;
        for (int d : s) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }
}
