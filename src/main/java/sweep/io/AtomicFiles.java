package sweep.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Atomic file replacement for the writers of this package: the content goes to a hidden temporary file in the
 * target's folder, is forced to disk, and is then renamed over the target, so that a killed process leaves either
 * the old file or the complete new one, never a half-written file (only a stray {@code .NAME.PID.N.tmp}).
 */
public final class AtomicFiles {

    private static final AtomicLong TEMP_COUNTER = new AtomicLong();

    private AtomicFiles() {}

    /** Writes the whole content of a file to a channel positioned at 0. */
    public interface Content {
        void writeTo(FileChannel out) throws IOException;
    }

    /** Writes the whole content of a file to a stream (not closed by the callee). */
    public interface StreamContent {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Atomically replaces {@code path} with what {@code content} writes; {@code kind} (e.g. {@code "SEG-Y file"})
     * names the file in the {@link UncheckedIOException} thrown on an I/O failure. Runtime exceptions from
     * {@code content} propagate unchanged; the temporary file is removed in every failure case.
     */
    public static void write(Path path, String kind, Content content) {
        Path dir = path.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            FileChannel ch = null;
            for (int attempt = 0; ch == null; attempt++) {
                tmp = dir.resolve("." + path.getFileName() + "." + ProcessHandle.current().pid() + "."
                        + TEMP_COUNTER.incrementAndGet() + ".tmp");
                try { // CREATE_NEW with default permissions (createTempFile would make it owner-only)
                    ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    if (attempt > 100) {
                        throw e;
                    }
                }
            }
            try (FileChannel out = ch) {
                content.writeTo(out);
                out.force(false);
            }
            move(tmp, path);
            tmp = null;
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write " + kind + ": " + writeFailure(path, e), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: the write already failed
                }
            }
        }
    }

    private static void move(Path tmp, Path path) throws IOException {
        try {
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * For a file that several processes write together: makes a new, empty hidden temporary file in {@code path}'s
     * folder (named as {@link #write}'s) and returns it; the writers fill it, then one of them calls
     * {@link #commit}. {@code kind} names the file in the {@link UncheckedIOException} thrown on failure.
     */
    public static Path createShared(Path path, String kind) {
        Path dir = path.toAbsolutePath().getParent();
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve("." + path.getFileName() + "." + ProcessHandle.current().pid() + "."
                    + TEMP_COUNTER.incrementAndGet() + ".tmp");
            try {
                FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
                return tmp;
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw new UncheckedIOException(path + ": cannot write " + kind + ": " + writeFailure(path, e), e);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(path + ": cannot write " + kind + ": " + writeFailure(path, e), e);
            }
        }
    }

    /**
     * Forces a temporary file from {@link #createShared} to disk and renames it over {@code path} (atomically where
     * the file system can); the temporary file is removed when that fails.
     */
    public static void commit(Path tmp, Path path, String kind) {
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(false);
            }
            move(tmp, path);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // best effort: the write already failed
            }
            throw new UncheckedIOException(path + ": cannot write " + kind + ": " + writeFailure(path, e), e);
        }
    }

    /** Why writing {@code path} failed, naming the target (never the hidden temporary file) in plain words. */
    private static String writeFailure(Path path, IOException e) {
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            return "the folder " + dir + " does not exist";
        }
        return IoErrors.reason(path, e);
    }

    /**
     * Checks, before any long computation, that {@link #write} will be able to replace {@code path}, so that no run is
     * lost at its end: {@code path} is not a folder, its folder exists, and a new file can be made there (probed by
     * making and deleting one, so permissions, read-only file systems and root's rights all count as they will).
     * Throws {@link IllegalArgumentException} starting with {@code what} (e.g. {@code "--out"}) and naming the path.
     */
    public static void checkWritable(Path path, String what) {
        Path abs = path.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            throw new IllegalArgumentException(what + ": " + path + " is a directory; give a file name, e.g. "
                    + path.resolve("out.npy"));
        }
        Path dir = abs.getParent();
        if (dir == null || !Files.exists(dir)) {
            throw new IllegalArgumentException(what + ": the folder " + dir + " of " + path + " does not exist;"
                    + " create it first (mkdir -p " + dir + ") or write elsewhere");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(what + ": " + dir + " (the folder of " + path + ") is a file, not a"
                    + " folder");
        }
        if (Files.exists(abs) && !Files.isWritable(abs)) {
            throw new IllegalArgumentException(what + ": " + path + " exists and is read-only; remove it or write"
                    + " elsewhere");
        }
        probe(dir, path.getFileName().toString(), what);
    }

    /**
     * Checks, before any long computation, a folder that a run will write files into: it is made (with its parents)
     * when missing, and a new file can be made in it (probed as in {@link #checkWritable}). Throws
     * {@link IllegalArgumentException} starting with {@code what} and naming the folder.
     */
    public static void checkWritableFolder(Path dir, String what) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(what + ": " + dir + " is a file, not a folder; give a folder name");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": cannot create the folder " + dir + " ("
                    + IoErrors.reason(e) + "); choose a folder you can write to");
        }
        probe(dir.toAbsolutePath(), "folder", what);
    }

    private static void probe(Path dir, String name, String what) {
        Path p = dir.resolve("." + name + "." + ProcessHandle.current().pid() + "." + TEMP_COUNTER.incrementAndGet()
                + ".probe.tmp");
        try {
            FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            Files.delete(p);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": cannot write into the folder " + dir + " ("
                    + IoErrors.reason(e) + "); choose a folder you can write to");
        }
    }

    /** As {@link #write(Path, String, Content)} for content produced as a stream (buffered here). */
    public static void writeStream(Path path, String kind, StreamContent content) {
        write(path, kind, ch -> {
            OutputStream raw = Channels.newOutputStream(ch);
            BufferedOutputStream out = new BufferedOutputStream(raw, 1 << 16);
            content.writeTo(out);
            out.flush(); // not closed: closing would close the channel before force()
        });
    }

    /** Writes every remaining byte of {@code buf}. */
    static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }
}
