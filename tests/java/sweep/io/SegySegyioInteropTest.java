package sweep.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads what {@link Segy} writes with segyio (Debian's python3-segyio, for the system {@code /usr/bin/python3}), and
 * reads with {@link SegyModel} the models segyio writes; skipped with a message when segyio cannot be imported there. scripts/test.sh installs it.
 */
class SegySegyioInteropTest {

    static final String PYTHON = "/usr/bin/python3";

    @TempDir
    Path dir;

    static Object[] python(String script, String... args) throws IOException, InterruptedException {
        String[] cmd = new String[3 + args.length];
        cmd[0] = PYTHON;
        cmd[1] = "-c";
        cmd[2] = script;
        System.arraycopy(args, 0, cmd, 3, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Object[] {-1, "timed out: " + out};
        }
        return new Object[] {p.exitValue(), out};
    }

    private static String whyMissing;
    private static boolean checked;

    @BeforeEach
    void requireSegyio() {
        if (!checked) {
            checked = true;
            if (!Files.isExecutable(Path.of(PYTHON))) {
                whyMissing = PYTHON + " not found (install Debian's python3-segyio)";
            } else {
                try {
                    Object[] r = python("import segyio, numpy; print(segyio.__version__)");
                    whyMissing = (int) r[0] == 0 ? null
                            : PYTHON + " cannot import segyio (apt-get install python3-segyio): "
                            + ((String) r[1]).strip();
                } catch (IOException | InterruptedException e) {
                    whyMissing = PYTHON + " not runnable: " + e;
                }
            }
            if (whyMissing != null) {
                System.out.println("SegySegyioInteropTest skipped: " + whyMissing);
            }
        }
        Assumptions.assumeTrue(whyMissing == null, whyMissing);
    }

    @Test
    void segyioReadsTracesSamplingAndCoordinates() throws Exception {
        int shots = 3, nt = 50, nrec = 4;
        float[] rec = SegyTest.record(shots, nt, nrec);
        double[] src = new double[3 * shots];
        double[] recv = new double[3 * shots * nrec];
        for (int b = 0; b < shots; b++) {
            src[3 * b] = 1000.5 + 250 * b;
            src[3 * b + 1] = -20.25 * b;
            src[3 * b + 2] = 12.5;
            for (int r = 0; r < nrec; r++) {
                int g = 3 * (b * nrec + r);
                recv[g] = 900 + 100 * r + 10 * b;
                recv[g + 1] = 3.75 * r;
                recv[g + 2] = 5 + r;
            }
        }
        Path sgy = dir.resolve("shots.sgy");
        Path npy = dir.resolve("shots.npy");
        Segy.write(sgy, rec, shots, nt, nrec, 0.004, src, recv, List.of("INTEROP TEST"));
        Npy.writeFloat32(npy, rec, shots, nt, nrec);
        Npy.writeFloat32(dir.resolve("src.npy"), toFloat(src), shots, 3);
        Npy.writeFloat32(dir.resolve("rec.npy"), toFloat(recv), shots, nrec, 3);
        String script = String.join("\n",
                "import sys, numpy as np, segyio",
                "d = sys.argv[1]",
                "rec = np.load(d + '/shots.npy'); src = np.load(d + '/src.npy'); rcv = np.load(d + '/rec.npy')",
                "B, nt, nrec = rec.shape",
                "T = segyio.TraceField",
                "with segyio.open(d + '/shots.sgy', ignore_geometry=True) as f:",
                "    assert f.tracecount == B * nrec, f.tracecount",
                "    assert segyio.tools.dt(f) == 4000.0, segyio.tools.dt(f)",
                "    assert len(f.samples) == nt and abs(f.samples[1] - f.samples[0] - 4.0) < 1e-9, f.samples",
                "    assert f.bin[segyio.BinField.Format] == 5",
                "    assert f.bin[segyio.BinField.Interval] == 4000 and f.bin[segyio.BinField.Samples] == nt",
                "    assert f.bin[segyio.BinField.SEGYRevision] == 0x0100, f.bin[segyio.BinField.SEGYRevision]",
                "    assert f.bin[segyio.BinField.TraceFlag] == 1 and f.bin[segyio.BinField.ExtendedHeaders] == 0",
                "    assert f.bin[segyio.BinField.Traces] == nrec",
                "    text = f.text[0]",
                "    text = text if isinstance(text, str) else bytes(text).decode('ascii')",
                "    assert 'C39 SEG Y REV1' in text and 'INTEROP TEST' in text, text[:240]",
                "    for k in range(f.tracecount):",
                "        b, r = divmod(k, nrec)",
                "        assert np.array_equal(f.trace[k], rec[b, :, r]), (k, f.trace[k], rec[b, :, r])",
                "        h = f.header[k]",
                "        assert h[T.TRACE_SEQUENCE_FILE] == k + 1 and h[T.FieldRecord] == b + 1, h",
                "        assert h[T.TraceNumber] == r + 1, h",
                "        assert h[T.TRACE_SAMPLE_COUNT] == nt and h[T.TRACE_SAMPLE_INTERVAL] == 4000, h",
                "        s = h[T.SourceGroupScalar]; e = h[T.ElevationScalar]",
                "        assert s == -100 and e == -100, (s, e)",
                "        scale = lambda v, sc: v * sc if sc > 0 else v / -sc",
                "        got = [scale(h[T.SourceX], s), scale(h[T.SourceY], s), scale(h[T.SourceDepth], e)]",
                "        assert np.allclose(got, src[b], atol=0.005), (got, src[b])",
                "        got = [scale(h[T.GroupX], s), scale(h[T.GroupY], s), -scale(h[T.ReceiverGroupElevation], e)]",
                "        assert np.allclose(got, rcv[b, r], atol=0.005), (got, rcv[b, r])",
                "print('ok')");
        Object[] r = python(script, dir.toString());
        assertEquals(0, (int) r[0], "segyio check failed:\n" + r[1]);
        assertTrue(((String) r[1]).contains("ok"), (String) r[1]);
    }

    @Test
    void modelsWrittenBySegyioAreReadAsTheirArrays() throws Exception {
        int[] shape2 = {9, 13};
        int[] shape3 = {5, 3, 4};
        float[] m2 = SegyModelTest.model(shape2);
        float[] m3 = SegyModelTest.model(shape3);
        Npy.writeFloat32(dir.resolve("m2.npy"), m2, shape2);
        Npy.writeFloat32(dir.resolve("m3.npy"), m3, shape3);
        // segyio's arrays are (traces, samples) and (inlines, crosslines, samples): the models transposed
        String script = String.join("\n",
                "import sys, numpy as np, segyio",
                "d = sys.argv[1]",
                "m2 = np.load(d + '/m2.npy'); m3 = np.load(d + '/m3.npy')",
                "segyio.tools.from_array2D(d + '/m2.sgy', np.ascontiguousarray(m2.T), dt=20000,"
                        + " format=segyio.SegySampleFormat.IBM_FLOAT_4_BYTE)",
                "segyio.tools.from_array3D(d + '/m3.sgy', np.ascontiguousarray(m3.transpose(1, 2, 0)), dt=20,"
                        + " format=segyio.SegySampleFormat.IEEE_FLOAT_4_BYTE)",
                "print('ok')");
        Object[] r = python(script, dir.toString());
        assertEquals(0, (int) r[0], "segyio failed:\n" + r[1]);
        Npy.Array a2 = ModelFiles.read(dir.resolve("m2.sgy"), "--vp", null);
        assertArrayEquals(shape2, a2.shape());
        assertArrayEquals(m2, a2.asFloat32());
        assertEquals(SegyModel.FORMAT_IBM_FLOAT, SegyModel.header(dir.resolve("m2.sgy"), "--vp").format());
        ModelFiles.checkSpacing(dir.resolve("m2.sgy"), "--vp", 20, "--dh");
        Npy.Array a3 = ModelFiles.read(dir.resolve("m3.sgy"), "--vp", null);
        assertArrayEquals(shape3, a3.shape());
        assertArrayEquals(m3, a3.asFloat32());
        ModelFiles.checkSpacing(dir.resolve("m3.sgy"), "--vp", 20, "--dh");
    }

    static float[] toFloat(double[] a) {
        float[] f = new float[a.length];
        for (int i = 0; i < a.length; i++) {
            f[i] = (float) a[i];
        }
        return f;
    }
}
