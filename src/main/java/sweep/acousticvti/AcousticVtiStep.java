package sweep.acousticvti;

import java.util.List;
import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.backend.CpuKernels;
import sweep.core.FdWeights;
import sweep.equation.Step;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * One pseudo-acoustic VTI step on one grid (a whole model or one tile) for the step skeleton: stage "update" (the
 * current level's halos exchanged, the free surface's images of q, then {@link AcousticVtiKernels#update} writing
 * level n+1 over level n−1), stage "memory" (the CPML ψ from level n) and, with a free surface, stage "surface" (row 0
 * of the new level set to 0); their exact transposes; the pressure source after the update (sample n into level
 * n+1) and the record of p before it (sample n is p at n·dt); the chain rule from the coefficients
 * ah = vp²dt²(1 + 2ε), an = vp²dt²√(1 + 2δ), a0 = vp²dt² to vp, epsilon and delta.
 */
final class AcousticVtiStep extends Step {
    /** State slots ({@link AcousticVtiEquation#state}): p, q, their previous levels, then ψ, ζ per axis x, (y,) z. */
    private static final int P = 0;
    private static final int Q = 1;
    private static final int PP = 2;
    private static final int QP = 3;
    private static final int PSI_X = 4;
    private static final int ZETA_X = 5;

    private final int three;
    /** ψ and ζ of y (3-D) and z. */
    private final int psiY;
    private final int zetaY;
    private final int psiZ;
    private final int zetaZ;
    /** Work slots: W̄ of x, (y,) z, then the gradients of ah, an, a0. */
    private final int wy;
    private final int wz;
    private final int gh;
    private final int gn;
    private final int g0;
    private final float[] c;
    private final int cells;
    private final int[] near;
    /** The forward kernels' Vector API twins ({@link AcousticVtiVectorKernels}, the same bits) or the portable ones. */
    private final boolean vector = CpuKernels.useCpuKernels();
    private float[] ah;
    private float[] an;
    private float[] a0;
    private float[] prof;

    AcousticVtiStep(PropSpec spec, Grid grid) {
        super(spec, grid);
        three = grid.ndim() == 3 ? 1 : 0;
        psiY = three == 1 ? 6 : PSI_X;
        zetaY = three == 1 ? 7 : ZETA_X;
        psiZ = three == 1 ? 8 : 6;
        zetaZ = psiZ + 1;
        wy = three == 1 ? 1 : 0;
        wz = wy + 1;
        gh = wz + 1;
        gn = gh + 1;
        g0 = gn + 1;
        double[] dh = spec.dh();
        double[] d2 = FdWeights.second(spec.order());
        double[] d1 = FdWeights.first(spec.order());
        c = new float[6 * (h + 1)];
        for (int s = 0; s < 3; s++) {
            if (s == 1 && three == 0) {
                continue;
            }
            double d = dh[grid.ndim() == 2 ? s / 2 : s];
            for (int k = 0; k <= h; k++) {
                c[s * (h + 1) + k] = (float) (d2[k] / (d * d));
                c[(3 + s) * (h + 1) + k] = (float) (d1[k] / d);
            }
        }
        cells = nz * ny * nx;
        near = new int[nz + ny + nx];
    }

    @Override
    protected List<String> stages() {
        return fs ? List.of("update", "memory", "surface") : List.of("update", "memory");
    }

    /** The three coefficients per cell, the CPML profiles and the cells within a stencil of a band. */
    @Override
    protected void setModel() {
        if (ah == null) {
            ah = newArray();
            an = newArray();
            a0 = newArray();
        }
        double dt2 = spec.dt() * spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    ThomsenStiffness.coefficients(model(0, z, y, x), model(1, z, y, x), model(2, z, y, x), dt2, ah,
                            an, a0, base + z * sz + y * sy + x);
                }
            }
        }
        prof = staggeredProfiles();
        AcousticVtiKernels.nearBand(prof, near, h, nz, ny, nx);
    }

    @Override
    protected int recordStage() {
        return -1;
    }

    /** p and q take the new levels, the previous slots the current ones; ψ and ζ keep their places. */
    @Override
    protected int[] levelRotation() {
        int[] r = new int[PSI_X + 4 + 2 * three];
        for (int i = 0; i < r.length; i++) {
            r[i] = i;
        }
        r[P] = PP;
        r[PP] = P;
        r[Q] = QP;
        r[QP] = Q;
        return r;
    }

    /** The memory stage of axis slot {@code axis} on rows [z0, z1): the Vector API twin or the portable kernel. */
    private void memory(float[] u, float[] psi, int axis, int z0, int z1) {
        if (vector) {
            AcousticVtiVectorKernels.memory(u, psi, prof, c, h, base, sz, sy, nz, ny, nx, axis, z0, z1);
        } else {
            AcousticVtiKernels.memory(u, psi, prof, c, h, base, sz, sy, nz, ny, nx, axis, z0, z1);
        }
    }

    @Override
    protected void forward(int stage, float[][] s, float[] tape, int taping) {
        if (stage == 0) {
            exchange(s[P]);
            exchange(s[Q]);
            if (fs) {
                AcousticVtiKernels.imageTop(s[Q], h, base, sz, sy, ny, nx);
            }
            if (vector) {
                parallel((z0, z1) -> AcousticVtiVectorKernels.update(s[P], s[Q], s[PP], s[QP], s[PSI_X], s[ZETA_X],
                        s[psiY], s[zetaY], s[psiZ], s[zetaZ], ah, an, a0, prof, near, c, h, base, sz, sy, nz, ny, nx,
                        three, z0, z1, tape, taping));
            } else {
                parallel((z0, z1) -> AcousticVtiKernels.update(s[P], s[Q], s[PP], s[QP], s[PSI_X], s[ZETA_X],
                        s[psiY], s[zetaY], s[psiZ], s[zetaZ], ah, an, a0, prof, near, c, h, base, sz, sy, nz, ny, nx,
                        three, z0, z1, tape, taping));
            }
        } else if (stage == 1) {
            parallel((z0, z1) -> {
                memory(s[P], s[PSI_X], 2, z0, z1);
                if (three == 1) {
                    memory(s[P], s[psiY], 1, z0, z1);
                }
                memory(s[Q], s[psiZ], 0, z0, z1);
            });
        } else {
            AcousticVtiKernels.zeroTop(s[PP], base, sy, ny, nx);
            AcousticVtiKernels.zeroTop(s[QP], base, sy, ny, nx);
        }
    }

    @Override
    protected void transpose(int stage, float[][] a, float[][] w, float[] tape) {
        if (stage == 0) {
            if (vector) {
                parallel((z0, z1) -> AcousticVtiVectorKernels.updateAdjointPoint(a[PP], a[QP], a[ZETA_X], a[zetaY],
                        a[zetaZ], ah, an, a0, prof, w[0], w[wy], w[wz], w[gh], w[gn], w[g0], base, sz, sy, nz, ny, nx,
                        three, z0, z1, tape));
            } else {
                parallel((z0, z1) -> AcousticVtiKernels.updateAdjointPoint(a[PP], a[QP], a[ZETA_X], a[zetaY],
                        a[zetaZ], ah, an, a0, prof, w[0], w[wy], w[wz], w[gh], w[gn], w[g0], base, sz, sy, nz, ny, nx,
                        three, z0, z1, tape));
            }
            exchange(w[0]);
            if (three == 1) {
                exchange(w[wy]);
            }
            if (vector) {
                parallel((z0, z1) -> AcousticVtiVectorKernels.updateAdjointGather(a[P], a[Q], a[PP], a[QP], a[PSI_X],
                        a[psiY], a[psiZ], w[0], w[wy], w[wz], prof, c, h, base, sz, sy, nz, ny, nx, three, z0, z1));
            } else {
                parallel((z0, z1) -> AcousticVtiKernels.updateAdjointGather(a[P], a[Q], a[PP], a[QP], a[PSI_X],
                        a[psiY], a[psiZ], w[0], w[wy], w[wz], prof, c, h, base, sz, sy, nz, ny, nx, three, z0, z1));
            }
            if (fs) {
                AcousticVtiKernels.imageTopAdjoint(a[Q], w[wz], c, h, base, sz, sy, ny, nx);
            }
        } else if (stage == 1) {
            parallel((z0, z1) -> {
                AcousticVtiKernels.memoryAdjointGather(a[P], a[PSI_X], prof, near, c, h, base, sz, sy, nz, ny, nx,
                        2, z0, z1);
                if (three == 1) {
                    AcousticVtiKernels.memoryAdjointGather(a[P], a[psiY], prof, near, c, h, base, sz, sy, nz, ny, nx,
                            1, z0, z1);
                }
                AcousticVtiKernels.memoryAdjointGather(a[Q], a[psiZ], prof, near, c, h, base, sz, sy, nz, ny, nx, 0,
                        z0, z1);
            });
            parallel((z0, z1) -> {
                AcousticVtiKernels.memoryAdjointDecay(a[PSI_X], prof, base, sz, sy, nz, ny, nx, 2, z0, z1);
                if (three == 1) {
                    AcousticVtiKernels.memoryAdjointDecay(a[psiY], prof, base, sz, sy, nz, ny, nx, 1, z0, z1);
                }
                AcousticVtiKernels.memoryAdjointDecay(a[psiZ], prof, base, sz, sy, nz, ny, nx, 0, z0, z1);
            });
        } else {
            AcousticVtiKernels.zeroTop(a[PP], base, sy, ny, nx);
            AcousticVtiKernels.zeroTop(a[QP], base, sy, ny, nx);
        }
    }

    /** The pressure source as the stiffness times a vertical stress: pp += an·w, qp += a0·w; w taped beside Lz. */
    @Override
    protected void inject(float[][] s, int cell, float sample, float[] tape, int taping) {
        s[PP][cell] += an[cell] * sample;
        s[QP][cell] += a0[cell] * sample;
        if (taping == 1) {
            tape[cells + tapeCell(cell)] += sample;
        }
    }

    private int tapeCell(int cell) {
        int k = cell - base;
        int z = k / sz;
        int r = k - z * sz;
        int y = three == 1 ? r / sy : 0;
        int x = r - y * sy;
        return (z * ny + y) * nx + x;
    }

    @Override
    protected float injectTranspose(float[][] a, int cell) {
        return an[cell] * a[PP][cell] + a0[cell] * a[QP][cell];
    }

    /** ψ weighs 1/dh, ζ 1/dh² (the first and second derivatives of a unit field). */
    @Override
    protected double scale(int slot) {
        double dh = spec.dh()[0];
        if (slot < PSI_X) {
            return 1;
        }
        return (slot - PSI_X) % 2 == 0 ? 1 / dh : 1 / (dh * dh);
    }

    /**
     * dJ/dvp = 2vp·dt²·(g0 + (1 + 2ε)·gh + √(1 + 2δ)·gn), dJ/dε = 2vp²dt²·gh, dJ/dδ = vp²dt²·gn/√(1 + 2δ) per cell,
     * the pads folded onto the edge cells.
     */
    @Override
    protected float[] gradient(float[][] w) {
        int n = tileCells();
        double[] gv = new double[n];
        double[] ge = new double[n];
        double[] gd = new double[n];
        double dt2 = spec.dt() * spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    int k = tileCell(z, y, x);
                    if (k < 0) {
                        continue;
                    }
                    int i = base + z * sz + y * sy + x;
                    ThomsenStiffness.addGradient(model(0, z, y, x), model(1, z, y, x), model(2, z, y, x), dt2,
                            w[g0][i], w[gh][i], w[gn][i], gv, k, ge, k, gd, k);
                }
            }
        }
        float[] out = new float[3 * n];
        for (int k = 0; k < n; k++) {
            out[k] = (float) gv[k];
            out[n + k] = (float) ge[k];
            out[2 * n + k] = (float) gd[k];
        }
        return out;
    }
}
