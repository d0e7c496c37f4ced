package sweep.cli;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar for long loops (me.tongfei:progressbar on standard error), shown only on an interactive terminal and
 * only by the rank that reports (rank 0): in logs and on other ranks it is silent, and lines go to standard output
 * as they are.
 */
final class Progress {
    private final boolean shown;
    private ProgressBar bar;
    private String task;

    /** {@code reporting}: whether this process reports at all (rank 0). */
    Progress(boolean reporting) {
        this.shown = reporting && System.console() != null;
    }

    /** Starts (or continues) a bar named {@code name} of {@code max} steps. */
    void start(String name, int max) {
        if (!shown || name.equals(task)) {
            return;
        }
        finish();
        task = name;
        bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(max).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).build();
    }

    /** Moves the bar to {@code done} steps, with a short message. */
    void step(int done, String message) {
        if (bar != null) {
            bar.stepTo(done);
            bar.setExtraMessage(message);
        }
    }

    /** Prints a line to standard output above the bar. */
    void println(String line) {
        if (bar != null) {
            System.out.print("\r\033[K");
        }
        System.out.println(line);
        System.out.flush();
    }

    /** Closes the current bar. */
    void finish() {
        if (bar != null) {
            bar.close();
            bar = null;
            task = null;
        }
    }
}
