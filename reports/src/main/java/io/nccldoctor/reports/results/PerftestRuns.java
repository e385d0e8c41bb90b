package io.nccldoctor.reports.results;

import io.nccldoctor.gdr.PerftestRun;
import io.nccldoctor.reports.Outcome;
import java.util.List;
import java.util.Objects;

/** The perftest runs among a report's inputs, for the rules that judge them. */
final class PerftestRuns {

    private PerftestRuns() {
    }

    /** Why a perftest rule has nothing to judge. */
    static final Outcome NONE = Outcome.waived("no perftest output given (`nccl-doctor report FILE` with an ib_*_bw or ib_*_lat output)");

    /** The runs, in input order. */
    static List<PerftestRun> in(ResultSet results) {
        return results.nodes().stream().map(s -> s.section(PerftestRun.KEY, PerftestRun.class)).filter(Objects::nonNull).toList();
    }
}
