package sweep.tornado;

import java.util.Arrays;
import java.util.Random;
import mpi.MPI;
import sweep.core.Wavelets;
import sweep.parallel.ModelParallel;
import sweep.parallel.ModelParallelMesh;
import sweep.parallel.Mpi;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * Run under mpirun by {@link TornadoDdTest}: a domain-decomposed forward (px tiles along x) with every tile on the
 * TornadoVM backend (halo strips packed and unpacked on the device), gathered on the group root and compared with
 * the single-domain record of the Java backend: the same bits under strict math ({@code tornado.enable.fma=false}),
 * else within {@link TornadoSupport#RECORD_TOLERANCE} of the record's maximum; likewise the gradient of a 2-shot batch
 * (boundary saving in 2-D and 3-D, full storage in 2-D), gathered from the tiles, against the single-domain Java
 * gradient. Prints "OK" or "FAIL" per rank and case.
 * Arguments: px.
 */
public final class TornadoDdMain {
    public static void main(String[] args) throws Exception {
        int px = Integer.parseInt(args[0]);
        Mpi.init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int failures = 0;
        try (ModelParallelMesh mesh = ModelParallelMesh.create(1, px, 1)) {
            for (int ndim : new int[] {2, 3}) {
                Storage[] cases = ndim == 2 ? new Storage[] {null, Storage.BOUNDARY_SAVING, Storage.FULL}
                        : new Storage[] {null, Storage.BOUNDARY_SAVING};
                for (Storage storage : cases) {
                    boolean fs = ndim == 2 && storage != Storage.FULL;
                    String label = ndim + "-D px=" + px + " free surface " + fs
                            + (storage == null ? " forward" : " gradient " + storage);
                    String failure;
                    try {
                        failure = check(mesh, ndim, fs, storage);
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                        failure = e.toString();
                    }
                    if (failure == null) {
                        say("OK rank " + rank + " " + label);
                    } else {
                        say("FAIL rank " + rank + " " + label + ": " + failure);
                        failures++;
                    }
                }
            }
        }
        Mpi.finish();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** The forward record (storage null) or the gradient with this storage, against the single-domain Java run. */
    private static String check(ModelParallelMesh mesh, int ndim, boolean fs, Storage storage) {
        int px = mesh.topology().px();
        int[] shape = ndim == 2 ? new int[] {30, 24 * px} : new int[] {14, 16, 12 * px};
        int nt = ndim == 2 ? 150 : 60;
        PropSpec spec = PropSpec.builder(shape).dh(10).dt(1e-3).nt(nt).abcn(5).order(ndim == 2 ? 8 : 4)
                .freeSurface(fs).storage(storage == null ? Storage.FULL : storage).threads(1).build();
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] vp = new float[cells];
        Random r = new Random(ndim);
        for (int i = 0; i < cells; i++) {
            vp[i] = 2000f + 400f * r.nextFloat();
        }
        int nx = shape[ndim - 1];
        int cut = nx / px;
        int[][][] src = ndim == 2 ? new int[][][] {{{cut, 10}, {cut - 1, 12}}, {{3, 20}}}
                : new int[][][] {{{cut, 7, 6}, {cut - 1, 8, 5}}, {{3, 4, 9}}};
        int[][][] rec = new int[2][][];
        for (int b = 0; b < 2; b++) {
            rec[b] = ndim == 2 ? new int[][] {{cut - 2, 1}, {cut - 1, 5}, {cut, 8}, {cut + 1, 20}, {nx - 1, 29}}
                    : new int[][] {{cut - 2, 2, 1}, {cut - 1, 15, 5}, {cut, 8, 8}, {cut + 1, 0, 13}, {nx - 1, 9, 9}};
        }
        float[] w = Wavelets.ricker(15, nt, 1e-3);
        if (storage != null) {
            return checkGradient(mesh, spec, w, src, rec, vp);
        }
        float[] tile;
        Record gathered;
        String old = System.getProperty("sweep.backend");
        System.setProperty("sweep.backend", "tornado");
        try (ModelParallel mp = new ModelParallel(spec, mesh)) {
            gathered = mp.gatherRecord(mp.forward(w, src, rec, vp));
        } finally {
            System.setProperty("sweep.backend", old == null ? "java" : old);
        }
        if (mesh.topology().tileRank() != 0) {
            return gathered == null ? null : "gatherRecord returned a record on a non-root rank";
        }
        float[] ref;
        System.setProperty("sweep.backend", "java");
        try (Propagator single = new Propagator(spec)) {
            ref = single.forward(w, src, rec, vp).data();
        } finally {
            if (old == null) {
                System.clearProperty("sweep.backend");
            } else {
                System.setProperty("sweep.backend", old);
            }
        }
        tile = gathered.data();
        return compare(ref, tile);
    }

    /**
     * dJ/dvp of a 2-shot batch on the tiles (TornadoVM, strips packed on the device in the forward and the adjoint
     * run), gathered onto the whole grid on every rank, against the single-domain Java gradient; the misfit too.
     */
    private static String checkGradient(ModelParallelMesh mesh, PropSpec spec, float[] w, int[][][] src,
                                        int[][][] rec, float[] vp) {
        float[] vObs = vp.clone();
        for (int i = 0; i < vObs.length; i += 5) {
            vObs[i] += 120f;
        }
        String old = System.getProperty("sweep.backend");
        float[] obs;
        Gradient ref;
        System.setProperty("sweep.backend", "java");
        try (Propagator single = new Propagator(spec)) {
            obs = single.forward(w, src, rec, vObs).data();
            ref = single.forwardAndGradient(w, src, rec, vp, obs, Misfit.L2);
        }
        float[] dev;
        double misfit;
        System.setProperty("sweep.backend", "tornado");
        try (ModelParallel mp = new ModelParallel(spec, mesh)) {
            Gradient tileGrad = mp.forwardAndGradient(w, src, rec, vp, obs, Misfit.L2);
            dev = mp.allGatherTiles(tileGrad.vp());
            misfit = tileGrad.misfit();
        } finally {
            if (old == null) {
                System.clearProperty("sweep.backend");
            } else {
                System.setProperty("sweep.backend", old);
            }
        }
        double tol = TornadoSupport.strict() ? 1e-12 : 1e-4;
        if (!(Math.abs(misfit - ref.misfit()) <= tol * Math.abs(ref.misfit()))) {
            return "misfit " + misfit + ", single domain " + ref.misfit();
        }
        return compare(ref.vp(), dev);
    }

    private static String compare(float[] ref, float[] dev) {
        if (ref.length != dev.length) {
            return "record length " + dev.length + ", expected " + ref.length;
        }
        double max = 0;
        double worst = 0;
        int differing = 0;
        for (int i = 0; i < ref.length; i++) {
            max = Math.max(max, Math.abs(ref[i]));
        }
        for (int i = 0; i < ref.length; i++) {
            if (Float.floatToRawIntBits(ref[i]) != Float.floatToRawIntBits(dev[i])) {
                differing++;
                worst = Math.max(worst, Math.abs((double) ref[i] - dev[i]) / max);
            }
        }
        String what = differing + " of " + ref.length + " values differ in bits, max |diff|/max|ref| = " + worst;
        say("[tornado dd] " + what);
        if (!(max > 0)) {
            return "the reference record is all zero";
        }
        if (TornadoSupport.strict()) {
            return differing == 0 ? null : what;
        }
        return worst <= TornadoSupport.RECORD_TOLERANCE ? null : what;
    }

    private static void say(String s) {
        System.out.println(s);
        System.out.flush();
    }
}
