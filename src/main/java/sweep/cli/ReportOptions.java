package sweep.cli;

import picocli.CommandLine.Option;

/** {@code --verbose} of {@code forward}, {@code gradient} and {@code fwi}: what each rank held, after the run. */
public final class ReportOptions {
    @Option(names = "--verbose", description = "after the run, print per rank its solver's bytes (fields, CPML,"
            + " adjoint, tape) and the peak Java heap used")
    boolean verbose;
}
