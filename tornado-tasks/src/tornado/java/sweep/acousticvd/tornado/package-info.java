/**
 * The variable-density acoustic wing on TornadoVM: the device stepper and adjoint ({@code AcousticVdDeviceStepper}
 * implemented over TornadoVM task graphs) and the glue kernels they add to the portable ones. Compiled only in the
 * {@code -Ptornado} build.
 */
package sweep.acousticvd.tornado;
