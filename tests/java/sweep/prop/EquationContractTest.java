package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.equation.EquationSolver;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * What the equation contract gives an equation written outside the main tree: the grid's public layout, the dimensions
 * an equation declares, and the facade's model and CFL checks, which hold even for a solver that checks nothing.
 */
class EquationContractTest {
    private static final int[][][] SRC = {{{5, 6}}};
    private static final int[][][] REC = {{{2, 1}}};

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

    @Test
    void specRefusesADimensionTheEquationLacks() {
        WaveEquation planar = acousticWith(List.of(2), null);
        PropSpec.builder(10, 12).equation(planar).dh(10).dt(1e-3).nt(5).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PropSpec.builder(10, 11, 12).equation(planar).dh(10).dt(1e-3).nt(5).build());
        assertTrue(e.getMessage().contains("runs 2-D models only, got a 3-D model: give a (nz, nx) model"),
                e.getMessage());
        assertEquals(List.of(2, 3), Equations.named("acoustic").dimensions());
        assertEquals(List.of(2, 3), Equations.named("elastic").dimensions());
    }

    @Test
    void facadeChecksModelAndCflForASolverThatChecksNothing() {
        List<Double> pml = new ArrayList<>();
        WaveEquation eq = acousticWith(List.of(2, 3), pml);
        PropSpec ok = PropSpec.builder(10, 12).equation(eq).dh(10).dt(1e-3).nt(5).abcn(2).build();
        float[] m = new float[120];
        Arrays.fill(m, 2000);
        m[7] = 2500;
        float[] w = Wavelets.ricker(10, 5, 1e-3);
        try (Propagator p = new Propagator(ok)) {
            p.forward(w, SRC, REC, m);
            assertEquals(List.of(2500.0), pml, "the PML velocity is the model's CFL velocity");
            p.forward(w, SRC, REC, null);
            p.forwardForGradient(w, SRC, REC, m);
            assertEquals(List.of(2500.0), pml, "set again only when it changes");
            float[] nan = m.clone();
            nan[13] = Float.NaN;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.forwardAndGradient(w, SRC, REC, nan, new float[5], Misfit.L2));
            assertTrue(e.getMessage().contains("vp holds a non-finite value (NaN) at (z, x) = (1, 1)"),
                    e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> p.timeSteps(new float[119], 3));
            assertTrue(e.getMessage().contains("needs 120"), e.getMessage());
            p.setPmlVelocity(3000);
            p.forward(w, SRC, REC, m);
            assertEquals(List.of(2500.0, 3000.0), pml, "a PML velocity the caller fixed stays");
        }
        PropSpec unstable = ok.toBuilder().dt(4e-3).build();
        try (Propagator p = new Propagator(unstable)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.forward(w, SRC, REC, m));
            assertTrue(e.getMessage().contains("largest stable dt is "
                    + PropSpec.roundedDown(unstable.maxStableDt(2500))),
                    e.getMessage());
        }
    }

    /**
     * The acoustic equation declaring {@code dims}; with {@code pml} not null its solver is a stub that checks nothing,
     * runs nothing and notes each PML velocity it is given.
     */
    static WaveEquation acousticWith(List<Integer> dims, List<Double> pml) {
        WaveEquation acoustic = Equations.named("acoustic");
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "dimensions":
                    return dims;
                case "checkDimension", "inDimensions":
                    return InvocationHandler.invokeDefault(proxy, m, args);
                case "solver":
                    if (pml != null) {
                        return stub((PropSpec) args[0], (Grid) args[1], pml);
                    }
                    break;
                default:
                    break;
            }
            try {
                return m.invoke(acoustic, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (WaveEquation) Proxy.newProxyInstance(WaveEquation.class.getClassLoader(),
                new Class<?>[] {WaveEquation.class}, h);
    }

    /** A solver that returns zeros, checks nothing, and leaves every optional method to the contract's default. */
    private static EquationSolver stub(PropSpec spec, Grid grid, List<Double> pml) {
        return new EquationSolver() {
            @Override
            public Grid grid() {
                return grid;
            }

            @Override
            public CellWindow modelWindow() {
                return CellWindow.of(grid, 0);
            }

            @Override
            public long bytesHeld() {
                return 0;
            }

            @Override
            public Record forward(float[] w, int[][][] s, int[][][] r, float[] m, int every, WavefieldListener l) {
                return new Record(new float[s.length * spec.nt() * r[0].length], s.length, spec.nt(), r[0].length, 1);
            }

            @Override
            public Record forwardForGradient(float[] w, int[][][] s, int[][][] r, float[] m) {
                return forward(w, s, r, m, 0, null);
            }

            @Override
            public Gradient gradient(float[] residual) {
                return new Gradient(new float[grid.tileShape()[0] * grid.tileShape()[1]], new float[spec.nt()], 0);
            }

            @Override
            public Gradient forwardAndGradient(float[] w, int[][][] s, int[][][] r, float[] m, float[] obs, Misfit f) {
                return gradient(obs);
            }

            @Override
            public double timeSteps(float[] m, int steps) {
                return 0;
            }

            @Override
            public void setPmlVelocity(double v) {
                pml.add(v);
            }

            @Override
            public void close() {
            }
        };
    }
}
