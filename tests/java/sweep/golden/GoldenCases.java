package sweep.golden;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import sweep.elastic.ElasticSource;
import sweep.prop.PropSpec;
import sweep.prop.Storage;

/**
 * The four golden problems of {@link GoldenBytesTest} and {@link GoldenBytesMpiMain}, built through the public API only
 * (a {@link PropSpec}, a parameter-major model, wavelet, sources and receivers), and the checksum both sides use.
 * Nothing here may depend on the solver's internals: the problems must stay the same problems across a restructure.
 *
 * <p>Each problem: a heterogeneous model from a formula plus a seeded {@link Random}, a "true" model whose record is
 * pinned (and serves as observed data) and a different starting model whose misfit and gradient are pinned, two shots,
 * CPML on every side that is not a free surface. nx (and ny) are even, so that the 2-rank decompositions of
 * {@link GoldenBytesMpiMain} need no padding.
 */
final class GoldenCases {

    /** One golden problem; {@code spec} has no thread count and its equation's default storage (callers set both). */
    record Problem(String name, PropSpec spec, float[] trueModel, float[] startModel, float[] wavelet,
                   int[][][] sources, int[][][] receivers, int py, int px) {
        PropSpec spec(int threads, Storage storage) {
            return spec.toBuilder().threads(threads).storage(storage).build();
        }
    }

    private GoldenCases() {
    }

    /** Acoustic 2-D, order 8, free surface, 28 x 40 cells; decomposed px = 2. */
    static Problem acoustic2d() {
        int[] shape = {28, 40};
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(150).abcn(8).order(8).freeSurface(true).build();
        return new Problem("ACOUSTIC_2D", spec, velocity(shape, 2300, 300, 11), velocity(shape, 2250, 250, 12),
                ricker(14, 1.5 / 14, 1, spec),
                new int[][][] {{{23, 1}}, {{6, 12}, {34, 3}}}, receivers(shape, 9, 13), 1, 2);
    }

    /** Acoustic 3-D, order 4, CPML on all six sides, 12 x 16 x 16 cells (z, y, x); decomposed py = 2. */
    static Problem acoustic3d() {
        int[] shape = {12, 16, 16};
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(70).abcn(5).order(4).build();
        return new Problem("ACOUSTIC_3D", spec, velocity(shape, 2300, 300, 21), velocity(shape, 2250, 250, 22),
                ricker(25, 0.04, 1, spec),
                new int[][][] {{{11, 9, 4}}, {{4, 12, 7}, {13, 3, 9}}}, receivers(shape, 8, 23), 2, 1);
    }

    /**
     * Elastic 2-D, order 8, CPML on all four sides, 20 x 32 cells, z-force sources, p, vx, vz recorded, a fluid
     * (vs = 0) patch; decomposed px = 2.
     */
    static Problem elastic2d() {
        int[] shape = {20, 32};
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(80).abcn(6)
                .order(8).sourceType(ElasticSource.FZ.label()).recordFields("p,vx,vz").build();
        return new Problem("ELASTIC_2D", spec, elastic(shape, 1.0, 31), elastic(shape, 0.98, 32),
                ricker(20, 0.05, 1e3, spec),
                new int[][][] {{{19, 6}}, {{8, 14}, {26, 10}}}, receivers(shape, 8, 33), 1, 2);
    }

    /**
     * Elastic 3-D, order 4, free surface, 10 x 12 x 12 cells (z, y, x), explosive sources, vx, vy, vz, p recorded;
     * decomposed py = 2.
     */
    static Problem elastic3d() {
        int[] shape = {10, 12, 12};
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(8e-4).nt(50).abcn(4)
                .order(4).freeSurface(true).sourceType(ElasticSource.EXPLOSIVE.label()).recordFields("vx,vy,vz,p").build();
        return new Problem("ELASTIC_3D", spec, elastic(shape, 1.0, 41), elastic(shape, 0.98, 42),
                ricker(30, 0.027, 1e6, spec),
                new int[][][] {{{9, 7, 2}}, {{4, 10, 5}, {10, 3, 1}}}, receivers(shape, 7, 43), 2, 1);
    }

