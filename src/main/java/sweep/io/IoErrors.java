package sweep.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Plain-words reasons for I/O failures, for messages a user reads: "no such file or folder", "permission denied",
 * "is a directory", the operating system's own reason where it gives one, never a Java exception class name.
 */
public final class IoErrors {
    private IoErrors() {
    }

    /**
     * Why {@code e} happened, in a few words (e.g. "permission denied"); the reason of the I/O failure it wraps, if
     * any (an image writer's "I/O error writing PNG file!" is "no space left on device" when the disk is full).
     */
    public static String reason(IOException e) {
        if (e.getCause() instanceof IOException cause) {
            return reason(cause);
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or folder";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "folder not empty";
        }
        if (e instanceof FileSystemException fs) {
            String r = fs.getReason();
            return r != null && !r.isBlank() ? lower(r) : "input/output error";
        }
        if (e instanceof EOFException) {
            return "the file ends early (truncated)";
        }
        String m = e.getMessage();
        if ("No space left on device".equals(m)) {
            return "no space left on device (free some space there, or write elsewhere)";
        }
        return m != null && !m.isBlank() ? lower(m) : "input/output error";
    }

    /**
     * Why reading or writing {@code path} failed: "is a directory" when it is one (the JDK reports that case in
     * several ways), else {@link #reason(IOException)}.
     */
    public static String reason(Path path, IOException e) {
        if (path != null && Files.isDirectory(path)) {
            return "is a directory, not a file";
        }
        return reason(e);
    }

    private static String lower(String s) {
        return s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isLowerCase(s.charAt(1))
                ? Character.toLowerCase(s.charAt(0)) + s.substring(1) : s;
    }
}
