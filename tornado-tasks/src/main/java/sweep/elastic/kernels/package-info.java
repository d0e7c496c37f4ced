/**
 * The elastic wing's portable kernels: the velocity and stress sub-steps and their exact transposes in 2-D and 3-D,
 * sources and receivers, and the layout of their arrays; static methods with {@link sweep.kernels.Parallel} loops
 * that TornadoVM compiles and the Java backend runs (the rules are in {@code sweep.kernels}).
 */
package sweep.elastic.kernels;
