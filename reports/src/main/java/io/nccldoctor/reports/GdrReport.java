package io.nccldoctor.reports;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrDecision;
import io.nccldoctor.gdr.GdrPredictor;
import io.nccldoctor.pcie.Topology;
import java.util.List;
import java.util.Optional;

/**
 * {@code gdr}: the snapshot, the host-wide registration path, NCCL's predicted decision for every GPU–NIC pair
 * with its reason chain, and the GDR and RDMA findings.
 */
public record GdrReport(int schemaVersion, String kind, Snapshot snapshot, Fact<GdrPredictor.Transport> transport,
                        Fact<List<GdrDecision>> decisions, List<Finding> findings, List<Evaluation.NotChecked> notChecked,
                        int exitCode) {

    public static GdrReport of(Snapshot s, Optional<String> ncclVersion, Evaluation e) {
        Fact<GdrPredictor.Transport> transport = Sections.gdrHost(s).map(h -> Fact.of(GdrPredictor.transport(h)))
                .orElse(Fact.absent("GPUDirect prerequisites not probed"));
        Optional<Topology> topology = TopologyView.of(s, ncclVersion);
        Fact<List<GdrDecision>> decisions;
        if (topology.isEmpty()) {
            decisions = Fact.absent("the PCI bus could not be read");
        } else if (!transport.isValue()) {
            decisions = Fact.absent(transport.reason());
        } else {
            var gpus = Sections.gpus(s).orElse(new io.nccldoctor.gdr.GpuSurvey(Fact.absent("not surveyed"), Fact.absent("not surveyed")));
            List<GdrDecision> d = GdrPredictor.decide(topology.get(), gpus, transport.get(), s.env(), TopologyView.platform(s));
            decisions = d.isEmpty() ? Fact.absent("needs an NVIDIA GPU and an RDMA-capable NIC") : Fact.of(d);
        }
        return new GdrReport(Snapshot.SCHEMA_VERSION, "gdr", s, transport, decisions, e.findings(), e.notChecked(), e.exitCode());
    }
}
