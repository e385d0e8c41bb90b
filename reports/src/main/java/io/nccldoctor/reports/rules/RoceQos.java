package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
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
 * Whether NCCL's RoCE traffic lands on a priority PFC makes lossless, from the NIC's trust mode, DSCP mapping and PFC
 * table (`mlnx_qos -i IFACE`). NCCL marks its QPs with NCCL_IB_TC as the IP traffic class (DSCP in its upper six bits)
 * and NCCL_IB_SL as the service level; unset, both are 0 (NVIDIA/nccl src/transport/net_ib/connect.cc,
 * NCCL_IB_TC_DEFAULT and NCCL_IB_SL_DEFAULT; NCCL_PARAM(IbTc, "IB_TC", 0) in src/transport/net_ib.cc of 2.18 and 2.21), so by default
 * RoCE traffic is DSCP 0, priority 0. Since 2.26 a communicator's ncclConfig_t trafficClass stands in for the default
 * when NCCL_IB_TC is unset (src/nccl.h.in), which an application may set and a snapshot cannot see. The usual RoCE setup is the other way round: NCCL_IB_TC=106 (DSCP 26, ECN
 * capable) with PFC on priority 3, where DSCP 24–31 map by default.
 */
public final class RoceQos implements Rule {

    static final RuleInfo PFC_OFF = new RuleInfo("ROCE_PFC_OFF", Severity.WARN,
            "PFC is off on the priority NCCL's RoCE traffic uses",
            "RoCE v2 assumes a lossless network: one dropped packet makes the sender go back and resend from there, and "
                    + "throughput collapses under congestion. Priority Flow Control makes one priority lossless, and only "
                    + "traffic on that priority. NCCL marks its traffic with NCCL_IB_TC (traffic class, DSCP = TC / 4) and "
                    + "NCCL_IB_SL; unset, both are 0, so with trust dscp NCCL's packets carry DSCP 0 and go to priority 0, "
                    + "and with trust pcp they carry no VLAN priority or 0, priority 0 again. A NIC set up the usual way, PFC "
                    + "on priority 3 for DSCP 26, leaves NCCL lossy unless NCCL_IB_TC=106 is set (or MLNX_OFED's per-port "
                    + "traffic_class overrides every QP's class). The field report's fabric was lossless only once DSCP, "
                    + "priority and PFC agreed end to end.",
            "the trust mode, DSCP-to-priority mapping and PFC table of each RoCE net device (`mlnx_qos -i IFACE`), "
                    + "NCCL_IB_TC and NCCL_IB_SL in the environment, and MLNX_OFED's tc/PORT/traffic_class",
            "Put NCCL's traffic on the lossless priority: NCCL_IB_TC=106 (DSCP 26, the DSCP the usual RoCE config maps to "
                    + "priority 3) with `mlnx_qos -i IFACE --trust dscp`, or NCCL_IB_SL on a VLAN with trust pcp; or enable "
                    + "PFC on the priority NCCL uses (`mlnx_qos -i IFACE --pfc 0,0,0,1,0,0,0,0` for 3). Do the same on every "
                    + "node and on the switch ports.");
    static final RuleInfo TRUST_PCP = new RuleInfo("ROCE_TRUST_PCP", Severity.INFO,
            "a RoCE NIC picks priorities by the VLAN tag (trust pcp), not by DSCP",
            "With trust pcp the NIC takes a packet's priority from the 802.1Q tag's priority bits. RoCE v2 is routed IP, "
                    + "and a packet sent without a VLAN tag, or one whose tag a router dropped, has no PCP and lands on "
                    + "priority 0, so a lossless priority configured for RoCE is reached only on a VLAN interface with "
                    + "NCCL_IB_SL set. Routed (L3) RoCE fabrics classify by DSCP instead: trust dscp.",
            "the trust mode and PFC table of each RoCE net device (`mlnx_qos -i IFACE`)",
            "For routed RoCE v2 use `mlnx_qos -i IFACE --trust dscp` and mark NCCL's traffic with NCCL_IB_TC (106 for DSCP "
                    + "26); keep trust pcp only on a VLAN design where NCCL_IB_SL sets the priority.");

