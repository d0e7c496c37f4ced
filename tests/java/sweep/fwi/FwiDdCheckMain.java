package sweep.fwi;

import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;

/**
 * Run under mpirun by {@link FwiMpiTest}: the same small FWI on one domain (every rank runs it) and decomposed over
 * the mesh given in the arguments (py px shotGroups); prints "OK" per rank when the misfit histories agree to 1e-6
 * relative per iteration and the final models are bit-identical.
 */
public final class FwiDdCheckMain {
    public static void main(String[] args) throws Exception {
        int py = Integer.parseInt(args[0]);
        int px = Integer.parseInt(args[1]);
        int groups = Integer.parseInt(args[2]);
        Mpi.init(args);
        int rank = mpi.MPI.COMM_WORLD.getRank();
        String failure = null;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(py, px, groups)) {
            float[] vTrue = FwiTest.trueModel();
            float[] start = FwiTest.startModel(vTrue);
            Acquisition acq = FwiTest.acquisition(vTrue);
            int its = 3;
            Fwi.Settings s = new Fwi.Settings(its, 1400, 3000, 100, 5);
            Fwi.State dd;
            try (Objective o = new DecomposedObjective(acq, mesh, FwiTest.MUTE)) {
                dd = Fwi.run(o, start, s, null, null);
            }
            // the single-domain reference runs on rank 0 only and is broadcast
            double[] refMisfit = new double[its];
            float[] refModel = new float[start.length];
            if (rank == 0) {
                try (Objective o = new SingleDomainObjective(acq, FwiTest.MUTE)) {
                    Fwi.State single = Fwi.run(o, start, s, null, null);
                    for (int i = 0; i < its; i++) {
                        refMisfit[i] = single.history().get(i).misfit();
                    }
                    refModel = single.model();
                }
            }
            mpi.MPI.COMM_WORLD.bcast(refMisfit, its, mpi.MPI.DOUBLE, 0);
            mpi.MPI.COMM_WORLD.bcast(refModel, refModel.length, mpi.MPI.FLOAT, 0);
            for (int i = 0; i < its && failure == null; i++) {
                double a = refMisfit[i];
                double b = dd.history().get(i).misfit();
                if (!(Math.abs(a - b) <= 1e-6 * Math.abs(a))) {
                    failure = "iteration " + (i + 1) + ": misfit " + b + " vs single-domain " + a;
                }
            }
            if (failure == null && !java.util.Arrays.equals(refModel, dd.model())) {
                failure = "final models differ";
            }
            if (failure == null) {
                say(String.format("OK rank %d misfit %.9e -> %.9e", rank, dd.initialMisfit(), dd.misfit()));
            }
        } catch (RuntimeException e) {
            failure = e.toString();
        }
        if (failure != null) {
            say("FAIL rank " + rank + ": " + failure);
        }
        Mpi.finish();
        System.exit(failure == null ? 0 : 1);
    }

    private static void say(String line) {
        byte[] b = (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.out.write(b, 0, b.length);
        System.out.flush();
    }
}
