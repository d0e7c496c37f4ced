package sweep.parallel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import sweep.core.FdWeights;
import sweep.equation.WaveEquation;
import sweep.prop.CellWindow;
import sweep.prop.Gradient;
import sweep.prop.Grid;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.ShotWavelets;
import sweep.prop.WavefieldListener;

/**
 * A single-domain problem ({@link PropSpec}, the global spec) run decomposed over the ranks of a
 * {@link ModelParallelMesh} (SWEEP's {@code ModelParallel}): each rank builds the solver of its tile with cut-aware
 * padding (CPML only on true edges), halo exchange on cut faces, and its share of sources and receivers. Results are
 * bit-identical to the single-domain solver on the same problem. Sources, receivers and models are given in global
 * terms, the same call as on one domain, for any equation of the spec: models and gradients are parameter-major
 * ({@link sweep.equation.WaveEquation#parameters()}: acoustic vp; elastic vp, vs, rho), records
 * {@code (B, nt, nrec, nfield)} with the spec's {@link PropSpec#recordFields()}; an elastic spec also fixes the source
 * type of every rank.
 */
public final class ModelParallel implements AutoCloseable {
    private final PropSpec spec;
    private final ModelParallelMesh mesh;
    private final MeshTopology topo;
    private final int[] globalShape;
    private final int[] tileShape;
    private final int[] tileOffset;
    private final Grid grid;
    private final HaloExchange halo;
    private final Propagator solver;
    /** The equation's parameter count, and the cells of the global model each parameter of the solver's model has. */
    private final int params;
    private final CellWindow window;
    private int[] ownReceivers = new int[0];
    private int globalReceivers;

    /**
     * Builds this rank's tile solver. Collective over the mesh: every rank calls it with the same spec (the ranks agree
     * on its fingerprint).
     */
    public ModelParallel(PropSpec spec, ModelParallelMesh mesh) {
        this.spec = spec;
        this.mesh = mesh;
        this.topo = mesh.topology();
        checkSameSpecEverywhere(spec, mesh);
        this.globalShape = spec.shape();
        if (spec.ndim() == 2 && topo.py() != 1) {
            throw new IllegalArgumentException("a 2-D problem needs py = 1, got py = " + topo.py());
        }
        MeshTopology.Extent ext = topo.localExtent(globalShape);
        this.tileShape = ext.shape();
        this.tileOffset = ext.offsets();
        int h = FdWeights.halfWidth(spec.order());
        int margin = spec.equation().modelMargin(spec.order());
        for (int a = 1; a < spec.ndim(); a++) {
            boolean split = (a == spec.ndim() - 1 ? topo.px() : topo.py()) > 1;
            String axis = a == spec.ndim() - 1 ? "x (px = " + topo.px() + ")" : "y (py = " + topo.py() + ")";
            if (split && tileShape[a] < h) {
                throw new IllegalArgumentException("tiles of " + Arrays.toString(tileShape) + " cells are thinner than"
                        + " the halo (order/2 = " + h + ") along " + axis + ": cuts must lie at least a halo width"
                        + " outside the PML band; use fewer tiles along " + axis.substring(0, 1));
            }
            if (split && tileShape[a] < margin) {
                throw new IllegalArgumentException("tiles of " + Arrays.toString(tileShape) + " cells are thinner than"
                        + " the " + spec.equation().name().toLowerCase(java.util.Locale.ROOT) + " model margin"
                        + " (order/2 + 1 = " + margin + " cells) along " + axis + ": a tile's solver reads that many"
                        + " cells of its neighbours' model; use fewer tiles along " + axis.substring(0, 1));
            }
        }
        this.grid = tileGrid(spec, topo);
        this.halo = new HaloExchange(mesh, grid, h, spec.equation().maxExchangeComponents(spec.ndim()));
        this.solver = new Propagator(spec, grid, halo);
        this.params = spec.equation().parameterCount();
        this.window = solver.modelWindow();
    }

