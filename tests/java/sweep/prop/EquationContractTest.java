package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the equation contract gives an equation written outside the main tree: the grid's public layout.
 */
class EquationContractTest {
    @Test
    void gridLayoutIsPublicAndMatchesTheKernelsLayout() {
        for (int[] shape : new int[][] {{14, 19}, {9, 11, 13}}) {
            PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(5).abcn(4).order(6).freeSurface(true).build();
            Grid single = Grid.single(spec);
            int nd = shape.length;
            assertEquals(3, single.haloWidth());
            assertArrayEquals(spec.globalPmlWidths(), single.pmlWidths());
            // a tile on the high x side: a cut (width 0) on its low x side, the global width on its high one
            int[] off = new int[nd];
            int[] ts = shape.clone();
            off[nd - 1] = 5;
            ts[nd - 1] = shape[nd - 1] - 5;
            int[] w = spec.globalPmlWidths();
            w[2 * nd - 2] = 0;
            Grid tile = new Grid(spec, off, ts, w);
            assertArrayEquals(w, tile.pmlWidths());
            for (Grid g : List.of(single, tile)) {
                int[] pw = g.pmlWidths();
                int wz = pw[0];
                int wy = nd == 3 ? pw[2] : 0;
                int wx = pw[2 * nd - 2];
                assertEquals(g.compIndex(1, 0, 0) - g.compIndex(0, 0, 0), g.strideZ());
                assertEquals(nd == 3 ? g.compIndex(0, 1, 0) - g.compIndex(0, 0, 0) : 0, g.strideY());
                // a tile-physical cell is the computational cell shifted by the low PML widths
                assertEquals(g.index(1, 0, 2), g.compIndex(1 + wz, wy, 2 + wx));
                // the halo fits in the array on both ends
                int h = g.haloWidth();
                assertTrue(g.compIndex(-h, nd == 3 ? -h : 0, -h) >= 0);
                assertTrue(g.compIndex(g.nz() + h - 1, nd == 3 ? g.ny() + h - 1 : 0, g.nx() + h - 1) < g.length());
                // global positions: the first physical cell is the tile's offset; the low pad lies below it
                int[] o = g.tileOffset();
                assertEquals(o[nd - 1], g.globalIndex(nd - 1, wx));
                assertEquals(o[0] - wz, g.globalIndex(0, 0));
                assertEquals(g.globalAxis(2)[0] - g.globalAxis(2)[2] + 7, g.globalIndex(nd - 1, 7));
            }
            assertEquals(5 - 0, tile.globalIndex(nd - 1, 0));
            assertThrows(IllegalArgumentException.class, () -> single.globalIndex(nd, 0));
        }
        PropSpec spec = PropSpec.builder(14, 19).dh(10).dt(1e-3).nt(5).abcn(4).build();
        Grid g = Grid.single(spec);
        assertArrayEquals(new int[] {g.index(6, 0, 5), g.index(0, 0, 18)}, g.cellIndices(new int[][] {{5, 6},
                {18, 0}}, "receiver", 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> g.cellIndices(new int[][] {{19, 0}}, "source", 3));
        assertTrue(e.getMessage().contains("source 0 of shot 3 at [19, 0] lies outside the grid"), e.getMessage());
    }
}
