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
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * {@code sweep forward} and {@code sweep gradient} with {@code --equation visco-acoustic}: the settings the command
 * line derives from the wavelet's peak frequency (--ricker's, or a wavelet file's spectral peak) give the bits of a
 * library run given those settings; the gradient file is (3, nz, nx), the same bits with checkpointing (the default) and full storage; bad settings, a
 * setting of another equation and boundary saving end in exit code 2 with one line naming the option.
 */
class ViscoAcousticCommandTest {
    private static final int NZ = 20;
    private static final int NX = 24;
    private static final int NT = 150;
    private static final double DT = 1e-3;

    @TempDir
    Path dir;

    private Path field(String name, float v) {
        float[] a = new float[NZ * NX];
        Arrays.fill(a, v);
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, a, NZ, NX);
        return p;
    }

    private List<String> common(String... more) {
        return common(30, more);
    }

    private List<String> common(float q, String... more) {
        List<String> a = new ArrayList<>(List.of("--equation", "visco-acoustic", "--vp", field("vp.npy", 2000)
                .toString(), "--rho", field("rho.npy", 1800).toString(), "--q", field("q" + q + ".npy", q).toString(),
                "--dh",
                "10", "--dt", Double.toString(DT), "--nt", Integer.toString(NT), "--abcn", "6", "--sources",
                CliHarness.cells(dir, "src.npy", 1, 1, 10, 8).toString(), "--receivers",
                CliHarness.cells(dir, "receivers.npy", 1, 3, 4, 2).toString(), "--threads", "1"));
        a.addAll(List.of(more));
        return a;
    }

    /** The same problem through the library with explicit settings. */
    private static float[] library(float[] w, String band, String fRef) {
        int n = NZ * NX;
        float[] m = new float[3 * n];
        Arrays.fill(m, 0, n, 2000);
        Arrays.fill(m, n, 2 * n, 1800);
        Arrays.fill(m, 2 * n, 3 * n, 30);
        PropSpec spec = PropSpec.builder(NZ, NX).equation("visco-acoustic").dh(10).dt(DT).nt(NT).abcn(6).threads(1)
                .setting("q_band", band).setting("f_ref", fRef).build();
        try (Propagator p = new Propagator(spec)) {
            return p.forward(w, new int[][][] {{{10, 8}}}, new int[][][] {{{4, 2}, {5, 2}, {6, 2}}}, m).data();
        }
    }

    @Test
    void derivedSettingsGiveTheLibraryBits() {
        Path out = dir.resolve("record.npy");
        List<String> a = new ArrayList<>(List.of("forward"));
        a.addAll(common("--ricker", "12", "--out", out.toString()));
        CliHarness.Result r = CliHarness.run(a.toArray(new String[0]));
        assertEquals(0, r.code(), r.stderr());
        assertArrayEquals(library(Wavelets.ricker(12, NT, DT), "4.0,36.0", "12.0"),
                Npy.readFloat32(out, "record").asFloat32(), "--ricker 12: band 4-36 Hz, f_ref 12 Hz");

        float[] w = Wavelets.ricker(15, NT, DT);
        Path wf = dir.resolve("w.npy");
        Npy.writeFloat32(wf, w, NT);
        double peak = Wavelets.peakFrequency(w, 0, NT, DT);
        a = new ArrayList<>(List.of("forward"));
        a.addAll(common("--wavelet", wf.toString(), "--out", out.toString()));
        r = CliHarness.run(a.toArray(new String[0]));
        assertEquals(0, r.code(), r.stderr());
        assertEquals(15, peak, 0.5, "the spectral peak of a 15 Hz Ricker wavelet");
        assertArrayEquals(library(w, Double.toString(peak), Double.toString(peak)),
                Npy.readFloat32(out, "record").asFloat32(), "a wavelet file: band and f_ref from its spectral peak");
    }

    @Test
    void gradientStoragesAgreeAndBadSettingsAreRefused() {
        Path out = dir.resolve("record.npy");
        List<String> fwd = new ArrayList<>(List.of("forward"));
        fwd.addAll(common("--ricker", "12", "--out", out.toString()));
        assertEquals(0, CliHarness.run(fwd.toArray(new String[0])).code());
        Path grad = dir.resolve("g.npy");
        List<String> g = new ArrayList<>(List.of("gradient"));
        g.addAll(common(40, "--ricker", "12", "--observed", out.toString(), "--out-grad", grad.toString()));
        CliHarness.Result r = CliHarness.run(g.toArray(new String[0]));
        assertEquals(0, r.code(), r.stderr());
        assertArrayEquals(new int[] {3, NZ, NX}, Npy.readFloat32(grad, "gradient").shape());
        Path gradFull = dir.resolve("g-full.npy");
        List<String> gf = new ArrayList<>(List.of("gradient"));
        gf.addAll(common(40, "--ricker", "12", "--observed", out.toString(), "--out-grad", gradFull.toString(),
                "--storage", "full"));
        r = CliHarness.run(gf.toArray(new String[0]));
        assertEquals(0, r.code(), r.stderr());
        assertArrayEquals(Npy.readFloat32(gradFull, "gradient").asFloat32(),
                Npy.readFloat32(grad, "gradient").asFloat32(), "checkpointing (the default) against full storage");

        g.addAll(List.of("--storage", "boundary"));
        CliHarness.fails("--storage boundary is not supported by the visco-acoustic equation: use checkpoint or full",
                g.toArray(new String[0]));
        List<String> bad = new ArrayList<>(List.of("forward"));
        bad.addAll(common("--ricker", "12", "--out", out.toString(), "--mechanisms", "9"));
        CliHarness.fails("--mechanisms: mechanisms must be 1 to 8, got 9", bad.toArray(new String[0]));
        bad = new ArrayList<>(List.of("forward"));
        bad.addAll(common("--ricker", "12", "--out", out.toString(), "--q-band", "20,5"));
        CliHarness.fails("--q-band: q_band must satisfy 0 < FMIN < FMAX", bad.toArray(new String[0]));
        Path zero = dir.resolve("zero.npy");
        Npy.writeFloat32(zero, new float[NT], NT);
        bad = new ArrayList<>(List.of("forward"));
        bad.addAll(common("--wavelet", zero.toString(), "--out", out.toString()));
        CliHarness.fails("the wavelet's spectrum is zero: it has no peak frequency: give the settings --q-band, --f-ref",
                bad.toArray(new String[0]));
        CliHarness.fails("--q-band is an option of --equation visco-acoustic; this run is acoustic", "forward",
                "--vp", field("v.npy", 2000).toString(), "--dh", "10", "--dt", "0.001", "--nt", "10", "--sources",
                dir.resolve("src.npy").toString(), "--receivers", dir.resolve("receivers.npy").toString(), "--ricker", "10",
                "--q-band", "5,20", "--out", out.toString());
    }

    /** {@code forward} with {@code more} after the common options, writing to {@code out}. */
    private String[] forward(Path out, String... more) {
        List<String> a = new ArrayList<>(List.of("forward"));
        a.addAll(common(more));
        a.addAll(List.of("--out", out.toString()));
        return a.toArray(new String[0]);
    }

    /**
     * At dt = 1 ms (Nyquist 500 Hz): a band of constant Q that reaches Nyquist (given, or derived from a 200 Hz Ricker
     * as F/3,3F) and a reference frequency at or above it are refused with one line naming the option, before anything
     * is written; a reference frequency outside the band runs with one warning line saying by what factor.
     */
    @Test
    void frequenciesTheTimeStepCannotCarryAreRefused() {
        Path out = dir.resolve("refused.npy");
        CliHarness.fails("--q-band 600,700 Hz reaches the Nyquist frequency 500 Hz of dt=0.001 s: give a band whose"
                + " upper end lies below 500 Hz, or a smaller dt", forward(out, "--ricker", "12", "--q-band", "600,700"));
        CliHarness.fails("--q-band 400,600 Hz reaches the Nyquist frequency 500 Hz",
                forward(out, "--ricker", "12", "--q-band", "400,600"));
        CliHarness.fails("--q-band 3.333e+08,3e+09 Hz reaches the Nyquist frequency 500 Hz",
                forward(out, "--ricker", "12", "--q-band", "1e9"));
        CliHarness.fails("--q-band 66.67,600 Hz reaches the Nyquist frequency 500 Hz",
                forward(out, "--ricker", "200"));
        CliHarness.fails("--f-ref 1000 Hz lies at or above the Nyquist frequency 500 Hz of dt=0.001 s: give a reference"
                + " frequency below 500 Hz", forward(out, "--ricker", "12", "--f-ref", "1000"));
        CliHarness.fails("--f-ref 600 Hz lies at or above the Nyquist frequency 500 Hz",
                forward(out, "--ricker", "12", "--f-ref", "600"));
        CliHarness.fails("--q-band: q_band must satisfy 0 < FMIN < FMAX (Hz), got 0.0,20.0",
                forward(out, "--ricker", "12", "--q-band", "0,20"));
        CliHarness.fails("--q-band: q_band must satisfy 0 < FMIN < FMAX (Hz), got 5.0,Infinity",
                forward(out, "--ricker", "12", "--q-band", "5,Infinity"));
        CliHarness.fails("--f-ref: f_ref must be positive and finite (Hz), got NaN",
                forward(out, "--ricker", "12", "--f-ref", "NaN"));
        assertFalse(Files.exists(out), "nothing written");

        CliHarness.Result low = CliHarness.run(forward(out, "--ricker", "12", "--f-ref", "1e-9"));
        assertEquals(0, low.code(), low.stderr());
        List<String> warnings = low.stderr().lines().filter(l -> l.contains("warning:")).toList();
        assertEquals(List.of("sweep forward: warning: f_ref 1e-09 Hz lies below q_band 4,36 Hz by a factor of 4e+09:"
                + " vp is the phase velocity at 1e-09 Hz of solids whose Q is constant only within the band; give an"
                + " f_ref in the band unless that is meant"), warnings);
        CliHarness.Result high = CliHarness.run(forward(out, "--ricker", "12", "--f-ref", "100"));
        assertEquals(0, high.code(), high.stderr());
        assertTrue(high.stderr().contains("warning: f_ref 100 Hz lies above q_band 4,36 Hz by a factor of 2.778"),
                high.stderr());
        CliHarness.Result inside = CliHarness.run(forward(out, "--ricker", "12", "--f-ref", "30"));
        assertEquals(0, inside.code(), inside.stderr());
        assertFalse(inside.stderr().contains("warning"), inside.stderr());
    }

    /** The same rules for an FWI job: the key named, no output folder; a warning for an f_ref outside the band. */
    @Test
    void anFwiJobFollowsTheSameRules() throws Exception {
        field("vp.npy", 2000);
        field("rho.npy", 1800);
        field("q.npy", 30);
        String base = "{\"equation\": \"visco-acoustic\", \"vp_true\": \"" + dir.resolve("vp.npy") + "\", \"rho_true\": \""
                + dir.resolve("rho.npy") + "\", \"q_true\": \"" + dir.resolve("q.npy") + "\", \"dh\": 10, \"dt\": 0.001,"
                + " \"nt\": 60, \"ricker\": 12, \"abcn\": 6, \"shots\": 1, \"threads\": 1, \"iterations\": 1,"
                + " \"out\": \"" + dir.resolve("fwi") + "\"";
        Path band = dir.resolve("band.json");
        Files.writeString(band, base + ", \"q_band\": [400, 600]}");
        CliHarness.fails("key 'q_band': q_band 400,600 Hz reaches the Nyquist frequency 500 Hz", "fwi", "--job",
                band.toString());
        Path ref = dir.resolve("ref.json");
        Files.writeString(ref, base + ", \"f_ref\": 500}");
        CliHarness.fails("key 'f_ref': f_ref 500 Hz lies at or above the Nyquist frequency 500 Hz", "fwi", "--job",
                ref.toString());
        assertFalse(Files.exists(dir.resolve("fwi")), "no output folder");
        Path low = dir.resolve("low.json");
        Files.writeString(low, base + ", \"f_ref\": 1}");
        CliHarness.Result r = CliHarness.run("fwi", "--job", low.toString());
        assertEquals(0, r.code(), r.stderr());
        assertEquals(1, r.stderr().lines().filter(l -> l.contains("sweep fwi: warning: f_ref 1 Hz lies below q_band"
                + " 4,36 Hz by a factor of 4")).count(), r.stderr());
    }
}
