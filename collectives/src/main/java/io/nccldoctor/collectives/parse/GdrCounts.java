package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** GPU Direct RDMA decision lines counted by kind (enabled, distance, comparison, threshold, wording), in first-seen order. */
final class GdrCounts {

    private final Map<String, NcclLog.GdrCount> kinds = new LinkedHashMap<>();
    private final Map<String, long[]> counts = new LinkedHashMap<>();
    /** The last kind counted: consecutive decisions are mostly alike. */
    private NcclLog.GdrCount last;
    private long[] lastCount;

    void add(NcclLog.GdrCount d) {
        if (d == last) {
            lastCount[0] += d.count();
            return;
        }
        String key = d.key();
        long[] c = counts.get(key);
        if (c == null) {
            c = new long[1];
            counts.put(key, c);
            kinds.put(key, d);
        }
        c[0] += d.count();
        last = d;
        lastCount = c;
    }

    void absorb(GdrCounts o) {
        o.kinds.forEach((key, d) -> add(new NcclLog.GdrCount(d.enabled(), d.distance(), d.relation(), d.threshold(), d.wording(),
                o.counts.get(key)[0])));
        last = null;
    }

    List<NcclLog.GdrCount> build() {
        List<NcclLog.GdrCount> out = new ArrayList<>();
        kinds.forEach((key, d) -> out.add(new NcclLog.GdrCount(d.enabled(), d.distance(), d.relation(), d.threshold(), d.wording(),
                counts.get(key)[0])));
        return List.copyOf(out);
    }
}
