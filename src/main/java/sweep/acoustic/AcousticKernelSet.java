package sweep.acoustic;

import sweep.acoustic.kernels.AcousticAdjointKernels2D;
import sweep.acoustic.kernels.AcousticAdjointKernels3D;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.backend.CpuKernels;
import sweep.core.Box;

/**
 * The acoustic kernel set of one dimension in one flavour, chosen once per solver: the portable {@code @Parallel}
 * kernels ({@link AcousticKernels2D}/{@link AcousticKernels3D},
 * {@link AcousticAdjointKernels2D}/{@link AcousticAdjointKernels3D}) or their Vector API variants
 * ({@link AcousticVectorKernels2D}/{@link AcousticVectorKernels3D},
 * {@link AcousticVectorAdjointKernels2D}/{@link AcousticVectorAdjointKernels3D}), which give the same bits. The Java
 * backend's passes loop over boxes and call one method per box; a second equation gets a set of its own.
 *
 * <p>A method with {@code z0, z1, b} runs its kernel on the rows [z0, z1) of box {@code b} (z0, z1 within the box's z
 * range; 2-D sets ignore y); {@code scratch} is the calling thread's row of {@link #forwardScratch} or
 * {@link #adjointScratch} floats, unused by the portable sets. The mirror and ghost-row methods take the columns
 * [y0, y1) × [x0, x1) of the top face.
 */
public interface AcousticKernelSet {
    /**
     * The set for {@code ndim} dimensions, Vector API variants or portable kernels. Each of the four is one class, so
     * a call site of a solver sees one receiver type (C2 then inlines the call as if it were static).
     */
    static AcousticKernelSet of(int ndim, boolean vector) {
        if (ndim != 2 && ndim != 3) {
            throw new IllegalArgumentException("kernels exist for 2 or 3 dimensions, not " + ndim);
        }
        if (ndim == 2) {
            return vector ? Vector2D.SET : Portable2D.SET;
        }
        return vector ? Vector3D.SET : Portable3D.SET;
    }

    /** The set the Java backend runs for {@code ndim} dimensions, per {@link CpuKernels#useCpuKernels()}. */
    static AcousticKernelSet forJavaBackend(int ndim) {
        return of(ndim, CpuKernels.useCpuKernels());
    }

    int ndim();

    /** Whether this is a Vector API set (which also has the fused row passes {@link #innerRows}). */
    boolean vector();

    /**
     * Floats of per-thread scratch the forward kernels need ({@link #psi}, {@link #pml}, {@link #interior},
     * {@link #innerRows}).
     */
    int forwardScratch(int[] geo);

    /** Floats of per-thread scratch the adjoint kernels need ({@link #pmlPsi}, {@link #adjointGeneral}). */
    int adjointScratch(int[] geo);

