package sweep.imaging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import sweep.core.Wavelets;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * Reverse-time migration images three thin flat beds (two rows 300 m/s faster than their surroundings) in a known
 * smooth background from the reflections alone (the records of the true model minus those of the background): after
 * the Laplacian filter, on every trace between the outermost shots, the image's maximum between neighbouring beds lies
 * within two cells of its bed.
 */
class ReflectorImagingTest {
    static final int NZ = 100;
    static final int NX = 140;
    static final int[] BEDS = {35, 60, 84}; // the first of each bed's two rows

    static float[] background() {
        float[] v = new float[NZ * NX];
        for (int z = 0; z < NZ; z++) {
            for (int x = 0; x < NX; x++) {
                v[z * NX + x] = 1800 + 8 * z;
            }
        }
        return v;
    }

    static float[] withBeds(float[] v0) {
        float[] v = v0.clone();
        for (int b : BEDS) {
            for (int z = b; z < b + 2; z++) {
                for (int x = 0; x < NX; x++) {
                    v[z * NX + x] += 300;
                }
            }
        }
        return v;
    }

    @Test
    void theLaplacianFilteredImageHasItsMaximaAtTheBeds() {
        PropSpec spec = PropSpec.builder(NZ, NX).dh(10).dt(1e-3).nt(1000).abcn(20).build();
        int shots = 6;
        int[][][] src = new int[shots][][];
        int[][][] rec = new int[shots][NX][];
        for (int b = 0; b < shots; b++) {
            src[b] = new int[][] {{20 + 20 * b, 2}};
            for (int r = 0; r < NX; r++) {
                rec[b][r] = new int[] {r, 2};
            }
        }
        float[] w = Wavelets.ricker(15, spec.nt(), spec.dt());
        float[] v0 = background();
        float[] image;
        try (Propagator p = new Propagator(spec)) {
            float[] d = p.forward(w, src, rec, withBeds(v0)).data();
            float[] d0 = p.forward(w, src, rec, v0).data();
            for (int i = 0; i < d.length; i++) {
                d[i] -= d0[i];
            }
            Gradient g = p.forwardAndGradient(w, src, rec, v0, d, Misfit.CORRELATION);
            image = ImageFilters.laplacian(g.parameters(), 1, spec.shape(), spec.dh());
        }
        int worst = 0;
        for (int x = 20; x <= 120; x++) {
            for (int k = 0; k < BEDS.length; k++) {
                // the window of bed k: halfway to its neighbours (the top one starts below the source rows)
                int lo = k == 0 ? 10 : (BEDS[k - 1] + BEDS[k]) / 2 + 1;
                int hi = k == BEDS.length - 1 ? NZ - 1 : (BEDS[k] + BEDS[k + 1]) / 2 + 1;
                int z = argMax(image, x, lo, hi);
                int miss = Math.max(0, Math.max(BEDS[k] - z, z - (BEDS[k] + 1)));
                worst = Math.max(worst, miss);
                assertTrue(miss <= 2, "trace x = " + x + ": the image's maximum between depths " + lo + " and " + hi
                        + " is at " + z + ", " + miss + " cells from the bed at rows " + BEDS[k] + "-" + (BEDS[k] + 1));
            }
        }
        System.out.printf("RTM of three beds: the maximum of every trace x = 20..120 between neighbouring beds lies"
                + " within %d cell(s) of its bed%n", worst);
    }

    /** The depth of the largest value of trace x of the image over depths [lo, hi). */
    static int argMax(float[] image, int x, int lo, int hi) {
        int best = lo;
        for (int z = lo; z < hi; z++) {
            if (image[z * NX + x] > image[best * NX + x]) {
                best = z;
            }
        }
        return best;
    }
}
