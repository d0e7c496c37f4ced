package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;

/**
 * The memory estimate made before a run against what the solver really holds afterwards
 * ({@link Propagator#bytesHeld()}, the sum of its arrays' lengths) in 2-D and 3-D, with and without PML and free
 * surface, for forward-only runs and for gradients with either storage; and its refusals (array limit, heap).
 */
class MemoryEstimateTest {
    private static void check(PropSpec spec, boolean gradient) {
        int[] shape = spec.shape();
        int nd = shape.length;
        float[] v = TestModels.smoothRandom(5, 2000, 200, shape);
        int[][][] src = {{nd == 2 ? new int[] {shape[1] / 2, 2} : new int[] {shape[2] / 2, shape[1] / 2, 2}}};
        int[][][] rec = {{nd == 2 ? new int[] {1, 1} : new int[] {1, 1, 1},
            nd == 2 ? new int[] {shape[1] - 2, 3} : new int[] {shape[2] - 2, shape[1] - 2, 3}}};
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        Grid grid = Grid.single(spec);
        long estimate = MemoryEstimate.solverBytes(grid, spec.storage(), spec.nt(), gradient);
        long held;
        try (Propagator p = new Propagator(spec)) {
            if (gradient) {
                float[] obs = new float[spec.nt() * 2];
                p.forwardAndGradient(w, src, rec, v, obs, Misfit.L2);
            } else {
                p.forward(w, src, rec, v);
            }
            held = p.bytesHeld();
        }
        String what = Arrays.toString(shape) + " abcn " + spec.abcn() + " fs " + spec.freeSurface() + " "
                + (gradient ? spec.storage() : "forward") + ": estimate " + estimate + ", held " + held;
        assertTrue(held > 0, what);
        assertTrue(estimate >= held, "the estimate must cover what is allocated: " + what);
        assertTrue(estimate <= held * 1.02, "and not overstate it by more than 2 %: " + what);
        MemoryEstimate run = gradient ? MemoryEstimate.gradient(spec, grid, 1, 2, spec.nt())
                : MemoryEstimate.forward(spec, grid, 1, 2, spec.nt());
        assertTrue(run.total() >= held + 4L * spec.nt() * 2, "a run's estimate adds the record: " + run);
    }

    @Test
    void coversWhatTheSolverHolds2d() {
        PropSpec.Builder b = PropSpec.builder(36, 52).dh(10).dt(1e-3).nt(60).abcn(9);
        check(b.build(), false);
        check(b.storage(Storage.FULL).build(), true);
        check(b.storage(Storage.BOUNDARY_SAVING).build(), true);
        check(b.freeSurface(true).build(), true);
        check(b.abcn(0).freeSurface(false).build(), false);
    }

    @Test
    void coversWhatTheSolverHolds3d() {
        PropSpec.Builder b = PropSpec.builder(18, 20, 22).dh(10).dt(1e-3).nt(30).abcn(6);
        check(b.build(), false);
        check(b.storage(Storage.FULL).build(), true);
        check(b.storage(Storage.BOUNDARY_SAVING).freeSurface(true).build(), true);
    }

    /** The elastic solver (through the facade): every field, parameter, CPML and adjoint array, and both tapes. */
    private static void checkElastic(PropSpec spec, boolean gradient) {
        int[] shape = spec.shape();
        int nd = shape.length;
        int cells = 1;
        for (int n : shape) {
            cells *= n;
        }
        float[] m = new float[3 * cells];
        Arrays.fill(m, 0, cells, 2500f);
        Arrays.fill(m, cells, 2 * cells, 1200f);
        Arrays.fill(m, 2 * cells, 3 * cells, 2000f);
        int[][][] src = {{nd == 2 ? new int[] {shape[1] / 2, 2} : new int[] {shape[2] / 2, shape[1] / 2, 2}}};
        int[][][] rec = {{nd == 2 ? new int[] {1, 1} : new int[] {1, 1, 1},
            nd == 2 ? new int[] {shape[1] - 2, 3} : new int[] {shape[2] - 2, shape[1] - 2, 3}}};
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        Grid grid = Grid.single(spec);
        long estimate = MemoryEstimate.solverBytes(grid, spec.storage(), spec.nt(), gradient);
        long held;
        try (Propagator p = new Propagator(spec)) {
            if (gradient) {
                p.forwardAndGradient(w, src, rec, m, new float[spec.nt() * 2 * spec.nfield()], Misfit.L2);
            } else {
                p.forward(w, src, rec, m);
            }
            held = p.bytesHeld();
        }
        String what = "elastic " + Arrays.toString(shape) + " abcn " + spec.abcn() + " fs " + spec.freeSurface() + " "
                + (gradient ? spec.storage() : "forward") + ": estimate " + estimate + ", held " + held;
        assertTrue(held > 0, what);
        assertTrue(estimate >= held, "the estimate must cover what is allocated: " + what);
        assertTrue(estimate <= held * 1.02, "and not overstate it by more than 2 %: " + what);
        MemoryEstimate run = gradient ? MemoryEstimate.gradient(spec, grid, 1, 2, spec.nt())
                : MemoryEstimate.forward(spec, grid, 1, 2, spec.nt());
        assertTrue(run.total() >= held + 4L * spec.nt() * 2 * spec.nfield(),
                "a run's estimate adds the record: " + run);
    }

