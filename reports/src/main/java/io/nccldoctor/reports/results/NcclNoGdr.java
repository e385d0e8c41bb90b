package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.parsed.GdrReading;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** RDMA network channels without GPU Direct RDMA: each transfer staged through host memory. */
public final class NcclNoGdr extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_NO_GDRDMA", Severity.WARN,
            "NCCL's RDMA channels do not use GPU Direct RDMA",
            "A network channel says 'via NET/IB/0' where a GPU Direct RDMA one says 'via NET/IB/0/GDRDMA': the NIC "
                    + "reads and writes a bounce buffer in host memory and the GPU copies to and from it, which costs "
                    + "PCIe bandwidth and latency on every transfer. NCCL decides per GPU and NIC: the NIC must reach GPU "
                    + "memory (nvidia-peermem or DMA-BUF, its 'GPU Direct RDMA … for HCA' line) and the PCIe path must be "
                    + "close enough (NCCL_NET_GDR_LEVEL, PXB by default; its 'distance D > T' lines).",
            "channel transports of the log, each NIC's 'NET/IB : GPU Direct RDMA … for HCA n' line, and the GDR "
                    + "decision lines with their distances",
            "Load nvidia-peermem or use a DMA-BUF capable kernel and driver; check the GPU-NIC path (`nccl-doctor topo`: "
                    + "a PHB or SYS path is beyond the default level); set NCCL_NET_GDR_LEVEL only when the platform is known "
                    + "to carry peer traffic through the root complex.");

    public NcclNoGdr() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<String> evidence = new ArrayList<>();
        long plain = channels(log, t -> t.startsWith("NET/") && !t.startsWith("NET/Socket") && !t.contains("/GDRDMA"), evidence);
        // a socket NIC never does GPU Direct RDMA: that the network is sockets is NCCL_NET_SOCKET's finding
        long disabledNics = log.nicGdr().stream().filter(n -> !n.enabled() && !n.socket()).count();
        if (plain == 0 && disabledNics == 0) {
            return Optional.empty();
        }
        log.nicGdr().stream().filter(n -> !n.enabled() && !n.socket())
                .forEach(n -> evidence.add("NIC " + n.hca() + " (NET/" + n.net() + "): GPU Direct RDMA disabled: " + n.meaning()));
        log.gdr().stream().filter(g -> !g.enabled()).limit(8).forEach(g -> {
            evidence.add("GPU " + g.gpu() + " / NIC " + g.hca() + ": distance " + g.distance() + " " + g.relation() + " " + g.threshold());
            evidence.add("GPU " + g.gpu() + " / NIC " + g.hca() + ": " + GdrReading.of(g.distance(), g.relation(), g.threshold(), g.wording(), log));
        });
        log.gdrDecisions().stream().filter(c -> !c.enabled())
                .forEach(c -> evidence.add(c.count() + " decision lines disabled at distance " + c.distance() + " " + c.relation() + " "
                        + c.threshold()));
        evidence.add("source: " + name);
        String title = plain > 0 ? plain + " RDMA channel connection" + (plain == 1 ? "" : "s") + " without GPU Direct RDMA"
                : disabledNics + " NIC" + (disabledNics == 1 ? "" : "s") + " without GPU Direct RDMA support";
        return Optional.of(finding(name, title, evidence));
    }
}
