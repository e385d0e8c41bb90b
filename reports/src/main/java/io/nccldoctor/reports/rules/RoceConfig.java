package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.text.RdmaPasteGaps;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * RoCE port configuration: the GID NCCL uses (chosen by NCCL, or pinned by NCCL_IB_GID_INDEX) is a routable RoCE v2
 * one ({@link RoceGids}), and an RDMA MTU of 4096 bytes with a net device MTU that allows it.
 */
public final class RoceConfig implements Rule {

    static final RuleInfo NO_V2_GID = new RuleInfo("ROCE_NO_V2_GID", Severity.WARN,
            "a RoCE port has no RoCE v2 GID that NCCL would choose",
            "RoCE v2 (routable, UDP port 4791) needs a GID of type 'RoCE v2', which the kernel creates for each IP address "
                    + "of the port's net device. NCCL picks, unless NCCL_IB_GID_INDEX pins one, a RoCE v2 GID "
                    + "(NCCL_IB_ROCE_VERSION_NUM, default 2) that is neither link-local fe80:: nor unset, of the address "
                    + "family NCCL_IB_ADDR_FAMILY names (default AF_INET: an IPv4 address), inside NCCL_IB_ADDR_RANGE when set; "
                    + "finding none it keeps an IPv4 GID of type RoCE v1 when there is one, else GID index 0, the "
                    + "link-local RoCE v1 GID (NVIDIA/nccl src/transport/net_ib/connect.cc, ncclIbGetGidIndex, "
                    + "ncclUpdateGidIndex and validGid; NCCL 2.21.5 and later, older ones use index 0 unless "
                    + "NCCL_IB_GID_INDEX is set: ROCE_GID_INDEX_UNSUITABLE). That works at best inside one L2 segment and without the lossless "
                    + "class that PFC/ECN give RoCE v2 by its DSCP; across subnets the QPs time out.",
            "the GID table of each RoCE port with each GID's type: gids/N and gid_attrs/types/N, show_gids, or ibv_devinfo -v; "
                    + "a port of a device a complete show_gids listing walks has no GID when no row names it (the script skips "
                    + "zero GIDs), and a device with no row whose ports the paste does not give has none on any port",
            "Give the port's net device an IPv4 address (and bring it up); check with `show_gids` that an IPv4 row of type v2 "
                    + "appears; for IPv6-only RoCE set NCCL_IB_ADDR_FAMILY=AF_INET6; pin NCCL_IB_GID_INDEX only if the index "
                    + "is the same on every node.");
    static final RuleInfo GID_INDEX = new RuleInfo("ROCE_GID_INDEX_UNSUITABLE", Severity.WARN,
            "the GID index NCCL is pinned to holds no routable RoCE v2 GID",
            "NCCL_IB_GID_INDEX fixes the GID every NCCL QP of a RoCE port uses, whatever that index holds; NCCL before "
                    + "2.21.5 fixes it at 0 when the variable is unset (NCCL_PARAM(IbGidIndex, \"IB_GID_INDEX\", 0); only "
                    + "2.21.5 and later choose a RoCE v2 GID themselves, NVIDIA/nccl src/transport/net_ib). Index 0 of a "
                    + "RoCE port is the link-local GID of type IB/RoCE v1, and the kernel orders the rest per address as a "
                    + "v1 and a v2 entry, so an index copied from another node or written before an address was added "
                    + "often lands on a RoCE v1 GID (layer 2 only: no IP header, no DSCP, so no lossless class and no ECN), a "
                    + "link-local one (not routable), or an empty slot (a zero GID: the QP cannot be connected). Pinned "
                    + "indexes also differ between nodes whose net devices have different addresses or VLANs.",
            "NCCL_IB_GID_INDEX and the NCCL version against each RoCE port's GID table with types (gids/N and "
                    + "gid_attrs/types/N, show_gids, ibv_devinfo -v)",
            "Point NCCL_IB_GID_INDEX at the port's IPv4 (or IPv6) GID of type RoCE v2 (`show_gids` lists them), on every "
                    + "node, or unset it on NCCL 2.21.5 or later, which chooses that GID itself; on an older NCCL set it "
                    + "explicitly (commonly 3).");
    static final RuleInfo MTU = new RuleInfo("ROCE_MTU_TOO_SMALL", Severity.WARN,
            "a RoCE port runs below a 4096-byte RDMA MTU, or its net device MTU is too small for one",
            "RoCE derives the RDMA MTU from the net device MTU (include/rdma/ib_addr.h iboe_get_mtu: the MTU less 96 bytes "
                    + "of RoCE headers, rounded down to 256, 512, 1024, 2048 or 4096): 1500 gives 1024-byte RDMA packets, four "
                    + "times the per-packet overhead of 4096, and 4096 needs at least 4192. NCCL's path MTU is the smaller "
                    + "active MTU of the two ends (NVIDIA/nccl src/transport/net_ib/connect.cc), so one node at 1024 slows "
                    + "its peers too. In the field report 1500 capped a 100G link at 83 Gbit/s. An MTU reset to 1500 after a "
                    + "reboot (a netplan or NetworkManager profile without mtu) is a classic.",
            "the mtu of each ACTIVE RoCE port's net device (/sys/class/net/NAME/mtu) against thresholds.roceMinMtu, and the "
                    + "port's active_mtu and max_mtu (ibv_devinfo); a port whose state is read and is not ACTIVE is listed as "
                    + "not judged (NCCL opens ACTIVE ports only)",
            "Set the MTU persistently (netplan `mtu: 9000`, nmcli, or the NIC's ifcfg) on the node and on the switch "
                    + "ports, then check `ibv_devinfo` active_mtu 4096.");

