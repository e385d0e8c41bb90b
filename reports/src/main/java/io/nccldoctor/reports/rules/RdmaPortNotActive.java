package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
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

    static final RuleInfo INFO = new RuleInfo("RDMA_PORT_NOT_ACTIVE", Severity.ERROR,
            "an RDMA port is not ACTIVE",
            "NCCL uses only ports in state ACTIVE. A port that is DOWN (no cable, no link partner), INIT or ARMED (an "
                    + "InfiniBand port waiting for the subnet manager) or in Polling leaves the job with fewer rails than "
                    + "the node has, or with none, and then NCCL falls back to TCP sockets without an error.",
            "state and phys_state of every port in /sys/class/infiniband",
            "Check the cable and the switch port (`ibstat`, `rdma link`); for InfiniBand, that a subnet manager runs "
                    + "(INIT/ARMED); exclude the port with NCCL_IB_HCA until it is fixed, or drain the node.");

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
        List<Finding> findings = new ArrayList<>();
        for (RdmaPorts.Port p : ports.get()) {
            if (p.port().state().isValue() && !p.port().state().get().equals("ACTIVE")) {
                findings.add(finding(p.label(), p.label() + " is " + p.port().state().get() + " (" + p.port().physState().orElse("?") + ")",
                        List.of("state " + p.port().state().get(), "phys_state " + p.port().physState().describe(),
                                "link layer " + p.port().linkLayer().describe())));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
