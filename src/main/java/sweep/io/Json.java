package sweep.io;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.reflect.TypeToken;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes small JSON documents (run summaries) atomically, through {@link AtomicFiles}, and reads them back. */
public final class Json {
    private Json() {
    }

    /** Serialises {@code value} (maps, lists, records of plain values) as pretty-printed JSON into {@code file}. */
    public static void write(Path file, Object value) {
        String text = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().serializeSpecialFloatingPointValues()
                .create().toJson(value);
        AtomicFiles.write(file, "JSON file",
                out -> out.write(ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8))));
    }

    /**
     * The JSON object in {@code file} as a map (numbers as Double, arrays as lists); a file that is missing, unreadable
     * or not a JSON object is an {@link IllegalArgumentException} naming it.
     */
    public static Map<String, Object> read(Path file) {
        try {
            Map<String, Object> m = new Gson().fromJson(Files.readString(file, StandardCharsets.UTF_8),
                    new TypeToken<Map<String, Object>>() { }.getType());
            if (m == null) {
                throw new IllegalArgumentException(file + " is empty");
            }
            return m;
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + IoErrors.reason(file, e), e);
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(file + " is not a JSON object: " + e.getMessage(), e);
        }
    }
}