    @Test
    void coversWhatTheElasticSolverHolds() {
        PropSpec.Builder b = PropSpec.builder(30, 44).equation("elastic").dh(10).dt(1e-3).nt(50)
                .abcn(7);
        checkElastic(b.build(), false);
        checkElastic(b.storage(Storage.FULL).build(), true);
        checkElastic(b.storage(Storage.BOUNDARY_SAVING).build(), true);
        checkElastic(b.freeSurface(true).recordFields("vz").build(), true);
        checkElastic(b.abcn(0).freeSurface(false).build(), true);
        PropSpec.Builder b3 = PropSpec.builder(14, 16, 18).equation("elastic").dh(10).dt(8e-4).nt(20)
                .abcn(5).order(4);
        checkElastic(b3.build(), false);
        checkElastic(b3.storage(Storage.FULL).build(), true);
        checkElastic(b3.storage(Storage.BOUNDARY_SAVING).freeSurface(true).build(), true);
    }

    @Test
    void arraysBeyondJavasLimitAreRefusedWithTheirShape() {
        PropSpec spec = PropSpec.builder(40, 60).dh(10).dt(1e-3).nt(200_000_000).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MemoryEstimate.forward(spec, null, 1, 15, spec.nt()));
        assertTrue(e.getMessage().contains("(1, 200000000, 15)") && e.getMessage().contains("3000000000"),
                e.getMessage());
        assertEquals(4L * 3 * 1000 * 7, 4L * MemoryEstimate.floats("record", 3, 1000, 7));
    }

    @Test
    void aRunBeyondTheHeapIsRefusedWithTheFigureAndHowToRaiseIt() {
        long max = Runtime.getRuntime().maxMemory();
        long record = max + (1L << 30); // a GiB more than the heap can ever hold
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MemoryEstimate.empty().add("record", record).requireHeap("this run"));
        String m = e.getMessage();
        assertTrue(m.startsWith("this run needs about " + MemoryEstimate.gib(record)), m);
        assertTrue(m.contains("max heap is " + MemoryEstimate.gib(max)) && m.contains("SWEEP_JAVA_OPTS=-Xmx"), m);
        MemoryEstimate.empty().add("small", 1 << 20).requireHeap("a small run"); // fits: no exception
    }

    /**
     * A gradient beyond the heap whose equation has a storage that needs less names it with that storage's estimate:
     * visco-acoustic with full storage points to checkpointing; the default (smallest) storage names none.
     */
    @Test
    void aGradientBeyondTheHeapNamesTheStorageThatNeedsLess() {
        long max = Runtime.getRuntime().maxMemory();
        PropSpec.Builder b = PropSpec.builder(200, 200).equation("visco-acoustic").dh(10).dt(1e-3).abcn(20)
                .settingsFromPeakFrequency(10);
        Grid probe = Grid.single(b.nt(1).build());
        long perStep = 4L * 3 * probe.nz() * probe.ny() * probe.nx(); // full storage's brackets of a step
        int nt = (int) ((max + (1L << 30)) / perStep + 1);
        PropSpec full = b.nt(nt).storage(Storage.FULL).build();
        PropSpec cp = full.toBuilder().storage(Storage.CHECKPOINTING).build();
        MemoryEstimate withCp = MemoryEstimate.gradient(cp, Grid.single(cp), 1, 3, nt);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MemoryEstimate.gradient(full, Grid.single(full), 1, 3, nt).requireHeap("this gradient"));
        assertTrue(e.getMessage().endsWith("; or use checkpointing storage, which needs about "
                + MemoryEstimate.gib(withCp.total())), e.getMessage());
        assertTrue(withCp.total() < max / 4, "checkpointing: " + MemoryEstimate.gib(withCp.total()));
        // acoustic-vd's default, boundary saving, keeps p and v on the 16000+ cells of its CPML bands per step: its other
        // storage needs more
        int ntBs = (int) ((max + (1L << 30)) / (4L * 3 * 16000) + 1);
        PropSpec bs = PropSpec.builder(200, 200).equation("acoustic-vd").dh(10).dt(1e-3).abcn(20).nt(ntBs).build();
        e = assertThrows(IllegalStateException.class,
                () -> MemoryEstimate.gradient(bs, Grid.single(bs), 1, 3, ntBs).requireHeap("boundary saving"));
        assertFalse(e.getMessage().contains("or use"), e.getMessage());
    }
}
