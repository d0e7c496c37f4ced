package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sweep.core.FdWeights;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * {@code sweep forward} and {@code sweep gradient} with {@code --equation elastic}: the files equal, bit for bit, what
 * the library's elastic solver returns for the same problem (record {@code (B, nt, nrec, nfield)} in the order of
 * --record; gradient {@code (3, nz, nx)} = dJ/dvp, dJ/dvs, dJ/drho; the misfit printed); and every bad elastic input
 * ends in exit code 2 with one line naming the option, the value and (for a model cell) its position, before any step.
 */
class ElasticCommandTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private Result run(String... args) {
        PrintStream old = System.err;
        ByteArrayOutputStream sys = new ByteArrayOutputStream();
        System.setErr(new PrintStream(sys, true, StandardCharsets.UTF_8));
        StringWriter out = new StringWriter();
        int code;
        try {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out));
            code = cl.execute(args);
        } finally {
            System.setErr(old);
        }
        return new Result(code, out.toString(), sys.toString(StandardCharsets.UTF_8));
    }

    private void fails(String fragment, List<String> args) {
        Result r = run(args.toArray(new String[0]));
        assertEquals(2, r.code(), args + "\n" + r.err());
        List<String> lines = r.err().lines().filter(l -> l.contains(": error: ")).toList();
        assertEquals(1, lines.size(), "one error line: " + r.err());
        assertTrue(lines.get(0).contains(fragment), "message should say '" + fragment + "': " + lines.get(0));
        assertFalse(Pattern.compile("java\\.|Exception|\\bat sweep\\.").matcher(r.err()).find(), r.err());
    }

    static final int NZ = 26;
    static final int NX = 34;

    /** vp, vs, rho of a layered 2-D model with a water layer on top (vs = 0) and a bump. */
    static float[][] model(int nz, int nx, double bump) {
        int n = nz * nx;
        float[] vp = new float[n];
        float[] vs = new float[n];
        float[] rho = new float[n];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int i = z * nx + x;
                double b = bump * Math.exp(-((z - 15) * (z - 15) + (x - 17) * (x - 17)) / 20.0);
                boolean water = z < 3;
                vp[i] = (float) (water ? 1500 : 2400 + 20 * z + b);
                vs[i] = (float) (water ? 0 : 1200 + 10 * z + 0.5 * b);
                rho[i] = (float) (water ? 1000 : 2000 + 5 * z);
            }
        }
        return new float[][] {vp, vs, rho};
    }

    private Path write(String name, float[] a, int... shape) {
        Path p = dir.resolve(name);
        Npy.writeFloat32(p, a, shape);
        return p;
    }

    private List<String> common(String vp, String vs, String rho) {
        return new ArrayList<>(List.of("--equation", "elastic", "--vp", vp, "--vs", vs, "--rho", rho, "--dh", "10",
                "--dt", "0.001", "--nt", "220", "--order", "8", "--abcn", "8", "--free-surface", "--sources",
                dir.resolve("src.npy").toString(), "--receivers", dir.resolve("rec.npy").toString(), "--ricker", "12",
                "--source-type", "fz", "--record", "vz,p,vx"));
    }

    private static final int[][][] SRC = {{{10, 5}}, {{24, 6}}};
    private static final int[][][] REC = {{{2, 0}, {17, 0}, {33, 4}, {17, 20}}, {{2, 0}, {17, 0}, {33, 4}, {17, 20}}};

    private void acquisition() {
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {10, 5, 24, 6}, 2, 1, 2);
        int[] rec = new int[2 * 4 * 2];
        for (int b = 0; b < 2; b++) {
            for (int r = 0; r < 4; r++) {
                rec[(b * 4 + r) * 2] = REC[b][r][0];
                rec[(b * 4 + r) * 2 + 1] = REC[b][r][1];
            }
        }
        Npy.writeInt32(dir.resolve("rec.npy"), rec, 2, 4, 2);
    }

    /** The problem of the CLI runs below: source type fz, fields vz, p, vx in that order. */
    private static PropSpec spec(Storage storage) {
        return PropSpec.builder(NZ, NX).equation("elastic").dh(10).dt(1e-3).nt(220).order(8).abcn(8)
                .freeSurface(true).storage(storage).sourceType("fz").recordFields("vz,p,vx").build();
    }

    /** vp, vs and rho one after the other: the facade's elastic model. */
    private static float[] stacked(float[] vp, float[] vs, float[] rho) {
        int n = vp.length;
        float[] out = new float[3 * n];
        System.arraycopy(vp, 0, out, 0, n);
        System.arraycopy(vs, 0, out, n, n);
        System.arraycopy(rho, 0, out, 2 * n, n);
        return out;
    }

    @Test
    void forwardAndGradientFilesEqualTheLibrarysBits() {
        acquisition();
        float[][] m = model(NZ, NX, 150);
        float[][] m0 = model(NZ, NX, 0);
        String vp = write("vp.npy", m[0], NZ, NX).toString();
        String vs = write("vs.npy", m[1], NZ, NX).toString();
        String rho = write("rho.npy", m[2], NZ, NX).toString();
        String vp0 = write("vp0.npy", m0[0], NZ, NX).toString();
        String vs0 = write("vs0.npy", m0[1], NZ, NX).toString();
        Path obs = dir.resolve("obs.npy");
        List<String> a = common(vp, vs, rho);
        a.addAll(0, List.of("forward"));
        a.addAll(List.of("--out", obs.toString()));
        Result f = run(a.toArray(new String[0]));
        assertEquals(0, f.code(), f.err());
        Npy.Array rec = Npy.readFloat32(obs, "obs");
        assertArrayEquals(new int[] {2, 220, 4, 3}, rec.shape());
        float[] w = Wavelets.ricker(12, 220, 1e-3);
        try (Propagator p = new Propagator(spec(Storage.BOUNDARY_SAVING))) {
            Record r = p.forward(w, SRC, REC, stacked(m[0], m[1], m[2]));
            assertArrayEquals(r.data(), rec.asFloat32());
        }
        for (Storage st : new Storage[] {Storage.FULL, Storage.BOUNDARY_SAVING}) {
            Path g = dir.resolve("g-" + st + ".npy");
            List<String> b = common(vp0, vs0, rho);
            b.addAll(0, List.of("gradient"));
            b.addAll(List.of("--observed", obs.toString(), "--out-grad", g.toString(), "--storage",
                    st == Storage.FULL ? "full" : "boundary"));
            Result gr = run(b.toArray(new String[0]));
            assertEquals(0, gr.code(), gr.err());
            Npy.Array ga = Npy.readFloat32(g, "g");
            assertArrayEquals(new int[] {3, NZ, NX}, ga.shape());
            try (Propagator p = new Propagator(spec(st))) {
                Gradient ref = p.forwardAndGradient(w, SRC, REC, stacked(m0[0], m0[1], m[2]), rec.asFloat32(),
                        Misfit.L2);
                assertArrayEquals(ref.parameters(), ga.asFloat32(), st.toString());
                assertEquals(String.format("misfit %.9e", ref.misfit()), gr.out().strip());
                assertTrue(ref.misfit() > 0);
            }
        }
    }

    @Test
    void threeDimensionalForwardWithAForceAlongY() {
        int nz = 12;
        int ny = 14;
        int nx = 16;
        int n = nz * ny * nx;
        float[] vp = new float[n];
        float[] vs = new float[n];
        float[] rho = new float[n];
        Arrays.fill(vp, 2500f);
        Arrays.fill(vs, 1300f);
        Arrays.fill(rho, 2100f);
        String vpf = write("vp3.npy", vp, nz, ny, nx).toString();
        String vsf = write("vs3.npy", vs, nz, ny, nx).toString();
        String rhof = write("rho3.npy", rho, nz, ny, nx).toString();
        Npy.writeInt32(dir.resolve("s3.npy"), new int[] {8, 7, 5}, 1, 1, 3);
        Npy.writeInt32(dir.resolve("r3.npy"), new int[] {3, 7, 5, 8, 2, 9}, 1, 2, 3);
        Path out = dir.resolve("r3-out.npy");
        Result r = run("forward", "--equation", "elastic", "--vp", vpf, "--vs", vsf, "--rho", rhof, "--dh", "10",
                "--dt", "8e-4", "--nt", "60", "--order", "4", "--abcn", "5", "--sources",
                dir.resolve("s3.npy").toString(), "--receivers", dir.resolve("r3.npy").toString(), "--ricker", "15",
                        "--source-type", "fy", "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        PropSpec spec = PropSpec.builder(nz, ny, nx).equation("elastic").dh(10).dt(8e-4).nt(60)
                .order(4).abcn(5).sourceType("fy").build();
        try (Propagator p = new Propagator(spec)) {
            Record ref = p.forward(Wavelets.ricker(15, 60, 8e-4), new int[][][] {{{8, 7, 5}}},
                    new int[][][] {{{3, 7, 5}, {8, 2, 9}}}, stacked(vp, vs, rho));
            Npy.Array got = Npy.readFloat32(out, "out");
            assertArrayEquals(new int[] {1, 60, 2, 4}, got.shape()); // default fields p, vx, vy, vz
            assertArrayEquals(ref.data(), got.asFloat32());
        }
    }

    @Test
    void badElasticInputEndsWithOneLine() {
        acquisition();
        float[][] m = model(NZ, NX, 0);
        String vp = write("vp.npy", m[0], NZ, NX).toString();
        String vs = write("vs.npy", m[1], NZ, NX).toString();
        String rho = write("rho.npy", m[2], NZ, NX).toString();
        String out = dir.resolve("o.npy").toString();
        // options of the other equation
        List<String> a = new ArrayList<>(List.of("forward", "--vp", vp, "--vs", vs, "--dh", "10", "--dt", "0.001",
                "--nt", "20", "--sources", dir.resolve("src.npy").toString(), "--receivers",
                dir.resolve("rec.npy").toString(), "--ricker", "12", "--out", out));
        fails("--vs is an option of --equation elastic", a);
        List<String> b = common(vp, vs, rho);
        b.remove("--rho");
        b.remove(rho);
        b.addAll(0, List.of("forward"));
        b.addAll(List.of("--out", out));
        fails("--equation elastic needs --rho", b);
        // shapes, values with their positions
        String small = write("small.npy", new float[NZ * (NX - 1)], NZ, NX - 1).toString();
        fails("differs from --vp's [26, 34]", forward(vp, small, rho, out));
        float[] bad = m[2].clone();
        bad[7 * NX + 11] = Float.NaN;
        fails("--rho: " + dir.resolve("bad.npy") + " holds a non-finite value (NaN) at (z, x) = (7, 11)",
                forward(vp, vs, write("bad.npy", bad, NZ, NX).toString(), out));
        bad = m[2].clone();
        bad[9 * NX + 3] = 0;
        fails("holds a non-positive density (0.0 kg/m³) at (z, x) = (9, 3)",
                forward(vp, vs, write("bad2.npy", bad, NZ, NX).toString(), out));
        bad = m[1].clone();
        bad[12 * NX + 30] = m[0][12 * NX + 30];
        fails("is not below vp·√3/2", forward(vp, write("bad3.npy", bad, NZ, NX).toString(), rho, out));
        fails("at (z, x) = (12, 30)", forward(vp, write("bad3.npy", bad, NZ, NX).toString(), rho, out));
        // fields, source types
        List<String> c = forward(vp, vs, rho, out);
        c.set(c.indexOf("vz,p,vx"), "p,vy");
        fails("--record: vy is recorded in 3-D only", c);
        c = forward(vp, vs, rho, out);
        c.set(c.indexOf("fz"), "fy");
        fails("--source-type: fy needs a 3-D model", c);
        c = forward(vp, vs, rho, out);
        c.set(c.indexOf("fz"), "torque");
        fails("unknown elastic source type 'torque'", c);
        // the stable dt, with the largest stable one named
        c = forward(vp, vs, rho, out);
        c.set(c.indexOf("0.001"), "0.003");
        double vmax = 0;
        for (float v : m[0]) {
            vmax = Math.max(vmax, v);
        }
        double limit = 10 / (vmax * Math.sqrt(2) * FdWeights.staggeredAbsSum(8));
        fails("the largest stable dt is " + PropSpec.roundedDown(limit), c);
        // outputs first, memory up front
        fails("--out", forward(vp, vs, rho, rho));
        c = forward(vp, vs, rho, out);
        c.set(c.indexOf("220"), "80000000"); // a record of 7.7 GB: beyond the test JVM's heap
        fails("needs about", c);
        // observed data of another field count
        Path obs = write("obs1.npy", new float[2 * 220 * 4], 2, 220, 4, 1);
        List<String> g = common(vp, vs, rho);
        g.addAll(0, List.of("gradient"));
        g.addAll(List.of("--observed", obs.toString(), "--out-grad", dir.resolve("g.npy").toString()));
        fails("expected [2, 220, 4, 3] = (B, nt, nrec, nfield)", g);
        assertFalse(Files.exists(Path.of(out)));
    }

    private List<String> forward(String vp, String vs, String rho, String out) {
        List<String> a = common(vp, vs, rho);
        a.addAll(0, List.of("forward"));
        a.addAll(List.of("--out", out));
        return a;
    }
}
