package sweep.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests of {@link Png}: pictures decode with ImageIO, have the documented size and known colours where known. */
class PngTest {

    @TempDir
    Path dir;

    /** Viridis-like end colours and the seismic map's colours, spelled out independently of the code. */
    static final int MIN_COLOUR = 0x440154, MAX_COLOUR = 0xFDE725;
    static final int WHITE = 0xFFFFFF, DARK_RED = 0x800000, DARK_BLUE = 0x00004D;
    static final int LINE = (31 << 16) | (90 << 8) | 170;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    static BufferedImage read(Path p) throws IOException {
        BufferedImage img = ImageIO.read(p.toFile());
        assertNotNull(img, p + " does not decode as an image");
        return img;
    }

    static int rgb(BufferedImage img, int x, int y) {
        return img.getRGB(x, y) & 0xFFFFFF;
    }

    static String hex(int rgb) {
        return String.format("#%06X", rgb);
    }

    static void assertColour(int want, BufferedImage img, int x, int y, String what) {
        assertEquals(hex(want), hex(rgb(img, x, y)), what + " at (" + x + ", " + y + ")");
    }

    // ------------------------------------------------------------------ colour maps

    @Test
    void colourMapsHaveTheirDocumentedEndsAndCentre() {
        assertEquals(hex(MIN_COLOUR), hex(Png.sequential(0)));
        assertEquals(hex(MAX_COLOUR), hex(Png.sequential(1)));
        assertEquals(hex(MIN_COLOUR), hex(Png.sequential(-5)));
        assertEquals(hex(WHITE), hex(Png.seismic(0)));
        assertEquals(hex(DARK_RED), hex(Png.seismic(1)));
        assertEquals(hex(DARK_BLUE), hex(Png.seismic(-1)));
        assertEquals(hex(0xFF0000), hex(Png.seismic(0.5)));
        assertEquals(hex(0x0000FF), hex(Png.seismic(-0.5)));
        // sequential map brightens monotonically (perceived luminance)
        double last = -1;
        for (int i = 0; i <= 100; i++) {
            int c = Png.sequential(i / 100.0);
            double lum = 0.2126 * (c >> 16) + 0.7152 * ((c >> 8) & 0xff) + 0.0722 * (c & 0xff);
            assertTrue(lum >= last - 1e-9, "luminance falls at " + i);
            last = lum;
        }
    }

    // ------------------------------------------------------------------ models

