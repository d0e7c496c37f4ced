package sweep.fwi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.parallel.MpiCaseBatch;
import sweep.prop.EnvelopeDifference;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;
import sweep.prop.TraceNormalizedCorrelation;

/**
 * Run under mpirun by {@link FwiMpiTest}: the same small FWI (two bands in 2-D, one in 3-D), 2-D or 3-D (optionally
 * with encoded supershots, with the wavelet estimated per band and with the gradients preconditioned by each band's
 * source illumination: the final model's bits then also depend on the estimates and the illuminations), its gradient
 * smoothed and tapered around the sources, on one domain (the case's rank 0 runs it) and decomposed over each mesh of
 * the arguments, one after another in one job ({@link MpiCaseBatch}), each rank holding only its tile of the
 * optimiser's arrays; prints "OK rank" per rank and mesh when the misfit histories agree to 1e-6 relative per iteration
 * and the final models are bit-identical (each rank's tile, and the tiles gathered); the 3-D meshes also gather a
 * larger model's tile array exactly.
 */
public final class FwiDdCheckMain {
    private FwiDdCheckMain() {
    }

    /**
     * Arguments: one {@code py:px:shotGroups:supershots[:flags]} per configuration (flags: {@code e}, the wavelet
     * estimated per band; {@code p}, illumination preconditioning; {@code 3}, the 3-D model; {@code n}, the
     * trace-normalised correlation misfit instead of L2; {@code v}, the envelope misfit), all run in this one job.
     */
    public static void main(String[] args) throws Exception {
        Mpi.init(args);
        int world = MPI.COMM_WORLD.getRank();
        List<MpiCaseBatch.Case> cases = new ArrayList<>();
        for (String a : args) {
            String[] f = a.split(":");
            int py = Integer.parseInt(f[0]);
            int px = Integer.parseInt(f[1]);
            int groups = Integer.parseInt(f[2]);
            int supershots = Integer.parseInt(f[3]);
            String flags = f.length > 4 ? f[4] : "";
            boolean estimate = flags.contains("e");
            double precondition = flags.contains("p") ? 0.01 : 0;
            boolean three = flags.contains("3");
            String misfit = flags.contains("n") ? "ncc" : flags.contains("v") ? "envelope" : "l2";
            cases.add(new MpiCaseBatch.Case() {
                @Override
                public int ranks() {
                    return py * px * groups;
                }

                @Override
                public String name() {
                    return "fwi " + a;
                }

                @Override
                public int run(Intracomm comm) throws Exception {
                    return check(comm, py, px, groups, supershots, estimate, precondition, three, misfit, a, world);
                }
            });
        }
        int failures = MpiCaseBatch.run(cases);
        Mpi.finish();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** One configuration on {@code comm}; prints "OK rank" or "FAIL rank" with {@code label}; returns the failures. */
    private static int check(Intracomm comm, int py, int px, int groups, int supershots, boolean estimate,
                             double precondition, boolean three, String misfitName, String label, int world)
            throws Exception {
        int rank = comm.getRank();
        String failure = null;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(comm, py, px, groups)) {
            float[] vTrue = three ? trueModel3d() : FwiTest.trueModel();
            float[] start = three ? startModel3d() : FwiTest.startModel(vTrue);
            Acquisition acq = three ? acquisition3d(vTrue) : FwiTest.acquisition(vTrue);
            // the gradient smoothed (reaching across the tiles) and tapered around the sources as well
            GradientConditioner cond = GradientConditioner.of(acq.spec().shape(), acq.spec().dh(), FwiTest.MUTE,
                    three ? new double[] {20, 30, 30} : new double[] {40, 60}, 50, acq.sources(), null);
            // two bands in 2-D; in 3-D (the costliest case) the full band alone, twice
            List<Inversion.Band> bands = three ? List.of(new Inversion.Band(0, 2))
                    : List.of(new Inversion.Band(6, 2), new Inversion.Band(0, 1));
            int its = bands.stream().mapToInt(Inversion.Band::iterations).sum();
            Inversion.Options opt = new Inversion.Options(bands,
                    supershots, 7, 4, new Fwi.Settings(0, 1400, 3000, 100, 5), estimate, precondition);
            Inversion.Listener quiet = new Inversion.Listener() { };
            List<Fwi.State> dd;
            ModelTile tile;
            int nt = acq.spec().nt();
            Misfit misfit = switch (misfitName) {
                case "ncc" -> new TraceNormalizedCorrelation(nt);
                case "envelope" -> new EnvelopeDifference(nt);
                default -> Misfit.L2;
            };
            try (DataObjective o = new DecomposedObjective(acq, mesh, cond)) {
                o.setMisfit(misfit);
                tile = o.tile();
                dd = Inversion.run(o, acq, tile.slice(start), opt, null, false, false, 0, quiet);
            }
            // the single-domain reference runs on the case's rank 0 only and is broadcast
            double[] refMisfit = new double[its];
            float[] refModel = new float[start.length];
            if (rank == 0) {
                try (DataObjective o = new SingleDomainObjective(acq, cond)) {
                    o.setMisfit(misfit);
                    List<Fwi.State> single = Inversion.run(o, acq, start, opt, null, false, false, 0, quiet);
                    refMisfit = misfits(single);
                    refModel = single.get(single.size() - 1).model();
                }
            }
            MpiCaseBatch.quietBarrier(comm); // the other ranks sleep while rank 0 runs the reference
            comm.bcast(refMisfit, its, MPI.DOUBLE, 0);
            comm.bcast(refModel, refModel.length, MPI.FLOAT, 0);
            double[] ddMisfit = misfits(dd);
            for (int i = 0; i < its && failure == null; i++) {
                double a = refMisfit[i];
                double b = ddMisfit[i];
                if (!(Math.abs(a - b) <= 1e-6 * Math.abs(a))) {
                    failure = "iteration " + (i + 1) + ": misfit " + b + " vs single-domain " + a;
                }
            }
            if (failure == null && !Arrays.equals(tile.slice(refModel), dd.get(dd.size() - 1).model())) {
                failure = "final models differ";
            }
            float[] gathered = tile.gather(dd.get(dd.size() - 1).model());
            if (failure == null && tile.isRoot() && !Arrays.equals(refModel, gathered)) {
                failure = "gathered final model differs";
            }
            if (failure == null && three) {
                failure = largeGather(mesh);
            }
            if (failure == null) {
                MpiCaseBatch.say(String.format("OK rank %d %s misfit %.9e -> %.9e", world, label, ddMisfit[0],
                        ddMisfit[its - 1]));
            }
        } catch (RuntimeException e) {
            failure = e.toString();
        }
        if (failure != null) {
            MpiCaseBatch.say("FAIL rank " + world + " " + label + ": " + failure);
            return 1;
        }
        return 0;
    }

