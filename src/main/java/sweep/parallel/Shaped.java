package sweep.parallel;

import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * A flat row-major array (last axis fastest, so x fastest for SWEEP layouts) together with its shape: the
 * value type the mesh helpers take and return. The data array is shared, not copied.
 *
 * @param data  a primitive array ({@code float[]} or {@code boolean[]}) holding {@code product(shape)} elements
 * @param shape the extents, outermost first, e.g. {@code (nz, ny, nx)} or {@code (B, nt, nrec, nfield)}
 * @param <A>   the array type
 */
public record Shaped<A>(A data, int[] shape) {

    /** Checks that {@code data} is an array whose length matches {@code shape}; keeps a private copy of the shape. */
    public Shaped {
        if (data == null || !data.getClass().isArray()) {
            throw new IllegalArgumentException("data must be a primitive array, got "
                    + (data == null ? "null" : data.getClass().getName()) + ": pass a float[] or boolean[]");
        }
        shape = shape.clone();
        long n = size(shape, "shape");
        if (Array.getLength(data) != n) {
            throw new IllegalArgumentException("data has " + Array.getLength(data) + " elements but shape "
                    + Arrays.toString(shape) + " needs " + n + ": pass the shape the array was built with");
        }
    }

    /** A copy of the shape. */
    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** Number of axes. */
    public int ndim() {
        return shape.length;
    }

    /** Extent of one axis; negative indices count from the end ({@code -1} is the last axis). */
    public int dim(int axis) {
        return shape[axis < 0 ? shape.length + axis : axis];
    }

    @Override
    public String toString() {
        return "Shaped" + Arrays.toString(shape) + "<" + data.getClass().getComponentType() + ">";
    }

    /** Product of the extents, checking each is non-negative and that the total fits a Java array. */
    static long size(int[] shape, String what) {
        long n = 1;
        for (int d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException(what + " " + Arrays.toString(shape)
                        + " has a negative extent " + d + ": extents must be >= 0");
            }
            n *= d;
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(what + " " + Arrays.toString(shape)
                        + " holds more elements than a Java array can: split the problem over more ranks");
            }
        }
        return n;
    }
}
