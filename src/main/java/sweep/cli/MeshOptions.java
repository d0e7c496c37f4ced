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

    /** Whether the run must be decomposed: launched by mpirun, or any mesh option above 1. */
    boolean decomposed() {
        return sweep.parallel.Mpi.launchedByMpirun() || (py != null && py > 1) || (px != null && px > 1)
                || (shotGroups != null && shotGroups > 1);
    }
}
