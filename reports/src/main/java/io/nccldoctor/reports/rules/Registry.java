package io.nccldoctor.reports.rules;

import io.nccldoctor.reports.Rule;
import java.util.ArrayList;
import java.util.List;

/** The node rules, in the order their findings are shown. One explicit list: no class-path scanning. */
public final class Registry {

    private Registry() {
    }

    /** Everything preflight judges: the node's basics, its PCIe topology, then GPUDirect RDMA and the RDMA ports. */
    public static List<Rule> nodeRules() {
        List<Rule> all = new ArrayList<>(basics());
        all.addAll(topologyRules());
        all.addAll(gdrRules());
        all.addAll(gpuHealthRules());
        return List.copyOf(all);
    }

    /** GPU health from NVML and the kernel log (docs/health.md). */
    public static List<Rule> gpuHealthRules() {
        return List.of(new GpuXidErrors(), GpuMemory.rowRemapPending(), GpuMemory.rowRemapFailed(), GpuMemory.eccUncorrectable(),
                GpuMemory.retiredPagesPending(), new NvLinkHealth(), NvLinkHealth.errors(), GpuState.throttled(), GpuState.fabric(),
                GpuState.pcieReplays(), GpuState.persistenceOff(), GpuState.migEnabled());
    }

    /** GPUDirect RDMA prerequisites, RDMA ports and RoCE configuration, which `gdr` shows. */
    public static List<Rule> gdrRules() {
        return List.of(
                new GdrUnavailable(),
                new GeforceGpu(),
                new GdrLevelIgnored(),
                new IommuTranslation(),
                new RdmaPortNotActive(),
                RoceConfig.v2Gid(),
                RoceConfig.gidIndex(),
                RoceConfig.mtu(),
                RoceQos.pfc(),
                RoceQos.trust(),
                new RoceDcqcn(),
                new RoceBond(),
                new ArpFlux(),
                new FirmwareMixed(),
                new RegistrationFailed(),
                new GdrReadAsymmetry());
    }

    /** The rules that judge RDMA ports and RoCE settings alone, which `parse rdma` applies to pasted state text. */
    public static List<Rule> rdmaRules() {
        return List.of(new RdmaPortNotActive(), RoceConfig.v2Gid(), RoceConfig.gidIndex(), RoceConfig.mtu(), RoceQos.pfc(),
                RoceQos.trust(), new RoceDcqcn(), new RoceBond(), new ArpFlux(), new FirmwareMixed());
    }

    /** The topology rules that bear on GPUDirect RDMA, which `gdr` shows with its own. */
    public static List<Rule> gdrTopologyRules() {
        return List.of(new GdrDisabledByDistance(), new GdrOffInNcclTopology(), new GpuNicNumaMismatch(), new IntelClientP2pReads());
    }

    /** The PCIe topology rules, which `topo` shows. */
    public static List<Rule> topologyRules() {
        return List.of(
                new GdrDisabledByDistance(),
                new GdrOffInNcclTopology(),
                new GpuNicNumaMismatch(),
                new IntelClientP2pReads(),
                new AcsRedirect(),
                new LinkDegraded(),
                new LinkLimitedBySlot(),
                new AerErrors());
    }

    private static List<Rule> basics() {
        return List.of(
                new NoNvidiaGpu(),
                CountMismatch.gpus(),
                CountMismatch.nics(),
                CountMismatch.rdma(),
                new ProfileMismatch(),
                new NvidiaDriverNotLoaded(),
                new CudaDriverLibraryMissing(),
                new CudaDriverTooOld(),
                new NcclNotFound(),
                new NcclVersionsDiffer(),
                new NcclBelowSiteMinimum(),
                new KnownNcclIssue(),
                new NcclEnvironment.Ignored(),
                new NcclEnvironment.GlobalPin(),
                new NcclEnvironment.IbHcaUnknown(),
                new NcclEnvironment.LazyLoadingIncomplete(),
                new ProbeIncomplete());
    }
}
