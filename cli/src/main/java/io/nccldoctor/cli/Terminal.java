package io.nccldoctor.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What goes to a terminal and what does not. Colour and progress only where the stream is a terminal (its file
 * descriptor links to /dev/pts or /dev/tty), TERM is not "dumb" and NO_COLOR (no-color.org) is unset; into a file, a
 * pipe or a log, never an escape sequence or a carriage return. Every verb's terminal text is wrapped at
 * {@link Wrap#TICKET} columns so that it pastes into a ticket as it reads on the screen.
 */
final class Terminal {

    private Terminal() {
    }

    /** Whether stdout wants colour. */
    static boolean colour() {
        return colour(isTerminal(1), System.getenv());
    }

    static boolean colour(boolean terminal, Map<String, String> env) {
        String term = env.get("TERM");
        return terminal && env.get("NO_COLOR") == null && term != null && !term.equals("dumb");
    }

    /** Whether file descriptor {@code fd} of this process is a terminal (Linux: /proc/self/fd/N). */
    static boolean isTerminal(int fd) {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** A verb's terminal text as stdout gets it: wrapped for tickets, the verdicts coloured on a terminal. */
    static String show(String text) {
        return show(text, colour());
    }

    static String show(String text, boolean colour) {
        String wrapped = Wrap.lines(text, Wrap.TICKET);
        return colour ? Verdicts.paint(wrapped) : wrapped;
    }
}
