/**
 * The device seam shared by every equation: {@link sweep.prop.spi.GridView}, what a backend may read of a grid
 * (sizes, kernel arrays, the boxes of each pass), and a {@link sweep.prop.spi.DeviceBackend} found by
 * {@link java.util.ServiceLoader} that opens, per grid, a {@link sweep.prop.spi.DeviceStepper} of the contract an
 * equation's wing declares (e.g. {@code sweep.acoustic.AcousticDeviceStepper},
 * {@code sweep.elastic.ElasticDeviceStepper}). The TornadoVM backend ({@code sweep.tornado}, in the {@code -Ptornado}
 * build) is the one implementation.
 */
package sweep.prop.spi;
