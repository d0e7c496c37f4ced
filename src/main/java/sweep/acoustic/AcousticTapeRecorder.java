package sweep.acoustic;

import java.util.List;
import sweep.backend.JavaBackend;
import sweep.core.Box;
import sweep.kernels.Pack;
import sweep.kernels.Sources;
import sweep.prop.Grid;
import sweep.prop.Storage;

/**
 * Records, on the Java backend, what a gradient-capable forward run keeps of a shot ({@link AcousticTape}, see
 * {@link Storage}): after every step, with FULL storage the step's Laplacian-plus-source term, with BOUNDARY_SAVING
 * the ring of the new level (and the last two levels after the last step); and gives the adjoint run those rings and
 * terms back ({@link #unpackRing}, {@link #term}). Keeps the buffers of transient tapes across shots.
 */
final class AcousticTapeRecorder {
    private final Grid g;
    private final AcousticStepper fwd;
    private final JavaBackend backend;
    private final Storage storage;
    private final AcousticKernelSet kernels;
    private final List<Box> all;
    private final List<Box> ring;
    private final int ringSize;
    /** The adjoint run's working levels, where a transient tape's last two levels go. */
    private final float[] lastLevel;
    private final float[] beforeLastLevel;

    /**
     * The rings of transient tapes: nt buffers of the ring size, kept across shots (a 3-D ring is megabytes: one
     * allocation per step and shot would keep the garbage collector busy).
     */
    private float[][] ringStore = new float[0][];

    /** The per-step terms of transient FULL tapes, kept across shots like {@link #ringStore}. */
    private float[][] termStore = new float[0][];

    // The arrays of the current pass, read by the loop bodies below (built once: a step allocates nothing).
    /** State of {@link #ringPass}: the wavefield, the ring buffer and the direction (true: field to buffer). */
    private float[] sRingField;
    private float[] sRingBuf;
    private boolean sRingPack;
    private float[] lapU;
    private float[] lapOut;
    private List<Box> lapBoxes;
    private final JavaBackend.ChunkBody lapPass = (c, r0, r1) -> lapRows(r0, r1);
    private final JavaBackend.ChunkBody ringPass = (c, r0, r1) -> ringRows(r0, r1);

    /**
     * A recorder for the forward stepper {@code fwd} of {@code g}; {@code lastLevel} and {@code beforeLastLevel} are
     * the adjoint run's working levels (transient boundary-saving tapes put their last two levels there).
     */
    AcousticTapeRecorder(Grid g, AcousticStepper fwd, JavaBackend backend, Storage storage, float[] lastLevel,
                 float[] beforeLastLevel) {
        this.g = g;
        this.fwd = fwd;
        this.backend = backend;
        this.storage = storage;
        this.kernels = fwd.kernels();
        this.all = List.of(g.view().allBox());
        this.ring = g.view().ringBoxes();
        this.ringSize = g.view().ringSize();
        this.lastLevel = lastLevel;
        this.beforeLastLevel = beforeLastLevel;
    }

    /** Bytes of the transient tapes' buffers. */
    long bytes() {
        return 4L * ((long) ringStore.length * ringSize + (long) termStore.length * g.length());
    }

    /** Called after forward step n (the stepper's {@code un} now holds u^n): records what the adjoint needs. */
    void record(AcousticTape tape, int n, int nt) {
        if (storage == Storage.FULL) {
            if (tape.terms == null) {
                tape.terms = tape.transientBuffers ? termStore(nt) : new float[nt][];
            }
            float[] t = tape.transientBuffers ? tape.terms[n] : new float[g.length()];
            term(fwd.un, t, all);
            Sources.add(t, tape.srcIdx, tape.wavelet, tape.srcIdx.length, nt, n);
            tape.terms[n] = t;
        } else {
            if (tape.rings == null) {
                tape.rings = tape.transientBuffers ? ringStore(nt) : new float[nt][];
            }
            if (tape.transientBuffers) {
                packRing(fwd.un, tape.rings[n]);
            } else {
                tape.rings[n] = packRing(fwd.un, new float[ringSize]);
            }
            if (n == nt - 1) {
                if (tape.transientBuffers) {
                    // straight into the adjoint run's working levels (it consumes them: no copy, no allocation)
                    System.arraycopy(fwd.u, 0, lastLevel, 0, lastLevel.length);
                    System.arraycopy(fwd.un, 0, beforeLastLevel, 0, beforeLastLevel.length);
                    tape.last = lastLevel;
                    tape.beforeLast = beforeLastLevel;
                } else {
                    tape.last = fwd.u.clone();
                    tape.beforeLast = fwd.un.clone();
                }
            }
        }
    }

    private float[][] termStore(int nt) {
        if (termStore.length != nt) {
            termStore = new float[0][]; // let the old store go before the new one is allocated
            float[][] t = new float[nt][];
            for (int n = 0; n < nt; n++) {
                t[n] = new float[g.length()];
            }
            termStore = t;
        }
        return termStore;
    }

    private float[][] ringStore(int nt) {
        if (ringStore.length != nt) {
            ringStore = new float[nt][];
            for (int n = 0; n < nt; n++) {
                ringStore[n] = new float[ringSize];
            }
        }
        return ringStore;
    }

    /** Copies the ring cells of f into buf (box after box, each in (z, y, x) order), in parallel over z rows. */
    private float[] packRing(float[] f, float[] buf) {
        ringCopy(f, buf, true);
        return buf;
    }

    /** The inverse of {@link #packRing}: a saved ring {@code buf} back into the ring cells of {@code f}. */
    void unpackRing(float[] f, float[] buf) {
        ringCopy(f, buf, false);
    }

    private void ringCopy(float[] f, float[] buf, boolean pack) {
        sRingField = f;
        sRingBuf = buf;
        sRingPack = pack;
        backend.parallelFor(0, g.nz, ringPass);
        sRingField = null;
        sRingBuf = null;
    }

    /** The z rows [r0, r1) of every ring box, between {@link #sRingField} and its place in {@link #sRingBuf}. */
    private void ringRows(int r0, int r1) {
        int off = 0;
        for (Box b : ring) {
            int za = Math.max(b.z0(), r0);
            int zb = Math.min(b.z1(), r1);
            if (za < zb) {
                int o = off + (za - b.z0()) * (b.y1() - b.y0()) * (b.x1() - b.x0());
                if (sRingPack) {
                    Pack.pack(sRingField, sRingBuf, o, g.geo, za, zb, b.y0(), b.y1(), b.x0(), b.x1());
                } else {
                    Pack.unpack(sRingField, sRingBuf, o, g.geo, za, zb, b.y0(), b.y1(), b.x0(), b.x1());
                }
            }
            off += (int) b.volume();
        }
    }

    /**
     * Writes the Laplacian term of {@code u} (with the forward stepper's CPML fields) into {@code out} on the boxes:
     * the term a FULL tape keeps (less the source), and the adjoint's d^n from a rebuilt level.
     */
    void term(float[] u, float[] out, List<Box> boxes) {
        lapU = u;
        lapOut = out;
        lapBoxes = boxes;
        backend.parallelFor(0, g.nz, lapPass);
        lapU = null;
        lapOut = null;
    }

    private void lapRows(int r0, int r1) {
        for (Box b : lapBoxes) {
            int z0 = Math.max(b.z0(), r0);
            int z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.laplacian(lapU, fwd.psi, fwd.zeta, g.coef, g.geo, lapOut, z0, z1, b);
            }
        }
    }
}
