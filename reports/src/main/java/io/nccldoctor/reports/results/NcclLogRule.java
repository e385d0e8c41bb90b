package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A detector over the NCCL debug logs among a report's inputs: one finding per log it flags, waived without logs. */
abstract class NcclLogRule implements ResultRule {

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
