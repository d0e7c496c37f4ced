package sweep.prop;

import java.util.Arrays;
import java.util.List;
import sweep.backend.JavaBackend;
import sweep.kernels.ElasticSources;
import sweep.kernels.Sources;

/**
 * Single-domain isotropic elastic solver (velocity–stress, staggered grid, C-PML, optional free surface at z = 0):
 * forward modelling of a batch of shots through a (vp, vs, rho) model on the Java backend. The spec must have
 * {@link PropSpec.Equation#ELASTIC}; its CFL check uses the elastic limit. Conventions (nodes, time levels, source
 * scaling, receivers) are those of docs/elastic.md. Not thread-safe: one forward at a time.
 */
public final class ElasticPropagator implements AutoCloseable {
    private final PropSpec spec;
    private final Grid grid;
    private final JavaBackend backend;
    private ElasticStepper stepper;
    private double pmlVelocity;

    /** A single-domain elastic solver for {@code spec}. */
    public ElasticPropagator(PropSpec spec) {
        this(spec, Grid.single(spec));
    }

    /** A solver for one tile {@code grid} of {@code spec} (no neighbours yet: the halo exchange comes later). */
    ElasticPropagator(PropSpec spec, Grid grid) {
        if (spec.equation() != PropSpec.Equation.ELASTIC) {
            throw new IllegalArgumentException("ElasticPropagator needs a spec with equation ELASTIC, got "
                    + spec.equation() + ": build it with PropSpec.builder(...).equation(PropSpec.Equation.ELASTIC)");
        }
        this.spec = spec;
        this.grid = grid;
        this.backend = new JavaBackend(spec.threads());
    }

    public PropSpec spec() {
        return spec;
    }

    public Grid grid() {
        return grid;
    }

    /** Bytes of field, parameter and CPML memory this solver holds now (0 before the first forward). */
    public long bytesHeld() {
        return stepper == null ? 0 : stepper.bytes();
    }

