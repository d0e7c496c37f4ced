package sweep.elastic.kernels;

import sweep.kernels.Layout;

/**
 * Array layouts of the elastic kernels ({@link ElasticKernels2D}, {@link ElasticKernels3D}): the slots their
 * {@code int[] geo} adds after the acoustic {@link Layout} slots, and how fields, parameters, CPML profiles, weights
 * and memory variables are packed, so that a kernel takes a dozen arrays however many components the equation has.
 *
 * <p><b>Fields</b> are packed per component, each component a wavefield array of {@link Layout#LEN} floats on the
 * padded grid of {@link Layout} (halo of h = order/2 cells): velocities {@code v = [vx, vz]} (2-D) or
 * {@code [vx, vy, vz]} (3-D); stresses {@code s = [σxx, σzz, σxz]} or {@code [σxx, σyy, σzz, σxy, σxz, σyz]}.
 * The value stored at cell (z, y, x) of a component sits at that component's node: normal stresses at (x, y, z);
 * vx at (x+½, y, z), vy at (x, y+½, z), vz at (x, y, z+½); σxy at (x+½, y+½, z), σxz at (x+½, y, z+½), σyz at
 * (x, y+½, z+½).
 *
 * <p><b>Parameters</b>, already multiplied by dt: buoyancy {@code b} with the slots of {@code v} (dt/ρ at each
 * velocity node) and moduli {@code m = [dt·λ, dt·(λ+2μ), dt·μxz]} (2-D) or
 * {@code [dt·λ, dt·(λ+2μ), dt·μxy, dt·μxz, dt·μyz]} (3-D), λ and λ+2μ at the normal-stress nodes, each μ at its
 * shear node.
 *
 * <p><b>Weights</b> {@code coef}: the staggered first-derivative weights divided by the spacing, axis slot a
 * (0 = z, 1 = y, 2 = x) at {@code a·h + k − 1}, k = 1..h. A derivative at a half node from integer nodes reads
 * {@code f[i + k] − f[i − k + 1]} ("forward", D+); at an integer node from half nodes {@code f[i + k − 1] − f[i − k]}
 * ("backward", D−), with the stride of the axis.
 *
 * <p><b>CPML profiles</b> {@code prof}: per axis slot a block of 4·n floats (n its computational size): decay and
 * update at the integer positions, then at the half positions, {@code [aI(n) bI(n) aH(n) bH(n)]}; blocks z, y, x
 * at offsets 0, 4·NZ, 4·(NZ+NY).
 *
 * <p><b>Bands</b>: an integer node of axis a is in the band when its index is below {@code ?BL} or at/above
 * {@code ?BH} (the acoustic limits); a half node when below {@code ?BL} or at/above {@code ?BHH} (= ?BH − 1 when the
 * grid has a high band: the half node just past the last physical cell lies in it; else n).
 *
 * <p><b>Memory variables</b> {@code psi}: one per derivative of the step, stored only on the band cells of its
 * axis. Axis a's band cells are indices {@code [0, ?BL) ∪ [?BHH, n)}, {@code ?W} of them, at slab index
 * {@code j = i < ?BL ? i : i − ?BHH + ?BL}. Axis a's slab holds the other two axes whole: z: {@code (j·NY + y)·NX + x},
 * y: {@code (z·WY + j)·NX + x}, x: {@code (z·NY + y)·WX + j}; variable k of axis a starts at
 * {@code PSI_? + k·SLAB_?}. Variables per axis (2-D, 4): 0 ∂σ of vx, 1 ∂σ of vz, 2 the normal-stress strain,
 * 3 the shear strain; (3-D, 6): 0, 1, 2 the ∂σ of vx, vy, vz, 3 the normal strain, 4 and 5 the shear strains (x:
 * σxy, σxz; y: σxy, σyz; z: σxz, σyz).
 */
public final class ElasticLayout {
    private ElasticLayout() {
    }

    /**
     * 1 when computational row z = 0 is a free surface (global top row, no top PML), else 0: read by the host, which
     * then stores the surface moduli on that row and runs the free-surface image kernels.
     */
    public static final int FS = Layout.GEO_SIZE;
    /** First half node of the high z band (NZ when none). */
    public static final int ZBHH = FS + 1;
    public static final int YBHH = FS + 2;
    public static final int XBHH = FS + 3;
    /** Band cells per axis (slab thickness of its memory variables). */
    public static final int WZ = FS + 4;
    public static final int WY = FS + 5;
    public static final int WX = FS + 6;
    /** Offset of the first memory variable of each axis in {@code psi}. */
    public static final int PSI_Z = FS + 7;
    public static final int PSI_Y = FS + 8;
    public static final int PSI_X = FS + 9;
    /** Floats per memory variable of each axis (its slab size). */
    public static final int SLAB_Z = FS + 10;
    public static final int SLAB_Y = FS + 11;
    public static final int SLAB_X = FS + 12;
    /** Number of int slots of an elastic {@code geo}. */
    public static final int GEO_SIZE = FS + 13;

    /** Memory variables per axis: 4 in 2-D, 6 in 3-D. */
    public static int psiPerAxis(int ndim) {
        return ndim == 2 ? 4 : 6;
    }

    /** Velocity components: 2 in 2-D, 3 in 3-D. */
    public static int velocities(int ndim) {
        return ndim;
    }

    /** Stress components: 3 in 2-D, 6 in 3-D. */
    public static int stresses(int ndim) {
        return ndim == 2 ? 3 : 6;
    }

    /** Moduli slots: 3 in 2-D (λ, λ+2μ, μxz), 5 in 3-D (λ, λ+2μ, μxy, μxz, μyz). */
    public static int moduli(int ndim) {
        return ndim == 2 ? 3 : 5;
    }
}
