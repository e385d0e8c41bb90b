package io.nccldoctor.reports.rules;

import io.nccldoctor.reports.Rule;
import java.util.List;

/** The node rules, in the order their findings are shown. One explicit list: no class-path scanning. */
public final class Registry {

    private Registry() {
    }

    public static List<Rule> nodeRules() {
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
