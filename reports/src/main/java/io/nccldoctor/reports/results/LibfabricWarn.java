package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * libfabric warned in an NCCL log: the layer under aws-ofi-nccl (NCCL's network plugin for EFA and other libfabric
 * providers) said something went wrong, in lines NCCL's own WARN count does not hold.
 */
public final class LibfabricWarn extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("LIBFABRIC_WARN", Severity.WARN,
            "libfabric, under the network plugin, warned: a provider found no interface, or refused what the plugin asked",
            "aws-ofi-nccl carries NCCL's network traffic over libfabric (EFA on AWS, other providers elsewhere). libfabric logs "
                    + "on its own, 'libfabric:PID:TIME::PROVIDER:SUBSYSTEM:FUNCTION():LINE<warn> MESSAGE' (ofi_log, src/log.c "
                    + "of ofiwg/libfabric), without NCCL's prefix, so NCCL's WARN lines and its 'Using network' line can look "
                    + "healthy while the provider underneath is not. 'fi_getinfo: provider efa output empty list' is libfabric's "
                    + "core saying the EFA provider answered with no interface matching what was asked (src/fabric.c): for "
                    + "that request the process has no usable EFA device. 'FI_OPT_SHARED_MEMORY_PERMITTED set to false' is the plugin turning "
                    + "off libfabric's shared-memory path on purpose (an INFO line in later libfabric releases) and is counted "
                    + "apart, not judged.",
            "libfabric '<warn>' lines in the log, counted per provider, function and message",
            "For 'output empty list' from the efa provider: check that the EFA devices are visible where the job runs (`fi_info "
                    + "-p efa`, /dev/infiniband in the container, the efa kernel module, the instance type's EFA count) and "
                    + "that FI_PROVIDER, if set, names efa. For other messages: rerun with FI_LOG_LEVEL=warn (or info) and "
                    + "read them with the plugin's and NCCL's lines around them.");

    public LibfabricWarn() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<NcclLog.LibfabricWarning> judged = log.libfabricWarnings().warnings().stream().filter(w -> !w.harmless()).toList();
        if (judged.isEmpty()) {
            return Optional.empty();
        }
        long lines = judged.stream().mapToLong(NcclLog.LibfabricWarning::count).sum();
        List<String> evidence = new ArrayList<>();
        for (NcclLog.LibfabricWarning w : log.libfabricWarnings().warnings()) {
            evidence.add(w.provider() + " " + w.function() + ": " + w.message() + ", " + w.count() + (w.count() == 1 ? " line" : " lines")
                    + (w.harmless() ? " (the plugin's own choice, not judged)" : ""));
        }
        long listed = log.libfabricWarnings().warnings().stream().mapToLong(NcclLog.LibfabricWarning::count).sum();
        if (log.libfabricWarnings().count() > listed) {
            evidence.add(log.libfabricWarnings().count() - listed + " more libfabric warning lines past the first "
                    + log.libfabricWarnings().warnings().size() + " kinds kept");
        }
        evidence.add("first: " + judged.get(0).line());
        evidence.add("source: " + name);
        NcclLog.LibfabricWarning first = judged.get(0);
        return Optional.of(finding(name, lines + " libfabric warning" + (lines == 1 ? "" : "s") + ": " + first.provider() + " "
                + first.message() + (judged.size() > 1 ? " and " + (judged.size() - 1) + " more kinds" : ""), evidence));
    }
}