    /**
     * The grid of the tile of rank {@code topo.rank()} for the global {@code spec}: its extent of the model plus the
     * CPML of the true edges it touches (cut faces carry none). Not collective; allocates no wavefields.
     */
    public static Grid tileGrid(PropSpec spec, MeshTopology topo) {
        MeshTopology.Extent ext = topo.localExtent(spec.shape());
        int[] pml = PmlWidths.forRank(topo, spec.abcn(), spec.ndim(), spec.freeSurface());
        return new Grid(spec, ext.offsets(), ext.shape(), pml);
    }

    private static void checkSameSpecEverywhere(PropSpec spec, ModelParallelMesh mesh) {
        long[] lo = {spec.fingerprint()};
        long[] hi = {spec.fingerprint()};
        try {
            mesh.model().allReduce(lo, 1, MPI.LONG, MPI.MIN);
            mesh.model().allReduce(hi, 1, MPI.LONG, MPI.MAX);
            mesh.shot().allReduce(lo, 1, MPI.LONG, MPI.MIN);
            mesh.shot().allReduce(hi, 1, MPI.LONG, MPI.MAX);
        } catch (MPIException e) {
            throw new IllegalStateException("spec consistency check failed: " + e.getMessage(), e);
        }
        if (lo[0] != hi[0]) {
            throw new IllegalArgumentException("the ranks were given different problem specs (equation, shape, dh, dt,"
                    + " nt, abcn, order, free surface, PML, storage, source type or recorded fields differ): every rank"
                    + " must build the same global PropSpec");
        }
    }

    /**
     * Overlap of the halo exchange with the update of the cells away from the cuts; off (the default) runs the serial
     * path, update then exchange. Both give the same bits.
     */
    public void setOverlap(boolean on) {
        solver.setOverlap(on);
    }

    /** The grid of this rank's tile solver (its tile plus the PML of true edges), e.g. for a memory estimate. */
    public Grid grid() {
        return grid;
    }

    /** This rank's tile shape (physical) and its global offset, z first. */
    public MeshTopology.Extent tile() {
        return new MeshTopology.Extent(tileShape, tileOffset);
    }

    /**
     * Global receiver indices (caller's order) whose traces this rank's tile record carries, set by the last forward
     * call; empty before any call.
     */
    public int[] ownReceiverIndices() {
        return ownReceivers.clone();
    }

    /**
     * For benchmarks: times {@code steps} forward steps of this rank's tile (halo exchange included) on the given
     * global or tile model; returns seconds. Collective: every rank of the group calls it.
     */
    public double timeSteps(float[] model, int steps) {
        Local l = localize(new int[][][] {{}}, new int[][][] {{}}, model);
        return solver.timeSteps(l.model, steps);
    }

    /**
     * CPU seconds the calling thread spent in the last {@link #timeSteps} call (on one thread per rank all the work,
     * the halo exchange's polling included); NaN where unsupported.
     */
    public double lastStepsCpuSeconds() {
        return solver.lastStepsCpuSeconds();
    }

    /** Wall-clock seconds this rank has spent in halo exchanges. */
    public double haloSeconds() {
        return halo.seconds();
    }

    /**
     * Of {@link #haloSeconds()}: the seconds spent in one phase, {@link HaloExchange#COPY}, {@link
     * HaloExchange#MPI_POST} or {@link HaloExchange#WAIT}.
     */
    public double haloSeconds(int phase) {
        return halo.seconds(phase);
    }

    /**
     * For benchmarks: runs {@code times} halo exchanges of a zero field of this rank's grid back to back, with no
     * update in between (collective over the group's {@code model} communicator); they count in {@link #haloSeconds()}
     * and {@link #haloExchanges()}. Their wait is the transfer alone, no neighbour being late. Touches no wavefield.
     */
    public void runHaloExchanges(int times) {
        float[] field = new float[grid.length()];
        halo.synchronize(); // a rank still clearing its field would make the others wait in the first exchange
        for (int k = 0; k < times; k++) {
            halo.exchange(field);
        }
    }

    /** Number of halo exchanges this rank has done. */
    public long haloExchanges() {
        return halo.exchanges();
    }

