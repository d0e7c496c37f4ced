package sweep.acoustictti;

import java.util.List;
import sweep.acoustictti.kernels.AcousticTtiKernels;
import sweep.acousticvti.AcousticVtiVectorKernels;
import sweep.acousticvti.ThomsenStiffness;
import sweep.acousticvti.kernels.AcousticVtiKernels;
import sweep.backend.CpuKernels;
import sweep.core.FdWeights;
import sweep.equation.Step;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * One pseudo-acoustic TTI step on one 2-D grid (a whole model or one tile) for the step skeleton: stage "gradient"
 * (the current level's halos exchanged, with a free surface the odd images of p and q, then
 * {@link AcousticTtiKernels#gradient} writing the fluxes R D̃p and R D̃q), stage "update" (the fluxes' halos exchanged,
 * with a free surface the even images of the vertical fluxes, then {@link AcousticTtiKernels#update} writing level
 * n+1 over level n−1), stage "memory" (the compact Laplacian's CPML ψ from level n) and, with a free surface, stage
 * "surface" (row 0 of the new level set to 0); their exact transposes; the pressure source after the update and the
 * record of p before the step; the chain rule from the coefficients ah = vp²dt²(1 + 2ε), an = vp²dt²√(1 + 2δ),
 * a0 = vp²dt² and cos 2θ, sin 2θ to vp, epsilon, delta and theta.
 */
final class AcousticTtiStep extends Step {
    /** State slots ({@link AcousticTtiEquation#state}): p, q, their previous levels, then the auxiliaries. */
    private static final int P = 0;
    private static final int Q = 1;
    private static final int PP = 2;
    private static final int QP = 3;
    /** The compact Laplacian's ψ and ζ: of p along x, p along z, q along x, q along z. */
    private static final int PSI_PX = 4;
    private static final int PSI_PZ = 6;
    private static final int PSI_QX = 8;
    private static final int PSI_QZ = 10;
    /** The fluxes, then the first pass's ψ and the second pass's ξ, each of p along x, p along z, q along x, z. */
    private static final int FPX = 12;
    private static final int SPX = 16;
    private static final int XPX = 20;
    private static final int SLOTS = 24;
    /** Work slots: eight adjoints of the update's differences (four reused by the first pass's), then gradients. */
    private static final int GH = 8;
    private static final int GN = 9;
    private static final int G0 = 10;
    private static final int GT = 11;

    private final float[] c;
    private final int cells;
    private final int[] near;
    /** The kernels' Vector API twins ({@link AcousticTtiVectorKernels}, the same bits) or the portable ones. */
    private final boolean vector = CpuKernels.useCpuKernels();
    private float[] rc;
    private float[] rs;
    private float[] ah;
    private float[] an;
    private float[] a0;
    private float[] prof;

    AcousticTtiStep(PropSpec spec, Grid grid) {
        super(spec, grid);
        double[] dh = spec.dh();
        double[] d2 = FdWeights.second(spec.order());
        double[] d1 = FdWeights.first(spec.order());
        c = new float[6 * (h + 1)];
        for (int s = 0; s < 3; s += 2) {
            double d = dh[s / 2];
            for (int k = 0; k <= h; k++) {
                c[s * (h + 1) + k] = (float) (d2[k] / (d * d));
                c[(3 + s) * (h + 1) + k] = (float) (d1[k] / d);
            }
        }
        cells = nz * nx;
        near = new int[nz + ny + nx];
    }

    @Override
    protected List<String> stages() {
        return fs ? List.of("gradient", "update", "memory", "surface") : List.of("gradient", "update", "memory");
    }

    /** cos 2θ, sin 2θ and the three stiffness coefficients per cell, the CPML profiles and their near cells. */
    @Override
    protected void setModel() {
        if (ah == null) {
            rc = newArray();
            rs = newArray();
            ah = newArray();
            an = newArray();
            a0 = newArray();
        }
        double dt2 = spec.dt() * spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                ThomsenStiffness.coefficients(model(0, z, 0, x), model(1, z, 0, x), model(2, z, 0, x), dt2, ah, an,
                        a0, i);
                double t = 2 * Math.toRadians(model(3, z, 0, x));
                rc[i] = (float) Math.cos(t);
                rs[i] = (float) Math.sin(t);
            }
        }
        prof = staggeredProfiles();
        AcousticVtiKernels.nearBand(prof, near, h, nz, ny, nx);
    }

    /** After the update. */
    @Override
    protected int sourceStage() {
        return 1;
    }

    @Override
    protected int recordStage() {
        return -1;
    }

    /** p and q take the new levels, the previous slots the current ones; the rest keep their places. */
    @Override
    protected int[] levelRotation() {
        return levelRotation(SLOTS);
    }

    /**
     * The level rotation of a TTI step of {@code slots} state slots (p, q, their previous levels first, in 2-D and
     * 3-D): p and q swap with their previous levels, the rest keep their places.
     */
    static int[] levelRotation(int slots) {
        int[] r = new int[slots];
        for (int i = 0; i < r.length; i++) {
            r[i] = i;
        }
        r[P] = PP;
        r[PP] = P;
        r[Q] = QP;
        r[QP] = Q;
        return r;
    }

    /** The memory stage of axis slot {@code axis} on rows [z0, z1): acoustic-vti's Vector API twin or its kernel. */
    private void memory(float[] u, float[] psi, int axis, int z0, int z1) {
        if (vector) {
            AcousticVtiVectorKernels.memory(u, psi, prof, c, h, base, sz, 0, nz, 1, nx, axis, z0, z1);
        } else {
            AcousticVtiKernels.memory(u, psi, prof, c, h, base, sz, 0, nz, 1, nx, axis, z0, z1);
        }
    }

    @Override
    protected void forward(int stage, float[][] s, float[] tape, int taping) {
        if (stage == 0) {
            exchange(s[P]);
            exchange(s[Q]);
            if (fs) {
                AcousticVtiKernels.imageTop(s[P], h, base, sz, 0, 1, nx);
                AcousticVtiKernels.imageTop(s[Q], h, base, sz, 0, 1, nx);
            }
            if (vector) {
                parallel((z0, z1) -> AcousticTtiVectorKernels.gradient(s[P], s[Q], s[FPX], s[FPX + 1], s[FPX + 2],
                        s[FPX + 3], s[SPX], s[SPX + 1], s[SPX + 2], s[SPX + 3], rc, rs, prof, c, h, base, sz, nz, nx,
                        z0, z1, tape, taping));
            } else {
                parallel((z0, z1) -> AcousticTtiKernels.gradient(s[P], s[Q], s[FPX], s[FPX + 1], s[FPX + 2],
                        s[FPX + 3], s[SPX], s[SPX + 1], s[SPX + 2], s[SPX + 3], rc, rs, prof, c, h, base, sz, nz, nx,
                        z0, z1, tape, taping));
            }
        } else if (stage == 1) {
            for (int f = FPX; f < FPX + 4; f++) {
                exchange(s[f]);
            }
            if (fs) {
                // the compact z stencils read the images too: made again here, so the stage is a map of its state
                AcousticVtiKernels.imageTop(s[P], h, base, sz, 0, 1, nx);
                AcousticVtiKernels.imageTop(s[Q], h, base, sz, 0, 1, nx);
                AcousticTtiKernels.imageTopEven(s[FPX + 1], h, base, sz, 0, 1, nx);
                AcousticTtiKernels.imageTopEven(s[FPX + 3], h, base, sz, 0, 1, nx);
            }
            if (vector) {
                parallel((z0, z1) -> AcousticTtiVectorKernels.update(s[P], s[Q], s[PP], s[QP], s[PSI_PX],
                        s[PSI_PX + 1], s[PSI_PZ], s[PSI_PZ + 1], s[PSI_QX], s[PSI_QX + 1], s[PSI_QZ], s[PSI_QZ + 1],
                        s[FPX], s[FPX + 1], s[FPX + 2], s[FPX + 3], s[XPX], s[XPX + 1], s[XPX + 2], s[XPX + 3], ah, an,
                        a0, prof, near, c, h, base, sz, nz, nx, z0, z1, tape, taping));
            } else {
                parallel((z0, z1) -> AcousticTtiKernels.update(s[P], s[Q], s[PP], s[QP], s[PSI_PX], s[PSI_PX + 1],
                        s[PSI_PZ], s[PSI_PZ + 1], s[PSI_QX], s[PSI_QX + 1], s[PSI_QZ], s[PSI_QZ + 1], s[FPX],
                        s[FPX + 1], s[FPX + 2], s[FPX + 3], s[XPX], s[XPX + 1], s[XPX + 2], s[XPX + 3], ah, an, a0,
                        prof, near, c, h, base, sz, nz, nx, z0, z1, tape, taping));
            }
        } else if (stage == 2) {
            parallel((z0, z1) -> {
                memory(s[P], s[PSI_PX], 2, z0, z1);
                memory(s[P], s[PSI_PZ], 0, z0, z1);
                memory(s[Q], s[PSI_QX], 2, z0, z1);
                memory(s[Q], s[PSI_QZ], 0, z0, z1);
            });
        } else {
            AcousticVtiKernels.zeroTop(s[PP], base, 0, 1, nx);
            AcousticVtiKernels.zeroTop(s[QP], base, 0, 1, nx);
        }
    }

    @Override
    protected void transpose(int stage, float[][] a, float[][] w, float[] tape) {
        if (stage == 1) {
            if (vector) {
                parallel((z0, z1) -> AcousticTtiVectorKernels.updateAdjointPoint(a[P], a[Q], a[PP], a[QP],
                        a[PSI_PX + 1], a[PSI_PZ + 1], a[PSI_QX + 1], a[PSI_QZ + 1], a[XPX], a[XPX + 1], a[XPX + 2],
                        a[XPX + 3], ah, an, a0, prof, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[GH], w[GN],
                        w[G0], base, sz, nz, nx, z0, z1, tape));
            } else {
                parallel((z0, z1) -> AcousticTtiKernels.updateAdjointPoint(a[P], a[Q], a[PP], a[QP], a[PSI_PX + 1],
                        a[PSI_PZ + 1], a[PSI_QX + 1], a[PSI_QZ + 1], a[XPX], a[XPX + 1], a[XPX + 2], a[XPX + 3], ah,
                        an, a0, prof, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[GH], w[GN], w[G0], base, sz,
                        nz, nx, z0, z1, tape));
            }
            exchangeWork(w, 8);
            if (vector) {
                parallel((z0, z1) -> AcousticTtiVectorKernels.updateAdjointGather(a[P], a[Q], a[PSI_PX], a[PSI_PZ],
                        a[PSI_QX], a[PSI_QZ], a[FPX], a[FPX + 1], a[FPX + 2], a[FPX + 3], w[0], w[1], w[2], w[3],
                        w[4], w[5], w[6], w[7], prof, c, h, base, sz, nz, nx, z0, z1));
            } else {
                parallel((z0, z1) -> AcousticTtiKernels.updateAdjointGather(a[P], a[Q], a[PSI_PX], a[PSI_PZ],
                        a[PSI_QX], a[PSI_QZ], a[FPX], a[FPX + 1], a[FPX + 2], a[FPX + 3], w[0], w[1], w[2], w[3],
                        w[4], w[5], w[6], w[7], prof, c, h, base, sz, nz, nx, z0, z1));
            }
            if (fs) {
                AcousticVtiKernels.imageTopAdjoint(a[P], w[1], c, h, base, sz, 0, 1, nx);
                AcousticVtiKernels.imageTopAdjoint(a[Q], w[3], c, h, base, sz, 0, 1, nx);
                AcousticTtiKernels.imageTopFold(a[FPX + 1], w[5], c, h, base, sz, 0, 1, nx, 1.0f);
                AcousticTtiKernels.imageTopFold(a[FPX + 3], w[7], c, h, base, sz, 0, 1, nx, 1.0f);
            }
        } else if (stage == 0) {
            if (vector) {
                parallel((z0, z1) -> AcousticTtiVectorKernels.gradientAdjointPoint(a[FPX], a[FPX + 1], a[FPX + 2],
                        a[FPX + 3], a[SPX], a[SPX + 1], a[SPX + 2], a[SPX + 3], rc, rs, prof, w[0], w[1], w[2], w[3],
                        w[GT], base, sz, nz, nx, z0, z1, tape));
            } else {
                parallel((z0, z1) -> AcousticTtiKernels.gradientAdjointPoint(a[FPX], a[FPX + 1], a[FPX + 2],
                        a[FPX + 3], a[SPX], a[SPX + 1], a[SPX + 2], a[SPX + 3], rc, rs, prof, w[0], w[1], w[2], w[3],
                        w[GT], base, sz, nz, nx, z0, z1, tape));
            }
            exchangeWork(w, 4);
            if (vector) {
                parallel((z0, z1) -> AcousticTtiVectorKernels.gradientAdjointGather(a[P], a[Q], w[0], w[1], w[2],
                        w[3], c, h, base, sz, nx, z0, z1));
            } else {
                parallel((z0, z1) -> AcousticTtiKernels.gradientAdjointGather(a[P], a[Q], w[0], w[1], w[2], w[3], c,
                        h, base, sz, nx, z0, z1));
            }
            if (fs) {
                AcousticTtiKernels.imageTopFold(a[P], w[1], c, h, base, sz, 0, 1, nx, -1.0f);
                AcousticTtiKernels.imageTopFold(a[Q], w[3], c, h, base, sz, 0, 1, nx, -1.0f);
            }
        } else if (stage == 2) {
            int[][] pairs = {{P, PSI_PX, 2}, {P, PSI_PZ, 0}, {Q, PSI_QX, 2}, {Q, PSI_QZ, 0}};
            parallel((z0, z1) -> {
                for (int[] u : pairs) {
                    AcousticVtiKernels.memoryAdjointGather(a[u[0]], a[u[1]], prof, near, c, h, base, sz, 0, nz, 1,
                            nx, u[2], z0, z1);
                }
            });
            parallel((z0, z1) -> {
                for (int[] u : pairs) {
                    AcousticVtiKernels.memoryAdjointDecay(a[u[1]], prof, base, sz, 0, nz, 1, nx, u[2], z0, z1);
                }
            });
        } else {
            AcousticVtiKernels.zeroTop(a[PP], base, 0, 1, nx);
            AcousticVtiKernels.zeroTop(a[QP], base, 0, 1, nx);
        }
    }

    /** The first {@code count} work arrays, which the gathers read across a cut. */
    private void exchangeWork(float[][] w, int count) {
        for (int k = 0; k < count; k++) {
            exchange(w[k]);
        }
    }

    /** The pressure source as the stiffness times an axial stress: pp += an·w, qp += a0·w; w taped beside Zq. */
    @Override
    protected void inject(float[][] s, int cell, float sample, float[] tape, int taping) {
        s[PP][cell] += an[cell] * sample;
        s[QP][cell] += a0[cell] * sample;
        if (taping == 1) {
            int k = cell - base;
            int z = k / sz;
            tape[cells + z * nx + (k - z * sz)] += sample;
        }
    }

    @Override
    protected float injectTranspose(float[][] a, int cell) {
        return an[cell] * a[PP][cell] + a0[cell] * a[QP][cell];
    }

    /** ψ, the fluxes and the first pass's ψ weigh 1/dh (first derivatives of a unit field), ζ and ξ 1/dh². */
    @Override
    protected double scale(int slot) {
        double dh = spec.dh()[0];
        if (slot < PSI_PX) {
            return 1;
        }
        boolean second = slot < FPX ? (slot - PSI_PX) % 2 == 1 : slot >= XPX;
        return second ? 1 / (dh * dh) : 1 / dh;
    }
    /**
     * dJ/dvp = 2vp·dt²·(g0 + (1 + 2ε)·gh + √(1 + 2δ)·gn), dJ/dε = 2vp²dt²·gh, dJ/dδ = vp²dt²·gn/√(1 + 2δ),
     * dJ/dθ = gt·π/180 per cell (θ in degrees), the pads folded onto the edge cells.
     */
    @Override
    protected float[] gradient(float[][] w) {
        int n = tileCells();
        double[] g = new double[4 * n];
        double dt2 = spec.dt() * spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int k = tileCell(z, 0, x);
                if (k < 0) {
                    continue;
                }
                int i = base + z * sz + x;
                ThomsenStiffness.addGradient(model(0, z, 0, x), model(1, z, 0, x), model(2, z, 0, x), dt2, w[G0][i],
                        w[GH][i], w[GN][i], g, k, g, n + k, g, 2 * n + k);
                g[3 * n + k] += w[GT][i] * (Math.PI / 180);
            }
        }
        float[] out = new float[4 * n];
        for (int k = 0; k < out.length; k++) {
            out[k] = (float) g[k];
        }
        return out;
    }
}
