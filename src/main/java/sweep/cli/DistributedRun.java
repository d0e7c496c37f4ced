package sweep.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import sweep.io.Npy;
import sweep.parallel.BalancedGrid;
import sweep.parallel.MeshTopology;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.parallel.Padding;
import sweep.parallel.Shaped;
import sweep.parallel.TileFiles;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * The command line's decomposed path: MPI set-up, the mesh (given or balanced), padding of the model to the mesh,
 * shot groups (group g runs the g-th block of B/G shots), each rank's reading of its tile of a model and of its traces
 * of the observed data (never the whole file), the assembly of every shot's record on world rank 0, and the writing
 * of model-shaped results (gathered to rank 0, or tile-wise by the ranks together above
 * {@link TileFiles#writeThreshold()}). Results equal the single-domain run bit for bit.
 */
final class DistributedRun implements AutoCloseable {
    final ModelParallelMesh mesh;
    final int worldRank;
    private final int[] shape;
    private final int[] padded;
    private final int shots;
    private final int per;

    DistributedRun(MeshOptions opt, int[] shape, int shots) throws MPIException {
        Mpi.init(new String[0]);
        int world = MPI.COMM_WORLD.getSize();
        this.worldRank = MPI.COMM_WORLD.getRank();
        int groups = opt.shotGroups == null ? 1 : opt.shotGroups;
        int py;
        int px;
        if (opt.py == null && opt.px == null) {
            if (world % groups != 0) {
                throw new IllegalArgumentException(opt.origin + ": a world of " + world + " ranks is not divisible by "
                        + groups + " shot groups");
            }
            BalancedGrid bg = BalancedGrid.of(world, shape, groups, shape.length == 3 ? world / groups : 1);
            py = bg.py();
            px = bg.px();
        } else {
            py = opt.py == null ? 1 : opt.py;
            px = opt.px == null ? 1 : opt.px;
        }
        if (world != groups * py * px) {
            throw new IllegalArgumentException(opt.origin + ": mpirun started " + world + " ranks but the mesh of "
                    + groups + " shot group(s) x py " + py + " x px " + px + " needs " + groups * py * px
                    + ": change -np or the mesh");
        }
        if (shots % groups != 0) {
            throw new IllegalArgumentException(opt.origin + ": " + shots + " shots do not split evenly into " + groups
                    + " shot groups: give a multiple of " + groups + " shots");
        }
        this.mesh = ModelParallelMesh.create(py, px, groups);
        this.shape = shape.clone();
        this.padded = Padding.paddedShape(shape, mesh.topology());
        this.shots = shots;
        this.per = shots / groups;
        if (worldRank == 0) {
            System.err.printf("sweep: %d ranks = %d shot group(s) x py %d x px %d; model %s padded to %s%n", world,
                    groups, py, px, Arrays.toString(shape), Arrays.toString(padded));
        }
    }

    /** "rank 1 (tile [40, 30] at [0, 30])": who runs out of memory, for messages. */
    String rankAndTile(Grid tile) {
        return "rank " + worldRank + " (tile " + Arrays.toString(tile.tileShape()) + " at "
                + Arrays.toString(tile.tileOffset()) + ")";
    }

    /** The spec of the padded problem. */
    PropSpec paddedSpec(PropSpec spec) {
        return spec.withShape(padded);
    }

    float[] pad(float[] model) {
        return Padding.padToMesh(model, shape, mesh.topology()).data();
    }

    /**
     * This rank's tile of the padded model, read from the model {@code file} (float32 .npy or SEG-Y, checked against
     * the model's shape) without reading the other tiles' bytes; {@code what} (e.g. "--vp") names it in messages.
     */
    float[] readTile(Path file, String what) {
        return TileFiles.readTile(file, what, shape, mesh.topology());
    }

    /**
     * This rank's tile of the padded model of {@code pr}, parameter-major: the tile of each parameter's file one after
     * the other, each physical cell checked by the equation ({@link sweep.equation.WaveEquation#checkModel}) with the
     * message of the single-domain check (file and global position named). Reads only the tile's bytes of each file.
     */
    float[] readModelTile(ProblemOptions.Problem pr, String[] names) {
        int k = pr.files().size();
        float[][] t = new float[k][];
        for (int p = 0; p < k; p++) {
            t[p] = readTile(pr.files().get(p), pr.option(p));
        }
        MeshTopology.Extent e = mesh.topology().localExtent(padded);
        int n = t[0].length;
        float[] m = new float[Math.multiplyExact(k, n)];
        for (int p = 0; p < k; p++) {
            System.arraycopy(t[p], 0, m, p * n, n);
        }
        pr.spec().equation().checkModel(m, e.shape(), e.offsets(), shape, names);
        return m;
    }

    /**
     * This rank's traces of the observed data {@code file}, float32 {@code (B, nt, nrec, nfield)} with the fields
     * {@code fields} (shape checked; any equation's record): the shots of its shot group and the receivers {@code own} (global indices), every field, as
     * {@code (B/G, nt, nown, nfield)}, read without the other ranks' traces. A NaN or Inf among them is refused with
     * its global (shot, sample, receiver).
     */
    float[] readOwnTraces(Path file, String what, int nt, int nrec, List<String> fields, int[] own) {
        int nfield = fields.size();
        int g = mesh.topology().shotGroup();
        int[] mine = new int[per];
        for (int b = 0; b < per; b++) {
            mine[b] = g * per + b;
        }
        float[] data = Npy.readFloat32Selection(file, what, new int[] {shots, nt, nrec, nfield},
                new int[][] {mine, null, own, null});
        int nown = own.length;
        for (int i = 0; i < data.length; i++) {
            if (!Float.isFinite(data[i])) {
                int r = own[(i / nfield) % nown];
                long t = (i / (nfield * nown)) % nt;
                long b = mine[i / (nfield * nown * nt)];
                throw ProblemOptions.nonFiniteRecord(data[i], b, t, r, fields, i % nfield, file, what);
            }
        }
        return data;
    }

    /**
     * Writes a model-shaped array, given as this rank's tile of the padded grid, to {@code file} on the caller's
     * (unpadded) grid: the pad's adjoint applied when {@code gradient}, the pad cells dropped otherwise. Above
     * {@link TileFiles#writeThreshold()} the ranks write their tiles into the file together; below it the tiles are
     * gathered and world rank 0 writes the file. Collective over the world.
     */
    void writeModelShaped(Path file, ModelParallel mp, float[] paddedTile, boolean gradient) {
        writeModelShaped(file, mp, paddedTile, 1, gradient);
    }

    /**
     * As {@link #writeModelShaped(Path, ModelParallel, float[], boolean)} for {@code count} model-shaped arrays one
     * after the other (a parameter-major gradient): the file holds {@code (count, nz, [ny,] nx)} (one array: the
     * model's shape).
     */
    void writeModelShaped(Path file, ModelParallel mp, float[] paddedTiles, int count, boolean gradient) {
        if (TileFiles.writesTileWise(fileShape(count))) {
            TileFiles.writeTiles(file, paddedTiles, count, shape, mesh, gradient);
            return;
        }
        Shaped<float[]> all = new Shaped<>(mp.allGatherTiles(paddedTiles), fileShape(count, padded));
        float[] global = (gradient ? Padding.padToMeshAdjoint(all, shape, mesh.topology())
                : Padding.unpadFromMesh(all, shape, mesh.topology())).data();
        if (worldRank == 0) {
            Npy.writeFloat32(file, global, fileShape(count));
        }
    }

    /** The shape of a file of {@code count} model-shaped arrays: the model's, or {@code (count, ...)}. */
    int[] fileShape(int count) {
        return fileShape(count, shape);
    }

    private static int[] fileShape(int count, int[] s) {
        if (count == 1) {
            return s.clone();
        }
        int[] out = new int[s.length + 1];
        out[0] = count;
        System.arraycopy(s, 0, out, 1, s.length);
        return out;
    }

    /** Bytes the gathered path of {@link #writeModelShaped} holds on every rank (0 when it writes tile-wise). */
    long gatherBytes() {
        return gatherBytes(1);
    }

    /** As {@link #gatherBytes()} for {@code count} arrays. */
    long gatherBytes(int count) {
        if (TileFiles.writesTileWise(fileShape(count))) {
            return 0;
        }
        long cells = count;
        for (int n : padded) {
            cells *= n;
        }
        return 4L * 2 * cells;
    }

    /** This group's block of a per-shot array (B, ...). */
    <T> T[] mine(T[] all) {
        int g = mesh.topology().shotGroup();
        return Arrays.copyOfRange(all, g * per, (g + 1) * per);
    }

    /** This group's block of a flat (B, rest) array with {@code rest} values per shot. */
    float[] mine(float[] all, int rest) {
        int g = mesh.topology().shotGroup();
        return Arrays.copyOfRange(all, g * per * rest, (g + 1) * per * rest);
    }

    /** Every shot's record on world rank 0 (null elsewhere), from each group's gathered record. */
    Record gatherAll(ModelParallel mp, Record tileRecord) throws MPIException {
        Record group = mp.gatherRecord(tileRecord);
        int groups = mesh.topology().shotGroups();
        boolean groupRoot = mesh.topology().tileRank() == 0;
        if (groupRoot && worldRank != 0) {
            MPI.COMM_WORLD.send(group.data(), group.data().length, MPI.FLOAT, 0, 31);
            return null;
        }
        if (worldRank != 0) {
            return null;
        }
        float[] all = new float[shots * group.nt() * group.nrec() * group.nfield()];
        int block = group.data().length;
        System.arraycopy(group.data(), 0, all, 0, block);
        for (int g = 1; g < groups; g++) {
            float[] part = new float[block];
            MPI.COMM_WORLD.recv(part, block, MPI.FLOAT, mesh.topology().rankAt(g, 0, 0), 31);
            System.arraycopy(part, 0, all, g * block, block);
        }
        return new Record(all, shots, group.nt(), group.nrec(), group.nfield());
    }

    @Override
    public void close() {
        mesh.close();
    }
}
