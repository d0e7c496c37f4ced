package sweep.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.cli.Main;
import sweep.core.Wavelets;
import sweep.equation.Parameter;
import sweep.equation.StepStages;
import sweep.equation.WaveEquation;
import sweep.io.Npy;
import sweep.parallel.MpiRunner;
import sweep.prop.Backends;
import sweep.prop.Gradient;
import sweep.prop.MemoryEstimate;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Storage;

/**
 * The conformance kit of a wave equation: an equation passes it by subclassing this JUnit 5 class and saying how to
 * make a valid model of its own ({@link #model}); it runs the problems of the equation's
 * {@link WaveEquation#dimensions()}. It checks, through the public API only: the adjoint run against the forward run
 * (dot product of the linear map wavelet → record, CPML and free surface included, both storages) and, where the
 * solver shows them ({@link Propagator#stepStages}), every stage of a time step against its transpose; the gradient of
 * every parameter against fourth-order finite differences of the misfit; the memory estimate against what a solver
 * holds; that the thread count does not change a bit; that a run decomposed under a real {@code mpirun} gives the bits
 * of one domain; and that the command line refuses an unstable dt, a NaN and an out-of-range value of every parameter
 * with exit code 2, naming the option.
 */
public abstract class EquationKit {
    /** dh of the kit's problems, m. */
    protected static final double DH = 10;
    /** dt of the kit's problems, s: stable for a CFL velocity up to {@link #MAX_VELOCITY} at every order. */
    protected static final double DT = 8e-4;
    /** The largest CFL velocity ({@link WaveEquation#cflVelocity}) a kit model may have, m/s. */
    protected static final double MAX_VELOCITY = 3000;

    @TempDir
    Path dir;

    /** The equation under test. */
    protected abstract WaveEquation equation();

    /**
     * A valid model of {@code shape}, parameter-major in the equation's order: smooth and random from {@code seed}
     * (see {@link #smoothField}), every value inside the equation's allowed range with a margin of a few per cent, the
     * CFL velocity at most {@link #MAX_VELOCITY}; two seeds give models a few per cent apart.
     */
    protected abstract float[] model(int[] shape, long seed);

    /** A source type of the equation to run the kit's problems with in {@code ndim} dimensions (null: the default). */
    protected String sourceType(int ndim, int variant) {
        List<String> types = equation().sourceTypes(ndim);
        return types.isEmpty() ? null : types.get(variant % types.size());
    }

    /** {@code s} when the equation supports it, else its default storage. */
    Storage supported(Storage s) {
        return equation().storages().contains(s) ? s : equation().storages().get(0);
    }

    /**
     * The cases of {@code list} in the equation's {@link WaveEquation#dimensions()} (e.g. the 2-D ones for 2-D SH
     * waves).
     */
    private List<Case> runnable(List<Case> list) {
        List<Integer> dims = equation().dimensions();
        return list.stream().filter(c -> dims.contains(c.shape().length)).toList();
    }

    /** A spec of the kit's problems: {@code shape}, {@code nt} steps, CPML of {@code abcn}, the given order. */
    protected PropSpec.Builder spec(int[] shape, int nt, int abcn, int order) {
        PropSpec.Builder b = PropSpec.builder(shape).equation(equation()).dh(DH).dt(DT).nt(nt).abcn(abcn)
                .order(order).maxVel(MAX_VELOCITY).threads(1);
        return b;
    }

