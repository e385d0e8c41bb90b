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

/**
 * DCQCN on the priority NCCL's RoCE traffic uses: the notification point (a receiver answers ECN-marked packets with
 * CNPs) and the reaction point (a sender slows down on a CNP), each switched per priority in MLNX_OFED's
 * /sys/class/net/IFACE/ecn/roce_np/enable/N and ecn/roce_rp/enable/N ({@link RdmaDevices.Dcqcn}). The priority comes
 * from the same marking {@link RoceQos} judges PFC on.
 */
public final class RoceDcqcn implements Rule {

    static final RuleInfo INFO = new RuleInfo("ROCE_DCQCN_OFF", Severity.WARN,
            "DCQCN is off on the priority NCCL's RoCE traffic uses",
            "DCQCN is RoCE's congestion control: a switch marks packets ECN CE when a queue fills, the receiving NIC "
                    + "(notification point) answers with a CNP, and the sending NIC (reaction point) lowers its rate. "
                    + "Both ends switch it per priority (MLNX_OFED: /sys/class/net/IFACE/ecn/roce_np/enable/N and "
                    + "roce_rp/enable/N). With either side off on the priority NCCL uses, nothing slows a sender down "
                    + "but PFC: congestion turns into pause storms that spread upstream and stall unrelated flows, or, "
                    + "without PFC, into drops and go-back-N retransmissions. The counters show it as ECN-marked packets "
                    + "without CNPs, or CNPs ignored (COUNTER_ECN_WITHOUT_CNP_HANDLING).",
            "ecn/roce_np/enable/0..7 and ecn/roce_rp/enable/0..7 of each RoCE net device, with the priority NCCL's "
                    + "traffic lands on (trust mode and DSCP mapping from `mlnx_qos -i IFACE`, NCCL_IB_TC, NCCL_IB_SL)",
            "Enable both points on NCCL's priority on every node: `echo 1 > /sys/class/net/IFACE/ecn/roce_np/enable/3` and "
                    + "`echo 1 > /sys/class/net/IFACE/ecn/roce_rp/enable/3` (3 for the usual lossless priority), persisted "
                    + "by a boot script or the NIC's configuration tool, and ECN marking on the switch queue of that "
                    + "priority.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        List<RdmaPorts.Nic> nics = RdmaPorts.nics(s).stream().filter(n -> n.netdev().dcqcn().isValue()).toList();
        if (nics.isEmpty()) {
            String why = RdmaPorts.nics(s).stream().findFirst().map(n -> ": " + n.label() + ": " + n.netdev().dcqcn().describe())
                    .orElse(": no RoCE net device");
            return Outcome.waived("no DCQCN switches read (ecn/roce_np and ecn/roce_rp)" + why);
        }
        List<Finding> findings = new ArrayList<>();
        List<String> unjudged = new ArrayList<>();
        for (RdmaPorts.Nic nic : nics) {
            RdmaDevices.Dcqcn d = nic.netdev().dcqcn().get();
            if (!d.notificationPoint().isValue() || !d.reactionPoint().isValue()) {
                unjudged.add(nic.label() + ": " + (d.notificationPoint().isValue() ? d.reactionPoint() : d.notificationPoint()).describe());
                continue;
            }
            finding(nic, d, s).ifPresent(findings::add);
        }
        if (findings.isEmpty() && unjudged.size() == nics.size()) {
            return Outcome.waived(String.join("; ", unjudged));
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    private Optional<Finding> finding(RdmaPorts.Nic nic, RdmaDevices.Dcqcn d, Snapshot s) {
        List<Integer> np = d.notificationPoint().get();
        List<Integer> rp = d.reactionPoint().get();
        String state = "notification point (roce_np) on " + priorities(np) + "; reaction point (roce_rp) on " + priorities(rp);
        Optional<RdmaDevices.Qos> qos = nic.netdev().qos().isValue() && nic.netdev().qos().get().trust().isValue()
                ? Optional.of(nic.netdev().qos().get()) : Optional.empty();
        if (qos.isEmpty()) {
            if (np.isEmpty() || rp.isEmpty()) {
                return Optional.of(finding(nic.label(), "DCQCN's " + (np.isEmpty() ? "notification" : "reaction")
                        + " point is off on every priority", List.of(state, "the priority NCCL uses is not known without the trust "
                        + "mode (`mlnx_qos -i " + nic.netdev().name() + "`): " + nic.netdev().qos().describe())));
            }
            return Optional.empty();
        }
        RoceQos.Marking m = RoceQos.marking(nic, qos.get(), s);
        boolean npOn = np.contains(m.priority());
        boolean rpOn = rp.contains(m.priority());
        if (npOn && rpOn) {
            return Optional.empty();
        }
        String off = !npOn && !rpOn ? "both points" : !npOn ? "the notification point (CNPs are never sent)"
                : "the reaction point (CNPs are ignored)";
        return Optional.of(finding(nic.label(), "DCQCN is off on priority " + m.priority() + ", where NCCL's traffic goes: " + off,
                List.of(state, m.how())));
    }

    private static String priorities(List<Integer> on) {
        return on.isEmpty() ? "no priority" : "priorities " + on;
    }
}
