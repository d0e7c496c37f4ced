package sweep.example.sh;

import java.util.List;
import sweep.core.FdWeights;
import sweep.equation.Step;
import sweep.prop.Grid;
import sweep.prop.PropSpec;

/**
 * One SH step on one grid (a whole model or one tile) for the {@link sweep.equation.StepSolver} skeleton: two stages,
 * "velocity" (the stress images of a free surface, then {@link ShKernels#velocity}) and "stress" (the velocity images,
 * then {@link ShKernels#stress}), their exact transposes, the point force fy after the velocity stage, and the chain
 * rule from dt/ρ, dt·μx, dt·μz to vs and rho. Step n takes vy to (n+½)·dt with the force w(n·dt), then the stresses to
 * (n+1)·dt; record sample n is vy at (n+½)·dt. The tape holds per step and cell the three brackets that multiply dt/ρ,
 * dt·μx and dt·μz.
 */
final class ShStep extends Step {
    /** State arrays ({@link ShEquation#fields}, then {@link ShEquation#auxiliaries}). */
    private static final int VY = 0;
    private static final int SXY = 1;
    private static final int SZY = 2;
    private static final int PVX = 3;
    private static final int PVZ = 4;
    private static final int PSX = 5;
    private static final int PSZ = 6;
    /** Adjoint work arrays: the scaled adjoints ex̄, ez̄, dx̄, dz̄, then dJ/d(dt/ρ), dJ/d(dt·μx), dJ/d(dt·μz). */
    private static final int EX = 0;
    private static final int EZ = 1;
    private static final int DX = 2;
    private static final int DZ = 3;
    private static final int GB = 4;
    private static final int GMX = 5;
    private static final int GMZ = 6;

    private final float[] cx;
    private final float[] cz;
    private final float invArea;
    private final int cells;
    private final int fsi;
    private float[] bu;
    private float[] mx;
    private float[] mz;
    private float[] prof;

    ShStep(PropSpec spec, Grid grid) {
        super(spec, grid);
        double[] dh = spec.dh();
        double[] c = FdWeights.staggered(spec.order());
        cx = new float[h + 1];
        cz = new float[h + 1];
        for (int k = 1; k <= h; k++) {
            cz[k] = (float) (c[k] / dh[0]);
            cx[k] = (float) (c[k] / dh[1]);
        }
        invArea = (float) (1.0 / (dh[0] * dh[1]));
        cells = nz * nx;
        fsi = fs ? 1 : 0;
    }

    @Override
    protected List<String> stages() {
        return List.of("velocity", "stress");
    }

    /** dt/ρ at the vy nodes, dt·μ at the stress nodes (the harmonic mean of the two cells), the CPML profiles. */
    @Override
    protected void setModel() {
        if (bu == null) {
            bu = newArray();
            mx = newArray();
            mz = newArray();
        }
        double dt = spec.dt();
        for (int z = 0; z < nz; z++) {
            for (int x = 0; x < nx; x++) {
                int i = base + z * sz + x;
                double mu = mu(z, x);
                bu[i] = (float) (dt / model(1, z, 0, x));
                mx[i] = (float) (dt * harmonic(mu, mu(z, x + 1)));
                mz[i] = (float) (dt * harmonic(mu, mu(z + 1, x)));
            }
        }
        prof = staggeredProfiles();
    }

    /** 2ab/(a + b): the shear modulus of two cells in series (a stress node between them). */
    static double harmonic(double a, double b) {
        return 2 * a * b / (a + b);
    }

    private double mu(int z, int x) {
        double vs = model(0, z, 0, x);
        return model(1, z, 0, x) * vs * vs;
    }

    @Override
    protected void forward(int stage, float[][] s, float[] tape, int taping) {
        if (stage == 0) {
            if (fs) {
                ShKernels.imageStress(s[SZY], h, base, sz, 0, nx);
            }
            parallel((z0, z1) -> ShKernels.velocity(s[VY], s[SXY], s[SZY], s[PVX], s[PVZ], bu, prof, cx, cz, h, base,
                    sz, nz, nx, z0, z1, tape, taping));
        } else {
            if (fs) {
                ShKernels.imageVelocity(s[VY], h, base, sz, 0, nx);
            }
            exchange(s[VY]);
            parallel((z0, z1) -> ShKernels.stress(s[VY], s[SXY], s[SZY], s[PSX], s[PSZ], mx, mz, prof, cx, cz, h,
                    base, sz, nz, nx, z0, z1, tape, cells, taping));
            exchange(s[SXY]);
        }
    }

