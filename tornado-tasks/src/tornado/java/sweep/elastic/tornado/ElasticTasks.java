package sweep.elastic.tornado;

import sweep.core.Box;
import sweep.elastic.kernels.ElasticAdjointKernels2D;
import sweep.elastic.kernels.ElasticAdjointKernels3D;
import sweep.elastic.kernels.ElasticKernels2D;
import sweep.elastic.kernels.ElasticKernels3D;
import uk.ac.manchester.tornado.api.TaskGraph;

/**
 * The elastic kernels of one dimension as TornadoVM tasks, chosen once per stepper (the device counterpart of the
 * Java backend's passes in {@code sweep.elastic.ElasticStepper} and {@code ElasticAdjoint}): each method appends its
 * kernel over box {@code q} (or, for the free-surface kernels, the top row's columns) to a task graph under the task
 * name {@code id}; 2-D ignores y.
 */
abstract class ElasticTasks {
    private static final ElasticTasks TWO_D = new TwoD();
    private static final ElasticTasks THREE_D = new ThreeD();

    static ElasticTasks of(int ndim) {
        return ndim == 2 ? TWO_D : THREE_D;
    }

    abstract void velocity(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] psi, float[] prof,
                           float[] coef, int[] geo, Box q);

    abstract void stress(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] psi, float[] prof,
                         float[] coef, int[] geo, Box q);

    abstract void velocityTaped(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] psi, float[] prof,
                                float[] coef, int[] geo, float[] tv, Box q);

    abstract void stressTaped(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] psi, float[] prof,
                              float[] coef, int[] geo, float[] ts, Box q);

    /** The velocity images over the top row's columns [y0, y1) × [x0, x1). */
    abstract void freeSurfaceVelocity(TaskGraph t, String id, float[] v, int[] geo, Box top);

    abstract void freeSurfaceStress(TaskGraph t, String id, float[] s, int[] geo, Box top);

    abstract void stressAdjoint(TaskGraph t, String id, float[] vb, float[] sb, float[] m, float[] psib, float[] prof,
                                float[] coef, int[] geo, float[] ts, float[] gm, Box q);

    abstract void velocityAdjoint(TaskGraph t, String id, float[] sb, float[] vb, float[] b, float[] psib,
                                  float[] prof, float[] coef, int[] geo, float[] tv, float[] gb, Box q);

    abstract void stressPsiAdjoint(TaskGraph t, String id, float[] sb, float[] m, float[] psib, float[] prof,
                                   int[] geo, Box q);

    abstract void velocityPsiAdjoint(TaskGraph t, String id, float[] vb, float[] b, float[] psib, float[] prof,
                                     int[] geo, Box q);

    abstract void stressAdjointImages(TaskGraph t, String id, float[] vb, float[] sb, float[] m, float[] psib,
                                      float[] prof, float[] coef, int[] geo, Box top);

    abstract void velocityAdjointImages(TaskGraph t, String id, float[] sb, float[] vb, float[] b, float[] psib,
                                        float[] prof, float[] coef, int[] geo, Box top);

    abstract void freeSurfaceVelocityAdjoint(TaskGraph t, String id, float[] vb, int[] geo, Box top);

    abstract void freeSurfaceStressAdjoint(TaskGraph t, String id, float[] sb, int[] geo, Box top);

    abstract void rebuildStress(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] coef, int[] geo,
                                float[] ts, Box q);

    abstract void rebuildVelocity(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] coef, int[] geo,
                                  float[] tv, Box q);

    /** The 2-D kernels. */
    private static final class TwoD extends ElasticTasks {
        @Override
        void velocity(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef,
                      int[] geo, Box q) {
            t.task(id, ElasticKernels2D::velocity, v, s, b, psi, prof, coef, geo, q.z0(), q.z1(), q.x0(), q.x1());
        }

        @Override
        void stress(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef,
                    int[] geo, Box q) {
            t.task(id, ElasticKernels2D::stress, v, s, m, psi, prof, coef, geo, q.z0(), q.z1(), q.x0(), q.x1());
        }

        @Override
        void velocityTaped(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] psi, float[] prof,
                           float[] coef, int[] geo, float[] tv, Box q) {
            t.task(id, ElasticAdjointKernels2D::velocityTaped, v, s, b, psi, prof, coef, geo, tv, q.z0(), q.z1(),
                    q.x0(),
                    q.x1());
        }

        @Override
        void stressTaped(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] psi, float[] prof,
                         float[] coef, int[] geo, float[] ts, Box q) {
            t.task(id, ElasticAdjointKernels2D::stressTaped, v, s, m, psi, prof, coef, geo, ts, q.z0(), q.z1(), q.x0(),
                    q.x1());
        }

        @Override
        void freeSurfaceVelocity(TaskGraph t, String id, float[] v, int[] geo, Box top) {
            t.task(id, ElasticKernels2D::freeSurfaceVelocity, v, geo, top.x0(), top.x1());
        }

        @Override
        void freeSurfaceStress(TaskGraph t, String id, float[] s, int[] geo, Box top) {
            t.task(id, ElasticKernels2D::freeSurfaceStress, s, geo, top.x0(), top.x1());
        }

        @Override
        void stressAdjoint(TaskGraph t, String id, float[] vb, float[] sb, float[] m, float[] psib, float[] prof,
                           float[] coef, int[] geo, float[] ts, float[] gm, Box q) {
            t.task(id, ElasticAdjointKernels2D::stressAdjoint, vb, sb, m, psib, prof, coef, geo, ts, gm, q.z0(), q.z1(),
                    q.x0(), q.x1());
        }

        @Override
        void velocityAdjoint(TaskGraph t, String id, float[] sb, float[] vb, float[] b, float[] psib, float[] prof,
                             float[] coef, int[] geo, float[] tv, float[] gb, Box q) {
            t.task(id, ElasticAdjointKernels2D::velocityAdjoint, sb, vb, b, psib, prof, coef, geo, tv, gb, q.z0(),
                    q.z1(),
                    q.x0(), q.x1());
        }

        @Override
        void stressPsiAdjoint(TaskGraph t, String id, float[] sb, float[] m, float[] psib, float[] prof, int[] geo,
                              Box q) {
            t.task(id, ElasticAdjointKernels2D::stressPsiAdjoint, sb, m, psib, prof, geo, q.z0(), q.z1(), q.x0(),
                    q.x1());
        }

        @Override
        void velocityPsiAdjoint(TaskGraph t, String id, float[] vb, float[] b, float[] psib, float[] prof, int[] geo,
                                Box q) {
            t.task(id, ElasticAdjointKernels2D::velocityPsiAdjoint, vb, b, psib, prof, geo, q.z0(), q.z1(), q.x0(),
                    q.x1());
        }

        @Override
        void stressAdjointImages(TaskGraph t, String id, float[] vb, float[] sb, float[] m, float[] psib,
                                 float[] prof, float[] coef, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels2D::stressAdjointImages, vb, sb, m, psib, prof, coef, geo, top.x0(),
                    top.x1());
        }

        @Override
        void velocityAdjointImages(TaskGraph t, String id, float[] sb, float[] vb, float[] b, float[] psib,
                                   float[] prof, float[] coef, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels2D::velocityAdjointImages, sb, vb, b, psib, prof, coef, geo, top.x0(),
                    top.x1());
        }

        @Override
        void freeSurfaceVelocityAdjoint(TaskGraph t, String id, float[] vb, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels2D::freeSurfaceVelocityAdjoint, vb, geo, top.x0(), top.x1());
        }

        @Override
        void freeSurfaceStressAdjoint(TaskGraph t, String id, float[] sb, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels2D::freeSurfaceStressAdjoint, sb, geo, top.x0(), top.x1());
        }

        @Override
        void rebuildStress(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] coef, int[] geo,
                           float[] ts, Box q) {
            t.task(id, ElasticAdjointKernels2D::rebuildStress, v, s, m, coef, geo, ts, q.z0(), q.z1(), q.x0(), q.x1());
        }

        @Override
        void rebuildVelocity(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] coef, int[] geo,
                             float[] tv, Box q) {
            t.task(id, ElasticAdjointKernels2D::rebuildVelocity, v, s, b, coef, geo, tv, q.z0(), q.z1(), q.x0(),
                    q.x1());
        }
    }

    /** The 3-D kernels. */
    private static final class ThreeD extends ElasticTasks {
        @Override
        void velocity(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] psi, float[] prof, float[] coef,
                      int[] geo, Box q) {
            t.task(id, ElasticKernels3D::velocity, v, s, b, psi, prof, coef, geo, q.z0(), q.z1(), q.y0(), q.y1(),
                    q.x0(),
                    q.x1());
        }

        @Override
        void stress(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] psi, float[] prof, float[] coef,
                    int[] geo, Box q) {
            t.task(id, ElasticKernels3D::stress, v, s, m, psi, prof, coef, geo, q.z0(), q.z1(), q.y0(), q.y1(), q.x0(),
                    q.x1());
        }

        @Override
        void velocityTaped(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] psi, float[] prof,
                           float[] coef, int[] geo, float[] tv, Box q) {
            t.task(id, ElasticAdjointKernels3D::velocityTaped, v, s, b, psi, prof, coef, geo, tv, q.z0(), q.z1(),
                    q.y0(),
                    q.y1(), q.x0(), q.x1());
        }

        @Override
        void stressTaped(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] psi, float[] prof,
                         float[] coef, int[] geo, float[] ts, Box q) {
            t.task(id, ElasticAdjointKernels3D::stressTaped, v, s, m, psi, prof, coef, geo, ts, q.z0(), q.z1(), q.y0(),
                    q.y1(), q.x0(), q.x1());
        }

        @Override
        void freeSurfaceVelocity(TaskGraph t, String id, float[] v, int[] geo, Box top) {
            t.task(id, ElasticKernels3D::freeSurfaceVelocity, v, geo, top.y0(), top.y1(), top.x0(), top.x1());
        }

        @Override
        void freeSurfaceStress(TaskGraph t, String id, float[] s, int[] geo, Box top) {
            t.task(id, ElasticKernels3D::freeSurfaceStress, s, geo, top.y0(), top.y1(), top.x0(), top.x1());
        }

        @Override
        void stressAdjoint(TaskGraph t, String id, float[] vb, float[] sb, float[] m, float[] psib, float[] prof,
                           float[] coef, int[] geo, float[] ts, float[] gm, Box q) {
            t.task(id, ElasticAdjointKernels3D::stressAdjoint, vb, sb, m, psib, prof, coef, geo, ts, gm, q.z0(), q.z1(),
                    q.y0(), q.y1(), q.x0(), q.x1());
        }

        @Override
        void velocityAdjoint(TaskGraph t, String id, float[] sb, float[] vb, float[] b, float[] psib, float[] prof,
                             float[] coef, int[] geo, float[] tv, float[] gb, Box q) {
            t.task(id, ElasticAdjointKernels3D::velocityAdjoint, sb, vb, b, psib, prof, coef, geo, tv, gb, q.z0(),
                    q.z1(),
                    q.y0(), q.y1(), q.x0(), q.x1());
        }

        @Override
        void stressPsiAdjoint(TaskGraph t, String id, float[] sb, float[] m, float[] psib, float[] prof, int[] geo,
                              Box q) {
            t.task(id, ElasticAdjointKernels3D::stressPsiAdjoint, sb, m, psib, prof, geo, q.z0(), q.z1(), q.y0(),
                    q.y1(),
                    q.x0(), q.x1());
        }

        @Override
        void velocityPsiAdjoint(TaskGraph t, String id, float[] vb, float[] b, float[] psib, float[] prof, int[] geo,
                                Box q) {
            t.task(id, ElasticAdjointKernels3D::velocityPsiAdjoint, vb, b, psib, prof, geo, q.z0(), q.z1(), q.y0(),
                    q.y1(),
                    q.x0(), q.x1());
        }

        @Override
        void stressAdjointImages(TaskGraph t, String id, float[] vb, float[] sb, float[] m, float[] psib,
                                 float[] prof, float[] coef, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels3D::stressAdjointImages, vb, sb, m, psib, prof, coef, geo, top.y0(),
                    top.y1(),
                    top.x0(), top.x1());
        }

        @Override
        void velocityAdjointImages(TaskGraph t, String id, float[] sb, float[] vb, float[] b, float[] psib,
                                   float[] prof, float[] coef, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels3D::velocityAdjointImages, sb, vb, b, psib, prof, coef, geo, top.y0(),
                    top.y1(),
                    top.x0(), top.x1());
        }

        @Override
        void freeSurfaceVelocityAdjoint(TaskGraph t, String id, float[] vb, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels3D::freeSurfaceVelocityAdjoint, vb, geo, top.y0(), top.y1(), top.x0(),
                    top.x1());
        }

        @Override
        void freeSurfaceStressAdjoint(TaskGraph t, String id, float[] sb, int[] geo, Box top) {
            t.task(id, ElasticAdjointKernels3D::freeSurfaceStressAdjoint, sb, geo, top.y0(), top.y1(), top.x0(),
                    top.x1());
        }

        @Override
        void rebuildStress(TaskGraph t, String id, float[] v, float[] s, float[] m, float[] coef, int[] geo,
                           float[] ts, Box q) {
            t.task(id, ElasticAdjointKernels3D::rebuildStress, v, s, m, coef, geo, ts, q.z0(), q.z1(), q.y0(), q.y1(),
                    q.x0(),
                    q.x1());
        }

        @Override
        void rebuildVelocity(TaskGraph t, String id, float[] v, float[] s, float[] b, float[] coef, int[] geo,
                             float[] tv, Box q) {
            t.task(id, ElasticAdjointKernels3D::rebuildVelocity, v, s, b, coef, geo, tv, q.z0(), q.z1(), q.y0(), q.y1(),
                    q.x0(), q.x1());
        }
    }
}
