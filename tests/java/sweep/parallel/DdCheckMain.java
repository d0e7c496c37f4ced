package sweep.parallel;

import java.util.Arrays;
import java.util.Random;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * Run under mpirun by {@link ModelParallelMpiTest}: decomposes a problem over the mesh given in the arguments and
 * checks, on every rank, that the DD record and gradient are bit-identical to the single-domain solver's (which each
 * rank also runs). Prints one "OK" or "FAIL" line per rank and exits non-zero on a failure.
 * Arguments: ndim py px shotGroups storage(FULL|BOUNDARY_SAVING) freeSurface(true|false).
 */
public final class DdCheckMain {
    public static void main(String[] args) throws Exception {
        int ndim = Integer.parseInt(args[0]);
        int py = Integer.parseInt(args[1]);
        int px = Integer.parseInt(args[2]);
        int groups = Integer.parseInt(args[3]);
        Storage storage = Storage.valueOf(args[4]);
        boolean fs = Boolean.parseBoolean(args[5]);
        MPI.InitThread(args, MPI.THREAD_FUNNELED);
        int rank = MPI.COMM_WORLD.getRank();
        String failure = null;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(py, px, groups)) {
            int[] shape = ndim == 2 ? new int[] {30, 48} : new int[] {18, 20, 24};
            int nt = ndim == 2 ? 260 : 120;
            PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(nt).abcn(ndim == 2 ? 8 : 5)
                    .order(ndim == 2 ? 8 : 6).freeSurface(fs).storage(storage).threads(1).build();
            float[] v = model(shape, 2300, 61);
            float[] vObs = model(shape, 2250, 62);
            // One group: a batch of 2 shots. Several groups: one shot each, so the all-reduce over the shot
            // communicator adds per-shot gradients exactly as the single domain does (two floats commute; a sum
            // of partial sums of more shots would differ from the sequential sum in the last bits).
            int per = groups == 1 ? 2 : 1;
            int shots = per * groups;
            int[][][] src = new int[shots][][];
            int[][][] rec = new int[shots][][];
            Random rnd = new Random(5);
            int nx = shape[ndim - 1];
            int nz = shape[0];
            for (int b = 0; b < shots; b++) {
                // sources anywhere, including next to a cut and inside every tile
                src[b] = new int[][] {point(rnd, shape), point(rnd, shape)};
                rec[b] = new int[nx / 2][];
            }
            for (int r = 0; r < nx / 2; r++) {
                int[] p = ndim == 2 ? new int[] {2 * r + (r % 2), 1 + r % (nz - 2)}
                        : new int[] {2 * r + (r % 2), (3 * r) % shape[1], 1 + r % (nz - 2)};
                for (int b = 0; b < shots; b++) {
                    rec[b][r] = p;
                }
            }
            float[] w = Wavelets.ricker(14, nt, 1e-3);
            int g = mesh.topology().shotGroup();
            int[][][] mySrc = new int[per][][];
            int[][][] myRec = new int[per][][];
            for (int k = 0; k < per; k++) {
                mySrc[k] = src[per * g + k];
                myRec[k] = rec[per * g + k];
            }
            try (ModelParallel mp = new ModelParallel(spec, mesh); Propagator single = new Propagator(spec)) {
                // forward: gathered DD record == single-domain record, bit for bit
                Record tileRec = mp.forward(w, mySrc, myRec, v);
                Record gathered = mp.gatherRecord(tileRec);
                Record ref = single.forward(w, mySrc, myRec, v);
                if (mesh.topology().tileRank() == 0) {
                    if (!Arrays.equals(bits(ref.data()), bits(gathered.data()))) {
                        failure = "gathered forward record differs from the single-domain record";
                    }
                } else if (gathered != null) {
                    failure = "gatherRecord returned a record on a non-root rank";
                }
                // models = null reuses the model: same record again
                Record again = mp.forward(w, mySrc, myRec, null);
                if (failure == null && !Arrays.equals(bits(again.data()), bits(tileRec.data()))) {
                    failure = "forward with models = null differs";
                }
                // gradient: every group runs its own shots; the tile gradient is summed over groups
                float[] obsMine = single.forward(w, mySrc, myRec, vObs).data();
                Gradient dd = mp.forwardAndGradient(w, mySrc, myRec, v, obsMine, Misfit.L2);
                float[] ddGlobal = mp.allGatherTiles(dd.vp());
                float[] obsAll = single.forward(w, src, rec, vObs).data();
                Gradient sg = single.forwardAndGradient(w, src, rec, v, obsAll, Misfit.L2);
                if (failure == null && !Arrays.equals(bits(sg.vp()), bits(ddGlobal))) {
                    failure = "DD gradient differs from the single-domain gradient (max |diff| "
                            + maxDiff(sg.vp(), ddGlobal) + " of max " + maxDiff(sg.vp(), new float[sg.vp().length]) + ")";
                }
                if (failure == null && Math.abs(dd.misfit() - sg.misfit()) > 1e-12 * Math.abs(sg.misfit())) {
                    failure = "misfit " + dd.misfit() + " != single-domain " + sg.misfit();
                }
                float[] wMine = Arrays.copyOfRange(sg.wavelet(), per * g * nt, (per * g + per) * nt);
                if (failure == null && !Arrays.equals(bits(wMine), bits(dd.wavelet()))) {
                    failure = "wavelet gradient differs";
                }
                if (failure == null) {
                    say(String.format("OK rank %d tile %s own receivers %d misfit %.9e", rank, mp.tile(),
                            mp.ownReceiverIndices().length, dd.misfit()));
                }
            }
        } catch (RuntimeException e) {
            failure = e.toString();
        }
        if (failure != null) {
            say("FAIL rank " + rank + ": " + failure);
        }
        MPI.Finalize();
        System.exit(failure == null ? 0 : 1);
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
