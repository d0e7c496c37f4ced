package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static sweep.parallel.MeshTopologyTest.assertMessage;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PaddingTest {

    static MeshTopology mesh(int py, int px) {
        return new MeshTopology(py, px, 1, py * px, 0);
    }

    static float[] random(Random rnd, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextFloat() * 2 - 1;
        }
        return a;
    }

    static int size(int[] s) {
        int n = 1;
        for (int d : s) {
            n *= d;
        }
        return n;
    }

    @Test
    void padsTheHighSideOfXByReplicatingTheEdge2d() {
        float[] m = {1, 2, 3,
                     4, 5, 6};
        Shaped<float[]> p = Padding.padToMesh(m, new int[] {2, 3}, mesh(1, 2));
        assertArrayEquals(new int[] {2, 4}, p.shape());
        assertArrayEquals(new float[] {1, 2, 3, 3,
                                       4, 5, 6, 6}, p.data());
    }

    @Test
    void padsTheHighSideOfYAndXByReplicatingTheEdge3d() {
        // (nz, ny, nx) = (1, 2, 3) on (py, px) = (3, 2) -> (1, 3, 4)
        float[] m = {1, 2, 3,
                     4, 5, 6};
        Shaped<float[]> p = Padding.padToMesh(m, new int[] {1, 2, 3}, mesh(3, 2));
        assertArrayEquals(new int[] {1, 3, 4}, p.shape());
        assertArrayEquals(new float[] {1, 2, 3, 3,
                                       4, 5, 6, 6,
                                       4, 5, 6, 6}, p.data());
    }

    @Test
    void theDepthAxisIsNeverPadded() {
        // nz = 5 is a multiple of neither py nor px; only ny 6 -> 8 and nx 7 -> 9 grow
        int[] shape = {5, 6, 7};
        Shaped<float[]> p = Padding.padToMesh(new float[size(shape)], shape, mesh(4, 3));
        assertArrayEquals(new int[] {5, 8, 9}, p.shape());
        Shaped<float[]> p2 = Padding.padToMesh(new float[35], new int[] {5, 7}, mesh(1, 3));
        assertArrayEquals(new int[] {5, 9}, p2.shape());
    }

    @Test
    void returnsTheInputItselfWhenNoPadIsNeeded() {
        float[] m = new float[4 * 6 * 8];
        Shaped<float[]> p = Padding.padToMesh(m, new int[] {4, 6, 8}, mesh(2, 4));
        assertSame(m, p.data());
        boolean[] mask = new boolean[3 * 8];
        assertSame(mask, Padding.padToMesh(mask, new int[] {3, 8}, mesh(1, 8)).data());
        assertSame(p, Padding.unpadFromMesh(p, new int[] {4, 6, 8}, mesh(2, 4)));
        assertSame(p, Padding.padToMeshAdjoint(p, new int[] {4, 6, 8}, mesh(2, 4)));
    }

    @Test
    void booleanMasksArePaddedByTheSameRule() {
        Random rnd = new Random(3);
        int[] shape = {3, 5, 7};
        boolean[] mask = new boolean[size(shape)];
        float[] asFloat = new float[mask.length];
        for (int i = 0; i < mask.length; i++) {
            mask[i] = rnd.nextBoolean();
            asFloat[i] = mask[i] ? 1 : 0;
        }
        Shaped<boolean[]> pm = Padding.padToMesh(mask, shape, mesh(2, 4));
        Shaped<float[]> pf = Padding.padToMesh(asFloat, shape, mesh(2, 4));
        assertArrayEquals(pf.shape(), pm.shape());
        for (int i = 0; i < pm.data().length; i++) {
            assertEquals(pf.data()[i] == 1, pm.data()[i], "cell " + i);
        }
        Shaped<boolean[]> back = Padding.unpadFromMesh(pm, new int[] {3, 5, 7}, mesh(2, 4));
        assertArrayEquals(mask, back.data());
    }

    @Test
    void leadingBatchAxesPassThrough() {
        Random rnd = new Random(5);
        int[] shape = {2, 3, 4, 5, 7};           // (B, params, nz, ny, nx)
        float[] m = random(rnd, size(shape));
        MeshTopology mesh = mesh(2, 3);
        Shaped<float[]> p = Padding.padToMesh(m, shape, mesh);
        assertArrayEquals(new int[] {2, 3, 4, 6, 9}, p.shape());
        int slice = 4 * 5 * 7, paddedSlice = 4 * 6 * 9;
        for (int b = 0; b < 6; b++) {
            float[] one = java.util.Arrays.copyOfRange(m, b * slice, (b + 1) * slice);
            float[] alone = Padding.padToMesh(one, new int[] {4, 5, 7}, mesh).data();
            assertArrayEquals(alone, java.util.Arrays.copyOfRange(p.data(), b * paddedSlice, (b + 1) * paddedSlice));
        }
    }

    /** Cell (iz, iy, ix) of the model is cell (iz, iy, ix) of the padded model; pad cells equal the clamped edge. */
    @Test
    void everyCoordinateAddressesTheSamePhysicalCellAfterPadding() {
        Random rnd = new Random(11);
        int nz = 4, ny = 5, nx = 7;
        float[] m = random(rnd, nz * ny * nx);
        Shaped<float[]> p = Padding.padToMesh(m, new int[] {nz, ny, nx}, mesh(3, 4));
        int nyP = p.dim(1), nxP = p.dim(2);
        assertEquals(6, nyP);
        assertEquals(8, nxP);
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < nyP; y++) {
                for (int x = 0; x < nxP; x++) {
                    float expected = m[(z * ny + Math.min(y, ny - 1)) * nx + Math.min(x, nx - 1)];
                    assertEquals(expected, p.data()[(z * nyP + y) * nxP + x], "cell " + z + "," + y + "," + x);
                }
            }
        }
    }

    @Test
    void unpadUndoesPadOnRandomShapesAndMeshes() {
        Random rnd = new Random(13);
        for (int trial = 0; trial < 200; trial++) {
            boolean threeD = rnd.nextBoolean();
            int py = threeD ? 1 + rnd.nextInt(4) : 1, px = 1 + rnd.nextInt(6);
            int lead = rnd.nextInt(3);
            int[] grid = threeD ? new int[] {1 + rnd.nextInt(4), 1 + rnd.nextInt(9), 1 + rnd.nextInt(9)}
                                : new int[] {1 + rnd.nextInt(4), 1 + rnd.nextInt(13)};
            int[] shape = new int[lead + grid.length];
            for (int i = 0; i < lead; i++) {
                shape[i] = 1 + rnd.nextInt(3);
            }
            System.arraycopy(grid, 0, shape, lead, grid.length);
            float[] m = random(rnd, size(shape));
            float[] copy = m.clone();
            MeshTopology mesh = mesh(py, px);
            Shaped<float[]> p = Padding.padToMesh(m, shape, mesh);
            assertEquals(0, p.dim(-1) % px);
            assertEquals(0, p.dim(-2) % py);
            Shaped<float[]> back = Padding.unpadFromMesh(p, grid, mesh);
            assertArrayEquals(shape, back.shape());
            assertArrayEquals(copy, back.data());
            assertArrayEquals(copy, m, "the input is not modified");
        }
    }

    /** {@code <P x, y> == <x, P^T y>}; integer-valued data make both sides exact in double. */
    @Test
    void adjointPassesTheDotProductTest() {
        Random rnd = new Random(17);
        for (int trial = 0; trial < 50; trial++) {
            int py = 1 + rnd.nextInt(4), px = 1 + rnd.nextInt(5);
            int[] grid = {1 + rnd.nextInt(3), 1 + rnd.nextInt(8), 1 + rnd.nextInt(8)};
            int[] shape = {1 + rnd.nextInt(2), grid[0], grid[1], grid[2]};
            MeshTopology mesh = mesh(py, px);
            float[] x = new float[size(shape)];
            for (int i = 0; i < x.length; i++) {
                x[i] = rnd.nextInt(201) - 100;
            }
            Shaped<float[]> px_ = Padding.padToMesh(x, shape, mesh);
            float[] y = new float[px_.data().length];
            for (int i = 0; i < y.length; i++) {
                y[i] = rnd.nextInt(201) - 100;
            }
            Shaped<float[]> pty = Padding.padToMeshAdjoint(new Shaped<>(y, px_.shape()), grid, mesh);
            assertArrayEquals(shape, pty.shape());
            assertEquals(dot(px_.data(), y), dot(x, pty.data()), 0.0, "trial " + trial);

            float[] xf = random(rnd, x.length);
            float[] yf = random(rnd, y.length);
            double lhs = dot(Padding.padToMesh(xf, shape, mesh).data(), yf);
            double rhs = dot(xf, Padding.padToMeshAdjoint(new Shaped<>(yf, px_.shape()), grid, mesh).data());
            assertEquals(lhs, rhs, 1e-5 * (1 + Math.abs(lhs)), "trial " + trial + " (random floats)");
        }
    }

    /** Ones through the adjoint: 1 inside, 1+dx on the last column, 1+dy on the last row, (1+dy)(1+dx) corner. */
    @Test
    void adjointFoldsPadGradientOntoEdgeCellsWithExactIntegerFactors() {
        // ny = nx = 13 on (py, px) = (4, 4): padded to 16, dy = dx = 3, corner 16 as the seed text says
        int nz = 2, ny = 13, nx = 13;
        MeshTopology mesh = mesh(4, 4);
        float[] ones = new float[nz * 16 * 16];
        java.util.Arrays.fill(ones, 1f);
        float[] g = Padding.padToMeshAdjoint(new Shaped<>(ones, new int[] {nz, 16, 16}), new int[] {nz, ny, nx}, mesh)
                .data();
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    float expected = (y == ny - 1 ? 4 : 1) * (x == nx - 1 ? 4 : 1);
                    assertEquals(expected, g[(z * ny + y) * nx + x], "cell " + z + "," + y + "," + x);
                }
            }
        }
        // px = 12 at its worst case: nx = 13 pads to 24, the last column gets 1 + 11 = 12
        float[] ones2 = new float[3 * 24];
        java.util.Arrays.fill(ones2, 1f);
        float[] g2 = Padding.padToMeshAdjoint(new Shaped<>(ones2, new int[] {3, 24}), new int[] {3, 13}, mesh(1, 12))
                .data();
        for (int z = 0; z < 3; z++) {
            for (int x = 0; x < 13; x++) {
                assertEquals(x == 12 ? 12f : 1f, g2[z * 13 + x]);
            }
        }
    }

    @Test
    void unpadRefusesAnyShapeButExactlyWhatPadProduces() {
        MeshTopology mesh = mesh(2, 4);
        // (3, 5, 7) pads to (3, 6, 8)
        assertMessage(() -> Padding.unpadFromMesh(new Shaped<>(new float[3 * 6 * 9], new int[] {3, 6, 9}),
                new int[] {3, 5, 7}, mesh), "[3, 6, 9]", "[3, 6, 8]", "[3, 5, 7]");
        assertMessage(() -> Padding.unpadFromMesh(new Shaped<>(new float[3 * 5 * 7], new int[] {3, 5, 7}),
                new int[] {3, 5, 7}, mesh), "[3, 5, 7]", "[3, 6, 8]");
        // the right array, the wrong mesh
        Shaped<float[]> p = Padding.padToMesh(new float[105], new int[] {3, 5, 7}, mesh);
        assertMessage(() -> Padding.unpadFromMesh(p, new int[] {3, 5, 7}, mesh(1, 8)), "[3, 6, 8]", "[3, 5, 8]");
        assertMessage(() -> Padding.unpadFromMesh(p, new int[] {3, 5, 7, 1}, mesh), "[3, 5, 7, 1]");
        assertMessage(() -> Padding.unpadFromMesh(new Shaped<>(new float[16], new int[] {2, 8}), new int[] {2, 5, 7},
                mesh), "[2, 8]");
        assertMessage(() -> Padding.padToMeshAdjoint(p, new int[] {3, 4, 7}, mesh), "[3, 6, 8]", "[3, 4, 7]");
    }

    @Test
    void padRefusesBadShapes() {
        assertMessage(() -> Padding.padToMesh(new float[12], new int[] {3, 4}, mesh(2, 2)), "py=2", "[3, 4]");
        assertMessage(() -> Padding.padToMesh(new float[12], new int[] {12}, mesh(1, 2)), "[12]");
        assertMessage(() -> Padding.padToMesh(new float[11], new int[] {3, 4}, mesh(1, 2)), "11", "[3, 4]");
        assertMessage(() -> Padding.padToMesh(new float[0], new int[] {0, 4}, mesh(1, 2)), "[0, 4]");
    }

    static double dot(float[] a, float[] b) {
        assertEquals(a.length, b.length);
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }
}
