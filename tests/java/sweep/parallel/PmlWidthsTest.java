package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static sweep.parallel.MeshTopologyTest.assertMessage;

import org.junit.jupiter.api.Test;

class PmlWidthsTest {

    /** Expected widths, written out by hand: [z_low, z_high, y_low, y_high, x_low, x_high], rows yi, columns xi. */
    @Test
    void allNinePositionsOfA3x3TileGrid() {
        int a = 10;
        int[][][] expected = {
            {{a, a, a, 0, a, 0}, {a, a, a, 0, 0, 0}, {a, a, a, 0, 0, a}},
            {{a, a, 0, 0, a, 0}, {a, a, 0, 0, 0, 0}, {a, a, 0, 0, 0, a}},
            {{a, a, 0, a, a, 0}, {a, a, 0, a, 0, 0}, {a, a, 0, a, 0, a}},
        };
        for (int yi = 0; yi < 3; yi++) {
            for (int xi = 0; xi < 3; xi++) {
                MeshTopology m = new MeshTopology(3, 3, 1, 9, yi * 3 + xi);
                assertArrayEquals(expected[yi][xi], PmlWidths.forRank(m, a, 3, false), "tile " + yi + "," + xi);
                int[] free = expected[yi][xi].clone();
                free[0] = 0;
                assertArrayEquals(free, PmlWidths.forRank(m, a, 3, true), "image method, tile " + yi + "," + xi);
            }
        }
    }

    @Test
    void twoDimensionalLayoutIsZThenX() {
        assertArrayEquals(new int[] {8, 8, 8, 0}, PmlWidths.forRank(new MeshTopology(1, 3, 1, 3, 0), 8, 2, false));
        assertArrayEquals(new int[] {8, 8, 0, 0}, PmlWidths.forRank(new MeshTopology(1, 3, 1, 3, 1), 8, 2, false));
        assertArrayEquals(new int[] {0, 8, 0, 8}, PmlWidths.forRank(new MeshTopology(1, 3, 1, 3, 2), 8, 2, true));
    }

    @Test
    void aOneTileAxisGetsThePmlOnBothSidesLikeASingleRank() {
        assertArrayEquals(new int[] {5, 5, 5, 5, 5, 5}, PmlWidths.forRank(new MeshTopology(1, 1, 2, 2, 1), 5, 3, false));
        assertArrayEquals(new int[] {5, 5, 5, 5, 0, 5}, PmlWidths.forRank(new MeshTopology(1, 2, 1, 2, 1), 5, 3, false));
        assertArrayEquals(new int[] {5, 5, 5, 0, 5, 5}, PmlWidths.forRank(new MeshTopology(2, 1, 1, 2, 0), 5, 3, false));
    }

    @Test
    void badArgumentsAreRefusedWithTheBadValue() {
        MeshTopology m = new MeshTopology(2, 2, 1, 4, 0);
        assertMessage(() -> PmlWidths.forRank(m, 10, 4, false), "ndim=4");
        assertMessage(() -> PmlWidths.forRank(m, -1, 3, false), "abcn=-1");
        assertMessage(() -> PmlWidths.forRank(m, 10, 2, false), "py=2");
    }
}
