package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * {@code --equation acoustic-tti} on the command line in 3-D: a model takes --phi (the azimuth) beside --theta, the
 * forward record and the gradient file (5, nz, ny, nx) are the library's bit for bit; a 3-D model without --phi and a
 * 2-D model with it are refused in one line naming the option.
 */
class AcousticTtiCommandTest {
    private static final int NZ = 10;
    private static final int NY = 12;
    private static final int NX = 14;
    private static final int CELLS = NZ * NY * NX;

    @TempDir
    Path dir;

    /** A float32 (NZ, NY, NX) file of value {@code mean} varying by {@code slope} along x. */
    private Path field(String name, float mean, float slope) {
        float[] a = new float[CELLS];
        for (int i = 0; i < CELLS; i++) {
            a[i] = mean + slope * (i % NX - NX / 2);
        }
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, a, NZ, NY, NX);
        return p;
    }

    private List<String> args(String command, boolean phi) {
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {6, 5, 3}, 1, 1, 3);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {2, 3, 1, 11, 8, 6, 7, 10, 8}, 1, 3, 3);
        List<String> a = new ArrayList<>(List.of(command, "--equation", "acoustic-tti", "--vp",
                field("vp.npy", 2000, 10).toString(), "--epsilon", field("eps.npy", 0.15f, 0.002f).toString(),
                "--delta", field("delta.npy", 0.05f, 0).toString(), "--theta", field("theta.npy", 30, 2).toString(),
                "--dh", "10", "--dt", "0.001", "--nt", "40", "--abcn", "4", "--ricker", "20", "--threads", "1",
                "--sources", dir.resolve("src.npy").toString(), "--receivers", dir.resolve("rec.npy").toString()));
        if (phi) {
            a.addAll(List.of("--phi", field("phi.npy", 40, -3).toString()));
        }
        return a;
    }

    /** The model of {@link #args} as the library takes it, parameter-major. */
    private float[] model() {
        float[] m = new float[5 * CELLS];
        String[] files = {"vp", "eps", "delta", "theta", "phi"};
        for (int k = 0; k < 5; k++) {
            float[] v = Npy.readFloat32(dir.resolve(files[k] + ".npy"), files[k]).asFloat32();
            System.arraycopy(v, 0, m, k * CELLS, CELLS);
        }
        return m;
    }

    @Test
    void threeDimensionalRunsTakeTheAzimuthAndGiveTheLibrarysBits() throws Exception {
        List<String> fwd = args("forward", true);
        fwd.addAll(List.of("--out", dir.resolve("rec_out.npy").toString()));
        CliHarness.Result r = CliHarness.run(fwd.toArray(new String[0]));
        assertEquals(0, r.code(), r.stderr());
        List<String> grad = args("gradient", true);
        grad.addAll(List.of("--observed", dir.resolve("obs.npy").toString(), "--storage", "full", "--out-grad",
                dir.resolve("g.npy").toString()));
        PropSpec spec = PropSpec.builder(NZ, NY, NX).equation("acoustic-tti").dh(10).dt(1e-3).nt(40).abcn(4)
                .threads(1).storage(Storage.FULL).build();
        float[] w = Wavelets.ricker(20, 40, 1e-3);
        int[][][] src = {{{6, 5, 3}}};
        int[][][] rec = {{{2, 3, 1}, {11, 8, 6}, {7, 10, 8}}};
        float[] m = model();
        float[] obsModel = m.clone();
        for (int i = 4 * CELLS; i < 5 * CELLS; i++) {
            obsModel[i] += 25; // the observed data of another azimuth
        }
        float[] record;
        Gradient g;
        try (Propagator p = new Propagator(spec)) {
            record = p.forward(w, src, rec, m).data();
            float[] obs = p.forward(w, src, rec, obsModel).data();
            Npy.writeFloat32(dir.resolve("obs.npy"), obs, 1, 40, 3, 1);
            g = p.forwardAndGradient(w, src, rec, m, obs, Misfit.L2);
        }
        assertArrayEquals(record, Npy.readFloat32(dir.resolve("rec_out.npy"), "record").asFloat32());
        CliHarness.Result rg = CliHarness.run(grad.toArray(new String[0]));
        assertEquals(0, rg.code(), rg.stderr());
        Npy.Array file = Npy.readFloat32(dir.resolve("g.npy"), "gradient");
        assertArrayEquals(new int[] {5, NZ, NY, NX}, file.shape());
        assertArrayEquals(g.parameters(), file.asFloat32());
        double phiNorm = 0;
        for (int i = 4 * CELLS; i < 5 * CELLS; i++) {
            phiNorm += Math.abs(g.parameters()[i]);
        }
        assertTrue(phiNorm > 0, "the azimuth's gradient is zero");
    }

    @Test
    void theAzimuthIsNeededIn3dAndRefusedIn2d() throws Exception {
        List<String> without = args("forward", false);
        without.addAll(List.of("--out", dir.resolve("x.npy").toString()));
        CliHarness.fails("--equation acoustic-tti needs --phi", without.toArray(new String[0]));
        float[] flat = new float[NZ * NX];
        Arrays.fill(flat, 30);
        Npy.writeFloat32(dir.resolve("phi2.npy"), flat, NZ, NX);
        List<String> twoD = new ArrayList<>(List.of("forward", "--equation", "acoustic-tti"));
        for (String p : List.of("vp", "epsilon", "delta", "theta")) {
            float[] v = new float[NZ * NX];
            Arrays.fill(v, p.equals("vp") ? 2000 : p.equals("theta") ? 20 : p.equals("epsilon") ? 0.1f : 0.05f);
            Npy.writeFloat32(dir.resolve(p + "2.npy"), v, NZ, NX);
            twoD.addAll(List.of("--" + p, dir.resolve(p + "2.npy").toString()));
        }
        twoD.addAll(List.of("--phi", dir.resolve("phi2.npy").toString(), "--dh", "10", "--dt", "0.001", "--nt", "20",
                "--ricker", "20", "--sources", CliHarness.cells(dir, "s2.npy", 1, 1, 5, 2).toString(), "--receivers",
                CliHarness.cells(dir, "r2.npy", 1, 2, 3, 1).toString(), "--out", dir.resolve("y.npy").toString()));
        CliHarness.fails("--phi is a parameter of --equation acoustic-tti in 3-D models; this model is 2-D",
                twoD.toArray(new String[0]));
        assertFalse(Files.exists(dir.resolve("x.npy")) || Files.exists(dir.resolve("y.npy")), "nothing written");
        // a job file likewise: phi_true beside a 2-D model is refused naming the key
        StringBuilder job = new StringBuilder("{\"equation\": \"acoustic-tti\", \"dh\": 10, \"dt\": 0.001, \"nt\": 20,"
                + " \"vp_true\": \"" + dir.resolve("vp2.npy") + "\"");
        for (String p : List.of("epsilon", "delta", "theta", "phi")) {
            job.append(", \"").append(p).append("_true\": \"").append(dir.resolve(p + "2.npy")).append('"');
        }
        job.append(", \"out\": \"").append(dir.resolve("fwi")).append("\"}");
        Files.writeString(dir.resolve("job.json"), job.toString());
        CliHarness.fails("'phi_true'", "fwi", "--job", dir.resolve("job.json").toString());
        CliHarness.Result r = CliHarness.run("fwi", "--job", dir.resolve("job.json").toString());
        assertTrue(r.err().contains("in 3-D models; this model is 2-D"), r.err());
        assertFalse(Files.exists(dir.resolve("fwi")), "no output folder");
    }
}
