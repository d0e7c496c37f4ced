/**
 * What every equation's portable kernels share: the {@link sweep.kernels.Parallel} annotation, the slots of the
 * geometry and coefficient arrays ({@link sweep.kernels.Layout}), strip packing ({@link sweep.kernels.Pack}) and
 * point sources and receivers ({@link sweep.kernels.Sources}). The kernels themselves live in each wing
 * ({@code sweep.acoustic.kernels}, {@code sweep.acousticvd.kernels}, {@code sweep.elastic.kernels}): static methods
 * with {@code @Parallel} loops that TornadoVM compiles for a device and the Java backend runs as plain multithreaded
 * Java, with the same arithmetic in the same order.
 *
 * <p>Rules every kernel here follows (TornadoVM 5.2 compiles nothing else, or compiles it wrongly):
 * <ol>
 *   <li>A kernel is a {@code static} method over {@code float[]}/{@code int[]} and scalars: no objects, allocation,
 *       exceptions, virtual calls or recursion inside it, and at most 20 parameters (geometry goes in
 *       {@code int[] geo}, weights in {@code float[] coef}; {@link sweep.kernels.Layout} names the slots).</li>
 *   <li>A parallel loop starts at a constant: {@code for (@Parallel int iz = 0; iz < z1 - z0; iz++) { int z = z0 + iz;
 *       ... }}; a loop starting at a variable makes TornadoVM bail out.</li>
 *   <li>Band tests use the non-short-circuit {@code |} and {@code &}: two successive {@code a || b} conditions were
 *       compiled to wrong OpenCL control flow.</li>
 *   <li>Every output cell is written by the kernel: cells it leaves alone are undefined on the device. Inside a
 *       multi-graph plan an array whose first use in a graph is a plain write loses its device contents, so fields are
 *       zeroed by a kernel and an unpack reads the field it writes.</li>
 *   <li>Every decision a cell makes (PML profile, free-surface mirror, source or receiver ownership) comes from its
 *       global index, never a tile-local one: that keeps a decomposed run bit-identical to one domain.</li>
 *   <li>The arithmetic order is the contract: the Java backend's Vector API variants and a device under strict math
 *       reproduce it bit for bit, and the tests check that.</li>
 * </ol>
 */
package sweep.kernels;
