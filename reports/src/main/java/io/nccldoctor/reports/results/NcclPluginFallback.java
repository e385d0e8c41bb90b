package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A network plugin that was loaded but not used, or failed to initialise: the job runs on another transport. */
public final class NcclPluginFallback extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_NET_PLUGIN_FALLBACK", Severity.WARN,
            "a network plugin NCCL loaded was not used, or failed to initialise",
            "A net plugin (aws-ofi-nccl for EFA, the HPC-X RDMA/SHARP plugin, a vendor's) carries NCCL's traffic over the "
                    + "fabric it was built for. When its init fails or finds no device, NCCL disables it and goes on with "
                    + "its internal IB transport or sockets: up to 2.27 without a word (src/net.cc ncclNetPluginInit), since "
                    + "2.28 with 'Failed to initialize NET plugin …'. The job runs, on another path than the one planned: "
                    + "no SHARP, no EFA, or plain TCP.",
            "'Loaded net plugin … (vN)' and 'Failed to initialize NET plugin …' against 'Using network …'",
            "Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET and read the plugin's own lines (NET/OFI, NET/IB) for why "
                    + "its init failed: its libfabric or rdma-core, its devices, NCCL_NET_PLUGIN, the plugin's version against "
                    + "NCCL's. NCCL_NET=<plugin name> makes NCCL fail instead of falling back.");

    public NcclPluginFallback() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<String> fallbacks = log.network().fallbacks().stream().filter(f -> f.startsWith("the NET plugin") || f.startsWith("the net plugin")).toList();
        if (fallbacks.isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        fallbacks.forEach(f -> evidence.add("NCCL: " + f));
        log.networks().forEach(n -> evidence.add("NCCL: " + n));
        evidence.add("source: " + name);
        return Optional.of(finding(name, fallbacks.get(0), evidence));
    }
}
