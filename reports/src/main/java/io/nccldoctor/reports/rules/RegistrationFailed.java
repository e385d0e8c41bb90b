package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.Registration;
import io.nccldoctor.gdr.RegistrationProbe;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** `gdr --active`: an HCA could not register a GPU's memory by either mechanism. */
public final class RegistrationFailed implements Rule {

    static final RuleInfo INFO = new RuleInfo("GDR_REGISTRATION_FAILED", Severity.WARN,
            "an HCA could not register GPU memory by DMA-BUF or the peer-memory client",
            "`gdr --active` allocated 2 MiB on the GPU and asked each HCA to register it: once as a DMA-BUF "
                    + "(cuMemGetHandleForAddressRange, then ibv_reg_dmabuf_mr) and once through the peer-memory client "
                    + "(ibv_reg_mr on the GPU pointer). If both fail, NCCL cannot use GPUDirect RDMA with that pair whatever "
                    + "the topology says. The errno tells which layer refused: EFAULT (14) no peer-memory client or a GPU "
                    + "without GPUDirect RDMA, EOPNOTSUPP (95) / EPROTONOSUPPORT (93) no DMA-BUF support in kernel, driver "
                    + "or NIC firmware.",
            "the registration results of `gdr --active` per GPU and HCA, and NCCL's fd -1 probe per HCA",
            "Follow the errno: load nvidia_peermem, or update kernel (5.12+), rdma-core (34+), NIC firmware and the "
                    + "NVIDIA driver (open kernel module) for DMA-BUF; a GeForce GPU cannot do either.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        Registration r = s.section(RegistrationProbe.KEY, Registration.class);
        if (r == null) {
            return Outcome.waived("not tried (`nccl-doctor gdr --active`)");
        }
        if (!r.pairs().isValue()) {
            return Outcome.waived(r.pairs().reason());
        }
        List<Finding> findings = new ArrayList<>();
        for (Registration.PairResult p : r.pairs().get()) {
            boolean ok = p.dmabuf().orElse("").equals("registered") || p.peermem().orElse("").equals("registered");
            if (!ok) {
                findings.add(finding(p.gpuBusId() + "-" + p.hca(), p.hca() + " cannot register memory of GPU " + p.gpuBusId(),
                        List.of("DMA-BUF: " + p.dmabuf().describe(), "peer-memory client: " + p.peermem().describe())));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
