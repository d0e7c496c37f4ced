package sweep.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.PropSpec;
import sweep.prop.Record;

/**
 * A plane wave at normal incidence on a flat interface between two solids reflects with the impedance contrast of the
 * averaged parameters: stress (p) reflection (Z2 − Z1)/(Z2 + Z1) for P with Z = ρ·vp, particle-velocity reflection
 * (Z1 − Z2)/(Z1 + Z2) for S with Z = ρ·vs. The plane waves come from a line of sources along a whole row; the
 * receiver sits in the middle, and the windows end before the waves from the ends of the line arrive. The grid
 * representation of a sharp interface costs accuracy of order dh²: for S (vx nodes on either side of the interface,
 * σxz on it with the harmonic μ) the reflection is 3.3 % short of the contrast on this 10 m grid and 0.8 % on a 5 m one
 * (measured); for P (σzz nodes on either side, vz on it with the mean ρ) 0.2 % here.
 */
class ElasticInterfaceTest {
    static final double DH = 10;
    static final double DT = 1e-3;
    static final double F = 6;
    static final int NZ = 70;
    static final int NX = 200;
    static final int FLOOR = 50; // rows >= FLOOR are the lower medium

    private static ElasticModel twoLayers() {
        float[] vp = new float[NZ * NX];
        float[] vs = new float[NZ * NX];
        float[] rho = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                boolean lower = z >= FLOOR;
                vp[z * NX + x] = lower ? 3000f : 2000f;
                vs[z * NX + x] = lower ? 1700f : 1000f;
                rho[z * NX + x] = lower ? 2500f : 2000f;
            }
        }
        return new ElasticModel(vp, vs, rho);
    }

    /** Ratio of the largest amplitude (with its sign) in the reflection window to that in the incident window. */
    private static double reflection(ElasticSource type, int sz, int rz, double c, int nt) {
        int[][] line = new int[NX][];
        for (int x = 0; x < NX; x++) {
            line[x] = new int[] {x, sz};
        }
        PropSpec spec = PropSpec.builder(NZ, NX).equation("elastic").dh(DH).dt(DT).nt(nt).abcn(20)
                .order(8).threads(2).build();
        Record r;
        try (ElasticSolver p = new ElasticSolver(spec)) {
            r = p.forward(Wavelets.ricker(F, nt, DT), new int[][][] {line}, type, new int[][][] {{{NX / 2, rz}}},
                    List.of(type == ElasticSource.EXPLOSIVE ? ElasticField.P : ElasticField.VX), twoLayers());
        }
        double t0 = 1.5 / F;
        double inc = t0 + DH * Math.abs(rz - sz) / c;
        double ref = t0 + DH * ((FLOOR - 0.5 - sz) + (FLOOR - 0.5 - rz)) / c;
        double half = 0.1;
        return peak(r, ref - half, ref + half) / peak(r, inc - half, inc + half);
    }

    private static double peak(Record r, double from, double to) {
        double best = 0;
        for (int t = (int) Math.ceil(from / DT); t <= (int) (to / DT) && t < r.nt(); t++) {
            double v = r.get(0, t, 0, 0);
            if (Math.abs(v) > Math.abs(best)) {
                best = v;
            }
        }
        return best;
    }

    @Test
    void pWaveReflectsWithTheImpedanceContrast() {
        double z1 = 2000.0 * 2000;
        double z2 = 2500.0 * 3000;
        double expected = (z2 - z1) / (z2 + z1);
        double measured = reflection(ElasticSource.EXPLOSIVE, 10, 25, 2000, 680);
        System.out.printf("plane P at normal incidence: stress reflection %.4f, impedance contrast %.4f%n", measured,
                expected);
        assertEquals(expected, measured, 0.03 * expected);
    }

    @Test
    void sWaveReflectsWithTheImpedanceContrast() {
        double z1 = 2000.0 * 1000;
        double z2 = 2500.0 * 1700;
        double expected = (z1 - z2) / (z1 + z2);
        double measured = reflection(ElasticSource.FX, 30, 38, 1000, 680);
        System.out.printf("plane S at normal incidence: velocity reflection %.4f, impedance contrast %.4f%n", measured,
                expected);
        assertEquals(expected, measured, 0.05 * Math.abs(expected));
    }
}
