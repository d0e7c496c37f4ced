package sweep.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import sweep.backend.CpuAdjoint2D;
import sweep.backend.CpuAdjoint3D;
import sweep.backend.CpuKernels;
import sweep.backend.CpuAcoustic2D;
import sweep.backend.CpuAcoustic3D;
import sweep.core.FdWeights;
import sweep.kernels.Acoustic2D;
import sweep.kernels.Acoustic3D;
import sweep.kernels.Adjoint2D;
import sweep.kernels.Adjoint3D;
import sweep.kernels.Layout;

/**
 * Per-kernel benchmark on one thread: each forward and adjoint kernel, portable ({@code sweep.kernels}) and CPU
 * variant ({@code sweep.backend.Cpu*}), run over the boxes the propagator gives it (PML bands, interior box,
 * stencil-clear box and the rest) of a 2-D 2000² or 3-D 256³ grid with its PML pads, order 8 by default. The two
 * variants alternate within every repeat (A/B/A/B), after warm-up repeats, so that both see the same machine load;
 * each line gives the median and min–max Mcells/s (cells of the kernel's boxes / s), the CPU/portable ratio of the
 * medians, and the ratio to a 16-byte-per-cell triad bound measured in the same run. Warm-up runs both variants
 * for at least 0.5 s (JIT compilation); a timed sample repeats the kernel's sweep so that it lasts about 20 ms.
 */
public final class KernelBenchmark {
    /** One kernel over a set of boxes, in its portable or CPU form. */
    @FunctionalInterface
    private interface Kernel {
        void run(boolean cpu, int[] b);
    }

    private final int repeats;
    private final int warmups;
    private final PrintStream log;

    /**
     * A benchmark that times {@code repeats} samples per variant after at least {@code warmups} untimed rounds (and at
     * least 0.5 s of them), printing to {@code log}.
     */
    public KernelBenchmark(int repeats, int warmups, PrintStream log) {
        if (repeats < 1 || warmups < 0) {
            throw new IllegalArgumentException("repeats must be >= 1 and warm-ups >= 0, got " + repeats + " and "
                    + warmups);
        }
        this.repeats = repeats;
        this.warmups = warmups;
        this.log = log;
    }

