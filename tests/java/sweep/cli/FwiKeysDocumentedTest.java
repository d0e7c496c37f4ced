package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every job-file key that {@code sweep fwi --keys} lists, for every installed equation, is documented in
 * docs/fwi-jobs.md (as {@code `key`}), so that a new key or a new equation's parameter cannot land undocumented.
 */
class FwiKeysDocumentedTest {
    @Test
    void everyKeyIsInTheJobFileDocumentation() throws Exception {
        String doc = Files.readString(Path.of("docs", "fwi-jobs.md"));
        List<String> missing = new ArrayList<>();
        for (String key : FwiJob.KEYS.keySet()) {
            if (!doc.contains("`" + key + "`")) {
                missing.add(key);
            }
        }
        assertTrue(missing.isEmpty(), "keys of 'sweep fwi --keys' not in docs/fwi-jobs.md: " + missing);
    }
}
