package sweep.prop.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.acoustic.AcousticAdjointArrays;
import sweep.core.Box;
import sweep.kernels.Layout;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * {@link GridView}'s boxes against their definitions, cell by cell, on single grids and on tiles with cut sides (no
 * PML there): the PML boxes and the interior partition the grid, the PML cells are the band cells; the stencil-clear
 * box holds exactly the cells whose star stencil reaches no band; the ring is exactly the band cells an interior
 * stencil reads.
 */
class GridViewTest {
    private static final PropSpec S2 = PropSpec.builder(17, 23).dh(10).dt(1e-3).nt(1).order(4).abcn(3).build();
    private static final PropSpec S3 = PropSpec.builder(9, 11, 13).dh(10).dt(1e-3).nt(1).order(4).abcn(3).build();

    private static List<GridView> views() {
        return List.of(Grid.single(S2).view(), Grid.single(S3).view(),
                // a 2-D tile on the high-x side (cut on its low x side) and a 3-D interior tile in y (cut on both)
                new Grid(S2, new int[] {0, 10}, new int[] {17, 13}, new int[] {3, 3, 0, 3}).view(),
                new Grid(S3, new int[] {0, 4, 0}, new int[] {9, 4, 13}, new int[] {3, 3, 0, 0, 3, 3}).view(),
                Grid.single(S2.toBuilder().abcn(0).build()).view());
    }

    @Test
    void boxesMatchTheirDefinitionsCellByCell() {
        for (GridView g : views()) {
            int[] geo = g.geo();
            int h = g.h();
            int[] lo = {geo[Layout.ZBL], geo[Layout.YBL], geo[Layout.XBL]};
            int[] hi = {geo[Layout.ZBH], geo[Layout.YBH], geo[Layout.XBH]};
            int[] n = {g.nz(), g.ny(), g.nx()};
            int pml = 0;
            for (int z = 0; z < g.nz(); z++) {
                for (int y = 0; y < g.ny(); y++) {
                    for (int x = 0; x < g.nx(); x++) {
                        int[] c = {z, y, x};
                        boolean band = inBand(c, lo, hi);
                        pml += band ? 1 : 0;
                        assertEquals(band ? 1 : 0, count(g.pmlBoxes(), c), "PML boxes at " + at(c));
                        assertEquals(band ? 0 : 1, g.interiorBox() == null ? 0 : count(List.of(g.interiorBox()), c));
                        boolean clear = true;
                        boolean ring = false;
                        for (int a = 0; a < 3; a++) {
                            for (int k = -h; k <= h; k++) {
                                int[] s = c.clone();
                                s[a] += k;
                                boolean inside = s[a] >= 0 && s[a] < n[a];
                                clear &= !(inside && inBand(s, lo, hi));
                                ring |= band && inside && !inBand(s, lo, hi);
                            }
                        }
                        Box cb = g.stencilClearBox();
                        assertEquals(clear, cb != null && cb.contains(z, y, x), "stencil-clear box at " + at(c));
                        assertEquals(clear ? 0 : 1, count(g.stencilClearOuter(), c), "stencil-clear outer at " + at(c));
                        assertEquals(ring ? 1 : 0, count(g.ringBoxes(), c), "ring at " + at(c));
                    }
                }
            }
            assertEquals(pml > 0, g.hasPml());
            assertEquals(Box.volume(g.ringBoxes()), g.ringSize());
            assertEquals(new Box(0, g.nz(), 0, g.ny(), 0, g.nx()), g.allBox());
        }
    }

    @Test
    void viewSharesTheGridsKernelArrays() {
        Grid grid = Grid.single(S3);
        GridView g = grid.view();
        assertSame(g, grid.view(), "one view per grid");
        assertSame(g.geo(), g.geo(), "the same geo array every time: device plans rely on its identity");
        assertEquals(grid.length(), g.length());
        assertEquals(3, g.ndim());
        assertFalse(g.freeSurface());
        assertTrue(Grid.single(S2.toBuilder().freeSurface(true).build()).view().freeSurface());
    }

    @Test
    void adjointArraysHaveTheGridsLengthsAndTheAbsentLength() {
        GridView g = Grid.single(S2).view();
        AcousticAdjointArrays full = new AcousticAdjointArrays(g, Storage.FULL, 1);
        assertEquals(g.length(), full.qb.length);
        assertEquals(g.auxLength(), full.cor.length);
        assertEquals(1, full.ucur.length, "no rebuilt levels with full storage");
        AcousticAdjointArrays bs = new AcousticAdjointArrays(g, Storage.BOUNDARY_SAVING, 0);
        assertEquals(g.length(), bs.unxt.length);
        GridView noPml = Grid.single(S2.toBuilder().abcn(0).build()).view();
        assertEquals(0, new AcousticAdjointArrays(noPml, Storage.FULL, 0).psib.length);
        assertEquals(4L * (5 * g.length() + 4 * g.auxLength() + 2 * g.length()), bs.bytes());
    }

    private static boolean inBand(int[] c, int[] lo, int[] hi) {
        boolean band = false;
        for (int a = 0; a < 3; a++) {
            band |= c[a] < lo[a] || c[a] >= hi[a];
        }
        return band;
    }

    private static int count(List<Box> boxes, int[] c) {
        int k = 0;
        for (Box b : boxes) {
            k += b.contains(c[0], c[1], c[2]) ? 1 : 0;
        }
        return k;
    }

    private static String at(int[] c) {
        return "(" + c[0] + ", " + c[1] + ", " + c[2] + ")";
    }
}