    /** IB_GRH_BYTES + IB_UDP_BYTES + IB_BTH_BYTES + IB_EXT_XRC_BYTES + IB_EXT_ATOMICETH_BYTES + IB_ICRC_BYTES (include/rdma/ib_pack.h). */
    static final int ROCE_HEADERS = 40 + 8 + 12 + 4 + 28 + 4;
    static final int IB_MTU_4096 = 4096;

    private final RuleInfo info;
    private final Predicate<RdmaPorts.Port> judgeable;
    private final String notJudgeable;
    private final Problem problem;
    /** Why a RoCE port is left out of this rule, or empty when the rule judges it. */
    private final Function<RdmaPorts.Port, Optional<String>> leftOut;

    /** What is wrong with one port, as evidence lines; empty when nothing is. */
    private interface Problem {
        List<String> of(RdmaPorts.Port p, Snapshot s, RuleContext ctx);
    }

    private RoceConfig(RuleInfo info, Predicate<RdmaPorts.Port> judgeable, String notJudgeable, Problem problem) {
        this(info, judgeable, notJudgeable, problem, p -> Optional.empty());
    }

    private RoceConfig(RuleInfo info, Predicate<RdmaPorts.Port> judgeable, String notJudgeable, Problem problem,
                       Function<RdmaPorts.Port, Optional<String>> leftOut) {
        this.info = info;
        this.judgeable = judgeable;
        this.notJudgeable = notJudgeable;
        this.problem = problem;
        this.leftOut = leftOut;
    }

    public static RoceConfig v2Gid() {
        return new RoceConfig(NO_V2_GID, p -> p.port().gids().isValue() && (p.port().gids().get().isEmpty()
                || p.port().gids().get().stream().anyMatch(g -> g.type().isValue())),
                "no GID table with GID types read for a RoCE port (show_gids, ibv_devinfo -v since rdma-core 28, or sysfs)",
                (p, s, ctx) -> {
                    RoceGids.Settings settings = RoceGids.Settings.of(s);
                    // a pinned index is ROCE_GID_INDEX_UNSUITABLE's to judge
                    return settings.pinned().isPresent() ? List.of() : RoceGids.problem(p, RoceGids.choose(p, settings), settings);
                });
    }

    /** NCCL_IB_GID_INDEX (or the index 0 of an NCCL before 2.21.5) against what the index holds. */
    public static RoceConfig gidIndex() {
        return new RoceConfig(GID_INDEX, p -> p.port().gids().isValue(),
                "no GID table read for a RoCE port (show_gids, ibv_devinfo -v, or sysfs)", RoceConfig::gidIndexProblem);
    }

    private static List<String> gidIndexProblem(RdmaPorts.Port p, Snapshot s, RuleContext ctx) {
        RoceGids.Settings settings = RoceGids.Settings.of(s);
        if (settings.pinned().isEmpty()) {
            return List.of();
        }
        RoceGids.Choice pinned = RoceGids.choose(p, settings);
        List<String> evidence = new ArrayList<>();
        if (pinned.gid().isEmpty()) {
            evidence.add(pinned.how() + ": index " + pinned.index() + " holds no GID on this port (zero, or past the "
                    + p.port().gids().get().size() + " GIDs read): NCCL cannot connect a QP with it");
        } else {
            RdmaDevices.Gid g = pinned.gid().get();
            int v = RoceGids.version(g);
            if (v == 2 && RoceGids.valid(g.gid())) {
                return List.of();
            }
            evidence.add(pinned.how() + ": " + pinned.describe() + (v == 1 ? ", a RoCE v1 GID (no IP header: no DSCP, no ECN, not routed)"
                    : v == 2 ? ", link-local (not routed)" : ", a GID of unknown type"));
        }
        RoceGids.Settings auto = new RoceGids.Settings(Optional.empty(), "", settings.family(), settings.version(), settings.range());
        RoceGids.Choice own = RoceGids.choose(p, auto);
        evidence.add("NCCL 2.21.5+ would choose " + own.describe() + " unpinned");
        return evidence;
    }

