import java.nio.file.Path;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.models.DefaultModels;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * 3-D forward modelling of the built-in 3-D model (layers, fault, fast body, slow lens) decomposed over the MPI ranks
 * (px = number of ranks): global model, sources and receivers on every rank; rank 0 writes dd3d-record.npy. Run from
 * the repository root after ./sweep has built the project:
 * mpirun -np 2 --bind-to none java -cp "target/sweep-java.jar:target/lib/*" --add-modules jdk.incubator.vector examples/DdForward3D.java
 */
public class DdForward3D {
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        double dh = 40;
        float[] vp = DefaultModels.fwi3d(dh);   // the 3-D built-in model: 50 x 50 x 150 cells at 40 m
        int nz = 50;
        int ny = 50;
        int nx = 150;
        PropSpec spec = PropSpec.builder(nz, ny, nx).dh(dh).dt(3e-3).nt(700).abcn(15).freeSurface(true).threads(1)
                .build();
        int[][][] src = {{{nx / 2, ny / 2, 1}}};
        int[][][] rec = new int[1][nx][];
        for (int r = 0; r < nx; r++) {
            rec[0][r] = new int[] {r, ny / 2, 1};
        }
        int world = mpi.MPI.COMM_WORLD.getSize();
        try (ModelParallelMesh mesh = ModelParallelMesh.create(1, world, 1);
             ModelParallel mp = new ModelParallel(spec, mesh)) {
            Record tile = mp.forward(Wavelets.ricker(6, spec.nt(), spec.dt()), src, rec, vp);
            Record all = mp.gatherRecord(tile);
            if (all != null) {
                Npy.writeFloat32(Path.of("dd3d-record.npy"), all.data(), all.shape());
                System.out.println("wrote dd3d-record.npy " + java.util.Arrays.toString(all.shape()) + " from "
                        + world + " tiles");
            }
        }
        Mpi.finish();
    }
}
