package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.cli.FwiCommandTest.run;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.cli.FwiCommandTest.Result;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.models.DefaultModels;
import sweep.parallel.MpiRunner;

/**
 * {@code sweep fwi --equation elastic} on the built-in elastic model at a coarse spacing: outputs against the model
 * built independently here (true and starting model, fluid water, fixed density, RMS errors recomputed from the
 * files), the same bits under {@code mpirun -np 2 --px 2}, and elastic settings that do not fit failing with
 * messages naming the key.
 */
class ElasticFwiCommandTest {
    @TempDir
    Path dir;

    /** The built-in elastic model at 50 m: 20 x 60 cells, 3 water rows; a short low-frequency run. */
    private static final double DH = 50;
    private static final int NZ = 20;
    private static final int NX = 60;
    private static final int N = NZ * NX;
    private static final int WATER = 3;

    private static List<String> args(Path out, int iterations, String... more) {
        List<String> a = new ArrayList<>(List.of("fwi", "--equation", "elastic", "--dh", "50", "--time", "0.8",
                "--freq", "2.5", "--shots", "2", "--iterations", String.valueOf(iterations), "--threads", "1", "--out",
                out.toString()));
        a.addAll(List.of(more));
        return a;
    }

    private static float[] read(Path p, int... shape) {
        Npy.Array a = Npy.readFloat32(p, p.getFileName().toString());
        assertArrayEquals(shape, a.shape(), p.toString());
        return a.asFloat32();
    }

    private static double rms(float[] a, float[] b, int k) {
        return rms(a, b, k, 0, NZ);
    }

    /** The RMS difference of parameter k over the rows [z0, z1). */
    private static double rms(float[] a, float[] b, int k, int z0, int z1) {
        double s = 0;
        for (int i = k * N + z0 * NX; i < k * N + z1 * NX; i++) {
            s += Math.pow(a[i] - b[i], 2);
        }
        return Math.sqrt(s / ((z1 - z0) * NX));
    }

    @Test
    void builtInElasticRunInvertsVpAndVsWithTheWaterFluidAndDensityFixed() throws Exception {
        Path out = dir.resolve("one");
        Result r = run(args(out, 2).toArray(new String[0]));
        assertEquals(0, r.code(), r.err());
        assertEquals(WATER, DefaultModels.waterRows(DH));
        float[] mTrue = read(out.resolve("model_true.npy"), 3, NZ, NX);
        assertArrayEquals(DefaultModels.elastic2d(DH), mTrue);
        float[] start = read(out.resolve("model_start.npy"), 3, NZ, NX);
        assertArrayEquals(DefaultModels.elastic2dStart(DH, 150 / DH), start);
        float[] fin = read(out.resolve("model_final.npy"), 3, NZ, NX);
        read(out.resolve("gradient_final.npy"), 3, NZ, NX);
        for (int i = 0; i < WATER * NX; i++) {
            assertEquals(0f, fin[N + i], "vs in the water, cell " + i);
            assertEquals(start[i], fin[i], "vp of the muted water rows, cell " + i);
        }
        assertArrayEquals(Arrays.copyOfRange(start, 2 * N, 3 * N), Arrays.copyOfRange(fin, 2 * N, 3 * N),
                "rho is not inverted by default");
        assertTrue(!Arrays.equals(Arrays.copyOfRange(start, N, 2 * N), Arrays.copyOfRange(fin, N, 2 * N)),
                "vs was updated");
        int nt = (int) Math.ceil(0.8 / 0.0062); // dt: 0.8 of the elastic stable limit at vmax 3500, 4 decimals
        read(out.resolve("observed.npy"), 2, nt, (NX + 1) / 2, 2);
        JsonObject s = JsonParser.parseString(Files.readString(out.resolve("summary.json"))).getAsJsonObject();
        assertEquals("elastic", s.get("equation").getAsString());
        assertEquals("[\"vp\",\"vs\"]", s.getAsJsonArray("inverted").toString());
        JsonArray misfit = s.getAsJsonArray("misfit");
        assertTrue(misfit.get(misfit.size() - 1).getAsDouble() < misfit.get(0).getAsDouble(), misfit.toString());
        for (String name : List.of("vp", "vs", "rho")) {
            int k = List.of("vp", "vs", "rho").indexOf(name);
            assertEquals(rms(start, mTrue, k), s.getAsJsonObject("model_rms_error_start").get(name).getAsDouble(),
                    1e-9 * (1 + rms(start, mTrue, k)), name);
            assertEquals(rms(fin, mTrue, k), s.getAsJsonObject("model_rms_error_final").get(name).getAsDouble(),
                    1e-9 * (1 + rms(fin, mTrue, k)), name);
            JsonObject band = s.getAsJsonArray("bands").get(0).getAsJsonObject();
            assertEquals(rms(fin, mTrue, k), band.getAsJsonObject("model_rms_error").get(name).getAsDouble(),
                    1e-9 * (1 + rms(fin, mTrue, k)), name);
        }
        // below the muted rows, then four depth ranges of those rows that tile them, each RMS recomputed here
        JsonArray depth = s.getAsJsonArray("model_rms_error_by_depth");
        assertEquals(5, depth.size(), depth.toString());
        int below = (int) Math.round(depth.get(0).getAsJsonObject().get("z_from_m").getAsDouble() / DH);
        assertTrue(below >= WATER, "the muted rows hold the water: " + below);
        int next = below;
        for (int d = 0; d < depth.size(); d++) {
            JsonObject e = depth.get(d).getAsJsonObject();
            int z0 = (int) Math.round(e.get("z_from_m").getAsDouble() / DH);
            int z1 = (int) Math.round(e.get("z_to_m").getAsDouble() / DH);
            assertEquals(d <= 1 ? below : next, z0, e.toString());
            assertEquals(d == 0 || d == 4 ? NZ : z1, z1, e.toString());
            next = z1;
            for (String name : List.of("vp", "vs", "rho")) {
                int k = List.of("vp", "vs", "rho").indexOf(name);
                assertEquals(rms(start, mTrue, k, z0, z1), e.getAsJsonObject("start").get(name).getAsDouble(),
                        1e-9 * (1 + rms(start, mTrue, k, z0, z1)), name + " " + e);
                assertEquals(rms(fin, mTrue, k, z0, z1), e.getAsJsonObject("final").get(name).getAsDouble(),
                        1e-9 * (1 + rms(fin, mTrue, k, z0, z1)), name + " " + e);
            }
        }
        for (String png : List.of("models_vp.png", "models_vs.png", "models_rho.png", "model_final_vs.png",
                "gradient_final_vs.png", "model_band1_vp.png", "misfit.png", "observed_shot1_vx.png",
                "observed_shot1_vz.png", "model_error_vs.png", "profiles_vp.png", "profiles_rho.png")) {
            assertTrue(Files.size(out.resolve(png)) > 100, png);
        }
        // vs pictures: the water (vs = 0) is grey, and true and starting vs share one colour scale, the range of
        // both models' solid cells, recomputed here
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (float[] m : List.of(mTrue, start)) {
            for (int i = N; i < 2 * N; i++) {
                if (m[i] > 0) {
                    lo = Math.min(lo, m[i]);
                    hi = Math.max(hi, m[i]);
                }
            }
        }
        int h = (int) Math.round(NZ * DH * 800 / (NX * DH)); // the plot's height in pixels (width 800)
        int px = 780;
        int py = h - 3;
        int cell = N + (py * NZ / h) * NX + px * NX / 800; // the cell drawn at that pixel (nearest)
        for (String[] pic : new String[][] {{"model_true_vs.png", "true"}, {"model_start_vs.png", "start"}}) {
            BufferedImage img = ImageIO.read(out.resolve(pic[0]).toFile());
            float[] m = pic[1].equals("true") ? mTrue : start;
            assertEquals(Png.NON_FINITE, img.getRGB(Png.LEFT + 5, Png.TOP + 5) & 0xFFFFFF, "water in " + pic[0]);
            assertEquals(Png.sequential((m[cell] - lo) / (hi - lo)), img.getRGB(Png.LEFT + px, Png.TOP + py)
                    & 0xFFFFFF, pic[0] + ": deep cell on the shared scale");
        }
    }

