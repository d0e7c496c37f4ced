/**
 * The pseudo-acoustic TTI equation ({@code --equation acoustic-tti}): a tilted symmetry axis per cell on the step
 * skeleton, its kernels in {@code sweep.acoustictti.kernels}.
 */
package sweep.acoustictti;
