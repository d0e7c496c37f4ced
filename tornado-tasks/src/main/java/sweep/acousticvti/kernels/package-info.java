/**
 * Portable {@code @Parallel} kernels of the pseudo-acoustic VTI equation (a coupled leapfrog in the horizontal and
 * vertical stresses, 2-D and 3-D) and of its exact transpose: static methods over primitive arrays, run as plain Java
 * by the step skeleton and written to TornadoVM's rules.
 */
package sweep.acousticvti.kernels;
