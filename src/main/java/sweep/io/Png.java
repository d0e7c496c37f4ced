package sweep.io;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.awt.image.RenderedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * PNG pictures of a run's results, drawn with java.awt on a headless {@link BufferedImage} and written with
 * {@link ImageIO}: velocity models with a sequential (viridis-like) colour map and a colour bar, gradients and
 * shot gathers with a symmetric blue-white-red ("seismic") map clipped at a percentile of |value|, and a misfit
 * curve with linear or logarithmic axis.
 *
 * <p>Fields are (rows, columns) in C order, row 0 drawn at the top (depth and time increase downwards); a
 * non-finite value is drawn grey ({@link #NON_FINITE}) and ignored by the colour scale, and a field without any
 * finite value is refused. A constant field is drawn in the colour map's lowest colour. Every picture is written
 * atomically (temporary file + rename); invalid arguments are a {@link FormatException}.
 */
public final class Png {

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** Left margin of every plot (tick labels and axis label); the plot area starts at this x. */
    public static final int LEFT = 78;
    /** Top margin (title); the plot area starts at this y. */
    public static final int TOP = 34;
    /** Bottom margin (tick labels and axis label). */
    static final int BOTTOM = 50;
    /** Right margin of a raster plot (colour bar and its labels). */
    static final int RIGHT_BAR = 110;
    /** Right margin of a curve plot. */
    static final int RIGHT_CURVE = 24;
    /** Longer side of a model's plot area in pixels. */
    static final int MODEL_SIDE = 800;
    /** Height of a gather's plot area in pixels. */
    static final int GATHER_HEIGHT = 700;
    /** Size of a curve's plot area in pixels. */
    static final int CURVE_WIDTH = 640, CURVE_HEIGHT = 400;
    /** Colour (RGB) of non-finite samples. */
    public static final int NON_FINITE = 0x969696;

    private static final int[][] SEQUENTIAL = { // viridis-like anchors at 0, 1/4, 1/2, 3/4, 1
        {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    private static final int[][] SEISMIC = { // at -1, -1/2, 0, 1/2, 1
        {0, 0, 77}, {0, 0, 255}, {255, 255, 255}, {255, 0, 0}, {128, 0, 0}};
    private static final Color AXIS = new Color(40, 40, 40);
    private static final Color GRID = new Color(225, 225, 225);
    private static final Color LINE = new Color(31, 90, 170);

    private Png() {}

    /** Invalid arguments to a plot: mismatched shapes, no finite value, impossible percentiles or scales. */
    public static final class FormatException extends IllegalArgumentException {
        public FormatException(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------ colour maps

    /** RGB of the sequential (viridis-like) map at {@code u} in [0, 1] (clamped): dark purple to yellow. */
    public static int sequential(double u) {
        return interpolate(SEQUENTIAL, clamp(u, 0, 1));
    }

    /** RGB of the seismic map at {@code u} in [-1, 1] (clamped): dark blue, blue, white at 0, red, dark red. */
    public static int seismic(double u) {
        return interpolate(SEISMIC, (clamp(u, -1, 1) + 1) / 2);
    }

    private static int interpolate(int[][] anchors, double u) {
        double s = u * (anchors.length - 1);
        int k = Math.min((int) Math.floor(s), anchors.length - 2);
        double f = s - k;
        int rgb = 0;
        for (int c = 0; c < 3; c++) {
            int v = (int) Math.round(anchors[k][c] + f * (anchors[k + 1][c] - anchors[k][c]));
            rgb = (rgb << 8) | v;
        }
        return rgb;
    }

    private static double clamp(double v, double lo, double hi) {
        return Double.isNaN(v) ? lo : Math.max(lo, Math.min(hi, v));
    }

    // ------------------------------------------------------------------ public plots

    /**
     * Draws a 2-D field such as a velocity model, shape (nz, nx) with z down, in the sequential map between its
     * finite minimum and maximum, with x/z axes in metres (cell spacings dz, dx) and a colour bar labelled with the
     * minimum and maximum ({@code unit} appended, may be empty).
     */
    public static void model(Path path, float[] values, int nz, int nx, double dz, double dx, String title,
                             String unit) {
        model(path, values, nz, nx, dz, dx, title, unit, Double.NaN, Double.NaN);
    }

    /**
     * As {@link #model(Path, float[], int, int, double, double, String, String)} on the given colour scale [lo, hi]
     * (values outside it take the end colours), so that pictures of one parameter (true, starting, inverted model)
     * can share one scale; NaN for both: the field's own finite minimum and maximum. Non-finite cells are grey.
     */
    public static void model(Path path, float[] values, int nz, int nx, double dz, double dx, String title,
                             String unit, double lo, double hi) {
        String at = path + ": cannot draw " + quote(title) + ": ";
        checkShape(at, values, nz, nx, "(nz, nx)");
        checkSpacing(at, "dz", dz);
        checkSpacing(at, "dx", dx);
        if (Double.isNaN(lo) && Double.isNaN(hi)) {
            double[] range = finiteRange(at, values);
            lo = range[0];
            hi = range[1];
        } else if (!(Double.isFinite(lo) && Double.isFinite(hi) && hi >= lo)) {
            throw new FormatException(at + "colour scale [" + lo + ", " + hi + "] needs finite lo <= hi");
        }
        double scale = MODEL_SIDE / Math.max(nz * dz, nx * dx);
        int w = Math.max(40, (int) Math.round(nx * dx * scale));
        int h = Math.max(40, (int) Math.round(nz * dz * scale));
        Canvas c = new Canvas(w, h, RIGHT_BAR, title);
        double span = hi - lo;
        double min = lo;
        c.raster(values, nz, nx, false, v -> sequential(span > 0 ? (v - min) / span : 0));
        c.axes(0, nx * dx, "x (m)", 0, nz * dz, "z (m)", true);
        c.colourBar(Png::sequential, 0, 1, label(hi, unit), null, label(lo, unit));
        c.write(path);
    }

    /**
     * Draws several 2-D fields of one parameter, e.g. the true, starting and inverted velocity model, as panels one
     * above the other on <em>one</em> colour scale (the finite minimum and maximum over all of them), each panel with
     * its title, axes in metres and the shared colour bar, so that equal values look equal in every panel.
     */
    public static void modelPanels(Path path, List<float[]> fields, List<String> titles, int nz, int nx, double dz,
                                   double dx, String unit) {
        String at = path + ": cannot draw the panels " + titles + ": ";
        if (fields.isEmpty() || fields.size() != titles.size()) {
            throw new FormatException(at + fields.size() + " fields for " + titles.size() + " titles");
        }
        checkSpacing(at, "dz", dz);
        checkSpacing(at, "dx", dx);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (float[] f : fields) {
            checkShape(at, f, nz, nx, "(nz, nx)");
            double[] range = finiteRange(at, f);
            lo = Math.min(lo, range[0]);
            hi = Math.max(hi, range[1]);
        }
        double scale = MODEL_SIDE / Math.max(nz * dz, nx * dx);
        int w = Math.max(40, (int) Math.round(nx * dx * scale));
        int h = Math.max(40, (int) Math.round(nz * dz * scale));
        List<BufferedImage> panels = new ArrayList<>();
        final double min = lo;
        final double span = hi - lo;
        for (int k = 0; k < fields.size(); k++) {
            Canvas c = new Canvas(w, h, RIGHT_BAR, titles.get(k));
            c.raster(fields.get(k), nz, nx, false, v -> sequential(span > 0 ? (v - min) / span : 0));
            c.axes(0, nx * dx, "x (m)", 0, nz * dz, "z (m)", true);
            c.colourBar(Png::sequential, 0, 1, label(hi, unit), null, label(lo, unit));
            c.g.dispose();
            panels.add(c.img);
        }
        int width = panels.get(0).getWidth();
        int height = 0;
        for (BufferedImage p : panels) {
            height += p.getHeight();
        }
        BufferedImage all = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        int y = 0;
        for (BufferedImage p : panels) {
            g.drawImage(p, 0, y, null);
            y += p.getHeight();
        }
        g.dispose();
        write(path, all);
    }

    /**
     * Writes {@code img} as a PNG file, atomically, through an in-memory image stream that this method closes: the
     * stream {@link ImageIO} makes itself caches in a temporary file and, when the disk fills up, is left for a
     * shutdown hook that then fails with a stack trace.
     */
    private static void write(Path path, RenderedImage img) {
        AtomicFiles.writeStream(path, "PNG image", out -> {
            try (ImageOutputStream image = new MemoryCacheImageOutputStream(out)) {
                if (!ImageIO.write(img, "png", image)) {
                    throw new IllegalStateException("no PNG writer in javax.imageio");
                }
            }
        });
    }

    /**
     * Draws a 2-D field with values of both signs, such as a gradient, shape (nz, nx) with z down, in the seismic
     * map symmetric about 0 and clipped at the {@code percentile} (0 < p <= 100) of |value| over the finite
     * values; axes in metres and a colour bar labelled with the clip value.
     */
    public static void diverging(Path path, float[] values, int nz, int nx, double dz, double dx, String title,
                                 double percentile) {
        String at = path + ": cannot draw " + quote(title) + ": ";
        checkShape(at, values, nz, nx, "(nz, nx)");
        checkSpacing(at, "dz", dz);
        checkSpacing(at, "dx", dx);
        double clip = clip(at, values, 0, values.length, percentile);
        double scale = MODEL_SIDE / Math.max(nz * dz, nx * dx);
        int w = Math.max(40, (int) Math.round(nx * dx * scale));
        int h = Math.max(40, (int) Math.round(nz * dz * scale));
        Canvas c = new Canvas(w, h, RIGHT_BAR, title);
        c.raster(values, nz, nx, true, v -> seismic(clip > 0 ? v / clip : 0));
        c.axes(0, nx * dx, "x (m)", 0, nz * dz, "z (m)", true);
        c.colourBar(Png::seismic, -1, 1, "+" + num(clip), "0", "-" + num(clip));
        c.write(path);
    }

    /**
     * Draws shot {@code shot} (from 0) of a record of shape (shots, nt, nrec) as a gather, time down and receivers
     * across, in the seismic map clipped at the {@code percentile} (0 < p <= 100) of |value| of that shot.
     */
    public static void gather(Path path, float[] record, int shot, int nt, int nrec, double dt, String title,
                              double percentile) {
        String at = path + ": cannot draw " + quote(title) + ": ";
        if (nt < 1 || nrec < 1) {
            throw new FormatException(at + "nt = " + nt + " and nrec = " + nrec + " must both be >= 1");
        }
        long per = (long) nt * nrec;
        if (record == null || record.length == 0 || record.length % per != 0) {
            throw new FormatException(at + "record has " + (record == null ? "no" : record.length) + " samples,"
                    + " not a positive multiple of nt * nrec = " + per + " (shape (shots, nt, nrec))");
        }
        int shots = (int) (record.length / per);
        if (shot < 0 || shot >= shots) {
            throw new FormatException(at + "shot " + shot + " is outside the record's " + shots + " shots");
        }
        checkSpacing(at, "dt", dt);
        int from = (int) (shot * per);
        double clip = clip(at, record, from, (int) per, percentile);
        gatherPanel(Arrays.copyOfRange(record, from, from + (int) per), nt, nrec, dt, title, clip).write(path);
    }

    /** One gather (nt, nrec) on a canvas: time down, receivers across, the seismic map clipped at {@code clip}. */
    private static Canvas gatherPanel(float[] one, int nt, int nrec, double dt, String title, double clip) {
        int w = Math.max(300, Math.min(900, nrec * 2));
        Canvas c = new Canvas(w, GATHER_HEIGHT, RIGHT_BAR, title);
        c.raster(one, nt, nrec, true, v -> seismic(clip > 0 ? v / clip : 0));
        c.axes(0, nrec, "receiver", 0, nt * dt, "t (s)", true);
        c.colourBar(Png::seismic, -1, 1, "+" + num(clip), "0", "-" + num(clip));
        return c;
    }

    /**
     * Draws several gathers of one shot, each of shape (nt, nrec), such as observed data, synthetic data and their
     * difference, as panels in rows of {@code columns}, all on <em>one</em> clip: the {@code percentile} (0 < p <=
     * 100) of |value| of the first gather, so that a residual's amplitude reads against the data's.
     */
    public static void gatherPanels(Path path, List<float[]> gathers, List<String> titles, int columns, int nt,
                                    int nrec, double dt, double percentile) {
        String at = path + ": cannot draw the gathers " + titles + ": ";
        if (gathers.isEmpty() || gathers.size() != titles.size() || columns < 1) {
            throw new FormatException(at + gathers.size() + " gathers for " + titles.size() + " titles in "
                    + columns + " column(s)");
        }
        checkSpacing(at, "dt", dt);
        for (float[] g : gathers) {
            checkShape(at, g, nt, nrec, "(nt, nrec)");
        }
        double clip = clip(at, gathers.get(0), 0, gathers.get(0).length, percentile);
        List<BufferedImage> panels = new ArrayList<>();
        for (int k = 0; k < gathers.size(); k++) {
            Canvas c = gatherPanel(gathers.get(k), nt, nrec, dt, titles.get(k), clip);
            c.g.dispose();
            panels.add(c.img);
        }
        int pw = panels.get(0).getWidth();
        int ph = panels.get(0).getHeight();
        int cols = Math.min(columns, panels.size());
        int rows = (panels.size() + cols - 1) / cols;
        BufferedImage all = new BufferedImage(pw * cols, ph * rows, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, all.getWidth(), all.getHeight());
        for (int k = 0; k < panels.size(); k++) {
            g.drawImage(panels.get(k), (k % cols) * pw, (k / cols) * ph, null);
        }
        g.dispose();
        write(path, all);
    }

    /**
     * Draws a curve such as the misfit per iteration: {@code values[i]} against iteration {@code i} (from 0), with
     * a logarithmic y axis when {@code logScale} (every value must then be positive). All values must be finite.
     */
    public static void curve(Path path, double[] values, String title, String yLabel, boolean logScale) {
        String at = path + ": cannot draw " + quote(title) + ": ";
        if (values == null || values.length == 0) {
            throw new FormatException(at + "no values to plot");
        }
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new FormatException(at + "value " + i + " is " + values[i] + "; only finite values can be"
                        + " plotted");
            }
            if (logScale && !(values[i] > 0)) {
                throw new FormatException(at + "value " + i + " is " + values[i] + "; a logarithmic axis needs"
                        + " positive values (plot with logScale = false)");
            }
        }
        double[] y = values.clone();
        if (logScale) {
            for (int i = 0; i < y.length; i++) {
                y[i] = Math.log10(y[i]);
            }
        }
        double lo = Arrays.stream(y).min().getAsDouble(), hi = Arrays.stream(y).max().getAsDouble();
        if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) {
            double pad = logScale ? 0.5 : hi != 0 ? Math.abs(hi) * 0.1 : 1;
            lo -= pad;
            hi += pad;
        } else {
            double pad = 0.05 * (hi - lo);
            lo -= pad;
            hi += pad;
        }
        double xlo = 0, xhi = Math.max(1, values.length - 1);
        Canvas c = new Canvas(CURVE_WIDTH, CURVE_HEIGHT, RIGHT_CURVE, title);
        c.curveAxes(xlo, xhi, "iteration", lo, hi, yLabel, logScale);
        c.polyline(y, xlo, xhi, lo, hi);
        c.write(path);
    }

    /** Colours of the curves of {@link #curves}, in order (the first is the single curve's). */
    static final int[] CURVE_COLOURS = {LINE.getRGB() & 0xFFFFFF, 0xE07B00, 0x2CA02C, 0xD62728, 0x9467BD, 0x8C564B,
            0xE377C2, 0x7F7F7F, 0x17BECF};

    /**
     * Draws several curves on one pair of axes, e.g. each FWI band's misfit per iteration normalised to its band's
     * start: curve k is {@code series.get(k)[i]} against i (from 0), in colour {@link #CURVE_COLOURS}[k] (cycled),
     * named in a legend by {@code labels.get(k)}. Logarithmic y axis when {@code logScale} (all values positive).
     */
    public static void curves(Path path, List<double[]> series, List<String> labels, String title, String yLabel,
                              boolean logScale) {
        curves(path, series, labels, title, "iteration", yLabel, logScale);
    }

    /** {@link #curves(Path, List, List, String, String, boolean)} with the x axis named {@code xLabel}. */
    public static void curves(Path path, List<double[]> series, List<String> labels, String title, String xLabel,
                              String yLabel, boolean logScale) {
        String at = path + ": cannot draw " + quote(title) + ": ";
        if (series == null || series.isEmpty() || labels == null || labels.size() != series.size()) {
            throw new FormatException(at + (series == null ? 0 : series.size()) + " curves for "
                    + (labels == null ? 0 : labels.size()) + " labels; give one label per curve, at least one curve");
        }
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        int longest = 0;
        List<double[]> ys = new ArrayList<>();
        for (int k = 0; k < series.size(); k++) {
            double[] values = series.get(k);
            if (values == null || values.length == 0) {
                throw new FormatException(at + "curve " + k + " (" + labels.get(k) + ") has no values");
            }
            double[] y = values.clone();
            for (int i = 0; i < y.length; i++) {
                if (!Double.isFinite(y[i]) || (logScale && !(y[i] > 0))) {
                    throw new FormatException(at + "value " + i + " of curve " + k + " (" + labels.get(k) + ") is "
                            + y[i] + "; only finite" + (logScale ? ", positive" : "") + " values can be plotted");
                }
                y[i] = logScale ? Math.log10(y[i]) : y[i];
                lo = Math.min(lo, y[i]);
                hi = Math.max(hi, y[i]);
            }
            longest = Math.max(longest, y.length);
            ys.add(y);
        }
        if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) {
            double pad = logScale ? 0.5 : hi != 0 ? Math.abs(hi) * 0.1 : 1;
            lo -= pad;
            hi += pad;
        } else {
            double pad = 0.05 * (hi - lo);
            lo -= pad;
            hi += pad;
        }
        double xlo = 0, xhi = Math.max(1, longest - 1);
        Canvas c = new Canvas(CURVE_WIDTH, CURVE_HEIGHT, RIGHT_CURVE, title);
        c.curveAxes(xlo, xhi, xLabel, lo, hi, yLabel, logScale);
        for (int k = 0; k < ys.size(); k++) {
            c.polyline(ys.get(k), xlo, xhi, lo, hi, new Color(CURVE_COLOURS[k % CURVE_COLOURS.length]));
        }
        c.legend(labels);
        c.write(path);
    }

    // ------------------------------------------------------------------ checks

    private static void checkShape(String at, float[] values, int rows, int cols, String names) {
        if (rows < 1 || cols < 1) {
            throw new FormatException(at + "shape (" + rows + ", " + cols + ") " + names + " must have both"
                    + " dimensions >= 1");
        }
        long n = (long) rows * cols;
        if (values == null || values.length != n) {
            throw new FormatException(at + "field has " + (values == null ? "no" : values.length) + " values but"
                    + " shape (" + rows + ", " + cols + ") " + names + " needs " + n);
        }
    }

    private static void checkSpacing(String at, String name, double v) {
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new FormatException(at + name + " = " + v + " must be a positive finite spacing");
        }
    }

    private static double[] finiteRange(String at, float[] values) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (float v : values) {
            if (Float.isFinite(v)) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (lo > hi) {
            throw new FormatException(at + "the field has no finite value (all " + values.length
                    + " are NaN or infinite)");
        }
        return new double[] {lo, hi};
    }

    /**
     * Clip level: the {@code percentile} of |value| over the finite values of {@code values[from, from + n)}; the
     * largest |value| when that is 0; 0 for an all-zero field.
     */
    private static double clip(String at, float[] values, int from, int n, double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new FormatException(at + "clip percentile " + percentile + " must lie in (0, 100]");
        }
        float[] mags = new float[n];
        int k = 0;
        for (int i = from; i < from + n; i++) {
            if (Float.isFinite(values[i])) {
                mags[k++] = Math.abs(values[i]);
            }
        }
        if (k == 0) {
            throw new FormatException(at + "the field has no finite value (all " + n + " are NaN or infinite)");
        }
        Arrays.sort(mags, 0, k);
        int rank = (int) Math.min(k - 1, Math.max(0, Math.ceil(percentile / 100 * k) - 1));
        double clip = mags[rank];
        return clip > 0 ? clip : mags[k - 1];
    }

    // ------------------------------------------------------------------ drawing

    /** Maps a finite value to RGB. */
    private interface ColourOf {
        int rgb(double v);
    }

    /** Maps a colour-map coordinate to RGB. */
    private interface ColourMap {
        int rgb(double u);
    }

    /** An image with a plot area of w × h pixels at ({@link #LEFT}, {@link #TOP}). */
    private static final class Canvas {
        final int w, h;
        final BufferedImage img;
        final Graphics2D g;
        final Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

        Canvas(int w, int h, int right, String title) {
            this.w = w;
            this.h = h;
            img = new BufferedImage(LEFT + w + right, TOP + h + BOTTOM, BufferedImage.TYPE_INT_RGB);
            g = img.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, img.getWidth(), img.getHeight());
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            if (title != null && !title.isEmpty()) {
                g.setFont(font.deriveFont(Font.BOLD, 14f));
                g.setColor(AXIS);
                FontMetrics fm = g.getFontMetrics();
                g.drawString(title, LEFT + (w - fm.stringWidth(title)) / 2, TOP - 12);
            }
            g.setFont(font);
        }

        /**
         * Fills the plot area from a (rows, cols) field, nearest cell per pixel; when several cells fall in one
         * pixel and {@code extreme} is set, the one of largest |value| is shown (so that thin events survive).
         */
        void raster(float[] values, int rows, int cols, boolean extreme, ColourOf colour) {
            for (int py = 0; py < h; py++) {
                int i0 = (int) ((long) py * rows / h), i1 = Math.max(i0 + 1, (int) ((long) (py + 1) * rows / h));
                for (int px = 0; px < w; px++) {
                    int j0 = (int) ((long) px * cols / w), j1 = Math.max(j0 + 1, (int) ((long) (px + 1) * cols / w));
                    float v = values[i0 * cols + j0];
                    if (extreme) {
                        for (int i = i0; i < i1; i++) {
                            for (int j = j0; j < j1; j++) {
                                float u = values[i * cols + j];
                                if (Float.isFinite(u) && (!Float.isFinite(v) || Math.abs(u) > Math.abs(v))) {
                                    v = u;
                                }
                            }
                        }
                    }
                    img.setRGB(LEFT + px, TOP + py, Float.isFinite(v) ? colour.rgb(v) : NON_FINITE);
                }
            }
        }

        /** Frame, ticks and labels of a raster whose x runs [x0, x1] left to right and y [y0, y1] top down. */
        void axes(double x0, double x1, String xLabel, double y0, double y1, String yLabel, boolean yDown) {
            g.setColor(AXIS);
            g.setStroke(new BasicStroke(1f));
            g.drawRect(LEFT - 1, TOP - 1, w + 1, h + 1);
            FontMetrics fm = g.getFontMetrics();
            for (double t : ticks(x0, x1)) {
                int px = LEFT + (int) Math.round((t - x0) / (x1 - x0) * (w - 1));
                g.drawLine(px, TOP + h, px, TOP + h + 4);
                String s = tickText(t, x0, x1);
                g.drawString(s, px - fm.stringWidth(s) / 2, TOP + h + 6 + fm.getAscent());
            }
            for (double t : ticks(y0, y1)) {
                double f = (t - y0) / (y1 - y0);
                int py = TOP + (int) Math.round((yDown ? f : 1 - f) * (h - 1));
                g.drawLine(LEFT - 5, py, LEFT - 1, py);
                String s = tickText(t, y0, y1);
                g.drawString(s, LEFT - 8 - fm.stringWidth(s), py + fm.getAscent() / 2 - 1);
            }
            g.drawString(xLabel, LEFT + (w - fm.stringWidth(xLabel)) / 2, TOP + h + BOTTOM - 8);
            verticalText(yLabel, 14, TOP + h / 2);
        }

        /** Axes of a curve: grid lines, ticks at nice values (decades and their 2, 5 multiples when log). */
        void curveAxes(double x0, double x1, String xLabel, double y0, double y1, String yLabel, boolean log) {
            FontMetrics fm = g.getFontMetrics();
            List<Double> xt = ticks(x0, x1);
            xt.removeIf(t -> t != Math.rint(t)); // iterations are whole numbers
            List<Double> yt = log ? logTicks(y0, y1) : ticks(y0, y1);
            for (double t : xt) {
                int px = xPixel(t, x0, x1);
                g.setColor(GRID);
                g.drawLine(px, TOP, px, TOP + h - 1);
                g.setColor(AXIS);
                g.drawLine(px, TOP + h, px, TOP + h + 4);
                String s = tickText(t, x0, x1);
                g.drawString(s, px - fm.stringWidth(s) / 2, TOP + h + 6 + fm.getAscent());
            }
            for (double t : yt) {
                int py = yPixel(t, y0, y1);
                g.setColor(GRID);
                g.drawLine(LEFT, py, LEFT + w - 1, py);
                g.setColor(AXIS);
                g.drawLine(LEFT - 5, py, LEFT - 1, py);
                String s = log ? num(Math.pow(10, t)) : tickText(t, y0, y1);
                g.drawString(s, LEFT - 8 - fm.stringWidth(s), py + fm.getAscent() / 2 - 1);
            }
            g.setColor(AXIS);
            g.drawRect(LEFT - 1, TOP - 1, w + 1, h + 1);
            g.drawString(xLabel, LEFT + (w - fm.stringWidth(xLabel)) / 2, TOP + h + BOTTOM - 8);
            String yl = (yLabel == null ? "" : yLabel) + (log ? " (log scale)" : "");
            verticalText(yl, 14, TOP + h / 2);
        }

        int xPixel(double x, double x0, double x1) {
            return LEFT + (int) Math.round((x - x0) / (x1 - x0) * (w - 1));
        }

        int yPixel(double y, double y0, double y1) {
            return TOP + (int) Math.round((1 - (y - y0) / (y1 - y0)) * (h - 1));
        }

        /** The curve through (i, y[i]), with a dot at each point. */
        void polyline(double[] y, double x0, double x1, double y0, double y1) {
            polyline(y, x0, x1, y0, y1, LINE);
        }

        /** The curve through (i, y[i]) in {@code colour}, with a dot at each point. */
        void polyline(double[] y, double x0, double x1, double y0, double y1, Color colour) {
            g.setColor(colour);
            g.setStroke(new BasicStroke(2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            Path2D.Double p = new Path2D.Double();
            for (int i = 0; i < y.length; i++) {
                double px = LEFT + (i - x0) / (x1 - x0) * (w - 1), py = TOP + (1 - (y[i] - y0) / (y1 - y0)) * (h - 1);
                if (i == 0) {
                    p.moveTo(px, py);
                } else {
                    p.lineTo(px, py);
                }
            }
            if (y.length > 1) {
                g.draw(p);
            }
            int r = y.length > 60 ? 2 : 3;
            for (int i = 0; i < y.length; i++) {
                g.fillOval(xPixel(i, x0, x1) - r, yPixel(y[i], y0, y1) - r, 2 * r + 1, 2 * r + 1);
            }
        }

        /** A legend in the plot's top right corner: a line of each curve's colour and its label. */
        void legend(List<String> labels) {
            FontMetrics fm = g.getFontMetrics();
            int width = 0;
            for (String l : labels) {
                width = Math.max(width, fm.stringWidth(l));
            }
            int line = fm.getHeight() + 2;
            int bw = width + 38, bh = labels.size() * line + 8;
            int x = LEFT + w - bw - 8, y = TOP + 8;
            g.setColor(Color.WHITE);
            g.fillRect(x, y, bw, bh);
            g.setColor(AXIS);
            g.drawRect(x, y, bw, bh);
            for (int k = 0; k < labels.size(); k++) {
                int cy = y + 4 + k * line + line / 2;
                g.setColor(new Color(CURVE_COLOURS[k % CURVE_COLOURS.length]));
                g.setStroke(new BasicStroke(2f));
                g.drawLine(x + 6, cy, x + 28, cy);
                g.setColor(AXIS);
                g.drawString(labels.get(k), x + 34, cy + fm.getAscent() / 2 - 1);
            }
        }

        /** Vertical colour bar right of the plot: the map from u1 (top) to u0 (bottom) and three labels. */
        void colourBar(ColourMap map, double u0, double u1, String top, String middle, String bottom) {
            int x = LEFT + w + 14, bw = 18;
            for (int py = 0; py < h; py++) {
                double u = u1 + (u0 - u1) * py / Math.max(1, h - 1);
                int rgb = map.rgb(u);
                for (int px = 0; px < bw; px++) {
                    img.setRGB(x + px, TOP + py, rgb);
                }
            }
            g.setColor(AXIS);
            g.drawRect(x - 1, TOP - 1, bw + 1, h + 1);
            FontMetrics fm = g.getFontMetrics();
            g.drawString(top, x + bw + 5, TOP + fm.getAscent() - 2);
            if (middle != null) {
                g.drawString(middle, x + bw + 5, TOP + h / 2 + fm.getAscent() / 2 - 1);
            }
            g.drawString(bottom, x + bw + 5, TOP + h);
        }

        void verticalText(String s, int x, int yCentre) {
            if (s == null || s.isEmpty()) {
                return;
            }
            AffineTransform saved = g.getTransform();
            g.rotate(-Math.PI / 2);
            FontMetrics fm = g.getFontMetrics();
            g.drawString(s, -yCentre - fm.stringWidth(s) / 2, x + fm.getAscent() / 2);
            g.setTransform(saved);
        }

        void write(Path path) {
            g.dispose();
            Png.write(path, img);
        }
    }

    // ------------------------------------------------------------------ ticks and labels

    /** Ticks at 1, 2 or 5 × 10^k spacing within [lo, hi] (either order), about six of them. */
    static List<Double> ticks(double lo, double hi) {
        double a = Math.min(lo, hi), b = Math.max(lo, hi);
        List<Double> out = new ArrayList<>();
        if (!(b > a)) {
            out.add(a);
            return out;
        }
        double step = niceStep((b - a) / 6);
        double first = Math.ceil(a / step - 1e-9) * step;
        for (int k = 0; k < 50; k++) {
            double t = first + k * step;
            if (t > b + 1e-9 * step) {
                break;
            }
            out.add(Math.abs(t) < 1e-12 * step ? 0.0 : t);
        }
        return out;
    }

    /** Ticks of a log10 axis given in log10 units: whole decades, or 1-2-5 multiples when less than 2 decades. */
    static List<Double> logTicks(double lo, double hi) {
        List<Double> out = new ArrayList<>();
        int d0 = (int) Math.floor(lo), d1 = (int) Math.ceil(hi);
        if (hi - lo >= 2) {
            int every = Math.max(1, (d1 - d0) / 8);
            for (int d = d0; d <= d1; d++) {
                if (d >= lo - 1e-9 && d <= hi + 1e-9 && Math.floorMod(d, every) == 0) {
                    out.add((double) d);
                }
            }
            return out;
        }
        for (int d = d0; d <= d1; d++) {
            for (int m : new int[] {1, 2, 5}) {
                double t = d + Math.log10(m);
                if (t >= lo - 1e-9 && t <= hi + 1e-9) {
                    out.add(t);
                }
            }
        }
        if (out.size() < 2) { // less than a factor of 2: linear ticks in value space
            out.clear();
            for (double v : ticks(Math.pow(10, lo), Math.pow(10, hi))) {
                if (v > 0) {
                    out.add(Math.log10(v));
                }
            }
        }
        return out;
    }

    private static double niceStep(double raw) {
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / mag;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    }

    /** Tick label with as many decimals as the tick spacing of [lo, hi] needs. */
    private static String tickText(double t, double lo, double hi) {
        double step = niceStep(Math.abs(hi - lo) / 6);
        if (Math.abs(t) >= 1e6 || (step < 1e-3 && t != 0)) {
            return num(t);
        }
        int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        return String.format(Locale.ROOT, "%." + decimals + "f", t);
    }

    /** A compact number: up to 4 significant digits, scientific outside [1e-3, 1e6). */
    static String num(double v) {
        double a = Math.abs(v);
        if (v == 0) {
            return "0";
        }
        if (a >= 1e6 || a < 1e-3) {
            return String.format(Locale.ROOT, "%.3e", v).replaceAll("\\.?0+e", "e");
        }
        String s = String.format(Locale.ROOT, "%.4g", v);
        if (s.contains(".") && !s.contains("e")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }

    private static String label(double v, String unit) {
        return num(v) + (unit == null || unit.isEmpty() ? "" : " " + unit);
    }

    private static String quote(String title) {
        return title == null || title.isEmpty() ? "plot" : "'" + title + "'";
    }
}
