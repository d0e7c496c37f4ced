/**
 * Portable kernels of the visco-acoustic equation (TornadoVM-compilable, plain Java on the CPU): what it adds to the
 * variable-density acoustic step ({@code sweep.acousticvd.kernels}), the memory variables of its standard linear
 * solids and their transpose.
 */
package sweep.viscoacoustic.kernels;
