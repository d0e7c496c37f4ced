package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * The elastic solver in a homogeneous full space against the closed forms of {@link ElasticAnalytic}: 2-D explosion
 * (p and radial velocity), 2-D vertical force (vx, vz with P and S), 3-D explosion (p and radial velocity), each at
 * several azimuths, every field at its own node and time level. The explosive source enters the stress update from
 * t·dt to (t+1)·dt with w(t·dt), i.e. centred half a step late: its reference uses w(t − dt/2).
 */
class ElasticDirectWaveTest {
    static final double VP = 2000;
    static final double VS = 1150;
    static final double RHO = 2100;
    static final double F = 12;
    static final double TOL = 0.03;

    private static PropSpec spec2d(int nz, int nx, double dh, double dt, int nt) {
        return PropSpec.builder(nz, nx).equation("elastic").dh(dh).dt(dt).nt(nt).abcn(20).order(8)
                .threads(2).build();
    }

    @Test
    void explosion2dMatchesGreensFunction() {
        explosion2d(5, 5);
    }

    /** Unequal spacings (dz = 4 m, dx = 5 m): each axis takes its own weights, profiles and the cell area. */
    @Test
    void explosion2dWithUnequalSpacingMatchesGreensFunction() {
        explosion2d(4, 5);
    }

