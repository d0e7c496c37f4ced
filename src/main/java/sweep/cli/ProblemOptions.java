package sweep.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.prop.Cells;
import sweep.prop.Grid;
import sweep.prop.MemoryEstimate;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/** The options shared by {@code forward} and {@code gradient}: model, grid, time axis, acquisition and wavelet. */
public final class ProblemOptions {
    @Option(names = "--vp", required = true, description = "velocity model .npy, float32 (nz,nx) or (nz,ny,nx), m/s")
    Path vp;

    @Option(names = "--dh", required = true, split = ",",
            description = "grid spacing in m: one value, or one per axis in model order (z,[y,]x)")
    double[] dh;

    @Option(names = "--dt", required = true, description = "time step in s")
    double dt;

    @Option(names = "--nt", required = true, description = "number of time steps")
    int nt;

    @Option(names = "--order", defaultValue = "8", description = "even spatial order 2..16 (default ${DEFAULT-VALUE})")
    int order;

    @Option(names = "--abcn", defaultValue = "20", description = "CPML width in cells (default ${DEFAULT-VALUE})")
    int abcn;

    @Option(names = "--free-surface", description = "free surface (image method) on the top face")
    boolean freeSurface;

    @Option(names = "--pml-freq", defaultValue = "25", description = "CPML frequency in Hz (default ${DEFAULT-VALUE})")
    double pmlFreq;

    @Option(names = "--max-vel", defaultValue = "0",
            description = "velocity for the CPML profile, m/s (default: the model's maximum)")
    double maxVel;

    @Option(names = "--sources", required = true,
            description = "source cells .npy, int32/int64 (B, nsrc, ndim), coordinates (x,z) or (x,y,z)")
    Path sources;

    @Option(names = "--receivers", required = true,
            description = "receiver cells .npy, int32/int64 (B, nrec, ndim), coordinates (x,z) or (x,y,z)")
    Path receivers;

    @ArgGroup(exclusive = true, multiplicity = "1")
    WaveletChoice wavelet;

    /** Exactly one of --ricker and --wavelet. */
    static final class WaveletChoice {
        @Option(names = "--ricker", description = "Ricker wavelet of this peak frequency (Hz)")
        Double ricker;

        @Option(names = "--wavelet", description = "wavelet .npy, float32 (nt,) or (B, nt)")
        Path file;
    }

    @Option(names = "--threads", defaultValue = "0", description = "Java backend threads, 0 = all cores")
    int threads;

    /**
     * The problem read from the files named by the options: the spec is built (and so checked). {@code vp} is null
     * when the run is decomposed: each rank reads its tile of {@code vpFile} then.
     */
    record Problem(PropSpec spec, float[] vp, Path vpFile, int[] shape, int[][][] sources, int[][][] receivers,
                   float[] wavelet) {
    }

    /** The input files by option, for the check that no output overwrites one. */
    Map<String, Path> inputs() {
        Map<String, Path> in = new LinkedHashMap<>();
        in.put("--vp", vp);
        in.put("--sources", sources);
        in.put("--receivers", receivers);
        if (wavelet != null && wavelet.file != null) {
            in.put("--wavelet", wavelet.file);
        }
        return in;
    }

