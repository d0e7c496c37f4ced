package sweep.parallel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import mpi.Intracomm;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * Run under mpirun by {@link ModelParallelMpiTest}: for each case configuration in the arguments, decomposes a problem
 * over that mesh and checks, on every rank, that the DD record and gradient are bit-identical to the single-domain
 * solver's (which each rank also runs), for both storages, with and without free surface, and each listed order.
 * The configurations run one after another in one job through {@link MpiCaseBatch}, each on a communicator of its own
 * size (a 2-rank one on world ranks 0 and 1 of a 4-rank job). Prints one "OK" or "FAIL" line per rank and case (with
 * the world rank; FAIL on all ranks of the configuration when a check failed on any) and exits non-zero on a failure.
 * Arguments: one per configuration, {@code ndim:py:px:shotGroups:nx:orders} with orders comma-separated, e.g.
 * {@code 2:1:2:1:47:4,8}; its ranks are py·px·shotGroups.
 */
public final class DdCheckMain {
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

    /** The case for one {@code ndim:py:px:shotGroups:nx:orders} argument; its lines name world rank {@code world}. */
    static MpiCaseBatch.Case config(String arg, int world) {
        String[] f = arg.split(":");
        if (f.length != 6) {
            throw new IllegalArgumentException("expected ndim:py:px:shotGroups:nx:orders, got " + arg);
        }
        int ndim = Integer.parseInt(f[0]);
        int py = Integer.parseInt(f[1]);
        int px = Integer.parseInt(f[2]);
        int groups = Integer.parseInt(f[3]);
        int nx = Integer.parseInt(f[4]);
        int[] orders = Arrays.stream(f[5].split(",")).mapToInt(Integer::parseInt).toArray();
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
                    for (int order : orders) {
                        for (boolean fs : new boolean[] {false, true}) {
                            for (Storage storage : Storage.values()) {
                                String label = String.format("%dD py=%d px=%d groups=%d nx=%d order=%d fs=%b %s", ndim,
                                        py, px, groups, nx, order, fs, storage);
                                String failure;
                                try {
                                    failure = check(comm, mesh, ndim, nx, order, fs, storage);
                                } catch (RuntimeException e) {
                                    failure = e.toString();
                                }
                                if (failure == null) {
                                    say("OK rank " + world + " " + label);
                                } else {
                                    say("FAIL rank " + world + " " + label + ": " + failure);
                                    failures++;
                                }
                            }
                        }
                    }
                }
                return failures;
            }
        };
    }

    /**
     * One case on {@code comm}, the communicator {@code mesh} was made from; returns null when the DD results are
     * bit-identical to the single domain on every rank of it, else what differs.
     */
    static String check(Intracomm comm, ModelParallelMesh mesh, int ndim, int nxGlobal, int order, boolean fs,
                        Storage storage) throws Exception {
        MeshTopology topo = mesh.topology();
        int[] shape = ndim == 2 ? new int[] {30, nxGlobal} : new int[] {16, 20, nxGlobal};
        int nt = ndim == 2 ? 240 : 110;
        int groups = topo.shotGroups();
        float[] v = model(shape, 2300, 61);
        float[] vObs = model(shape, 2250, 62);
        // A grid the mesh does not divide is padded on the high side first (the documented path).
        int[] padded = Padding.paddedShape(shape, topo);
        float[] vp = Padding.padToMesh(v, shape, topo).data();
        float[] vpObs = Padding.padToMesh(vObs, shape, topo).data();
        PropSpec spec = PropSpec.builder(padded).dh(10).dt(1e-3).nt(nt).abcn(ndim == 2 ? 8 : 5).order(order)
                .freeSurface(fs).storage(storage).threads(1).build();
        int per = 2; // shots per group
        int shots = per * groups;
        int nx = padded[ndim - 1];
        int nz = padded[0];
        int tx = nx / topo.px();
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][][];
        Random rnd = new Random(5);
        for (int b = 0; b < shots; b++) {
            // one source on a cut face (first cell of the second tile), one next to it, one anywhere
            int cut = topo.px() > 1 ? tx : nx / 2;
            src[b] = new int[][] {at(ndim, cut, 3, 1 + b), at(ndim, cut - 1, 4, 2 + b), point(rnd, padded)};
        }
        java.util.List<int[]> recs = new java.util.ArrayList<>();
        for (int c = 1; c < topo.px(); c++) {
            for (int dx = -2; dx <= 1; dx++) {
                recs.add(at(ndim, c * tx + dx, (c + dx + 4) % (ndim == 3 ? padded[1] : 1), 2 + c));
            }
        }
        if (ndim == 3 && topo.py() > 1) {
            int ty = padded[1] / topo.py();
            for (int dy = -2; dy <= 1; dy++) {
                recs.add(at(ndim, (5 * (dy + 3)) % nx, ty + dy, 4));
            }
        }
        for (int r = 0; r < 6; r++) {
            recs.add(point(rnd, padded));
        }
        for (int b = 0; b < shots; b++) {
            rec[b] = recs.toArray(new int[0][]);
        }
        float[] w = Wavelets.ricker(14, nt, 1e-3);
        int g = topo.shotGroup();
        int[][][] mySrc = Arrays.copyOfRange(src, per * g, per * g + per);
        int[][][] myRec = Arrays.copyOfRange(rec, per * g, per * g + per);
        // every rank makes every collective call; a check that fails is reported after them (a rank that left early
        // would leave the others in a collective it never joins, and the next case of the batch out of step)
        String fail = null;
        try (ModelParallel mp = new ModelParallel(spec, mesh); Propagator single = new Propagator(spec)) {
            // the serial path (update, then exchange) is the reference; the overlapped path must give the same bits
            mp.setOverlap(false);
            Record serial = mp.forward(w, mySrc, myRec, vp);
            mp.setOverlap(true);
            Record tileRec = mp.forward(w, mySrc, myRec, vp);
            if (!Arrays.equals(bits(serial.data()), bits(tileRec.data()))) {
                fail = first(fail, "overlapped forward differs from the serial path");
            }
            // one exchange per shot and step on either path, and its time charged to the phases that make it up
            if (mp.haloExchanges() != 2L * per * nt) {
                fail = first(fail, "halo exchanges: " + mp.haloExchanges() + " in two forwards of " + per
                        + " shots x " + nt + " steps");
            }
            double phases = mp.haloSeconds(HaloExchange.COPY) + mp.haloSeconds(HaloExchange.MPI_POST)
                    + mp.haloSeconds(HaloExchange.WAIT);
            if (!(mp.haloSeconds(HaloExchange.COPY) > 0 && mp.haloSeconds(HaloExchange.MPI_POST) > 0
                    && mp.haloSeconds(HaloExchange.WAIT) > 0 && Math.abs(phases - mp.haloSeconds()) < 1e-9)) {
                fail = first(fail, "halo phases copy/post/wait " + mp.haloSeconds(HaloExchange.COPY) + "/"
                        + mp.haloSeconds(HaloExchange.MPI_POST) + "/" + mp.haloSeconds(HaloExchange.WAIT)
                        + " s do not make up the total " + mp.haloSeconds() + " s");
            }
            Record gathered = mp.gatherRecord(tileRec);
            Record ref = single.forward(w, mySrc, myRec, vp);
            if (topo.tileRank() == 0) {
                if (!Arrays.equals(bits(ref.data()), bits(gathered.data()))) {
                    fail = first(fail, "gathered forward record differs from the single-domain record");
                }
            } else if (gathered != null) {
                fail = first(fail, "gatherRecord returned a record on a non-root rank");
            }
            // every receiver is owned by exactly one tile of the group
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
            Record again = mp.forward(w, mySrc, myRec, null);
            if (!Arrays.equals(bits(again.data()), bits(tileRec.data()))) {
                fail = first(fail, "forward with models = null differs");
            }
            float[] obsMine = single.forward(w, mySrc, myRec, vpObs).data();
            Gradient dd = mp.forwardAndGradient(w, mySrc, myRec, vp, obsMine, Misfit.L2);
            float[] ddGlobal = mp.allGatherTiles(dd.vp());
            float[] obsAll = single.forward(w, src, rec, vpObs).data();
            Gradient sg = single.forwardAndGradient(w, src, rec, vp, obsAll, Misfit.L2);
            if (!Arrays.equals(bits(sg.vp()), bits(ddGlobal))) {
                fail = first(fail, "DD gradient differs from the single-domain gradient (max |diff| "
                        + maxDiff(sg.vp(), ddGlobal) + " of max " + maxDiff(sg.vp(), new float[sg.vp().length]) + ")");
            }
            if (Math.abs(dd.misfit() - sg.misfit()) > 1e-12 * Math.abs(sg.misfit())) {
                fail = first(fail, "misfit summed over ranks " + dd.misfit() + " != single-domain " + sg.misfit());
            }
            // dJ/dwavelet sums the shot's sources; sources on different tiles are added in another order than on
            // one domain, so this one agrees to rounding, not bit for bit
            float[] wMine = Arrays.copyOfRange(sg.wavelet(), per * g * nt, (per * g + per) * nt);
            double wErr = maxDiff(wMine, dd.wavelet()) / maxDiff(wMine, new float[wMine.length]);
            if (!(wErr < 1e-6)) {
                fail = first(fail, "wavelet gradient differs by " + wErr + " (relative to its maximum)");
            }
            // the pad's adjoint folds the padded-grid gradient back onto the caller's grid, on both sides alike
            float[] foldDd = Padding.padToMeshAdjoint(new Shaped<>(ddGlobal, padded), shape, topo).data();
            float[] foldSg = Padding.padToMeshAdjoint(new Shaped<>(sg.vp(), padded), shape, topo).data();
            if (foldDd.length != v.length || !Arrays.equals(bits(foldDd), bits(foldSg))) {
                fail = first(fail, "folded gradient differs");
            }
        }
        int[] bad = {fail == null ? 0 : 1};
        comm.allReduce(bad, 1, MPI.INT, MPI.MAX);
        return fail != null ? fail : bad[0] != 0 ? "a check failed on another rank" : null;
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    static int[] at(int ndim, int x, int y, int z) {
        return ndim == 2 ? new int[] {x, z} : new int[] {x, y, z};
    }

    /** One write per line, so that mpirun does not interleave the ranks' lines. */
    static void say(String line) {
        byte[] b = (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.out.write(b, 0, b.length);
        System.out.flush();
    }

    static int[] point(Random rnd, int[] shape) {
        int nd = shape.length;
        int x = rnd.nextInt(shape[nd - 1]);
        int z = rnd.nextInt(shape[0]);
        return nd == 2 ? new int[] {x, z} : new int[] {x, rnd.nextInt(shape[1]), z};
    }

    static float[] model(int[] shape, double v0, long seed) {
        Random rnd = new Random(seed);
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        float[] v = new float[n];
        double a = rnd.nextDouble();
        for (int i = 0; i < n; i++) {
            v[i] = (float) (v0 + 300 * Math.sin(0.05 * i + a) + 50 * rnd.nextDouble());
        }
        return v;
    }

    static int[] bits(float[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = Float.floatToRawIntBits(a[i]);
        }
        return b;
    }

    static double maxDiff(float[] a, float[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }
}
