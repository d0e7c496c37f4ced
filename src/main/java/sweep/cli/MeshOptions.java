package sweep.cli;

import picocli.CommandLine.Option;

/** Domain-decomposition options of {@code forward} and {@code gradient}; all absent means one domain. */
public final class MeshOptions {
    @Option(names = "--py", description = "tiles along y (3-D only; default: balanced grid under mpirun, else 1)")
    Integer py;

    @Option(names = "--px", description = "tiles along x (default: balanced grid under mpirun, else 1)")
    Integer px;

    @Option(names = "--shot-groups", description = "shot groups running different shots (default 1)")
    Integer shotGroups;

    /** Where the mesh was given, for error messages (a job-file key, or these options). */
    String origin = "--shot-groups/--py/--px";

    /** The mesh {shot groups, py, px} (0 or absent: chosen by the balanced grid), given by {@code origin}. */
    static MeshOptions of(int[] mesh, String origin) {
        MeshOptions m = new MeshOptions();
        if (mesh != null) {
            m.shotGroups = mesh[0];
            m.py = mesh[1] == 0 ? null : mesh[1];
            m.px = mesh[2] == 0 ? null : mesh[2];
        }
        m.origin = origin;
        return m;
    }

    /** Whether the run must be decomposed: launched by mpirun, or any mesh option above 1. */
    boolean decomposed() {
        return sweep.parallel.Mpi.launchedByMpirun() || (py != null && py > 1) || (px != null && px > 1)
                || (shotGroups != null && shotGroups > 1);
    }
}
