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

/** An RDMA port that is not ACTIVE: NCCL skips it, and a job meant for N rails runs on fewer. */
public final class RdmaPortNotActive implements Rule {

    /** The remedy for a port whose physical state is Disabled. */
    private static final String DISABLED = "Physical state Disabled is no cable fault: on InfiniBand the port was disabled by "
            + "management (enable it: `ibportstate -C DEV -P PORT LID PORTNUM enable`, or on the switch), on Ethernet its net "
            + "device is down or has no carrier (`ip link set dev IFACE up`, then the cable).";
    /** The remedy for a port that is not ACTIVE for any other reason. */
    private static final String CHECK = "check the cable and the switch port (`ibstat`, `rdma link`); for InfiniBand, that a subnet "
            + "manager runs (`sminfo`; opensm or the switch's SM) and reaches the port (INIT/ARMED); exclude the port with "
            + "NCCL_IB_HCA until it is fixed, or drain the node.";

    static final RuleInfo INFO = new RuleInfo("RDMA_PORT_NOT_ACTIVE", Severity.ERROR,
            "an RDMA port is not ACTIVE",
            "NCCL uses only ports in state ACTIVE. A port that is DOWN (no cable, no link partner), INIT or ARMED (an "
                    + "InfiniBand port waiting for the subnet manager) or in Polling leaves the job with fewer rails than "
                    + "the node has, or with none, and then NCCL falls back to TCP sockets without an error. An InfiniBand "
                    + "port in INIT with LID 65535 (none assigned) and SM LID 0 has never been configured by a subnet "
                    + "manager: none runs on the fabric, or it cannot reach this port; an SR-IOV virtual function also "
                    + "needs a GUID and a subnet manager that supports virtualization.",
            "state and phys_state of every port in /sys/class/infiniband (or the state ibv_devinfo, ibstat, ibstatus or "
                    + "rdma link print), with the port's LID and SM LID",
            DISABLED + " Otherwise (Polling, Sleep, DOWN) " + CHECK);

    /** The LID a port has before a subnet manager assigns one (IBA: 0xFFFF is the permissive LID). */
    static final int NO_LID = 0xFFFF;

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
        if (ports.get().stream().noneMatch(p -> p.port().state().isValue())) {
            return Outcome.waived("no port state read (ibv_devinfo, ibstat, ibstatus or rdma link print it)");
        }
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Port p : ports.get()) {
            RdmaDevices.RdmaPort port = p.port();
            if (port.state().isValue() && !port.state().get().equals("ACTIVE")) {
                List<String> evidence = new ArrayList<>(List.of("state " + port.state().get(), "phys_state " + port.physState().describe(),
                        "link layer " + port.linkLayer().describe()));
                if (port.linkLayer().orElse("").equals("InfiniBand") && port.lid().isValue()) {
                    // LIDs are InfiniBand's: a RoCE port reports 0 for both
                    evidence.add("LID " + port.lid().get() + (port.lid().get() == NO_LID ? " (none assigned)" : ""));
                }
                if (port.linkLayer().orElse("").equals("InfiniBand") && port.smLid().isValue()) {
                    evidence.add("SM LID " + port.smLid().get() + (port.smLid().get() == 0 ? smLidZero(port) : ""));
                }
                String title = p.label() + " is " + port.state().get() + port.physState().<String>fold(ps -> " (" + ps + ")", why -> "");
                findings.add(new Finding(INFO.code(), INFO.severity(), p.label(), title + why(port), evidence, remedy(port)));
            }
        }
        // judged in part: a port whose state no tool printed (mst status or ibdev2netdev only, rdma link's UNKNOWN) is said
        List<String> unread = ports.get().stream().filter(p -> !p.port().state().isValue())
                .map(p -> p.label() + " (" + p.port().state().fold(v -> "", why -> why) + ")").toList();
        String left = unread.isEmpty() ? null : unread.size() + " port" + (unread.size() == 1 ? "" : "s") + " whose state was not read, "
                + "not judged: " + String.join(", ", unread);
        return left != null ? new Outcome(List.copyOf(findings), left) : findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    /** The remedy for this port: the Disabled case only when its physical state was read as Disabled. */
    private static String remedy(RdmaDevices.RdmaPort port) {
        if (port.physState().isValue()) {
            return port.physState().get().equals("Disabled") ? DISABLED + " Then " + CHECK
                    : Character.toUpperCase(CHECK.charAt(0)) + CHECK.substring(1);
        }
        return "The physical state was not read (`ibv_devinfo -v`, `ibstat` or `rdma link` print it): Polling means no link "
                + "partner (cable, transceiver, switch port); Disabled means the port was switched off by management (InfiniBand) "
                + "or its net device is down (Ethernet). Then " + CHECK;
    }

    /**
     * What SM LID 0 says. A subnet manager configures a port once its physical link is up (INIT and ARMED ports have
     * one), so SM LID 0 means no subnet manager only then; on a port without a link, or whose link is not known, it
     * is what every such port shows.
     */
    private static String smLidZero(RdmaDevices.RdmaPort port) {
        String phys = port.physState().orElse("");
        if (phys.equals("LinkUp") || port.state().get().equals("INIT") || port.state().get().equals("ARMED")) {
            return " (no subnet manager has configured the port)";
        }
        return phys.isEmpty() ? " (the port is " + port.state().get() + ", its physical state not read: a subnet manager configures a port only "
                + "once its link is up)" : " (expected with physical state " + phys + ": a subnet manager configures a port only once "
                + "its link is up)";
    }

    /** What the physical state, LID and SM LID say about a port that is not ACTIVE. */
    private static String why(RdmaDevices.RdmaPort port) {
        if (port.physState().orElse("").equals("Disabled")) {
            return disabled(port.linkLayer().orElse(""));
        }
        boolean link = port.physState().orElse("").equals("LinkUp");
        boolean ib = port.linkLayer().orElse("").equals("InfiniBand");
        if (!link || !ib || !port.lid().isValue() || port.lid().get() != NO_LID) {
            return "";
        }
        if (port.smLid().isValue() && port.smLid().get() == 0) {
            return ": link up, LID " + NO_LID + " and SM LID 0, no subnet manager has configured it";
        }
        return ": link up but LID " + NO_LID + " (none assigned)" + port.smLid().map(l -> " while the subnet manager at LID " + l
                + " is known").orElse("");
    }

    /**
     * Physical state 3, Disabled. On InfiniBand it is IBTA PortPhysicalState Disabled: the port was switched off by
     * management (a SubnSet(PortInfo), as `ibportstate … disable` sends, infiniband-diags/ibportstate.c), and it
     * stays off whatever the cable does. Ethernet RDMA drivers report it when the net device is not running or has no
     * carrier (mlx5_query_port_roce, irdma_query_port, qedr, ocrdma, mana_ib: "phys_state = DISABLED" unless
     * netif_running and netif_carrier_ok).
     */
    private static String disabled(String linkLayer) {
        String ib = "switched off by management (`ibportstate … disable`, the subnet manager or the switch), not a cable fault";
        String eth = "its net device is down or has no carrier (an Ethernet RDMA driver reports Disabled then)";
        return switch (linkLayer) {
            case "InfiniBand" -> ": " + ib;
            case "Ethernet" -> ": " + eth;
            default -> ": on InfiniBand, " + ib + "; on Ethernet, " + eth;
        };
    }
}
