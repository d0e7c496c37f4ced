package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.io.Npy;

/** {@code sweep gradient} end to end through files: zero at the true model, and a finite-difference check. */
class GradientCommandTest {
    @TempDir
    Path dir;

    static final int NZ = 30;
    static final int NX = 40;
    static final int NT = 300;

    private String run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        System.out.flush();
        assertEquals(0, code, err.toString());
        return out.toString();
    }

    private Path model(String name, double shift, double bump) {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                double r2 = Math.pow(z - 15, 2) + Math.pow(x - 20, 2);
                v[z * NX + x] = (float) (2000 + 10 * z + shift * Math.exp(-r2 / 40) + bump * Math.sin(0.2 * x + 0.1 * z));
            }
        }
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, v, NZ, NX);
        return p;
    }

    private String[] common(Path vp) {
        return new String[] {"--vp", vp.toString(), "--dh", "10", "--dt", "0.001", "--nt", String.valueOf(NT),
            "--abcn", "8", "--max-vel", "2600", "--sources", dir.resolve("src.npy").toString(), "--receivers",
            dir.resolve("rec.npy").toString(), "--ricker", "12", "--threads", "1"};
    }

    private static String[] cat(String[] a, String... b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /**
     * The gradient file {@code g} along the direction of {@link #model}'s sinusoid of amplitude 1 m/s (the difference
     * of two written models, the start {@code v0} and the start with the sinusoid).
     */
    private double alongTheSinusoid(Path g, Path v0) {
        float[] grad = Npy.readFloat32(g, "g").asFloat32();
        float[] a = Npy.readFloat32(model("dirA.npy", 0, 1), "a").asFloat32();
        float[] b = Npy.readFloat32(v0, "b").asFloat32();
        double analytic = 0;
        for (int i = 0; i < grad.length; i++) {
            analytic += grad[i] * (double) (a[i] - b[i]);
        }
        return analytic;
    }

    private double misfitVia(Path vp, Path obs) {
        Path out = dir.resolve("syn.npy");
        run(cat(cat(new String[] {"forward"}, common(vp)), "--out", out.toString()));
        float[] syn = Npy.readFloat32(out, "syn").asFloat32();
        float[] o = Npy.readFloat32(obs, "obs").asFloat32();
        double j = 0;
        for (int i = 0; i < syn.length; i++) {
            double r = (double) syn[i] - o[i];
            j += 0.5 * r * r;
        }
        return j;
    }

    @Test
    void gradientIsZeroAtTheTrueModelAndMatchesFiniteDifferences() {
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {8, 3, 30, 4}, 2, 1, 2);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {2, 25, 20, 28, 37, 25, 2, 25, 20, 28, 37, 25}, 2, 3, 2);
        Path vTrue = model("true.npy", 300, 0);
        Path v0 = model("start.npy", 0, 0);
        Path obs = dir.resolve("obs.npy");
        run(cat(cat(new String[] {"forward"}, common(vTrue)), "--out", obs.toString()));

        Path g0 = dir.resolve("g0.npy");
        String printed = run(cat(cat(new String[] {"gradient"}, common(vTrue)), "--observed", obs.toString(),
                "--out-grad", g0.toString(), "--storage", "full"));
        assertTrue(printed.contains("misfit 0.000000000e+00"), printed);
        for (float f : Npy.readFloat32(g0, "g0").asFloat32()) {
            assertEquals(0f, f, "zero residual gives a zero gradient");
        }

        Path g = dir.resolve("g.npy");
        run(cat(cat(new String[] {"gradient"}, common(v0)), "--observed", obs.toString(), "--out-grad",
                g.toString(), "--storage", "full"));
        double analytic = alongTheSinusoid(g, v0);
        double eps = 8;
        double jp = misfitVia(model("p.npy", 0, eps), obs);
        double jm = misfitVia(model("m.npy", 0, -eps), obs);
        double fd = (jp - jm) / (2 * eps);
        double rel = Math.abs(fd - analytic) / Math.abs(fd);
        System.out.printf("sweep gradient CLI: directional derivative %.6e vs finite difference %.6e (rel %.2e)%n",
                analytic, fd, rel);
        assertTrue(rel < 5e-3, "relative error " + rel);
    }

    /** The trace-normalised correlation of two {@code (B, nt, nrec)} records, written independently of the solver. */
    private static double ncc(float[] syn, float[] obs, int shots, int nrec) {
        double j = 0;
        for (int b = 0; b < shots; b++) {
            for (int r = 0; r < nrec; r++) {
                double ss = 0;
                double oo = 0;
                double so = 0;
                for (int t = 0; t < NT; t++) {
                    int i = (b * NT + t) * nrec + r;
                    ss += (double) syn[i] * syn[i];
                    oo += (double) obs[i] * obs[i];
                    so += (double) syn[i] * obs[i];
                }
                j += ss == 0 || oo == 0 ? 0 : 1 - so / Math.sqrt(ss * oo);
            }
        }
        return j;
    }

    /**
     * --misfit ncc: the gradient file against central differences of an independently computed trace-normalised
     * correlation of forward records; an observed trace of zeros adds nothing and is reported.
     */
    @Test
    void nccGradientMatchesFiniteDifferencesAndZeroTracesAreReported() throws Exception {
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {8, 3, 30, 4}, 2, 1, 2);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {2, 25, 20, 28, 37, 25, 2, 25, 20, 28, 37, 25}, 2, 3, 2);
        Path vTrue = model("true.npy", 300, 0);
        Path v0 = model("start.npy", 0, 0);
        Path obs = dir.resolve("obs.npy");
        run(cat(cat(new String[] {"forward"}, common(vTrue)), "--out", obs.toString()));
        float[] o = Npy.readFloat32(obs, "obs").asFloat32();
        for (int t = 0; t < NT; t++) {
            o[(NT + t) * 3 + 2] = 0; // shot 1, receiver 2: a dead trace
        }
        Npy.writeFloat32(obs, o, 2, NT, 3, 1);
        Path g = dir.resolve("g.npy");
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            run(cat(cat(new String[] {"gradient"}, common(v0)), "--observed", obs.toString(), "--out-grad",
                    g.toString(), "--storage", "full", "--misfit", "ncc"));
        } finally {
            System.setErr(stderr);
        }
        String err = said.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(err.contains("1 of 6 traces have a zero synthetic or observed norm"), err);
        double analytic = alongTheSinusoid(g, v0);
        double eps = 8;
        Path syn = dir.resolve("syn.npy");
        run(cat(cat(new String[] {"forward"}, common(model("p.npy", 0, eps))), "--out", syn.toString()));
        double jp = ncc(Npy.readFloat32(syn, "syn").asFloat32(), o, 2, 3);
        run(cat(cat(new String[] {"forward"}, common(model("m.npy", 0, -eps))), "--out", syn.toString()));
        double jm = ncc(Npy.readFloat32(syn, "syn").asFloat32(), o, 2, 3);
        double fd = (jp - jm) / (2 * eps);
        double rel = Math.abs(fd - analytic) / Math.abs(fd);
        System.out.printf("sweep gradient --misfit ncc: directional derivative %.6e vs finite difference %.6e"
                + " (rel %.2e)%n", analytic, fd, rel);
        assertTrue(rel < 5e-3, "relative error " + rel);
    }
}
