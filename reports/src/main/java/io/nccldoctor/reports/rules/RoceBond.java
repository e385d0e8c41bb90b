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
import java.util.Optional;
import java.util.Set;

/**
 * RDMA over a bond (RoCE LAG: mlx5_bond_0 over bond0) whose traffic to one peer stays on one member link. NCCL opens
 * one QP per connection unless NCCL_IB_QPS_PER_CONNECTION says more (NCCL_PARAM(IbQpsPerConn,
 * "IB_QPS_PER_CONNECTION", 1), src/transport/net_ib/connect.cc), and a QP is sent out of one port; hashing on MAC or
 * IP addresses also puts every QP between two hosts on one link. nccl-tests issues 191 and 265 show the result: a
 * bond of two 200G ports at 240 Gbit/s in nccl-tests while ib_write_bw reaches 395.
 */
public final class RoceBond implements Rule {

    static final RuleInfo INFO = new RuleInfo("ROCE_BOND_ONE_LINK", Severity.WARN,
            "RDMA runs over a bond whose traffic to one peer stays on one member link",
            "A RoCE LAG device (mlx5_bond_0 over bond0) sends each QP out of one member port. NCCL opens one QP per "
                    + "connection by default (NCCL_IB_QPS_PER_CONNECTION=1), and the bond's transmit hash decides the rest: "
                    + "layer2 hashes the two MAC addresses and layer2+3 the two IP addresses, which are the same for every "
                    + "packet between two hosts, so all of a pair's traffic takes one link; layer3+4 adds the UDP source "
                    + "port, which RoCE v2 varies per QP, so only several QPs can spread. active-backup uses one link by "
                    + "design. The result is a bond at half its bandwidth in NCCL while ib_write_bw -q 8 fills it "
                    + "(NVIDIA/nccl-tests issues 191 and 265; NVIDIA/nccl issue 1015, where NCCL's maintainers advise "
                    + "NCCL_IB_QPS_PER_CONNECTION=2 or more). The bonding driver's modes and hash policies are described in "
                    + "the kernel's Documentation/networking/bonding.rst.",
            "bonding/mode, bonding/xmit_hash_policy and bonding/slaves of each bond an RDMA port's GIDs name "
                    + "(/sys/class/net/BOND/bonding), and NCCL_IB_QPS_PER_CONNECTION",
            "Use xmit_hash_policy layer3+4 (802.3ad or balance-xor, on the node and on the switch's port channel) and "
                    + "NCCL_IB_QPS_PER_CONNECTION=2 or more; or give NCCL each port as its own rail without the bond. Check "
                    + "with two-node nccl-tests against ib_write_bw -q 8.");

    /** Hash policies whose input is the same for every packet between two hosts (bonding.rst: xmit_hash_policy). */
    static final Set<String> PER_HOST_PAIR = Set.of("layer2", "layer2+3", "encap2+3", "vlan+srcmac");
    /** Modes that use xmit_hash_policy to pick a member (bonding.rst: balance-xor, 802.3ad, balance-tlb). */
    static final Set<String> HASHED = Set.of("802.3ad", "balance-xor", "balance-tlb");
    static final int NCCL_DEFAULT_QPS = 1;

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var ports = RdmaPorts.of(s);
        if (ports.isEmpty()) {
            return Outcome.waived(RdmaPorts.whyNone(s));
        }
        if (RdmaPorts.nics(s).isEmpty()) {
            return Outcome.waived("no RoCE net device (all ports InfiniBand, or no net device read)");
        }
        List<RdmaPorts.Nic> bonds = RdmaPorts.nics(s).stream().filter(n -> n.netdev().bond().isValue()).toList();
        if (bonds.isEmpty()) {
            boolean read = RdmaPorts.nics(s).stream().anyMatch(n -> n.netdev().bond().isAbsent()
                    && n.netdev().bond().reason().startsWith("not a bond"));
            return read ? Outcome.pass() : Outcome.waived("no RoCE net device's bonding settings read (/sys/class/net/NAME/bonding)");
        }
        int qps = RoceGids.number(s.env().get("NCCL_IB_QPS_PER_CONNECTION")).orElse(NCCL_DEFAULT_QPS);
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Nic nic : bonds) {
            problem(nic.netdev().bond().get(), qps, s.env().containsKey("NCCL_IB_QPS_PER_CONNECTION"))
                    .ifPresent(title -> findings.add(finding(nic.label(), title, evidence(nic.netdev(), qps, s))));
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    /** Why one peer's traffic stays on one link, or empty when it can spread. */
    static Optional<String> problem(RdmaDevices.Bond b, int qps, boolean qpsSet) {
        int members = b.slaves().orElse(List.of()).size();
        if (b.slaves().isValue() && members < 2) {
            return Optional.empty();
        }
        if (b.mode().equals("active-backup")) {
            return Optional.of("bond in active-backup mode: one member carries all RDMA traffic");
        }
        String policy = b.xmitHashPolicy().orElse("?");
        if (HASHED.contains(b.mode()) && PER_HOST_PAIR.contains(policy)) {
            return Optional.of(b.mode() + " bond hashing by " + policy + ": all traffic between two hosts takes one member link");
        }
        if (qps < 2) {
            return Optional.of(b.mode() + " bond, but NCCL opens " + qps + " QP per connection" + (qpsSet ? "" : " (its default)")
                    + ": each connection stays on one member link");
        }
        return Optional.empty();
    }

    private static List<String> evidence(RdmaDevices.Netdev bond, int qps, Snapshot s) {
        RdmaDevices.Bond b = bond.bond().get();
        return List.of(bond.name() + ": mode " + b.mode() + ", xmit_hash_policy " + b.xmitHashPolicy().describe() + ", members "
                        + b.slaves().fold(Object::toString, why -> "(" + why + ")"),
                "NCCL_IB_QPS_PER_CONNECTION " + (s.env().containsKey("NCCL_IB_QPS_PER_CONNECTION")
                        ? "= " + s.env().get("NCCL_IB_QPS_PER_CONNECTION") : "unset: " + qps));
    }
}
