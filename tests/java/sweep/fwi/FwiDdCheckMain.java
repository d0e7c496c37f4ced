package sweep.fwi;

import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;

/**
 * Run under mpirun by {@link FwiMpiTest}: the same small two-band FWI (optionally with encoded supershots), its
 * gradient smoothed and tapered around the sources, on one domain (rank 0 runs it) and decomposed over the mesh given
 * in the arguments (py px shotGroups supershots); prints "OK" per rank when the misfit histories agree to 1e-6
 * relative per iteration and the final models are bit-identical.
 */
public final class FwiDdCheckMain {
    public static void main(String[] args) throws Exception {
        int py = Integer.parseInt(args[0]);
        int px = Integer.parseInt(args[1]);
        int groups = Integer.parseInt(args[2]);
        int supershots = Integer.parseInt(args[3]);
        Mpi.init(args);
        int rank = mpi.MPI.COMM_WORLD.getRank();
        String failure = null;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(py, px, groups)) {
            float[] vTrue = FwiTest.trueModel();
            float[] start = FwiTest.startModel(vTrue);
            Acquisition acq = FwiTest.acquisition(vTrue);
            // the gradient smoothed and tapered around the sources as well: both on the gathered global gradient
            GradientConditioner cond = GradientConditioner.of(acq.spec().shape(), acq.spec().dh(), FwiTest.MUTE,
                    new double[] {40, 60}, 50, acq.sources(), null);
            int its = 3;
            Inversion.Options opt = new Inversion.Options(java.util.List.of(new Inversion.Band(6, 2),
                    new Inversion.Band(0, 1)), supershots, 7, 4, new Fwi.Settings(0, 1400, 3000, 100, 5));
            Inversion.Listener quiet = new Inversion.Listener() { };
            java.util.List<Fwi.State> dd;
            try (DataObjective o = new DecomposedObjective(acq, mesh, cond)) {
                dd = Inversion.run(o, acq, start, opt, null, false, false, 0, quiet);
            }
            // the single-domain reference runs on rank 0 only and is broadcast
            double[] refMisfit = new double[its];
            float[] refModel = new float[start.length];
            if (rank == 0) {
                try (DataObjective o = new SingleDomainObjective(acq, cond)) {
                    java.util.List<Fwi.State> single = Inversion.run(o, acq, start, opt, null, false, false, 0, quiet);
                    refMisfit = misfits(single);
                    refModel = single.get(1).model();
                }
            }
            mpi.MPI.COMM_WORLD.bcast(refMisfit, its, mpi.MPI.DOUBLE, 0);
            mpi.MPI.COMM_WORLD.bcast(refModel, refModel.length, mpi.MPI.FLOAT, 0);
            double[] ddMisfit = misfits(dd);
            for (int i = 0; i < its && failure == null; i++) {
                double a = refMisfit[i];
                double b = ddMisfit[i];
                if (!(Math.abs(a - b) <= 1e-6 * Math.abs(a))) {
                    failure = "iteration " + (i + 1) + ": misfit " + b + " vs single-domain " + a;
                }
            }
            if (failure == null && !java.util.Arrays.equals(refModel, dd.get(1).model())) {
                failure = "final models differ";
            }
            if (failure == null) {
                say(String.format("OK rank %d misfit %.9e -> %.9e", rank, ddMisfit[0], ddMisfit[its - 1]));
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

    /** The misfit after each iteration, band after band. */
    private static double[] misfits(java.util.List<Fwi.State> states) {
        return states.stream().flatMap(st -> st.history().stream()).mapToDouble(Fwi.Iteration::misfit).toArray();
    }

    private static void say(String line) {
        byte[] b = (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.out.write(b, 0, b.length);
        System.out.flush();
    }
}
