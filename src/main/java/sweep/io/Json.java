package sweep.io;

import com.google.gson.GsonBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Writes small JSON documents (run summaries) atomically, through {@link AtomicFiles}. */
public final class Json {
    private Json() {
    }

    /** Serialises {@code value} (maps, lists, records of plain values) as pretty-printed JSON into {@code file}. */
    public static void write(Path file, Object value) {
        String text = new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(value);
        AtomicFiles.write(file, "JSON file",
                out -> out.write(java.nio.ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8))));
    }
}