    /**
     * Reads and checks every input file; errors name the option, the file and what was seen. Before anything big is
     * allocated, the memory of the run is estimated and checked against the heap. When {@code decomposed}, only the
     * model's header is read here: each rank reads and checks its tile, and checks its memory, once its tile is known.
     * {@code gradient} is the wavefield storage of a gradient run, or null for a forward run.
     */
    Problem load(Storage gradient, boolean decomposed) {
        warnThreads(threads, "--threads");
        float[] v = null;
        int[] shape;
        if (decomposed) {
            shape = Npy.headerFloat32(vp, "--vp", null).shape();
        } else {
            Npy.Array model = Npy.readFloat32(vp, "--vp");
            shape = model.shape();
            v = model.asFloat32();
        }
        if (shape.length != 2 && shape.length != 3) {
            throw new IllegalArgumentException("--vp: " + vp + ": shape " + Arrays.toString(shape)
                    + " must be (nz, nx) or (nz, ny, nx)");
        }
        if (!decomposed) {
            Cells.checkVelocity(v, shape, null, "--vp: " + vp);
        }
        int ndim = shape.length;
        int[][][] src = coords(sources, "--sources", ndim);
        int[][][] rec = coords(receivers, "--receivers", ndim);
        PropSpec.Builder b = PropSpec.builder(shape).dh(dh).dt(dt).nt(nt).order(order).abcn(abcn)
                .freeSurface(freeSurface).pmlFreq(pmlFreq).maxVel(maxVel).threads(threads);
        if (gradient != null) {
            b.storage(gradient);
        }
        PropSpec spec = b.build();
        int shots = src.length;
        int nrec = rec[0].length;
        long waveletFloats = wavelet.ricker != null ? nt : Math.max(nt, (long) shots * nt);
        if (!decomposed) {
            Grid grid = Grid.single(spec);
            MemoryEstimate need = gradient == null ? MemoryEstimate.forward(spec, grid, shots, nrec, waveletFloats)
                    : MemoryEstimate.gradient(spec, grid, shots, nrec, waveletFloats);
            need.requireHeap("this run");
        }
        float[] w;
        if (wavelet.ricker != null) {
            w = Wavelets.ricker(wavelet.ricker, nt, dt);
        } else {
            Npy.Array wa = Npy.readFloat32(wavelet.file, "--wavelet");
            int[] ws = wa.shape();
            if ((ws.length != 1 && ws.length != 2) || ws[ws.length - 1] != nt
                    || (ws.length == 2 && ws[0] != src.length)) {
                throw new IllegalArgumentException("--wavelet: " + wavelet.file + ": shape " + Arrays.toString(ws)
                        + " must be (nt,) or (B, nt) with nt=" + nt + " and B=" + src.length);
            }
            w = wa.asFloat32();
        }
        return new Problem(spec, v, vp, shape, src, rec, w);
    }

    /** Warns on stderr when {@code threads} is more than the cores this process may use. */
    static void warnThreads(int threads, String flag) {
        int cores = Runtime.getRuntime().availableProcessors();
        if (threads > cores) {
            System.err.println("sweep: warning: " + flag + " " + threads + " is more than the " + cores + " core(s)"
                    + " this process may use: the extra threads only compete for them and slow the run down");
        }
    }

    /** Reads a (B, n, ndim) integer coordinate file; every shot needs at least one cell. */
    static int[][][] coords(Path path, String what, int ndim) {
        Npy.Array a = Npy.readInts(path, what, new int[] {-1, -1, ndim});
        int[] s = a.shape();
        if (s[0] < 1) {
            throw new IllegalArgumentException(what + ": " + path + " holds no shot (B = 0)");
        }
        if (s[1] < 1) {
            String cell = what.contains("source") ? "source" : "receiver";
            throw new IllegalArgumentException(what + ": " + path + " has shape " + Arrays.toString(s) + ": no " + cell
                    + " in any shot; every shot needs at least one");
        }
        int[] d = a.asInt32();
        int[][][] c = new int[s[0]][s[1]][ndim];
        for (int b = 0; b < s[0]; b++) {
            for (int p = 0; p < s[1]; p++) {
                for (int k = 0; k < ndim; k++) {
                    c[b][p][k] = d[(b * s[1] + p) * ndim + k];
                }
            }
        }
        return c;
    }

    /**
     * Throws when the record {@code data} (B, nt, nrec[, 1]) read from {@code file} holds NaN or Inf, naming the file
     * and the (shot, sample, receiver) of the first such value.
     */
    static void checkFiniteRecord(float[] data, int nt, int nrec, Path file, String what) {
        for (int i = 0; i < data.length; i++) {
            if (!Float.isFinite(data[i])) {
                long r = i % nrec;
                long t = (i / nrec) % nt;
                long b = i / ((long) nrec * nt);
                throw new IllegalArgumentException(what + ": " + file + " holds " + data[i] + " at (shot, sample,"
                        + " receiver) = (" + b + ", " + t + ", " + r + "): observed data must be finite; fix or"
                        + " remove that trace");
            }
        }
    }
}
