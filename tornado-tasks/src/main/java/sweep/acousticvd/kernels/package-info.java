/**
 * Portable {@code @Parallel} kernels of the variable-density acoustic equation (velocity–pressure on a staggered grid,
 * 2-D and 3-D) and of its exact adjoint: static methods over primitive arrays, compiled by TornadoVM for a device and
 * run as plain Java by the Java backend.
 */
package sweep.acousticvd.kernels;
