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

/** RoCE port configuration: a RoCE v2 GID to route on, and a net device MTU that fits a 4096-byte RDMA path MTU. */
public final class RoceConfig implements Rule {

    static final RuleInfo NO_V2_GID = new RuleInfo("ROCE_NO_V2_GID", Severity.WARN,
            "a RoCE port has no RoCE v2 GID",
            "RoCE v2 (routable, UDP port 4791) needs a GID of type 'RoCE v2', which the kernel creates for each IP "
                    + "address of the port's net device. Without an IPv4/IPv6 address on the netdev there is only the "
                    + "link-local RoCE v1 GID, NCCL's automatic GID selection finds no v2 GID, and lossless classes "
                    + "(PFC/ECN on the DSCP of RoCE v2) do not apply.",
            "gids/N and gid_attrs/types/N of the port, and the IPv4 addresses of its net device",
            "Give the port's net device an IP address (and bring it up); check with `show_gids`; pin "
                    + "NCCL_IB_GID_INDEX only if the index is the same on every node.");
    static final RuleInfo MTU = new RuleInfo("ROCE_MTU_TOO_SMALL", Severity.WARN,
            "a RoCE port's net device MTU is too small for a 4096-byte RDMA MTU",
            "RoCE derives the RDMA path MTU from the net device MTU: 1500 gives 1024-byte RDMA packets, four times "
                    + "the per-packet overhead of 4096. In the field report that capped a 100G link at 83 Gbit/s. An "
                    + "MTU reset to 1500 after a reboot (a netplan or NetworkManager profile without mtu) is a classic.",
            "the mtu of each RoCE port's net device (/sys/class/net/NAME/mtu) against thresholds.roceMinMtu",
            "Set the MTU persistently (netplan `mtu: 9000`, nmcli, or the NIC's ifcfg) on the node and on the switch "
                    + "ports, then check `ibv_devinfo` active_mtu 4096.");

    private final RuleInfo info;
    private final BiFunction<RdmaPorts.Port, RuleContext, List<String>> problem;

    private RoceConfig(RuleInfo info, BiFunction<RdmaPorts.Port, RuleContext, List<String>> problem) {
        this.info = info;
        this.problem = problem;
    }

    public static RoceConfig v2Gid() {
        return new RoceConfig(NO_V2_GID, (p, ctx) -> {
            List<RdmaDevices.Gid> gids = p.port().gids().orElse(List.of());
            boolean v2 = gids.stream().anyMatch(g -> g.type().orElse("").equals("RoCE v2"));
            return v2 || !p.port().gids().isValue() ? List.of() : List.of(gids.size() + " GIDs, none of type RoCE v2",
                    "IPv4 on the port's netdevs: " + p.port().netdevs().orElse(List.of()).stream()
                            .map(n -> n.name() + " " + n.ipv4().orElse(List.of())).toList());
        });
    }

    public static RoceConfig mtu() {
        return new RoceConfig(MTU, (p, ctx) -> {
            int min = ctx.config().thresholds().roceMtu();
            List<String> small = new ArrayList<>();
            for (RdmaDevices.Netdev n : p.port().netdevs().orElse(List.of())) {
                if (n.mtu().isValue() && n.mtu().get() < min) {
                    small.add(n.name() + " mtu " + n.mtu().get() + " < " + min + " (thresholds.roceMinMtu)");
                }
            }
            return small;
        });
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
            return Outcome.waived("no RoCE port (all InfiniBand)");
        }
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Port p : roce) {
            List<String> evidence = problem.apply(p, ctx);
            if (!evidence.isEmpty()) {
                findings.add(finding(p.label(), info.title().replaceFirst("^a RoCE port('s)? ", ""), evidence));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
