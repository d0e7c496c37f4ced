/**
 * The elastic wing: the isotropic elastic velocity-stress equation ({@link sweep.elastic.ElasticEquation}) and its
 * solver, steppers, adjoint, Vector API kernels and device contract. Its portable kernels are in
 * {@code sweep.elastic.kernels}, its TornadoVM tasks in {@code sweep.elastic.tornado} (the {@code -Ptornado} build).
 */
package sweep.elastic;
