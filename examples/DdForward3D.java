import java.nio.file.Path;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * 3-D forward modelling decomposed over 2 MPI ranks (px = 2): global model, sources and receivers on every rank; rank 0
 * writes dd3d-record.npy. Run from the repository root after ./sweep has built the project:
 * mpirun -np 2 --bind-to none java -cp "target/sweep-java.jar:target/lib/*" --add-modules jdk.incubator.vector examples/DdForward3D.java
 */
public class DdForward3D {
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int nz = 60;
        int ny = 64;
        int nx = 64;
        float[] vp = new float[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int i = 0; i < ny * nx; i++) {
                vp[z * ny * nx + i] = z < 30 ? 1800f : 2600f;
            }
        }
        PropSpec spec = PropSpec.builder(nz, ny, nx).dh(10).dt(1e-3).nt(500).abcn(15).freeSurface(true).threads(1)
                .build();
        int[][][] src = {{{32, 32, 2}}};
        int[][][] rec = new int[1][nx][];
        for (int r = 0; r < nx; r++) {
            rec[0][r] = new int[] {r, 32, 2};
        }
        int world = mpi.MPI.COMM_WORLD.getSize();
        try (ModelParallelMesh mesh = ModelParallelMesh.create(1, world, 1);
             ModelParallel mp = new ModelParallel(spec, mesh)) {
            Record tile = mp.forward(Wavelets.ricker(12, spec.nt(), spec.dt()), src, rec, vp);
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
