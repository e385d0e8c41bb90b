package io.nccldoctor.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A one-line progress report on stderr for long work: what, how far, how long so far, and the time left (ETA) where the
 * amount of work is known. Drawn only on a terminal ({@link Terminal}); into a pipe or a log it writes nothing, so no
 * carriage return or escape sequence ever reaches a file. Redrawn at most five times a second. Lines the verb prints
 * meanwhile go through {@link #println} so that they do not collide with it.
 */
final class Progress implements AutoCloseable {

    /** Where progress is drawn: stderr on a terminal, or a fake one in tests. */
    interface Screen {
        boolean terminal();

        /** Replaces the progress line with {@code text} (empty: clears it). */
        void draw(String text);
    }

    private static final long REDRAW_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Work of unknown length shows nothing for its first second: most runs end before anyone waits. */
    private static final long QUIET_NS = TimeUnit.SECONDS.toNanos(1);

    private final Screen screen;
    private final LongSupplier nanos;
    private final String what;
    private final String unit; // null: the work is time itself, so no "3/12" count
    private final long total;
    private final long started;
    private long done;
    private long drawnAt = Long.MIN_VALUE;
    private boolean shown;
    private boolean closed;

    Progress(Screen screen, LongSupplier nanos, String what, long total, String unit) {
        this.screen = screen;
        this.nanos = nanos;
        this.what = what;
        this.total = total;
        this.unit = unit;
        this.started = nanos.getAsLong();
    }

    /** Progress over {@code total} units of work (0: unknown, the time so far only), on this process's stderr. */
    static Progress onStderr(PrintWriter err, String what, long total, String unit) {
        return new Progress(stderr(err), System::nanoTime, what, total, unit);
    }

    /** A fixed wait of {@code millis} (counters --interval): the time itself is the work, redrawn from a timer. */
    static Progress timed(PrintWriter err, String what, long millis) {
        Progress p = new Progress(stderr(err), System::nanoTime, what, millis, null);
        p.timer(true);
        return p;
    }

    /** Work of unknown length (a child process, a reading of many files): the time so far, redrawn from a timer. */
    static Progress elapsed(PrintWriter err, String what) {
        Progress p = new Progress(stderr(err), System::nanoTime, what, 0, null);
        p.timer(false);
        return p;
    }

    private void timer(boolean timeIsWork) {
        if (!screen.terminal()) {
            return;
        }
        Thread t = new Thread(() -> {
            while (!isClosed()) {
                if (timeIsWork) {
                    set(TimeUnit.NANOSECONDS.toMillis(nanos.getAsLong() - started));
                } else {
                    tick();
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "nccl-doctor-progress");
        t.setDaemon(true);
        t.start();
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /** stderr as a screen: a terminal only when file descriptor 2 is one and TERM is not dumb. */
    static Screen stderr(PrintWriter err) {
        boolean terminal = Terminal.isTerminal(2) && !"dumb".equals(System.getenv("TERM"));
        return new Screen() {
            @Override
            public boolean terminal() {
                return terminal;
            }

            @Override
            public void draw(String text) {
                err.print("\r\u001b[K" + text);
                err.flush();
            }
        };
    }

    /** {@code done} units finished; redraws if enough time has passed. */
    synchronized void set(long done) {
        this.done = done;
        tick();
    }

    /** Redraws if enough time has passed (for work measured in time, from a timer). */
    synchronized void tick() {
        long now = nanos.getAsLong();
        if (closed || !screen.terminal() || now - drawnAt < REDRAW_NS && drawnAt != Long.MIN_VALUE
                || total == 0 && now - started < QUIET_NS) {
            return;
        }
        drawnAt = now;
        shown = true;
        screen.draw(line(now));
    }

    /** The progress line: "sweep: 3/12 children, 25 %, 0:42 so far, about 2:06 left". */
    String line(long now) {
        long elapsed = now - started;
        StringBuilder s = new StringBuilder(what).append(": ");
        if (total > 0) {
            long pct = Math.min(100, done * 100 / total);
            if (unit != null) {
                s.append(done).append('/').append(total).append(unit.isEmpty() ? "" : " " + unit).append(", ");
            }
            s.append(pct).append(" %, ");
        }
        s.append(clock(elapsed)).append(" so far");
        if (total > 0 && done > 0 && done < total) {
            s.append(", about ").append(clock(elapsed / done * (total - done))).append(" left");
        }
        return s.toString();
    }

    /** Prints a line of the verb's output: the progress line cleared first, redrawn after. */
    synchronized void println(PrintWriter out, String line) {
        if (shown) {
            screen.draw("");
        }
        out.println(line);
        out.flush();
        if (shown) {
            drawnAt = Long.MIN_VALUE;
            tick();
        }
    }

    /**
     * {@code out} as the verb's own output while progress is shown: each write clears the progress line first (the
     * timer draws it again), so the two never share a line of the terminal.
     */
    PrintWriter guard(PrintWriter out) {
        if (!screen.terminal()) {
            return out;
        }
        return new PrintWriter(new Writer() {
            @Override
            public void write(char[] buf, int off, int len) {
                synchronized (Progress.this) {
                    if (shown) {
                        screen.draw("");
                        shown = false;
                    }
                    out.write(buf, off, len);
                }
            }

            @Override
            public void flush() {
                out.flush();
            }

            @Override
            public void close() {
                out.flush();
            }
        }, true);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (shown) {
            screen.draw("");
            shown = false;
        }
    }

    static String clock(long nanos) {
        long s = TimeUnit.NANOSECONDS.toSeconds(nanos);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