    /** The CPML auxiliary pass ({@link AcousticKernels3D#psi}). */
    void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z0, int z1, Box b, float[] scratch);

    /** The update in PML cells ({@link AcousticKernels3D#pml}). */
    void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef, int[] geo,
             int z0, int z1, Box b, float[] scratch);

    /** The branch-free update of the interior box ({@link AcousticKernels3D#interior}). */
    void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z0, int z1, Box b, float[] scratch);

    /**
     * The interior update of a Born run: background and scattered field in one pass, the background's Laplacian term
     * also the scattered field's secondary source ({@link AcousticKernels3D#bornInterior}); {@code scratch}: the calling
     * thread's row of at least b's x extent floats (not {@link #forwardScratch}'s), unused by the portable sets.
     */
    void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2, float[] coef, int[] geo,
                      int z0, int z1, Box b, float[] scratch);

    /**
     * Vector API sets only: psi and update of whole rows outside the z and y bands, x bands fused with the interior
     * ({@link AcousticVectorKernels3D#innerRows}); the psi pass must then skip these rows.
     */
    void innerRows(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                   int[] geo, int z0, int z1, Box b, float[] scratch);

    /** The free-surface mirror of a new level ({@link AcousticKernels3D#mirrorTop}). */
    void mirrorTop(float[] u, int[] geo, int y0, int y1, int x0, int x1);

    /** The Laplacian-plus-CPML term of a level into {@code d} ({@link AcousticKernels3D#laplacian}). */
    void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d, int z0, int z1, Box b);

    /** The reversed leapfrog that rebuilds u^{n−1} in place of u^{n+1} ({@link AcousticAdjointKernels3D#reverse}). */
    void reverse(float[] u, float[] un, float[] v2, float[] d, int[] geo, int z0, int z1, Box b);

    /** The scaled adjoint field and the imaging condition ({@link AcousticAdjointKernels3D#scale}). */
    void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo, int z0, int z1, Box b);

    /**
     * Rebuild, Laplacian term, scale and imaging condition in one pass ({@link AcousticAdjointKernels3D#rebuildScale}).
     */
    void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad, float[] coef, int[] geo,
                      int rev, int z0, int z1, Box b, float[] scratch);

    /** The adjoint zeta recursion ({@link AcousticAdjointKernels3D#pmlZeta}). */
    void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, int z0, int z1, Box b);

    /** The adjoint psi recursion ({@link AcousticAdjointKernels3D#pmlPsi}). */
    void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo, int z0, int z1,
                Box b, float[] scratch);

    /** λ where no stencil reaches a band ({@link AcousticAdjointKernels3D#interior}). */
    void adjointInterior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo, int z0, int z1, Box b,
                         float[] scratch);

    /** λ in and next to the bands ({@link AcousticAdjointKernels3D#general}). */
    void adjointGeneral(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo, int z0,
                        int z1, Box b, float[] scratch);

    /** The adjoint of the free-surface mirror ({@link AcousticAdjointKernels3D#mirrorTopAdjoint}). */
    void mirrorTopAdjoint(float[] qb, int[] geo, int y0, int y1, int x0, int x1);

    /**
     * The adjoint stencil terms of the mirrored rows above the surface ({@link AcousticAdjointKernels3D#ghostRows}).
     */
    void ghostRows(float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1, int x0, int x1);

    /** What every set has: its dimension, its flavour, and no scratch nor fused row pass unless it says so. */
    abstract class Base implements AcousticKernelSet {
        private final int ndim;
        private final boolean vector;

        Base(int ndim, boolean vector) {
            this.ndim = ndim;
            this.vector = vector;
        }

        @Override
        public final int ndim() {
            return ndim;
        }

        @Override
        public final boolean vector() {
            return vector;
        }

        @Override
        public int forwardScratch(int[] geo) {
            return 0;
        }

        @Override
        public int adjointScratch(int[] geo) {
            return 0;
        }

        @Override
        public void innerRows(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                              int[] geo, int z0, int z1, Box b, float[] scratch) {
            throw new UnsupportedOperationException("the portable kernels have no fused row pass");
        }
    }

    /** The portable 2-D kernels. */
    class Portable2D extends Base {
        static final Portable2D SET = new Portable2D();

        Portable2D() {
            this(false);
        }

        Portable2D(boolean vector) {
            super(2, vector);
        }

        @Override
        public void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z0, int z1, Box b,
                        float[] scratch) {
            AcousticKernels2D.psi(u, psi, prof, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                        int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticKernels2D.pml(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z0, int z1, Box b,
                             float[] scratch) {
            AcousticKernels2D.interior(u, un, v2, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                 float[] coef, int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticKernels2D.bornInterior(u, un, us, uns, v2, dv2, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void mirrorTop(float[] u, int[] geo, int y0, int y1, int x0, int x1) {
            AcousticKernels2D.mirrorTop(u, geo, x0, x1);
        }

        @Override
        public void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d, int z0, int z1,
                              Box b) {
            AcousticKernels2D.laplacian(u, psi, zeta, coef, geo, d, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void reverse(float[] u, float[] un, float[] v2, float[] d, int[] geo, int z0, int z1, Box b) {
            AcousticAdjointKernels2D.reverse(u, un, v2, d, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo, int z0, int z1,
                          Box b) {
            AcousticAdjointKernels2D.scale(qb, v2, w, grad, d, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad, float[] coef,
                                 int[] geo, int rev, int z0, int z1, Box b, float[] scratch) {
            AcousticAdjointKernels2D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, int z0, int z1, Box b) {
            AcousticAdjointKernels2D.pmlZeta(w, zetab, cor, prof, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, Box b, float[] scratch) {
            AcousticAdjointKernels2D.pmlPsi(w, cor, psib, pb, prof, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void adjointInterior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo, int z0, int z1,
                                    Box b, float[] scratch) {
            AcousticAdjointKernels2D.interior(qp, qb, w, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void adjointGeneral(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                                   int z0, int z1, Box b, float[] scratch) {
            AcousticAdjointKernels2D.general(qp, qb, w, cor, pb, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void mirrorTopAdjoint(float[] qb, int[] geo, int y0, int y1, int x0, int x1) {
            AcousticAdjointKernels2D.mirrorTopAdjoint(qb, geo, x0, x1);
        }

        @Override
        public void ghostRows(float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1, int x0, int x1) {
            AcousticAdjointKernels2D.ghostRows(qp, w, coef, geo, x0, x1);
        }
    }

    /**
     * The 2-D Vector API kernels where they exist ({@link AcousticVectorKernels2D},
     * {@link AcousticVectorAdjointKernels2D}), else portable.
     */
    final class Vector2D extends Portable2D {
        static final Vector2D SET = new Vector2D();

        private Vector2D() {
            super(true);
        }

        @Override
        public int forwardScratch(int[] geo) {
            return AcousticVectorKernels2D.scratchSize();
        }

        @Override
        public int adjointScratch(int[] geo) {
            return AcousticVectorAdjointKernels3D.scratchSize(geo);
        }

        @Override
        public void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z0, int z1, Box b,
                        float[] scratch) {
            AcousticVectorKernels2D.psi(u, psi, prof, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                        int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorKernels2D.pml(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z0, int z1, Box b,
                             float[] scratch) {
            AcousticVectorKernels2D.interior(u, un, v2, coef, geo, z0, z1, b.x0(), b.x1(), scratch);
        }

        @Override
        public void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                 float[] coef, int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorKernels2D.bornInterior(u, un, us, uns, v2, dv2, coef, geo, z0, z1, b.x0(), b.x1(), scratch);
        }

        @Override
        public void innerRows(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                              int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorKernels2D.innerRows(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, b.x0(), b.x1(), scratch);
        }

        @Override
        public void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d, int z0, int z1,
                              Box b) {
            AcousticVectorAdjointKernels2D.laplacian(u, psi, zeta, coef, geo, d, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo, int z0, int z1,
                          Box b) {
            AcousticVectorAdjointKernels2D.scale(qb, v2, w, grad, d, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad, float[] coef,
                                 int[] geo, int rev, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorAdjointKernels2D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, int z0, int z1, Box b) {
            AcousticVectorAdjointKernels2D.pmlZeta(w, zetab, cor, prof, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, Box b, float[] scratch) {
            AcousticVectorAdjointKernels2D.pmlPsi(w, cor, psib, pb, prof, coef, geo, z0, z1, b.x0(), b.x1(), scratch);
        }

        @Override
        public void adjointInterior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo, int z0, int z1,
                                    Box b, float[] scratch) {
            AcousticVectorAdjointKernels2D.interior(qp, qb, w, coef, geo, z0, z1, b.x0(), b.x1());
        }

        @Override
        public void adjointGeneral(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                                   int z0, int z1, Box b, float[] scratch) {
            AcousticVectorAdjointKernels2D.general(qp, qb, w, cor, pb, coef, geo, z0, z1, b.x0(), b.x1(), scratch);
        }
    }

    /** The portable 3-D kernels. */
    class Portable3D extends Base {
        static final Portable3D SET = new Portable3D();

        Portable3D() {
            this(false);
        }

        Portable3D(boolean vector) {
            super(3, vector);
        }

        @Override
        public void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z0, int z1, Box b,
                        float[] scratch) {
            AcousticKernels3D.psi(u, psi, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                        int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticKernels3D.pml(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z0, int z1, Box b,
                             float[] scratch) {
            AcousticKernels3D.interior(u, un, v2, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                 float[] coef, int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticKernels3D.bornInterior(u, un, us, uns, v2, dv2, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        public void mirrorTop(float[] u, int[] geo, int y0, int y1, int x0, int x1) {
            AcousticKernels3D.mirrorTop(u, geo, y0, y1, x0, x1);
        }

        @Override
        public void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d, int z0, int z1,
                              Box b) {
            AcousticKernels3D.laplacian(u, psi, zeta, coef, geo, d, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void reverse(float[] u, float[] un, float[] v2, float[] d, int[] geo, int z0, int z1, Box b) {
            AcousticAdjointKernels3D.reverse(u, un, v2, d, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo, int z0, int z1,
                          Box b) {
            AcousticAdjointKernels3D.scale(qb, v2, w, grad, d, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad, float[] coef,
                                 int[] geo, int rev, int z0, int z1, Box b, float[] scratch) {
            AcousticAdjointKernels3D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z0, z1, b.y0(), b.y1(),
                    b.x0(), b.x1());
        }

        @Override
        public void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, int z0, int z1, Box b) {
            AcousticAdjointKernels3D.pmlZeta(w, zetab, cor, prof, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, Box b, float[] scratch) {
            AcousticAdjointKernels3D.pmlPsi(w, cor, psib, pb, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void adjointInterior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo, int z0, int z1,
                                    Box b, float[] scratch) {
            AcousticAdjointKernels3D.interior(qp, qb, w, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void adjointGeneral(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                                   int z0, int z1, Box b, float[] scratch) {
            AcousticAdjointKernels3D.general(qp, qb, w, cor, pb, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void mirrorTopAdjoint(float[] qb, int[] geo, int y0, int y1, int x0, int x1) {
            AcousticAdjointKernels3D.mirrorTopAdjoint(qb, geo, y0, y1, x0, x1);
        }

        @Override
        public void ghostRows(float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1, int x0, int x1) {
            AcousticAdjointKernels3D.ghostRows(qp, w, coef, geo, y0, y1, x0, x1);
        }
    }

    /**
     * The 3-D Vector API kernels where they exist ({@link AcousticVectorKernels3D},
     * {@link AcousticVectorAdjointKernels3D}), else portable.
     */
    final class Vector3D extends Portable3D {
        static final Vector3D SET = new Vector3D();

        private Vector3D() {
            super(true);
        }

        @Override
        public int forwardScratch(int[] geo) {
            return AcousticVectorKernels3D.scratchSize(geo);
        }

        @Override
        public int adjointScratch(int[] geo) {
            return AcousticVectorAdjointKernels3D.scratchSize(geo);
        }

        @Override
        public void psi(float[] u, float[] psi, float[] prof, float[] coef, int[] geo, int z0, int z1, Box b,
                        float[] scratch) {
            AcousticVectorKernels3D.psi(u, psi, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1(), scratch);
        }

        @Override
        public void pml(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                        int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorKernels3D.pml(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1(),
                    scratch);
        }

        @Override
        public void bornInterior(float[] u, float[] un, float[] us, float[] uns, float[] v2, float[] dv2,
                                 float[] coef, int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorKernels3D.bornInterior(u, un, us, uns, v2, dv2, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(),
                    b.x1(), scratch);
        }

        @Override
        public void interior(float[] u, float[] un, float[] v2, float[] coef, int[] geo, int z0, int z1, Box b,
                             float[] scratch) {
            AcousticVectorKernels3D.interior(u, un, v2, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1(), scratch);
        }

        @Override
        public void innerRows(float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof, float[] coef,
                              int[] geo, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorKernels3D.innerRows(u, un, v2, psi, zeta, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(),
                    b.x1(),
                    scratch);
        }

        @Override
        public void laplacian(float[] u, float[] psi, float[] zeta, float[] coef, int[] geo, float[] d, int z0, int z1,
                              Box b) {
            AcousticVectorAdjointKernels3D.laplacian(u, psi, zeta, coef, geo, d, z0, z1, b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        public void scale(float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo, int z0, int z1,
                          Box b) {
            AcousticVectorAdjointKernels3D.scale(qb, v2, w, grad, d, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void rebuildScale(float[] u, float[] un, float[] v2, float[] qb, float[] w, float[] grad, float[] coef,
                                 int[] geo, int rev, int z0, int z1, Box b, float[] scratch) {
            AcousticVectorAdjointKernels3D.rebuildScale(u, un, v2, qb, w, grad, coef, geo, rev, z0, z1, b.y0(), b.y1(),
                    b.x0(), b.x1(),
                    scratch);
        }

        @Override
        public void pmlZeta(float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, int z0, int z1, Box b) {
            AcousticVectorAdjointKernels3D.pmlZeta(w, zetab, cor, prof, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        public void pmlPsi(float[] w, float[] cor, float[] psib, float[] pb, float[] prof, float[] coef, int[] geo,
                           int z0, int z1, Box b, float[] scratch) {
            AcousticVectorAdjointKernels3D.pmlPsi(w, cor, psib, pb, prof, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(),
                    b.x1(), scratch);
        }

        @Override
        public void adjointInterior(float[] qp, float[] qb, float[] w, float[] coef, int[] geo, int z0, int z1,
                                    Box b, float[] scratch) {
            AcousticVectorAdjointKernels3D.interior(qp, qb, w, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(), b.x1(),
                    scratch);
        }

        @Override
        public void adjointGeneral(float[] qp, float[] qb, float[] w, float[] cor, float[] pb, float[] coef, int[] geo,
                                   int z0, int z1, Box b, float[] scratch) {
            AcousticVectorAdjointKernels3D.general(qp, qb, w, cor, pb, coef, geo, z0, z1, b.y0(), b.y1(), b.x0(),
                    b.x1(), scratch);
        }
    }
}
