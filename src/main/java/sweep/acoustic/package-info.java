/**
 * The acoustic wing: the constant-density acoustic equation ({@link sweep.acoustic.AcousticEquation}) and its solver,
 * steppers, adjoint, gradient tape, Vector API kernels and device contract. Its portable kernels are in
 * {@code sweep.acoustic.kernels}, its TornadoVM tasks in {@code sweep.acoustic.tornado} (the {@code -Ptornado} build).
 */
package sweep.acoustic;
