package sweep.kit;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import mpi.Intracomm;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.equation.WaveEquation;
import sweep.imaging.Illumination;
import sweep.parallel.HaloExchange;
import sweep.parallel.MeshTopology;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.parallel.MpiCaseBatch;
import sweep.parallel.Padding;
import sweep.parallel.Shaped;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * The conformance kit's decomposition check, run under {@code mpirun} by
 * {@link EquationKit#decomposedRunsAreBitIdenticalToOneDomain}: for each mesh configuration in the arguments it
 * decomposes a problem of the kit's equation and checks that the decomposed records and gradients of every parameter
 * are bit-identical to one domain's on the same padded problem (for an equation with a Born operator also its Born
 * records and the source illumination of migration), with and without a free surface and each storage the equation
 * supports (every pair of them over two consecutive configurations, see {@link #freeSurfaceOf}), the equation's source
 * types in turn, every recordable field, sources and receivers on and next to the cuts, models
 * given whole and as tiles (a tile's margins then come from its neighbours). The configurations run one after another
 * in one job ({@link MpiCaseBatch}), each on a communicator of its own size. Every rank of a configuration prints one
 * "OK rank" or "FAIL rank" line per case (FAIL on all its ranks when a check failed on any).
 * Arguments: one or more kits, each its class (a subclass of {@link EquationKit} with a no-argument constructor), then
 * one argument per configuration, {@code ndim:py:px:shotGroups:nx:order}, e.g. {@code 2:1:2:1:41:8}; its ranks are
 * py·px·shotGroups.
 */
public final class DecomposedRunCheckMain {
    /** Cases of one configuration of {@code eq}: each storage it supports, and at least two (free surface off, on). */
    static int casesPerConfiguration(WaveEquation eq) {
        return Math.max(2, eq.storages().size());
    }

    /**
     * The free-surface flag of case {@code i} of a kit's configuration number {@code configuration} (its storage is
     * storage {@code i} mod their count): off and on in turn, the other way round in the next configuration, so that
     * two consecutive configurations hold every storage with and without a free surface (a case is a whole decomposed
     * forward, gradient and single-domain reference: the full product of the two took twice as long).
     */
    static boolean freeSurfaceOf(int configuration, int i) {
        return (i + configuration) % 2 == 1;
    }

    private DecomposedRunCheckMain() {
    }

    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int world = MPI.COMM_WORLD.getRank();
        List<MpiCaseBatch.Case> cases = new ArrayList<>();
        EquationKit kit = null;
        int configuration = 0;
        for (String a : args) {
            if (!a.contains(":")) { // a kit's class name, then its configurations
                Constructor<?> make = Class.forName(a).getDeclaredConstructor();
                make.setAccessible(true);
                kit = (EquationKit) make.newInstance();
                configuration = 0;
            } else {
                cases.add(configuration(kit, a, configuration++, world));
            }
        }
        int failures = MpiCaseBatch.run(cases);
        Mpi.finish();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** The label of one case's lines, up to the free-surface flag. */
    static String label(String ndim, String py, String px, String groups, String nx, String order) {
        return String.format("%sD py=%s px=%s groups=%s nx=%s order=%s fs=", ndim, py, px, groups, nx, order);
    }

    /**
     * The case for one {@code ndim:py:px:shotGroups:nx:order} argument, the kit's configuration number {@code index};
     * its lines name world rank {@code world}.
     */
    private static MpiCaseBatch.Case configuration(EquationKit kit, String arg, int index, int world) {
        String[] f = arg.split(":");
        if (f.length != 6) {
            throw new IllegalArgumentException("expected ndim:py:px:shotGroups:nx:order, got " + arg);
        }
        int ndim = Integer.parseInt(f[0]);
        int py = Integer.parseInt(f[1]);
        int px = Integer.parseInt(f[2]);
        int groups = Integer.parseInt(f[3]);
        int nx = Integer.parseInt(f[4]);
        int order = Integer.parseInt(f[5]);
        return new MpiCaseBatch.Case() {
            @Override
            public int ranks() {
                return py * px * groups;
            }

            @Override
            public String name() {
                return kit.equation().name() + " " + arg;
            }

            @Override
            public int run(Intracomm comm) throws Exception {
                int failures = 0;
                try (ModelParallelMesh mesh = ModelParallelMesh.create(comm, py, px, groups)) {
                    List<Storage> storages = kit.equation().storages();
                    for (int i = 0; i < casesPerConfiguration(kit.equation()); i++) {
                        boolean fs = freeSurfaceOf(index, i);
                        Storage storage = storages.get(i % storages.size());
                        String type = kit.sourceType(ndim, index * casesPerConfiguration(kit.equation()) + i);
                        String label = label(f[0], f[1], f[2], f[3], f[4], f[5]) + fs + " " + storage
                                + (type == null ? "" : " " + type);
                        String failure;
                        try {
                            failure = check(kit, comm, mesh, ndim, nx, order, fs, storage, type);
                        } catch (RuntimeException e) {
                            failure = e.toString();
                        }
                        MpiCaseBatch.say((failure == null ? "OK rank " : "FAIL rank ") + world + " "
                                + kit.equation().name() + " " + label + (failure == null ? "" : ": " + failure));
                        if (failure != null) {
                            failures++;
                        }
                    }
                }
                return failures;
            }
        };
    }

    /**
     * One case on {@code comm}, the communicator {@code mesh} was made from (its rank 0 runs the single-domain
     * observed data and the gradient of every shot); returns null when every check passed on every rank of it, else
     * what failed. Every rank makes every collective call: a failed check is reported after them (a rank that left
     * early would leave the others in a collective it never joins, and the next case of the batch out of step).
     */
    private static String check(EquationKit kit, Intracomm comm, ModelParallelMesh mesh, int ndim, int nxGlobal,
                                int order, boolean fs, Storage storage, String type) throws Exception {
        WaveEquation eq = kit.equation().inDimensions(ndim);
        MeshTopology topo = mesh.topology();
        int[] shape = ndim == 2 ? new int[] {22, nxGlobal} : new int[] {12, 16, nxGlobal};
        int nt = ndim == 2 ? 80 : 30;
        int params = eq.parameterCount();
        float[] m = kit.model(shape, 71);
        float[] mObs = kit.model(shape, 72);
        // a grid the mesh does not divide is padded on the high side first (the documented path), each parameter alike
        int[] padded = Padding.paddedShape(shape, topo);
        float[] mp = Padding.padToMesh(m, withCount(params, shape), topo).data();
        float[] mpObs = Padding.padToMesh(mObs, withCount(params, shape), topo).data();
        // every recordable field, in an order other than the equation's own (a record keeps the order asked for)
        List<String> fields = new ArrayList<>(eq.recordable(ndim));
        java.util.Collections.rotate(fields, 1);
        PropSpec spec = kit.spec(padded, nt, ndim == 2 ? 6 : 4, order).freeSurface(fs).storage(storage)
                .sourceType(type).recordFields(fields).build();
        int per = 2; // shots per group
        int shots = per * topo.shotGroups();
        int nx = padded[ndim - 1];
        int tx = nx / topo.px();
        int ty = ndim == 3 ? padded[1] / topo.py() : 1;
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][][];
        Random rnd = new Random(9);
        for (int b = 0; b < shots; b++) {
            // on the cut (the first cell of the second tile), next to it (the last cell of the first tile: a staggered
            // node of it lies on the cut plane), and anywhere
            int cut = topo.px() > 1 ? tx : nx / 2;
            int ycut = ndim == 3 && topo.py() > 1 ? ty : 3;
            src[b] = new int[][] {at(ndim, cut, ycut, 1 + b), at(ndim, cut - 1, ycut - 1, 4 + b), point(rnd, padded)};
        }
        List<int[]> recs = new ArrayList<>();
        for (int c = 1; c < topo.px(); c++) {
            for (int dx = -2; dx <= 1; dx++) {
                recs.add(at(ndim, c * tx + dx, ndim == 3 ? (c + dx + 4) % padded[1] : 0, 2 + c + dx));
            }
        }
        if (ndim == 3 && topo.py() > 1) {
            for (int dy = -2; dy <= 1; dy++) {
                recs.add(at(ndim, (5 * (dy + 3)) % nx, ty + dy, 3));
            }
        }
        recs.add(at(ndim, nx - 1, ndim == 3 ? padded[1] - 1 : 0, 0)); // staggered nodes in the PML pad
        for (int r = 0; r < 4; r++) {
            recs.add(point(rnd, padded));
        }
        for (int b = 0; b < shots; b++) {
            rec[b] = recs.toArray(new int[0][]);
        }
        float[] w = Wavelets.ricker(1.5 / (nt * spec.dt() / 3), nt, spec.dt());
        int g = topo.shotGroup();
        int[][][] mySrc = Arrays.copyOfRange(src, per * g, per * g + per);
        int[][][] myRec = Arrays.copyOfRange(rec, per * g, per * g + per);
        float[] tile = tileOf(mp, params, padded, topo.localExtent(padded));
        String fail = null;
        boolean caseRoot = comm.getRank() == 0;
        try (ModelParallel dd = new ModelParallel(spec, mesh); Propagator single = new Propagator(spec)) {
            // the serial path (update, then exchange) is the reference; the overlapped path must give the same bits
            dd.setOverlap(false);
            long before = dd.haloExchanges();
            Record whole = dd.forward(w, mySrc, myRec, mp);
            long exchanges = dd.haloExchanges() - before;
            if (exchanges <= 0 || exchanges % ((long) per * nt) != 0) {
                fail = first(fail, "a forward of " + per + " shots x " + nt + " steps made " + exchanges
                        + " halo exchanges: not a whole number (≥ 1) per step");
            }
            dd.setOverlap(true);
            Record tiled = dd.forward(w, mySrc, myRec, tile);
            if (!Arrays.equals(bits(whole.data()), bits(tiled.data()))) {
                fail = first(fail, "the overlapped forward from tile models differs from the serial forward from the"
                        + " global model");
            }
            double copy = dd.haloSeconds(HaloExchange.COPY);
            double post = dd.haloSeconds(HaloExchange.MPI_POST);
            double wait = dd.haloSeconds(HaloExchange.WAIT);
            if (!(copy > 0 && post > 0 && wait > 0 && Math.abs(copy + post + wait - dd.haloSeconds()) < 1e-9)) {
                fail = first(fail, "halo phases copy/post/wait " + copy + "/" + post + "/" + wait
                        + " s do not make up the total " + dd.haloSeconds() + " s");
            }
            Record again = dd.forward(w, mySrc, myRec, null);
            if (!Arrays.equals(bits(again.data()), bits(tiled.data()))) {
                fail = first(fail, "forward with model = null (the last one) differs");
            }
            Record gathered = dd.gatherRecord(tiled);
            if (topo.tileRank() == 0) { // the group root checks its group's record against the single domain's
                Record ref = single.forward(w, mySrc, myRec, mp);
                if (gathered.nfield() != fields.size() || !Arrays.equals(bits(ref.data()), bits(gathered.data()))) {
                    fail = first(fail, "gathered forward record differs from the single-domain record (max |diff| "
                            + maxDiff(ref.data(), gathered.data()) + ")");
                }
            } else if (gathered != null) {
                fail = first(fail, "gatherRecord returned a record on a rank that is not its group's root");
            }
            MpiCaseBatch.quietBarrier(comm); // the ranks without a single-domain run sleep (see quietBarrier)
            int[] owned = new int[recs.size()];
            for (int i : dd.ownReceiverIndices()) {
                owned[i]++;
            }
            mesh.model().allReduce(owned, owned.length, MPI.INT, MPI.SUM);
            for (int i = 0; i < owned.length; i++) {
                if (owned[i] != 1) {
                    fail = first(fail, "receiver " + i + " is owned by " + owned[i] + " tiles");
                }
            }
            int nf = spec.nfield();
            int nrec = recs.size();
            float[] obsAll = new float[shots * nt * nrec * nf];
            if (caseRoot) {
                obsAll = single.forward(w, src, rec, mpObs).data();
            }
            MpiCaseBatch.quietBarrier(comm);
            comm.bcast(obsAll, obsAll.length, MPI.FLOAT, 0);
            // the command line's path: tile models and this rank's traces of the observed data
            int[] own = dd.ownedReceivers(myRec);
            float[] ownObs = new float[per * nt * own.length * nf];
            for (int b = 0; b < per; b++) {
                for (int t = 0; t < nt; t++) {
                    for (int r = 0; r < own.length; r++) {
                        System.arraycopy(obsAll, (((per * g + b) * nt + t) * nrec + own[r]) * nf, ownObs,
                                ((b * nt + t) * own.length + r) * nf, nf);
                    }
                }
            }
            Gradient fromTile = dd.forwardAndGradientOwnTraces(w, mySrc, myRec, tile, ownObs, Misfit.L2);
            float[] ddGlobal = dd.allGatherTiles(fromTile.parameters());
            Gradient fromGlobal = dd.forwardAndGradient(w, mySrc, myRec, mp, Arrays.copyOfRange(obsAll,
                    per * g * nt * nrec * nf, (per * g + per) * nt * nrec * nf), Misfit.L2);
            if (fromTile.count() != params
                    || !Arrays.equals(bits(fromTile.parameters()), bits(fromGlobal.parameters()))) {
                fail = first(fail, "the gradient from the global model differs from the one from tile models");
            }
            if (caseRoot) { // the single domain's gradient of every shot, against the gathered decomposed one
                Gradient sg = single.forwardAndGradient(w, src, rec, mp, obsAll, Misfit.L2);
                if (!Arrays.equals(bits(sg.parameters()), bits(ddGlobal))) {
                    fail = first(fail, "decomposed gradient differs from the single-domain gradient (max |diff| "
                            + maxDiff(sg.parameters(), ddGlobal) + " of max "
                            + maxDiff(sg.parameters(), new float[ddGlobal.length]) + ", first at cell "
                            + firstDiff(sg.parameters(), ddGlobal) + ")");
                }
                if (Math.abs(fromTile.misfit() - sg.misfit()) > 1e-12 * Math.abs(sg.misfit())) {
                    fail = first(fail, "misfit summed over ranks " + fromTile.misfit() + " != single-domain "
                            + sg.misfit());
                }
                // dJ/dwavelet sums a shot's sources, which tiles add in another order: to rounding
                float[] wMine = Arrays.copyOfRange(sg.wavelet(), 0, per * nt); // rank 0 of comm is in group 0
                double wErr = maxDiff(wMine, fromTile.wavelet()) / maxDiff(wMine, new float[wMine.length]);
                if (!(wErr < 1e-6)) {
                    fail = first(fail, "wavelet gradient differs by " + wErr + " (relative to its maximum)");
                }
                // the pad's adjoint folds the padded-grid gradient back onto the caller's grid, on both sides alike
                int[] gshape = withCount(params, padded);
                float[] foldDd = Padding.padToMeshAdjoint(new Shaped<>(ddGlobal, gshape), shape, topo).data();
                float[] foldSg = Padding.padToMeshAdjoint(new Shaped<>(sg.parameters(), gshape), shape, topo).data();
                if (foldDd.length != m.length || !Arrays.equals(bits(foldDd), bits(foldSg))) {
                    fail = first(fail, "folded gradient differs");
                }
            }
            MpiCaseBatch.quietBarrier(comm);
            if (eq.hasBornOperator()) {
                fail = first(fail, checkImaging(dd, single, comm, topo, w, src, rec, per, mp, mpObs, params, padded));
            }
        }
        MpiCaseBatch.quietBarrier(comm);
        int[] bad = {fail == null ? 0 : 1};
        comm.allReduce(bad, 1, MPI.INT, MPI.MAX);
        return fail != null ? fail : bad[0] != 0 ? "a check failed on another rank" : null;
    }

    /**
     * The imaging paths of an equation with a Born operator: the Born record of the perturbation {@code mpObs − mp}
     * given as tiles, and the source illumination summed over the shot groups in shot order, against one domain's.
     */
    private static String checkImaging(ModelParallel dd, Propagator single, Intracomm comm, MeshTopology topo,
                                       float[] w, int[][][] src, int[][][] rec, int per, float[] mp, float[] mpObs,
                                       int params, int[] padded) throws Exception {
        String fail = null;
        int g = topo.shotGroup();
        int[][][] mySrc = Arrays.copyOfRange(src, per * g, per * g + per);
        int[][][] myRec = Arrays.copyOfRange(rec, per * g, per * g + per);
        float[] dm = new float[mp.length];
        for (int i = 0; i < dm.length; i++) {
            dm[i] = mpObs[i] - mp[i];
        }
        MeshTopology.Extent e = topo.localExtent(padded);
        Record born = dd.gatherRecord(dd.born(w, mySrc, myRec, tileOf(mp, params, padded, e),
                tileOf(dm, params, padded, e)));
        if (topo.tileRank() == 0) {
            Record ref = single.born(w, mySrc, myRec, mp, dm);
            if (!Arrays.equals(bits(ref.data()), bits(born.data()))) {
                fail = "gathered Born record differs from the single-domain one (max |diff| "
                        + maxDiff(ref.data(), born.data()) + " of max " + maxDiff(ref.data(),
                        new float[ref.data().length]) + ")";
            }
        }
        MpiCaseBatch.quietBarrier(comm);
        int tileCells = product(e.shape());
        Illumination il = new Illumination(per, tileCells);
        dd.forward(w, mySrc, myRec, null, 1, il);
        float[] illum = dd.allGatherTiles(dd.sumShotsInOrder(il.perShot(), tileCells));
        if (comm.getRank() == 0) {
            Illumination ref = new Illumination(src.length, product(padded));
            single.forward(w, src, rec, mp, 1, ref);
            if (!Arrays.equals(bits(ref.total()), bits(illum))) {
                fail = first(fail, "the source illumination summed over shot groups differs from one domain's");
            }
        }
        return fail;
    }

    private static int product(int[] shape) {
        int n = 1;
        for (int v : shape) {
            n *= v;
        }
        return n;
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    /** {@code (count, shape...)}: the shape of a parameter-major array. */
    private static int[] withCount(int count, int[] shape) {
        int[] s = new int[shape.length + 1];
        s[0] = count;
        System.arraycopy(shape, 0, s, 1, shape.length);
        return s;
    }

    /** This rank's tile of each parameter of a padded parameter-major model, one after the other. */
    private static float[] tileOf(float[] model, int params, int[] padded, MeshTopology.Extent e) {
        int nd = padded.length;
        int gy = nd == 3 ? padded[1] : 1;
        int gx = padded[nd - 1];
        int gcells = padded[0] * gy * gx;
        int ty = nd == 3 ? e.shape()[1] : 1;
        int tx = e.shape()[nd - 1];
        int oy = nd == 3 ? e.offsets()[1] : 0;
        int ox = e.offsets()[nd - 1];
        int tcells = padded[0] * ty * tx;
        float[] out = new float[params * tcells];
        for (int k = 0; k < params; k++) {
            for (int z = 0; z < padded[0]; z++) {
                for (int y = 0; y < ty; y++) {
                    System.arraycopy(model, k * gcells + (z * gy + y + oy) * gx + ox, out,
                            k * tcells + (z * ty + y) * tx, tx);
                }
            }
        }
        return out;
    }

    private static int[] at(int ndim, int x, int y, int z) {
        return ndim == 2 ? new int[] {x, z} : new int[] {x, y, z};
    }

    private static int[] point(Random rnd, int[] shape) {
        int nd = shape.length;
        int x = rnd.nextInt(shape[nd - 1]);
        int z = rnd.nextInt(shape[0]);
        return nd == 2 ? new int[] {x, z} : new int[] {x, rnd.nextInt(shape[1]), z};
    }

    private static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }

    private static double maxDiff(float[] a, float[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    private static int firstDiff(float[] a, float[] b) {
        for (int i = 0; i < a.length; i++) {
            if (Float.floatToRawIntBits(a[i]) != Float.floatToRawIntBits(b[i])) {
                return i;
            }
        }
        return -1;
    }
}
