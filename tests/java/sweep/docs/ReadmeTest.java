package sweep.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** README.md stays a short page for users: small, no scratch paths or commit hashes, and every local link resolves. */
class ReadmeTest {
    private static final Path README = Path.of("README.md");

    @Test
    void readmeIsAtMost12KiB() throws IOException {
        long size = Files.size(README);
        assertTrue(size <= 12 * 1024, "README.md has " + size + " bytes; keep it at most 12 KiB (details go to docs/)");
    }

    @Test
    void readmeNamesNoTemporaryPathOrCommitHash() throws IOException {
        String text = Files.readString(README, StandardCharsets.UTF_8);
        assertTrue(!text.contains("/tmp/") && !text.contains("/tmp "), "README.md mentions a path under /tmp");
        Matcher m = Pattern.compile("\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\\b").matcher(text);
        String hash = m.find() ? m.group() : null;
        assertTrue(hash == null, "README.md holds what looks like a commit hash: " + hash);
    }

    @Test
    void everyLocalLinkResolves() throws IOException {
        String text = Files.readString(README, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)").matcher(text);
        List<String> missing = new ArrayList<>();
        int links = 0;
        while (m.find()) {
            String target = m.group(1);
            if (target.contains("://")) {
                continue;
            }
            links++;
            if (!Files.exists(Path.of(target))) {
                missing.add(target);
            }
        }
        assertTrue(links > 0, "README.md links to nothing in the repository");
        assertTrue(missing.isEmpty(), "README.md links to missing files: " + missing);
    }
}
