package sweep.acoustictti;

import java.util.List;
import sweep.acoustictti.kernels.AcousticTti3dKernels;
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
 * One pseudo-acoustic TTI step on one 3-D grid (a whole model or one tile) for the step skeleton, the 3-D twin of
 * {@link AcousticTtiStep}: stage "gradient" ({@link AcousticTti3dKernels#gradient}, the fluxes R D̃p and R D̃q with
 * R = 2·n nᵀ − I of the axis n of tilt θ and azimuth φ), stage "update" ({@link AcousticTti3dKernels#update}), stage
 * "memory" (the compact Laplacian's CPML ψ along x, y and z) and, with a free surface, stage "surface"; their exact
 * transposes; the chain rule to vp, epsilon, delta, theta and phi.
 */
final class AcousticTti3dStep extends Step {
    /** State slots ({@link AcousticTtiEquation#state}): p, q, their previous levels, then the auxiliaries. */
    private static final int P = 0;
    private static final int Q = 1;
    private static final int PP = 2;
    private static final int QP = 3;
    /** The compact Laplacian's ψ and ζ: of p along x, y, z (from slot 4), then of q (from slot 10). */
    private static final int PSI_P = 4;
    private static final int PSI_Q = 10;
    /** The fluxes, the first pass's ψ and the second pass's ξ, each of p along x, y, z, then of q. */
    private static final int F = 16;
    private static final int S = 22;
    private static final int XI = 28;
    private static final int SLOTS = 34;
    /** Work slots: twelve adjoints of the update's differences (six reused by the first pass's), then gradients. */
    private static final int GH = 12;
    private static final int GN = 13;
    private static final int G0 = 14;
    private static final int GT = 15;
    private static final int GF = 16;

    private final float[] c;
    private final int cells;
    private final int[] near;
    /**
     * The Vector API twins of the flux and update stages and of their transposes ({@link AcousticTti3dVectorKernels})
     * and acoustic-vti's of the memory stage (the same bits), or the portable kernels.
     */
    private final boolean vector = CpuKernels.useCpuKernels();
    /** The symmetry axis n and ∂n/∂θ per cell, then the stiffness coefficients. */
    private float[] ux;
    private float[] uy;
    private float[] uz;
    private float[] tx;
    private float[] ty;
    private float[] tz;
    private float[] ah;
    private float[] an;
    private float[] a0;
    private float[] prof;

    AcousticTti3dStep(PropSpec spec, Grid grid) {
        super(spec, grid);
        double[] dh = spec.dh();
        double[] d2 = FdWeights.second(spec.order());
        double[] d1 = FdWeights.first(spec.order());
        c = new float[6 * (h + 1)];
        for (int s = 0; s < 3; s++) {
            for (int k = 0; k <= h; k++) {
                c[s * (h + 1) + k] = (float) (d2[k] / (dh[s] * dh[s]));
                c[(3 + s) * (h + 1) + k] = (float) (d1[k] / dh[s]);
            }
        }
        cells = nz * ny * nx;
        near = new int[nz + ny + nx];
    }

    @Override
    protected List<String> stages() {
        return fs ? List.of("gradient", "update", "memory", "surface") : List.of("gradient", "update", "memory");
    }

    /** The axis n, ∂n/∂θ and the three stiffness coefficients per cell, the CPML profiles and their near cells. */
    @Override
    protected void setModel() {
        if (ah == null) {
            ux = newArray();
            uy = newArray();
            uz = newArray();
            tx = newArray();
            ty = newArray();
            tz = newArray();
            ah = newArray();
            an = newArray();
            a0 = newArray();
        }
        double dt2 = spec.dt() * spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    int i = base + z * sz + y * sy + x;
                    ThomsenStiffness.coefficients(model(0, z, y, x), model(1, z, y, x), model(2, z, y, x), dt2, ah,
                            an, a0, i);
                    double t = Math.toRadians(model(3, z, y, x));
                    double f = Math.toRadians(model(4, z, y, x));
                    double st = Math.sin(t);
                    double ct = Math.cos(t);
                    ux[i] = (float) (st * Math.cos(f));
                    uy[i] = (float) (st * Math.sin(f));
                    uz[i] = (float) ct;
                    tx[i] = (float) (ct * Math.cos(f));
                    ty[i] = (float) (ct * Math.sin(f));
                    tz[i] = (float) -st;
                }
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
        return AcousticTtiStep.levelRotation(SLOTS);
    }

    /** The memory stage of axis slot {@code axis} on rows [z0, z1): acoustic-vti's Vector API twin or its kernel. */
    private void memory(float[] u, float[] psi, int axis, int z0, int z1) {
        if (vector) {
            AcousticVtiVectorKernels.memory(u, psi, prof, c, h, base, sz, sy, nz, ny, nx, axis, z0, z1);
        } else {
            AcousticVtiKernels.memory(u, psi, prof, c, h, base, sz, sy, nz, ny, nx, axis, z0, z1);
        }
    }

    /** The free surface's odd images of p and q above row 0. */
    private void imageFields(float[][] s) {
        AcousticVtiKernels.imageTop(s[P], h, base, sz, sy, ny, nx);
        AcousticVtiKernels.imageTop(s[Q], h, base, sz, sy, ny, nx);
    }

    @Override
    protected void forward(int stage, float[][] s, float[] tape, int taping) {
        if (stage == 0) {
            exchange(s[P]);
            exchange(s[Q]);
            if (fs) {
                imageFields(s);
            }
            if (vector) {
                parallel((z0, z1) -> AcousticTti3dVectorKernels.gradient(s[P], s[Q], s[F], s[F + 1], s[F + 2],
                        s[F + 3], s[F + 4], s[F + 5], s[S], s[S + 1], s[S + 2], s[S + 3], s[S + 4], s[S + 5], ux, uy,
                        uz, prof, c, h, base, sz, sy, nz, ny, nx, z0, z1, tape, taping));
            } else {
                parallel((z0, z1) -> AcousticTti3dKernels.gradient(s[P], s[Q], s[F], s[F + 1], s[F + 2], s[F + 3],
                        s[F + 4], s[F + 5], s[S], s[S + 1], s[S + 2], s[S + 3], s[S + 4], s[S + 5], ux, uy, uz, prof,
                        c, h, base, sz, sy, nz, ny, nx, z0, z1, tape, taping));
            }
        } else if (stage == 1) {
            for (int f = F; f < F + 6; f++) {
                exchange(s[f]);
            }
            if (fs) {
                // the compact z stencils read the images too: made again here, so the stage is a map of its state
                imageFields(s);
                AcousticTtiKernels.imageTopEven(s[F + 2], h, base, sz, sy, ny, nx);
                AcousticTtiKernels.imageTopEven(s[F + 5], h, base, sz, sy, ny, nx);
            }
            if (vector) {
                parallel((z0, z1) -> AcousticTti3dVectorKernels.update(s[P], s[Q], s[PP], s[QP], s[PSI_P],
                        s[PSI_P + 1], s[PSI_P + 2], s[PSI_P + 3], s[PSI_P + 4], s[PSI_P + 5], s[PSI_Q], s[PSI_Q + 1],
                        s[PSI_Q + 2], s[PSI_Q + 3], s[PSI_Q + 4], s[PSI_Q + 5], s[F], s[F + 1], s[F + 2], s[F + 3],
                        s[F + 4], s[F + 5], s[XI], s[XI + 1], s[XI + 2], s[XI + 3], s[XI + 4], s[XI + 5], ah, an, a0,
                        prof, near, c, h, base, sz, sy, nz, ny, nx, z0, z1, tape, taping));
            } else {
                parallel((z0, z1) -> AcousticTti3dKernels.update(s[P], s[Q], s[PP], s[QP], s[PSI_P], s[PSI_P + 1],
                        s[PSI_P + 2], s[PSI_P + 3], s[PSI_P + 4], s[PSI_P + 5], s[PSI_Q], s[PSI_Q + 1], s[PSI_Q + 2],
                        s[PSI_Q + 3], s[PSI_Q + 4], s[PSI_Q + 5], s[F], s[F + 1], s[F + 2], s[F + 3], s[F + 4],
                        s[F + 5], s[XI], s[XI + 1], s[XI + 2], s[XI + 3], s[XI + 4], s[XI + 5], ah, an, a0, prof, near,
                        c, h, base, sz, sy, nz, ny, nx, z0, z1, tape, taping));
            }
        } else if (stage == 2) {
            parallel((z0, z1) -> {
                for (int a = 0; a < 3; a++) {
                    memory(s[P], s[PSI_P + 2 * a], 2 - a, z0, z1);
                    memory(s[Q], s[PSI_Q + 2 * a], 2 - a, z0, z1);
                }
            });
        } else {
            AcousticVtiKernels.zeroTop(s[PP], base, sy, ny, nx);
            AcousticVtiKernels.zeroTop(s[QP], base, sy, ny, nx);
        }
    }

    @Override
    protected void transpose(int stage, float[][] a, float[][] w, float[] tape) {
        if (stage == 1) {
            if (vector) {
                parallel((z0, z1) -> AcousticTti3dVectorKernels.updateAdjointPoint(a[P], a[Q], a[PP], a[QP],
                        a[PSI_P + 1], a[PSI_P + 3], a[PSI_P + 5], a[PSI_Q + 1], a[PSI_Q + 3], a[PSI_Q + 5], a[XI],
                        a[XI + 1], a[XI + 2], a[XI + 3], a[XI + 4], a[XI + 5], ah, an, a0, prof, w[0], w[1], w[2],
                        w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[GH], w[GN], w[G0], base, sz, sy, nz,
                        ny, nx, z0, z1, tape));
            } else {
                parallel((z0, z1) -> AcousticTti3dKernels.updateAdjointPoint(a[P], a[Q], a[PP], a[QP], a[PSI_P + 1],
                        a[PSI_P + 3], a[PSI_P + 5], a[PSI_Q + 1], a[PSI_Q + 3], a[PSI_Q + 5], a[XI], a[XI + 1],
                        a[XI + 2], a[XI + 3], a[XI + 4], a[XI + 5], ah, an, a0, prof, w[0], w[1], w[2], w[3], w[4],
                        w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[GH], w[GN], w[G0], base, sz, sy, nz, ny, nx, z0,
                        z1, tape));
            }
            exchangeWork(w, 12);
            if (vector) {
                parallel((z0, z1) -> AcousticTti3dVectorKernels.updateAdjointGather(a[P], a[Q], a[PSI_P],
                        a[PSI_P + 2], a[PSI_P + 4], a[PSI_Q], a[PSI_Q + 2], a[PSI_Q + 4], a[F], a[F + 1], a[F + 2],
                        a[F + 3], a[F + 4], a[F + 5], w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9],
                        w[10], w[11], prof, c, h, base, sz, sy, nz, ny, nx, z0, z1));
            } else {
                parallel((z0, z1) -> AcousticTti3dKernels.updateAdjointGather(a[P], a[Q], a[PSI_P], a[PSI_P + 2],
                        a[PSI_P + 4], a[PSI_Q], a[PSI_Q + 2], a[PSI_Q + 4], a[F], a[F + 1], a[F + 2], a[F + 3],
                        a[F + 4], a[F + 5], w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11],
                        prof, c, h, base, sz, sy, nz, ny, nx, z0, z1));
            }
            if (fs) {
                AcousticVtiKernels.imageTopAdjoint(a[P], w[2], c, h, base, sz, sy, ny, nx);
                AcousticVtiKernels.imageTopAdjoint(a[Q], w[5], c, h, base, sz, sy, ny, nx);
                AcousticTtiKernels.imageTopFold(a[F + 2], w[8], c, h, base, sz, sy, ny, nx, 1.0f);
                AcousticTtiKernels.imageTopFold(a[F + 5], w[11], c, h, base, sz, sy, ny, nx, 1.0f);
            }
        } else if (stage == 0) {
            if (vector) {
                parallel((z0, z1) -> AcousticTti3dVectorKernels.gradientAdjointPoint(a[F], a[F + 1], a[F + 2],
                        a[F + 3], a[F + 4], a[F + 5], a[S], a[S + 1], a[S + 2], a[S + 3], a[S + 4], a[S + 5], ux, uy,
                        uz, tx, ty, tz, prof, w[0], w[1], w[2], w[3], w[4], w[5], w[GT], w[GF], base, sz, sy, nz, ny,
                        nx, z0, z1, tape));
            } else {
                parallel((z0, z1) -> AcousticTti3dKernels.gradientAdjointPoint(a[F], a[F + 1], a[F + 2], a[F + 3],
                        a[F + 4], a[F + 5], a[S], a[S + 1], a[S + 2], a[S + 3], a[S + 4], a[S + 5], ux, uy, uz, tx, ty,
                        tz, prof, w[0], w[1], w[2], w[3], w[4], w[5], w[GT], w[GF], base, sz, sy, nz, ny, nx, z0, z1,
                        tape));
            }
            exchangeWork(w, 6);
            if (vector) {
                parallel((z0, z1) -> AcousticTti3dVectorKernels.gradientAdjointGather(a[P], a[Q], w[0], w[1], w[2],
                        w[3], w[4], w[5], c, h, base, sz, sy, ny, nx, z0, z1));
            } else {
                parallel((z0, z1) -> AcousticTti3dKernels.gradientAdjointGather(a[P], a[Q], w[0], w[1], w[2], w[3],
                        w[4], w[5], c, h, base, sz, sy, ny, nx, z0, z1));
            }
            if (fs) {
                AcousticTtiKernels.imageTopFold(a[P], w[2], c, h, base, sz, sy, ny, nx, -1.0f);
                AcousticTtiKernels.imageTopFold(a[Q], w[5], c, h, base, sz, sy, ny, nx, -1.0f);
            }
        } else if (stage == 2) {
            parallel((z0, z1) -> {
                for (int k = 0; k < 3; k++) {
                    AcousticVtiKernels.memoryAdjointGather(a[P], a[PSI_P + 2 * k], prof, near, c, h, base, sz, sy,
                            nz, ny, nx, 2 - k, z0, z1);
                    AcousticVtiKernels.memoryAdjointGather(a[Q], a[PSI_Q + 2 * k], prof, near, c, h, base, sz, sy,
                            nz, ny, nx, 2 - k, z0, z1);
                }
            });
            parallel((z0, z1) -> {
                for (int k = 0; k < 3; k++) {
                    AcousticVtiKernels.memoryAdjointDecay(a[PSI_P + 2 * k], prof, base, sz, sy, nz, ny, nx, 2 - k, z0,
                            z1);
                    AcousticVtiKernels.memoryAdjointDecay(a[PSI_Q + 2 * k], prof, base, sz, sy, nz, ny, nx, 2 - k, z0,
                            z1);
                }
            });
        } else {
            AcousticVtiKernels.zeroTop(a[PP], base, sy, ny, nx);
            AcousticVtiKernels.zeroTop(a[QP], base, sy, ny, nx);
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
            int y = (k - z * sz) / sy;
            int x = k - z * sz - y * sy;
            tape[cells + (z * ny + y) * nx + x] += sample;
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
        if (slot < PSI_P) {
            return 1;
        }
        boolean second = slot < F ? (slot - PSI_P) % 2 == 1 : slot >= XI;
        return second ? 1 / (dh * dh) : 1 / dh;
    }

    /**
     * dJ/dvp, dJ/dε, dJ/dδ as in 2-D ({@link ThomsenStiffness#addGradient}), dJ/dθ = gt·π/180 and dJ/dφ = gf·π/180
     * per cell (angles in degrees), the pads folded onto the edge cells.
     */
    @Override
    protected float[] gradient(float[][] w) {
        int n = tileCells();
        double[] g = new double[5 * n];
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
                            w[G0][i], w[GH][i], w[GN][i], g, k, g, n + k, g, 2 * n + k);
                    g[3 * n + k] += w[GT][i] * (Math.PI / 180);
                    g[4 * n + k] += w[GF][i] * (Math.PI / 180);
                }
            }
        }
        float[] out = new float[5 * n];
        for (int k = 0; k < out.length; k++) {
            out[k] = (float) g[k];
        }
        return out;
    }
}
