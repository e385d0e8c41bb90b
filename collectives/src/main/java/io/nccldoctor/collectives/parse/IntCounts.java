package io.nccldoctor.collectives.parse;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts by an int (communicator sizes, node counts), in key order: a job's communicator lines mostly repeat one size,
 * so the last key's counter is kept at hand, and no Integer or Long is made per line.
 */
final class IntCounts {

    private final TreeMap<Integer, long[]> counts = new TreeMap<>();
    private int lastKey;
    private long[] last;

    void add(int key, long n) {
        if (last == null || key != lastKey) {
            last = counts.computeIfAbsent(key, k -> new long[1]);
            lastKey = key;
        }
        last[0] += n;
    }

    void add(int key) {
        add(key, 1);
    }

    void absorb(IntCounts o) {
        o.counts.forEach((k, v) -> add(k, v[0]));
    }

    /** The counts as a sorted map. */
    Map<Integer, Long> toMap() {
        Map<Integer, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v[0]));
        return out;
    }
}