    @Test
    void decomposedElasticRunEndsWithTheSingleDomainBits() throws Exception {
        Path one = dir.resolve("one");
        assertEquals(0, run(args(one, 1).toArray(new String[0])).code());
        Path two = dir.resolve("two");
        List<String> a = args(two, 1, "--px", "2");
        MpiRunner.Result r = MpiRunner.run(2, Main.class, a.toArray(new String[0]));
        assertEquals(0, r.exitCode(), r.describe());
        for (String f : List.of("observed.npy", "model_final.npy", "gradient_final.npy", "synthetic_shot1.npy")) {
            float[] x = Npy.readFloat32(one.resolve(f), f).asFloat32();
            float[] y = Npy.readFloat32(two.resolve(f), f).asFloat32();
            assertEquals(x.length, y.length, f);
            for (int i = 0; i < x.length; i++) {
                assertEquals(Float.floatToIntBits(x[i]), Float.floatToIntBits(y[i]), f + " value " + i);
            }
        }
    }

    @Test
    void elasticSettingsThatDoNotFitNameTheirKey() throws Exception {
        Path job = dir.resolve("acoustic.json");
        Files.writeString(job, "{\"vs_min\": 100}");
        Result r = run("fwi", "--job", job.toString(), "--out", dir.resolve("x").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("key 'vs_min'") && r.err().contains("elastic"), r.err());
        r = run(args(dir.resolve("y"), 1, "--invert", "vp,qp").toArray(new String[0]));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--invert") && r.err().contains("\"qp\"") && r.err().contains("vp, vs, rho"),
                r.err());
        r = run("fwi", "--equation", "sideways", "--out", dir.resolve("z").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--equation") && r.err().contains("sideways"), r.err());
        Npy.writeFloat32(dir.resolve("vp.npy"), Arrays.copyOf(DefaultModels.elastic2d(DH), N), NZ, NX);
        Path ej = dir.resolve("elastic.json");
        Files.writeString(ej, "{\"equation\": \"elastic\", \"vp_true\": \"vp.npy\", \"dh\": 50}");
        r = run("fwi", "--job", ej.toString(), "--out", dir.resolve("w").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("vs_true") && r.err().contains("required"), r.err());
    }
}