    @Override
    protected void transpose(int stage, float[][] a, float[][] w, float[] tape) {
        if (stage == 1) {
            parallel((z0, z1) -> ShKernels.stressAdjointPoint(a[SXY], a[SZY], a[PSX], a[PSZ], mx, mz, prof, w[EX],
                    w[EZ], w[GMX], w[GMZ], base, sz, nz, nx, z0, z1, tape, cells));
            exchange(w[EX]);
            parallel((z0, z1) -> ShKernels.velocityGather(a[VY], w[EX], w[EZ], cx, cz, h, base, sz, nx, fsi, z0,
                    z1));
        } else {
            parallel((z0, z1) -> ShKernels.velocityAdjointPoint(a[VY], a[PVX], a[PVZ], bu, prof, w[DX], w[DZ], w[GB],
                    base, sz, nz, nx, z0, z1, tape));
            exchange(w[DX]);
            parallel((z0, z1) -> ShKernels.stressGather(a[SXY], a[SZY], w[DX], w[DZ], cx, cz, h, base, sz, nx, fsi,
                    z0, z1));
        }
    }

    /** The force per unit length spread over one cell: vy += (dt/ρ)·w/(dz·dx); its share of dJ/d(dt/ρ) taped. */
    @Override
    protected void inject(float[][] s, int cell, float sample, float[] tape, int taping) {
        float f = sample * invArea;
        s[VY][cell] += bu[cell] * f;
        if (taping == 1) {
            int c = cell - base;
            tape[(c / sz) * nx + c % sz] += f;
        }
    }

    @Override
    protected float injectTranspose(float[][] a, int cell) {
        return bu[cell] * invArea * a[VY][cell];
    }

    /**
     * Velocities weigh 1/(ρ·vs) of the mean model, stresses 1, memory variables of stress derivatives 1/dh, of
     * velocity derivatives 1/(ρ·vs·dh).
     */
    @Override
    protected double scale(int slot) {
        double impedance = 0;
        int n = tileCells();
        for (int k = 0; k < n; k++) {
            impedance += (double) tileModel(0, k) * tileModel(1, k);
        }
        impedance /= n;
        double dh = spec.dh()[0];
        return switch (slot) {
            case VY -> 1 / impedance;
            case PVX, PVZ -> 1 / dh;
            case PSX, PSZ -> 1 / (impedance * dh);
            default -> 1;
        };
    }

    /**
     * dJ/dvs and dJ/drho from the node gradients: each node's share goes to the cells its coefficient was made of, in
     * row-major order of the nodes, the node left of a low cut (in the halo, after the exchange) included; then
     * μ = ρ·vs² gives dJ/dvs = 2ρ·vs·dJ/dμ and dJ/dρ += vs²·dJ/dμ.
     */
    @Override
    protected float[] gradient(float[][] w) {
        exchange(w[GMX]);
        int n = tileCells();
        double[] gmu = new double[n];
        double[] grho = new double[n];
        double dt = spec.dt();
        boolean lowCut = grid.tileOffset()[1] > 0;
        for (int z = 0; z < nz; z++) {
            for (int x = lowCut ? -1 : 0; x < nx; x++) {
                int i = base + z * sz + x;
                if (x >= 0) {
                    double r = model(1, z, 0, x);
                    add(grho, z, x, w[GB][i] * (-dt / (r * r)));
                }
                double a = mu(z, x);
                double c = mu(z, x + 1);
                double s2 = (a + c) * (a + c);
                add(gmu, z, x, w[GMX][i] * dt * 2 * c * c / s2);
                add(gmu, z, x + 1, w[GMX][i] * dt * 2 * a * a / s2);
                if (x >= 0) {
                    double e = mu(z + 1, x);
                    double s3 = (a + e) * (a + e);
                    add(gmu, z, x, w[GMZ][i] * dt * 2 * e * e / s3);
                    add(gmu, z + 1, x, w[GMZ][i] * dt * 2 * a * a / s3);
                }
            }
        }
        float[] out = new float[2 * n];
        for (int k = 0; k < n; k++) {
            double vs = tileModel(0, k);
            double r = tileModel(1, k);
            out[k] = (float) (gmu[k] * 2 * r * vs);
            out[n + k] = (float) (grho[k] + gmu[k] * vs * vs);
        }
        return out;
    }

    private void add(double[] acc, int z, int x, double g) {
        int k = tileCell(z, 0, x);
        if (k >= 0) {
            acc[k] += g;
        }
    }
}