    /**
     * Sets the CPML profile velocity when the spec leaves maxVel at 0 (a decomposed run passes the global largest vp so
     * that every tile builds the same profile); 0 restores the model's own largest vp.
     */
    public void setPmlVelocity(double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("PML velocity must be >= 0 and finite, got " + v);
        }
        this.pmlVelocity = v;
    }

    /** Forward modelling without snapshots; see {@link #forward(float[], int[][][], ElasticSource, int[][][], List, ElasticModel, int, ElasticListener)}. */
    public Record forward(float[] wavelet, int[][][] sources, ElasticSource type, int[][][] receivers,
                          List<ElasticField> fields, ElasticModel model) {
        return forward(wavelet, sources, type, receivers, fields, model, 0, null);
    }

    /**
     * Runs B shots and returns their records {@code (B, nt, nrec, nfield)}, fields in the order of {@code fields}:
     * sample t holds p at t·dt and velocities at (t+½)·dt, each at its own node of the receiver's cell.
     *
     * @param wavelet   source time function w (moment rate for explosive sources, force for fx/fy/fz; sample t is
     *                  w(t·dt)): {@code nt} values shared, {@code (B, nt)} or {@code (B, nsrc, nt)} (see
     *                  {@link ShotWavelets})
     * @param sources   per shot, source cells (x, z) or (x, y, z) of the physical model
     * @param type      the kind of every source of the run
     * @param receivers per shot, receiver cells, same convention; every shot has the same number of receivers
     * @param fields    the recorded fields, in record order (p, vx, vz, and vy in 3-D)
     * @param model     vp, vs, rho in the spec's physical shape
     * @param snapshotEvery when positive, {@code listener} receives the fields every so many steps
     * @param listener  snapshot receiver, or null
     */
    public Record forward(float[] wavelet, int[][][] sources, ElasticSource type, int[][][] receivers,
                          List<ElasticField> fields, ElasticModel model, int snapshotEvery, ElasticListener listener) {
        int nt = spec.nt();
        int ndim = grid.ndim;
        int shots = checkShots(sources, receivers);
        if (type == null) {
            throw new IllegalArgumentException("source type is missing: use explosive, fx, fz or (3-D) fy");
        }
        if (type == ElasticSource.FY && ndim != 3) {
            throw new IllegalArgumentException("source type fy needs a 3-D model; this one is 2-D: use explosive, fx or fz");
        }
        ElasticField.check(fields, ndim);
        if (model == null) {
            throw new IllegalArgumentException("elastic model (vp, vs, rho) is missing");
        }
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        double vpMax = setModel(model);
        int len = stepper.len;
        int nf = fields.size();
        int nrec = receivers[0].length;
        double cell = 1;
        for (double d : spec.dh()) {
            cell *= d;
        }
        double dt = spec.dt();
        float[] out = new float[shots * nt * nrec * nf];
        float[] rec = new float[nt * nrec * nf];
        for (int sh = 0; sh < shots; sh++) {
            int[] cells = indices(sources[sh], "source", sh);
            int nsrc = cells.length;
            float[] sw = ShotWavelets.of(wavelet, stride, sh, nsrc, nt);
            int[] srcIdx;
            float[] samples;
            if (type == ElasticSource.EXPLOSIVE) {
                // every normal stress at the source node: dt·w/dV subtracted (added negated), source by source
                srcIdx = new int[nsrc * ndim];
                samples = new float[nsrc * ndim * nt];
                for (int k = 0; k < nsrc; k++) {
                    for (int c = 0; c < ndim; c++) {
                        int e = k * ndim + c;
                        srcIdx[e] = c * len + cells[k];
                        for (int t = 0; t < nt; t++) {
                            samples[e * nt + t] = (float) (-dt * sw[k * nt + t] / cell);
                        }
                    }
                }
            } else {
                int slot = type == ElasticSource.FX ? 0 : type == ElasticSource.FY ? 1 : ndim - 1;
                srcIdx = new int[nsrc];
                samples = new float[nsrc * nt];
                for (int k = 0; k < nsrc; k++) {
                    srcIdx[k] = slot * len + cells[k];
                    for (int t = 0; t < nt; t++) {
                        samples[k * nt + t] = (float) (sw[k * nt + t] / cell);
                    }
                }
            }
            int[] rc = indices(receivers[sh], "receiver", sh);
            int[] recIdx = new int[nrec * nf];
            int[] kind = new int[nrec * nf];
            for (int r = 0; r < nrec; r++) {
                for (int f = 0; f < nf; f++) {
                    ElasticField fd = fields.get(f);
                    int slot = fd == ElasticField.VX ? 0 : fd == ElasticField.VY ? 1 : ndim - 1;
                    recIdx[r * nf + f] = fd == ElasticField.P ? rc[r] : slot * len + rc[r];
                    kind[r * nf + f] = fd == ElasticField.P ? 0 : 1;
                }
            }
            ElasticStepper st = stepper;
            st.reset();
            int nval = nrec * nf;
            int count = srcIdx.length;
            for (int t = 0; t < nt; t++) {
                st.velocityStep();
                if (type != ElasticSource.EXPLOSIVE) {
                    Sources.inject(st.v, st.b, srcIdx, samples, count, nt, t);
                }
                st.surfaceVelocityStep();
                ElasticSources.sample(st.v, st.s, recIdx, kind, rec, nval, ndim, len, t);
                st.stressStep();
                if (type == ElasticSource.EXPLOSIVE) {
                    Sources.add(st.s, srcIdx, samples, count, nt, t);
                }
                st.surfaceStressStep();
                int done = t + 1;
                if (done % spec.checkEvery() == 0 || done == nt) {
                    st.checkFinite(done, sh, vpMax);
                }
                if (listener != null && snapshotEvery > 0 && done % snapshotEvery == 0) {
                    listener.snapshot(sh, done, st.physicalFields());
                }
            }
            System.arraycopy(rec, 0, out, sh * nt * nval, nt * nval);
        }
        return new Record(out, shots, nt, nrec, nf);
    }

    /** Validates the model, checks the CFL condition and sets parameters and profiles; returns the largest vp. */
    private double setModel(ElasticModel model) {
        int[] shape = spec.shape();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        double vpMax = model.validate(cells, Arrays.toString(shape));
        spec.checkCfl(vpMax);
        double pmlVel = spec.maxVel() > 0 ? spec.maxVel() : pmlVelocity > 0 ? pmlVelocity : vpMax;
        if (stepper == null) {
            stepper = new ElasticStepper(grid, backend);
        }
        stepper.setModel(model.vp(), model.vs(), model.rho(), pmlVel);
        return vpMax;
    }

    /** Test hook: the stepper of the last run (fields after its last step). */
    ElasticStepper stepper() {
        return stepper;
    }

    private int checkShots(int[][][] sources, int[][][] receivers) {
        if (sources == null || sources.length == 0) {
            throw new IllegalArgumentException("sources must hold at least one shot, shape (B, nsrc, ndim)");
        }
        if (receivers == null || receivers.length != sources.length) {
            throw new IllegalArgumentException("receivers must hold one entry per shot: sources have B="
                    + sources.length + ", receivers have " + (receivers == null ? "none" : receivers.length));
        }
        int nrec = receivers[0].length;
        for (int b = 0; b < receivers.length; b++) {
            if (receivers[b].length != nrec) {
                throw new IllegalArgumentException("every shot needs the same number of receivers: shot 0 has " + nrec
                        + ", shot " + b + " has " + receivers[b].length);
            }
        }
        return sources.length;
    }

    /** Array indices (of the first component slot) of tile-physical cells given as (x, z) or (x, y, z). */
    private int[] indices(int[][] coords, String what, int shot) {
        int[] idx = new int[coords.length];
        int nd = grid.ndim;
        for (int p = 0; p < coords.length; p++) {
            int[] c = coords[p];
            if (c == null || c.length != nd) {
                throw new IllegalArgumentException(what + " " + p + " of shot " + shot + " has "
                        + (c == null ? "no" : String.valueOf(c.length)) + " coordinates; expected " + nd
                        + (nd == 2 ? " (x, z)" : " (x, y, z)"));
            }
            int x = c[0];
            int y = nd == 3 ? c[1] : 0;
            int z = c[nd - 1];
            if (x < 0 || x >= grid.tx || y < 0 || y >= grid.ty || z < 0 || z >= grid.tz) {
                throw new IllegalArgumentException(what + " " + p + " of shot " + shot + " at " + Arrays.toString(c)
                        + " lies outside the grid: coordinates are " + (nd == 2 ? "(x, z)" : "(x, y, z)")
                        + " cell indices with x < " + grid.tx + (nd == 3 ? ", y < " + grid.ty : "") + ", z < " + grid.tz);
            }
            idx[p] = grid.index(z, y, x);
        }
        return idx;
    }

    @Override
    public void close() {
        backend.close();
    }
}
