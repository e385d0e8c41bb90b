package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * RoCE port configuration: a RoCE v2 GID NCCL would choose, and an RDMA MTU of 4096 bytes with a net device MTU
 * that allows it.
 */
public final class RoceConfig implements Rule {

    static final RuleInfo NO_V2_GID = new RuleInfo("ROCE_NO_V2_GID", Severity.WARN,
            "a RoCE port has no RoCE v2 GID that NCCL would choose",
            "RoCE v2 (routable, UDP port 4791) needs a GID of type 'RoCE v2', which the kernel creates for each IP address "
                    + "of the port's net device. NCCL picks, unless NCCL_IB_GID_INDEX pins one, a RoCE v2 GID "
                    + "(NCCL_IB_ROCE_VERSION_NUM, default 2) that is neither link-local fe80:: nor unset, of the address "
                    + "family NCCL_IB_ADDR_FAMILY names (default AF_INET: an IPv4 address); finding none it falls back to "
                    + "GID index 0, the link-local RoCE v1 GID (NVIDIA/nccl src/transport/net_ib/connect.cc, "
                    + "ncclIbGetGidIndex and validGid). That works at best inside one L2 segment and without the lossless "
                    + "class that PFC/ECN give RoCE v2 by its DSCP; across subnets the QPs time out.",
            "the GID table of each RoCE port with each GID's type: gids/N and gid_attrs/types/N, show_gids, or ibv_devinfo -v",
            "Give the port's net device an IPv4 address (and bring it up); check with `show_gids` that an IPv4 row of type v2 "
                    + "appears; for IPv6-only RoCE set NCCL_IB_ADDR_FAMILY=AF_INET6; pin NCCL_IB_GID_INDEX only if the index "
                    + "is the same on every node.");
    static final RuleInfo MTU = new RuleInfo("ROCE_MTU_TOO_SMALL", Severity.WARN,
            "a RoCE port runs below a 4096-byte RDMA MTU, or its net device MTU is too small for one",
            "RoCE derives the RDMA MTU from the net device MTU (include/rdma/ib_addr.h iboe_get_mtu: the MTU less 96 bytes "
                    + "of RoCE headers, rounded down to 256, 512, 1024, 2048 or 4096): 1500 gives 1024-byte RDMA packets, four "
                    + "times the per-packet overhead of 4096, and 4096 needs at least 4192. NCCL's path MTU is the smaller "
                    + "active MTU of the two ends (NVIDIA/nccl src/transport/net_ib/connect.cc), so one node at 1024 slows "
                    + "its peers too. In the field report 1500 capped a 100G link at 83 Gbit/s. An MTU reset to 1500 after a "
                    + "reboot (a netplan or NetworkManager profile without mtu) is a classic.",
            "the mtu of each RoCE port's net device (/sys/class/net/NAME/mtu) against thresholds.roceMinMtu, and the port's "
                    + "active_mtu and max_mtu (ibv_devinfo)",
            "Set the MTU persistently (netplan `mtu: 9000`, nmcli, or the NIC's ifcfg) on the node and on the switch "
                    + "ports, then check `ibv_devinfo` active_mtu 4096.");

    /** IB_GRH_BYTES + IB_UDP_BYTES + IB_BTH_BYTES + IB_EXT_XRC_BYTES + IB_EXT_ATOMICETH_BYTES + IB_ICRC_BYTES (include/rdma/ib_pack.h). */
    static final int ROCE_HEADERS = 40 + 8 + 12 + 4 + 28 + 4;
    static final int IB_MTU_4096 = 4096;

    private final RuleInfo info;
    private final Predicate<RdmaPorts.Port> judgeable;
    private final String notJudgeable;
    private final BiFunction<RdmaPorts.Port, RuleContext, List<String>> problem;

    private RoceConfig(RuleInfo info, Predicate<RdmaPorts.Port> judgeable, String notJudgeable,
                       BiFunction<RdmaPorts.Port, RuleContext, List<String>> problem) {
        this.info = info;
        this.judgeable = judgeable;
        this.notJudgeable = notJudgeable;
        this.problem = problem;
    }

    public static RoceConfig v2Gid() {
        return new RoceConfig(NO_V2_GID, p -> p.port().gids().isValue() && (p.port().gids().get().isEmpty()
                || p.port().gids().get().stream().anyMatch(g -> g.type().isValue())),
                "no GID table with GID types read for a RoCE port (show_gids, ibv_devinfo -v since rdma-core 28, or sysfs)",
                (p, ctx) -> RoceGids.problem(p));
    }

    public static RoceConfig mtu() {
        return new RoceConfig(MTU, p -> p.port().activeMtu().isValue()
                || p.port().netdevs().orElse(List.of()).stream().anyMatch(n -> n.mtu().isValue()),
                "neither a net device MTU nor an active MTU read for a RoCE port", RoceConfig::mtuProblem);
    }

    private static List<String> mtuProblem(RdmaPorts.Port p, RuleContext ctx) {
        int min = ctx.config().thresholds().roceMtu();
        List<String> small = new ArrayList<>();
        RdmaDevices.RdmaPort port = p.port();
        for (RdmaDevices.Netdev n : port.netdevs().orElse(List.of())) {
            if (n.mtu().isValue() && n.mtu().get() < min) {
                small.add(n.name() + " mtu " + n.mtu().get() + " < " + min + " (thresholds.roceMinMtu)");
            }
            if (n.mtu().isValue() && port.activeMtu().isValue() && port.activeMtu().get() < rdmaMtu(n.mtu().get())) {
                small.add("active_mtu " + port.activeMtu().get() + " although " + n.name() + " mtu " + n.mtu().get() + " allows "
                        + rdmaMtu(n.mtu().get()));
            }
        }
        boolean hardwareAllows = port.maxMtu().orElse(IB_MTU_4096) >= IB_MTU_4096;
        if (port.activeMtu().isValue() && port.activeMtu().get() < IB_MTU_4096 && hardwareAllows) {
            small.add("active_mtu " + port.activeMtu().get() + " < " + IB_MTU_4096 + " (max_mtu " + port.maxMtu().describe() + ")");
        }
        return small;
    }

    /** The RDMA MTU a net device MTU allows (include/rdma/ib_addr.h iboe_get_mtu). */
    static int rdmaMtu(int netdevMtu) {
        int payload = netdevMtu - ROCE_HEADERS;
        for (int m = IB_MTU_4096; m >= 256; m /= 2) {
            if (payload >= m) {
                return m;
            }
        }
        return 0;
    }

    @Override
    public RuleInfo info() {
        return info;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var ports = RdmaPorts.of(s);
        if (ports.isEmpty()) {
            return Outcome.waived(RdmaPorts.whyNone(s));
        }
        List<RdmaPorts.Port> roce = ports.get().stream().filter(RdmaPorts.Port::roce).toList();
        if (roce.isEmpty()) {
            return Outcome.waived("no RoCE port (all InfiniBand, or no link layer read)");
        }
        List<RdmaPorts.Port> judged = roce.stream().filter(judgeable).toList();
        if (judged.isEmpty()) {
            return Outcome.waived(notJudgeable);
        }
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Port p : judged) {
            List<String> evidence = problem.apply(p, ctx);
            if (!evidence.isEmpty()) {
                findings.add(finding(p.label(), info.title().replaceFirst("^a RoCE port('s)? ", ""), evidence));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
