package sweep.acoustic;

import sweep.prop.Storage;
import sweep.prop.spi.GridView;

/**
 * The arrays of one grid's adjoint (gradient) run, allocated once per solver and reused shot after shot: λ and q̄
 * ({@code qb}, {@code qp}, which swap roles every step), the scaled adjoint field {@code w}, dJ/d(v²dt²)
 * {@code grad}, the forward term {@code d}, the adjoint CPML auxiliaries ({@code cor}, {@code pb}, {@code psib},
 * {@code zetab}: the band slabs, {@link GridView#auxLength()} floats, where the grid has a PML) and, for boundary
 * saving, the two forward levels the run rebuilds ({@code ucur}, {@code unxt}). An array the run does not need has length
 * {@code absent}: 0 for the Java backend, 1 for a device backend that cannot pass an empty array to a task.
 */
public final class AcousticAdjointArrays {
    public final float[] qb;
    public final float[] qp;
    public final float[] w;
    public final float[] grad;
    public final float[] d;
    public final float[] cor;
    public final float[] pb;
    public final float[] psib;
    public final float[] zetab;
    public final float[] ucur;
    public final float[] unxt;

    /** Allocates the arrays of an adjoint run on {@code grid} with the tape kind {@code storage}. */
    public AcousticAdjointArrays(GridView grid, Storage storage, int absent) {
        if (absent < 0) {
            throw new IllegalArgumentException("absent arrays need a length >= 0, got " + absent);
        }
        int len = grid.length();
        int pml = grid.hasPml() ? grid.auxLength() : absent;
        int levels = storage == Storage.BOUNDARY_SAVING ? len : absent;
        qb = new float[len];
        qp = new float[len];
        w = new float[len];
        grad = new float[len];
        d = new float[len];
        cor = new float[pml];
        pb = new float[pml];
        psib = new float[pml];
        zetab = new float[pml];
        ucur = new float[levels];
        unxt = new float[levels];
    }

    /** Bytes held. */
    public long bytes() {
        long n = 0;
        for (float[] a : new float[][] {qb, qp, w, grad, d, cor, pb, psib, zetab, ucur, unxt}) {
            n += a.length;
        }
        return 4 * n;
    }
}
