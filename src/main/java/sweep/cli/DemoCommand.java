package sweep.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sweep demo}: the main job, a domain-decomposed three-band FWI of the built-in model: it starts
 * {@code mpirun -np RANKS sweep fwi --px RANKS --bands 2.5,4,0} (one thread per rank) and writes everything to --out.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "The main job: DD FWI of the built-in model under mpirun (models, gathers, gradient, misfit"
                + " curve as PNG, observed data as .npy and SEG-Y, summary.json) in --out.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "demo-out", description = "output folder (default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--ranks", defaultValue = "2", description = "MPI ranks, one tile each (default ${DEFAULT-VALUE})")
    int ranks;

    @Option(names = "--iterations", defaultValue = "6",
            description = "FWI iterations per band (default ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--bands", defaultValue = "2.5,4,0",
            description = "low-pass corners in Hz, 0 = unfiltered (default ${DEFAULT-VALUE})")
    String bands;

    @Override
    public Integer call() throws Exception {
        if (ranks < 1) {
            throw new IllegalArgumentException("--ranks must be >= 1, got " + ranks);
        }
        String launcher = System.getProperty("sweep.launcher");
        if (launcher == null) {
            throw new IllegalStateException("sweep demo must be started through the ./sweep launcher (it starts mpirun"
                    + " with it); or run: mpirun -np 2 ./sweep fwi --px 2 --threads 1 --bands 2.5,4,0");
        }
        List<String> cmd = new ArrayList<>(List.of("mpirun", "-np", Integer.toString(ranks), "--bind-to", "none"));
        if (ranks > Runtime.getRuntime().availableProcessors()) {
            cmd.add("--oversubscribe");
        }
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--allow-run-as-root");
        }
        cmd.addAll(List.of(launcher, "fwi", "--px", Integer.toString(ranks), "--threads", "1", "--iterations",
                Integer.toString(iterations), "--bands", bands, "--out", out.toString()));
        System.err.println("sweep demo: " + String.join(" ", cmd));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        int code = p.waitFor();
        if (code == 0) {
            System.err.println("sweep demo: pictures (*.png), models (*.npy), observed.sgy and summary.json are in "
                    + out.toAbsolutePath());
        }
        return code;
    }
}
