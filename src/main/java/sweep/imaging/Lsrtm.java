package sweep.imaging;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import sweep.io.AtomicFiles;
import sweep.io.IoErrors;

/**
 * Least-squares reverse-time migration: conjugate gradients on the normal equations (CGLS) of the Born operator J,
 * min ‖J·m − d‖², from m = 0 (whose first direction is the RTM image Jᵀ·d). Each iteration costs one Born run and one
 * adjoint run; the data residual ‖d − J·m‖ falls monotonically (in exact arithmetic). The state after each iteration
 * can be saved and read back ({@link #save}, {@link #load}) so that a killed run resumes where it stopped.
 */
public final class Lsrtm {
    private static final long MAGIC = 0x53574c5352544d31L; // "SWLSRTM1"

    private Lsrtm() {
    }

    /** The Born operator and its adjoint on whole vectors: a model-shaped perturbation and a whole record. */
    public interface Operator {
        /** J·dm: the Born record of the perturbation {@code dm}. */
        float[] born(float[] dm);

        /** Jᵀ·d: the image of the record {@code d}. */
        float[] adjoint(float[] d);
    }

    /**
     * The CGLS state after {@code iteration} iterations: the image m, the search direction p, the data residual
     * r = d − J·m, γ = ‖Jᵀ·r‖² and the residual norms ‖r_k‖ of iterations 0 .. iteration.
     */
    public record State(int iteration, float[] image, float[] direction, float[] residual, double gamma,
                        List<Double> residualNorms) {
    }

    /** The state before the first iteration: m = 0, r = d, p = Jᵀ·d (one adjoint run). */
    public static State start(Operator op, float[] data) {
        float[] r = data.clone();
        float[] s = op.adjoint(r);
        double norm = Math.sqrt(dot(r, r));
        if (!(norm > 0)) {
            throw new IllegalArgumentException("the data are zero: there is nothing to migrate");
        }
        return new State(0, new float[s.length], s, r, dot(s, s), List.of(norm));
    }

    /** One CGLS iteration from {@code st} (one Born run, one adjoint run). */
    public static State iterate(Operator op, State st) {
        float[] p = st.direction();
        float[] q = op.born(p);
        double qq = dot(q, q);
        if (!(qq > 0) || !(st.gamma() > 0)) {
            throw new IllegalStateException("least-squares migration stalled at iteration " + (st.iteration() + 1)
                    + ": the Born record of the search direction is zero (the data residual is orthogonal to every"
                    + " image the sources illuminate)");
        }
        double alpha = st.gamma() / qq;
        float[] m = st.image().clone();
        for (int i = 0; i < m.length; i++) {
            m[i] += (float) (alpha * p[i]);
        }
        float[] r = st.residual().clone();
        for (int i = 0; i < r.length; i++) {
            r[i] -= (float) (alpha * q[i]);
        }
        float[] s = op.adjoint(r);
        double gamma = dot(s, s);
        double beta = gamma / st.gamma();
        float[] pn = new float[p.length];
        for (int i = 0; i < pn.length; i++) {
            pn[i] = (float) (s[i] + beta * p[i]);
        }
        List<Double> norms = new ArrayList<>(st.residualNorms());
        norms.add(Math.sqrt(dot(r, r)));
        return new State(st.iteration() + 1, m, pn, r, gamma, List.copyOf(norms));
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    /** Writes {@code st} of job {@code job} to {@code file} atomically, with a checksum. */
    public static void save(Path file, long job, State st) {
        AtomicFiles.writeStream(file, "LSRTM checkpoint", raw -> {
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(new CheckedOutputStream(raw, crc));
            out.writeLong(MAGIC);
            out.writeLong(job);
            out.writeInt(st.iteration());
            out.writeDouble(st.gamma());
            out.writeInt(st.residualNorms().size());
            for (double n : st.residualNorms()) {
                out.writeDouble(n);
            }
            for (float[] a : new float[][] {st.image(), st.direction(), st.residual()}) {
                out.writeInt(a.length);
                for (float v : a) {
                    out.writeFloat(v);
                }
            }
            out.flush();
            new DataOutputStream(raw).writeLong(crc.getValue());
        });
    }

    /**
     * The state saved in {@code file} for job {@code job} with images of {@code cells} values and records of
     * {@code samples}; refuses (IllegalArgumentException, naming the file and what to do) a damaged file, another
     * job's, or other sizes.
     */
    public static State load(Path file, long job, int cells, int samples) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            CRC32C crc = new CRC32C();
            DataInputStream body = new DataInputStream(new CheckedInputStream(in, crc));
            if (body.readLong() != MAGIC) {
                throw refused(file, "is not an LSRTM checkpoint of sweep");
            }
            if (body.readLong() != job) {
                throw refused(file, "belongs to another job (other inputs or settings)");
            }
            int iteration = body.readInt();
            double gamma = body.readDouble();
            int n = body.readInt();
            if (n != iteration + 1 || n < 1) {
                throw refused(file, "is damaged");
            }
            List<Double> norms = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                norms.add(body.readDouble());
            }
            float[][] arrays = new float[3][];
            int[] sizes = {cells, cells, samples};
            for (int k = 0; k < 3; k++) {
                int len = body.readInt();
                if (len != sizes[k]) {
                    throw refused(file, "holds arrays of another size");
                }
                arrays[k] = new float[len];
                for (int i = 0; i < len; i++) {
                    arrays[k][i] = body.readFloat();
                }
            }
            if (in.readLong() != crc.getValue() || in.read() != -1) {
                throw refused(file, "is damaged (checksum)");
            }
            return new State(iteration, arrays[0], arrays[1], arrays[2], gamma, List.copyOf(norms));
        } catch (EOFException e) {
            throw refused(file, "is truncated");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + IoErrors.reason(file, e), e);
        }
    }

    private static IllegalArgumentException refused(Path file, String why) {
        return new IllegalArgumentException(file + " " + why + ": delete it, or run without --resume to start"
                + " afresh");
    }
}
