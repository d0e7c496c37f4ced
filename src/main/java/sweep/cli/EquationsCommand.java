package sweep.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * {@code sweep equations}: one line per installed equation (the built-in ones and those of jars on the class path):
 * its name, parameters, recordable fields, source types and whether it has a TornadoVM device solver.
 */
@Command(name = "equations", mixinStandardHelpOptions = true,
        description = "List the installed wave equations (--equation NAME): parameters (--NAME options), recordable"
                + " fields (--record), source types (--source-type), device solver.")
public final class EquationsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int width = Equations.names().stream().mapToInt(String::length).max().orElse(0);
        for (WaveEquation e : Equations.installed().values()) {
            out.println(String.format("%-" + width + "s", e.name()) + "  parameters " + String.join(",",
                    e.parameterNames()) + "  record " + perDimension(e.recordable(2), e.recordable(3))
                    + "  source types " + perDimension(e.sourceTypes(2), e.sourceTypes(3)) + "  device solver "
                    + (e.hasDeviceSolver() ? "yes" : "no") + "  (" + e.description() + ")");
        }
        out.flush();
        return 0;
    }

    /** "a,b" when 2-D and 3-D agree, else "a,b (3-D a,b,c)"; "-" for an empty list. */
    private static String perDimension(List<String> two, List<String> three) {
        String t = two.isEmpty() ? "-" : String.join(",", two);
        return two.equals(three) ? t : t + " (3-D " + (three.isEmpty() ? "-" : String.join(",", three)) + ")";
    }
}
