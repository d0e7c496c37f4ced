/**
 * The contract between the single-domain solver ({@code sweep.prop}) and its backends: {@link GridView}, what a
 * backend may read of a grid (sizes, kernel arrays, the boxes of each pass); {@link AdjointArrays}, the arrays of an
 * adjoint run; and the device seam: a {@link DeviceBackend} found by {@link java.util.ServiceLoader} opens, per grid,
 * a {@link DeviceStepper} of the equation's contract ({@link AcousticDeviceStepper}) that records a
 * {@link DeviceTape} for the gradient. The TornadoVM backend ({@code sweep.tornado}, under {@code tornado-tasks/}) is
 * the one implementation; the Java backend is built into {@code sweep.prop}.
 */
package sweep.prop.spi;
