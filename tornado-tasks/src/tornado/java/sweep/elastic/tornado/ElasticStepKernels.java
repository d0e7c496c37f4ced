package sweep.elastic.tornado;

import sweep.acoustic.tornado.AcousticStepKernels;
import sweep.elastic.kernels.ElasticSources;
import sweep.kernels.Layout;
import sweep.kernels.Pack;
import sweep.kernels.Parallel;
import sweep.kernels.Sources;

/**
 * Device-side glue of the TornadoVM backend's elastic stepper: the portable elastic source and receiver kernels at the
 * device's step counter {@code step[0]} (TornadoVM inlines them, so the arithmetic is theirs), and copies the Java
 * backend does with loops of its own (the boundary-saving ring of every component, the adjoint values at the source
 * nodes, the reversed subtraction of explosive sources). Nothing here computes: values are copied or added exactly as
 * the Java backend does, in the same order.
 */
public final class ElasticStepKernels {
    private ElasticStepKernels() {
    }

    /** {@link ElasticSources#sample} at step {@code step[0]}. */
    public static void sampleAt(float[] v, float[] s, int[] idx, int[] kind, float[] rec, int nval, int ndim, int len,
                                int[] step) {
        ElasticSources.sample(v, s, idx, kind, rec, nval, ndim, len, step[0]);
    }

    /** {@link ElasticSources#sampleAdjoint} at step {@code step[0]}. */
    public static void sampleAdjointAt(float[] vb, float[] sb, int[] idx, int[] kind, float[] res, int nval, int ndim,
                                       int len, int[] step) {
        ElasticSources.sampleAdjoint(vb, sb, idx, kind, res, nval, ndim, len, step[0]);
    }

    /**
     * {@code out[step[0]·count + e] = f[idx[e]]}: the values at the injection entries at this step (the host forms
     * dJ/dwavelet from them in double, as the Java backend does).
     */
    public static void gatherAt(float[] f, int[] idx, float[] out, int count, int[] step) {
        int base = step[0] * count;
        for (@Parallel int e = 0; e < count; e++) {
            out[base + e] = f[idx[e]];
        }
    }

    /**
     * Subtracts {@code samples[e·nt + step[0]]} from {@code f[idx[e]]} for e = count−1 down to 0: undoes
     * {@link Sources#add} (the explosive sources) in reverse order, as the Java backend's rebuild does.
     */
    public static void subtractAt(float[] f, int[] idx, float[] samples, int count, int nt, int[] step) {
        int n = step[0];
        for (int e = count - 1; e >= 0; e--) {
            int i = idx[e];
            f[i] = f[i] - samples[e * nt + n];
        }
    }

    /**
     * Boundary saving: copies box [z0,z1)×[y0,y1)×[x0,x1) of each of the {@code ncomp} components of {@code f}
     * (packed, {@code Layout.LEN} floats each) into slot {@code step[0]} of {@code store} (slots of {@code slot}
     * floats): component c's cells at {@code off + c·ringCells}, in {@link Pack#pack} order. With {@code off} the
     * box's place in the ring this is the layout of the Java backend's ring tape (component after component, box after
     * box within each).
     */
    public static void packRing(float[] f, float[] store, int off, int slot, int ringCells, int ncomp, int[] geo,
                                int z0, int z1, int y0, int y1, int x0, int x1, int[] step) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int o0 = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nyb = y1 - y0;
        int nxb = x1 - x0;
        int base = step[0] * slot + off;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int j = base + ((z - z0) * nyb + (y - y0)) * nxb + (x - x0);
                    int i = o0 + z * sz + y * sy + x;
                    for (int c = 0; c < ncomp; c++) {
                        store[j + c * ringCells] = f[c * len + i];
                    }
                }
            }
        }
    }

    /**
     * The inverse of {@link #packRing} from slot {@code step[0] − 1} (the state after the previous step), written so
     * that {@code f} is also read (see {@link AcousticStepKernels#unpackHalo}: the step counter is never negative, so
     * the stored value is always taken).
     */
    public static void unpackRingBefore(float[] f, float[] store, int off, int slot, int ringCells, int ncomp,
                                        int[] geo, int z0, int z1, int y0, int y1, int x0, int x1, int[] step) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int o0 = geo[Layout.OFF0];
        int len = geo[Layout.LEN];
        int nyb = y1 - y0;
        int nxb = x1 - x0;
        int n = step[0];
        int base = (n - 1) * slot + off;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    int j = base + ((z - z0) * nyb + (y - y0)) * nxb + (x - x0);
                    int i = o0 + z * sz + y * sy + x;
                    for (int c = 0; c < ncomp; c++) {
                        float val = store[j + c * ringCells];
                        f[c * len + i] = n >= 0 ? val : f[c * len + i];
                    }
                }
            }
        }
    }
}
