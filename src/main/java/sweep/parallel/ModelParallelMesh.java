package sweep.parallel;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The MPI side of a {@link MeshTopology}: the world (or another parent communicator) split into the {@code model}
 * communicator (the py·px tile ranks of this shot group, ranked by tile rank) and the {@code shot} communicator (the
 * ranks holding the same tile across shot groups, ranked by shot group). Created collectively by every rank of the
 * parent; {@link #close()} frees both.
 */
public final class ModelParallelMesh implements AutoCloseable {
    private final MeshTopology topology;
    private final Intracomm model;
    private final Intracomm shot;

    private ModelParallelMesh(MeshTopology topology, Intracomm model, Intracomm shot) {
        this.topology = topology;
        this.model = model;
        this.shot = shot;
    }

    /**
     * Splits {@code MPI.COMM_WORLD} (MPI must be initialised, see {@link Mpi#init}) for a mesh of py × px tiles and
     * {@code shotGroups} groups; the world size must be shotGroups·py·px. Collective over {@code MPI.COMM_WORLD}.
     */
    public static ModelParallelMesh create(int py, int px, int shotGroups) {
        return create(MPI.COMM_WORLD, py, px, shotGroups);
    }

    /**
     * Splits {@code parent} for a mesh of py × px tiles and {@code shotGroups} groups; its size must be
     * shotGroups·py·px, and the topology's ranks are ranks in {@code parent}. Collective over {@code parent}; the
     * caller keeps ownership of {@code parent} ({@link #close()} frees only the two communicators made here).
     */
    public static ModelParallelMesh create(Intracomm parent, int py, int px, int shotGroups) {
        try {
            int size = parent.getSize();
            int rank = parent.getRank();
            MeshTopology t = new MeshTopology(py, px, shotGroups, size, rank);
            Intracomm model = parent.split(t.shotGroup(), t.tileRank());
            Intracomm shot = parent.split(t.tileRank(), t.shotGroup());
            return new ModelParallelMesh(t, model, shot);
        } catch (MPIException e) {
            throw new IllegalStateException("MPI communicator split failed: " + e.getMessage(), e);
        }
    }

    public MeshTopology topology() {
        return topology;
    }

    /** The tile ranks of this shot group; rank in it = {@link MeshTopology#tileRank()}. */
    public Intracomm model() {
        return model;
    }

    /** The ranks holding this tile in every shot group; rank in it = {@link MeshTopology#shotGroup()}. */
    public Intracomm shot() {
        return shot;
    }

    /** Frees the mesh's communicators. Collective over the mesh. */
    @Override
    public void close() {
        try {
            model.free();
            shot.free();
        } catch (MPIException e) {
            throw new IllegalStateException("freeing the mesh communicators failed: " + e.getMessage(), e);
        }
    }
}
