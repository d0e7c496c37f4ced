package sweep.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The CPU fallback: runs the portable {@code @Parallel} kernels as plain Java, splitting the outermost parallel
 * range (depth rows or planes) into contiguous chunks over a fixed pool of threads. Kernels write disjoint cells
 * and a cell's arithmetic never depends on the split, so results are bit-identical for every thread count.
 */
public final class JavaBackend implements AutoCloseable {
    /** Body of a parallel loop over the half-open range [lo, hi). */
    @FunctionalInterface
    public interface RangeBody {
        void run(int lo, int hi);
    }

    private final int threads;
    private final ExecutorService pool;

    /** A backend with {@code threads} threads; 0 means all available processors. */
    public JavaBackend(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be >= 0 (0 = all cores), got " + threads);
        }
        this.threads = threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
        this.pool = this.threads == 1 ? null : Executors.newFixedThreadPool(this.threads - 1, r -> {
            Thread t = new Thread(r, "sweep-worker");
            t.setDaemon(true);
            return t;
        });
    }

    /** Number of threads this backend uses. */
    public int threads() {
        return threads;
    }

    /** Runs {@code body} over [lo, hi) split into at most {@link #threads()} contiguous chunks, and waits. */
    public void parallelFor(int lo, int hi, RangeBody body) {
        int n = hi - lo;
        if (n <= 0) {
            return;
        }
        int parts = Math.min(threads, n);
        if (parts == 1) {
            body.run(lo, hi);
            return;
        }
        List<Future<?>> futures = new ArrayList<>(parts - 1);
        for (int p = 1; p < parts; p++) {
            int a = lo + (int) ((long) n * p / parts);
            int b = lo + (int) ((long) n * (p + 1) / parts);
            futures.add(pool.submit(() -> body.run(a, b)));
        }
        body.run(lo, lo + n / parts);
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for worker threads", e);
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof RuntimeException re) {
                    throw re;
                }
                if (c instanceof Error er) {
                    throw er;
                }
                throw new IllegalStateException(c);
            }
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
