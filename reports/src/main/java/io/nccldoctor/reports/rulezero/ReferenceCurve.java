package io.nccldoctor.reports.rulezero;

import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;

/**
 * A reference sweep as the report shows it: where it came from and its out-of-place busbw per size.
 *
 * @param label      the sweep's label
 * @param source     its file
 * @param tool       "nccl-tests", "nccl-tests -J" (or "nccl-doctor run" when a run was given as the reference)
 * @param collective as the output names it
 * @param ranks      the world size
 * @param points     sizes above 0 B, ascending
 */
public record ReferenceCurve(String label, String source, String tool, Fact<String> collective, Fact<Integer> ranks, List<Point> points) {

    public ReferenceCurve {
        points = List.copyOf(points);
    }

    public record Point(long bytes, double busBwGBps) {
    }

    static ReferenceCurve of(Sweep s) {
        return new ReferenceCurve(s.label(), s.source(), s.tool(), s.collective(), s.ranks(), References.usable(s).stream()
                .map(r -> new Point(r.sizeBytes(), r.outOfPlace().busBwGBps())).toList());
    }

    /** Whether it measured this collective on this many ranks. */
    boolean covers(String collective, int ranks) {
        return this.collective.orElse("").equals(collective) && this.ranks.orElse(0) == ranks;
    }
}
