package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.List;

/**
 * Intel client CPUs pass PCIe peer-to-peer writes between root ports but not reads: "Intel client CPUs are known to
 * only support PCIe P2P writes" (NVIDIA, in the field report; NVIDIA/open-gpu-kernel-modules#1253).
 */
public final class IntelClientP2pReads implements Rule {

    static final RuleInfo INFO = new RuleInfo("INTEL_CLIENT_P2P_READS", Severity.WARN,
            "Intel client platform: peer-to-peer reads between root ports do not work",
            "On Intel client CPUs (Alder, Raptor, Meteor, Arrow Lake) the root complex forwards peer-to-peer writes "
                    + "between root ports but not reads. A NIC on one root port can write into GPU memory on another (RDMA "
                    + "receive works) but its reads of GPU memory (RDMA send with GPUDirect) never complete, and no error "
                    + "counter anywhere records it: no AER, no Unsupported Request, no Completion Timeout. NVIDIA "
                    + "confirmed it as a hardware limitation with no driver knob. NCCL's default (GDR off beyond PXB) "
                    + "avoids it; NCCL_NET_GDR_LEVEL=PHB or SYS turns it into failures or host-staged fallbacks.",
            "the CPU family/model (Intel family 6 client models) and the PCIe path of every GPU-NIC and GPU-GPU pair",
            "Keep NCCL_NET_GDR_LEVEL at its default on this node (or NCCL_NET_GDR_READ=0 if GDR must be on), or put "
                    + "GPU and NIC behind one PCIe switch, the only configuration in which reads work.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var platform = TopologyView.platform(s);
        if (!platform.isValue()) {
            return Outcome.waived("CPU not identified: " + platform.reason());
        }
        if (platform.get().platformClass() != PlatformIdentity.PlatformClass.INTEL_CLIENT) {
            return Outcome.waived("not an Intel client platform (" + platform.get().codename() + ")");
        }
        var topology = GpuNicPaths.topology(s, ctx);
        if (topology.isEmpty()) {
            return Outcome.waived("the PCI bus could not be read");
        }
        List<String> crossing = new ArrayList<>();
        for (Topology.Pair p : topology.get().pairs()) {
            boolean gpuPair = p.a().startsWith("GPU") || p.b().startsWith("GPU");
            if (gpuPair && p.smiPath().compareTo(SmiPath.PXB) > 0) {
                crossing.add(p.a() + "-" + p.b() + " " + p.smiPath() + " (" + topology.get().endpoint(p.a()).address()
                        + " <-> " + topology.get().endpoint(p.b()).address() + ")");
            }
        }
        if (crossing.isEmpty()) {
            boolean anyGpu = topology.get().endpoints().stream().anyMatch(e -> e.kind() == DeviceKind.GPU);
            return anyGpu ? Outcome.pass() : Outcome.waived("no NVIDIA GPU");
        }
        List<String> evidence = new ArrayList<>();
        evidence.add("CPU: " + platform.get().codename() + " (Intel client)");
        evidence.addAll(crossing);
        Finding f = finding("node", crossing.size() + (crossing.size() == 1 ? " GPU pair crosses" : " GPU pairs cross")
                + " root ports of an Intel client CPU: NIC or GPU reads of GPU memory across them fail silently", evidence);
        return Outcome.flag(f);
    }
}
