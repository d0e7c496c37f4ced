package sweep.backend;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The CPU fallback: runs the portable {@code @Parallel} kernels (or their CPU-specialised variants) as plain Java,
 * splitting the outermost parallel range (depth rows or planes) into contiguous chunks over a persistent pool of
 * worker threads that meet at a barrier after every parallel loop; no task or future is allocated per loop. Kernels
 * write disjoint cells and a cell's arithmetic never depends on the split, so results are bit-identical for every
 * thread count.
 */
public final class JavaBackend implements AutoCloseable {
    /** Body of a parallel loop over the half-open range [lo, hi). */
    @FunctionalInterface
    public interface RangeBody {
        void run(int lo, int hi);
    }

    /** Body of a parallel loop that also receives its chunk number (0 ≤ chunk &lt; {@link #threads()}). */
    @FunctionalInterface
    public interface ChunkBody {
        void run(int chunk, int lo, int hi);
    }

    /** Spin iterations before a waiting thread parks (short: the machine may be shared). */
    private static final int SPIN = 2000;

    private final int threads;
    private final Thread[] workers;
    private final Thread[] owner = new Thread[1];
    /** Incremented to publish a new loop to the workers. */
    private volatile int generation;
    private volatile boolean closed;
    private final AtomicInteger pending = new AtomicInteger();
    // The current loop, published by the volatile write of generation.
    private ChunkBody body;
    private int lo;
    private int n;
    private int parts;
    private volatile Throwable failure;

    /** A backend with {@code threads} threads; 0 means all available processors. */
    public JavaBackend(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be >= 0 (0 = all cores), got " + threads);
        }
        this.threads = threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
        this.workers = new Thread[this.threads - 1];
        for (int w = 0; w < workers.length; w++) {
            final int chunk = w + 1;
            Thread t = new Thread(() -> workerLoop(chunk), "sweep-worker-" + chunk);
            t.setDaemon(true);
            workers[w] = t;
            t.start();
        }
    }

    /** Number of threads this backend uses. */
    public int threads() {
        return threads;
    }

    /** Runs {@code body} over [lo, hi) split into at most {@link #threads()} contiguous chunks, and waits. */
    public void parallelFor(int lo, int hi, RangeBody body) {
        parallelFor(lo, hi, (c, a, b) -> body.run(a, b));
    }

    /**
     * Runs {@code body} over [lo, hi) split into at most {@link #threads()} contiguous chunks, chunk c on a thread of
     * its own (the caller runs chunk 0), and waits for all of them; the first exception thrown by a chunk is rethrown.
     */
    public synchronized void parallelFor(int lo, int hi, ChunkBody body) {
        int count = hi - lo;
        if (count <= 0) {
            return;
        }
        int p = Math.min(threads, count);
        if (p == 1) {
            body.run(0, lo, hi);
            return;
        }
        if (closed) {
            throw new IllegalStateException("backend is closed");
        }
        this.body = body;
        this.lo = lo;
        this.n = count;
        this.parts = p;
        this.failure = null;
        owner[0] = Thread.currentThread();
        pending.set(workers.length);
        generation = generation + 1;
        for (Thread t : workers) {
            LockSupport.unpark(t);
        }
        Throwable mine = null;
        try {
            body.run(0, lo, lo + chunkStart(count, p, 1));
        } catch (Throwable e) {
            mine = e;
        }
        int spins = 0;
        while (pending.get() != 0) {
            if (spins < SPIN) {
                spins++;
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
            }
        }
        this.body = null;
        Throwable f = mine != null ? mine : failure;
        if (f != null) {
            if (f instanceof RuntimeException re) {
                throw re;
            }
            if (f instanceof Error er) {
                throw er;
            }
            throw new IllegalStateException(f);
        }
    }

    private static int chunkStart(int count, int parts, int p) {
        return (int) ((long) count * p / parts);
    }

    private void workerLoop(int chunk) {
        int seen = 0;
        while (true) {
            int spins = 0;
            int g;
            while ((g = generation) == seen && !closed) {
                if (spins < SPIN) {
                    spins++;
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
            }
            if (closed) {
                return;
            }
            seen = g;
            try {
                if (chunk < parts) {
                    body.run(chunk, lo + chunkStart(n, parts, chunk), lo + chunkStart(n, parts, chunk + 1));
                }
            } catch (Throwable e) {
                if (failure == null) {
                    failure = e;
                }
            }
            if (pending.decrementAndGet() == 0) {
                LockSupport.unpark(owner[0]);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread t : workers) {
            LockSupport.unpark(t);
        }
    }
}