    /**
     * Gathers a tile array of a 60 x 80 x 80 model holding each cell's global index (a float holds it exactly): null
     * when every value lands where it belongs, else what went wrong. Open MPI's Java gatherv into a Java array sizes
     * its native buffer as the largest displacement times its count, which overflows here on 2 x 2 ranks (a crash).
     */
    private static String largeGather(ModelParallelMesh mesh) {
        ModelTile big = ModelTile.of(mesh, new int[] {60, 80, 80}, 1);
        float[] v = new float[big.cells()];
        for (int i = 0; i < v.length; i++) {
            v[i] = big.globalIndex(i);
        }
        float[] all = big.gather(v);
        for (int i = 0; all != null && i < all.length; i++) {
            if (all[i] != i) {
                return "gather of a 60 x 80 x 80 model: cell " + i + " holds " + all[i];
            }
        }
        return all == null && big.isRoot() ? "the root gathered nothing" : null;
    }

    static final int NZ3 = 20;
    static final int NY3 = 16;
    static final int NX3 = 16;

    /** A small 3-D true model: a vertical gradient and a fast blob. */
    static float[] trueModel3d() {
        float[] v = new float[NZ3 * NY3 * NX3];
        for (int z = 0; z < NZ3; z++) {
            for (int y = 0; y < NY3; y++) {
                for (int x = 0; x < NX3; x++) {
                    double a = Math.exp(-(Math.pow(z - 12, 2) + Math.pow(y - 7, 2) + Math.pow(x - 9, 2)) / 12.0);
                    v[(z * NY3 + y) * NX3 + x] = (float) (1800 + 20 * z + 300 * a);
                }
            }
        }
        return v;
    }

    /** The 3-D start: the true model's vertical gradient without the blob. */
    static float[] startModel3d() {
        float[] v = new float[NZ3 * NY3 * NX3];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1800 + 20 * (i / (NY3 * NX3));
        }
        return v;
    }

    /** Two surface shots over a grid of surface receivers, free surface, boundary saving. */
    static Acquisition acquisition3d(float[] vTrue) {
        int nt = 220;
        PropSpec spec = PropSpec.builder(NZ3, NY3, NX3).dh(10).dt(1e-3).nt(nt).abcn(8).freeSurface(true)
                .maxVel(2400).storage(Storage.BOUNDARY_SAVING).build();
        float[] w = Wavelets.ricker(15, nt, 1e-3);
        int[][][] src = {{{4, 5, 1}}, {{12, 10, 1}}};
        int[][][] rec = new int[2][(NY3 / 2) * (NX3 / 2)][];
        for (int b = 0; b < 2; b++) {
            for (int y = 0; y < NY3 / 2; y++) {
                for (int x = 0; x < NX3 / 2; x++) {
                    rec[b][y * (NX3 / 2) + x] = new int[] {2 * x, 2 * y, 1};
                }
            }
        }
        float[] obs;
        try (Propagator p = new Propagator(spec)) {
            obs = p.forward(w, src, rec, vTrue).data();
        }
        return new Acquisition(spec, w, src, rec, obs);
    }

    /** The misfit after each iteration, band after band. */
    private static double[] misfits(List<Fwi.State> states) {
        return states.stream().flatMap(st -> st.history().stream()).mapToDouble(Fwi.Iteration::misfit).toArray();
    }
}
