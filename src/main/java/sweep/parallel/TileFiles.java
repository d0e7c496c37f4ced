package sweep.parallel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import sweep.io.AtomicFiles;
import sweep.io.IoErrors;
import sweep.io.ModelFiles;
import sweep.io.Npy;

/**
 * Model-shaped .npy files read and written tile by tile under a mesh, so that no rank holds a global-size array: a
 * rank reads only the bytes of its tile (the cells a pad to the mesh adds are filled from the last column and row,
 * exactly as {@link Padding#padToMesh} does), and the ranks of shot group 0 write their tiles into one file together
 * (header by world rank 0, positional writes, atomic rename after a barrier). Any float32 array of the model's shape
 * goes through here (a velocity, or any other parameter of an equation), z first, x fastest.
 */
public final class TileFiles {
    /** System property: global arrays larger than this many bytes are written tile-wise (suffix k, m or g allowed). */
    public static final String WRITE_THRESHOLD_PROPERTY = "sweep.io.tilewrite";
    /** Default of {@link #WRITE_THRESHOLD_PROPERTY}: 256 MiB. */
    public static final long DEFAULT_WRITE_THRESHOLD = 256L << 20;

    private static final int TAG_NAME = 41;

    private TileFiles() {
    }

    /**
     * For each axis, the index in the physical array of {@code shape} of each cell of this rank's tile of the padded
     * grid ({@link Padding#paddedShape}); pad cells map to the last physical index (edge replicate). Axis 0 (z, never
     * split) is null: whole.
     */
    public static int[][] tileIndex(int[] shape, MeshTopology topo) {
        int[] padded = Padding.paddedShape(shape, topo);
        MeshTopology.Extent e = topo.localExtent(padded);
        int nd = shape.length;
        int[][] idx = new int[nd][];
        for (int a = 1; a < nd; a++) {
            int n = e.shape()[a];
            int o = e.offsets()[a];
            idx[a] = new int[n];
            for (int i = 0; i < n; i++) {
                idx[a][i] = Math.min(o + i, shape[a] - 1);
            }
        }
        return idx;
    }

    /**
     * This rank's tile of the padded grid, read from the model file {@code path} (float32 .npy or SEG-Y) of physical
     * {@code shape} (checked; {@code what} names it in messages): the same values as the tile of
     * {@code Padding.padToMesh(whole file)}, bit for bit, from only the tile's bytes. Not collective.
     */
    public static float[] readTile(Path path, String what, int[] shape, MeshTopology topo) {
        return ModelFiles.readSelection(path, what, shape, tileIndex(shape, topo));
    }

