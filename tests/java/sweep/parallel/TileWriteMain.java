package sweep.parallel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import mpi.MPI;
import sweep.io.Npy;
import sweep.prop.PropSpec;

/**
 * Run under mpirun (4 ranks) by {@link TileWriteMpiTest}: for several meshes and model shapes (pads inside the last
 * tile, a tile that is all pad, pads along y and x, two shot groups, no pad), every rank takes its tile of one random
 * padded array (with -0 among its values) and writes it with {@link TileFiles#writeTiles}, once as a gradient (pad
 * adjoint) and once as a model (pad dropped); world rank 0 compares each file, byte for byte, with the file of the
 * gathered path ({@link ModelParallel#allGatherTiles}, then {@link Padding#padToMeshAdjoint} or
 * {@link Padding#unpadFromMesh}, written by {@link Npy#writeFloat32}) and prints "case NAME KIND: same" or
 * "... differs"; then "done". Two cases write three arrays of the model's shape at once (a parameter-major elastic
 * gradient, file shape (3, ...)).
 */
public final class TileWriteMain {
    private TileWriteMain() {
    }

    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        Path dir = Path.of(args[0]);
        check(dir, "2d-pad-in-last-tile", new int[] {5, 13}, 1, 4, 1);
        check(dir, "2d-last-tile-all-pad", new int[] {5, 9}, 1, 4, 1);
        check(dir, "3d-pad-y-and-x", new int[] {3, 7, 9}, 2, 2, 1);
        check(dir, "2d-two-shot-groups", new int[] {4, 11}, 1, 2, 2);
        check(dir, "3d-no-pad", new int[] {3, 8, 10}, 2, 2, 1);
        check(dir, "3d-pad-y-and-x-3-parameters", new int[] {3, 7, 9}, 2, 2, 1, 3);
        check(dir, "2d-two-shot-groups-3-parameters", new int[] {4, 11}, 1, 2, 2, 3);
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println("done");
        }
        Mpi.finish();
    }

    private static void check(Path dir, String name, int[] shape, int py, int px, int groups) throws Exception {
        check(dir, name, shape, py, px, groups, 1);
    }

    private static void check(Path dir, String name, int[] shape, int py, int px, int groups, int count)
            throws Exception {
        try (ModelParallelMesh mesh = ModelParallelMesh.create(py, px, groups)) {
            MeshTopology topo = mesh.topology();
            int[] padded = Padding.paddedShape(shape, topo);
            int cells = Arrays.stream(padded).reduce(1, (a, b) -> a * b);
            Random rnd = new Random(cells);
            float[] global = new float[count * cells];
            for (int i = 0; i < global.length; i++) {
                global[i] = i % 11 == 0 ? -0f : (float) rnd.nextGaussian();
            }
            PropSpec spec = PropSpec.builder(padded).dh(10).dt(1e-3).nt(1).order(2).abcn(0).build();
            try (ModelParallel mp = new ModelParallel(spec, mesh)) {
                MeshTopology.Extent e = mp.tile();
                float[] tile = new float[0];
                for (int k = 0; k < count; k++) {
                    float[] part = cut(Arrays.copyOfRange(global, k * cells, (k + 1) * cells), padded, e);
                    float[] grown = Arrays.copyOf(tile, tile.length + part.length);
                    System.arraycopy(part, 0, grown, tile.length, part.length);
                    tile = grown;
                }
                int[] fileShape = count == 1 ? shape : lead(count, shape);
                for (boolean adjoint : new boolean[] {true, false}) {
                    String kind = adjoint ? "gradient" : "model";
                    Path tiles = dir.resolve(name + "-" + kind + "-tiles.npy");
                    Path gathered = dir.resolve(name + "-" + kind + "-gathered.npy");
                    TileFiles.writeTiles(tiles, tile, count, shape, mesh, adjoint);
                    Shaped<float[]> all = new Shaped<>(mp.allGatherTiles(tile), count == 1 ? padded
                            : lead(count, padded));
                    float[] ref = (adjoint ? Padding.padToMeshAdjoint(all, shape, topo)
                            : Padding.unpadFromMesh(all, shape, topo)).data();
                    if (MPI.COMM_WORLD.getRank() == 0) {
                        Npy.writeFloat32(gathered, ref, fileShape);
                        boolean same = Arrays.equals(Files.readAllBytes(tiles), Files.readAllBytes(gathered));
                        System.out.println("case " + name + " " + kind + ": " + (same ? "same" : "differs"));
                    }
                }
            }
        }
    }

    private static int[] lead(int count, int[] shape) {
        int[] out = new int[shape.length + 1];
        out[0] = count;
        System.arraycopy(shape, 0, out, 1, shape.length);
        return out;
    }

    private static float[] cut(float[] global, int[] padded, MeshTopology.Extent e) {
        int nd = padded.length;
        int[] s = e.shape();
        int[] o = e.offsets();
        int ty = nd == 3 ? s[1] : 1;
        int tx = s[nd - 1];
        int gy = nd == 3 ? padded[1] : 1;
        int gx = padded[nd - 1];
        int oy = nd == 3 ? o[1] : 0;
        float[] t = new float[s[0] * ty * tx];
        for (int z = 0; z < s[0]; z++) {
            for (int y = 0; y < ty; y++) {
                System.arraycopy(global, (z * gy + y + oy) * gx + o[nd - 1], t, (z * ty + y) * tx, tx);
            }
        }
        return t;
    }
}
