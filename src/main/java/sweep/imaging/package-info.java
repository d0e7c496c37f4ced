/**
 * Imaging with the Born operator and its adjoint: the image filters of reverse-time migration (Laplacian, source
 * illumination) and least-squares migration, for any equation whose solver offers
 * {@link sweep.equation.EquationSolver#born}.
 */
package sweep.imaging;
