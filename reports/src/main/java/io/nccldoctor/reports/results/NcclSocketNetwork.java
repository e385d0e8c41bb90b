package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Network channels over TCP sockets: on a cluster with RDMA NICs, a fallback that caps every collective. */
public final class NcclSocketNetwork extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_NET_SOCKET", Severity.WARN,
            "NCCL's network channels go through TCP sockets (NET/Socket)",
            "NCCL used its socket transport between nodes: every byte crosses the kernel's TCP stack and host memory, "
                    + "a few GB/s at best. On a cluster with InfiniBand or RoCE NICs this is a fallback: the IB transport "
                    + "found no usable device, was disabled, or a network plugin failed to load. On an Ethernet-only "
                    + "cluster it is the expected path, and the numbers should be judged against it.",
            "channel lines 'via NET/Socket/…', 'Using network Socket', and the NET/IB and NET/Plugin lines before them",
            "Check NCCL_IB_DISABLE and NCCL_NET, the IB devices and their ports (`nccl-doctor gdr`, `ibv_devinfo`), "
                    + "NCCL_IB_HCA, and the plugin lines of the log; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.");

    public NcclSocketNetwork() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<String> evidence = new ArrayList<>();
        long socket = channels(log, t -> t.startsWith("NET/Socket"), evidence);
        if (socket == 0) {
            return Optional.empty();
        }
        log.networks().forEach(n -> evidence.add("NCCL: " + n));
        evidence.add("source: " + name);
        return Optional.of(finding(name, socket + " network channel connection" + (socket == 1 ? "" : "s") + " over TCP sockets",
                evidence));
    }
}
