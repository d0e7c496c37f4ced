package sweep.fwi;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * Limited-memory BFGS direction (the two-loop recursion) over double vectors, with its history exposed so an FWI run can
 * checkpoint and resume it exactly. Written here rather than taken from a library because the optimiser state must be
 * saved and restored bit for bit and every MPI rank must take the same decisions from the same numbers.
 */
public final class Lbfgs {
    /** One correction pair: s = x_{k+1} − x_k, y = g_{k+1} − g_k, and 1/(yᵀs). */
    public record Pair(double[] s, double[] y, double rho) {
    }

    /**
     * The inner product of the optimiser's vectors: Σ a·b, each term weighted by {@code weights[k]} on the k-th of
     * {@code weights.length} equal blocks when not null. An implementation may hold only part of each vector (one
     * MPI rank's tile, see {@link ModelTile}) and must give every rank the same value.
     */
    @FunctionalInterface
    public interface InnerProduct {
        double dot(double[] a, double[] b, double[] weights);

        /** The terms added one after the other in index order. */
        InnerProduct SEQUENTIAL = (a, b, weights) -> {
            int block = weights == null ? a.length : a.length / weights.length;
            double s = 0;
            for (int i = 0; i < a.length; i++) {
                s += weights == null ? a[i] * b[i] : weights[i / block] * (a[i] * b[i]);
            }
            return s;
        };
    }

    private final int memory;
    private final InnerProduct inner;
    private final Deque<Pair> pairs = new ArrayDeque<>();

    /** An empty history keeping at most {@code memory} pairs, with the sequential inner product. */
    public Lbfgs(int memory) {
        this(memory, InnerProduct.SEQUENTIAL);
    }

    /** An empty history keeping at most {@code memory} pairs, with {@code inner} as the inner product. */
    public Lbfgs(int memory, InnerProduct inner) {
        if (memory < 1) {
            throw new IllegalArgumentException("L-BFGS memory must be >= 1, got " + memory);
        }
        this.memory = memory;
        this.inner = inner;
    }

    public int memory() {
        return memory;
    }

    /** Number of stored pairs. */
    public int size() {
        return pairs.size();
    }

    /** The stored pairs, oldest first. */
    public Iterable<Pair> pairs() {
        return pairs;
    }

    /** Forgets every pair (e.g. after a failed line search). */
    public void reset() {
        pairs.clear();
    }

    /**
     * Adds the pair (s, y) when the curvature condition yᵀs > 1e-12·|s||y| holds; returns whether it was kept. The oldest
     * pair is dropped beyond the memory.
     */
    public boolean update(double[] s, double[] y) {
        double sy = dot(s, y);
        if (!(sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y)))) {
            return false;
        }
        pairs.addLast(new Pair(s.clone(), y.clone(), 1.0 / sy));
        while (pairs.size() > memory) {
            pairs.removeFirst();
        }
        return true;
    }

    /** Restores a pair saved from {@link #pairs()} (for resuming). */
    public void restore(Pair p) {
        pairs.addLast(p);
        while (pairs.size() > memory) {
            pairs.removeFirst();
        }
    }

    /**
     * The search direction −H·g, H the L-BFGS inverse-Hessian estimate with initial scaling sᵀy/yᵀy of the newest pair;
     * null when the history is empty (the caller then takes a scaled steepest-descent step).
     */
    public double[] direction(double[] g) {
        return direction(g, new double[] {1.0}, g.length);
    }

    /**
     * As {@link #direction(double[])} with the initial inverse Hessian γ·D instead of γ·I: D is diagonal, constant
     * over each block of {@code block} values ({@code scale[k]} on block k, e.g. one block per model parameter), and
     * γ = sᵀy / yᵀDy of the newest pair. This is L-BFGS in the variables D^(−1/2)·x: parameters of different units
     * and sensitivities keep the balance D gave the steepest-descent step that began the history. With D = I (one
     * block of scale 1) the arithmetic is exactly that of the plain recursion.
     */
    public double[] direction(double[] g, double[] scale, int block) {
        if (pairs.isEmpty()) {
            return null;
        }
        if ((long) scale.length * block != g.length) {
            throw new IllegalArgumentException(scale.length + " blocks of " + block + " values do not make the "
                    + g.length + " of the gradient");
        }
        int k = pairs.size();
        double[] q = g.clone();
        double[] alpha = new double[k];
        Iterator<Pair> back = pairs.descendingIterator();
        for (int i = k - 1; i >= 0; i--) {
            Pair p = back.next();
            alpha[i] = p.rho() * dot(p.s(), q);
            axpy(-alpha[i], p.y(), q);
        }
        Pair newest = pairs.peekLast();
        double yDy = inner.dot(newest.y(), newest.y(), scale);
        double gamma = dot(newest.s(), newest.y()) / yDy;
        for (int i = 0; i < q.length; i++) {
            q[i] *= gamma * scale[i / block];
        }
        int i = 0;
        for (Pair p : pairs) {
            double beta = p.rho() * dot(p.y(), q);
            axpy(alpha[i] - beta, p.s(), q);
            i++;
        }
        for (int j = 0; j < q.length; j++) {
            q[j] = -q[j];
        }
        return q;
    }

    /** The inner product of {@code a} and {@code b} (unweighted). */
    double dot(double[] a, double[] b) {
        return inner.dot(a, b, null);
    }

    private static void axpy(double a, double[] x, double[] y) {
        for (int i = 0; i < y.length; i++) {
            y[i] += a * x[i];
        }
    }
}
