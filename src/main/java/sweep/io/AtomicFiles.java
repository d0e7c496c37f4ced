package sweep.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write " + kind + ": " + e, e);
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

    /** As {@link #write(Path, String, Content)} for content produced as a stream (buffered here). */
    public static void writeStream(Path path, String kind, StreamContent content) {
        write(path, kind, ch -> {
            OutputStream raw = Channels.newOutputStream(ch);
            java.io.BufferedOutputStream out = new java.io.BufferedOutputStream(raw, 1 << 16);
            content.writeTo(out);
            out.flush(); // not closed: closing would close the channel before force()
        });
    }

    /** Writes every remaining byte of {@code buf}. */
    static void writeFully(FileChannel ch, java.nio.ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }
}
