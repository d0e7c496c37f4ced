/**
 * The variable-density acoustic wing ({@code --equation acoustic-vd}): the contract {@link
 * sweep.acousticvd.AcousticVdEquation} and its Java solver; the portable kernels are in
 * {@code sweep.acousticvd.kernels}.
 */
package sweep.acousticvd;
