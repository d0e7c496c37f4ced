import sweep.core.Wavelets;
import sweep.fwi.Acquisition;
import sweep.fwi.DecomposedObjective;
import sweep.fwi.Fwi;
import sweep.fwi.Objective;
import sweep.models.DefaultModels;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * FWI decomposed over 4 MPI ranks: 2 shot groups × 2 tiles (px = 2), on a 1 km × 3 km cut of the built-in model at
 * 20 m; rank 0 prints the misfit per iteration. Run from the repository root after ./sweep has built the project:
 * mpirun -np 4 --oversubscribe --bind-to none java -cp "target/sweep-java.jar:target/lib/*" --add-modules jdk.incubator.vector examples/DdFwiShotGroups.java
 */
public class DdFwiShotGroups {
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int rank = mpi.MPI.COMM_WORLD.getRank();
        double dh = 20;
        int nz = 50;
        int nx = 150;
        float[] full = DefaultModels.fwi2d(dh);
        float[] vTrue = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            System.arraycopy(full, z * 300, vTrue, z * nx, nx);
        }
        int water = 13;
        float[] start = DefaultModels.smooth(vTrue, nz, nx, 10, water);
        PropSpec spec = PropSpec.builder(nz, nx).dh(dh).dt(1.9e-3).nt(900).abcn(20).freeSurface(true).maxVel(4500)
                .threads(1).build();
        float[] w = Wavelets.ricker(6, spec.nt(), spec.dt());
        int shots = 4;
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][nx / 2][];
        for (int b = 0; b < shots; b++) {
            src[b] = new int[][] {{20 + 35 * b, 1}};
            for (int r = 0; r < nx / 2; r++) {
                rec[b][r] = new int[] {2 * r, 1};
            }
        }
        float[] observed;
        try (Propagator p = new Propagator(spec)) {
            observed = p.forward(w, src, rec, vTrue).data();
        }
        Acquisition acq = new Acquisition(spec, w, src, rec, observed);
        try (ModelParallelMesh mesh = ModelParallelMesh.create(1, 2, 2);
             Objective obj = new DecomposedObjective(acq, mesh, water)) {
            // each rank inverts its tile of the model: the starting model's part, and its part of the result
            Fwi.State st = Fwi.run(obj, obj.tile().slice(start), new Fwi.Settings(5, 1400, 4700, 100, 5), null, it -> {
                if (rank == 0) {
                    System.out.printf("iteration %d misfit %.6e%n", it.index(), it.misfit());
                }
            });
            if (rank == 0) {
                System.out.printf("misfit %.6e -> %.6e%n", st.initialMisfit(), st.misfit());
            }
        }
        Mpi.finish();
    }
}
