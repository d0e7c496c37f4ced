package sweep.parallel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import mpi.Intracomm;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.prop.ElasticSource;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * Run under mpirun by {@link ElasticModelParallelMpiTest}: for each case configuration in the arguments, decomposes an
 * elastic problem over that mesh and checks that the DD records and gradients (dJ/dvp, dJ/dvs, dJ/drho) are
 * bit-identical to the single-domain solver's (run by each group root for its records and by rank 0 of the case's
 * communicator for the gradient of every shot): both storages, with and without a free surface, a source type per
 * case (forces whose node lies half a cell from a cut, explosions on a cut), every field recorded at receivers on both
 * sides of each cut (vx and vy receivers whose node lies on the cut plane), models given whole and as tiles (the
 * tile's margins then come from the neighbours). The configurations run one after another in one job through
 * {@link MpiCaseBatch}, each on a communicator of its own size. Every rank of a configuration prints one "OK" or
 * "FAIL" line per case, with its world rank (FAIL on all its ranks when a check failed on any).
 * Arguments: one per configuration, {@code ndim:py:px:shotGroups:nx:order}, e.g. {@code 2:1:2:1:41:8}; its ranks
 * are py·px·shotGroups.
 */
public final class ElasticDdCheckMain {
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int world = MPI.COMM_WORLD.getRank();
        List<MpiCaseBatch.Case> cases = new ArrayList<>();
        for (String a : args) {
            cases.add(config(a, world));
        }
        int failures = MpiCaseBatch.run(cases);
        Mpi.finish();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** The case for one {@code ndim:py:px:shotGroups:nx:order} argument; its lines name world rank {@code world}. */
    static MpiCaseBatch.Case config(String arg, int world) {
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
        ElasticSource[] types = ndim == 2
                ? new ElasticSource[] {ElasticSource.FX, ElasticSource.EXPLOSIVE, ElasticSource.FZ, ElasticSource.FX}
                : new ElasticSource[] {ElasticSource.FY, ElasticSource.EXPLOSIVE, ElasticSource.FX, ElasticSource.FZ};
        return new MpiCaseBatch.Case() {
            @Override
            public int ranks() {
                return py * px * groups;
            }

            @Override
            public String name() {
                return arg;
            }

            @Override
            public int run(Intracomm comm) throws Exception {
                int failures = 0;
                try (ModelParallelMesh mesh = ModelParallelMesh.create(comm, py, px, groups)) {
                    int k = 0;
                    for (boolean fs : new boolean[] {false, true}) {
                        for (Storage storage : Storage.values()) {
                            ElasticSource type = types[k++];
                            String label = String.format("%dD py=%d px=%d groups=%d nx=%d order=%d fs=%b %s %s", ndim,
                                    py, px, groups, nx, order, fs, storage, type.label());
                            String failure;
                            try {
                                failure = check(comm, mesh, ndim, nx, order, fs, storage, type);
                            } catch (RuntimeException e) {
                                failure = e.toString();
                            }
                            if (failure == null) {
                                DdCheckMain.say("OK rank " + world + " " + label);
                            } else {
                                DdCheckMain.say("FAIL rank " + world + " " + label + ": " + failure);
                                failures++;
                            }
                        }
                    }
                }
                return failures;
            }
        };
    }

    /** vp, vs, rho one after the other on {@code shape}: smooth random, a fluid (vs = 0) patch near the top. */
    static float[] model(int[] shape, double scale, long seed) {
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        float[] vp = DdCheckMain.model(shape, 2500 * scale, seed);
        float[] vs = DdCheckMain.model(shape, 1200 * scale, seed + 1);
        float[] rho = DdCheckMain.model(shape, 2100, seed + 2);
        int nxs = shape[shape.length - 1];
        for (int i = 0; i < n; i++) {
            int x = i % nxs;
            int z = i / (n / shape[0]);
            if (z < 2 && x > nxs / 3 && x < nxs / 2) {
                vs[i] = 0; // water: dJ/dvs is 0 there, and shear nodes next to it get nothing
            }
        }
        float[] m = new float[3 * n];
        System.arraycopy(vp, 0, m, 0, n);
        System.arraycopy(vs, 0, m, n, n);
        System.arraycopy(rho, 0, m, 2 * n, n);
        return m;
    }

    /**
     * One case on {@code comm}, the communicator {@code mesh} was made from (its rank 0 runs the single-domain
     * gradient); returns null when every check passed on every rank of it, else what failed.
     */
    static String check(Intracomm comm, ModelParallelMesh mesh, int ndim, int nxGlobal, int order, boolean fs,
                        Storage storage, ElasticSource type) throws Exception {
        MeshTopology topo = mesh.topology();
        int[] shape = ndim == 2 ? new int[] {22, nxGlobal} : new int[] {12, 16, nxGlobal};
        int nt = ndim == 2 ? 120 : 50;
        int groups = topo.shotGroups();
        float[] m = model(shape, 1.0, 71);
        float[] mObs = model(shape, 1.02, 72);
        int[] padded = Padding.paddedShape(shape, topo);
        int[] pshape = new int[ndim + 1];
        pshape[0] = 3;
        System.arraycopy(shape, 0, pshape, 1, ndim);
        float[] mp3 = Padding.padToMesh(m, pshape, topo).data(); // each parameter padded alike
        float[] mObsP = Padding.padToMesh(mObs, pshape, topo).data();
        String fields = ndim == 2 ? "vx,p,vz" : "vy,p,vz,vx";
        PropSpec spec = PropSpec.builder(padded).equation("elastic").dh(10).dt(ndim == 2 ? 1e-3 : 8e-4)
                .nt(nt).abcn(ndim == 2 ? 6 : 4).order(order).freeSurface(fs).storage(storage).sourceType(type.label())
                .recordFields(fields).threads(1).build();
        int per = 2; // shots per group
        int shots = per * groups;
        int nx = padded[ndim - 1];
        int tx = nx / topo.px();
        int ty = ndim == 3 ? padded[1] / topo.py() : 1;
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][][];
        Random rnd = new Random(9);
        for (int b = 0; b < shots; b++) {
            // on the cut (first cell of the second tile: a force's node half a cell past the cut plane), next to it
            // (the last cell of the first tile: its x node lies on the cut plane), and anywhere
            int cut = topo.px() > 1 ? tx : nx / 2;
            int ycut = ndim == 3 && topo.py() > 1 ? ty : 3;
            src[b] = new int[][] {DdCheckMain.at(ndim, cut, ycut, 1 + b),
                DdCheckMain.at(ndim, cut - 1, ycut - 1, 4 + b), DdCheckMain.point(rnd, padded)};
        }
        List<int[]> recs = new ArrayList<>();
        for (int c = 1; c < topo.px(); c++) {
            for (int dx = -2; dx <= 1; dx++) {
                recs.add(DdCheckMain.at(ndim, c * tx + dx, ndim == 3 ? (c + dx + 4) % padded[1] : 0, 2 + c + dx));
            }
        }
        if (ndim == 3 && topo.py() > 1) {
            for (int dy = -2; dy <= 1; dy++) {
                recs.add(DdCheckMain.at(ndim, (5 * (dy + 3)) % nx, ty + dy, 3));
            }
        }
        recs.add(DdCheckMain.at(ndim, nx - 1, ndim == 3 ? padded[1] - 1 : 0, 0)); // vx/vy nodes in the PML pad
        for (int r = 0; r < 4; r++) {
            recs.add(DdCheckMain.point(rnd, padded));
        }
        for (int b = 0; b < shots; b++) {
            rec[b] = recs.toArray(new int[0][]);
        }
        float[] w = Wavelets.ricker(15, nt, spec.dt());
        int g = topo.shotGroup();
        int[][][] mySrc = Arrays.copyOfRange(src, per * g, per * g + per);
        int[][][] myRec = Arrays.copyOfRange(rec, per * g, per * g + per);
        MeshTopology.Extent ext = topo.localExtent(padded);
        float[] tile = tileOf(mp3, padded, ext);
        // every rank makes every collective call; a check that fails is reported after them (no rank leaves early)
        String fail = null;
        int caseRank = comm.getRank(); // rank 0 of the case runs the single-domain observed data and gradient
        try (ModelParallel mp = new ModelParallel(spec, mesh); Propagator single = new Propagator(spec)) {
            Record whole = mp.forward(w, mySrc, myRec, mp3);
            long before = mp.haloExchanges();
            Record tiled = mp.forward(w, mySrc, myRec, tile);
            // one exchange (one message per neighbour) per sub-step: velocities, then stresses
            if (mp.haloExchanges() - before != 2L * nt * per) {
                fail = first(fail, "the forward made " + (mp.haloExchanges() - before) + " halo exchanges for " + per
                        + " shots of " + nt + " steps; expected 2 per step");
            }
            if (!Arrays.equals(DdCheckMain.bits(whole.data()), DdCheckMain.bits(tiled.data()))) {
                fail = first(fail, "forward from tile models differs from the forward from the global model");
            }
            Record gathered = mp.gatherRecord(tiled);
            if (topo.tileRank() == 0) { // the group root checks its group's record against the single domain's
                Record ref = single.forward(w, mySrc, myRec, mp3);
                if (gathered.nfield() != fields.split(",").length
                        || !Arrays.equals(DdCheckMain.bits(ref.data()), DdCheckMain.bits(gathered.data()))) {
                    fail = first(fail, "gathered forward record differs from the single-domain record (max |diff| "
                            + DdCheckMain.maxDiff(ref.data(), gathered.data()) + ")");
                }
            }
            int[] owned = new int[recs.size()];
            for (int i : mp.ownReceiverIndices()) {
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
            if (caseRank == 0) {
                obsAll = single.forward(w, src, rec, mObsP).data();
            }
            comm.bcast(obsAll, obsAll.length, MPI.FLOAT, 0);
            // the CLI's path: tile models, this rank's traces of the observed data
            int[] own = mp.ownedReceivers(myRec);
            float[] ownObs = new float[per * nt * own.length * nf];
            for (int b = 0; b < per; b++) {
                for (int t = 0; t < nt; t++) {
                    for (int r = 0; r < own.length; r++) {
                        System.arraycopy(obsAll, (((per * g + b) * nt + t) * nrec + own[r]) * nf, ownObs,
                                ((b * nt + t) * own.length + r) * nf, nf);
                    }
                }
            }
            Gradient dd = mp.forwardAndGradientOwnTraces(w, mySrc, myRec, tile, ownObs, Misfit.L2);
            float[] ddGlobal = mp.allGatherTiles(dd.parameters());
            // the global-model call gives the same gradient
            Gradient dd2 = mp.forwardAndGradient(w, mySrc, myRec, mp3, Arrays.copyOfRange(obsAll,
                    per * g * nt * nrec * nf, (per * g + per) * nt * nrec * nf), Misfit.L2);
            if (dd.count() != 3 || !Arrays.equals(DdCheckMain.bits(dd.parameters()),
                    DdCheckMain.bits(dd2.parameters()))) {
                fail = first(fail, "the gradient from the global model differs from the one from tile models");
            }
            if (caseRank == 0) { // the single domain's gradient of every shot, against the gathered DD gradient
                Gradient sg = single.forwardAndGradient(w, src, rec, mp3, obsAll, Misfit.L2);
                if (!Arrays.equals(DdCheckMain.bits(sg.parameters()), DdCheckMain.bits(ddGlobal))) {
                    fail = first(fail, "DD gradient differs from the single-domain gradient (max |diff| "
                            + DdCheckMain.maxDiff(sg.parameters(), ddGlobal) + " of max "
                            + DdCheckMain.maxDiff(sg.parameters(), new float[ddGlobal.length]) + ", first at "
                            + firstDiff(sg.parameters(), ddGlobal) + ")");
                }
                if (Math.abs(dd.misfit() - sg.misfit()) > 1e-12 * Math.abs(sg.misfit())) {
                    fail = first(fail, "misfit summed over ranks " + dd.misfit() + " != single-domain " + sg.misfit());
                }
                // dJ/dwavelet sums a shot's sources, which tiles add in another order: to rounding
                float[] wMine = Arrays.copyOfRange(sg.wavelet(), 0, per * nt); // rank 0 of comm is in group 0
                double wErr = DdCheckMain.maxDiff(wMine, dd.wavelet())
                        / DdCheckMain.maxDiff(wMine, new float[wMine.length]);
                if (!(wErr < 1e-6)) {
                    fail = first(fail, "wavelet gradient differs by " + wErr + " (relative to its maximum)");
                }
                // the pad's adjoint, per parameter
                int[] gshape = new int[ndim + 1];
                gshape[0] = 3;
                System.arraycopy(padded, 0, gshape, 1, ndim);
                float[] foldDd = Padding.padToMeshAdjoint(new Shaped<>(ddGlobal, gshape), shape, topo).data();
                float[] foldSg = Padding.padToMeshAdjoint(new Shaped<>(sg.parameters(), gshape), shape, topo).data();
                if (foldDd.length != m.length
                        || !Arrays.equals(DdCheckMain.bits(foldDd), DdCheckMain.bits(foldSg))) {
                    fail = first(fail, "folded gradient differs");
                }
            }
        }
        int[] bad = {fail == null ? 0 : 1};
        comm.allReduce(bad, 1, MPI.INT, MPI.MAX);
        return fail != null ? fail : bad[0] != 0 ? "a check failed on another rank" : null;
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    /** This rank's tile of each parameter of a padded parameter-major model, one after the other. */
    static float[] tileOf(float[] model, int[] padded, MeshTopology.Extent e) {
        int nd = padded.length;
        int gy = nd == 3 ? padded[1] : 1;
        int gx = padded[nd - 1];
        int gcells = padded[0] * gy * gx;
        int ty = nd == 3 ? e.shape()[1] : 1;
        int tx = e.shape()[nd - 1];
        int oy = nd == 3 ? e.offsets()[1] : 0;
        int ox = e.offsets()[nd - 1];
        int tcells = padded[0] * ty * tx;
        float[] out = new float[3 * tcells];
        for (int k = 0; k < 3; k++) {
            for (int z = 0; z < padded[0]; z++) {
                for (int y = 0; y < ty; y++) {
                    System.arraycopy(model, k * gcells + (z * gy + y + oy) * gx + ox, out,
                            k * tcells + (z * ty + y) * tx, tx);
                }
            }
        }
        return out;
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