    @Test
    void modelRampHasMinColourAtMinimumAndMaxColourAtMaximum() throws IOException {
        int nz = 20, nx = 40;
        float[] v = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                v[z * nx + x] = 1500 + 50 * x;
            }
        }
        v[5 * nx + 20] = Float.NaN;
        Path p = dir.resolve("vp.png");
        Png.model(p, v, nz, nx, 10, 10, "true model", "m/s");
        BufferedImage img = read(p);
        int w = 800, h = 400; // 400 m × 200 m, long side 800 px
        assertEquals(Png.LEFT + w + Png.RIGHT_BAR, img.getWidth());
        assertEquals(Png.TOP + h + Png.BOTTOM, img.getHeight());
        assertColour(MIN_COLOUR, img, Png.LEFT, Png.TOP + h / 2, "x = 0 column (minimum)");
        assertColour(MAX_COLOUR, img, Png.LEFT + w - 1, Png.TOP + h / 2, "last column (maximum)");
        assertColour(Png.NON_FINITE, img, Png.LEFT + 20 * 20 + 10, Png.TOP + 5 * 20 + 10, "NaN cell");
        // cell 10 of 39 steps: its colour is the map at 10/39
        assertColour(Png.sequential(10 / 39.0), img, Png.LEFT + 10 * 20 + 10, Png.TOP + 10, "cell x = 10");
        // colour bar: maximum on top, minimum at the bottom
        int bar = Png.LEFT + w + 14 + 9;
        assertColour(MAX_COLOUR, img, bar, Png.TOP, "colour bar top");
        assertColour(MIN_COLOUR, img, bar, Png.TOP + h - 1, "colour bar bottom");
        // labels were drawn: dark text pixels right of the bar and left of the plot
        assertTrue(dark(img, bar + 14, Png.TOP, img.getWidth() - 1, Png.TOP + 14), "no max label");
        assertTrue(dark(img, 0, Png.TOP, Png.LEFT - 6, Png.TOP + h), "no z tick labels");
        assertTrue(dark(img, Png.LEFT, 0, Png.LEFT + w, Png.TOP - 4), "no title");
    }

    @Test
    void modelPanelsShareOneColourScale() throws IOException {
        int nz = 20, nx = 40;
        float[] ramp = new float[nz * nx];
        float[] constant = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                ramp[z * nx + x] = 1500 + 50 * x;
                constant[z * nx + x] = 1500 + 50 * 39; // the ramp's maximum
            }
        }
        Path p = dir.resolve("panels.png");
        Png.modelPanels(p, List.of(ramp, constant), List.of("true", "final"), nz, nx, 10, 10, "m/s");
        BufferedImage img = read(p);
        int w = 800, h = 400;
        int panel = Png.TOP + h + Png.BOTTOM;
        assertEquals(Png.LEFT + w + Png.RIGHT_BAR, img.getWidth());
        assertEquals(2 * panel, img.getHeight());
        assertColour(MIN_COLOUR, img, Png.LEFT, Png.TOP + h / 2, "panel 1, ramp minimum");
        assertColour(MAX_COLOUR, img, Png.LEFT + w - 1, Png.TOP + h / 2, "panel 1, ramp maximum");
        // alone, a constant field is drawn in the lowest colour; on the shared scale it is the ramp's maximum
        assertColour(MAX_COLOUR, img, Png.LEFT + w / 2, panel + Png.TOP + h / 2, "panel 2, constant at the maximum");
        assertTrue(dark(img, Png.LEFT, panel, Png.LEFT + w, panel + Png.TOP - 4), "no title on panel 2");
        assertThrows(Png.FormatException.class, () -> Png.modelPanels(p, List.of(ramp), List.of("a", "b"), nz, nx,
                10, 10, "m/s"));
    }

    static boolean dark(BufferedImage img, int x0, int y0, int x1, int y1) {
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                int c = rgb(img, x, y);
                if ((c >> 16) < 100 && ((c >> 8) & 0xff) < 100 && (c & 0xff) < 100) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void constantModelIsDrawnInTheLowestColourAndAspectFollowsSpacing() throws IOException {
        Path p = dir.resolve("c.png");
        Png.model(p, new float[] {2000, 2000, 2000, 2000, 2000, 2000}, 2, 3, 20, 5, "", "");
        BufferedImage img = read(p);
        // physical 15 m wide × 40 m deep: height 800 px, width 300 px
        assertEquals(Png.LEFT + 300 + Png.RIGHT_BAR, img.getWidth());
        assertEquals(Png.TOP + 800 + Png.BOTTOM, img.getHeight());
        assertColour(MIN_COLOUR, img, Png.LEFT + 150, Png.TOP + 400, "constant field");
    }

    @Test
    void fieldsWithoutFiniteValuesOrWithBadShapesAreRefused() {
        Path p = dir.resolve("bad.png");
        float[] nan = {Float.NaN, Float.NaN, Float.POSITIVE_INFINITY, Float.NaN};
        String m = assertThrows(Png.FormatException.class, () -> Png.model(p, nan, 2, 2, 1, 1, "vp", "")).getMessage();
        assertTrue(m.contains("no finite value") && m.contains("'vp'"), m);
        m = assertThrows(Png.FormatException.class, () -> Png.diverging(p, nan, 2, 2, 1, 1, "g", 98)).getMessage();
        assertTrue(m.contains("no finite value"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.model(p, new float[5], 2, 3, 1, 1, "vp", "")).getMessage();
        assertTrue(m.contains("5 values") && m.contains("(2, 3)") && m.contains("6"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.model(p, new float[6], 2, 3, 0, 1, "vp", "")).getMessage();
        assertTrue(m.contains("dz = 0"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.diverging(p, new float[6], 2, 3, 1, 1, "g", 0)).getMessage();
        assertTrue(m.contains("percentile 0"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.diverging(p, new float[6], 2, 3, 1, 1, "g", 100.5)).getMessage();
        assertTrue(m.contains("100.5"), m);
        assertTrue(!Files.exists(p), "nothing written on refusal");
    }

    // ------------------------------------------------------------------ diverging fields

    @Test
    void divergingFieldIsSymmetricWhiteAtZeroAndClippedAtThePercentile() throws IOException {
        int nz = 10, nx = 30;
        float[] g = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                g[z * nx + x] = x < 10 ? -1 : x < 20 ? 0 : 1;
            }
        }
        g[0] = -100; // one spike: clipped away at the 98th percentile
        Path p = dir.resolve("grad.png");
        Png.diverging(p, g, nz, nx, 1, 1, "gradient", 98);
        BufferedImage img = read(p);
        int w = 800, h = Math.round(800f / 3);
        assertEquals(Png.LEFT + w + Png.RIGHT_BAR, img.getWidth());
        assertEquals(Png.TOP + h + Png.BOTTOM, img.getHeight());
        int y = Png.TOP + h / 2;
        assertColour(DARK_BLUE, img, Png.LEFT + 100, y, "-1 at clip 1");
        assertColour(WHITE, img, Png.LEFT + w / 2, y, "0");
        assertColour(DARK_RED, img, Png.LEFT + w - 50, y, "+1 at clip 1");
        // without clipping (100th percentile = 100) +1 is almost white
        Png.diverging(p, g, nz, nx, 1, 1, "gradient", 100);
        img = read(p);
        assertColour(Png.seismic(0.01), img, Png.LEFT + w - 50, y, "+1 at clip 100");
        assertTrue((rgb(img, Png.LEFT + w - 50, y) & 0xFF) > 240, "nearly white");
    }

    // ------------------------------------------------------------------ gathers

    @Test
    void gatherShowsTheChosenShotTimeDown() throws IOException {
        int shots = 2, nt = 100, nrec = 10;
        float[] rec = new float[shots * nt * nrec];
        for (int r = 0; r < nrec; r++) {
            rec[(nt + 50) * nrec + r] = 1f;   // shot 1: an event at t = 50 on every receiver
            rec[(nt + 80) * nrec + r] = -3f;  // and a stronger negative one at t = 80
        }
        Path p = dir.resolve("shot1.png");
        Png.gather(p, rec, 1, nt, nrec, 0.002, "shot 1", 100);
        BufferedImage img = read(p);
        int w = 300, h = Png.GATHER_HEIGHT;
        assertEquals(Png.LEFT + w + Png.RIGHT_BAR, img.getWidth());
        assertEquals(Png.TOP + h + Png.BOTTOM, img.getHeight());
        assertColour(WHITE, img, Png.LEFT + w / 2, Png.TOP + 10 * h / nt, "t = 10: silence");
        assertColour(Png.seismic(1 / 3.0), img, Png.LEFT + w / 2, Png.TOP + 50 * h / nt + 3, "t = 50: +1 of 3");
        assertColour(DARK_BLUE, img, Png.LEFT + w / 2, Png.TOP + 80 * h / nt + 3, "t = 80: -3 at the clip");
        // shot 0 is silent: all white
        Png.gather(p, rec, 0, nt, nrec, 0.002, "shot 0", 99);
        img = read(p);
        assertColour(WHITE, img, Png.LEFT + w / 2, Png.TOP + 50 * h / nt + 3, "silent shot");
        // a long trace is reduced to the pixel height without losing a one-sample event
        int longNt = 5000;
        float[] one = new float[longNt * 3];
        one[2501 * 3 + 1] = 1f;
        Png.gather(p, one, 0, longNt, 3, 0.001, "long", 100);
        img = read(p);
        boolean seen = false;
        for (int yy = Png.TOP; yy < Png.TOP + h; yy++) {
            seen |= rgb(img, Png.LEFT + w / 2, yy) == DARK_RED;
        }
        assertTrue(seen, "the one-sample event vanished in the reduction");
    }

    @Test
    void gatherArgumentsAreChecked() {
        Path p = dir.resolve("bad.png");
        String m = assertThrows(Png.FormatException.class,
                () -> Png.gather(p, new float[20], 2, 5, 2, 0.001, "s", 99)).getMessage();
        assertTrue(m.contains("shot 2") && m.contains("2 shots"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.gather(p, new float[21], 0, 5, 2, 0.001, "s", 99)).getMessage();
        assertTrue(m.contains("21 samples"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.gather(p, new float[10], 0, 5, 2, -1, "s", 99)).getMessage();
        assertTrue(m.contains("dt = -1"), m);
    }

    // ------------------------------------------------------------------ curves

    /** Mean row of the line-colour pixels in column x (the dot of a point), or -1. */
    static double lineRow(BufferedImage img, int x) {
        double sum = 0;
        int n = 0;
        for (int y = Png.TOP; y < Png.TOP + Png.CURVE_HEIGHT; y++) {
            if (rgb(img, x, y) == LINE) {
                sum += y;
                n++;
            }
        }
        return n == 0 ? -1 : sum / n;
    }

    @Test
    void misfitCurveOnLogAxisPutsGeometricMeansHalfway() throws IOException {
        double[] misfit = {100, 10, 1};
        Path p = dir.resolve("misfit.png");
        Png.curve(p, misfit, "misfit", "misfit", true);
        BufferedImage img = read(p);
        int w = Png.CURVE_WIDTH;
        assertEquals(Png.LEFT + w + Png.RIGHT_CURVE, img.getWidth());
        assertEquals(Png.TOP + Png.CURVE_HEIGHT + Png.BOTTOM, img.getHeight());
        double y0 = lineRow(img, Png.LEFT), y1 = lineRow(img, Png.LEFT + (w - 1) / 2),
                y2 = lineRow(img, Png.LEFT + w - 1);
        assertTrue(y0 > 0 && y1 > 0 && y2 > 0, "points not found: " + y0 + " " + y1 + " " + y2);
        assertTrue(y0 < y2, "decreasing misfit should fall to the right");
        assertEquals((y0 + y2) / 2, y1, 2.0, "10 lies halfway between 100 and 1 on a log axis");
        // on a linear axis 10 is near the bottom
        Png.curve(p, misfit, "misfit", "misfit", false);
        img = read(p);
        y0 = lineRow(img, Png.LEFT);
        y1 = lineRow(img, Png.LEFT + (w - 1) / 2);
        y2 = lineRow(img, Png.LEFT + w - 1);
        assertEquals(y2 - (y2 - y0) * 9 / 99, y1, 2.0, "10 lies 9/99 of the way up on a linear axis");
    }

    @Test
    void curveEdgeCasesAndErrors() throws IOException {
        Path p = dir.resolve("c.png");
        Png.curve(p, new double[] {5}, "one point", "misfit", true);
        Png.curve(p, new double[] {0, 0, 0}, "flat", "misfit", false);
        Png.curve(p, new double[] {3e-9, 2e-9}, "tiny", "misfit", true);
        assertNotNull(read(p));
        String m = assertThrows(Png.FormatException.class,
                () -> Png.curve(p, new double[] {1, 0}, "m", "misfit", true)).getMessage();
        assertTrue(m.contains("value 1 is 0.0") && m.contains("logarithmic"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.curve(p, new double[] {1, Double.NaN}, "m", "misfit", false)).getMessage();
        assertTrue(m.contains("NaN"), m);
        m = assertThrows(Png.FormatException.class,
                () -> Png.curve(p, new double[0], "m", "misfit", false)).getMessage();
        assertTrue(m.contains("no values"), m);
    }

    @Test
    void modelOnAGivenScaleSharesColoursAndClipsOutsideIt() throws IOException {
        int nz = 10, nx = 40;
        float[] ramp = new float[nz * nx];
        float[] other = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                ramp[z * nx + x] = 1000 + 100 * x; // 1000 .. 4900
                other[z * nx + x] = 2000; // alone it would be drawn in the lowest colour
            }
        }
        Path a = dir.resolve("a.png");
        Path b = dir.resolve("b.png");
        Png.model(a, ramp, nz, nx, 10, 10, "true", "m/s", 1000, 3000);
        Png.model(b, other, nz, nx, 10, 10, "final", "m/s", 1000, 3000);
        BufferedImage ia = read(a);
        BufferedImage ib = read(b);
        int cell = 800 / nx; // pixels per cell
        assertColour(MIN_COLOUR, ia, Png.LEFT + cell / 2, Png.TOP + 10, "the scale's minimum");
        assertColour(MAX_COLOUR, ia, Png.LEFT + 20 * cell + cell / 2, Png.TOP + 10, "the scale's maximum (3000)");
        assertColour(MAX_COLOUR, ia, Png.LEFT + 35 * cell + cell / 2, Png.TOP + 10, "above the scale: clipped");
        assertColour(Png.sequential(0.5), ib, Png.LEFT + 400, Png.TOP + 10, "2000 halfway up [1000, 3000]");
        assertColour(rgb(ia, Png.LEFT + 10 * cell + cell / 2, Png.TOP + 10), ib, Png.LEFT + 400, Png.TOP + 10,
                "equal values (2000), equal colours in both pictures");
        assertThrows(Png.FormatException.class, () -> Png.model(a, ramp, nz, nx, 10, 10, "t", "", 3000, 1000));
    }

    static double rowOf(BufferedImage img, int x, int colour) {
        double sum = 0;
        int n = 0;
        for (int y = Png.TOP; y < Png.TOP + Png.CURVE_HEIGHT; y++) {
            if (rgb(img, x, y) == colour) {
                sum += y;
                n++;
            }
        }
        return n == 0 ? -1 : sum / n;
    }

    @Test
    void curvesDrawOneColouredCurvePerBandWithALegend() throws IOException {
        Path p = dir.resolve("bands.png");
        Png.curves(p, List.of(new double[] {1, 0.5, 0.25}, new double[] {1, 0.1}), List.of("band 1", "band 2"),
                "misfit per band", "misfit / band start", true);
        BufferedImage img = read(p);
        int w = Png.CURVE_WIDTH;
        int second = Png.CURVE_COLOURS[1];
        assertEquals(LINE, Png.CURVE_COLOURS[0], "the first curve keeps the single curve's colour");
        int mid = Png.LEFT + (w - 1) / 2;
        double band1 = rowOf(img, mid, LINE);
        double band2 = rowOf(img, mid, second);
        assertTrue(band1 > 0 && band2 > 0, "curves not found at iteration 1: " + band1 + " " + band2);
        // log axis over [0.1, 1] padded by 5 % of its span: 0.5 lies log10(2)/1.1 of the height above 0.1
        double h = Png.CURVE_HEIGHT - 1;
        assertEquals(Math.log10(5) / 1.1 * h, band2 - band1, 3.0, "0.5 above 0.1 on the log axis");
        assertEquals(-1, rowOf(img, Png.LEFT + w - 1, second), "band 2 has two points only");
        assertTrue(rowOf(img, Png.LEFT + w - 1, LINE) > 0, "band 1 reaches iteration 2");
        assertTrue(dark(img, Png.LEFT + w - 80, Png.TOP + 8, Png.LEFT + w - 10, Png.TOP + 40), "no legend text");
        assertThrows(Png.FormatException.class, () -> Png.curves(p, List.of(new double[] {1}), List.of("a", "b"),
                "t", "y", true));
        assertThrows(Png.FormatException.class, () -> Png.curves(p, List.of(new double[] {1, 0}), List.of("a"),
                "t", "y", true));
    }

    @Test
    void ticksAreNiceNumbers() {
        assertEquals(List.of(0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0), Png.ticks(0, 6000));
        assertEquals(List.of(0.0, 0.5, 1.0, 1.5, 2.0), Png.ticks(0, 2.2).subList(0, 5));
        List<Double> decades = Png.logTicks(-3, 2);
        List<Double> want = new ArrayList<>(List.of(-3.0, -2.0, -1.0, 0.0, 1.0, 2.0));
        assertEquals(want, decades);
    }

    @Test
    void writesAtomicallyAndLeavesNoTemporaryFile() throws IOException {
        Path p = dir.resolve("m.png");
        Files.writeString(p, "old");
        Png.curve(p, new double[] {3, 2, 1}, "m", "misfit", false);
        assertNotNull(read(p));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(p), s.toList());
        }
    }
}
