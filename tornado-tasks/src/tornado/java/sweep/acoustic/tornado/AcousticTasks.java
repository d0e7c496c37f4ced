package sweep.acoustic.tornado;

import java.util.List;
import sweep.acoustic.kernels.AcousticAdjointKernels2D;
import sweep.acoustic.kernels.AcousticAdjointKernels3D;
import sweep.acoustic.kernels.AcousticKernels2D;
import sweep.acoustic.kernels.AcousticKernels3D;
import sweep.core.Box;
import sweep.kernels.Pack;
import uk.ac.manchester.tornado.api.TaskGraph;

/**
 * The acoustic kernels of one dimension as TornadoVM tasks, chosen once per stepper (the device counterpart of
 * {@code sweep.acoustic.AcousticKernelSet}): each method appends its kernel over box {@code b} to a task graph under
 * the task name {@code id}; 2-D ignores y. The mirror and ghost-row tasks take the top face's columns [y0, y1) × [x0,
 * x1).
 */
abstract class AcousticTasks {
    private static final AcousticTasks TWO_D = new TwoD();
    private static final AcousticTasks THREE_D = new ThreeD();

    static AcousticTasks of(int ndim) {
        return ndim == 2 ? TWO_D : THREE_D;
    }

    abstract void psi(TaskGraph t, String id, float[] u, float[] psi, float[] prof, float[] coef, int[] geo, Box b);

