package sweep.fwi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.parallel.MpiCaseBatch;

/**
 * Run under mpirun by {@link FwiMpiTest}: the same small two-band FWI (optionally with encoded supershots, with
 * the wavelet estimated per band and with the gradients preconditioned by each band's source illumination: the final
 * model's bits then also depend on the estimates and the illuminations), its gradient smoothed
 * and tapered around the sources, on one domain (the case's rank 0 runs it) and decomposed over each
 * mesh of the arguments, one after another in one job ({@link MpiCaseBatch}); prints "OK rank" per rank and mesh when
 * the misfit histories agree to 1e-6 relative per iteration and the final models are bit-identical.
 */
public final class FwiDdCheckMain {
    private FwiDdCheckMain() {
    }

    /**
     * Arguments: one {@code py:px:shotGroups:supershots[:flags]} per configuration (flags: {@code e}, the wavelet
     * estimated per band; {@code p}, illumination preconditioning), all run in this one job.
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
                    return check(comm, py, px, groups, supershots, estimate, precondition, a, world);
                }
            });
        }
        int failures = MpiCaseBatch.run(cases);
        Mpi.finish();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** One configuration on {@code comm}; prints "OK rank" or "FAIL rank" with {@code label}; returns the failures. */
    private static int check(Intracomm comm, int py, int px, int groups, int supershots, boolean estimate,
                             double precondition, String label, int world) throws Exception {
        int rank = comm.getRank();
        String failure = null;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(comm, py, px, groups)) {
            float[] vTrue = FwiTest.trueModel();
            float[] start = FwiTest.startModel(vTrue);
            Acquisition acq = FwiTest.acquisition(vTrue);
            // the gradient smoothed and tapered around the sources as well: both on the gathered global gradient
            GradientConditioner cond = GradientConditioner.of(acq.spec().shape(), acq.spec().dh(), FwiTest.MUTE,
                    new double[] {40, 60}, 50, acq.sources(), null);
            int its = 3;
            Inversion.Options opt = new Inversion.Options(List.of(new Inversion.Band(6, 2), new Inversion.Band(0, 1)),
                    supershots, 7, 4, new Fwi.Settings(0, 1400, 3000, 100, 5), estimate, precondition);
            Inversion.Listener quiet = new Inversion.Listener() { };
            List<Fwi.State> dd;
            try (DataObjective o = new DecomposedObjective(acq, mesh, cond)) {
                dd = Inversion.run(o, acq, start, opt, null, false, false, 0, quiet);
            }
            // the single-domain reference runs on the case's rank 0 only and is broadcast
            double[] refMisfit = new double[its];
            float[] refModel = new float[start.length];
            if (rank == 0) {
                try (DataObjective o = new SingleDomainObjective(acq, cond)) {
                    List<Fwi.State> single = Inversion.run(o, acq, start, opt, null, false, false, 0, quiet);
                    refMisfit = misfits(single);
                    refModel = single.get(1).model();
                }
            }
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
            if (failure == null && !Arrays.equals(refModel, dd.get(1).model())) {
                failure = "final models differ";
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

    /** The misfit after each iteration, band after band. */
    private static double[] misfits(List<Fwi.State> states) {
        return states.stream().flatMap(st -> st.history().stream()).mapToDouble(Fwi.Iteration::misfit).toArray();
    }
}
