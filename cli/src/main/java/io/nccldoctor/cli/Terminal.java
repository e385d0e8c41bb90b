package io.nccldoctor.cli;

/** Whether stdout is a terminal that wants colour: a console, TERM not dumb, NO_COLOR unset. */
final class Terminal {

    private Terminal() {
    }

    static boolean colour() {
        String term = System.getenv("TERM");
        return System.console() != null && System.getenv("NO_COLOR") == null && term != null && !term.equals("dumb");
    }
}
