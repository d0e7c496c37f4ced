package sweep.cli;

import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import sweep.parallel.BalancedGrid;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.parallel.Padding;
import sweep.parallel.Shaped;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * The command line's decomposed path: MPI set-up, the mesh (given or balanced), padding of the model to the mesh,
 * shot groups (group g runs the g-th block of B/G shots), and the assembly of every shot's record and of the
 * gradient on world rank 0, which alone writes files. Results equal the single-domain run bit for bit.
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
        float[] all = new float[shots * group.nt() * group.nrec()];
        int block = group.data().length;
        System.arraycopy(group.data(), 0, all, 0, block);
        for (int g = 1; g < groups; g++) {
            float[] part = new float[block];
            MPI.COMM_WORLD.recv(part, block, MPI.FLOAT, mesh.topology().rankAt(g, 0, 0), 31);
            System.arraycopy(part, 0, all, g * block, block);
        }
        return new Record(all, shots, group.nt(), group.nrec(), group.nfield());
    }

    /** The gradient on the caller's (unpadded) grid, on every rank of the group. */
    float[] globalGradient(ModelParallel mp, Gradient g) {
        float[] paddedGlobal = mp.allGatherTiles(g.vp());
        return Padding.padToMeshAdjoint(new Shaped<>(paddedGlobal, padded), shape, mesh.topology()).data();
    }

    @Override
    public void close() {
        mesh.close();
    }
}
