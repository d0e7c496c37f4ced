package sweep.prop;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The bytes a run will allocate, computed before it allocates anything: wavefields, CPML, the adjoint's fields and the
 * tape of the chosen {@link Storage} for one solver's grid (a tile of the model under domain decomposition), and the
 * record, wavelet and observed data of a batch. {@link #requireHeap} refuses a run that does not fit in the JVM's heap
 * with the figures and how to raise the heap; {@link #floats} refuses arrays beyond Java's array limit. The solver part
 * counts the same arrays as {@link Propagator#bytesHeld()} (Java backend), as the spec's equation declares them
 * ({@link sweep.equation.WaveEquation#fieldBytes} and the like).
 */
public final class MemoryEstimate {
    /** The largest array length the JVM grants (a few below {@code Integer.MAX_VALUE}). */
    public static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private static final double GIB = 1024.0 * 1024 * 1024;

    /** Parts by name, in bytes. */
    private final Map<String, Long> parts = new LinkedHashMap<>();
    /**
     * A gradient's storage of the equation that would need less than the chosen one, and by how many bytes (null and
     * 0 when none does): {@link #requireHeap} names it.
     */
    private Storage smaller;
    private long saving;

    private MemoryEstimate() {
    }

    /** An empty estimate, to {@link #add} parts to. */
    public static MemoryEstimate empty() {
        return new MemoryEstimate();
    }

    /** Adds {@code bytes} under {@code name} (summed with what that name already holds). */
    public MemoryEstimate add(String name, long bytes) {
        parts.merge(name, bytes, Long::sum);
        return this;
    }

    /** All parts, in bytes. */
    public long total() {
        long t = 0;
        for (long b : parts.values()) {
            t += b;
        }
        return t;
    }

    /** The bytes of one part (0 when absent). */
    public long part(String name) {
        return parts.getOrDefault(name, 0L);
    }

    /**
     * A forward run of {@code shots} shots with {@code nrec} receivers each: the solver of {@code grid} (null: not
     * counted, e.g. before the tile of a rank is known), the whole batch's record, one shot's record, the wavelet
     * ({@code waveletFloats} values) and the model and its copy in the solver (the grid's tile of it; null: all).
     */
    public static MemoryEstimate forward(PropSpec spec, Grid grid, int shots, int nrec, long waveletFloats) {
        MemoryEstimate m = batch(spec, grid, shots, nrec, waveletFloats);
        if (grid != null) {
            m.add("wavefields", fieldBytes(grid)).add("CPML", cpmlBytes(grid));
        }
        return m;
    }

    /**
     * A misfit-and-gradient run (shot by shot, one shot's tape at a time, as
     * {@link Propagator#forwardAndGradient}): as {@link #forward}, plus the observed data, the adjoint's fields, the
     * tape of the spec's {@link Storage} and the gradient.
     */
    public static MemoryEstimate gradient(PropSpec spec, Grid grid, int shots, int nrec, long waveletFloats) {
        MemoryEstimate m = forward(spec, grid, shots, nrec, waveletFloats);
        long cells = modelCells(spec, grid);
        long traces = (long) nrec * spec.nfield();
        m.add("observed data", 4L * observed(spec, shots, nrec));
        m.add("residual and gradient", 4L * 3 * (long) spec.nt() * traces
                + 4L * spec.equation().parameterCount() * cells);
        if (grid != null) {
            long kept = adjointBytes(grid, spec.storage()) + tapeBytes(grid, spec.storage(), spec.nt());
            m.add("adjoint fields", adjointBytes(grid, spec.storage()));
            m.add("tape (" + name(spec.storage()) + ")", tapeBytes(grid, spec.storage(), spec.nt()));
            for (Storage s : spec.equation().storages()) {
                long save = kept - adjointBytes(grid, s) - tapeBytes(grid, s, spec.nt());
                if (save > m.saving) {
                    m.smaller = s;
                    m.saving = save;
                }
            }
        }
        return m;
    }

    /** A storage's name in words: "boundary saving", "full", "checkpointing". */
    private static String name(Storage s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /**
     * An FWI: a {@link #gradient} run per evaluation, plus a low-passed copy of the observed data per band, the
     * L-BFGS history of {@code memory} pairs (double precision) and the optimiser's working models over the rank's
     * tile ({@code grid}; null: the whole model), with the tile's starting and true models. Under MPI, add what the
     * gathered outputs hold (none where they are written tile by tile).
     */
    public static MemoryEstimate fwi(PropSpec spec, Grid grid, int shots, int nrec, long waveletFloats, int memory) {
        MemoryEstimate m = gradient(spec, grid, shots, nrec, waveletFloats);
        int params = spec.equation().parameterCount();
        long tile = modelCells(spec, grid) * params; // values of the optimiser's vectors on this rank
        m.add("observed data", 4L * observed(spec, shots, nrec));
        m.add("L-BFGS history and models (the tile's)", 8L * 2 * memory * tile + 8L * 8 * tile);
        m.add("starting and true model (the tile's)", 4L * 2 * tile);
        return m;
    }

    /**
     * What an FWI holds of data on every rank whatever its tile: the record, the wavelet and the observed data of every
     * shot (checked before the mesh is known).
     */
    public static MemoryEstimate fwiData(PropSpec spec, int shots, int nrec, long waveletFloats) {
        return data(spec, shots, nrec, waveletFloats).add("observed data", 4L * observed(spec, shots, nrec));
    }

    private static MemoryEstimate batch(PropSpec spec, Grid grid, int shots, int nrec, long waveletFloats) {
        return data(spec, shots, nrec, waveletFloats).add("model", 4L * spec.equation().modelFloatsPerCell()
                * modelCells(spec, grid));
    }

    /** The record and the wavelet of a batch. */
    private static MemoryEstimate data(PropSpec spec, int shots, int nrec, long waveletFloats) {
        MemoryEstimate m = new MemoryEstimate();
        long record = spec.nfield() == 1 ? floats("record (B, nt, nrec)", shots, spec.nt(), nrec)
                : floats("record (B, nt, nrec, nfield)", shots, spec.nt(), nrec, spec.nfield());
        m.add("record", 4L * record + 4L * spec.nt() * nrec * spec.nfield());
        m.add("wavelet", 4L * floats("wavelet", waveletFloats));
        return m;
    }

    private static long observed(PropSpec spec, int shots, int nrec) {
        return spec.nfield() == 1 ? floats("observed data (B, nt, nrec)", shots, spec.nt(), nrec)
                : floats("observed data (B, nt, nrec, nfield)", shots, spec.nt(), nrec, spec.nfield());
    }

    /**
     * Floats of an array of the given dimensions; throws when they are more than a Java array holds, naming
     * {@code what} and the dimensions.
     */
    public static long floats(String what, long... dims) {
        long n = 1;
        for (long d : dims) {
            if (d < 0) {
                throw new IllegalArgumentException(what + ": dimension " + d + " in " + tuple(dims)
                        + " is negative");
            }
            n = n > (MAX_ARRAY + 1) / Math.max(d, 1) ? MAX_ARRAY + 1 : n * d; // saturates above the limit
        }
        if (n > MAX_ARRAY) {
            throw new IllegalArgumentException("the " + what + " = " + tuple(dims) + " holds "
                    + exactProduct(dims) + " values, more than a Java array holds (" + MAX_ARRAY + "): run fewer"
                    + " shots at a time, fewer time steps or fewer receivers");
        }
        return n;
    }

    private static String tuple(long[] dims) {
        String t = Arrays.toString(dims);
        return "(" + t.substring(1, t.length() - 1) + ")";
    }

    private static String exactProduct(long[] dims) {
        BigInteger p = BigInteger.ONE;
        for (long d : dims) {
            p = p.multiply(BigInteger.valueOf(d));
        }
        return p.toString();
    }

    /** Wavefield arrays of a grid's solver ({@link sweep.equation.WaveEquation#fieldBytes}). */
    public static long fieldBytes(Grid g) {
        return g.spec.equation().fieldBytes(g);
    }

    /** CPML arrays of a grid's solver ({@link sweep.equation.WaveEquation#cpmlBytes}). */
    public static long cpmlBytes(Grid g) {
        return g.spec.equation().cpmlBytes(g);
    }

    /** The adjoint run's own arrays, without the tape ({@link sweep.equation.WaveEquation#adjointBytes}). */
    public static long adjointBytes(Grid g, Storage storage) {
        return g.spec.equation().adjointBytes(g, storage);
    }

    /** One shot's tape for {@code nt} steps ({@link sweep.equation.WaveEquation#tapeBytes}). */
    public static long tapeBytes(Grid g, Storage storage, int nt) {
        return g.spec.equation().tapeBytes(g, storage, nt);
    }

    /**
     * What a solver of {@code g} holds after a forward-only run (no gradient) or after
     * {@link Propagator#forwardAndGradient} (gradient): the arrays {@link Propagator#bytesHeld()} counts.
     */
    public static long solverBytes(Grid g, Storage storage, int nt, boolean gradient) {
        long b = fieldBytes(g) + cpmlBytes(g);
        return gradient ? b + adjointBytes(g, storage) + tapeBytes(g, storage, nt) : b;
    }

    /** The threads of a grid's solver: the spec's, or every core for 0. */
    public static long threads(Grid g) {
        int t = g.spec.threads();
        return t == 0 ? Runtime.getRuntime().availableProcessors() : t;
    }

    /** Cells of a grid's computational box, PML included, halo excluded. */
    public static long computationalCells(Grid g) {
        return (long) g.nz * g.ny * g.nx;
    }

    /** Cells of the model a solver of {@code grid} is given: its tile (the whole model on one domain; null: whole). */
    private static long modelCells(PropSpec spec, Grid grid) {
        return cells(grid == null ? spec.shape() : grid.tileShape());
    }

    private static long cells(int[] shape) {
        long c = 1;
        for (int n : shape) {
            c *= n;
        }
        return c;
    }

    /**
     * Throws {@link IllegalStateException} when this estimate does not fit in the heap the JVM may still grow to: the
     * message gives the figure and its largest parts, the JVM's max heap, how to raise it
     * ({@code SWEEP_JAVA_OPTS=-Xmx...} with the {@code sweep} launcher) and, for a gradient whose equation has a
     * storage that needs less, that storage and its figure. {@code what} starts the message (e.g. "forward on rank
     * 1").
     */
    public void requireHeap(String what) {
        Runtime rt = Runtime.getRuntime();
        long max = rt.maxMemory();
        long used = rt.totalMemory() - rt.freeMemory();
        long need = total();
        if (need <= max - used) {
            return;
        }
        System.gc(); // what counts as used may be garbage: ask again once before refusing
        used = rt.totalMemory() - rt.freeMemory();
        if (need <= max - used) {
            return;
        }
        long suggest = (long) Math.ceil((need + used) * 1.15 / GIB) + 1;
        String machine = "";
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                && os.getTotalMemorySize() > 0 && suggest * GIB > os.getTotalMemorySize()) {
            machine = " (more than this machine's " + gib(os.getTotalMemorySize()) + " of memory: split the model"
                    + " across ranks with mpirun, or run fewer shots at a time or fewer steps)";
        }
        throw new IllegalStateException(what + " needs about " + gib(need) + " (" + largestParts(3) + ") but the"
                + " JVM's max heap is " + gib(max) + (need <= max || used > GIB / 8 ? " with " + gib(used)
                        + " already in"
                + " use (" + gib(Math.max(0, max - used)) + " free)" : "") + ": raise it, e.g. SWEEP_JAVA_OPTS=-Xmx"
                + suggest + "g ./sweep ..." + machine + (smaller == null ? "" : "; or use " + name(smaller)
                + " storage, which needs about " + gib(need - saving)));
    }

    /** The {@code k} largest parts, "name 1.23 GiB" each. */
    private String largestParts(int k) {
        return parts.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(k)
                .map(e -> e.getKey() + " " + gib(e.getValue())).reduce((a, b) -> a + ", " + b).orElse("");
    }

    /**
     * The bytes of a size as a user writes it: a whole number of bytes, or a number with a unit K, M, G or T (powers of
     * 1024; KiB, MB, g and the like are read alike), e.g. "512M", "1.5G"; throws IllegalArgumentException naming
     * {@code what} (e.g. "--checkpoint-memory") otherwise.
     */
    public static long parseBytes(String text, String what) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*([0-9]+(?:\\.[0-9]*)?)\\s*([kKmMgGtT]?)"
                + "(?:i?[bB])?\\s*").matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException(what + ": '" + text + "' is not a size: give bytes or a number with K, M,"
                    + " G or T, e.g. 512M or 2G");
        }
        int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        double bytes = Double.parseDouble(m.group(1)) * Math.pow(2, shift);
        if (!(bytes < 0x1p62)) {
            throw new IllegalArgumentException(what + ": " + text + " is too large");
        }
        return (long) bytes;
    }

    /** Bytes in GiB with two decimals (e.g. "7.08 GiB"), or below 1 GiB in MiB with one (e.g. "12.5 MiB"). */
    public static String gib(long bytes) {
        return bytes >= GIB ? String.format(Locale.ROOT, "%.2f GiB", bytes / GIB)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (GIB / 1024));
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(gib(total())).append(':');
        parts.forEach((k, v) -> s.append(' ').append(k).append(' ').append(gib(v)).append(';'));
        return s.toString();
    }
}
