package sweep.parallel;

import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * Pads models up to a mesh's uniform tile multiple and strips the pad again. The pad goes on the HIGH side of the
 * trailing split axes only (x to a multiple of px, y to a multiple of py) and replicates the edge cell, so every
 * integer coordinate (iz, iy, ix) still addresses the same physical cell and sources/receivers need no remapping.
 *
 * <p>Arrays are flat row-major with x fastest; shapes are {@code (nz, nx)}, {@code (nz, ny, nx)} or either with
 * leading batch/parameter axes, which pass through. The last axis is padded to a multiple of px and the
 * second-to-last to a multiple of py; with {@code py > 1} the array must therefore be 3-D
 * {@code (..., nz, ny, nx)}, and a bare 2-D {@code (nz, nx)} shape with {@code py > 1} is refused. The depth axis
 * is never padded. Anything defined per cell (masks, seabed depths) must be padded the same way: boolean arrays
 * are supported for that.
 */
public final class Padding {

    private Padding() {
    }

    /**
     * The shape {@link #padToMesh} produces for an array of {@code shape}. It may hold more cells than one Java array
     * (a model read tile by tile, see {@link TileFiles}); padding a whole array of that shape is refused.
     */
    public static int[] paddedShape(int[] shape, MeshTopology mesh) {
        if (shape == null || shape.length < 2) {
            throw new IllegalArgumentException("shape must have at least 2 axes ((nz, nx), (nz, ny, nx), with optional"
                    + " leading batch axes), got " + Arrays.toString(shape));
        }
        for (int d : shape) {
            if (d < 1) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has an extent " + d
                        + " < 1: every axis must hold at least one cell");
            }
        }
        if (shape.length == 2 && mesh.py() != 1) {
            throw new IllegalArgumentException("a 2-D (nz, nx) shape " + Arrays.toString(shape)
                    + " needs py=1, got py=" + mesh.py() + ": split 2-D models along x only");
        }
        int n = shape.length;
        int[] out = shape.clone();
        out[n - 1] = roundUp(shape[n - 1], mesh.px());
        out[n - 2] = roundUp(shape[n - 2], mesh.py());
        return out;
    }

    /** Pads {@code model} (edge replicate, high side); returns {@code model} itself when no pad is needed. */
    public static Shaped<float[]> padToMesh(float[] model, int[] shape, MeshTopology mesh) {
        return pad(new Shaped<>(model, shape), mesh);
    }

    /** Pads a boolean mask by the same rule as {@link #padToMesh(float[], int[], MeshTopology)}. */
    public static Shaped<boolean[]> padToMesh(boolean[] mask, int[] shape, MeshTopology mesh) {
        return pad(new Shaped<>(mask, shape), mesh);
    }

    /**
     * The adjoint of {@link #padToMesh}: each pad cell's gradient is summed onto the edge cell it copies, so the
     * last physical column collects {@code 1+dx} values, the last row {@code 1+dy}, and the corner
     * {@code (1+dy)(1+dx)}. Sums are accumulated in double. Returns the input itself when no pad was applied.
     *
     * @param gradPadded gradient with respect to the padded array
     * @param origShape  trailing physical grid shape, {@code (nz, nx)} or {@code (nz, ny, nx)}
     */
    public static Shaped<float[]> padToMeshAdjoint(Shaped<float[]> gradPadded, int[] origShape, MeshTopology mesh) {
        int[] out = unpaddedShape(gradPadded.shape(), origShape, mesh);
        if (Arrays.equals(out, gradPadded.shape())) {
            return gradPadded;
        }
        int n = out.length;
        float[] dst = foldPad(gradPadded.data(), gradPadded.dim(-2), gradPadded.dim(-1), out[n - 2], out[n - 1]);
        return new Shaped<>(dst, out);
    }

    /**
     * The adjoint of an edge-replicating pad on the high side of the last two axes, from (…, nyP, nxP) to (…, ny, nx):
     * each pad cell's value summed onto the edge cell it copies, in double, (yp, xp) in ascending order; the leading
     * axes pass through. {@link #padToMeshAdjoint}'s arithmetic, for any array padded that way (e.g. one tile).
     */
    public static float[] foldPad(float[] g, int nyP, int nxP, int ny, int nx) {
        int outer = g.length / (nyP * nxP);
        float[] dst = new float[Math.multiplyExact(outer, ny * nx)];
        for (int o = 0; o < outer; o++) {
            for (int y = 0; y < ny; y++) {
                int yEnd = y == ny - 1 ? nyP : y + 1;
                for (int x = 0; x < nx; x++) {
                    int xEnd = x == nx - 1 ? nxP : x + 1;
                    double sum = 0;
                    for (int yp = y; yp < yEnd; yp++) {
                        for (int xp = x; xp < xEnd; xp++) {
                            sum += g[(o * nyP + yp) * nxP + xp];
                        }
                    }
                    dst[(o * ny + y) * nx + x] = (float) sum;
                }
            }
        }
        return dst;
    }

    /**
     * Slices a padded array back to the physical grid. The trailing shape of {@code arr} must be exactly what
     * {@link #padToMesh} produces for {@code origShape} on this mesh; anything else (a stale shape, the wrong
     * mesh) is refused rather than silently mis-cropped. Returns {@code arr} itself when there is nothing to strip.
     * Works for float models and boolean masks alike. A plain slice: gradient that pad cells accumulated is dropped,
     * not folded back (that is {@link #padToMeshAdjoint}'s job).
     *
     * @param origShape trailing physical grid shape, {@code (nz, nx)} or {@code (nz, ny, nx)}
     */
    public static <A> Shaped<A> unpadFromMesh(Shaped<A> arr, int[] origShape, MeshTopology mesh) {
        int[] out = unpaddedShape(arr.shape(), origShape, mesh);
        if (Arrays.equals(out, arr.shape())) {
            return arr;
        }
        A dst = newArrayLike(arr.data(), out);
        int n = out.length;
        int nxP = arr.dim(-1), nyP = arr.dim(-2), nx = out[n - 1], ny = out[n - 2];
        long outer = Shaped.size(Arrays.copyOf(out, n - 2), "batch shape");
        for (int o = 0; o < outer; o++) {
            for (int y = 0; y < ny; y++) {
                System.arraycopy(arr.data(), (o * nyP + y) * nxP, dst, (o * ny + y) * nx, nx);
            }
        }
        return new Shaped<>(dst, out);
    }

    /** Full unpadded shape (batch axes + origShape), after checking arrShape is exactly origShape padded. */
    private static int[] unpaddedShape(int[] arrShape, int[] origShape, MeshTopology mesh) {
        if (origShape == null || (origShape.length != 2 && origShape.length != 3)) {
            throw new IllegalArgumentException("origShape must be the physical grid (nz, nx) or (nz, ny, nx), got "
                    + Arrays.toString(origShape));
        }
        int[] expected = paddedShape(origShape, mesh);
        int lead = arrShape.length - origShape.length;
        if (lead < 0 || !Arrays.equals(Arrays.copyOfRange(arrShape, lead, arrShape.length), expected)) {
            throw new IllegalArgumentException("array shape " + Arrays.toString(arrShape) + " does not end in "
                    + Arrays.toString(expected) + ", which is what padToMesh makes of origShape "
                    + Arrays.toString(origShape) + " on (py, px)=(" + mesh.py() + ", " + mesh.px()
                    + "): pass the original shape and the mesh the array was padded with");
        }
        int[] out = arrShape.clone();
        System.arraycopy(origShape, 0, out, lead, origShape.length);
        return out;
    }

    /** Edge-replicate pad of the last two axes: copy each row, repeat its last cell, then repeat the last row. */
    private static <A> Shaped<A> pad(Shaped<A> in, MeshTopology mesh) {
        int[] shape = in.shape();
        int[] out = paddedShape(shape, mesh);
        if (Arrays.equals(out, shape)) {
            return in;
        }
        A src = in.data();
        A dst = newArrayLike(src, out);
        int n = shape.length;
        int nx = shape[n - 1], ny = shape[n - 2], nxP = out[n - 1], nyP = out[n - 2];
        long outer = Shaped.size(Arrays.copyOf(shape, n - 2), "batch shape");
        for (int o = 0; o < outer; o++) {
            for (int y = 0; y < nyP; y++) {
                int row = (o * nyP + y) * nxP;
                if (y < ny) {
                    int srcRow = (o * ny + y) * nx;
                    System.arraycopy(src, srcRow, dst, row, nx);
                    for (int x = nx; x < nxP; x++) {
                        System.arraycopy(src, srcRow + nx - 1, dst, row + x, 1);
                    }
                } else {
                    System.arraycopy(dst, row - nxP, dst, row, nxP);   // the previous row is already padded
                }
            }
        }
        return new Shaped<>(dst, out);
    }

    /** A zeroed array of the same primitive type as {@code like}, sized for {@code shape}. */
    @SuppressWarnings("unchecked")
    private static <A> A newArrayLike(A like, int[] shape) {
        int size = Math.toIntExact(Shaped.size(shape, "shape"));
        return (A) Array.newInstance(like.getClass().getComponentType(), size);
    }

    private static int roundUp(int n, int multiple) {
        return Math.toIntExact(((long) n + multiple - 1) / multiple * multiple);
    }
}
