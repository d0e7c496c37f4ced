/**
 * The acoustic wing's portable kernels: the forward step and its exact transpose in 2-D and 3-D, static methods with
 * {@link sweep.kernels.Parallel} loops that TornadoVM compiles and the Java backend runs (the rules are in
 * {@code sweep.kernels}).
 */
package sweep.acoustic.kernels;
