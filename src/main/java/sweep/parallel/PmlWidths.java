package sweep.parallel;

import sweep.parallel.MeshTopology.Axis;
import sweep.parallel.MeshTopology.Side;

/**
 * Per-side absorbing-layer widths for one rank of a decomposed run: the full width on true grid edges, none on
 * faces that meet a neighbouring tile, and none on the top face when the image method models a free surface.
 */
public final class PmlWidths {

    private PmlWidths() {
    }

    /**
     * Widths in SWEEP's {@code [z_low, z_high, (y_low, y_high,) x_low, x_high]} order, length {@code 2*ndim}.
     * z is never split, so both z sides get {@code abcn} (z_low 0 with the image method). A 1-tile axis is on
     * both edges and gets {@code abcn} on both sides, like a single-rank run.
     *
     * @param mesh              the rank's topology (only {@code isEdge} is consulted)
     * @param abcn              the global PML width, {@code >= 0}
     * @param ndim              2 or 3
     * @param imageMethodActive true when the image method handles a free surface at z = 0
     */
    public static int[] forRank(MeshTopology mesh, int abcn, int ndim, boolean imageMethodActive) {
        if (ndim != 2 && ndim != 3) {
            throw new IllegalArgumentException("ndim=" + ndim + " must be 2 or 3");
        }
        if (abcn < 0) {
            throw new IllegalArgumentException("abcn=" + abcn + " must be >= 0");
        }
        if (ndim == 2 && mesh.py() != 1) {
            throw new IllegalArgumentException("ndim=2 needs py=1, got py=" + mesh.py()
                    + ": split 2-D models along x only");
        }
        int[] w = new int[2 * ndim];
        w[0] = imageMethodActive ? 0 : abcn;
        w[1] = abcn;
        int i = 2;
        for (Axis axis : ndim == 3 ? new Axis[] {Axis.Y, Axis.X} : new Axis[] {Axis.X}) {
            w[i++] = mesh.isEdge(axis, Side.LOW) ? abcn : 0;
            w[i++] = mesh.isEdge(axis, Side.HIGH) ? abcn : 0;
        }
        return w;
    }
}
