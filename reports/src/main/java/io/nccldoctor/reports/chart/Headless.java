package io.nccldoctor.reports.chart;

/**
 * Makes AWT headless before this package touches it. Charts are drawn off screen; without this a JVM on a host with
 * $DISPLAY set tries to reach an X server. AWT reads the property once, on first use (java.awt.Color's class
 * initialiser is enough), so every class here that creates a colour, font or image calls {@link #ensure} first. An
 * explicit {@code -Djava.awt.headless=false} still wins.
 */
final class Headless {

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Headless() {
    }

    /** Does nothing; calling it runs the static initialiser above once. */
    static void ensure() {
    }
}
