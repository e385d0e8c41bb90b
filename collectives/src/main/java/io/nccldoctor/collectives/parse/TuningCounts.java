package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NCCL's algorithm and protocol per collective and size (NCCL_DEBUG_SUBSYS=TUNING), counted: lines read as strings are
 * added one by one; lines counted from bytes are counted by their text from the collective to the protocol
 * ("AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE"), a string per line and a map lookup, where the line path costs a
 * dozen searches of the line. The first time a text is seen it is read and its choice registered in order; the counts
 * are added when folded.
 */
final class TuningCounts {

    /** Tuning choices by collective, size, algorithm and protocol; at most {@link #KEEP} of them. */
    private final Map<String, NcclLog.Tuning> tuning = new LinkedHashMap<>();
    private static final int KEEP = 4096;
    private final Map<String, long[]> spans = new HashMap<>();
    private final Map<String, NcclLog.Tuning> spanChoices = new HashMap<>();

    /** Counts a tuning choice; a new one past the limit is dropped (a log of thousands of sizes keeps the first). */
    void add(NcclLog.Tuning t) {
        NcclLog.Tuning seen = tuning.get(t.key());
        if (seen != null) {
            tuning.put(t.key(), seen.plus(t.count()));
        } else if (tuning.size() < KEEP) {
            tuning.put(t.key(), t);
        }
    }

    /** Counts a line by its text (its shape checked by the block scanner). */
    void addSpan(String span, Map<String, Long> algorithms) {
        long[] calls = spans.get(span);
        if (calls == null) {
            calls = new long[1];
            spans.put(span, calls);
            NcclLog.Tuning t = LogMessages.tuning(span).orElseThrow(); // the shape was just checked
            spanChoices.put(span, t);
            add(new NcclLog.Tuning(t.collective(), t.bytes(), t.algorithm(), t.protocol(), 0));
            algorithms.putIfAbsent(t.algorithm() + "/" + t.protocol(), 0L);
        }
        calls[0]++;
    }

    /** Adds the calls counted from bytes to their choices (kept or dropped as when they were first seen). */
    void fold(Map<String, Long> algorithms) {
        for (Map.Entry<String, long[]> e : spans.entrySet()) { // loops, here and below: no lambda to link, once per range
            long calls = e.getValue()[0];
            NcclLog.Tuning t = spanChoices.get(e.getKey());
            add(new NcclLog.Tuning(t.collective(), t.bytes(), t.algorithm(), t.protocol(), calls));
            String algorithm = t.algorithm() + "/" + t.protocol();
            Long before = algorithms.get(algorithm);
            algorithms.put(algorithm, before == null ? calls : before + calls);
        }
        spans.clear();
        spanChoices.clear();
    }

    void absorb(TuningCounts o) {
        for (NcclLog.Tuning t : o.tuning.values()) {
            add(t);
        }
    }

    List<NcclLog.Tuning> sorted() {
        List<NcclLog.Tuning> chosen = new ArrayList<>(tuning.values());
        if (chosen.size() > 1) {
            chosen.sort(TuningCounts::order);
        }
        return chosen;
    }

    /**
     * By collective, size, algorithm and protocol. Written out: Comparator.comparing and thenComparing make lambdas inside
     * the Comparator interface, which the class-data archive does not hold, so each is generated at every start (milliseconds).
     */
    private static int order(NcclLog.Tuning a, NcclLog.Tuning b) {
        int c = a.collective().orElse("").compareTo(b.collective().orElse(""));
        if (c == 0) {
            c = Long.compare(a.bytes(), b.bytes());
        }
        if (c == 0) {
            c = a.algorithm().compareTo(b.algorithm());
        }
        return c != 0 ? c : a.protocol().compareTo(b.protocol());
    }
}
