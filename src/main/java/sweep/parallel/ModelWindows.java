package sweep.parallel;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import sweep.prop.CellWindow;

/**
 * Builds the model a tile's solver is given when its equation reads cells beyond the tile's cut faces (elastic:
 * parameters at nodes between cells; {@link sweep.equation.WaveEquation#modelMargin}): the window of the global model
 * around the tile ({@link CellWindow}), for every parameter of a parameter-major model, either cut out of the global
 * model or assembled from the tile and its neighbours' cells over MPI. Both give the same values, bit for bit.
 */
final class ModelWindows {
    private static final int TAG = 51;

    private ModelWindows() {
    }

    /** The window {@code w} of each of {@code count} parameters of a global parameter-major model of {@code shape}. */
    static float[] fromGlobal(float[] global, int count, int[] shape, CellWindow w) {
        int nd = shape.length;
        int gy = nd == 3 ? shape[1] : 1;
        int gx = shape[nd - 1];
        long gcells = (long) shape[0] * gy * gx;
        int[] ws = w.shape();
        int[] wo = w.origin();
        int wy = nd == 3 ? ws[1] : 1;
        int wx = ws[nd - 1];
        int oy = nd == 3 ? wo[1] : 0;
        int ox = wo[nd - 1];
        int wcells = w.cells();
        float[] out = new float[Math.multiplyExact(count, wcells)];
        for (int k = 0; k < count; k++) {
            for (int z = 0; z < ws[0]; z++) {
                for (int y = 0; y < wy; y++) {
                    long src = k * gcells + ((long) z * gy + (y + oy)) * gx + ox;
                    System.arraycopy(global, Math.toIntExact(src), out, k * wcells + (z * wy + y) * wx, wx);
                }
            }
        }
        return out;
    }

    /**
     * The window {@code w} of each of {@code count} parameters, from this rank's tile of a parameter-major model
     * ({@code count} tile arrays one after the other) and the cells its neighbours send: first along x (the tile's rows
     * of y), then along y over the window's whole x extent, so that the corners come from the diagonal neighbours
     * through the x-neighbours. A neighbour's tile must be at least as wide as the margin (every tile is: the mesh's
     * tiles are uniform and the caller checks them). Collective over the group's {@code model} communicator.
     */
    static float[] fromTile(float[] tiles, int count, int[] tileShape, int[] tileOffset, CellWindow w,
                            ModelParallelMesh mesh) {
        int nd = tileShape.length;
        int nz = tileShape[0];
        int ty = nd == 3 ? tileShape[1] : 1;
        int tx = tileShape[nd - 1];
        int[] ws = w.shape();
        int[] wo = w.origin();
        int wy = nd == 3 ? ws[1] : 1;
        int wx = ws[nd - 1];
        int ly = nd == 3 ? tileOffset[1] - wo[1] : 0;
        int lx = tileOffset[nd - 1] - wo[nd - 1];
        int hy = wy - ly - ty;
        int hx = wx - lx - tx;
        int tcells = nz * ty * tx;
        int wcells = w.cells();
        float[] out = new float[Math.multiplyExact(count, wcells)];
        for (int k = 0; k < count; k++) {
            for (int z = 0; z < nz; z++) {
                for (int y = 0; y < ty; y++) {
                    System.arraycopy(tiles, k * tcells + (z * ty + y) * tx, out,
                            k * wcells + (z * wy + y + ly) * wx + lx, tx);
                }
            }
        }
        MeshTopology t = mesh.topology();
        Intracomm comm = mesh.model();
        try {
            // x: rows y of the tile; the low neighbour's high margin is my low margin and vice versa
            swap(out, count, wcells, nz, wy, wx, ly, ty, lx, tx, lx, hx, true, t, comm);
            if (nd == 3) {
                swap(out, count, wcells, nz, wy, wx, 0, wx, ly, ty, ly, hy, false, t, comm);
            }
        } catch (MPIException e) {
            throw new IllegalStateException("exchange of the model's margins failed: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * One axis of {@link #fromTile}: along x ({@code alongX}) the strips are columns of the rows [r0, r0+nr), along y
     * rows of the columns [r0, r0+nr) (all of the window's x); {@code a0, na} are the tile's first index and extent
     * along the axis, {@code lo, hi} the margins. Sends high and receives low, then the reverse.
     */
    private static void swap(float[] win, int count, int wcells, int nz, int wy, int wx, int r0, int nr, int a0, int na,
                             int lo, int hi, boolean alongX, MeshTopology t, Intracomm comm) throws MPIException {
        MeshTopology.Axis axis = alongX ? MeshTopology.Axis.X : MeshTopology.Axis.Y;
        int lowRank = t.neighbourRank(axis, MeshTopology.Side.LOW).orElse(-1);
        int highRank = t.neighbourRank(axis, MeshTopology.Side.HIGH).orElse(-1);
        int root = t.groupRootRank();
        int lowNb = lowRank < 0 ? MPI.PROC_NULL : lowRank - root;
        int highNb = highRank < 0 ? MPI.PROC_NULL : highRank - root;
        // to the high neighbour: my last `hi` cells along the axis; from the low one: my low margin (`lo` cells)
        float[] send = strip(win, count, wcells, nz, wy, wx, r0, nr, a0 + na - hi, hi, alongX, null);
        float[] recv = new float[count * nz * nr * lo];
        comm.sendRecv(send, send.length, MPI.FLOAT, highNb, TAG, recv, recv.length, MPI.FLOAT, lowNb, TAG);
        if (lowNb != MPI.PROC_NULL) {
            strip(win, count, wcells, nz, wy, wx, r0, nr, a0 - lo, lo, alongX, recv);
        }
        send = strip(win, count, wcells, nz, wy, wx, r0, nr, a0, lo, alongX, null);
        recv = new float[count * nz * nr * hi];
        comm.sendRecv(send, send.length, MPI.FLOAT, lowNb, TAG + 1, recv, recv.length, MPI.FLOAT, highNb, TAG + 1);
        if (highNb != MPI.PROC_NULL) {
            strip(win, count, wcells, nz, wy, wx, r0, nr, a0 + na, hi, alongX, recv);
        }
    }

    /**
     * Copies the strip [s0, s0+ns) along the axis × [r0, r0+nr) across it × every z of each parameter's window out of
     * {@code win} (into a new array, returned) or, with {@code in}, from {@code in} into {@code win}.
     */
    private static float[] strip(float[] win, int count, int wcells, int nz, int wy, int wx, int r0, int nr, int s0,
                                 int ns, boolean alongX, float[] in) {
        float[] buf = in != null ? in : new float[count * nz * nr * Math.max(ns, 0)];
        int n = 0;
        for (int k = 0; k < count; k++) {
            for (int z = 0; z < nz; z++) {
                for (int r = r0; r < r0 + nr; r++) {
                    for (int s = s0; s < s0 + ns; s++) {
                        int i = k * wcells + (alongX ? (z * wy + r) * wx + s : (z * wy + s) * wx + r);
                        if (in != null) {
                            win[i] = buf[n++];
                        } else {
                            buf[n++] = win[i];
                        }
                    }
                }
            }
        }
        return buf;
    }
}
