/**
 * The pseudo-acoustic VTI wing ({@code --equation acoustic-vti}): the contract {@link
 * sweep.acousticvti.AcousticVtiEquation} and its step on the step skeleton; the portable kernels are in
 * {@code sweep.acousticvti.kernels}.
 */
package sweep.acousticvti;
