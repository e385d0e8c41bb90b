package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** A detector over the NCCL debug logs among a report's inputs: one finding per log it flags, waived without logs. */
abstract class NcclLogRule implements ResultRule {

    private final RuleInfo info;

    NcclLogRule(RuleInfo info) {
        this.info = info;
    }

    @Override
    public RuleInfo info() {
        return info;
    }

    /** Counts the channel connections whose transport matches, adding an evidence line per such transport. */
    static long channels(NcclLog log, Predicate<String> which, List<String> evidence) {
        long n = 0;
        for (Map.Entry<String, Long> t : log.transports().entrySet()) {
            if (which.test(t.getKey())) {
                n += t.getValue();
                evidence.add(t.getValue() + " channel connections via " + t.getKey());
            }
        }
        return n;
    }

    /** The finding for one log (named as given), or empty when the log shows nothing of this kind. */
    abstract Optional<Finding> judge(String name, NcclLog log);

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        if (results.ncclLogs().isEmpty()) {
            return Outcome.waived("no NCCL debug log among the inputs (NCCL_DEBUG=INFO output, or nccl-tests output with it)");
        }
        List<Finding> found = new ArrayList<>();
        for (Map.Entry<String, NcclLog> e : results.ncclLogs().entrySet()) {
            judge(e.getKey(), e.getValue()).ifPresent(found::add);
        }
        return Outcome.flag(found);
    }
}
