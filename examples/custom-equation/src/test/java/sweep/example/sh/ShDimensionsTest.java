package sweep.example.sh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.cli.Main;
import sweep.io.Npy;
import sweep.prop.PropSpec;

/** The equation declares 2-D only: a 3-D spec is refused, and so is a 3-D model on the command line (exit code 2). */
class ShDimensionsTest {
    @TempDir
    Path dir;

    @Test
    void threeDimensionalProblemsAreRefused() {
        PropSpec.builder(20, 30).equation(ShEquation.NAME).dh(10).dt(1e-3).nt(10).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PropSpec.builder(10, 20, 30).equation(ShEquation.NAME).dh(10).dt(1e-3).nt(10).build());
        assertTrue(e.getMessage().contains("the sh equation runs 2-D models only, got a 3-D model"), e.getMessage());
    }

    @Test
    void commandLineListsTwoDimensionsAndRefusesAThreeDimensionalModel() {
        StringWriter out = new StringWriter();
        CommandLine list = Main.commandLine();
        list.setOut(new PrintWriter(out));
        assertEquals(0, list.execute("equations"));
        String line = out.toString().lines().filter(l -> l.startsWith("sh ")).findFirst().orElse("");
        assertTrue(line.matches("sh +2-D  parameters vs,rho  record vy  source types fy  device solver no  .*"), line);

        int[] shape = {6, 7, 8};
        float[] v = new float[6 * 7 * 8];
        Arrays.fill(v, 1500);
        Path vs = dir.resolve("vs.npy");
        Path rho = dir.resolve("rho.npy");
        Npy.writeFloat32(vs, v, shape);
        Npy.writeFloat32(rho, v, shape);
        Path src = dir.resolve("src.npy");
        Npy.writeInt32(src, new int[] {1, 2, 3}, 1, 1, 3);
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            code = Main.commandLine().execute("forward", "--equation", "sh", "--vs", vs.toString(), "--rho",
                    rho.toString(), "--sources", src.toString(), "--receivers", src.toString(), "--dh", "10", "--dt",
                    "1e-3", "--nt", "10", "--ricker", "10", "--out", dir.resolve("out.npy").toString());
        } finally {
            System.setErr(oldErr);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, text);
        assertEquals(1, text.lines().filter(l -> l.contains(": error: ")).count(), text);
        assertTrue(text.contains("--vs: " + vs + ": the sh equation runs 2-D models only, got a 3-D model"), text);
        assertTrue(!text.contains("Exception"), text);
    }
}
