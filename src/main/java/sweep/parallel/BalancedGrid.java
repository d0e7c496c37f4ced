package sweep.parallel;

import java.util.Arrays;
import java.util.logging.Logger;

/**
 * A recommended {@code (py, px)} tile grid that keeps each rank's tile compact: the factorisation of the
 * per-shot-group tile count that maximises the smaller horizontal tile edge {@code min(ny/py, nx/px)}.
 *
 * <p>Ties go to the fatter (contiguous) x edge, i.e. the smaller px. Factorisations that divide the grid exactly
 * are preferred; when none does, the best one is returned anyway, tile edges are measured after the pad
 * ({@code ceil(n/p)}), and a warning is logged because the model will need {@link Padding#padToMesh}. 2-D models
 * always get {@code (1, px)}.
 *
 * @param py tiles along y
 * @param px tiles along x
 */
public record BalancedGrid(int py, int px) {

    private static final Logger LOG = Logger.getLogger(BalancedGrid.class.getName());

    /** {@link #of(int, int[], int, int)} with one shot group and {@code maxPy = 2}, SWEEP's defaults. */
    public static BalancedGrid of(int worldSize, int[] globalShape) {
        return of(worldSize, globalShape, 1, 2);
    }

    /**
     * @param worldSize   total number of ranks
     * @param globalShape {@code (nz, nx)} or {@code (nz, ny, nx)}
     * @param shotGroups  shot-parallel groups; must divide worldSize
     * @param maxPy       cap on the y-tile count (2 is a conservative default; worldSize considers every py)
     */
    public static BalancedGrid of(int worldSize, int[] globalShape, int shotGroups, int maxPy) {
        if (worldSize < 1 || shotGroups < 1 || maxPy < 1) {
            throw new IllegalArgumentException("worldSize=" + worldSize + ", shotGroups=" + shotGroups + ", maxPy="
                    + maxPy + ": all must be >= 1");
        }
        if (worldSize % shotGroups != 0) {
            throw new IllegalArgumentException("worldSize=" + worldSize + " is not divisible by shotGroups="
                    + shotGroups + ": use a rank count that is a multiple of the number of shot groups");
        }
        if (globalShape == null || (globalShape.length != 2 && globalShape.length != 3)
                || Arrays.stream(globalShape).anyMatch(d -> d < 1)) {
            throw new IllegalArgumentException("globalShape must be (nz, nx) or (nz, ny, nx) with extents >= 1, got "
                    + Arrays.toString(globalShape));
        }
        int tiles = worldSize / shotGroups;
        int nx = globalShape[globalShape.length - 1];
        int ny = globalShape.length == 3 ? globalShape[1] : 1;
        int pyCap = globalShape.length == 3 ? Math.min(maxPy, tiles) : 1;

        BalancedGrid best = null, bestDividing = null;
        for (int py = 1; py <= pyCap; py++) {       // ascending py = descending px, so '>' keeps the fatter x edge
            if (tiles % py != 0) {
                continue;
            }
            BalancedGrid g = new BalancedGrid(py, tiles / py);
            if (best == null || g.beats(best, ny, nx)) {
                best = g;
            }
            if (ny % g.py == 0 && nx % g.px == 0 && (bestDividing == null || g.beats(bestDividing, ny, nx))) {
                bestDividing = g;
            }
        }
        if (bestDividing != null) {
            return bestDividing;
        }
        LOG.warning("no (py, px) grid of " + tiles + " tiles with py <= " + pyCap + " divides globalShape "
                + Arrays.toString(globalShape) + "; using " + best + ", so the model must be padded with "
                + "Padding.padToMesh (the pad changes the problem slightly: prefer a rank count whose factors divide "
                + "the grid)");
        return best;
    }

    /** Whether this grid's smaller tile edge is strictly larger than {@code other}'s, or equal with a fatter x. */
    private boolean beats(BalancedGrid other, int ny, int nx) {
        int mine = Math.min(ceilDiv(ny, py), ceilDiv(nx, px));
        int theirs = Math.min(ceilDiv(ny, other.py), ceilDiv(nx, other.px));
        return mine > theirs || (mine == theirs && px < other.px);
    }

    private static int ceilDiv(int n, int p) {
        return (n + p - 1) / p;
    }
}
