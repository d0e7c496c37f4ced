package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import sweep.core.Wavelets;
import sweep.prop.Grid;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.tornado.TornadoSupport;

/**
 * Elastic forward records on the TornadoVM backend ({@code sweep.backend=tornado}) against the Java backend: the same
 * bits under strict math, within 1e-4 of the record's largest value under TornadoVM's defaults. 2-D and 3-D, PML on
 * every side or a free surface over a water layer (vs = 0), every source type, p and every velocity recorded (at the
 * surface and half a cell into the pad too), three shots (the second reuses the plan, the third has two sources and
 * rebuilds it), a second model in the same solver (the plan kept, the model uploaded again), snapshots, and the
 * decomposed-run rule (a tile stays on the Java backend under auto and is refused under tornado).
 */
public class TornadoElasticForwardTest {

    @ParameterizedTest(name = "{0}-D order {1} free surface {2} {3} nt {4}")
    @CsvSource({"2,8,true,explosive,121", "2,4,false,fz,80", "2,6,true,fx,64", "3,4,true,fy,41",
        "3,4,false,explosive,30"})
    void recordsMatchJavaBackend(int ndim, int order, boolean freeSurface, String source, int nt) {
        TornadoSupport.requireDevice();
        int[] shape = ndim == 2 ? new int[] {40, 47} : new int[] {17, 18, 19};
        ElasticSource type = ElasticSource.parse(source);
        String fields = ndim == 2 ? "p,vx,vz" : "vz,p,vy,vx";
        PropSpec spec = PropSpec.builder(shape).equation("elastic").sourceType(type.label())
                .recordFields(fields).dh(10).dt(1e-3).nt(nt).order(order).abcn(ndim == 2 ? 8 : 5)
                .freeSurface(freeSurface).threads(2).build();
        float[][] models = {model(shape, ndim * 100 + order, freeSurface), model(shape, ndim * 100 + order + 1, false)};
        // shots 0 and 1 have the same counts (the plan is reused), shot 2 has two sources (the plan is rebuilt)
        int[][][] src = ndim == 2 ? new int[][][] {{{20, 6}}, {{5, 30}}, {{10, 3}, {40, 25}}}
                : new int[][][] {{{9, 8, 4}}, {{14, 3, 11}}, {{3, 4, 2}, {12, 12, 10}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{23, 0}, {46, 10}, {16, 9}}, {{1, 27}, {8, 33}, {30, 0}},
            {{0, 0}, {46, 39}, {20, 20}}}
                : new int[][][] {{{11, 9, 0}, {18, 9, 6}, {7, 6, 7}}, {{13, 5, 13}, {16, 1, 9}, {9, 9, 0}},
                    {{0, 0, 0}, {18, 17, 16}, {8, 9, 6}}};
        float[] w = Wavelets.ricker(15, nt, spec.dt());
        for (int k = 0; k < models.length; k++) {
            float[] ref = run("java", spec, w, src, rec, models, k);
            long t0 = System.nanoTime();
            float[] dev = run("tornado", spec, w, src, rec, models, k);
            double sec = (System.nanoTime() - t0) * 1e-9;
            System.out.printf("[tornado tests] %d-D elastic forward (%s), 3 shots x %d steps%s on TornadoVM: %.2f s"
                    + " (plan build and JIT included)%n", ndim, source, nt, k == 0 ? "" : ", two models", sec);
            assertEquals(ref.length, dev.length);
            String[] names = fields.split(",");
            for (int f = 0; f < names.length; f++) {
                // field by field: p (Pa) is some (ρc)² larger than the velocities (m/s)
                TornadoSupport.compare(field(ref, names.length, f), field(dev, names.length, f), ndim
                        + "-D elastic record " + names[f] + " (order " + order + ", free surface " + freeSurface + ", "
                        + source + ", nt " + nt + (k == 0 ? "" : ", second model in the same solver") + ")",
                        TornadoSupport.RECORD_TOLERANCE);
            }
        }
    }

    /** Field {@code f} of a record {@code (B, nt, nrec, nfield)}. */
    static float[] field(float[] record, int nfield, int f) {
        float[] out = new float[record.length / nfield];
        for (int i = 0; i < out.length; i++) {
            out[i] = record[i * nfield + f];
        }
        return out;
    }

    /**
     * vp, vs, rho parameter-major: random velocities and densities; with {@code water} a fluid top layer of three rows
     * (vs = 0), so that shear moduli of zero and the surface moduli of a fluid are on the device too.
     */
    public static float[] model(int[] shape, long seed, boolean water) {
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        int row = cells / shape[0];
        float[] m = new float[3 * cells];
        Random r = new Random(seed);
        for (int i = 0; i < cells; i++) {
            float vp = 1800f + 900f * r.nextFloat();
            boolean fluid = water && i < 3 * row;
            m[i] = fluid ? 1500f : vp;
            m[cells + i] = fluid ? 0f : vp * (0.45f + 0.1f * r.nextFloat());
            m[2 * cells + i] = fluid ? 1000f : 1800f + 700f * r.nextFloat();
        }
        return m;
    }

    /**
     * The records of {@code models[0..k]} in one solver on {@code backend} (so that for k = 1 the second model runs in
     * a solver whose device already has the first), the last one returned.
     */
    private static float[] run(String backend, PropSpec spec, float[] w, int[][][] src, int[][][] rec, float[][] models,
                               int k) {
        String old = System.getProperty("sweep.backend");
        System.setProperty("sweep.backend", backend);
        try (Propagator p = new Propagator(spec)) {
            float[] out = null;
            for (int i = 0; i <= k; i++) {
                out = p.forward(w, src, rec, models[i]).data();
            }
            assertTrue(p.backendDescription().startsWith(backend.equals("java") ? "Java" : "TornadoVM"),
                    p.backendDescription());
            return out;
        } finally {
            restore(old);
        }
    }

