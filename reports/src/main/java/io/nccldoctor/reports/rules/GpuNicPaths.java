package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** For each GPU, the NIC(s) closest to it: the pairs NCCL would use for network traffic of that GPU. */
final class GpuNicPaths {

    private GpuNicPaths() {
    }

    record Nearest(Topology.Endpoint gpu, List<Topology.Pair> pairs) {
        SmiPath path() {
            return pairs.get(0).smiPath();
        }
    }

    static Optional<Topology> topology(Snapshot s, RuleContext ctx) {
        return TopologyView.of(s, ctx.ncclVersion());
    }

    /** Every GPU with its nearest NICs (all NICs at the smallest path type); empty when there is no GPU or no NIC. */
    static List<Nearest> nearest(Topology t) {
        List<Nearest> out = new ArrayList<>();
        List<Topology.Endpoint> nics = t.endpoints().stream().filter(e -> e.kind() == DeviceKind.NIC).toList();
        for (Topology.Endpoint g : t.endpoints()) {
            if (g.kind() != DeviceKind.GPU || nics.isEmpty()) {
                continue;
            }
            out.add(new Nearest(g, t.nearestNics(g.label())));
        }
        return out;
    }

    static String other(Topology.Pair p, String label) {
        return p.a().equals(label) ? p.b() : p.a();
    }
}
