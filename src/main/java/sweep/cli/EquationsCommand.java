package sweep.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * {@code sweep equations}: one line per installed equation (the built-in ones and those of jars on the class path):
 * its name, dimensions, parameters, recordable fields, source types, whether it has a TornadoVM device solver, and
 * its settings (options, with their defaults) and gradient storages (--storage, the default first).
 */
@Command(name = "equations", mixinStandardHelpOptions = true,
        description = "List the installed wave equations (--equation NAME): dimensions, parameters (--NAME options),"
                + " recordable fields (--record), source types (--source-type), device solver, settings (options),"
                + " gradient storages (--storage, the default first).")
public final class EquationsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int width = Equations.names().stream().mapToInt(String::length).max().orElse(0);
        for (WaveEquation e : Equations.installed().values()) {
            List<Integer> dims = e.dimensions();
            out.println(String.format("%-" + width + "s", e.name()) + "  "
                    + String.join(",", dims.stream().map(d -> d + "-D").toList()) + "  parameters "
                    + perDimension(dims, d -> e.inDimensions(d).parameterNames()) + "  record "
                    + perDimension(dims, e::recordable)
                    + "  source types " + perDimension(dims, e::sourceTypes) + "  device solver "
                    + (e.hasDeviceSolver() ? "yes" : "no") + (e.settings().isEmpty() ? "" : "  settings "
                    + String.join(",", e.settings().stream().map(st -> st.option() + (st.defaultValue() == null ? ""
                    : "=" + st.defaultValue())).toList())) + "  storages " + String.join(",",
                    e.storages().stream().map(GradientCommand::storageName).toList()) + "  (" + e.description() + ")");
        }
        out.flush();
        return 0;
    }

    /**
     * The lists of the equation's dimensions {@code dims} (asked only for those): "a,b" when they agree, else
     * "a,b (3-D a,b,c)"; "-" for an empty list.
     */
    private static String perDimension(List<Integer> dims, IntFunction<List<String>> list) {
        List<String> first = list.apply(dims.get(0));
        StringBuilder s = new StringBuilder(names(first));
        for (int d : dims.subList(1, dims.size())) {
            List<String> other = list.apply(d);
            if (!other.equals(first)) {
                s.append(" (").append(d).append("-D ").append(names(other)).append(')');
            }
        }
        return s.toString();
    }

    private static String names(List<String> l) {
        return l.isEmpty() ? "-" : String.join(",", l);
    }
}