    /**
     * Variable-density acoustic 2-D, order 8, free surface, 24 x 36 cells, p and vz recorded; one domain only (the kit
     * checks its decomposed runs bit for bit).
     */
    static Problem acousticVd2d() {
        int[] shape = {24, 36};
        PropSpec spec = PropSpec.builder(shape).equation("acoustic-vd").dh(10).dt(1e-3).nt(120).abcn(6).order(8)
                .freeSurface(true).recordFields("p,vz").build();
        return new Problem("ACOUSTIC_VD_2D", spec, stack(velocity(shape, 2300, 300, 51), velocity(shape, 2000, 200,
                52)), stack(velocity(shape, 2250, 250, 53), velocity(shape, 1950, 150, 54)), ricker(15, 0.1, 1, spec),
                new int[][][] {{{20, 2}}, {{7, 11}, {30, 5}}}, receivers(shape, 8, 55), 1, 2);
    }

    /**
     * Acoustic VTI 2-D, order 8, free surface, 24 x 36 cells, epsilon 0.10-0.20 over delta 0.02-0.08 (epsilon above
     * delta in every cell); one domain only (the kit checks its decomposed runs bit for bit).
     */
    static Problem acousticVti2d() {
        int[] shape = {24, 36};
        PropSpec spec = PropSpec.builder(shape).equation("acoustic-vti").dh(10).dt(1e-3).nt(120).abcn(6).order(8)
                .freeSurface(true).build();
        return new Problem("ACOUSTIC_VTI_2D", spec, stack(velocity(shape, 2300, 300, 71), thomsen(shape, 0.15, 0.05,
                72), thomsen(shape, 0.05, 0.03, 73)), stack(velocity(shape, 2250, 250, 74), thomsen(shape, 0.14, 0.04,
                75), thomsen(shape, 0.05, 0.02, 76)), ricker(15, 0.1, 1, spec),
                new int[][][] {{{20, 2}}, {{7, 11}, {30, 5}}}, receivers(shape, 8, 77), 1, 2);
    }

    /**
     * Acoustic TTI 2-D, order 8, free surface, 24 x 36 cells, the VTI case's epsilon and delta with a tilt of
     * 5-45 degrees; one domain only (the kit checks its decomposed runs bit for bit).
     */
    static Problem acousticTti2d() {
        int[] shape = {24, 36};
        PropSpec spec = PropSpec.builder(shape).equation("acoustic-tti").dh(10).dt(1e-3).nt(120).abcn(6).order(8)
                .freeSurface(true).build();
        return new Problem("ACOUSTIC_TTI_2D", spec, stack(velocity(shape, 2300, 300, 71), thomsen(shape, 0.15, 0.05,
                72), thomsen(shape, 0.05, 0.03, 73), thomsen(shape, 25, 20, 78)), stack(velocity(shape, 2250, 250,
                74), thomsen(shape, 0.14, 0.04, 75), thomsen(shape, 0.05, 0.02, 76), thomsen(shape, 20, 15, 79)),
                ricker(15, 0.1, 1, spec), new int[][][] {{{20, 2}}, {{7, 11}, {30, 5}}}, receivers(shape, 8, 77), 1,
                2);
    }

    /** Visco-acoustic 3-D, order 4, CPML on all six sides, 10 x 12 x 14 cells, three solids over 5-60 Hz; one domain. */
    static Problem viscoAcoustic3d() {
        int[] shape = {10, 12, 14};
        PropSpec spec = PropSpec.builder(shape).equation("visco-acoustic").dh(10).dt(1e-3).nt(70).abcn(4).order(4)
                .setting("q_band", "5,60").setting("f_ref", "20").build();
        return new Problem("VISCO_ACOUSTIC_3D", spec, stack(velocity(shape, 2300, 300, 61), velocity(shape, 2000, 200,
                62), velocity(shape, 40, 10, 63)), stack(velocity(shape, 2250, 250, 64), velocity(shape, 1950, 150, 65),
                velocity(shape, 35, 8, 66)), ricker(25, 0.05, 1, spec),
                new int[][][] {{{9, 6, 3}}, {{3, 8, 5}, {12, 2, 7}}}, receivers(shape, 6, 67), 1, 2);
    }

