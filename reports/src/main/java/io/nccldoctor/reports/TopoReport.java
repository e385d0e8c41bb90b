package io.nccldoctor.reports;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.LspciFragment;
import io.nccldoctor.pcie.PciCensus;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.pcie.TopologyComparison;
import java.util.List;

/**
 * The JSON document of {@code topo --json}: the snapshot it was computed from, the platform identity, the topology
 * (devices, pairs with nvidia-smi and NCCL path types and their links), the census of every PCI function, the
 * header-less lspci fragments, what was not understood, the topology findings and the exit code.
 */
public record TopoReport(int schemaVersion, String kind, Snapshot snapshot, Fact<PlatformIdentity> platform,
                         Fact<Topology> topology, Fact<TopologyComparison> nvidiaSmi, Fact<PciCensus> census,
                         List<LspciFragment> lspciFragments, List<String> notUnderstood, List<Finding> findings,
                         List<Evaluation.NotChecked> notChecked, int exitCode) {

    public static TopoReport of(Snapshot s, Fact<PlatformIdentity> platform, Fact<Topology> topology,
                                Fact<TopologyComparison> nvidiaSmi, List<LspciFragment> fragments, List<String> notUnderstood,
                                Evaluation e) {
        Fact<PciCensus> census = TopologyView.census(s).map(Fact::of).orElseGet(() -> Fact.absent("the PCI bus could not be read"));
        return new TopoReport(Snapshot.SCHEMA_VERSION, "topo", s, platform, topology, nvidiaSmi, census, List.copyOf(fragments),
                List.copyOf(notUnderstood), e.findings(), e.notChecked(), e.exitCode());
    }
}
