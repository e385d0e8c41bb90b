package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One fact as the pasted text states it, with the line that stated it. Sections of one paste were often taken at
 * different times, so a later section may disagree: the first statement is kept and the disagreement becomes a note,
 * never a silent overwrite.
 */
final class Slot<T> {

    /** A PCI function as sysfs and ethtool's bus-info write it: "0000:af:00.0". */
    static final Pattern PCI = Pattern.compile("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

    private final String what;
    private T value;
    private Line from;
    private String failure;
    /** Why the text holds no value though it printed the field: the tool's own word for "not known". */
    private String unknown;

    /** @param what the fact's name in notes: "mlx5_0 port 1 state" */
    Slot(String what) {
        this.what = what;
    }

    void set(T v, Line at, List<String> notes) {
        if (value == null) {
            value = v;
            from = at;
            failure = null;
        } else if (!Objects.equals(value, v)) {
            notes.add(what + ": " + value + " (" + from + ") but " + v + " (" + at + "); the first is kept");
        }
    }

    /** A value the text printed but this reader cannot read; kept unless a readable one comes. */
    void fail(String why, Line at) {
        if (value == null && failure == null) {
            failure = why + " (" + at + ")";
        }
    }

    /** The tool printed the field as not known (rdma link's "UNKNOWN"): absent with that reason, not a value misread. */
    void unknown(String why, Line at) {
        if (value == null && unknown == null) {
            unknown = why + " (" + at + ")";
        }
    }

    boolean isSet() {
        return value != null;
    }

    T value() {
        return value;
    }

    /** The line that stated the value; call only when {@link #isSet()}. */
    Line from() {
        return from;
    }

    Fact<T> fact(String absentReason) {
        if (value != null) {
            return Fact.of(value);
        }
        return failure != null ? Fact.error(failure) : Fact.absent(unknown != null ? unknown : absentReason);
    }

    /** Where a line of the paste came from: "ibstat, line 12". */
    record Line(RdmaKind kind, int number) {
        @Override
        public String toString() {
            return kind.key() + ", line " + number;
        }
    }
}
