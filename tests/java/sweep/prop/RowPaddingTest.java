package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.kernels.Layout;

/**
 * The padded grid's extra cells per row and rows per plane ({@link Grid#pads}, against L1 cache-set conflicts) and per
 * field ({@link Grid#lengthPad}, against 4 KiB aliasing of the fields stored one length apart) change the layout only:
 * records and gradients are bit-identical to the unpadded layout, on grids that get every kind of padding.
 */
class RowPaddingTest {

    @Test
    void padsAvoidStridesOfWholePages() {
        // rows of 2048 floats (8 KiB): 16 more cells move each row 64 bytes on in the cache sets
        assertArrayEquals(new long[] {16, 0}, Grid.pads(2048, 1, 2, 4));
        // 3-D 256³ + PML 20 + order 8: rows of 304 floats are fine, planes of 304² floats repeat every 4 planes
        assertArrayEquals(new long[] {0, 1}, Grid.pads(304, 304, 3, 4));
        // rows of 1000 floats are not whole cache lines: 8 more make 63 lines
        assertArrayEquals(new long[] {8, 0}, Grid.pads(1000, 1, 2, 4));
    }

    /**
     * Fields one, two and three lengths apart start 1 KiB or more from each other modulo 4 KiB, with whole cache
     * lines and the fewest extra cells: a length of 2048 rows of 1040 floats (a multiple of 4 KiB) gets 256 more
     * (1 KiB); one 3 KiB past a multiple of 4 KiB gets none; one 64 bytes past gets 240 more.
     */
    @Test
    void lengthPadKeepsFieldsApartModuloPages() {
        assertEquals(256, Grid.lengthPad(2048L * 1040));
        assertEquals(0, Grid.lengthPad(1048L * 1056)); // 2-D 1000² + PML 20, order 8: 3 KiB past
        assertEquals(240, Grid.lengthPad(2048L * 1040 + 16));
        for (long len = 16; len < 100_000; len += 16) {
            long p = Grid.lengthPad(len);
            assertEquals(0, p % 16, "whole lines");
            assertTrue(apart(len + p), "length " + len + " + " + p);
        }
    }

    /**
     * Rows and planes are whole 64-byte lines and the interior's first cell (the low x band's end) starts a line,
     * given the array base offset the layout assumes; so does the first cell of a tile without a low x band.
     */
    @Test
    void interiorRowsStartOnCacheLines() {
        PropSpec spec2 = PropSpec.builder(30, 996).dh(10).dt(1e-3).nt(10).abcn(10).order(8).build();
        PropSpec spec3 = PropSpec.builder(20, 40, 36).dh(10).dt(1e-3).nt(10).abcn(8).order(8).build();
        PropSpec noPml = PropSpec.builder(20, 40, 37).dh(10).dt(1e-3).nt(10).abcn(0).order(4).build();
        for (PropSpec spec : new PropSpec[] {spec2, spec3, noPml}) {
            int[] geo = Grid.single(spec).geo;
            assertEquals(0, geo[Layout.SZ] % 16, "plane/row stride in floats");
            assertEquals(0, geo[Layout.SY] % 16, "row stride in floats");
            long byteOffset = Grid.ARRAY_BASE_BYTES + 4L * (geo[Layout.OFF0] + geo[Layout.XBL]);
            assertEquals(0, byteOffset % 64, "first interior cell of " + java.util.Arrays.toString(spec.shape()));
            assertEquals(0, geo[Layout.LEN] % 16, "length: fields one length apart in one array stay aligned");
        }
    }

    @Test
    void paddedLayoutGivesTheSameBits2d() {
        // 996 + 2·10 + 2·4 = 1024 floats per row
        PropSpec spec = PropSpec.builder(30, 996).dh(10).dt(1e-3).nt(120).abcn(10).order(8).threads(2)
                .storage(Storage.BOUNDARY_SAVING).build();
        same(spec, new int[][][] {{{500, 10}}}, new int[][][] {{{490, 3}, {515, 25}}}, 16, 0);
    }

    @Test
    void paddedLayoutGivesTheSameBits3d() {
        // x: 36 + 16 + 8 = 60 → 64 (whole cache lines), y: 40 + 16 + 8 = 64 rows: planes of 4096 floats → one more row
        // per plane
        PropSpec spec = PropSpec.builder(20, 40, 36).dh(10).dt(1e-3).nt(80).abcn(8).order(8).threads(2)
                .storage(Storage.BOUNDARY_SAVING).build();
        same(spec, new int[][][] {{{18, 20, 9}}}, new int[][][] {{{2, 3, 1}, {30, 35, 15}}}, 4, 1);
    }

    private static void same(PropSpec spec, int[][][] src, int[][][] rec, long padX, long padY) {
        int[] shape = spec.shape();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        Grid g = Grid.single(spec);
        long[] pads = Grid.pads(g.nx + 2L * g.h, g.ny + 2L * g.h, g.ndim, g.h);
        assertArrayEquals(new long[] {padX, padY}, pads, "the grid gets the padding this test is about");
        float[] vp = TestModels.smoothRandom(9, 2300, 500, shape);
        float[] obs = new float[spec.nt() * rec[0].length];
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        long paddedLength = g.length();
        String old = System.getProperty(Grid.ROW_PAD_PROPERTY);
        Gradient padded;
        Gradient plain;
        float[] rPadded;
        float[] rPlain;
        try (Propagator p = new Propagator(spec)) {
            rPadded = p.forward(w, src, rec, vp).data();
            padded = p.forwardAndGradient(w, src, rec, vp, obs, Misfit.L2);
        }
        System.setProperty(Grid.ROW_PAD_PROPERTY, "0");
        try (Propagator p = new Propagator(spec)) {
            assertArrayEquals(new long[] {0, 0}, Grid.pads(g.nx + 2L * g.h, g.ny + 2L * g.h, g.ndim, g.h),
                    "the property turns padding off");
            long plainLength = Grid.single(spec).length();
            assertTrue(apart(paddedLength) && !apart(plainLength), "the padding moves fields one length apart away"
                    + " from each other modulo 4 KiB: lengths " + plainLength + " -> " + paddedLength);
            rPlain = p.forward(w, src, rec, vp).data();
            plain = p.forwardAndGradient(w, src, rec, vp, obs, Misfit.L2);
        } finally {
            if (old == null) {
                System.clearProperty(Grid.ROW_PAD_PROPERTY);
            } else {
                System.setProperty(Grid.ROW_PAD_PROPERTY, old);
            }
        }
        boolean moved = false;
        for (float v : rPlain) {
            moved |= v != 0f;
        }
        assertTrue(moved, "the record is all zero: the comparison would show nothing");
        assertArrayEquals(bits(rPlain), bits(rPadded), "record");
        assertArrayEquals(bits(plain.vp()), bits(padded.vp()), "dJ/dvp");
        assertArrayEquals(bits(plain.wavelet()), bits(padded.wavelet()), "dJ/dwavelet");
    }

    /** Whether fields one, two and three lengths apart start 1 KiB or more apart modulo 4 KiB. */
    private static boolean apart(long length) {
        for (int k = 1; k <= 3; k++) {
            long m = k * length * 4 % 4096;
            if (m < 1024 || m > 3072) {
                return false;
            }
        }
        return true;
    }

    private static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }
}
