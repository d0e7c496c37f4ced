package sweep.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import mpi.MPI;
import mpi.MPIException;
import sweep.parallel.Mpi;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.Storage;

/**
 * What each rank of a run held: its solver's bytes by part (fields, CPML, adjoint, tape: {@link MemoryEstimate}'s
 * figures for the rank's grid), the bytes its solver's arrays really came to ({@code Propagator.bytesHeld()}, when
 * known) and the peak Java heap used. Gathered on world rank 0 for {@code --verbose} and FWI's summary.json.
 */
final class MemoryReport {
    /** One rank's figures; {@code held} is -1 when not measured. */
    record Rank(int rank, int[] tileShape, int[] tileOffset, long fields, long cpml, long adjoint, long tape, long held,
                long peakHeap, long maxHeap) {
        /** Fields + CPML + adjoint + tape. */
        long solver() {
            return fields + cpml + adjoint + tape;
        }
    }

    private static final int LONGS = 14;

    private MemoryReport() {
    }

    /**
     * This process's figures for a solver of {@code grid}: forward-only ({@code gradient} false) or after gradients
     * with {@code storage} over {@code nt} steps; {@code held} the solver's real bytes (-1: unknown).
     */
    static Rank local(int rank, Grid grid, Storage storage, int nt, boolean gradient, long held) {
        long adjoint = gradient ? MemoryEstimate.adjointBytes(grid, storage) : 0;
        long tape = gradient ? MemoryEstimate.tapeBytes(grid, storage, nt) : 0;
        return new Rank(rank, grid.tileShape(), grid.tileOffset(), MemoryEstimate.fieldBytes(grid),
                MemoryEstimate.cpmlBytes(grid), adjoint, tape, held, peakHeapUsed(),
                Runtime.getRuntime().maxMemory());
    }

    /** The largest heap use seen just before a garbage collection since {@link #watchHeap()}. */
    private static final AtomicLong PEAK_BEFORE_GC = new AtomicLong();
    private static boolean watching;

    /**
     * Starts following the heap: after each garbage collection, the heap used just before it (the heap only grows
     * between collections, so its peaks are there). Call once at start-up; later calls do nothing.
     */
    static synchronized void watchHeap() {
        if (watching) {
            return;
        }
        watching = true;
        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((n, handback) -> {
                    if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                        return;
                    }
                    GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
                    long before = 0;
                    for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageBeforeGc().entrySet()) {
                        if (heapPools.contains(e.getKey())) {
                            before += e.getValue().getUsed();
                        }
                    }
                    PEAK_BEFORE_GC.accumulateAndGet(before, Math::max);
                }, null, null);
            }
        }
    }

    /**
     * The peak Java heap used: the largest heap use just before a garbage collection since {@link #watchHeap()}, or
     * the heap used now if that is more (garbage not yet collected included: what the JVM needed at that moment).
     */
    static long peakHeapUsed() {
        long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return Math.max(now, PEAK_BEFORE_GC.get());
    }

    /**
     * Every rank's figures on world rank 0, in rank order (null on the other ranks); collective over
     * {@code MPI.COMM_WORLD} when MPI is initialised, else just {@code mine}.
     */
    static List<Rank> gather(Rank mine) {
        if (!Mpi.isInitialized()) {
            return List.of(mine);
        }
        try {
            int size = MPI.COMM_WORLD.getSize();
            long[] send = encode(mine);
            long[] all = new long[LONGS * size];
            MPI.COMM_WORLD.gather(send, LONGS, MPI.LONG, all, LONGS, MPI.LONG, 0);
            if (MPI.COMM_WORLD.getRank() != 0) {
                return null;
            }
            List<Rank> out = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                out.add(decode(Arrays.copyOfRange(all, r * LONGS, (r + 1) * LONGS)));
            }
            return out;
        } catch (MPIException e) {
            throw new IllegalStateException("memory report gather failed: " + e.getMessage(), e);
        }
    }

    private static long[] encode(Rank r) {
        int nd = r.tileShape().length;
        return new long[] {r.rank(), nd, r.tileShape()[0], nd == 3 ? r.tileShape()[1] : 1, r.tileShape()[nd - 1],
            nd == 3 ? r.tileOffset()[1] : 0, r.tileOffset()[nd - 1], r.fields(), r.cpml(), r.adjoint(), r.tape(),
            r.held(), r.peakHeap(), r.maxHeap()};
    }

    private static Rank decode(long[] v) {
        int nd = (int) v[1];
        int[] shape = nd == 3 ? new int[] {(int) v[2], (int) v[3], (int) v[4]} : new int[] {(int) v[2], (int) v[4]};
        int[] off = nd == 3 ? new int[] {0, (int) v[5], (int) v[6]} : new int[] {0, (int) v[6]};
        return new Rank((int) v[0], shape, off, v[7], v[8], v[9], v[10], v[11], v[12], v[13]);
    }

    /** One line per rank: "rank 0 tile [..] at [..]: solver N B = 12.3 MiB (fields .., CPML .., ...), held ...". */
    static void print(List<Rank> ranks, PrintStream out) {
        out.println("sweep: memory per rank (solver = fields + CPML + adjoint + tape, estimated for the rank's grid;"
                + " held = the solver's arrays; peak heap = the most Java heap in use at any moment):");
        for (Rank r : ranks) {
            out.printf("  rank %d tile %s at %s: solver %d B = %s (fields %s, CPML %s, adjoint %s, tape %s), held %s,"
                            + " peak heap %d B = %s of max %s%n", r.rank(), Arrays.toString(r.tileShape()),
                    Arrays.toString(r.tileOffset()), r.solver(), MemoryEstimate.gib(r.solver()),
                    MemoryEstimate.gib(r.fields()), MemoryEstimate.gib(r.cpml()), MemoryEstimate.gib(r.adjoint()),
                    MemoryEstimate.gib(r.tape()), r.held() < 0 ? "not measured" : r.held() + " B",
                    r.peakHeap(), MemoryEstimate.gib(r.peakHeap()), MemoryEstimate.gib(r.maxHeap()));
        }
        out.flush();
    }

    /** The figures for summary.json: one object per rank, bytes as integers. */
    static List<Map<String, Object>> json(List<Rank> ranks) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Rank r : ranks) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rank", r.rank());
            m.put("tile_shape", r.tileShape());
            m.put("tile_offset", r.tileOffset());
            m.put("solver_bytes", r.solver());
            m.put("fields_bytes", r.fields());
            m.put("cpml_bytes", r.cpml());
            m.put("adjoint_bytes", r.adjoint());
            m.put("tape_bytes", r.tape());
            if (r.held() >= 0) {
                m.put("solver_bytes_held", r.held());
            }
            m.put("peak_heap_bytes", r.peakHeap());
            m.put("max_heap_bytes", r.maxHeap());
            out.add(m);
        }
        return out;
    }
}
