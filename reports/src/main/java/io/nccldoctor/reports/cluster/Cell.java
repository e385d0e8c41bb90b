package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import java.util.Objects;
import java.util.function.Function;

/**
 * One node's value of one attribute, or why it is unknown. Only values are compared: an unknown cell (the snapshot
 * lacks the section, the probe failed, the node lacks the device) is shown with its reason and never counted towards
 * a majority or marked odd, so a missing fact is never turned into a guess.
 *
 * @param value   the value as shown and compared; null when unknown
 * @param unknown why there is no value; null when there is one
 */
public record Cell(String value, String unknown) {

    public Cell {
        if ((value == null) == (unknown == null)) {
            throw new IllegalArgumentException("a cell holds a value or a reason, not both or neither");
        }
    }

    public static Cell of(String value) {
        return new Cell(Objects.requireNonNull(value), null);
    }

    public static Cell unknown(String reason) {
        return new Cell(null, Objects.requireNonNull(reason));
    }

    /**
     * A probe's fact: its value shown by {@code show}; an absent fact (the thing is not there: no module loaded, no
     * library found) as the value {@code "none (reason)"}, which is compared like any value; an error as unknown.
     */
    public static <T> Cell of(Fact<T> f, Function<T, String> show) {
        if (f.isValue()) {
            return of(show.apply(f.get()));
        }
        return f.isAbsent() ? of("none (" + f.reason() + ")") : unknown(f.reason());
    }

    public static <T> Cell of(Fact<T> f) {
        return of(f, String::valueOf);
    }

    /** A fact whose only meaningful form is its value: absent and error alike are unknown. */
    public static <T> Cell known(Fact<T> f, Function<T, String> show) {
        return f.isValue() ? of(show.apply(f.get())) : unknown(f.reason());
    }

    public boolean known() {
        return value != null;
    }

    /** The value, or "unknown (reason)". */
    public String show() {
        return known() ? value : "unknown (" + unknown + ")";
    }
}
