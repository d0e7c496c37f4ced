package sweep.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The check every input file passes before it is opened for reading: it must be a regular file once symbolic links
 * are followed, since sweep reads its inputs more than once and by offset, and opening a FIFO blocks until a writer
 * comes.
 */
public final class InputFiles {
    private InputFiles() {
    }

    /**
     * Throws an {@link IllegalArgumentException} starting with {@code what} (e.g. {@code "--vp"}) and naming
     * {@code path} when it is a pipe, FIFO, socket or device. A missing file or a folder passes: the reader that opens
     * it says so in its own words.
     */
    public static void requireRegular(Path path, String what) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            return;
        }
        if (a.isOther()) {
            throw new IllegalArgumentException((what == null || what.isEmpty() ? "" : what + ": ") + path
                    + " is not a regular file (a pipe, FIFO, socket or device): sweep reads its inputs more than once"
                    + " and by offset; save it to a file first");
        }
    }
}
