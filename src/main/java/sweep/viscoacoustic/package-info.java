/**
 * The visco-acoustic wing (in progress): constant-Q attenuation by standard linear solids on top of the
 * variable-density acoustic scheme. Today it holds the fit of the solids to a constant Q ({@link
 * sweep.viscoacoustic.ConstantQ}); the equation, its kernels and solver follow.
 */
package sweep.viscoacoustic;