    /** NCCL's traffic class and service level when NCCL_IB_TC and NCCL_IB_SL are unset. */
    static final int NCCL_DEFAULT_TC = 0;
    static final int NCCL_DEFAULT_SL = 0;
    /** NCCL_IB_TC=106: DSCP 26 and ECT(0), the marking the usual lossless RoCE configuration expects. */
    static final int USUAL_ROCE_TC = 106;

    private final boolean pfc;

    private RoceQos(boolean pfc) {
        this.pfc = pfc;
    }

    public static RoceQos pfc() {
        return new RoceQos(true);
    }

    public static RoceQos trust() {
        return new RoceQos(false);
    }

    @Override
    public RuleInfo info() {
        return pfc ? PFC_OFF : TRUST_PCP;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        List<RdmaPorts.Nic> nics = RdmaPorts.nics(s).stream().filter(n -> n.netdev().qos().isValue()
                && n.netdev().qos().get().trust().isValue() && n.netdev().qos().get().pfcPriorities().isValue()).toList();
        if (nics.isEmpty()) {
            String why = RdmaPorts.nics(s).stream().filter(n -> !n.netdev().qos().isValue()).findFirst()
                    .map(n -> ": " + n.label() + ": " + n.netdev().qos().describe()).orElse("");
            return Outcome.waived("no RoCE net device's trust mode and PFC table read (`mlnx_qos -i IFACE`)" + why);
        }
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Nic nic : nics) {
            RdmaDevices.Qos q = nic.netdev().qos().get();
            if (pfc) {
                pfcFinding(nic, q, s).ifPresent(findings::add);
            } else if (q.trust().get().equals("pcp") && !q.pfcPriorities().get().isEmpty()) {
                findings.add(finding(nic.label(), "trusts pcp, with PFC on priorities " + q.pfcPriorities().get(),
                        List.of("trust " + q.trust().get(), "PFC enabled on " + q.pfcPriorities().get(), "DCBX " + q.dcbx().describe())));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    private Optional<Finding> pfcFinding(RdmaPorts.Nic nic, RdmaDevices.Qos q, Snapshot s) {
        List<Integer> on = q.pfcPriorities().get();
        Marking nccl = marking(nic, q, s);
        if (on.contains(nccl.priority())) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>(List.of("trust " + q.trust().get() + "; PFC enabled on "
                + (on.isEmpty() ? "no priority" : "priorities " + on), nccl.how()));
        dscpForTc(s, q, on).ifPresent(evidence::add);
        if (q.trust().get().equals("dscp")) {
            int usual = priorityOf(USUAL_ROCE_TC >> 2, q);
            evidence.add("NCCL_IB_TC=" + USUAL_ROCE_TC + " would be DSCP " + (USUAL_ROCE_TC >> 2) + ", priority " + usual
                    + (on.contains(usual) ? ", where PFC is on" : ", where PFC is off too"));
        }
        String title = "NCCL's RoCE traffic goes to priority " + nccl.priority() + ", where PFC is off"
                + (on.isEmpty() ? " (PFC is off on every priority)" : " (PFC is on " + on + ")");
        return Optional.of(finding(nic.label(), title, evidence));
    }

    /**
     * NCCL_IB_TC set to a DSCP value instead of a traffic class (26 for DSCP 26, which NCCL sends as DSCP 6): told
     * when the value, read as a DSCP, would have reached a PFC priority.
     */
    private static Optional<String> dscpForTc(Snapshot s, RdmaDevices.Qos q, List<Integer> pfcOn) {
        Optional<Integer> tc = number(s.env().get("NCCL_IB_TC"));
        if (tc.isEmpty() || tc.get() >= 64 || !q.trust().get().equals("dscp") || !pfcOn.contains(priorityOf(tc.get(), q))) {
            return Optional.empty();
        }
        return Optional.of("NCCL_IB_TC=" + tc.get() + " looks like a DSCP: NCCL_IB_TC is the whole traffic class byte, DSCP "
                + "times 4 plus the ECN bits, so DSCP " + tc.get() + " is NCCL_IB_TC=" + (tc.get() << 2) + " (" + ((tc.get() << 2) | 2)
                + " with ECT(0))");
    }

    /** @param how "traffic class 0 (NCCL_IB_TC unset: NCCL's default) → DSCP 0 → priority 0" */
    record Marking(int priority, String how) {
    }

    /** The priority NCCL's RoCE traffic lands on at this NIC, and how that follows from the settings. */
    static Marking marking(RdmaPorts.Nic nic, RdmaDevices.Qos q, Snapshot s) {
        if (q.trust().get().equals("dscp")) {
            Fact<Integer> global = nic.port().isPresent() ? nic.trafficClass() : onlyTrafficClass(s);
            Optional<Integer> env = number(s.env().get("NCCL_IB_TC"));
            int tc = global.isValue() ? global.get() : env.orElse(NCCL_DEFAULT_TC);
            String from = global.isValue() ? (nic.port().isPresent() ? "MLNX_OFED's traffic_class for the port, which overrides every QP's"
                    : "the one per-port traffic_class in the input, which MLNX_OFED applies to every QP")
                    : env.isPresent() ? "NCCL_IB_TC=" + env.get() : "NCCL_IB_TC unset: NCCL's default";
            int prio = priorityOf(tc >> 2, q);
            return new Marking(prio, "traffic class " + tc + " (" + from + ") → DSCP " + (tc >> 2) + " → priority " + prio
                    + (q.dscpPriority().isValue() ? "" : " (mlnx_qos' default mapping, eight DSCP values per priority)")
                    + (global.isValue() ? "" : "; per-port traffic class: " + global.reason() + " (MLNX_OFED applies one to every "
                    + "QP when set: cat /sys/class/infiniband/DEV/tc/1/traffic_class)"));
        }
        Optional<Integer> sl = number(s.env().get("NCCL_IB_SL"));
        int prio = sl.orElse(NCCL_DEFAULT_SL);
        return new Marking(prio, "trust " + q.trust().get() + ": service level " + prio + " ("
                + (sl.isPresent() ? "NCCL_IB_SL=" + prio : "NCCL_IB_SL unset: NCCL's default")
                + ") is the VLAN priority on a VLAN interface; untagged RoCE traffic is priority 0");
    }

    /**
     * For a net device the input ties to no port: the per-port traffic class, when the input shows exactly one value
     * for all its ports (the QoS and the traffic class of one NIC, pasted together); several values cannot be told
     * apart, and none is the usual case.
     */
    private static Fact<Integer> onlyTrafficClass(Snapshot s) {
        List<Integer> classes = RdmaPorts.of(s).orElse(List.of()).stream().map(p -> p.port().trafficClass())
                .filter(Fact::isValue).map(Fact::get).distinct().toList();
        return classes.size() == 1 ? Fact.of(classes.get(0))
                : Fact.absent(classes.isEmpty() ? "none in the input" : "several in the input: " + classes + ", and the input does "
                + "not tie this net device to a port");
    }

    /** The priority a DSCP maps to: the NIC's mapping, else the default of eight DSCP values per priority. */
    private static int priorityOf(int dscp, RdmaDevices.Qos q) {
        return q.dscpPriority().fold(m -> m.getOrDefault(dscp, dscp >> 3), why -> dscp >> 3);
    }

    private static Optional<Integer> number(String s) {
        if (s == null || !s.strip().matches("\\d{1,3}")) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(s.strip()));
    }
}
