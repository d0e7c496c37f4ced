package sweep.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import sweep.prop.Backends;

/** {@code sweep devices}: the Java backend and every TornadoVM device this JVM can use. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "List the backends: the Java backend and every TornadoVM device (as i:j for --device).")
public final class DevicesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (String line : Backends.devices()) {
            out.println(line);
        }
        out.flush();
        return 0;
    }
}