    abstract void pml(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] psi, float[] zeta,
                      float[] prof, float[] coef, int[] geo, Box b);

    abstract void interior(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] coef, int[] geo, Box b);

    abstract void mirrorTop(TaskGraph t, String id, float[] u, int[] geo, int y0, int y1, int x0, int x1);

    abstract void laplacian(TaskGraph t, String id, float[] u, float[] psi, float[] zeta, float[] coef, int[] geo,
                            float[] d, Box b);

    abstract void reverse(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] d, int[] geo, Box b);

    abstract void scale(TaskGraph t, String id, float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                        Box b);

    abstract void pmlZeta(TaskGraph t, String id, float[] w, float[] zetab, float[] cor, float[] prof, int[] geo,
                          Box b);

    abstract void pmlPsi(TaskGraph t, String id, float[] w, float[] cor, float[] psib, float[] pb, float[] prof,
                         float[] coef, int[] geo, Box b);

    abstract void adjointInterior(TaskGraph t, String id, float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
                                  Box b);

    abstract void adjointGeneral(TaskGraph t, String id, float[] qp, float[] qb, float[] w, float[] cor, float[] pb,
                                 float[] coef, int[] geo, Box b);

    abstract void mirrorTopAdjoint(TaskGraph t, String id, float[] qb, int[] geo, int y0, int y1, int x0, int x1);

    abstract void ghostRows(TaskGraph t, String id, float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1,
                            int x0, int x1);

    /** Tasks {@code name0, name1, ...} packing the cells of each box of {@code f} into {@code buf}, box after box. */
    static void pack(TaskGraph t, String name, float[] f, float[] buf, int[] geo, List<Box> boxes) {
        int off = 0;
        int k = 0;
        for (Box q : boxes) {
            t.task(name + k++, Pack::pack, f, buf, off, geo, q.z0(), q.z1(), q.y0(), q.y1(), q.x0(), q.x1());
            off += (int) q.volume();
        }
    }

    /**
     * Tasks {@code name0, name1, ...} unpacking {@code buf} into the halo boxes of {@code f} (from the second step on:
     * {@code step} is the device's step counter).
     */
    static void unpackHalo(TaskGraph t, String name, float[] f, float[] buf, int[] geo, List<Box> boxes, int[] step) {
        int off = 0;
        int k = 0;
        for (Box q : boxes) {
            t.task(name + k++, AcousticStepKernels::unpackHalo, f, buf, off, geo, q.z0(), q.z1(), q.y0(), q.y1(),
                    q.x0(),
                    q.x1(), step);
            off += (int) q.volume();
        }
    }

    /** The 2-D kernels. */
    private static final class TwoD extends AcousticTasks {
        @Override
        void psi(TaskGraph t, String id, float[] u, float[] psi, float[] prof, float[] coef, int[] geo, Box b) {
            t.task(id, AcousticKernels2D::psi, u, psi, prof, coef, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void pml(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                 float[] coef, int[] geo, Box b) {
            t.task(id, AcousticKernels2D::pml, u, un, v2, psi, zeta, prof, coef, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void interior(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] coef, int[] geo, Box b) {
            t.task(id, AcousticKernels2D::interior, u, un, v2, coef, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void mirrorTop(TaskGraph t, String id, float[] u, int[] geo, int y0, int y1, int x0, int x1) {
            t.task(id, AcousticKernels2D::mirrorTop, u, geo, x0, x1);
        }

        @Override
        void laplacian(TaskGraph t, String id, float[] u, float[] psi, float[] zeta, float[] coef, int[] geo,
                       float[] d, Box b) {
            t.task(id, AcousticKernels2D::laplacian, u, psi, zeta, coef, geo, d, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void reverse(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] d, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels2D::reverse, u, un, v2, d, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void scale(TaskGraph t, String id, float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                   Box b) {
            t.task(id, AcousticAdjointKernels2D::scale, qb, v2, w, grad, d, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void pmlZeta(TaskGraph t, String id, float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels2D::pmlZeta, w, zetab, cor, prof, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void pmlPsi(TaskGraph t, String id, float[] w, float[] cor, float[] psib, float[] pb, float[] prof,
                    float[] coef, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels2D::pmlPsi, w, cor, psib, pb, prof, coef, geo, b.z0(), b.z1(), b.x0(),
                    b.x1());
        }

        @Override
        void adjointInterior(TaskGraph t, String id, float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
                             Box b) {
            t.task(id, AcousticAdjointKernels2D::interior, qp, qb, w, coef, geo, b.z0(), b.z1(), b.x0(), b.x1());
        }

        @Override
        void adjointGeneral(TaskGraph t, String id, float[] qp, float[] qb, float[] w, float[] cor, float[] pb,
                            float[] coef, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels2D::general, qp, qb, w, cor, pb, coef, geo, b.z0(), b.z1(), b.x0(),
                    b.x1());
        }

        @Override
        void mirrorTopAdjoint(TaskGraph t, String id, float[] qb, int[] geo, int y0, int y1, int x0, int x1) {
            t.task(id, AcousticAdjointKernels2D::mirrorTopAdjoint, qb, geo, x0, x1);
        }

        @Override
        void ghostRows(TaskGraph t, String id, float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1, int x0,
                       int x1) {
            t.task(id, AcousticAdjointKernels2D::ghostRows, qp, w, coef, geo, x0, x1);
        }
    }

    /** The 3-D kernels. */
    private static final class ThreeD extends AcousticTasks {
        @Override
        void psi(TaskGraph t, String id, float[] u, float[] psi, float[] prof, float[] coef, int[] geo, Box b) {
            t.task(id, AcousticKernels3D::psi, u, psi, prof, coef, geo, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(), b.x1());
        }

        @Override
        void pml(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] psi, float[] zeta, float[] prof,
                 float[] coef, int[] geo, Box b) {
            t.task(id, AcousticKernels3D::pml, u, un, v2, psi, zeta, prof, coef, geo, b.z0(), b.z1(), b.y0(), b.y1(),
                    b.x0(),
                    b.x1());
        }

        @Override
        void interior(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] coef, int[] geo, Box b) {
            t.task(id, AcousticKernels3D::interior, u, un, v2, coef, geo, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        void mirrorTop(TaskGraph t, String id, float[] u, int[] geo, int y0, int y1, int x0, int x1) {
            t.task(id, AcousticKernels3D::mirrorTop, u, geo, y0, y1, x0, x1);
        }

        @Override
        void laplacian(TaskGraph t, String id, float[] u, float[] psi, float[] zeta, float[] coef, int[] geo,
                       float[] d, Box b) {
            t.task(id, AcousticKernels3D::laplacian, u, psi, zeta, coef, geo, d, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        void reverse(TaskGraph t, String id, float[] u, float[] un, float[] v2, float[] d, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels3D::reverse, u, un, v2, d, geo, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        void scale(TaskGraph t, String id, float[] qb, float[] v2, float[] w, float[] grad, float[] d, int[] geo,
                   Box b) {
            t.task(id, AcousticAdjointKernels3D::scale, qb, v2, w, grad, d, geo, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        void pmlZeta(TaskGraph t, String id, float[] w, float[] zetab, float[] cor, float[] prof, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels3D::pmlZeta, w, zetab, cor, prof, geo, b.z0(), b.z1(), b.y0(), b.y1(),
                    b.x0(), b.x1());
        }

        @Override
        void pmlPsi(TaskGraph t, String id, float[] w, float[] cor, float[] psib, float[] pb, float[] prof,
                    float[] coef, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels3D::pmlPsi, w, cor, psib, pb, prof, coef, geo, b.z0(), b.z1(), b.y0(),
                    b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        void adjointInterior(TaskGraph t, String id, float[] qp, float[] qb, float[] w, float[] coef, int[] geo,
                             Box b) {
            t.task(id, AcousticAdjointKernels3D::interior, qp, qb, w, coef, geo, b.z0(), b.z1(), b.y0(), b.y1(), b.x0(),
                    b.x1());
        }

        @Override
        void adjointGeneral(TaskGraph t, String id, float[] qp, float[] qb, float[] w, float[] cor, float[] pb,
                            float[] coef, int[] geo, Box b) {
            t.task(id, AcousticAdjointKernels3D::general, qp, qb, w, cor, pb, coef, geo, b.z0(), b.z1(), b.y0(), b.y1(),
                    b.x0(),
                    b.x1());
        }

        @Override
        void mirrorTopAdjoint(TaskGraph t, String id, float[] qb, int[] geo, int y0, int y1, int x0, int x1) {
            t.task(id, AcousticAdjointKernels3D::mirrorTopAdjoint, qb, geo, y0, y1, x0, x1);
        }

        @Override
        void ghostRows(TaskGraph t, String id, float[] qp, float[] w, float[] coef, int[] geo, int y0, int y1, int x0,
                       int x1) {
            t.task(id, AcousticAdjointKernels3D::ghostRows, qp, w, coef, geo, y0, y1, x0, x1);
        }
    }
}