    public static RoceConfig mtu() {
        return new RoceConfig(MTU, p -> p.port().activeMtu().isValue()
                || p.port().netdevs().orElse(List.of()).stream().anyMatch(n -> n.mtu().isValue()),
                "neither a net device MTU nor an active MTU read for a RoCE port", (p, s, ctx) -> mtuProblem(p, ctx),
                RoceConfig::notActive);
    }

    /**
     * A port whose state was read and is not ACTIVE: NCCL opens only ACTIVE ports (NVIDIA/nccl
     * src/transport/net_ib/init.cc:363 @5067397c, `if (portAttr.state != IBV_PORT_ACTIVE) continue;`), so its MTU
     * decides nothing NCCL does now. Its active_mtu is not a placeholder, though: mlx5 reports
     * min(max_mtu, iboe_get_mtu(net device MTU)) whatever the link state (drivers/infiniband/hw/mlx5/main.c
     * mlx5_query_port_roce), so the value is printed with the reason, for when the link comes up.
     */
    private static Optional<String> notActive(RdmaPorts.Port p) {
        RdmaDevices.RdmaPort port = p.port();
        if (!port.state().isValue() || port.state().get().startsWith("ACTIVE")) {
            return Optional.empty();
        }
        List<String> read = new ArrayList<>();
        if (port.activeMtu().isValue()) {
            read.add("active_mtu " + port.activeMtu().get());
        }
        port.netdevs().orElse(List.of()).stream().filter(n -> n.mtu().isValue()).forEach(n -> read.add(n.name() + " mtu " + n.mtu().get()));
        return Optional.of(p.label() + " (" + port.state().get() + (read.isEmpty() ? "" : "; " + String.join(", ", read)) + ")");
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
        Outcome ports = portsOutcome(s, ctx);
        List<Finding> noGid = devicesWithoutGid(s);
        if (noGid.isEmpty()) {
            return ports;
        }
        List<Finding> all = new ArrayList<>(noGid);
        all.addAll(ports.findings());
        return new Outcome(List.copyOf(all), ports.waivedBecause());
    }

    /**
     * ROCE_NO_V2_GID only: the devices a complete show_gids listing shows without any GID while the input gives none of
     * their ports ({@link RdmaPasteGaps#withoutGid()}), one finding each; a port the input does give is judged with the
     * ports below (an empty GID table).
     */
    private List<Finding> devicesWithoutGid(Snapshot s) {
        RdmaPasteGaps gaps = info == NO_V2_GID ? s.section(RdmaPasteGaps.KEY, RdmaPasteGaps.class) : null;
        if (gaps == null) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        new TreeMap<>(gaps.withoutGid()).forEach((device, where) -> out.add(finding(device, device + " has no GID on any port", List.of(
                "show_gids (" + where + ") walks every port of " + device + " and lists no GID: its GID tables hold only unset "
                        + "entries (zero, or fe80:: with no interface id, which NCCL's configuredGid also rejects)",
                "an InfiniBand port always has GID 0 (its subnet prefix and port GUID), so these are Ethernet (RoCE) ports "
                        + "without a GID: NCCL finds no RoCE v2 GID, nor any GID to connect a QP with",
                "the input gives none of " + device + "'s ports (link layer and state not read)"))));
        return out;
    }

    private Outcome portsOutcome(Snapshot s, RuleContext ctx) {
        var ports = RdmaPorts.of(s);
        if (ports.isEmpty()) {
            return Outcome.waived(RdmaPorts.whyNone(s));
        }
        if (ports.get().isEmpty()) {
            return Outcome.waived("no port of any RDMA device read: " + String.join("; ", Sections.rdma(s).map(r -> r.devices()
                    .orElse(List.of())).orElse(List.of()).stream().map(d -> d.name() + ": " + d.ports().fold(l -> "no port listed", why -> why)).toList()));
        }
        List<RdmaPorts.Port> roce = ports.get().stream().filter(RdmaPorts.Port::roce).toList();
        if (roce.isEmpty()) {
            return Outcome.waived(RdmaPorts.whyNoRoce(ports.get()));
        }
        List<String> left = roce.stream().map(leftOut).flatMap(Optional::stream).toList();
        String leftReason = left.isEmpty() ? null : left.size() + " RoCE port" + (left.size() == 1 ? "" : "s")
                + " not ACTIVE, not judged (NCCL uses ACTIVE ports only; the MTUs printed will hold once the link is up): "
                + String.join(", ", left);
        List<RdmaPorts.Port> judged = roce.stream().filter(p -> leftOut.apply(p).isEmpty()).filter(judgeable).toList();
        if (judged.isEmpty()) {
            return Outcome.waived(leftReason == null ? notJudgeable : leftReason);
        }
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Port p : judged) {
            List<String> evidence = problem.of(p, s, ctx);
            if (!evidence.isEmpty()) {
                findings.add(finding(p.label(), info.title().replaceFirst("^a RoCE port('s)? ", ""), evidence));
            }
        }
        // judged in part: the findings, and the ports left out with why
        return leftReason != null ? new Outcome(List.copyOf(findings), leftReason) : findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
