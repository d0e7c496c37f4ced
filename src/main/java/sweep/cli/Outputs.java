package sweep.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import sweep.io.AtomicFiles;

/**
 * Checks of the command line's outputs, made before any input is computed on, so that a long run is never lost at its
 * end: the output can be written, and it is none of the run's input files.
 */
final class Outputs {
    private Outputs() {
    }

    /** An output file given by {@code option}: writable (see {@link AtomicFiles#checkWritable}) and no input. */
    static void checkFile(String option, Path out, Map<String, Path> inputs) {
        requireName(option, out);
        AtomicFiles.checkWritable(out, option);
        inputs.forEach((flag, in) -> {
            if (in != null && same(out, in)) {
                throw new IllegalArgumentException(option + ": " + out + " is also the input " + flag + "; writing"
                        + " it would overwrite that input: choose another output file");
            }
        });
    }

    /**
     * An output folder given by {@code option} into which a run writes files of the given names: made when missing,
     * writable, and none of those files is one of the inputs.
     */
    static void checkFolder(String option, Path dir, Collection<String> names, Map<String, Path> inputs) {
        requireName(option, dir);
        AtomicFiles.checkWritableFolder(dir, option);
        for (String name : names) {
            Path out = dir.resolve(name);
            inputs.forEach((key, in) -> {
                if (in != null && same(out, in)) {
                    throw new IllegalArgumentException(option + ": this run writes " + out + ", which is also the"
                            + " input " + key + ": copy that input elsewhere or choose another output folder");
                }
            });
        }
    }

    /** Refuses an empty path (an empty option value would name the current folder). */
    private static void requireName(String option, Path p) {
        if (p.toString().isBlank()) {
            throw new IllegalArgumentException(option + " is empty: give the path to write to");
        }
    }

    /** Whether two paths name the same file (the same file on disk when both exist, else the same absolute path). */
    static boolean same(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
        } catch (IOException e) {
            // fall through to comparing the paths
        }
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}
