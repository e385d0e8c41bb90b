package io.nccldoctor.core;

/**
 * One probe: a stable key (the snapshot section it fills), a one-line description, and {@link #run} that
 * returns typed facts. A probe reports what is there and why something is missing; it never judges.
 */
public interface Probe<T> {

    String key();

    String description();

    T run(Host host);
}
