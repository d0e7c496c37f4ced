package sweep.io;

import java.nio.file.Path;

/**
 * The reader of every model-shaped input (model parameters, perturbations, masks): a float32 {@code .npy} file, or a
 * SEG-Y file (named {@code .sgy} or {@code .segy}, read by {@link SegyModel}), with the same checks and messages.
 */
public final class ModelFiles {
    private ModelFiles() {
    }

    /** The file's model shape, {@code (nz, nx)} or {@code (nz, ny, nx)} as stored, from its headers only. */
    public static int[] shape(Path path, String what) {
        return SegyModel.isSegy(path) ? SegyModel.header(path, what).shape()
                : Npy.headerFloat32(path, what, null).shape();
    }

    /** The whole file as float32, its shape checked against {@code expectedShape} (null: any; -1: any length). */
    public static Npy.Array read(Path path, String what, int[] expectedShape) {
        return SegyModel.isSegy(path) ? SegyModel.read(path, what, expectedShape)
                : Npy.readFloat32(path, what, expectedShape);
    }

    /** A selection of the file, as {@link Npy#readFloat32Selection}, reading only what it needs. */
    public static float[] readSelection(Path path, String what, int[] expectedShape, int[][] index) {
        return SegyModel.isSegy(path) ? SegyModel.readSelection(path, what, expectedShape, index)
                : Npy.readFloat32Selection(path, what, expectedShape, index);
    }

    /**
     * Refuses a SEG-Y file whose sample interval is not the grid's depth spacing {@code dz} (m), {@code dzName} the
     * option or key that set it; a {@code .npy} file carries no spacing and passes.
     */
    public static void checkSpacing(Path path, String what, double dz, String dzName) {
        if (SegyModel.isSegy(path)) {
            SegyModel.checkSpacing(path, what, dz, dzName);
        }
    }
}
