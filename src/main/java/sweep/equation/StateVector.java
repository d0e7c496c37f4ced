package sweep.equation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The state of a solver's time step as one float vector, for {@link StepStages}: a list of parts, each a set of
 * entries of one of the solver's forward arrays and the same entries of the adjoint array that holds their adjoint
 * (possibly negated, when the adjoint keeps a variable with the opposite sign), with a typical magnitude.
 */
public final class StateVector {
    private record Part(String name, float[] forward, float[] adjoint, int[] entries, double scale, float sign) {
    }

    private final List<Part> parts;
    private final int length;

    private StateVector(List<Part> parts) {
        this.parts = List.copyOf(parts);
        int n = 0;
        for (Part p : parts) {
            n += p.entries.length;
        }
        this.length = n;
    }

    /** A builder of a state vector. */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects the parts of a {@link StateVector}, in the order they take in the vector. */
    public static final class Builder {
        private final List<Part> parts = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds the {@code entries} of {@code forward} (their adjoints at the same entries of {@code adjoint}), of
         * typical magnitude {@code scale}; {@code negatedAdjoint}: the adjoint array holds minus the adjoint.
         */
        public Builder part(String name, float[] forward, float[] adjoint, int[] entries, double scale,
                            boolean negatedAdjoint) {
            if (!(scale > 0) || Double.isInfinite(scale)) {
                throw new IllegalArgumentException("part " + name + ": scale " + scale + " is not positive and finite");
            }
            parts.add(new Part(name, forward, adjoint, entries.clone(), scale, negatedAdjoint ? -1f : 1f));
            return this;
        }

        public StateVector build() {
            return new StateVector(parts);
        }
    }

    /** The number of values of a state. */
    public int length() {
        return length;
    }

    /** The typical magnitude of every value of a state. */
    public double[] scales() {
        double[] s = new double[length];
        int k = 0;
        for (Part p : parts) {
            Arrays.fill(s, k, k + p.entries.length, p.scale);
            k += p.entries.length;
        }
        return s;
    }

    /** The number of parts. */
    public int parts() {
        return parts.size();
    }

    /** The name of part {@code p}. */
    public String partName(int p) {
        return parts.get(p).name;
    }

    /** The index in a state of the first value of part {@code p}; its values follow for {@link #partLength}. */
    public int partStart(int p) {
        int k = 0;
        for (int q = 0; q < p; q++) {
            k += parts.get(q).entries.length;
        }
        return k;
    }

    /** The number of values of part {@code p}. */
    public int partLength(int p) {
        return parts.get(p).entries.length;
    }

    /** The name of the part that holds value {@code i} of a state. */
    public String partOf(int i) {
        int k = 0;
        for (Part p : parts) {
            k += p.entries.length;
            if (i < k) {
                return p.name;
            }
        }
        throw new IndexOutOfBoundsException(i);
    }

    /**
     * Zeroes the arrays of every part (forward ones, or adjoint ones), then writes the state {@code x} into their
     * entries: values outside the state are zero while a stage runs.
     */
    void load(float[] x, boolean adjoint) {
        check(x);
        for (Part p : parts) {
            Arrays.fill(adjoint ? p.adjoint : p.forward, 0f);
        }
        int k = 0;
        for (Part p : parts) {
            float[] a = adjoint ? p.adjoint : p.forward;
            float s = adjoint ? p.sign : 1f;
            for (int e : p.entries) {
                a[e] = s * x[k++];
            }
        }
    }

    /** Reads the state back from the entries of the arrays into {@code x}. */
    void store(float[] x, boolean adjoint) {
        check(x);
        int k = 0;
        for (Part p : parts) {
            float[] a = adjoint ? p.adjoint : p.forward;
            float s = adjoint ? p.sign : 1f;
            for (int e : p.entries) {
                x[k++] = s * a[e];
            }
        }
    }

    private void check(float[] x) {
        if (x.length != length) {
            throw new IllegalArgumentException("a state has " + length + " values, not " + x.length);
        }
    }
}
