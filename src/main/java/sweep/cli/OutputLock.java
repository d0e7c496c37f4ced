package sweep.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import mpi.MPI;
import mpi.MPIException;
import sweep.io.IoErrors;

/**
 * One run at a time in an output folder: the lock file {@value #NAME} in the folder, made atomically (it must not
 * exist yet) and holding its holder's pid, host and start time, removed when the run ends, also when it fails. A
 * folder locked by a live process, or from another host, is refused naming the holder; a lock left by a process of
 * this host that has ended (killed) is taken over with a note. Under MPI only world rank 0 takes the lock and runs the
 * checks given to {@link #check}; every rank learns the outcome, so that all ranks refuse together, and rank 0 has
 * released the lock before any rank can end the job.
 */
final class OutputLock implements AutoCloseable {
    /** The lock file's name in the output folder. */
    static final String NAME = ".sweep.lock";

    private final Path file;
    private final Path made;
    private final boolean mpi;
    /** Removes the lock when the JVM is ended (Ctrl-C, SIGTERM from mpirun) before {@link #close}; null on others. */
    private final Thread onExit;

    private OutputLock(Path file, Path made, boolean mpi) {
        this.file = file;
        this.made = made;
        this.mpi = mpi;
        this.onExit = file == null ? null : new Thread(() -> delete(file), "sweep-lock-release");
        if (onExit != null) {
            Runtime.getRuntime().addShutdownHook(onExit);
        }
    }

    /**
     * Takes the lock of the output folder {@code dir} given by {@code what} (e.g. "--out"): on world rank 0 (on the
     * only rank without MPI) runs {@code prepare}, the folder's checks, which may make it, then makes the lock file.
     * A refusal is every rank's (collective under MPI). A folder made here is removed again on {@link #close} when
     * the run left it empty.
     */
    static OutputLock take(Path dir, String what, Runnable prepare, boolean mpi) {
        boolean root = rank(mpi) == 0;
        Path file = dir.resolve(NAME);
        boolean made = root && !Files.isDirectory(dir);
        RuntimeException failure = null;
        if (root) {
            try {
                prepare.run();
                create(file, what);
            } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
                failure = e;
                if (made) {
                    removeIfEmpty(dir);
                }
            }
        }
        refuseTogether(failure, mpi);
        return new OutputLock(root ? file : null, made ? dir : null, mpi);
    }

    /**
     * Runs {@code check} on world rank 0 (without MPI: here) and makes its outcome every rank's: when it refuses, the
     * lock is released first, then every rank throws its message (collective under MPI).
     */
    void check(Runnable check) {
        RuntimeException failure = null;
        if (file != null) {
            try {
                check.run();
            } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
                failure = e;
                close();
            }
        }
        refuseTogether(failure, mpi);
    }

    /** Removes the lock file (rank 0), and the folder when this run made it and left it empty. */
    @Override
    public void close() {
        if (file == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook removes the lock
        }
        delete(file);
        if (made != null) {
            removeIfEmpty(made);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            System.err.println("sweep: warning: cannot remove the lock " + file + " (" + IoErrors.reason(e)
                    + "): delete it before the next run into that folder");
        }
    }

    private static void removeIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // not empty (the run wrote into it) or not ours to remove: it stays
        }
    }

    /** Makes the lock file, taking over a stale one once; refuses a folder another run holds. */
    private static void create(Path file, String what) {
        String mine = "pid " + ProcessHandle.current().pid() + "\nhost " + host() + "\n"
                + ProcessHandle.current().info().startInstant().map(t -> "started " + t + "\n").orElse("");
        for (int attempt = 0; ; attempt++) {
            try {
                Files.writeString(file, mine, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
                return;
            } catch (FileAlreadyExistsException e) {
                Map<String, String> holder = read(file);
                if (holder == null && attempt < 10) {
                    continue; // removed meanwhile: try again
                }
                holder = holder == null ? Map.of() : holder;
                String who = "pid " + holder.getOrDefault("pid", "?") + " on host " + holder.getOrDefault("host", "?")
                        + (holder.containsKey("started") ? ", started " + holder.get("started") : "");
                if (attempt == 0 && ended(holder)) {
                    System.err.println("sweep: note: " + what + ": taking over the stale lock " + file + " of " + who
                            + ", which has ended");
                    try {
                        Files.deleteIfExists(file);
                    } catch (IOException d) {
                        throw new IllegalArgumentException(what + ": cannot remove the stale lock " + file + " ("
                                + IoErrors.reason(d) + "): delete it, then run again");
                    }
                    continue;
                }
                String other = host().equals(holder.get("host")) ? "" : "; if no run uses that folder any more,"
                        + " delete " + file;
                throw new IllegalArgumentException(what + ": " + file.getParent() + " is in use by another run ("
                        + who + ", lock " + file + "): wait for it to end or choose another output folder" + other);
            } catch (IOException e) {
                throw new IllegalArgumentException(what + ": cannot make the lock file " + file + " ("
                        + IoErrors.reason(e) + "); choose a folder you can write to");
            }
        }
    }

    /** The lock's "key value" lines; null when it is gone. */
    private static Map<String, String> read(Path file) {
        Map<String, String> m = new HashMap<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int sp = line.indexOf(' ');
                if (sp > 0) {
                    m.put(line.substring(0, sp), line.substring(sp + 1).strip());
                }
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            // unreadable: no holder known, so not stale
        }
        return m;
    }

    /**
     * Whether the lock's holder has ended: it ran on this host and no process of its pid runs now (or one started at
     * another time: the pid was reused). A lock that names no pid (being written, or damaged) has not.
     */
    private static boolean ended(Map<String, String> holder) {
        if (!host().equals(holder.get("host"))) {
            return false;
        }
        long pid;
        try {
            pid = Long.parseLong(holder.getOrDefault("pid", ""));
        } catch (NumberFormatException e) {
            return false;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return true;
        }
        String started = holder.get("started");
        Optional<Instant> now = p.get().info().startInstant();
        return started != null && now.isPresent() && !now.get().toString().equals(started);
    }

    /** This machine's name, as the lock records it (the kernel's host name, without a DNS lookup, on Linux). */
    static String host() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException u) {
                return "localhost";
            }
        }
    }

    private static int rank(boolean mpi) {
        try {
            return mpi ? MPI.COMM_WORLD.getRank() : 0;
        } catch (MPIException e) {
            throw new IllegalStateException("MPI failed to give this process's rank: " + e.getMessage());
        }
    }

    /**
     * Throws rank 0's {@code failure} on every rank: rank 0 broadcasts its message (none: go on), the others throw it
     * as theirs. Collective under MPI; without MPI throws {@code failure} when there is one.
     */
    private static void refuseTogether(RuntimeException failure, boolean mpi) {
        if (mpi) {
            try {
                byte[] text = failure == null ? new byte[0] : String.valueOf(failure.getMessage())
                        .getBytes(StandardCharsets.UTF_8);
                int[] len = {failure == null ? -1 : text.length};
                MPI.COMM_WORLD.bcast(len, 1, MPI.INT, 0);
                if (len[0] >= 0 && failure == null) {
                    text = new byte[len[0]];
                    MPI.COMM_WORLD.bcast(text, len[0], MPI.BYTE, 0);
                    throw new IllegalArgumentException(new String(text, StandardCharsets.UTF_8));
                }
                if (len[0] >= 0) {
                    MPI.COMM_WORLD.bcast(text, len[0], MPI.BYTE, 0);
                }
            } catch (MPIException e) {
                throw new IllegalStateException("MPI failed to share the output folder's checks: " + e.getMessage());
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
