package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** NCCL WARN lines in a log where no call is seen to fail: what went wrong that NCCL went on from, quoted. */
public final class NcclWarnLines extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_WARN_LINES", Severity.WARN,
            "NCCL printed WARN lines",
            "NCCL prints a WARN when something went wrong: a network plugin that found no device (aws-ofi-nccl's 'fi_getinfo() "
                    + "call failed'), a connection it could not make, a CUDA call that failed, a file it could not parse, the "
                    + "kernel parameters RCCL asks for. Where no error chain in the log reaches the top of a call "
                    + "(NCCL_CALL_FAILED), the job may have gone on: on another path, slower, or it failed after the lines "
                    + "given. A few WARNs NCCL itself calls harmless and later prints as INFO ('failed to IPC register userbuff', "
                    + "INFO from 2.26, NVIDIA/nccl#1684) are counted apart and raise nothing; IB completion errors and a "
                    + "missing libibverbs have rules of their own.",
            "'NCCL WARN' lines (with the source location NCCL prints before them), and the error chains that stop below a call",
            "Read the first WARN: it names the subsystem (NET/OFI, NET/IB, misc/socket.cc, a CUDA call). Rerun with "
                    + "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see what NCCL did next; a plugin that failed is judged "
                    + "with its network (`nccl-doctor explain NCCL_NET_PLUGIN_FALLBACK`).");

    public NcclWarnLines() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        NcclLog.Errors errors = log.errors();
        boolean callFailed = errors.failedChains() > 0 && log.ibErrors().isEmpty(); // NCCL_CALL_FAILED quotes them
        if (errors.warningCount() == 0 || callFailed) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        errors.warnings().forEach(w -> evidence.add("NCCL: " + w));
        if (errors.warningCount() > errors.warnings().size()) {
            evidence.add(errors.warningCount() - errors.warnings().size() + " more WARN lines");
        }
        errors.chains().stream().filter(c -> !c.failed()).limit(3).forEach(c -> evidence.add(NcclCallFailed.chain(c)
                + " (it stops below the call: NCCL went on, or the log is cut there)"));
        if (errors.harmlessCount() > 0) {
            evidence.add("not counted: " + errors.harmlessCount() + " WARN line" + (errors.harmlessCount() == 1 ? "" : "s")
                    + " NCCL calls harmless, the first: " + errors.harmless().get(0));
        }
        evidence.add("source: " + name);
        String first = errors.warnings().get(0);
        int at = first.indexOf("NCCL WARN ");
        String said = at < 0 ? first : first.substring(at + "NCCL WARN ".length());
        String title = (errors.warningCount() == 1 ? "NCCL warned: " : "NCCL warned " + errors.warningCount() + " times, first: ")
                + (said.length() > 120 ? said.substring(0, 117) + "…" : said);
        return Optional.of(finding(name, title, evidence));
    }
}