    /**
     * Runs every kernel of a grid of {@code n}^ndim physical cells with {@code abcn} PML cells per side at the given
     * order, and prints one line per kernel; {@code boundMcells} is the bandwidth bound to print the ratio against.
     */
    public void run(int ndim, int n, int abcn, int order, double boundMcells) {
        if (!CpuKernels.vectorAvailable()) {
            throw new IllegalStateException("the CPU kernels need the jdk.incubator.vector module: run the JVM with "
                    + "--add-modules jdk.incubator.vector (the sweep launcher does)");
        }
        int h = FdWeights.halfWidth(order);
        int nc = n + 2 * abcn;
        int[] geo = new int[Layout.GEO_SIZE];
        geo[Layout.NDIM] = ndim;
        geo[Layout.H] = h;
        geo[Layout.NZ] = nc;
        geo[Layout.NY] = ndim == 3 ? nc : 1;
        geo[Layout.NX] = nc;
        int nxa = nc + 2 * h;
        long len;
        if (ndim == 2) {
            geo[Layout.SZ] = nxa;
            geo[Layout.OFF0] = h * nxa + h;
            len = (long) nxa * nxa;
        } else {
            geo[Layout.SY] = nxa;
            geo[Layout.SZ] = nxa * nxa;
            geo[Layout.OFF0] = h * nxa * nxa + h * nxa + h;
            len = (long) nxa * nxa * nxa;
        }
        geo[Layout.LEN] = (int) len;
        geo[Layout.ZBL] = abcn;
        geo[Layout.ZBH] = nc - abcn;
        geo[Layout.YBL] = ndim == 3 ? abcn : 0;
        geo[Layout.YBH] = ndim == 3 ? nc - abcn : 1;
        geo[Layout.XBL] = abcn;
        geo[Layout.XBH] = nc - abcn;
        float[] coef = new float[Layout.coefSize(h)];
        double[] c2 = FdWeights.second(order);
        double[] c1 = FdWeights.first(order);
        double c00 = 0;
        for (int a = 0; a < 3; a++) {
            for (int k = 0; k <= h; k++) {
                coef[a * (h + 1) + k] = (float) (c2[k] / 100.0);
            }
            for (int k = 1; k <= h; k++) {
                coef[Layout.d1(h) + a * h + k - 1] = (float) (c1[k] / 10.0);
            }
            if (a != 1 || ndim == 3) {
                c00 += c2[0] / 100.0;
            }
        }
        coef[Layout.c00(h)] = (float) c00;
        float[] prof = new float[2 * (nc + geo[Layout.NY] + nc)];
        Arrays.fill(prof, 0.95f);
        int base = 0;
        for (int m : new int[] {nc, geo[Layout.NY], nc}) {
            Arrays.fill(prof, base + m, base + 2 * m, -0.02f);
            base += 2 * m;
        }
        int l = (int) len;
        Random r = new Random(1);
        float[] u = rnd(r, l, 1f);
        float[] un = rnd(r, l, 1f);
        float[] v2 = rnd(r, l, 0.05f);
        float[] qb = rnd(r, l, 1f);
        float[] qp = rnd(r, l, 1f);
        float[] w = rnd(r, l, 1f);
        float[] grad = rnd(r, l, 1f);
        float[] a3 = rnd(r, ndim * l, 1f);
        float[] b3 = rnd(r, ndim * l, 1f);
        float[] c3 = rnd(r, ndim * l, 1f);
        float[] scr = new float[Math.max(CpuAcoustic3D.scratchSize(geo), CpuAdjoint3D.scratchSize(geo))];

        List<int[]> band = outer(geo, geo[Layout.ZBL], geo[Layout.ZBH], geo[Layout.YBL], geo[Layout.YBH],
                geo[Layout.XBL], geo[Layout.XBH]);
        int[] in = {abcn, nc - abcn, ndim == 3 ? abcn : 0, ndim == 3 ? nc - abcn : 1, abcn, nc - abcn};
        int[] clear = {abcn + h, nc - abcn - h, ndim == 3 ? abcn + h : 0, ndim == 3 ? nc - abcn - h : 1, abcn + h,
            nc - abcn - h};
        List<int[]> clearOuter = outer(geo, clear[0], clear[1], clear[2], clear[3], clear[4], clear[5]);
        boolean d2 = ndim == 2;
        String dims = d2 ? "2-D " + n + "^2" : "3-D " + n + "^3";
        log.printf("kernels %s + PML %d, order %d, one thread: Mcells/s median (min-max), portable vs CPU variant "
                + "alternating; bound %.0f Mcells/s%n", dims, abcn, order, boundMcells);
        log.printf("  %-34s %24s %24s %7s %7s%n", "kernel (boxes)", "portable", "cpu", "cpu/p", "cpu/bnd");
        time("fwd psi (PML bands)", band, boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAcoustic2D.psi(u, a3, prof, coef, geo, b[0], b[1], b[4], b[5]);
                } else {
                    Acoustic2D.psi(u, a3, prof, coef, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAcoustic3D.psi(u, a3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                Acoustic3D.psi(u, a3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("fwd pml update (PML bands)", band, boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAcoustic2D.pml(u, un, v2, a3, b3, prof, coef, geo, b[0], b[1], b[4], b[5]);
                } else {
                    Acoustic2D.pml(u, un, v2, a3, b3, prof, coef, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAcoustic3D.pml(u, un, v2, a3, b3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5], scr);
            } else {
                Acoustic3D.pml(u, un, v2, a3, b3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("fwd interior (interior box)", List.of(in), boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAcoustic2D.interior(u, un, v2, coef, geo, b[0], b[1], b[4], b[5]);
                } else {
                    Acoustic2D.interior(u, un, v2, coef, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAcoustic3D.interior(u, un, v2, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                Acoustic3D.interior(u, un, v2, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        // the rows outside the z and y bands, x bands included: portable psi + pml (x slabs) + interior against the
        // fused CPU pass the stepper runs (innerRows)
        int[] rows = {abcn, nc - abcn, d2 ? 0 : abcn, d2 ? 1 : nc - abcn, 0, nc};
        List<int[]> xSlabs = List.of(new int[] {rows[0], rows[1], rows[2], rows[3], 0, abcn},
                new int[] {rows[0], rows[1], rows[2], rows[3], nc - abcn, nc});
        float[] scr2 = new float[CpuAcoustic2D.scratchSize()];
        time("fwd inner rows (x bands + interior)", List.of(rows), boundMcells, (cpu, b) -> {
            if (cpu) {
                if (d2) {
                    CpuAcoustic2D.innerRows(u, un, v2, a3, b3, prof, coef, geo, b[0], b[1], b[4], b[5], scr2);
                } else {
                    CpuAcoustic3D.innerRows(u, un, v2, a3, b3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5], scr);
                }
                return;
            }
            for (int[] x : xSlabs) {
                if (d2) {
                    Acoustic2D.psi(u, a3, prof, coef, geo, x[0], x[1], x[4], x[5]);
                } else {
                    Acoustic3D.psi(u, a3, prof, coef, geo, x[0], x[1], x[2], x[3], x[4], x[5]);
                }
            }
            for (int[] x : xSlabs) {
                if (d2) {
                    Acoustic2D.pml(u, un, v2, a3, b3, prof, coef, geo, x[0], x[1], x[4], x[5]);
                } else {
                    Acoustic3D.pml(u, un, v2, a3, b3, prof, coef, geo, x[0], x[1], x[2], x[3], x[4], x[5]);
                }
            }
            if (d2) {
                Acoustic2D.interior(u, un, v2, coef, geo, in[0], in[1], in[4], in[5]);
            } else {
                Acoustic3D.interior(u, un, v2, coef, geo, in[0], in[1], in[2], in[3], in[4], in[5]);
            }
        });
        time("adj rebuildScale (interior box)", List.of(in), boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAdjoint2D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, 1, b[0], b[1], b[4], b[5]);
                } else {
                    Adjoint2D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, 1, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAdjoint3D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, 1, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                Adjoint3D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, 1, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("adj scale (PML bands)", band, boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAdjoint2D.scale(qb, v2, w, grad, un, geo, b[0], b[1], b[4], b[5]);
                } else {
                    Adjoint2D.scale(qb, v2, w, grad, un, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAdjoint3D.scale(qb, v2, w, grad, un, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                Adjoint3D.scale(qb, v2, w, grad, un, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("adj pmlZeta (PML bands)", band, boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAdjoint2D.pmlZeta(w, c3, a3, prof, geo, b[0], b[1], b[4], b[5]);
                } else {
                    Adjoint2D.pmlZeta(w, c3, a3, prof, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAdjoint3D.pmlZeta(w, c3, a3, prof, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                Adjoint3D.pmlZeta(w, c3, a3, prof, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("adj pmlPsi (PML bands)", band, boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAdjoint2D.pmlPsi(w, a3, c3, b3, prof, coef, geo, b[0], b[1], b[4], b[5], scr);
                } else {
                    Adjoint2D.pmlPsi(w, a3, c3, b3, prof, coef, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAdjoint3D.pmlPsi(w, a3, c3, b3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5], scr);
            } else {
                Adjoint3D.pmlPsi(w, a3, c3, b3, prof, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("adj interior λ (stencil-clear box)", List.of(clear), boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAdjoint2D.interior(qp, qb, w, coef, geo, b[0], b[1], b[4], b[5]);
                } else {
                    Adjoint2D.interior(qp, qb, w, coef, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAdjoint3D.interior(qp, qb, w, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            } else {
                Adjoint3D.interior(qp, qb, w, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
        time("adj general λ (rest)", clearOuter, boundMcells, (cpu, b) -> {
            if (d2) {
                if (cpu) {
                    CpuAdjoint2D.general(qp, qb, w, a3, b3, coef, geo, b[0], b[1], b[4], b[5], scr);
                } else {
                    Adjoint2D.general(qp, qb, w, a3, b3, coef, geo, b[0], b[1], b[4], b[5]);
                }
            } else if (cpu) {
                CpuAdjoint3D.general(qp, qb, w, a3, b3, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5], scr);
            } else {
                Adjoint3D.general(qp, qb, w, a3, b3, coef, geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            }
        });
    }

    private void time(String name, List<int[]> boxes, double bound, Kernel k) {
        long cells = 0;
        for (int[] b : boxes) {
            cells += (long) (b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4]);
        }
        // warm-up: both variants alternately for at least `warmups` rounds and 0.5 s (JIT compilation), which also
        // sizes a sample: enough sweeps that one takes about 20 ms
        int inner = 1;
        long t0 = System.nanoTime();
        for (int rep = 0; rep < warmups || System.nanoTime() - t0 < 500_000_000L; rep++) {
            long a = System.nanoTime();
            sweep(k, boxes, false, 1);
            sweep(k, boxes, true, 1);
            long per = Math.max(1, (System.nanoTime() - a) / 2);
            inner = (int) Math.max(1, Math.min(1000, 20_000_000L / per));
        }
        double[] p = new double[repeats];
        double[] c = new double[repeats];
        for (int rep = 0; rep < repeats; rep++) {
            for (int v = 0; v < 2; v++) {
                boolean cpu = v == 1;
                long a = System.nanoTime();
                sweep(k, boxes, cpu, inner);
                (cpu ? c : p)[rep] = cells * (double) inner / ((System.nanoTime() - a) * 1e-9) / 1e6;
            }
        }
        double mp = Benchmark.median(p);
        double mcpu = Benchmark.median(c);
        log.printf("  %-34s %8.1f (%6.1f-%6.1f) %8.1f (%6.1f-%6.1f) %7.2f %7.3f%n", name, mp, Benchmark.min(p),
                Benchmark.max(p), mcpu, Benchmark.min(c), Benchmark.max(c), mcpu / mp, mcpu / bound);
    }

    private static void sweep(Kernel k, List<int[]> boxes, boolean cpu, int times) {
        for (int t = 0; t < times; t++) {
            for (int[] b : boxes) {
                k.run(cpu, b);
            }
        }
    }

    private static float[] rnd(Random r, int n, float scale) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = scale * (r.nextFloat() - 0.5f);
        }
        return a;
    }

    /** Boxes covering the cells outside the given inner limits exactly once (as the propagator splits them). */
    private static List<int[]> outer(int[] geo, int zbl, int zbh, int ybl, int ybh, int xbl, int xbh) {
        int nz = geo[Layout.NZ];
        int ny = geo[Layout.NY];
        int nx = geo[Layout.NX];
        List<int[]> boxes = new ArrayList<>();
        int[][] all = {{0, zbl, 0, ny, 0, nx}, {zbh, nz, 0, ny, 0, nx}, {zbl, zbh, 0, ybl, 0, nx},
            {zbl, zbh, ybh, ny, 0, nx}, {zbl, zbh, ybl, ybh, 0, xbl}, {zbl, zbh, ybl, ybh, xbh, nx}};
        for (int[] b : all) {
            if (b[0] < b[1] && b[2] < b[3] && b[4] < b[5]) {
                boxes.add(b);
            }
        }
        return boxes;
    }
}