    /**
     * The threshold above which a global array is written tile-wise, from {@link #WRITE_THRESHOLD_PROPERTY} (bytes,
     * or with a k, m or g suffix for KiB, MiB, GiB).
     */
    public static long writeThreshold() {
        String v = System.getProperty(WRITE_THRESHOLD_PROPERTY);
        if (v == null || v.isBlank()) {
            return DEFAULT_WRITE_THRESHOLD;
        }
        String s = v.strip().toLowerCase(Locale.ROOT);
        int shift = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1));
            if (n < 0 || n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + WRITE_THRESHOLD_PROPERTY + "=" + v + " is not a size in bytes:"
                    + " give e.g. 268435456, 256m or 1g");
        }
    }

    /** Whether a float32 array of {@code shape} is written tile-wise ({@link #writeThreshold()}). */
    public static boolean writesTileWise(int[] shape) {
        long bytes = 4;
        for (int n : shape) {
            bytes *= n;
        }
        return bytes > writeThreshold();
    }

    /**
     * Writes a model-shaped float32 .npy file of physical {@code shape} from every rank's tile of the padded grid
     * ({@code paddedTile}, the tile shape of {@link MeshTopology#localExtent} of the padded shape). With
     * {@code adjointOfPad}, the file holds what {@link Padding#padToMeshAdjoint} makes of the assembled padded array
     * (pad cells summed onto the edge cells they copy, in the same order, in double; for a gradient); without, the pad
     * cells are dropped ({@link Padding#unpadFromMesh}, for a model). Every value is the one the gathered path
     * ({@link ModelParallel#allGatherTiles} then the pad's adjoint or unpad) writes, bit for bit.
     *
     * <p>Collective over {@code MPI.COMM_WORLD}: every rank calls it; shot group 0 writes (every group holds the same
     * array). World rank 0 makes a hidden temporary file beside {@code path} with the header and the full length;
     * after a broadcast of its name each writing rank writes its physical cells with positional writes; after a
     * barrier rank 0 forces the file to disk and renames it over {@code path}. A failure on any rank aborts the job;
     * the rank that fails removes the temporary file first.
     */
    public static void writeTiles(Path path, float[] paddedTile, int[] shape, ModelParallelMesh mesh,
                                  boolean adjointOfPad) {
        writeTiles(path, paddedTile, 1, shape, mesh, adjointOfPad);
    }

    /**
     * As {@link #writeTiles(Path, float[], int[], ModelParallelMesh, boolean)} for {@code count} model-shaped arrays
     * one after the other ({@code paddedTiles}: each array's tile, e.g. a parameter-major gradient): the file holds
     * {@code (count, nz, [ny,] nx)}, or the model's shape when {@code count} is 1. Collective as that.
     */
    public static void writeTiles(Path path, float[] paddedTiles, int count, int[] shape, ModelParallelMesh mesh,
                                  boolean adjointOfPad) {
        MeshTopology topo = mesh.topology();
        int nd = shape.length;
        int[] padded = Padding.paddedShape(shape, topo);
        MeshTopology.Extent e = topo.localExtent(padded);
        long tileCells = 1;
        for (int n : e.shape()) {
            tileCells *= n;
        }
        if (count < 1 || paddedTiles.length != tileCells * count) {
            throw new IllegalArgumentException("tile array has " + paddedTiles.length + " values; " + count
                    + " arrays of the tile " + java.util.Arrays.toString(e.shape()) + " need " + tileCells * count);
        }
        int[] fileShape = shape;
        if (count > 1) {
            fileShape = new int[nd + 1];
            fileShape[0] = count;
            System.arraycopy(shape, 0, fileShape, 1, nd);
        }
        long cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        Path tmp = null;
        boolean done = false;
        try {
            int world = MPI.COMM_WORLD.getRank();
            long dataOffset = Npy.float32Header(fileShape).length;
            if (world == 0) {
                tmp = AtomicFiles.createShared(path, ".npy file");
                create(tmp, path, fileShape);
            }
            byte[] name = world == 0 ? tmp.toString().getBytes(StandardCharsets.UTF_8) : null;
            int[] len = {name == null ? 0 : name.length};
            MPI.COMM_WORLD.bcast(len, 1, MPI.INT, 0);
            if (name == null) {
                name = new byte[len[0]];
            }
            MPI.COMM_WORLD.bcast(name, len[0], MPI.BYTE, 0);
            tmp = Path.of(new String(name, StandardCharsets.UTF_8));
            if (topo.shotGroup() == 0) {
                int[] off = e.offsets();
                int[] extent = e.shape();
                for (int a = 1; a < nd; a++) {
                    extent[a] = Math.max(0, Math.min(off[a] + extent[a], shape[a]) - off[a]);
                    off[a] = Math.min(off[a], shape[a]);
                }
                for (int k = 0; k < count; k++) {
                    float[] tile = count == 1 ? paddedTiles : java.util.Arrays.copyOfRange(paddedTiles,
                            Math.toIntExact(k * tileCells), Math.toIntExact((k + 1) * tileCells));
                    float[] box = physicalBox(tile, shape, padded, e, mesh, adjointOfPad);
                    if (box.length > 0) {
                        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                            Npy.writeFloat32Box(ch, dataOffset + 4L * k * cells, shape, off, extent, box);
                        } catch (IOException ex) {
                            throw new UncheckedIOException(path + ": cannot write the tile of rank " + topo.rank()
                                    + ": " + IoErrors.reason(path, ex), ex);
                        }
                    }
                }
            }
            MPI.COMM_WORLD.barrier();
            done = true; // past the barrier no rank removes the file: rank 0 commits it (or removes it when that fails)
            if (world == 0) {
                AtomicFiles.commit(tmp, path, ".npy file");
            }
        } catch (MPIException ex) {
            throw new IllegalStateException("tile-wise write of " + path + " failed: " + ex.getMessage(), ex);
        } finally {
            if (!done && tmp != null) {
                delete(tmp); // the rank that fails removes the shared file; the job is then aborted
            }
        }
    }

    private static void delete(Path tmp) {
        try {
            java.nio.file.Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // best effort: the write already failed
        }
    }

    /** Makes the file: header, then the full length (the data are written by the ranks). */
    private static void create(Path tmp, Path path, int[] shape) {
        byte[] header = Npy.float32Header(shape);
        long bytes = 4;
        for (int n : shape) {
            bytes *= n;
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ByteBuffer h = ByteBuffer.wrap(header);
            while (h.hasRemaining()) {
                ch.write(h, h.position());
            }
            if (bytes > 0) {
                ByteBuffer last = ByteBuffer.allocate(1);
                ch.write(last, header.length + bytes - 1);
            }
        } catch (IOException ex) {
            delete(tmp);
            throw new UncheckedIOException(path + ": cannot write .npy file: " + IoErrors.reason(path, ex), ex);
        }
    }

    /**
     * This rank's physical cells (its tile without the pad cells), each as the gathered path writes it: a cell that
     * no pad copies is {@code v + 0f} (the all-reduce of the gathered path adds zeros, which turns -0 into +0); an edge
     * cell that pad cells copy is, with {@code adjointOfPad}, the double sum of itself and its copies in
     * {@link Padding#padToMeshAdjoint}'s order, the copies taken from edge strips summed over the group's tiles
     * (collective over the group's {@code model} communicator when the grid is padded).
     */
    private static float[] physicalBox(float[] tile, int[] shape, int[] padded, MeshTopology.Extent e,
                                       ModelParallelMesh mesh, boolean adjointOfPad) throws MPIException {
        int nd = shape.length;
        int nz = shape[0];
        int ny = nd == 3 ? shape[1] : 1;
        int nx = shape[nd - 1];
        int nyP = nd == 3 ? padded[1] : 1;
        int nxP = padded[nd - 1];
        int ty = nd == 3 ? e.shape()[1] : 1;
        int tx = e.shape()[nd - 1];
        int oy = nd == 3 ? e.offsets()[1] : 0;
        int ox = e.offsets()[nd - 1];
        int cy = Math.max(0, Math.min(oy + ty, ny) - oy);
        int cx = Math.max(0, Math.min(ox + tx, nx) - ox);
        boolean padX = adjointOfPad && nxP > nx;
        boolean padY = adjointOfPad && nyP > ny;
        // edge strips of the padded array: x in [nx-1, nxP) for every y, and y in [ny-1, nyP) for every x
        int wx = nxP - nx + 1;
        int wy = nyP - ny + 1;
        float[] sx = padX ? strip(tile, nz, ty, tx, oy, ox, nyP, 0, nyP, nx - 1, nxP) : null;
        float[] sy = padY ? strip(tile, nz, ty, tx, oy, ox, nyP, ny - 1, nyP, 0, nxP) : null;
        if (padX) {
            mesh.model().allReduce(sx, sx.length, MPI.FLOAT, MPI.SUM);
        }
        if (padY) {
            mesh.model().allReduce(sy, sy.length, MPI.FLOAT, MPI.SUM);
        }
        float[] box = new float[Math.toIntExact((long) nz * cy * cx)];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < cy; y++) {
                int gy = oy + y;
                int src = (z * ty + y) * tx;
                int dst = (z * cy + y) * cx;
                for (int x = 0; x < cx; x++) {
                    box[dst + x] = tile[src + x] + 0f;
                }
                boolean lastRow = padY && gy == ny - 1;
                for (int x = 0; x < cx; x++) {
                    int gx = ox + x;
                    boolean lastCol = padX && gx == nx - 1;
                    if (!lastRow && !lastCol) {
                        continue;
                    }
                    int yEnd = lastRow ? nyP : gy + 1;
                    int xEnd = lastCol ? nxP : gx + 1;
                    double sum = 0;
                    for (int yp = gy; yp < yEnd; yp++) {
                        for (int xp = gx; xp < xEnd; xp++) {
                            if (padX && xp >= nx - 1) {
                                sum += sx[(z * nyP + yp) * wx + xp - (nx - 1)];
                            } else {
                                sum += sy[(z * wy + yp - (ny - 1)) * nxP + xp];
                            }
                        }
                    }
                    box[dst + x] = (float) sum;
                }
            }
        }
        return box;
    }

    /**
     * A zero strip {@code (nz, y1-y0, x1-x0)} of the padded grid with this tile's cells in it; summed over the tiles it
     * is the strip of the assembled array.
     */
    private static float[] strip(float[] tile, int nz, int ty, int tx, int oy, int ox, int nyP, int y0, int y1,
                                 int x0, int x1) {
        int wy = y1 - y0;
        int wx = x1 - x0;
        float[] s = new float[Math.toIntExact((long) nz * wy * wx)];
        int ya = Math.max(y0, oy);
        int yb = Math.min(y1, oy + ty);
        int xa = Math.max(x0, ox);
        int xb = Math.min(x1, ox + tx);
        for (int z = 0; z < nz; z++) {
            for (int y = ya; y < yb; y++) {
                for (int x = xa; x < xb; x++) {
                    s[(z * wy + y - y0) * wx + x - x0] = tile[(z * ty + y - oy) * tx + x - ox];
                }
            }
        }
        return s;
    }
}
