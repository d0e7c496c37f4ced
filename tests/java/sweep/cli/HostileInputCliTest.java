package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static sweep.cli.CliHarness.fails;
import static sweep.cli.CliHarness.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;

/**
 * Hostile command lines, second round: too many threads, malformed options (one line, no usage dump), messages in the
 * command line's own words (options, axes x/y, field names, the file and sample of a bad value), a printed stable dt
 * that runs, a Ricker wavelet above Nyquist, one case rule for names. Each ends in exit code 2 and one line.
 */
class HostileInputCliTest {
    @TempDir
    Path dir;

    private Path model(String name, int nz, int nx) {
        return CliHarness.model(dir, name, nz, nx);
    }

    private Path vs() {
        float[] v = new float[30 * 40];
        Arrays.fill(v, 1000f);
        Path p = dir.resolve("vs.npy");
        Npy.writeFloat32(p, v, 30, 40);
        return p;
    }

    private Path cells(String name, int x, int z, int count) {
        return CliHarness.cells(dir, name, 1, count, x, z);
    }

    /**
     * forward on a 30 x 40 model, 40 steps, a Ricker wavelet of 10 Hz, with {@code more} (option, value pairs; a flag
     * alone when no value follows it) replacing the options of the same name.
     */
    private String[] forward(String... more) {
        java.util.LinkedHashMap<String, String> o = new java.util.LinkedHashMap<>();
        o.put("--vp", model("vp.npy", 30, 40).toString());
        for (String[] kv : new String[][] {{"--dh", "10"}, {"--dt", "0.001"}, {"--nt", "40"}, {"--abcn", "6"},
                {"--sources", cells("src.npy", 20, 2, 1).toString()}, {"--receivers", cells("rec.npy", 2, 3, 5)
                .toString()}, {"--out", dir.resolve("r.npy").toString()}, {"--ricker", "10"}}) {
            o.put(kv[0], kv[1]);
        }
        List<String> extra = new ArrayList<>();
        for (int i = 0; i < more.length; i++) {
            boolean valued = i + 1 < more.length && !more[i + 1].startsWith("--");
            if (more[i].equals("--wavelet")) {
                o.remove("--ricker");
            }
            if (o.containsKey(more[i]) && valued) {
                o.put(more[i], more[++i]);
            } else {
                extra.add(more[i]);
            }
        }
        List<String> a = new ArrayList<>(List.of("forward"));
        o.forEach((k, v) -> a.addAll(List.of(k, v)));
        a.addAll(extra);
        return a.toArray(new String[0]);
    }

    private static String[] plus(String[] args, String... more) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    /** Item 5: thousands of threads are refused at once (they made a 40 x 60 model take 22 s a step). */
    @Test
    void absurdThreadCountsAreRefused() {
        CliHarness.Result r = fails("--threads 10000", forward("--threads", "10000"));
        assertTrue(r.err().contains("at most " + ProblemOptions.MAX_THREADS_PER_CORE
                * Runtime.getRuntime().availableProcessors()), r.err());
        assertTrue(r.seconds() < 5, "refused before computing: " + r.seconds() + " s");
        fails("--threads -1 is negative", forward("--threads", "-1"));
        fails("--threads 5000", "bench", "--threads", "1,5000");
    }

    /** Item 9: a malformed or repeated option: one line and "see --help", no 60-line usage dump. */
    @Test
    void malformedOptionsGiveOneLine() {
        for (String[] bad : List.of(forward("--nt", "0x10"), forward("--order", "x"),
                plus(forward(), "--dh", "20"), plus(forward(), "--threads", "1", "--threads", "2"),
                forward("--dh", ""), new String[] {"fwi", "--bands", "1", "--bands", "2"},
                new String[] {"bench", "--size", "0x1"})) {
            CliHarness.Result r = fails("--help", bad);
            assertFalse(r.stderr().contains("Usage:"), r.stderr());
        }
        fails("'--dh' should be specified only once", plus(forward(), "--dh", "20"));
        CliHarness.Result storage = fails("--storage", "gradient", "--storage", "disk");
        assertFalse(storage.stderr().contains("Usage:"), storage.stderr());
    }

    /** Item 10: messages name the option (not the builder's field), the file, the sample, the field labels. */
    @Test
    void messagesUseTheCommandLinesWords() {
        CliHarness.Result pml = fails("--pml-freq", forward("--pml-freq", "-3"));
        assertFalse(pml.err().contains("pmlFreq"), pml.err());
        CliHarness.Result mv = fails("--max-vel", forward("--max-vel", "-5"));
        assertFalse(mv.err().contains("maxVel"), mv.err());
        fails("--order", forward("--order", "7"));
        fails("--out is empty", forward("--out", ""));
        fails("--out: is empty", "fwi", "--out", "", "--dh", "100", "--time", "0.5", "--iterations", "1");
        fails("--ricker", forward("--ricker", "0"));

        Npy.writeFloat32(dir.resolve("empty.npy"), new float[0], 0, 60);
        CliHarness.Result empty = fails("--vp: " + dir.resolve("empty.npy"), forward("--vp",
                dir.resolve("empty.npy").toString()));
        assertTrue(empty.err().contains("[0, 60]"), empty.err());

        float[] w = new float[40];
        w[7] = Float.NaN;
        Npy.writeFloat32(dir.resolve("w.npy"), w, 40);
        CliHarness.Result wv = fails("sample 7", forward("--wavelet", dir.resolve("w.npy").toString()));
        assertTrue(wv.err().contains("--wavelet: " + dir.resolve("w.npy")), wv.err());

        String[] elastic = forward("--equation", "elastic", "--vs", vs().toString(), "--rho",
                model("rho.npy", 30, 40).toString(), "--record", "p,p,vx");
        CliHarness.Result rec = fails("p,p,vx", elastic);
        assertFalse(rec.err().contains("[P"), rec.err());

        // observed data of the wrong shape: the message says which option sets each figure
        Npy.writeFloat32(dir.resolve("obs.npy"), new float[40 * 5 * 2], 1, 40, 5, 2);
        List<String> g = new ArrayList<>(List.of(forward()));
        g.set(0, "gradient");
        int out = g.indexOf("--out");
        g.set(out, "--out-grad");
        g.addAll(List.of("--observed", dir.resolve("obs.npy").toString()));
        CliHarness.Result shape = fails("--receivers", g.toArray(new String[0]));
        assertTrue(shape.err().contains("[1, 40, 5, 1]") && shape.err().contains("--nt"), shape.err());
    }

