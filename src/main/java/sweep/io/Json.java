package sweep.io;

import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes small JSON documents (run summaries) atomically: a temp file in the same folder, then a rename. */
public final class Json {
    private Json() {
    }

    /** Serialises {@code value} (maps, lists, records of plain values) as pretty-printed JSON into {@code file}. */
    public static void write(Path file, Object value) {
        String text = new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(value);
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the original error below says what went wrong
            }
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
