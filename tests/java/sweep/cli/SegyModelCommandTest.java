package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.io.SegyModelWriter;

/**
 * Models given as SEG-Y files (written here byte by byte, see {@link SegyModelWriter}): {@code forward},
 * {@code gradient} and an FWI job write the same bytes as with the same models in {@code .npy}, SEG-Y and .npy
 * parameters may be mixed, and a SEG-Y model sampled at another spacing, or of another shape, is refused by name.
 */
class SegyModelCommandTest {
    private static final int NZ = 24;
    private static final int NX = 36;

    @TempDir
    Path dir;

    /** A model of NZ x NX cells, {@code base} plus a slow smooth change, in {@code name}.npy and {@code name}.sgy. */
    private float[] model(String name, float base, float step) throws Exception {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                v[z * NX + x] = base + step * z + (x % 5) * step / 4;
            }
        }
        Npy.writeFloat32(dir.resolve(name + ".npy"), v, NZ, NX);
        SegyModelWriter.write(dir.resolve(name + ".sgy"), v, 10, NZ, NX);
        return v;
    }

    private List<String> common() {
        return List.of("--dh", "10", "--dt", "0.001", "--nt", "200", "--abcn", "8", "--ricker", "15", "--sources",
                CliHarness.cells(dir, "src.npy", 2, 1, 8, 2).toString(), "--receivers",
                CliHarness.cells(dir, "rec.npy", 2, 20, 6, 1).toString(), "--threads", "1");
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private byte[] bytes(String name) throws Exception {
        return Files.readAllBytes(dir.resolve(name));
    }

    private void ok(String... args) {
        CliHarness.Result r = CliHarness.run(args);
        assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.stderr());
    }

    @Test
    void segyModelsRunTheSameBytesAsTheirNpyFiles() throws Exception {
        model("vp", 2000, 20);
        model("v0", 2000, 18);
        model("vs", 1100, 10);
        model("rho", 2100, 4);
        ok(CliHarness.args("forward", common(), "--vp", file("vp.npy"), "--out", file("obs.npy")));
        ok(CliHarness.args("forward", common(), "--vp", file("vp.sgy"), "--out", file("obs-sgy.npy")));
        assertArrayEquals(bytes("obs.npy"), bytes("obs-sgy.npy"), "acoustic record");

        ok(CliHarness.args("gradient", common(), "--vp", file("v0.npy"), "--observed", file("obs.npy"), "--out-grad",
                file("g.npy")));
        ok(CliHarness.args("gradient", common(), "--vp", file("v0.sgy"), "--observed", file("obs.npy"), "--out-grad",
                file("g-sgy.npy")));
        assertArrayEquals(bytes("g.npy"), bytes("g-sgy.npy"), "acoustic gradient");

        ok(CliHarness.args("forward", common(), "--equation", "elastic", "--vp", file("vp.npy"), "--vs",
                file("vs.npy"), "--rho", file("rho.npy"), "--out", file("el.npy")));
        ok(CliHarness.args("forward", common(), "--equation", "elastic", "--vp", file("vp.sgy"), "--vs",
                file("vs.npy"), "--rho", file("rho.sgy"), "--out", file("el-mixed.npy")));
        assertArrayEquals(bytes("el.npy"), bytes("el-mixed.npy"), "elastic record, SEG-Y and .npy mixed");
    }

    @Test
    void anFwiJobOnSegyModelsWritesTheBytesOfTheNpyJob() throws Exception {
        float[] v = model("marine", 2000, 20);
        for (int i = 0; i < 3 * NX; i++) {
            v[i] = 1500; // a water layer, found in the SEG-Y file as in the .npy one
        }
        Npy.writeFloat32(dir.resolve("marine.npy"), v, NZ, NX);
        SegyModelWriter.write(dir.resolve("marine.sgy"), v, 10, NZ, NX);
        String[] err = new String[2];
        for (String ext : new String[] {"npy", "sgy"}) {
            Path job = dir.resolve(ext + ".json");
            Files.writeString(job, "{\"vp_true\": \"" + file("marine." + ext) + "\", \"dh\": 10, \"dt\": 0.001,"
                    + " \"nt\": 250, \"ricker\": 15, \"abcn\": 8, \"shots\": 2, \"threads\": 1, \"iterations\": 1,"
                    + " \"bands\": [0], \"smooth\": 60, \"out\": \"" + file("fwi-" + ext) + "\"}");
            CliHarness.Result r = CliHarness.run("fwi", "--job", job.toString());
            assertEquals(0, r.code(), r.stderr());
            err[ext.equals("npy") ? 0 : 1] = r.stderr().lines().filter(l -> l.contains("defaults for a model file"))
                    .findFirst().orElse("");
        }
        assertTrue(err[1].contains("mute_rows 3"), err[1]);
        for (String f : List.of("model_final.npy", "gradient_final.npy", "observed.npy", "model_start.npy")) {
            assertArrayEquals(bytes("fwi-npy/" + f), bytes("fwi-sgy/" + f), f);
        }
    }

    @Test
    void aSegyModelOfAnotherSpacingOrShapeIsRefusedByName() throws Exception {
        float[] v = model("vp", 2000, 20);
        Path coarse = dir.resolve("coarse.sgy");
        SegyModelWriter.write(coarse, v, new int[] {NZ, NX},
                new SegyModelWriter.Layout(1, ByteOrder.BIG_ENDIAN, 4000, 0, false));
        CliHarness.fails("--vp: " + coarse + ": its sample interval (binary header bytes 3217-3218) is 4000, which is"
                + " neither --dh 10 m in millimetres (10000) nor in metres",
                CliHarness.args("forward", common(), "--vp", coarse.toString(), "--out", file("x.npy")));
        Path narrow = dir.resolve("narrow.sgy");
        SegyModelWriter.write(narrow, new float[NZ * (NX - 1)], 10, NZ, NX - 1);
        CliHarness.fails("--vs: " + narrow + ": shape [24, 35] differs from --vp's [24, 36]",
                CliHarness.args("forward", common(), "--equation", "elastic", "--vp", file("vp.sgy"), "--vs",
                        narrow.toString(), "--rho", file("vp.npy"), "--out", file("x.npy")));
        assertTrue(!Files.exists(dir.resolve("x.npy")));
    }
}
