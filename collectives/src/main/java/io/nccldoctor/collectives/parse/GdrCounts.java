package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** GPU Direct RDMA decision lines counted by kind (enabled, distance, comparison, threshold, wording), in first-seen order. */
final class GdrCounts {

    private final Map<String, NcclLog.GdrCount> kinds = new LinkedHashMap<>();
    private final Map<String, long[]> counts = new LinkedHashMap<>();
    /** The counter of each decision object (a remembered message gives the same object each time it repeats). */
    private final Map<NcclLog.GdrCount, long[]> byObject = new IdentityHashMap<>();
    /** The last kind counted: consecutive decisions are mostly alike. */
    private NcclLog.GdrCount last;
    private long[] lastCount;

    void add(NcclLog.GdrCount d) {
        if (d == last) {
            lastCount[0] += d.count();
            return;
        }
        long[] c = byObject.get(d);
        if (c == null) {
            String key = d.key();
            c = counts.get(key);
            if (c == null) {
                c = new long[1];
                counts.put(key, c);
                kinds.put(key, d);
            }
            byObject.put(d, c);
        }
        c[0] += d.count();
        last = d;
        lastCount = c;
    }

    void absorb(GdrCounts o) {
        for (Map.Entry<String, NcclLog.GdrCount> e : o.kinds.entrySet()) { // loops: no lambda to link, once per parse
            add(withCount(e.getValue(), o.counts.get(e.getKey())[0]));
        }
        last = null;
    }

    List<NcclLog.GdrCount> build() {
        List<NcclLog.GdrCount> out = new ArrayList<>();
        for (Map.Entry<String, NcclLog.GdrCount> e : kinds.entrySet()) {
            out.add(withCount(e.getValue(), counts.get(e.getKey())[0]));
        }
        return List.copyOf(out);
    }

    private static NcclLog.GdrCount withCount(NcclLog.GdrCount d, long count) {
        return new NcclLog.GdrCount(d.enabled(), d.distance(), d.relation(), d.threshold(), d.wording(), count);
    }
}
