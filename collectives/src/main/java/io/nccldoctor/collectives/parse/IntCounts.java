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
            last = counts.get(key);
            if (last == null) { // not computeIfAbsent: no lambda to link at the first line (before the JIT), here or below
                last = new long[1];
                counts.put(key, last);
            }
            lastKey = key;
        }
        last[0] += n;
    }

    void add(int key) {
        add(key, 1);
    }

    void absorb(IntCounts o) {
        for (Map.Entry<Integer, long[]> e : o.counts.entrySet()) {
            add(e.getKey(), e.getValue()[0]);
        }
    }

    /** The counts as a sorted map. */
    Map<Integer, Long> toMap() {
        Map<Integer, Long> out = new TreeMap<>();
        for (Map.Entry<Integer, long[]> e : counts.entrySet()) {
            out.put(e.getKey(), e.getValue()[0]);
        }
        return out;
    }
}
