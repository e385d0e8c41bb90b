package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.LspciFragment;
import io.nccldoctor.pcie.LspciText;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PcieConfig;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import java.util.ArrayList;
import java.util.List;

/**
 * ACS_REDIRECT_ON_P2P_PATH on text that shows ports but no NVIDIA GPU (a switch's blocks, {@code lspci -vvv | grep
 * ACSCtl}): which peer-to-peer paths cross a port is unknown without the GPUs, but a port with ReqRedir+ or CmpltRedir+
 * sends every request or completion that reaches it up to the root complex (PCIe Base spec, ACS Control register;
 * reference/peers-and-platform.md B3), and that is what the question about the bridges asks.
 */
final class AcsPorts {

    private AcsPorts() {
    }

    /** True when the ACS control shows request or completion redirect on. */
    static boolean redirects(Fact<List<String>> acs) {
        return acs.isValue() && (acs.get().contains("ReqRedir") || acs.get().contains("CmpltRedir"));
    }

    static Outcome withoutGpus(Rule rule, List<PciDevice> devices, List<LspciFragment> fragments) {
        List<String> on = new ArrayList<>();
        String subject = null;
        int shown = 0;
        int denied = 0;
        for (PciDevice d : devices) {
            shown += d.config().acsControl().isValue() ? 1 : 0;
            denied += unprivileged(d.config()) ? 1 : 0;
            if (redirects(d.config().acsControl())) {
                subject = subject != null ? subject : d.address();
                on.add(d.address() + d.names().map(n -> " (" + n.device() + ")").orElse("") + ": " + flags(d.config()));
            }
        }
        for (LspciFragment f : fragments) {
            shown += f.config().acsControl().isValue() ? 1 : 0;
            denied += unprivileged(f.config()) ? 1 : 0;
            if (redirects(f.config().acsControl())) {
                subject = subject != null ? subject : f.device().orElse("excerpt line " + f.firstLine());
                on.add(f.device().orElse("a function the excerpt does not name") + " (" + f.source() + " line "
                        + f.firstLine() + (f.lastLine() > f.firstLine() ? "-" + f.lastLine() : "") + "): " + flags(f.config()));
            }
        }
        if (!on.isEmpty()) {
            List<String> evidence = new ArrayList<>(on);
            evidence.add("the GPUs are not in the text: which GPU-GPU or GPU-NIC paths cross these ports is not shown");
            return Outcome.flag(rule.finding(subject, "ACS redirect on " + on.size() + " of " + shown
                    + " functions whose ACSCtl the text shows: peer-to-peer traffic through them goes up to the root complex",
                    evidence));
        }
        if (shown > 0) {
            return Outcome.pass();
        }
        if (denied > 0) {
            return Outcome.waived("lspci ran without root ('Capabilities: <access denied>' on " + denied + (denied == 1 ? " function" : " functions")
                    + "), so no ACSCtl (nor LnkSta) line was shown; run `sudo lspci -vvv`");
        }
        return Outcome.waived("no NVIDIA GPU and no ACSCtl line in the text (`sudo lspci -vvv` shows them)");
    }

    private static String flags(PcieConfig c) {
        return "ACSCtl " + String.join("+ ", c.acsControl().get()) + "+";
    }

    private static boolean unprivileged(PcieConfig c) {
        return !c.acsControl().isValue() && c.acsControl().reason().equals(LspciText.UNPRIVILEGED);
    }
}
