/**
 * The equation contract: {@link sweep.equation.WaveEquation} is what the layers above a solver (the propagator facade,
 * domain decomposition, memory estimate, FWI, the command line) know of a wave equation, and
 * {@link sweep.equation.Equations} finds the installed ones by name through {@link java.util.ServiceLoader}. Each
 * equation lives in its own package (its wing) and is listed in {@code META-INF/services/sweep.equation.WaveEquation}
 * of its jar; see docs/equations.md.
 */
package sweep.equation;
