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

/**
 * A detector over the NCCL debug logs among a report's inputs: one finding per log it flags, waived without logs, and
 * waived with the reasons when no log is flagged and some could not be judged from what they show.
 */
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

    /**
     * Why a log this rule did not flag cannot be judged from what it shows ("it shows one host"), or empty when it was
     * judged; asked only of a log {@link #judge} did not flag.
     */
    Optional<String> notJudged(NcclLog log) {
        return Optional.empty();
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        if (results.ncclLogs().isEmpty()) {
            return Outcome.waived("no NCCL debug log among the inputs (NCCL_DEBUG=INFO output, or nccl-tests output with it)");
        }
        List<Finding> found = new ArrayList<>();
        List<String> notJudged = new ArrayList<>();
        for (Map.Entry<String, NcclLog> e : results.ncclLogs().entrySet()) {
            Optional<Finding> f = judge(e.getKey(), e.getValue());
            if (f.isPresent()) {
                found.add(f.get());
            } else {
                notJudged(e.getValue()).ifPresent(why -> notJudged.add(e.getKey() + ": " + why));
            }
        }
        if (found.isEmpty() && !notJudged.isEmpty()) {
            return Outcome.waived("not judged: " + String.join("; ", notJudged));
        }
        return Outcome.flag(found);
    }
}
