package sweep.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under a real 4-rank mpirun: files written tile-wise by the ranks together equal, byte for byte, the files of the
 * gathered path, for gradients (pad adjoint) and models (pad dropped) on five meshes, one or three arrays at once (see
 * {@link TileWriteMain}); no temporary file is left behind.
 */
class TileWriteMpiTest {
    @TempDir
    Path dir;

    @Test
    void tileWiseFilesEqualTheGatheredFiles() throws Exception {
        MpiRunner.Result r = MpiRunner.run(4, TileWriteMain.class, dir.toString());
        assertEquals(0, r.exitCode(), r.describe());
        List<String> cases = r.linesStartingWith("case ");
        assertEquals(14, cases.size(), r.describe());
        for (String c : cases) {
            assertFalse(c.endsWith("differs"), c);
        }
        assertEquals(List.of("done"), r.linesStartingWith("done"), r.describe());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.filter(p -> p.getFileName().toString().startsWith(".")).toList(),
                    "temporary files left");
        }
    }
}