    private static void explosion2d(double dz, double dx) {
        int n = 141;
        double dt = 1e-3;
        int nt = 450;
        int c = 70;
        int[][] recs = {{c + 45, c}, {c, c + 45}, {c - 32, c - 32}, {c + 20, c - 38}};
        List<ElasticField> fields = List.of(ElasticField.P, ElasticField.VX, ElasticField.VZ);
        PropSpec spec = PropSpec.builder(n, n).equation("elastic").dh(dz, dx).dt(dt).nt(nt).abcn(20)
                .order(8).threads(2).build();
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec)) {
            r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{c, c}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {recs}, fields, ElasticModel.constant(n * n, (float) VP, (float) VS, (float) RHO));
        }
        String what = dz == dx ? "2-D explosion" : "2-D explosion (dz " + dz + ", dx " + dx + ")";
        int nf = fields.size();
        for (int k = 0; k < recs.length; k++) {
            double ex = dx * (recs[k][0] - c);
            double ez = dz * (recs[k][1] - c);
            double[] p = new double[nt];
            double[] vx = new double[nt];
            double[] vz = new double[nt];
            double rp = Math.hypot(ex, ez);
            double rx = Math.hypot(ex + dx / 2, ez);
            double rz = Math.hypot(ex, ez + dz / 2);
            for (int t = 0; t < nt; t++) {
                p[t] = ElasticAnalytic.explosion2dP(rp, t * dt - dt / 2, VP, VS, RHO, F);
                vx[t] = ElasticAnalytic.explosion2dVr(rx, t * dt, VP, RHO, F) * (ex + dx / 2) / rx;
                vz[t] = ElasticAnalytic.explosion2dVr(rz, t * dt, VP, RHO, F) * (ez + dz / 2) / rz;
            }
            check(what + " p", recs[k], r.data(), k * nf, recs.length * nf, p);
            if (Math.abs(ex) > 1) {
                check(what + " vx", recs[k], r.data(), k * nf + 1, recs.length * nf, vx);
            }
            if (Math.abs(ez) > 1) {
                check(what + " vz", recs[k], r.data(), k * nf + 2, recs.length * nf, vz);
            }
        }
    }

    @Test
    void verticalForce2dMatchesGreensFunction() {
        force2d(ElasticSource.FZ, new int[][] {{70 + 45, 70}, {70, 70 + 45}, {70 - 32, 70 - 32}, {70 + 25, 70 + 38}});
    }

    @Test
    void horizontalForce2dMatchesGreensFunction() {
        force2d(ElasticSource.FX, new int[][] {{70 + 40, 70 + 1}, {70 + 3, 70 - 42}, {70 - 30, 70 + 28}});
    }

    /** A point force along x or z at its velocity node of cell (70, 70); vx and vz each at its own node. */
    private static void force2d(ElasticSource type, int[][] recs) {
        int n = 141;
        double dh = 5;
        double dt = 1e-3;
        int nt = 500;
        int c = 70;
        List<ElasticField> fields = List.of(ElasticField.VX, ElasticField.VZ);
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec2d(n, n, dh, dt, nt))) {
            r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{c, c}}}, type,
                    new int[][][] {recs}, fields, ElasticModel.constant(n * n, (float) VP, (float) VS, (float) RHO));
        }
        int j = type == ElasticSource.FX ? 0 : 1;
        // the force acts at (c + 1/2, c) (fx) or (c, c + 1/2) (fz); vx at (x + 1/2, z), vz at (x, z + 1/2)
        double sx = c + (j == 0 ? 0.5 : 0);
        double sz = c + (j == 1 ? 0.5 : 0);
        String what = "2-D " + (j == 0 ? "horizontal" : "vertical") + " force";
        for (int k = 0; k < recs.length; k++) {
            double ax = dh * (recs[k][0] + 0.5 - sx);
            double az = dh * (recs[k][1] - sz);
            double bx = dh * (recs[k][0] - sx);
            double bz = dh * (recs[k][1] + 0.5 - sz);
            double[] vx = new double[nt];
            double[] vz = new double[nt];
            for (int t = 0; t < nt; t++) {
                vx[t] = ElasticAnalytic.force2dV(0, j, ax, az, (t + 0.5) * dt, VP, VS, RHO, F);
                vz[t] = ElasticAnalytic.force2dV(1, j, bx, bz, (t + 0.5) * dt, VP, VS, RHO, F);
            }
            // a component that vanishes on a symmetry axis of the source is not compared
            if (j == 0 || recs[k][0] != c) {
                check(what + " vx", recs[k], r.data(), 2 * k, 2 * recs.length, vx);
            }
            if (j == 1 || recs[k][1] != c) {
                check(what + " vz", recs[k], r.data(), 2 * k + 1, 2 * recs.length, vz);
            }
        }
    }

    @Test
    void explosion3dMatchesGreensFunction() {
        int n = 41;
        double dh = 10;
        double dt = 1.5e-3;
        int nt = 230;
        int c = 20;
        PropSpec spec = PropSpec.builder(n, n, n).equation("elastic").dh(dh).dt(dt).nt(nt).abcn(10)
                .order(8).threads(2).build();
        int[][] recs = {{c + 15, c, c}, {c, c - 15, c}, {c, c, c + 15}, {c - 9, c + 8, c - 8}};
        List<ElasticField> fields = List.of(ElasticField.P, ElasticField.VX, ElasticField.VY, ElasticField.VZ);
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec)) {
            r = p.forward(Wavelets.ricker(F, nt, dt), new int[][][] {{{c, c, c}}}, ElasticSource.EXPLOSIVE,
                    new int[][][] {recs}, fields, ElasticModel.constant(n * n * n, (float) VP, (float) VS,
                            (float) RHO));
        }
        int nf = fields.size();
        for (int k = 0; k < recs.length; k++) {
            double[] e = {dh * (recs[k][0] - c), dh * (recs[k][1] - c), dh * (recs[k][2] - c)};
            double[] p = new double[nt];
            for (int t = 0; t < nt; t++) {
                p[t] = ElasticAnalytic.explosion3dP(norm(e, -1, dh / 2), t * dt - dt / 2, VP, VS, RHO, F);
            }
            check("3-D explosion p", recs[k], r.data(), k * nf, recs.length * nf, p);
            for (int a = 0; a < 3; a++) {
                if (Math.abs(e[a]) < 1) {
                    continue;
                }
                double rr = norm(e, a, dh / 2);
                double[] va = new double[nt];
                for (int t = 0; t < nt; t++) {
                    va[t] = ElasticAnalytic.explosion3dVr(rr, t * dt, VP, RHO, F) * (e[a] + dh / 2) / rr;
                }
                check("3-D explosion v" + "xyz".charAt(a), recs[k], r.data(), k * nf + 1 + a, recs.length * nf, va);
            }
        }
    }

    /** Length of offset e moved by {@code half} along axis a (a = −1: not moved). */
    private static double norm(double[] e, int a, double half) {
        double s = 0;
        for (int i = 0; i < 3; i++) {
            double d = e[i] + (i == a ? half : 0);
            s += d * d;
        }
        return Math.sqrt(s);
    }

    private static void check(String what, int[] rec, float[] data, int offset, int stride, double[] exact) {
        double err = ElasticAnalytic.relL2(data, offset, stride, exact);
        System.out.printf("%s at receiver %s: relative L2 error %.4f%n", what, java.util.Arrays.toString(rec), err);
        assertTrue(err < TOL, what + " at receiver " + java.util.Arrays.toString(rec) + ": relative L2 error " + err);
    }
}