    /**
     * A smooth random field of {@code shape} around {@code mean} (±{@code amplitude}): a sum of six random
     * low-wavenumber cosines, deterministic from {@code seed}.
     */
    public static float[] smoothField(long seed, double mean, double amplitude, int... shape) {
        Random rnd = new Random(seed);
        int nz = shape[0];
        int ny = shape.length == 3 ? shape[1] : 1;
        int nx = shape[shape.length - 1];
        int modes = 6;
        double[][] k = new double[modes][4];
        for (double[] m : k) {
            m[0] = rnd.nextDouble() * 3 * Math.PI / nz;
            m[1] = rnd.nextDouble() * 3 * Math.PI / ny;
            m[2] = rnd.nextDouble() * 3 * Math.PI / nx;
            m[3] = rnd.nextDouble() * 2 * Math.PI;
        }
        float[] v = new float[nz * ny * nx];
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    double s = 0;
                    for (double[] m : k) {
                        s += Math.cos(m[0] * z + m[1] * y + m[2] * x + m[3]);
                    }
                    v[(z * ny + y) * nx + x] = (float) (mean + amplitude * s / modes);
                }
            }
        }
        return v;
    }

    private static int cells(int[] shape) {
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        return n;
    }

    /** The cases of the kit: 2-D and 3-D, with and without a free surface, both storages. */
    private record Case(int[] shape, int nt, int abcn, int order, boolean freeSurface, Storage storage, int[][] src,
                        int[][] rec) {
        /**
         * The Ricker peak frequency of the case: the wavelet peaks in the first third of the record, so that the
         * wavefield a boundary-saving run rebuilds backwards never falls far below its final amplitude (float rounding
         * of the rebuild is relative to that).
         */
        double freq() {
            return 1.5 / (nt * DT / 3);
        }

        PropSpec spec(EquationKit kit, int variant) {
            return kit.spec(shape, nt, abcn, order).freeSurface(freeSurface).storage(kit.supported(storage))
                    .sourceType(kit.sourceType(shape.length, variant)).build();
        }
    }

    private static List<Case> cases() {
        int[][] rec2 = {{2, 0}, {29, 14}, {15, 23}, {9, 7}};
        int[][] rec3 = {{1, 2, 0}, {15, 13, 11}, {7, 3, 9}};
        return List.of(
                new Case(new int[] {26, 32}, 200, 8, 8, false, Storage.FULL, new int[][] {{11, 12}}, rec2),
                new Case(new int[] {26, 32}, 200, 8, 4, true, Storage.BOUNDARY_SAVING, new int[][] {{20, 3}}, rec2),
                new Case(new int[] {14, 16, 18}, 110, 5, 4, false, Storage.BOUNDARY_SAVING, new int[][] {{8, 7, 6}},
                        rec3),
                new Case(new int[] {14, 16, 18}, 110, 5, 6, true, Storage.FULL, new int[][] {{4, 9, 2}}, rec3));
    }

    /**
     * (a) The adjoint of the whole run: for the linear map F: wavelet → record, |⟨F s, r⟩ − ⟨s, Fᵀ r⟩| is below 1e-5 of
     * the larger, Fᵀ r being the adjoint run's dJ/dwavelet for the residual r; CPML on every side, free surface, both
     * storages, 2-D and 3-D.
     */
    @Test
    void adjointOfTheWholeRunPassesTheDotProductTest() {
        int variant = 0;
        for (Case c : runnable(cases())) {
            PropSpec spec = c.spec(this, variant++);
            float[] m = model(c.shape(), 11 + variant);
            Random rnd = new Random(7 + variant);
            float[] s = new float[spec.nt()];
            for (int i = 0; i < s.length; i++) {
                s[i] = (float) rnd.nextGaussian();
            }
            try (Propagator p = new Propagator(spec)) {
                float[] fs = p.forwardForGradient(s, new int[][][] {c.src()}, new int[][][] {c.rec()}, m).data();
                // random magnitudes with the signs of F s: a sum without heavy cancellation (float rounding of the
                // records would otherwise decide it)
                float[] r = new float[fs.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = (float) (Math.signum(fs[i]) * Math.abs(rnd.nextGaussian()));
                }
                float[] ftr = p.gradient(r).wavelet();
                double a = 0;
                double b = 0;
                for (int i = 0; i < r.length; i++) {
                    a += (double) fs[i] * r[i];
                }
                for (int i = 0; i < s.length; i++) {
                    b += (double) s[i] * ftr[i];
                }
                double rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
                String what = describe(spec);
                System.out.printf(Locale.ROOT, "kit %s dot product %s: <Fs,r> %.9e <s,F'r> %.9e rel %.2e%n",
                        equation().name(), what, a, b, rel);
                assertTrue(a != 0, what + ": the record is zero: the source does not reach the receivers");
                assertTrue(rel < 1e-5, what + ": dot-product test fails, relative difference " + rel);
            }
        }
    }

    /**
     * (a) The Born operator against the gradient, for an equation that has one ({@link WaveEquation#hasBornOperator}):
     * |⟨J·δm₁, d⟩ − ⟨δm₁, Jᵀ·d⟩| is below 1e-5 of the larger, J·δm being {@link Propagator#born}, Jᵀ·d the gradient
     * of the same spec for the residual d, the Born record of another perturbation δm₂ (band-limited data); the
     * perturbations are differences of two valid models; CPML on every side, free surface, both storages, 2-D and 3-D.
     */
    @Test
    void bornOperatorPassesTheDotProductTestAgainstTheGradient() {
        Assumptions.assumeTrue(equation().hasBornOperator(), equation().name() + " has no Born operator");
        int variant = 0;
        for (Case c : runnable(cases())) {
            PropSpec spec = c.spec(this, variant++);
            float[] m = model(c.shape(), 51 + variant);
            float[] dm1 = model(c.shape(), 61 + variant);
            float[] dm2 = model(c.shape(), 71 + variant);
            for (int i = 0; i < m.length; i++) {
                dm1[i] -= m[i];
                dm2[i] -= m[i];
            }
            float[] w = Wavelets.ricker(c.freq(), spec.nt(), spec.dt());
            int[][][] src = {c.src()};
            int[][][] rec = {c.rec()};
            try (Propagator p = new Propagator(spec)) {
                float[] jdm = p.born(w, src, rec, m, dm1).data();
                float[] d = p.born(w, src, rec, m, dm2).data();
                p.forwardForGradient(w, src, rec, m);
                float[] jtd = p.gradient(d).parameters();
                double a = 0;
                double b = 0;
                for (int i = 0; i < d.length; i++) {
                    a += (double) jdm[i] * d[i];
                }
                for (int i = 0; i < dm1.length; i++) {
                    b += (double) dm1[i] * jtd[i];
                }
                double rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
                String what = describe(spec);
                System.out.printf(Locale.ROOT, "kit %s Born dot product %s: <J dm,d> %.9e <dm,J'd> %.9e rel %.2e%n",
                        equation().name(), what, a, b, rel);
                assertTrue(a != 0, what + ": the Born record is zero");
                assertTrue(rel < 1e-5, what + ": Born dot-product test fails, relative difference " + rel);
            }
        }
    }

    /**
     * (a) The adjoint per stage: for every stage S of the solver's time step ({@link Propagator#stepStages}),
     * |⟨S x, y⟩ − ⟨x, Sᵀ y⟩| is below 1e-7 of the larger for random states y (with the signs of S x) and x: x random
     * over the whole state, whose parts have their typical magnitudes, and again x random on one part alone and zero
     * elsewhere, for every part: a part of few values (the CPML memory variables, which live on the PML cells only)
     * is then not drowned by the others, so a transpose wrong on it alone fails by far. CPML on every side, free
     * surface, 2-D and 3-D. A failure names the stage and the part. Skipped when the equation's solver does not show
     * its stages.
     */
    @Test
    void everyStageOfTheStepPassesTheDotProductTest() {
        int variant = 0;
        List<String> failures = new ArrayList<>();
        for (Case c : runnable(cases())) {
            PropSpec spec = c.spec(this, variant++);
            float[] m = model(c.shape(), 21 + variant);
            try (Propagator p = new Propagator(spec)) {
                StepStages st = p.stepStages(m);
                Assumptions.assumeTrue(st != null, equation().name() + " does not show the stages of its step");
                double[] scale = st.state().scales();
                Random rnd = new Random(5 + variant);
                for (int k = 0; k < st.names().size(); k++) {
                    double worst = 0;
                    for (int part = -1; part < st.state().parts(); part++) {
                        int from = part < 0 ? 0 : st.state().partStart(part);
                        int to = part < 0 ? scale.length : from + st.state().partLength(part);
                        float[] x = new float[scale.length];
                        for (int i = from; i < to; i++) {
                            x[i] = (float) (scale[i] * rnd.nextGaussian());
                        }
                        float[] sx = x.clone();
                        st.apply(k, sx);
                        float[] y = new float[sx.length];
                        for (int i = 0; i < y.length; i++) {
                            y[i] = (float) (Math.signum(sx[i]) * Math.abs(rnd.nextGaussian()) / scale[i]);
                        }
                        float[] sty = y.clone();
                        st.applyTranspose(k, sty);
                        double a = 0;
                        double b = 0;
                        for (int i = 0; i < x.length; i++) {
                            a += (double) sx[i] * y[i];
                            b += (double) x[i] * sty[i];
                        }
                        String what = describe(spec) + " stage '" + st.names().get(k) + "'"
                                + (part < 0 ? "" : " on part '" + st.state().partName(part) + "' alone");
                        double rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
                        if (part < 0) {
                            System.out.printf(Locale.ROOT, "kit %s dot product %s: <Sx,y> %.9e <x,S'y> %.9e rel %.2e%n",
                                    equation().name(), what, a, b, rel);
                            assertTrue(a != 0, what + ": the stage maps a random state to zero");
                        } else if (a == 0 && b == 0) {
                            continue; // the stage maps the part to zero, and its transpose agrees
                        }
                        worst = Math.max(worst, rel);
                        if (!(rel < 1e-7)) {
                            failures.add(what + ": dot-product test fails (the transpose of this stage is wrong),"
                                    + " relative difference " + rel);
                        }
                    }
                    System.out.printf(Locale.ROOT, "kit %s dot product %s stage '%s', every part alone: worst rel"
                            + " %.2e%n", equation().name(), describe(spec), st.names().get(k), worst);
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    /**
     * (b) The gradient of every parameter against a fourth-order finite difference of the misfit J = ½‖d − d_obs‖²
     * along a relative perturbation of that parameter of smooth size, each cell's sign that of its gradient (zero
     * where the parameter is zero; every parameter is checked and printed before a failure lists those that differ):
     * relative
     * error below 2e-3; 2-D with FULL storage over every cell (the CPML pads' gradient folded onto the edge cells), 3-D
     * with BOUNDARY_SAVING over the inner cells (with boundary saving the outermost cells, whose nodes reach into the
     * CPML, miss part of their gradient: docs/elastic.md).
     */
    @Test
    void gradientOfEveryParameterMatchesFiniteDifferences() {
        int variant = 0;
        List<String> failures = new ArrayList<>();
        for (Case c : runnable(List.of(cases().get(1), cases().get(2)))) {
            Storage storage = c.shape().length == 2 ? Storage.FULL : Storage.BOUNDARY_SAVING;
            PropSpec spec = c.spec(this, variant++).toBuilder().storage(supported(storage)).build();
            float[] truth = model(c.shape(), 31 + variant);
            float[] m0 = model(c.shape(), 41 + variant);
            float[] w = Wavelets.ricker(c.freq(), spec.nt(), spec.dt());
            int[][][] src = {c.src()};
            int[][][] rec = {c.rec()};
            int n = cells(c.shape());
            boolean[] inner = inner(c.shape());
            try (Propagator p = new Propagator(spec)) {
                float[] obs = p.forward(w, src, rec, truth).data();
                Gradient g = p.forwardAndGradient(w, src, rec, m0, obs, Misfit.L2);
                for (int k = 0; k < spec.equation().parameterCount(); k++) {
                    // each cell moved in the direction its gradient says J grows: the derivative along it is a sum of
                    // terms of one sign, which cannot cancel down to the float noise of the misfits (a wrong cell
                    // gradient still shows, as the finite difference follows the true one)
                    float[] rel = smoothField(97 + k, 1, 0.5, c.shape());
                    double[] dir = new double[m0.length];
                    for (int i = 0; i < n; i++) {
                        double up = Math.signum(g.parameters()[k * n + i]);
                        dir[k * n + i] = spec.storage() == Storage.FULL || inner[i] ? up * m0[k * n + i] * rel[i] : 0;
                    }
                    double analytic = 0;
                    for (int i = 0; i < dir.length; i++) {
                        analytic += (double) g.parameters()[i] * dir[i];
                    }
                    double eps = 2e-3; // up to 0.6 % of each value
                    double j1 = misfit(p, w, src, rec, shifted(m0, dir, eps), obs);
                    double jm1 = misfit(p, w, src, rec, shifted(m0, dir, -eps), obs);
                    double j2 = misfit(p, w, src, rec, shifted(m0, dir, 2 * eps), obs);
                    double jm2 = misfit(p, w, src, rec, shifted(m0, dir, -2 * eps), obs);
                    double fd = (8 * (j1 - jm1) - (j2 - jm2)) / (12 * eps);
                    double err = Math.abs(fd - analytic) / Math.abs(fd);
                    String what = describe(spec) + " d/d" + spec.equation().parameterNames().get(k);
                    System.out.printf(Locale.ROOT,
                            "kit %s gradient %s: analytic %.8e finite difference %.8e rel %.2e%n",
                            equation().name(), what, analytic, fd, err);
                    if (!(err < 2e-3)) {
                        failures.add(what + ": gradient differs from finite differences by " + err);
                    }
                }
            }
        }
        assertEquals(List.of(), failures, "every parameter is checked before the test fails");
    }

    /**
     * Boundary saving rebuilds the forward wavefield instead of storing it: its gradient equals FULL storage's on the
     * inner cells (relative L2 below 2e-5 per parameter) and its misfit and dJ/dwavelet bit for bit, 2-D and 3-D.
     */
    @Test
    void boundarySavingGradientEqualsFullStorageOnTheInnerCells() {
        Assumptions.assumeTrue(equation().storages().contains(Storage.BOUNDARY_SAVING), equation().name()
                + " has no boundary saving");
        int variant = 0;
        for (Case c : runnable(List.of(cases().get(1), cases().get(3)))) {
            PropSpec full = c.spec(this, variant++).toBuilder().storage(Storage.FULL).build();
            PropSpec bs = full.toBuilder().storage(Storage.BOUNDARY_SAVING).build();
            float[] truth = model(c.shape(), 33 + variant);
            float[] m0 = model(c.shape(), 43 + variant);
            float[] w = Wavelets.ricker(c.freq(), full.nt(), full.dt());
            int[][][] src = {c.src()};
            int[][][] rec = {c.rec()};
            Gradient gf;
            Gradient gb;
            float[] obs;
            try (Propagator p = new Propagator(full)) {
                obs = p.forward(w, src, rec, truth).data();
                gf = p.forwardAndGradient(w, src, rec, m0, obs, Misfit.L2);
            }
            try (Propagator p = new Propagator(bs)) {
                gb = p.forwardAndGradient(w, src, rec, m0, obs, Misfit.L2);
            }
            String what = describe(full);
            assertEquals(gf.misfit(), gb.misfit(), what + ": the forward runs are the same computation");
            assertArrayEquals(gf.wavelet(), gb.wavelet(), what + ": dJ/dwavelet differs between storages");
            int n = cells(c.shape());
            boolean[] inner = inner(c.shape());
            for (int k = 0; k < full.equation().parameterCount(); k++) {
                double num = 0;
                double den = 0;
                for (int i = 0; i < n; i++) {
                    if (inner[i]) {
                        double a = gf.parameters()[k * n + i];
                        double b = gb.parameters()[k * n + i];
                        num += (a - b) * (a - b);
                        den += a * a;
                    }
                }
                double rel = Math.sqrt(num / den);
                System.out.printf(Locale.ROOT, "kit %s boundary saving vs full %s d/d%s on the inner cells: rel %.2e%n",
                        equation().name(), what, full.equation().parameterNames().get(k), rel);
                assertTrue(den > 0, what + ": the gradient of " + full.equation().parameterNames().get(k)
                        + " is zero");
                assertTrue(rel < 2e-5, what + ": boundary saving differs from full storage by " + rel);
            }
        }
    }

    /**
     * Checkpointing re-runs the forward segment by segment from its checkpoints: its gradient, misfit and dJ/dwavelet
     * equal FULL storage's bit for bit, 2-D and 3-D, free surface or not, with a last segment shorter than the others
     * and, on two shots, the tape reused from shot to shot.
     */
    @Test
    void checkpointingGradientEqualsFullStorageBitForBit() {
        Assumptions.assumeTrue(equation().storages().containsAll(List.of(Storage.CHECKPOINTING, Storage.FULL)),
                equation().name() + " lacks checkpointing or full storage");
        int variant = 0;
        for (Case c : runnable(List.of(cases().get(0), cases().get(3)))) {
            PropSpec full = c.spec(this, variant++).toBuilder().storage(Storage.FULL).nt(c.nt() - 3).build();
            PropSpec cp = full.toBuilder().storage(Storage.CHECKPOINTING).build();
            float[] truth = model(c.shape(), 53 + variant);
            float[] m0 = model(c.shape(), 63 + variant);
            float[] w = Wavelets.ricker(c.freq(), full.nt(), full.dt());
            int[][][] src = {c.src(), {c.rec()[c.rec().length / 2]}};
            int[][][] rec = {c.rec(), c.rec()};
            Gradient gf;
            Gradient gc;
            try (Propagator p = new Propagator(full)) {
                float[] obs = p.forward(w, src, rec, truth).data();
                gf = p.forwardAndGradient(w, src, rec, m0, obs, Misfit.L2);
                try (Propagator q = new Propagator(cp)) {
                    gc = q.forwardAndGradient(w, src, rec, m0, obs, Misfit.L2);
                }
            }
            String what = describe(cp);
            assertEquals(gf.misfit(), gc.misfit(), what + ": misfit");
            assertArrayEquals(gf.wavelet(), gc.wavelet(), what + ": dJ/dwavelet differs from full storage's");
            assertArrayEquals(gf.parameters(), gc.parameters(), what + ": the gradient differs from full storage's");
            float top = 0;
            for (float g : gc.parameters()) {
                top = Math.max(top, Math.abs(g));
            }
            assertTrue(top > 0, what + ": zero gradient");
        }
    }

    /**
     * The mesh configurations of the decomposition check, {@code ndim:py:px:shotGroups:nx:order} (see
     * {@link DecomposedRunCheckMain}), at most 4 ranks each, those of the equation's
     * {@link WaveEquation#dimensions()}: 2-D with one cut (nx not divisible by px: the padding path), three cuts, and
     * two shot groups of two tiles; 3-D with x- and y-cuts, short and long tile rows.
     */
    protected List<String> decompositionConfigurations() {
        List<Integer> dims = equation().dimensions();
        return List.of("2:1:2:1:41:8", "2:1:4:1:40:4", "2:1:2:2:36:4", "3:2:2:1:16:4", "3:2:2:1:28:6").stream()
                .filter(c -> dims.contains(Integer.parseInt(c.substring(0, c.indexOf(':'))))).toList();
    }

    /**
     * The kits whose decomposed runs go into one {@code mpirun} launch with this kit's (the start-ups and compilation
     * of the launch's JVMs dominate its time): by default every kit of this kit's code source (its test-classes
     * folder or jar), found by {@link #kitsOfCodeSource}, so the built-in kits share one launch and a plug-in
     * project's kits share another, run by whichever of them comes first.
     */
    protected List<Class<? extends EquationKit>> launchedTogether() {
        return kitsOfCodeSource(getClass());
    }

    /** The kits found so far, by code source location. */
    private static final Map<String, List<Class<? extends EquationKit>>> KITS = new HashMap<>();

    /**
     * The concrete kits in the code source of {@code kit}, sorted by name: the classes whose names end in
     * {@code Test} (the tests surefire runs) and that extend this class, {@code kit} always among them.
     */
    static synchronized List<Class<? extends EquationKit>> kitsOfCodeSource(Class<? extends EquationKit> kit) {
        CodeSource source = kit.getProtectionDomain().getCodeSource();
        if (source == null) {
            return List.of(kit);
        }
        String key = source.getLocation().toString();
        List<Class<? extends EquationKit>> known = KITS.get(key);
        if (known != null) {
            return known;
        }
        List<String> names = new ArrayList<>();
        try {
            Path where = Path.of(source.getLocation().toURI());
            if (Files.isDirectory(where)) {
                try (Stream<Path> files = Files.walk(where)) {
                    files.map(f -> where.relativize(f).toString().replace(File.separatorChar, '/'))
                            .forEach(names::add);
                }
            } else {
                try (ZipFile jar = new ZipFile(where.toFile())) {
                    jar.stream().map(ZipEntry::getName).forEach(names::add);
                }
            }
        } catch (IOException | URISyntaxException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot list the kits beside " + kit.getName() + " in " + key, e);
        }
        List<Class<? extends EquationKit>> kits = new ArrayList<>();
        for (String n : names) {
            if (!n.endsWith("Test.class") || n.contains("$")) {
                continue;
            }
            String className = n.substring(0, n.length() - ".class".length()).replace('/', '.');
            try {
                Class<?> c = Class.forName(className, false, kit.getClassLoader());
                if (EquationKit.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())) {
                    kits.add(c.asSubclass(EquationKit.class));
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // a test class that does not load here is not a kit this launch can run
            }
        }
        if (!kits.contains(kit)) {
            kits.add(kit);
        }
        kits.sort(Comparator.comparing(Class::getName));
        List<Class<? extends EquationKit>> found = List.copyOf(kits);
        KITS.put(key, found);
        return found;
    }

    /** The launches run so far in this JVM, by their kits. */
    private static final Map<List<Class<? extends EquationKit>>, MpiRunner.Result> LAUNCHES = new HashMap<>();

    /** The launch of every case of {@code kits}' {@link #decompositionConfigurations()}, run once per JVM. */
    private static synchronized MpiRunner.Result launch(List<Class<? extends EquationKit>> kits) throws Exception {
        MpiRunner.Result done = LAUNCHES.get(kits);
        if (done != null) {
            return done;
        }
        List<String> args = new ArrayList<>();
        for (Class<? extends EquationKit> k : kits) {
            Constructor<? extends EquationKit> make = k.getDeclaredConstructor();
            make.setAccessible(true);
            args.add(k.getName());
            args.addAll(make.newInstance().decompositionConfigurations());
        }
        // a guard against hangs (about half a minute per equation on an idle 2-core machine), not a speed check
        MpiRunner.Result r = MpiRunner.run(4, Duration.ofSeconds(900), List.of("-Xmx512m"),
                DecomposedRunCheckMain.class, args.toArray(new String[0]));
        LAUNCHES.put(kits, r);
        return r;
    }

    /**
     * (c) Decomposed against one domain, bit for bit, under a real {@code mpirun} of 4 ranks (a 2-rank configuration
     * on two of them): every case of {@link DecomposedRunCheckMain} on every configuration of
     * {@link #decompositionConfigurations()}, in one job with the kits of {@link #launchedTogether()}.
     */
    @Test
    void decomposedRunsAreBitIdenticalToOneDomain() throws Exception {
        List<String> configs = decompositionConfigurations();
        MpiRunner.Result r = launch(launchedTogether());
        String name = equation().name();
        for (String line : r.linesStartingWith("CASE " + name + " ")) {
            System.out.println("kit " + name + " decomposed " + line);
        }
        assertTrue(!r.timedOut(), r.describe());
        List<String> failed = r.linesStartingWith("FAIL");
        assertEquals(List.of(), failed.stream().filter(l -> l.contains(" " + name + " ")).toList(), r.describe());
        // another kit's failure in the same launch fails that kit's test, not this one's
        assertTrue(r.exitCode() == 0 || !failed.isEmpty(), r.describe());
        int total = 0;
        for (String config : configs) {
            String[] f = config.split(":");
            int ranks = Integer.parseInt(f[1]) * Integer.parseInt(f[2]) * Integer.parseInt(f[3]);
            String label = " " + name + " " + DecomposedRunCheckMain.label(f[0], f[1], f[2], f[3], f[4], f[5]);
            long ok = r.linesStartingWith("OK rank").stream().filter(l -> l.contains(label)).count();
            assertEquals(ranks * DecomposedRunCheckMain.casesPerConfiguration(equation()), ok, config + ": OK lines\n"
                    + r.describe());
            total += ranks * DecomposedRunCheckMain.casesPerConfiguration(equation());
        }
        assertEquals(total, r.linesStartingWith("OK rank").stream().filter(l -> l.contains(" " + name + " ")).count(),
                r.describe());
    }

    /** The cells of {@code shape} that are not on its outermost layer. */
    private static boolean[] inner(int[] shape) {
        int nd = shape.length;
        int nz = shape[0];
        int ny = nd == 3 ? shape[1] : 1;
        int nx = shape[nd - 1];
        boolean[] in = new boolean[nz * ny * nx];
        for (int z = 1; z < nz - 1; z++) {
            for (int y = nd == 3 ? 1 : 0; y < (nd == 3 ? ny - 1 : 1); y++) {
                for (int x = 1; x < nx - 1; x++) {
                    in[(z * ny + y) * nx + x] = true;
                }
            }
        }
        return in;
    }

    private static float[] shifted(float[] m, double[] dir, double eps) {
        float[] out = m.clone();
        for (int i = 0; i < m.length; i++) {
            out[i] = (float) (m[i] + eps * dir[i]);
        }
        return out;
    }

    private static double misfit(Propagator p, float[] w, int[][][] src, int[][][] rec, float[] m, float[] obs) {
        float[] d = p.forward(w, src, rec, m).data();
        double j = 0;
        for (int i = 0; i < d.length; i++) {
            double r = (double) d[i] - obs[i];
            j += r * r;
        }
        return 0.5 * j;
    }

    /**
     * (d) The memory estimate of a solver ({@link MemoryEstimate#solverBytes}) within 10 % of what it holds
     * ({@link Propagator#bytesHeld()}) after a forward-only run and after a gradient, 2-D and 3-D, both storages.
     */
    @Test
    void memoryEstimateIsWithinTenPerCentOfWhatTheSolverHolds() {
        int variant = 0;
        for (Case c : runnable(cases())) {
            PropSpec spec = c.spec(this, variant++);
            float[] m = model(c.shape(), 51 + variant);
            float[] w = Wavelets.ricker(c.freq(), spec.nt(), spec.dt());
            int[][][] src = {c.src()};
            int[][][] rec = {c.rec()};
            try (Propagator p = new Propagator(spec)) {
                float[] obs = p.forward(w, src, rec, m).data();
                check(spec, p, false);
                p.forwardAndGradient(w, src, rec, m, obs, Misfit.L2);
                check(spec, p, true);
            }
        }
    }

    private void check(PropSpec spec, Propagator p, boolean gradient) {
        long estimate = MemoryEstimate.solverBytes(p.grid(), spec.storage(), spec.nt(), gradient);
        long held = p.bytesHeld();
        double rel = Math.abs(estimate - held) / (double) held;
        String what = describe(spec) + (gradient ? " after a gradient" : " after a forward run");
        System.out.printf(Locale.ROOT, "kit %s memory %s: estimate %d held %d bytes (%.1f %%)%n", equation().name(),
                what, estimate, held, 100 * rel);
        assertTrue(held > 0, what + ": the solver says it holds nothing");
        assertTrue(rel <= 0.10, what + ": estimate " + estimate + " bytes, held " + held);
    }

    /** (f) Records and gradients do not depend on the thread count: 1, 2 and 3 threads give the same bits. */
    @Test
    void resultsDoNotDependOnTheThreadCount() {
        int variant = 0;
        for (Case c : runnable(List.of(cases().get(0), cases().get(3)))) {
            PropSpec base = c.spec(this, variant++);
            float[] truth = model(c.shape(), 61 + variant);
            float[] m0 = model(c.shape(), 71 + variant);
            float[] w = Wavelets.ricker(c.freq(), base.nt(), base.dt());
            int[][][] src = {c.src()};
            int[][][] rec = {c.rec()};
            float[] obs = null;
            Gradient g1 = null;
            for (int threads : new int[] {1, 2, 3}) {
                try (Propagator p = new Propagator(base.toBuilder().threads(threads).build())) {
                    float[] d = p.forward(w, src, rec, truth).data();
                    Gradient g = p.forwardAndGradient(w, src, rec, m0, d, Misfit.L2);
                    if (obs == null) {
                        obs = d;
                        g1 = g;
                    } else {
                        String what = describe(base) + " with " + threads + " threads";
                        assertArrayEquals(obs, d, what + ": record differs from 1 thread's");
                        assertArrayEquals(g1.parameters(), g.parameters(), what + ": gradient differs");
                        assertEquals(g1.misfit(), g.misfit(), what + ": misfit differs");
                    }
                }
            }
        }
    }

    /**
     * (g) The device solver gives the Java solver's bits under strict math (FMA contraction and fast-math off): records
     * and the gradient of every parameter, misfit and dJ/dwavelet, 2-D and 3-D, both storages, with and without a free
     * surface. Runs in a JVM of a {@code -Ptornado} build started through TornadoVM (the profile's surefire
     * executions); skipped where the equation has no device solver or the JVM cannot run TornadoVM.
     */
    @Test
    void deviceSolverGivesTheJavaBitsUnderStrictMath() throws Exception {
        WaveEquation eq = equation();
        Assumptions.assumeTrue(eq.hasDeviceSolver(), eq.name() + " has no device solver");
        Assumptions.assumeTrue(Backends.tornadoJvm(), "this JVM was not started through TornadoVM");
        String unavailable = Backends.tornadoUnavailable();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        int variant = 0;
        for (Case c : runnable(cases())) {
            PropSpec spec = c.spec(this, variant++);
            float[] truth = model(c.shape(), 91 + variant);
            float[] m0 = model(c.shape(), 93 + variant);
            float[] w = Wavelets.ricker(c.freq(), spec.nt(), spec.dt());
            int[][][] src = {c.src()};
            int[][][] rec = {c.rec()};
            float[][] java = deviceCheckRun(spec, "java", w, src, rec, truth, m0);
            float[][] device = deviceCheckRun(spec, "tornado", w, src, rec, truth, m0);
            String what = describe(spec) + " on the device";
            String[] parts = {"record", "gradient", "dJ/dwavelet", "misfit"};
            for (int k = 0; k < parts.length; k++) {
                assertArrayEquals(java[k], device[k], what + ": " + parts[k] + " differs from the Java solver's");
            }
            System.out.printf(Locale.ROOT, "kit %s device %s: record, gradient, dJ/dwavelet and misfit bit-identical%n",
                    eq.name(), describe(spec));
        }
    }

    /** Record, gradient, dJ/dwavelet and misfit (as a float pair of its double) of one run on {@code backend}. */
    private static float[][] deviceCheckRun(PropSpec spec, String backend, float[] w, int[][][] src, int[][][] rec,
                                            float[] truth, float[] m0) throws Exception {
        try (AutoCloseable b = Backends.select(backend, true, null); Propagator p = new Propagator(spec)) {
            float[] obs = p.forward(w, src, rec, truth).data();
            Gradient g = p.forwardAndGradient(w, src, rec, m0, obs, Misfit.L2);
            long bits = Double.doubleToRawLongBits(g.misfit());
            return new float[][] {obs, g.parameters(), g.wavelet(),
                {Float.intBitsToFloat((int) (bits >>> 32)), Float.intBitsToFloat((int) bits)}};
        }
    }

    /**
     * (e) The command line refuses, with exit code 2 and one line naming the option: a dt above the stable limit (the
     * message giving the largest stable dt), and in each parameter's file a NaN and a value out of the equation's
     * range (a negative one).
     */
    @Test
    void commandLineRefusesUnstableDtNanAndOutOfRangeParameters() throws Exception {
        WaveEquation eq = equation();
        Assumptions.assumeTrue(eq.dimensions().contains(2), "the command-line checks run a 2-D model");
        int[] shape = {12, 16};
        float[] m = model(shape, 81);
        int n = cells(shape);
        List<String> files = new ArrayList<>();
        for (int k = 0; k < eq.parameterCount(); k++) {
            files.add(write("p" + k + ".npy", Arrays.copyOfRange(m, k * n, (k + 1) * n), shape));
        }
        Path src = dir.resolve("src.npy");
        Npy.writeInt32(src, new int[] {5, 6}, 1, 1, 2);
        Path rec = dir.resolve("rec.npy");
        Npy.writeInt32(rec, new int[] {2, 1, 13, 1}, 1, 2, 2);
        // the run's settings as the command line derives them from --ricker 10 (args)
        PropSpec run = PropSpec.builder(shape).equation(eq).dh(DH).dt(1e-4).nt(20).settingsFromPeakFrequency(10)
                .build();
        double vmax = eq.cflVelocity(m, n, run);
        double limit = eq.maxStableDt(vmax, new double[] {DH, DH}, 8);
        assertRefused(args(files, src, rec, 1.05 * limit), "--dt", PropSpec.roundedDown(limit));
        for (int k = 0; k < eq.parameterCount(); k++) {
            Parameter q = eq.parameters().get(k);
            for (float bad : new float[] {Float.NaN, -1000f}) {
                float[] v = Arrays.copyOfRange(m, k * n, (k + 1) * n);
                v[37] = bad;
                List<String> f = new ArrayList<>(files);
                f.set(k, write("bad" + k + ".npy", v, shape));
                assertRefused(args(f, src, rec, 0.5 * limit), "--" + q.name(), "(z, x) = (2, 5)");
            }
        }
    }

    private String write(String name, float[] v, int[] shape) {
        Path f = dir.resolve(name);
        Npy.writeFloat32(f, v, shape);
        return f.toString();
    }

    private String[] args(List<String> files, Path src, Path rec, double dt) {
        List<String> a = new ArrayList<>(List.of("forward", "--equation", equation().name(), "--dh",
                String.valueOf(DH), "--dt", String.format(Locale.ROOT, "%.9g", dt), "--nt", "20", "--abcn", "4",
                "--sources", src.toString(), "--receivers", rec.toString(), "--ricker", "10", "--threads", "1",
                "--out", dir.resolve("out.npy").toString()));
        for (int k = 0; k < files.size(); k++) {
            a.add("--" + equation().parameterNames().get(k));
            a.add(files.get(k));
        }
        return a.toArray(new String[0]);
    }

    private static void assertRefused(String[] args, String... parts) {
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            code = Main.commandLine().execute(args);
        } finally {
            System.setErr(oldErr);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        String line = text.lines().filter(l -> l.contains(": error: ")).findFirst().orElse("");
        String cmd = String.join(" ", args);
        assertEquals(2, code, cmd + ": exit code; stderr: " + text);
        for (String p : parts) {
            assertTrue(line.contains(p), cmd + ": the error should say '" + p + "': " + line);
        }
        assertTrue(!text.contains("Exception") && !text.contains("\tat "), cmd + ": a stack trace: " + text);
    }

    private String describe(PropSpec spec) {
        return String.format(Locale.ROOT, "%d-D %s order %d%s %s%s", spec.ndim(), Arrays.toString(spec.shape()),
                spec.order(), spec.freeSurface() ? " free surface" : "", spec.storage().name().toLowerCase(Locale.ROOT),
                spec.sourceType() == null ? "" : " source " + spec.sourceType());
    }
}
