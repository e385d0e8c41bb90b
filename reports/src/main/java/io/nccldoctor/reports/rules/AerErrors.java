package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.List;

/** PCIe Advanced Error Reporting counted errors since boot. */
public final class AerErrors implements Rule {

    static final RuleInfo INFO = new RuleInfo("AER_ERRORS_COUNTED", Severity.WARN,
            "PCIe AER errors counted since boot",
            "The kernel counts PCIe errors per device (aer_dev_correctable, _nonfatal, _fatal). Correctable errors "
                    + "(bad TLPs, bad DLLPs, replay timeouts) are retried by the link and cost bandwidth; a steady rise "
                    + "points at a marginal slot, riser or retimer. Non-fatal and fatal errors lose transactions and "
                    + "precede Xid errors and hangs. Errors may be counted at the link partner (the root port) rather "
                    + "than at the faulty endpoint. Note: a silent failure can leave every counter at zero (the field "
                    + "report's NIC reads on Arrow Lake did).",
            "aer_dev_correctable/nonfatal/fatal TOTAL_ERR_* of every PCI function (sysfs, kernel 4.19+)",
            "Compare with a second reading after load (a rising count matters more than a total since boot); reseat or "
                    + "replace the card or riser; check `dmesg | grep -i aer` for the first error's details.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var devices = TopologyView.devices(s);
        if (devices.isEmpty()) {
            return Outcome.waived("the PCI bus could not be read");
        }
        if (devices.get().stream().noneMatch(d -> d.aer().isValue())) {
            return Outcome.waived("no device has AER counters in sysfs");
        }
        List<Finding> findings = new ArrayList<>();
        for (PciDevice d : devices.get()) {
            if (!d.aer().isValue()) {
                continue;
            }
            PciDevice.AerCounts c = d.aer().get();
            if (c.correctable() + c.nonFatal() + c.fatal() == 0) {
                continue;
            }
            Finding f = finding(d.address(), d.kind().name() + " " + d.address() + ": " + c.correctable() + " correctable, "
                    + c.nonFatal() + " non-fatal, " + c.fatal() + " fatal PCIe errors since boot",
                    List.of(d.address() + " [" + d.ids() + "] TOTAL_ERR_COR " + c.correctable() + ", TOTAL_ERR_NONFATAL "
                            + c.nonFatal() + ", TOTAL_ERR_FATAL " + c.fatal()));
            findings.add(c.nonFatal() + c.fatal() > 0 ? f.withSeverity(Severity.ERROR) : f);
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