    private static void restore(String old) {
        if (old == null) {
            System.clearProperty("sweep.backend");
        } else {
            System.setProperty("sweep.backend", old);
        }
    }

    /** Snapshots (every 6 steps, two shots) copied from the device against the Java backend's, every component. */
    @ParameterizedTest(name = "{0}-D snapshots")
    @CsvSource({"2", "3"})
    void snapshotsMatchJavaBackend(int ndim) {
        TornadoSupport.requireDevice();
        int[] shape = ndim == 2 ? new int[] {24, 27} : new int[] {12, 13, 14};
        int nt = 24;
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(nt).order(4)
                .abcn(5).freeSurface(true).threads(2).build();
        float[] m = model(shape, 31 + ndim, false);
        int cells = m.length / 3;
        ElasticModel model = new ElasticModel(Arrays.copyOfRange(m, 0, cells),
                Arrays.copyOfRange(m, cells, 2 * cells), Arrays.copyOfRange(m, 2 * cells, 3 * cells));
        int[][][] src = ndim == 2 ? new int[][][] {{{12, 2}}, {{8, 10}}} : new int[][][] {{{6, 6, 2}}, {{4, 8, 7}}};
        int[][][] rec = ndim == 2 ? new int[][][] {{{14, 0}}, {{9, 12}}} : new int[][][] {{{7, 6, 0}}, {{5, 9, 8}}};
        float[] w = Wavelets.ricker(40, nt, spec.dt());
        List<ElasticField> fields = ElasticField.parseList(ndim == 2 ? "p,vx,vz" : "p,vx,vy,vz", ndim);
        List<String> refSteps = new ArrayList<>();
        List<String> devSteps = new ArrayList<>();
        List<float[][]> refFields = new ArrayList<>();
        List<float[][]> devFields = new ArrayList<>();
        for (String backend : new String[] {"java", "tornado"}) {
            boolean java = backend.equals("java");
            String old = System.getProperty("sweep.backend");
            System.setProperty("sweep.backend", backend);
            try (ElasticSolver p = new ElasticSolver(spec)) {
                p.forward(w, src, ElasticSource.FZ, rec, fields, model, 6, (shot, done, f) -> {
                    (java ? refSteps : devSteps).add(shot + ":" + done);
                    (java ? refFields : devFields).add(f);
                });
            } finally {
                restore(old);
            }
        }
        assertEquals(refSteps, devSteps, "snapshot steps");
        int ncomp = refFields.get(0).length;
        for (int c = 0; c < ncomp; c++) {
            // component c of every snapshot, one after the other
            int n = refFields.get(0)[c].length;
            float[] a = new float[refFields.size() * n];
            float[] d = new float[a.length];
            for (int i = 0; i < refFields.size(); i++) {
                System.arraycopy(refFields.get(i)[c], 0, a, i * n, n);
                System.arraycopy(devFields.get(i)[c], 0, d, i * n, n);
            }
            TornadoSupport.compare(a, d, ndim + "-D elastic snapshots " + refSteps + ", component " + c,
                    TornadoSupport.RECORD_TOLERANCE);
        }
    }

    /**
     * A solver with a halo hook (a tile of a decomposed run) stays on the Java backend under {@code auto} (same record)
     * and is refused under {@code tornado}, with a message naming what to use.
     */
    @Test
    void decomposedRunsStayOnTheJavaBackend() {
        TornadoSupport.requireDevice();
        int[] shape = {20, 22};
        PropSpec spec = PropSpec.builder(shape).equation("elastic").dh(10).dt(1e-3).nt(20).order(4)
                .abcn(5).threads(2).build();
        float[] m = model(shape, 5, false);
        int cells = m.length / 3;
        ElasticModel model = new ElasticModel(Arrays.copyOfRange(m, 0, cells),
                Arrays.copyOfRange(m, cells, 2 * cells), Arrays.copyOfRange(m, 2 * cells, 3 * cells));
        int[][][] src = {{{10, 8}}};
        int[][][] rec = {{{12, 9}}};
        float[] w = Wavelets.ricker(30, spec.nt(), spec.dt());
        List<ElasticField> fields = ElasticField.parseList("p,vx,vz", 2);
        float[] ref;
        String old = System.getProperty("sweep.backend");
        try {
            System.setProperty("sweep.backend", "java");
            try (ElasticSolver p = new ElasticSolver(spec)) {
                ref = p.forward(w, src, ElasticSource.EXPLOSIVE, rec, fields, model).data();
            }
            System.setProperty("sweep.backend", "auto");
            try (ElasticSolver p = new ElasticSolver(spec, Grid.single(spec), (point, a, n) -> { })) {
                float[] r = p.forward(w, src, ElasticSource.EXPLOSIVE, rec, fields, model).data();
                assertTrue(p.backendDescription().startsWith("Java"), p.backendDescription());
                assertTrue(Arrays.equals(ref, r), "auto with a halo hook: the Java backend's record");
            }
            System.setProperty("sweep.backend", "tornado");
            try (ElasticSolver p = new ElasticSolver(spec, Grid.single(spec), (point, a, n) -> { })) {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> p.forward(w, src, ElasticSource.EXPLOSIVE, rec, fields, model));
                assertTrue(e.getMessage().contains("one domain only") && e.getMessage().contains("--backend java or"
                        + " auto"), e.getMessage());
            }
        } finally {
            restore(old);
        }
    }
}
