package sweep.cli;

import java.util.ArrayList;
import java.util.List;
import mpi.MPI;
import sweep.parallel.Mpi;

/**
 * Test support: several {@code sweep} command lines in one {@code mpirun} launch (the JVM start-ups of a launch cost
 * more than its small runs), one after the other on the same world, as {@link Main#main} runs one. The arguments are
 * the command lines separated by {@code ;;}; a command line may start with {@code -Dkey=value} arguments, system
 * properties set for it and the ones after it (an empty value clears one). World rank 0 prints "EXIT k code" for the
 * k-th command (from 0); a command that fails on a rank aborts the job, as {@link Main#main} does.
 */
public final class CliBatchMain {
    private CliBatchMain() {
    }

    public static void main(String[] args) throws Exception {
        List<List<String>> commands = new ArrayList<>();
        commands.add(new ArrayList<>());
        for (String a : args) {
            if (a.equals(";;")) {
                commands.add(new ArrayList<>());
            } else {
                commands.get(commands.size() - 1).add(a);
            }
        }
        int k = 0;
        for (List<String> c : commands) {
            while (!c.isEmpty() && c.get(0).startsWith("-D")) {
                String[] kv = c.remove(0).substring(2).split("=", 2);
                if (kv.length < 2 || kv[1].isEmpty()) {
                    System.clearProperty(kv[0]);
                } else {
                    System.setProperty(kv[0], kv[1]);
                }
            }
            int code = Main.commandLine().execute(c.toArray(new String[0]));
            if (Mpi.isInitialized() && MPI.COMM_WORLD.getRank() == 0) {
                System.out.println("EXIT " + k + " " + code);
                System.out.flush();
            }
            if (code != 0) {
                if (Mpi.isInitialized()) {
                    MPI.COMM_WORLD.abort(code);
                }
                System.exit(code);
            }
            k++;
        }
        Mpi.finish();
        System.exit(0);
    }

    /** The arguments of {@link #main} for {@code commands}. */
    static String[] join(List<String[]> commands) {
        List<String> out = new ArrayList<>();
        for (String[] c : commands) {
            if (!out.isEmpty()) {
                out.add(";;");
            }
            out.addAll(List.of(c));
        }
        return out.toArray(new String[0]);
    }
}
