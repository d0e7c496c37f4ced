package sweep.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import sweep.io.Json;

/**
 * The times of an FWI run over every process that worked on it ({@code progress.json} in the output folder, written
 * by the reporting rank after each stage and iteration): each process's wall time, each band's time summed over the
 * processes, and which data the observed record was modelled from, so that {@code --resume} reuses it.
 */
final class FwiRunLog {
    /** The file's name in the output folder. */
    static final String FILE = "progress.json";

    private final Path file;
    private final boolean write;
    private final Instant started = Instant.now();
    private final long startNanos;
    /** The earlier processes' entries, as read. */
    private final List<Map<String, Object>> earlier = new ArrayList<>();
    /** Each band's seconds in the earlier processes. */
    private final List<Double> earlierBands = new ArrayList<>();
    /** Each band's seconds in this process so far. */
    private final List<Double> bands = new ArrayList<>();
    private String observedSource;
    private String observedData;
    private double observedSeconds = Double.NaN;
    private String resumedAt;

    /**
     * The log of a run started at {@code startNanos} ({@link System#nanoTime}); with {@code resume}, the earlier
     * processes' entries are read from the folder (an unreadable file is reported and the count starts afresh).
     * {@code write}: whether this process writes the file (the reporting rank).
     */
    FwiRunLog(Path dir, boolean resume, boolean write, long startNanos) {
        this.file = dir.resolve(FILE);
        this.write = write;
        this.startNanos = startNanos;
        if (resume && Files.exists(file)) {
            try {
                Map<String, Object> m = Json.read(file);
                for (Object p : (List<?>) m.getOrDefault("processes", List.of())) {
                    earlier.add(stringKeys((Map<?, ?>) p));
                }
                for (Object s : (List<?>) m.getOrDefault("band_seconds", List.of())) {
                    earlierBands.add(((Number) s).doubleValue());
                }
                if (m.get("observed") instanceof Map<?, ?> o) {
                    observedSource = (String) o.get("source");
                    observedData = (String) o.get("data");
                }
            } catch (RuntimeException e) {
                earlier.clear();
                earlierBands.clear();
                if (write) {
                    System.err.println("sweep fwi: warning: --resume: " + file + " cannot be read (" + e.getMessage()
                            + "); the times of the earlier processes are not counted and the observed data are"
                            + " modelled again");
                }
            }
        }
    }

    private static Map<String, Object> stringKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    /** Whether the observed record in the folder was modelled from {@code source} and still holds {@code data}. */
    boolean observedFrom(long source, long data) {
        return hex(source).equals(observedSource) && hex(data).equals(observedData);
    }

    /** The observed record was modelled from {@code source} (or reused, {@code seconds} NaN) and holds {@code data}. */
    void observed(long source, long data, double seconds) {
        observedSource = hex(source);
        observedData = hex(data);
        observedSeconds = seconds;
        save();
    }

    /** This process resumes where {@code where} says (e.g. "band 2/3 after iteration 4"). */
    void resumedAt(String where) {
        resumedAt = where;
    }

    /** Band {@code band} (0-based) has taken {@code seconds} in this process so far. */
    void band(int band, double seconds) {
        while (bands.size() <= band) {
            bands.add(0.0);
        }
        bands.set(band, seconds);
        save();
    }

    /** Band {@code band}'s seconds over every process, this one's so far included. */
    double bandSeconds(int band) {
        return (band < earlierBands.size() ? earlierBands.get(band) : 0)
                + (band < bands.size() ? bands.get(band) : 0);
    }

    /** This process's seconds so far. */
    double processSeconds() {
        return (System.nanoTime() - startNanos) * 1e-9;
    }

    /** The seconds of every process of the run, this one's so far included. */
    double totalSeconds() {
        return earlier.stream().mapToDouble(p -> ((Number) p.get("seconds")).doubleValue()).sum() + processSeconds();
    }

    /** Each process's entry, the earlier ones first and this one's (so far) last. */
    List<Map<String, Object>> processes() {
        List<Map<String, Object>> all = new ArrayList<>(earlier);
        Map<String, Object> me = new LinkedHashMap<>();
        me.put("started", started.toString());
        me.put("seconds", processSeconds());
        if (!Double.isNaN(observedSeconds)) {
            me.put("seconds_observed", observedSeconds);
        }
        if (resumedAt != null) {
            me.put("resumed_at", resumedAt);
        }
        all.add(me);
        return all;
    }

    /** Writes the file now (on the reporting rank). */
    void save() {
        if (!write) {
            return;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("note", "times of this FWI run over every process that worked on it (a --resume adds one); band"
                + " seconds summed over the processes, up to each one's last finished iteration");
        m.put("seconds_total", totalSeconds());
        List<Double> b = new ArrayList<>();
        for (int k = 0; k < Math.max(bands.size(), earlierBands.size()); k++) {
            b.add(bandSeconds(k));
        }
        m.put("band_seconds", b);
        m.put("processes", processes());
        if (observedSource != null) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("source", observedSource);
            o.put("data", observedData);
            m.put("observed", o);
        }
        Json.write(file, m);
    }

    private static String hex(long v) {
        return Long.toHexString(v);
    }
}
