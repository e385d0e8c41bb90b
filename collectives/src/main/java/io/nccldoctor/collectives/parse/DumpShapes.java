package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The dumps closed so far, by their numbers ({@link OpenDump#numbers}) and bandwidth texts: a job's processes
 * write the same dump for every communicator, so a dump whose numbers match one seen before counts where that one did,
 * without building its summary and looking it up by value. At most {@link #MAX} shapes; past that, and for a dump with a
 * bandwidth not yet named, the summary is built as before.
 */
final class DumpShapes {

    /** The counter of a dump that is not among the distinct ones kept. */
    static final long[] NOT_KEPT = new long[1];
    private static final int MAX = 256;

    private record Shape(String maxBw, String totalBw, long[] numbers, long[] counter) {
    }

    private final List<Shape> shapes = new ArrayList<>();
    private Shape last;
    private long[] scratch = new long[64];

    /** The counter of the dump {@code o} closing now, or null when no dump with its numbers was remembered. */
    long[] counter(OpenDump o, boolean complete) {
        scratch = o.numbers(scratch, complete);
        int n = o.numbersLength;
        if (last != null && same(last, o, n)) {
            return last.counter();
        }
        for (Shape s : shapes) {
            if (same(s, o, n)) {
                last = s;
                return s.counter();
            }
        }
        return null;
    }

    /** Remembers the counter of the dump just looked up in vain (when its bandwidths all had their texts). */
    void remember(OpenDump o, boolean complete, long[] counter, boolean named) {
        if (named && shapes.size() < MAX) {
            scratch = o.numbers(scratch, complete);
            last = new Shape(o.maxBw, o.totalBw, Arrays.copyOf(scratch, o.numbersLength), counter);
            shapes.add(last);
        }
    }

    private boolean same(Shape s, OpenDump o, int n) {
        return s.numbers().length == n && Arrays.equals(s.numbers(), 0, n, scratch, 0, n) && s.maxBw().equals(o.maxBw)
                && s.totalBw().equals(o.totalBw);
    }
}
