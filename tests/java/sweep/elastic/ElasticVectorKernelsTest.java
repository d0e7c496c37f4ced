package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sweep.backend.CpuKernels;
import sweep.elastic.kernels.ElasticKernels2D;
import sweep.elastic.kernels.ElasticKernels3D;
import sweep.elastic.kernels.ElasticLayout;
import sweep.kernels.Layout;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * The Vector API elastic kernels ({@link ElasticVectorKernels2D}, {@link ElasticVectorKernels3D}) give the same bits as
 * the portable ones ({@link ElasticKernels2D}, {@link ElasticKernels3D}) in every field and every CPML memory variable,
 * on random fields, parameters, profiles and weights (so that every band's memory variables carry data), for every even
 * order 2..16, on real grid layouts (single domain, free surface, tiles with cuts on either side) and on boxes that
 * touch every band, start and end off the band limits and leave vector tails of every length.
 */
class ElasticVectorKernelsTest {

    /** A random elastic kernel state on {@code g}'s layout. */
    private static final class State {
        final int[] geo;
        final float[] coef;
        final float[] prof;
        final float[] v;
        final float[] s;
        final float[] b;
        final float[] m;
        final float[] psi;

        State(Grid g, long seed) {
            Random r = new Random(seed);
            geo = ElasticStepper.elasticGeo(g);
            int len = geo[Layout.LEN];
            int nd = g.ndim;
            coef = rnd(r, 3 * g.h, -1, 1);
            prof = new float[4 * (g.nz + g.ny + g.nx)];
            for (int i = 0; i < prof.length; i++) {
                // blocks [a(n) b(n) aH(n) bH(n)] per axis: decays in (0.5, 1), updates in (-1, 0)
                int n = i < 4 * g.nz ? g.nz : i < 4 * (g.nz + g.ny) ? g.ny : g.nx;
                int base = i < 4 * g.nz ? 0 : i < 4 * (g.nz + g.ny) ? 4 * g.nz : 4 * (g.nz + g.ny);
                boolean decay = ((i - base) / n) % 2 == 0;
                prof[i] = decay ? 0.5f + 0.5f * r.nextFloat() : -r.nextFloat();
            }
            v = rnd(r, ElasticLayout.velocities(nd) * len, -1, 1);
            s = rnd(r, ElasticLayout.stresses(nd) * len, -1, 1);
            b = rnd(r, v.length, 0, 0.5f);
            m = rnd(r, ElasticLayout.moduli(nd) * len, 0, 0.5f);
            int psiLen = geo[ElasticLayout.PSI_X] + ElasticLayout.psiPerAxis(nd) * geo[ElasticLayout.SLAB_X];
            psi = rnd(r, psiLen, -1, 1);
        }

        private State(State o) {
            geo = o.geo;
            coef = o.coef;
            prof = o.prof;
            b = o.b;
            m = o.m;
            v = o.v.clone();
            s = o.s.clone();
            psi = o.psi.clone();
        }

        State copy() {
            return new State(this);
        }
    }

    private static float[] rnd(Random r, int n, float lo, float hi) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + (hi - lo) * r.nextFloat();
        }
        return a;
    }

    /** Grids of one spec: the single domain and tiles with a cut on the low or the high side of each split axis. */
    private static List<Grid> grids(PropSpec spec) {
        List<Grid> out = new ArrayList<>();
        out.add(Grid.single(spec));
        int[] shape = spec.shape();
        int nd = shape.length;
        int[] w = spec.globalPmlWidths();
        // low x half (cut on its high side) and high x half (cut on its low side)
        int nx = shape[nd - 1];
        int half = nx / 2;
        int[] off = new int[nd];
        int[] sh = shape.clone();
        sh[nd - 1] = half;
        int[] wl = w.clone();
        wl[2 * (nd - 1) + 1] = 0;
        out.add(new Grid(spec, off, sh, wl));
        int[] off2 = new int[nd];
        off2[nd - 1] = half;
        int[] sh2 = shape.clone();
        sh2[nd - 1] = nx - half;
        int[] wh = w.clone();
        wh[2 * (nd - 1)] = 0;
        out.add(new Grid(spec, off2, sh2, wh));
        if (nd == 3) {
            // a middle tile along y (cuts on both sides)
            int ny = shape[1];
            int[] off3 = {0, ny / 3, 0};
            int[] sh3 = {shape[0], ny / 3, nx};
            int[] w3 = w.clone();
            w3[2] = 0;
            w3[3] = 0;
            out.add(new Grid(spec, off3, sh3, w3));
        }
        return out;
    }

    /** Boxes {z0, z1, y0, y1, x0, x1} over grid {@code g}: whole grid, band slabs, the interior and odd sub-boxes. */
    private static List<int[]> boxes(Grid g, int[] geo) {
        int nz = g.nz;
        int ny = g.ny;
        int nx = g.nx;
        int zbl = geo[Layout.ZBL];
        int zbhh = geo[ElasticLayout.ZBHH];
        int ybl = geo[Layout.YBL];
        int ybhh = geo[ElasticLayout.YBHH];
        int xbl = geo[Layout.XBL];
        int xbhh = geo[ElasticLayout.XBHH];
        List<int[]> out = new ArrayList<>();
        out.add(new int[] {0, nz, 0, ny, 0, nx});
        out.add(new int[] {zbl, zbhh, ybl, ybhh, xbl, xbhh});
        out.add(new int[] {0, Math.min(nz, zbl + 2), 0, ny, 0, nx});
        out.add(new int[] {Math.max(0, zbhh - 2), nz, 0, ny, 0, nx});
        out.add(new int[] {1, nz - 1, Math.min(1, ny - 1), ny, 3, nx - 2});
        out.add(new int[] {2, Math.max(3, nz - 3), 0, Math.max(1, ny - 1), Math.max(0, xbl - 3), Math.min(nx, xbhh
                + 2)});
        // x ranges of one vector, one more and one less, starting inside the low band
        for (int n : new int[] {16, 17, 15, 8, 9, 33}) {
            int x0 = Math.max(0, xbl - 2);
            out.add(new int[] {0, nz, 0, ny, x0, Math.min(nx, x0 + n)});
            out.add(new int[] {0, nz, 0, ny, Math.max(0, nx - n), nx});
        }
        return out;
    }

    private static void compare(String what, float[] a, float[] b) {
        for (int i = 0; i < a.length; i++) {
            if (Float.floatToRawIntBits(a[i]) != Float.floatToRawIntBits(b[i])) {
                fail(what + ": index " + i + " differs: portable " + a[i] + ", CPU " + b[i]);
            }
        }
    }

    private static void check(Grid g, long seed) {
        State base = new State(g, seed);
        int[] geo = base.geo;
        float[] t = new float[g.ndim == 2 ? ElasticVectorKernels2D.scratchSize(g.nx)
                : ElasticVectorKernels3D.scratchSize(g.nx)];
        for (int[] bx : boxes(g, geo)) {
            if (bx[0] >= bx[1] || bx[2] >= bx[3] || bx[4] >= bx[5]) {
                continue;
            }
            String where = "order " + 2 * g.h + " grid " + g.nz + "x" + g.ny + "x" + g.nx + " bands "
                    + geo[Layout.ZBL] + "/" + geo[Layout.ZBH] + " " + geo[Layout.XBL] + "/" + geo[Layout.XBH]
                    + " box " + java.util.Arrays.toString(bx);
            State p = base.copy();
            State c = base.copy();
            if (g.ndim == 2) {
                ElasticKernels2D.velocity(p.v, p.s, p.b, p.psi, p.prof, p.coef, geo, bx[0], bx[1], bx[4], bx[5]);
                ElasticVectorKernels2D.velocity(c.v, c.s, c.b, c.psi, c.prof, c.coef, geo, bx[0], bx[1], bx[4], bx[5],
                        t);
            } else {
                ElasticKernels3D.velocity(p.v, p.s, p.b, p.psi, p.prof, p.coef, geo, bx[0], bx[1], bx[2], bx[3], bx[4],
                        bx[5]);
                ElasticVectorKernels3D.velocity(c.v, c.s, c.b, c.psi, c.prof, c.coef, geo, bx[0], bx[1], bx[2], bx[3],
                        bx[4],
                        bx[5], t);
            }
            compare("velocity v, " + where, p.v, c.v);
            compare("velocity psi, " + where, p.psi, c.psi);
            if (g.ndim == 2) {
                ElasticKernels2D.stress(p.v, p.s, p.m, p.psi, p.prof, p.coef, geo, bx[0], bx[1], bx[4], bx[5]);
                ElasticVectorKernels2D.stress(c.v, c.s, c.m, c.psi, c.prof, c.coef, geo, bx[0], bx[1], bx[4], bx[5], t);
            } else {
                ElasticKernels3D.stress(p.v, p.s, p.m, p.psi, p.prof, p.coef, geo, bx[0], bx[1], bx[2], bx[3], bx[4],
                        bx[5]);
                ElasticVectorKernels3D.stress(c.v, c.s, c.m, c.psi, c.prof, c.coef, geo, bx[0], bx[1], bx[2], bx[3],
                        bx[4],
                        bx[5], t);
            }
            compare("stress s, " + where, p.s, c.s);
            compare("stress psi, " + where, p.psi, c.psi);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 6, 8, 10, 12, 14, 16})
    void twoD(int order) {
        assertTrue(CpuKernels.vectorAvailable(), "tests run with --add-modules jdk.incubator.vector");
        for (boolean fs : new boolean[] {false, true}) {
            // 45 + 2·abcn columns: a long interior segment with a tail, band segments longer and shorter than a vector
            for (int abcn : new int[] {20, 5}) {
                PropSpec spec = PropSpec.builder(23, 45).equation("elastic").dh(5).dt(1e-4).nt(1)
                        .abcn(abcn).order(order).freeSurface(fs).build();
                for (Grid g : grids(spec)) {
                    check(g, 17L * order + abcn + (fs ? 1 : 0));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 6, 8, 10, 12, 14, 16})
    void threeD(int order) {
        for (boolean fs : new boolean[] {false, true}) {
            for (int abcn : new int[] {18, 4}) {
                PropSpec spec = PropSpec.builder(9, 12, 29).equation("elastic").dh(5).dt(1e-4).nt(1)
                        .abcn(abcn).order(order).freeSurface(fs).build();
                for (Grid g : grids(spec)) {
                    check(g, 31L * order + abcn + (fs ? 1 : 0));
                }
            }
        }
    }

    /** The stepper picks the Vector API kernels by default when the module is there. */
    @Test
    void stepperUsesCpuKernels() {
        PropSpec spec = PropSpec.builder(30, 40).equation("elastic").dh(5).dt(1e-4).nt(1).abcn(5)
                .order(8).build();
        try (sweep.backend.JavaBackend be = new sweep.backend.JavaBackend(1)) {
            assertTrue(new ElasticStepper(Grid.single(spec), be).cpuKernels());
        }
    }
}