    private static float[] stack(float[]... parts) {
        int n = 0;
        for (float[] q : parts) {
            n += q.length;
        }
        float[] m = new float[n];
        int o = 0;
        for (float[] q : parts) {
            System.arraycopy(q, 0, m, o, q.length);
            o += q.length;
        }
        return m;
    }

    /**
     * {@code amp} times a Ricker wavelet of peak frequency freq (Hz) centred at {@code peak} (s), sampled at t·dt;
     * computed here with {@link StrictMath} (not with the library's {@code Wavelets}), so that the inputs are the same
     * bits on any JVM. The elastic problems scale their sources up to records of order 1.
     */
    static float[] ricker(double freq, double peak, double amp, PropSpec spec) {
        float[] w = new float[spec.nt()];
        for (int t = 0; t < w.length; t++) {
            double a = StrictMath.PI * freq * (t * spec.dt() - peak);
            a *= a;
            w[t] = (float) (amp * (1.0 - 2.0 * a) * StrictMath.exp(-a));
        }
        return w;
    }

    static List<Problem> all() {
        return List.of(acoustic2d(), acoustic3d(), elastic2d(), elastic3d());
    }

    /** n receivers per shot, the same for both shots: some at the surface (z = 0), the rest anywhere. */
    static int[][][] receivers(int[] shape, int n, long seed) {
        Random rnd = new Random(seed);
        int nd = shape.length;
        List<int[]> recs = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int x = rnd.nextInt(shape[nd - 1]);
            int z = r < n / 2 ? 0 : rnd.nextInt(shape[0]);
            recs.add(nd == 2 ? new int[] {x, z} : new int[] {x, rnd.nextInt(shape[1]), z});
        }
        int[][] one = recs.toArray(new int[0][]);
        return new int[][][] {one, one};
    }

    /** A velocity: v0 plus a dipping sinusoid of amplitude amp plus 40 m/s of seeded noise per cell. */
    /** A dimensionless 2-D field v0 ± amp (a Thomsen parameter), smooth with a seeded phase, computed with StrictMath. */
    static float[] thomsen(int[] shape, double v0, double amp, long seed) {
        double phase = new Random(seed).nextDouble() * 6;
        int nz = shape[0];
        int nx = shape[1];
        float[] v = new float[nz * nx];
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                v[z * nx + x] = (float) (v0 + amp * StrictMath.sin(0.23 * z - 0.19 * x + phase));
            }
        }
        return v;
    }

    static float[] velocity(int[] shape, double v0, double amp, long seed) {
        Random rnd = new Random(seed);
        int nd = shape.length;
        int nz = shape[0];
        int ny = nd == 3 ? shape[1] : 1;
        int nx = shape[nd - 1];
        double phase = rnd.nextDouble();
        float[] v = new float[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    double s = StrictMath.sin(0.31 * z + 0.17 * x - 0.11 * y + phase);
                    v[(z * ny + y) * nx + x] = (float) (v0 + 10 * z + amp * s + 40 * rnd.nextDouble());
                }
            }
        }
        return v;
    }

    /** vp, vs, rho one after the other (parameter-major); 2-D models get a fluid patch (vs = 0) near the top. */
    static float[] elastic(int[] shape, double scale, long seed) {
        float[] vp = velocity(shape, 2500 * scale, 250, seed);
        float[] vs = velocity(shape, 1300 * scale, 150, seed + 100);
        float[] rho = velocity(shape, 2100, 200, seed + 200);
        int n = vp.length;
        int nx = shape[shape.length - 1];
        if (shape.length == 2) {
            for (int z = 2; z < 5; z++) {
                for (int x = nx / 4; x < nx / 2; x++) {
                    vs[z * nx + x] = 0;
                }
            }
        }
        float[] m = new float[3 * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(vs, 0, m, n, n);
        System.arraycopy(rho, 0, m, 2 * n, n);
        return m;
    }

    /** SHA-256 of the raw little-endian float32 bytes of {@code a}, as 64 lower-case hex digits. */
    static String sha256(float[] a) {
        ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : a) {
            b.putInt(Float.floatToRawIntBits(f));
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b.array()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The raw bits of a double as 16 hex digits. */
    static String bits(double d) {
        return String.format("%016x", Double.doubleToRawLongBits(d));
    }
}