    /** Bytes this rank's tile solver holds. */
    public long bytesHeld() {
        return solver.bytesHeld();
    }

    /**
     * Runs the forward problem on this rank's tile and returns its tile record {@code (B, nt, nrec_own, nfield)} (the
     * columns of {@link #ownReceiverIndices()}). Collective over the group's {@code model} communicator (halo exchanges
     * every step; a model given as tiles also exchanges its margins).
     *
     * @param model global physical model (parameter-major), or this rank's tile of it (each parameter's tile one after
     *              the other), or null to reuse the previous call's model
     */
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model) {
        return forward(wavelet, sources, receivers, model, 0, null);
    }

    /**
     * As {@link #forward(float[], int[][][], int[][][], float[])}; when {@code snapshotEvery} is positive and
     * {@code listener} not null, the listener receives this rank's tile of the wavefield (tile-physical cells) of shot b
     * of the batch every so many steps. Collective over the group's {@code model} communicator.
     */
    public Record forward(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, int snapshotEvery,
                          WavefieldListener listener) {
        Local l = localize(sources, receivers, model);
        return shotByShot(l, wavelet, sources, (b, w, src, rec, m) -> solver.forward(w, src, rec, m, snapshotEvery,
                listener == null ? null : (s, step, field) -> listener.snapshot(b, step, field)));
    }

    /** One shot's run of the tile solver: shot b of the batch, its wavelets, sources, receivers, model or null. */
    @FunctionalInterface
    private interface ShotRun {
        Record run(int b, float[] wavelet, int[][][] sources, int[][][] receivers, float[] model);
    }

    /** The tile records of a batch, {@code run} called shot by shot (the model given with the first shot only). */
    private Record shotByShot(Local l, float[] wavelet, int[][][] sources, ShotRun run) {
        int nt = spec.nt();
        int nf = spec.nfield();
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        int shots = sources.length;
        int nrec = l.receivers[0].length;
        int per = nt * nrec * nf;
        float[] data = new float[shots * per];
        for (int b = 0; b < shots; b++) {
            Record r = run.run(b, l.wavelet(wavelet, stride, b, nt), new int[][][] {l.sources[b]},
                    new int[][][] {l.receivers[b]}, b == 0 ? l.model : null);
            System.arraycopy(r.data(), 0, data, b * per, per);
        }
        return new Record(data, shots, nt, nrec, nf);
    }

    /**
     * The Born (linearised) records of this rank's tile {@code (B, nt, nrec_own, nfield)}, as {@link #forward} gives
     * its records: the derivative of the forward record in the direction {@code perturbation} (the global
     * perturbation, parameter-major like the model, or this rank's tile of it), bit-identical to one domain once
     * gathered. Collective over the group's {@code model} communicator.
     */
    public Record born(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model, float[] perturbation) {
        spec.equation().requireBornOperator("Born modelling");
        Local l = localize(sources, receivers, model);
        float[] dm = windowPerturbation(perturbation);
        return shotByShot(l, wavelet, sources, (b, w, src, rec, m) -> solver.born(w, src, rec, m, dm));
    }

    /** The tile solver's perturbation over its {@link #window} from a global or tile parameter-major perturbation. */
    private float[] windowPerturbation(float[] perturbation) {
        long gcells = Shaped.size(globalShape, "global model");
        int tcells = product(tileShape);
        if (perturbation != null && perturbation.length == params * gcells) {
            Propagator.checkPerturbation(spec.equation(), perturbation, Math.toIntExact(gcells));
            return ModelWindows.fromGlobal(perturbation, params, globalShape, window);
        }
        Propagator.checkPerturbation(spec.equation(), perturbation, tcells);
        return window.cells() == tcells ? perturbation
                : ModelWindows.fromTile(perturbation, params, tileShape, tileOffset, window, mesh);
    }

    /**
     * Forward and adjoint runs with the misfit against {@code observed}, the global record {@code (B, nt, nrec,
     * nfield)} of this shot group's B shots (every group passes the same B; group g holds the global shots g·B ..
     * g·B+B−1). Returns this tile's dJ/d(each parameter) (parameter-major, tile shape each) summed over all groups'
     * shots in global shot order (bit-identical to the single domain's batch sum), the misfit summed over every rank
     * (in double) and this group's dJ/dwavelet {@code (B, nt)} summed over tiles. Collective over the mesh (halo
     * exchanges, then sums over the {@code shot} and {@code model} communicators).
     */
    public Gradient forwardAndGradient(float[] wavelet, int[][][] sources, int[][][] receivers, float[] model,
                                       float[] observed, Misfit misfit) {
        Local l = localize(sources, receivers, model);
        int shots = sources.length;
        int nt = spec.nt();
        int nf = spec.nfield();
        if (observed == null || observed.length != (long) shots * nt * globalReceivers * nf) {
            throw new IllegalArgumentException("observed data have " + (observed == null ? "no" : observed.length)
                    + " values; expected the global record (" + shots + ", " + nt + ", " + globalReceivers + ", " + nf
                    + ")");
        }
        return gradient(l, wavelet, sources, receivers, observed, globalReceivers, ownReceivers, misfit);
    }

    /**
     * As {@link #forwardAndGradient}, with only this rank's traces of the observed data: {@code ownObserved} is
     * {@code (B, nt, nown, nfield)}, its columns the receivers {@link #ownedReceivers(int[][][])} lists, in that order
     * (so a rank need not read the other ranks' traces). Same result, bit for bit. Collective over the mesh.
     */
    public Gradient forwardAndGradientOwnTraces(float[] wavelet, int[][][] sources, int[][][] receivers,
                                                float[] model, float[] ownObserved, Misfit misfit) {
        Local l = localize(sources, receivers, model);
        int shots = sources.length;
        int nt = spec.nt();
        int nown = ownReceivers.length;
        int nf = spec.nfield();
        if (ownObserved == null || ownObserved.length != shots * nt * nown * nf) {
            throw new IllegalArgumentException("observed traces have " + (ownObserved == null ? "no"
                    : ownObserved.length) + " values; expected this rank's (" + shots + ", " + nt + ", " + nown
                    + ", " + nf + ") of receivers " + Arrays.toString(ownReceivers));
        }
        int[] identity = new int[nown];
        for (int r = 0; r < nown; r++) {
            identity[r] = r;
        }
        return gradient(l, wavelet, sources, receivers, ownObserved, nown, identity, misfit);
    }

    /**
     * The global indices of the receivers this rank's tile owns (ascending), for a batch whose every shot places its
     * receivers on the same tiles (as every call here requires). Not collective; runs nothing.
     */
    public int[] ownedReceivers(int[][][] receivers) {
        if (receivers == null || receivers.length == 0) {
            throw new IllegalArgumentException("receivers need B >= 1 shots");
        }
        Routing.Partition pr = Routing.partitionGlobalCoords(receivers, topo, globalShape);
        int[] own = pr.ownedIndices(0);
        for (int b = 1; b < receivers.length; b++) {
            if (!Arrays.equals(pr.ownedIndices(b), own)) {
                throw sameLayoutError(b);
            }
        }
        return own;
    }

    private static IllegalArgumentException sameLayoutError(int b) {
        return new IllegalArgumentException("shot " + b + " places its receivers on other tiles than shot 0:"
                + " a batch needs one receiver layout per tile; run such shots in separate calls");
    }

    /**
     * The shot loop of a gradient: {@code observed} is {@code (B, nt, width, nfield)} and column {@code columns[r]} of
     * it holds the traces of owned receiver r; the misfit is bound to each shot's global sources and owned receivers.
     */
    private Gradient gradient(Local l, float[] wavelet, int[][][] sources, int[][][] receivers, float[] observed,
                              int width, int[] columns, Misfit misfit) {
        int shots = sources.length;
        int nt = spec.nt();
        int stride = ShotWavelets.stride(wavelet, sources, nt);
        int nown = columns.length;
        int nf = spec.nfield();
        float[][] perShot = new float[shots][];
        float[] wbar = new float[shots * nt];
        double j = 0;
        for (int b = 0; b < shots; b++) {
            float[] obs = new float[nt * nown * nf];
            for (int t = 0; t < nt; t++) {
                for (int r = 0; r < nown; r++) {
                    System.arraycopy(observed, ((b * nt + t) * width + columns[r]) * nf, obs, (t * nown + r) * nf, nf);
                }
            }
            float[] wb = l.wavelet(wavelet, stride, b, nt);
            int[][] own = new int[nown][];
            for (int r = 0; r < nown; r++) {
                own[r] = receivers[b][ownReceivers[r]];
            }
            Gradient g = solver.forwardAndGradient(wb, new int[][][] {l.sources[b]}, new int[][][] {l.receivers[b]},
                    b == 0 ? l.model : null, obs, misfit.forShot(sources[b], own));
            perShot[b] = g.parameters();
            System.arraycopy(g.wavelet(), 0, wbar, b * nt, nt);
            j += g.misfit();
        }
        try {
            double[] jj = {j};
            mesh.model().allReduce(jj, 1, MPI.DOUBLE, MPI.SUM);
            mesh.shot().allReduce(jj, 1, MPI.DOUBLE, MPI.SUM);
            mesh.model().allReduce(wbar, wbar.length, MPI.FLOAT, MPI.SUM);
            return new Gradient(orderedShotSum(perShot), params, wbar, jj[0]);
        } catch (MPIException e) {
            throw new IllegalStateException("gradient reduction failed: " + e.getMessage(), e);
        }
    }

    /**
     * Sums per-shot tile gradients over the shot groups in global shot order: group g adds its shots, in order, to the
     * partial sum of groups 0..g−1 and passes it on; the last group's total is broadcast. The same float additions in
     * the same order as a single domain's batch.
     */
    private float[] orderedShotSum(float[][] perShot) throws MPIException {
        return sumShotsInOrder(perShot, params * product(tileShape));
    }

    /**
     * Sums per-shot tile arrays of {@code cells} values (this group's shots, in order) over every shot group in global
     * shot order, as {@link #forwardAndGradient} sums gradients: the same float additions in the same order as one
     * domain adding every shot's array in turn; every rank of the tile gets the total. Collective over the
     * {@code shot} communicator.
     */
    public float[] sumShotsInOrder(float[][] perShot, int cells) throws MPIException {
        float[] sum = new float[cells];
        Intracomm shot = mesh.shot();
        int g = topo.shotGroup();
        int groups = topo.shotGroups();
        if (g > 0) {
            shot.recv(sum, cells, MPI.FLOAT, g - 1, 21);
        }
        for (float[] p : perShot) {
            for (int i = 0; i < cells; i++) {
                sum[i] += p[i];
            }
        }
        if (g < groups - 1) {
            shot.send(sum, cells, MPI.FLOAT, g + 1, 21);
        }
        if (groups > 1) {
            shot.bcast(sum, cells, MPI.FLOAT, groups - 1);
        }
        return sum;
    }

    /**
     * Assembles this shot group's record {@code (B, nt, nrec, nfield)} on the group root (tile rank 0) from every
     * tile's record; returns null on the other ranks. Collective over the {@code model} communicator.
     */
    public Record gatherRecord(Record tileRecord) {
        Intracomm comm = mesh.model();
        try {
            int me = comm.getRank();
            int size = comm.getSize();
            int[] header = {ownReceivers.length, tileRecord.data().length};
            if (me != 0) {
                comm.send(header, 2, MPI.INT, 0, 11);
                comm.send(ownReceivers, ownReceivers.length, MPI.INT, 0, 12);
                comm.send(tileRecord.data(), tileRecord.data().length, MPI.FLOAT, 0, 13);
                return null;
            }
            List<Routing.TileRecord> parts = new ArrayList<>();
            parts.add(new Routing.TileRecord(ownReceivers, tileRecord.data(), tileRecord.shape()));
            for (int r = 1; r < size; r++) {
                int[] hdr = new int[2];
                comm.recv(hdr, 2, MPI.INT, r, 11);
                int[] idx = new int[hdr[0]];
                comm.recv(idx, hdr[0], MPI.INT, r, 12);
                float[] data = new float[hdr[1]];
                comm.recv(data, hdr[1], MPI.FLOAT, r, 13);
                parts.add(new Routing.TileRecord(idx, data,
                        new int[] {tileRecord.shots(), tileRecord.nt(), hdr[0], tileRecord.nfield()}));
            }
            Shaped<float[]> all = Routing.assembleTileRecords(parts, globalReceivers);
            return new Record(all.data(), tileRecord.shots(), tileRecord.nt(), globalReceivers, tileRecord.nfield());
        } catch (MPIException e) {
            throw new IllegalStateException("record gather failed: " + e.getMessage(), e);
        }
    }

    /**
     * Global-leaf style: the global model-shaped array on every rank of the shot group, assembled from each rank's
     * tile-shaped array (e.g. a tile gradient); a tile array of k tiles one after the other (a parameter-major
     * gradient) gives k global arrays one after the other. Collective over the {@code model} communicator.
     */
    public float[] allGatherTiles(float[] tileArray) {
        int cells = product(tileShape);
        if (tileArray.length == 0 || tileArray.length % cells != 0) {
            throw new IllegalArgumentException("tile array has " + tileArray.length + " values; the tile "
                    + Arrays.toString(tileShape) + " needs " + cells + " per parameter");
        }
        int k = tileArray.length / cells;
        int gcells = Math.toIntExact(Shaped.size(globalShape, "global array"));
        float[] global = new float[Math.multiplyExact(k, gcells)];
        for (int p = 0; p < k; p++) {
            float[] g = k == 1 ? global : new float[gcells];
            copyTile(k == 1 ? tileArray : Arrays.copyOfRange(tileArray, p * cells, (p + 1) * cells), g, true);
            if (k > 1) {
                System.arraycopy(g, 0, global, p * gcells, gcells);
            }
        }
        try {
            mesh.model().allReduce(global, global.length, MPI.FLOAT, MPI.SUM);
        } catch (MPIException e) {
            throw new IllegalStateException("tile all-gather failed: " + e.getMessage(), e);
        }
        return global;
    }

    /** This tile's share of a batch: owned sources (and their indices in each global shot), receivers, model. */
    private record Local(int[][][] sources, int[][] sourceIndices, int[][][] receivers, float[] model) {
        /** The wavelets of shot b's owned sources, {@code (nsrc_own, nt)}, from the global batch's wavelet. */
        float[] wavelet(float[] wavelet, int stride, int b, int nt) {
            return ShotWavelets.of(wavelet, stride, b, sourceIndices[b], nt);
        }
    }

    private Local localize(int[][][] sources, int[][][] receivers, float[] model) {
        if (sources == null || receivers == null || sources.length == 0 || sources.length != receivers.length) {
            throw new IllegalArgumentException("sources and receivers need the same number B >= 1 of shots");
        }
        Routing.Partition ps = Routing.partitionGlobalCoords(sources, topo, globalShape);
        Routing.Partition pr = Routing.partitionGlobalCoords(receivers, topo, globalShape);
        int shots = sources.length;
        int[][][] src = new int[shots][][];
        int[][] srcIdx = new int[shots][];
        int[][][] rec = new int[shots][][];
        int[] own = pr.ownedIndices(0);
        for (int b = 0; b < shots; b++) {
            int[] os = ps.ownedIndices(b);
            srcIdx[b] = os;
            src[b] = new int[os.length][];
            for (int i = 0; i < os.length; i++) {
                src[b][i] = ps.localCoords()[b][os[i]];
            }
            int[] or = pr.ownedIndices(b);
            if (!Arrays.equals(or, own)) {
                throw sameLayoutError(b);
            }
            rec[b] = new int[or.length][];
            for (int i = 0; i < or.length; i++) {
                rec[b][i] = pr.localCoords()[b][or[i]];
            }
        }
        ownReceivers = own;
        globalReceivers = receivers[0].length;
        float[] tileModel = null;
        if (model != null) {
            tileModel = windowModel(model);
        }
        return new Local(src, srcIdx, rec, tileModel);
    }

    /**
     * The tile solver's model over its {@link #window} (every parameter) from a global or tile parameter-major model,
     * each value checked by the equation ({@link sweep.equation.WaveEquation#checkModel}) and a bad one named by its
     * global position; sets the PML velocity to the global {@link sweep.equation.WaveEquation#cflVelocity}. From tiles
     * the window's margins come from the neighbours (collective over the group; none when the window is the tile).
     */
    private float[] windowModel(float[] model) {
        long gcells = 1;
        for (int n : globalShape) {
            gcells *= n;
        }
        int tcells = product(tileShape);
        WaveEquation eq = spec.equation();
        String[] names = eq.parameterNames().toArray(new String[0]);
        if (model.length == params * gcells) {
            // every rank checks the whole model: all report the same first bad cell, at its global position
            int g = Math.toIntExact(gcells);
            eq.checkModel(model, globalShape, null, null, names);
            double vmax = eq.cflVelocity(model, g, spec);
            spec.checkCfl(vmax); // every rank refuses an unstable run alike
            solver.setPmlVelocity(vmax);
            return ModelWindows.fromGlobal(model, params, globalShape, window);
        }
        if (model.length == (long) params * tcells) {
            String[] tileNames = new String[names.length];
            for (int k = 0; k < names.length; k++) {
                tileNames[k] = names[k] + " (tile of rank " + topo.rank() + ")";
            }
            eq.checkModel(model, tileShape, tileOffset, null, tileNames);
            double vmax = globalMax(eq.cflVelocity(model, tcells, spec));
            spec.checkCfl(vmax);
            solver.setPmlVelocity(vmax);
            return window.cells() == tcells ? model
                    : ModelWindows.fromTile(model, params, tileShape, tileOffset, window, mesh);
        }
        throw new IllegalArgumentException("model has " + model.length + " values: expected the global model, "
                + String.join(", ", names) + " one after the other (" + params + " x " + gcells + " = "
                + Arrays.toString(globalShape) + " each), or this rank's tile of each (" + params + " x " + tcells
                + " = " + Arrays.toString(tileShape) + ")");
    }

    /** The largest of every rank's {@code v} over the group. */
    private double globalMax(double v) {
        double[] m = {v};
        try {
            mesh.model().allReduce(m, 1, MPI.DOUBLE, MPI.MAX);
        } catch (MPIException e) {
            throw new IllegalStateException("model maximum reduction failed: " + e.getMessage(), e);
        }
        return m[0];
    }

    /** Copies between a tile-shaped array and the global array (toGlobal: tile → global, else global → tile). */
    private void copyTile(float[] tile, float[] global, boolean toGlobal) {
        int nd = globalShape.length;
        int gz = globalShape[0];
        int gy = nd == 3 ? globalShape[1] : 1;
        int gx = globalShape[nd - 1];
        int tz = tileShape[0];
        int ty = nd == 3 ? tileShape[1] : 1;
        int tx = tileShape[nd - 1];
        int oy = nd == 3 ? tileOffset[1] : 0;
        int ox = tileOffset[nd - 1];
        for (int z = 0; z < tz; z++) {
            for (int y = 0; y < ty; y++) {
                int gi = (z * gy + (y + oy)) * gx + ox;
                int ti = (z * ty + y) * tx;
                if (toGlobal) {
                    System.arraycopy(tile, ti, global, gi, tx);
                } else {
                    System.arraycopy(global, gi, tile, ti, tx);
                }
            }
        }
        if (gz != tz) {
            throw new AssertionError("depth is never split");
        }
    }

    private static int product(int[] s) {
        int p = 1;
        for (int n : s) {
            p *= n;
        }
        return p;
    }

    @Override
    public void close() {
        solver.close();
    }
}
