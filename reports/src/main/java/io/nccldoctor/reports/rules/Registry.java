package io.nccldoctor.reports.rules;

import io.nccldoctor.reports.Rule;
import java.util.List;

/** The node rules, in the order their findings are shown. One explicit list: no class-path scanning. */
public final class Registry {

    private Registry() {
    }

    /** Everything preflight judges: the node's basics, then its PCIe topology. */
    public static List<Rule> nodeRules() {
        List<Rule> all = new java.util.ArrayList<>(basics());
        all.addAll(topologyRules());
        return List.copyOf(all);
    }

    /** The PCIe topology rules, which `topo` shows. */
    public static List<Rule> topologyRules() {
        return List.of(
                new GdrDisabledByDistance(),
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
                new NvidiaDriverNotLoaded(),
                new CudaDriverLibraryMissing(),
                new CudaDriverTooOld(),
                new NcclNotFound(),
                new NcclVersionsDiffer(),
                new NcclBelowSiteMinimum(),
                new ProbeIncomplete());
    }
}