    /** Low: a NaN or Inf in elastic observed data names its field as well as (shot, sample, receiver). */
    @Test
    void nonFiniteElasticObservedDataNameTheirField() {
        float[] obs = new float[40 * 5 * 3];
        obs[((13) * 5 + 4) * 3 + 1] = Float.POSITIVE_INFINITY; // sample 13, receiver 4, field vx
        Npy.writeFloat32(dir.resolve("obs.npy"), obs, 1, 40, 5, 3);
        List<String> g = new ArrayList<>(List.of(forward("--equation", "elastic", "--vs",
                vs().toString(), "--rho", model("rho.npy", 30, 40).toString())));
        g.set(0, "gradient");
        g.set(g.indexOf("--out"), "--out-grad");
        g.addAll(List.of("--observed", dir.resolve("obs.npy").toString()));
        fails("(shot, sample, receiver) = (0, 13, 4), field vx", g.toArray(new String[0]));
    }

    /**
     * Low: the largest stable dt printed in a CFL refusal runs when given back as --dt, also where rounding it to the
     * nearest six digits would have printed a value above the limit (a grid spacing is searched for such a limit).
     */
    @Test
    void thePrintedStableDtRuns() {
        String dh = null;
        for (int k = 0; k < 1000 && dh == null; k++) {
            double d = 10 + 0.001 * k;
            double limit = PropSpec.builder(30, 40).dh(d).dt(1e-3).nt(1).build().maxStableDt(2000);
            if (Double.parseDouble(String.format("%g", limit)) > limit) {
                dh = String.valueOf(d);
            }
        }
        assertTrue(dh != null, "no grid spacing whose stable limit rounds up");
        CliHarness.Result r = fails("largest stable dt is", forward("--dh", dh, "--dt", "0.004"));
        Matcher m = Pattern.compile("largest stable dt is ([0-9.eE+-]*[0-9])").matcher(r.err());
        assertTrue(m.find(), r.err());
        String printed = m.group(1);
        CliHarness.Result ok = run(forward("--dh", dh, "--dt", printed, "--nt", "5", "--ricker", "40"));
        assertEquals(0, ok.code(), "--dh " + dh + " --dt " + printed + ": " + ok.stderr());
        assertEquals("0.00123456", PropSpec.roundedDown(0.001234569));
    }

    /** Low: a Ricker wavelet at or above the Nyquist frequency of dt is refused, as FWI refuses its bands there. */
    @Test
    void rickerAboveNyquistIsRefused() {
        fails("Nyquist", forward("--ricker", "5000"));
        fails("Nyquist", "fwi", "--freq", "600", "--dh", "100", "--time", "0.5", "--iterations", "1", "--out",
                dir.resolve("fwi").toString());
    }

    /** Low: names are matched in any case on every path: --source-type FZ, --storage FULL, --invert VS. */
    @Test
    void namesInAnyCase() {
        String[] elastic = forward("--equation", "ELASTIC", "--vs", vs().toString(),
                "--rho", model("rho.npy", 30, 40).toString(), "--source-type", "FZ", "--record", "P,VZ", "--nt", "5");
        CliHarness.Result r = run(elastic);
        assertEquals(0, r.code(), r.stderr());
        FwiJob job = FwiJob.empty().flag("invert", "--invert", "VS,Vp");
        assertEquals(List.of("vs", "vp"), job.invert(sweep.equation.Equations.named("elastic")));
    }

    /** Low: bench refuses a size of 0 before it measures anything. */
    @Test
    void benchRefusesBadSizesAtOnce() {
        CliHarness.Result r = fails("--size", "bench", "--size", "0");
        assertTrue(r.seconds() < 2, "refused before measuring: " + r.seconds() + " s");
        fails("--repeats 0", "bench", "--repeats", "0");
    }

    /** Low: a refusal for memory when the need is below the max heap says how much is in use and free. */
    @Test
    void memoryRefusalBelowTheMaxHeapSaysWhatIsInUse() {
        long max = Runtime.getRuntime().maxMemory();
        MemoryEstimate need = MemoryEstimate.empty().add("wavefields", max - 1024);
        try {
            need.requireHeap("this run");
            throw new AssertionError("a need of the max heap less 1 KiB cannot fit beside what the JVM holds");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().contains("already in use") && e.getMessage().contains("free)"),
                    e.getMessage());
        }
    }
}
