package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyComparisonTest {

    /** nvidia-smi's layout (tab-separated, NIC legend) written from a topology, with one cell replaced. */
    static List<String> smiText(Topology t, String pairA, String pairB, String replacement) {
        List<String> lines = new ArrayList<>();
        StringBuilder head = new StringBuilder();
        t.endpoints().forEach(e -> head.append('\t').append(e.label()));
        lines.add(head.append("\tCPU Affinity\tNUMA Affinity").toString());
        for (Topology.Endpoint a : t.endpoints()) {
            StringBuilder row = new StringBuilder(a.label());
            for (Topology.Endpoint b : t.endpoints()) {
                String v = a == b ? " X " : t.pair(a.label(), b.label()).smiPath().name();
                boolean target = (a.label().equals(pairA) && b.label().equals(pairB)) || (a.label().equals(pairB) && b.label().equals(pairA));
                row.append('\t').append(target ? replacement : v);
            }
            lines.add(row.append(a.label().startsWith("GPU") ? "\t0-3\t0" : "\t\t").toString());
        }
        lines.add("");
        lines.add("NIC Legend:");
        lines.add("");
        t.endpoints().stream().filter(e -> e.label().startsWith("NIC")).forEach(e -> lines.add("  " + e.label() + ": " + e.name()));
        return lines;
    }

    @Test
    void onePairThatDiffersIsNamedAndNvlinkIsSetApart() {
        Topology t = TopologyFixturesTest.topology("dgx-class", "2.27.5");
        SmiTopoMatrix same = SmiTopoMatrix.parse(smiText(t, "", "", ""), "same");
        TopologyComparison agree = TopologyComparison.of(t, same);
        assertThat(agree.differences()).isEmpty();
        assertThat(agree.agreements()).isEqualTo(16 * 15 / 2);
        assertThat(agree.unmatched()).isEmpty();

        SmiTopoMatrix one = SmiTopoMatrix.parse(smiText(t, "GPU0", "NIC2", "PXB"), "one");
        assertThat(TopologyComparison.of(t, one).differences()).containsExactly("GPU0-NIC2: nvidia-smi PXB, nccl-doctor NODE");

        SmiTopoMatrix nv = SmiTopoMatrix.parse(smiText(t, "GPU0", "GPU1", "NV18"), "nv");
        TopologyComparison withNvlink = TopologyComparison.of(t, nv);
        assertThat(withNvlink.differences()).isEmpty();
        assertThat(withNvlink.nvlink()).containsExactly("GPU0-GPU1: NV18 (PCIe path PIX)");
    }

    @Test
    void nicsAreMatchedByRdmaNameNotByPosition() {
        Topology t = TopologyFixturesTest.topology("epyc-2s", "2.27.5");
        List<String> text = new ArrayList<>(smiText(t, "", "", ""));
        text.replaceAll(l -> l.replace("NIC0: mlx5_0", "NIC0: mlx5_9"));
        TopologyComparison c = TopologyComparison.of(t, SmiTopoMatrix.parse(text, "renamed"));
        assertThat(c.unmatched()).containsExactly("nvidia-smi NIC0 (mlx5_9)", "nccl-doctor NIC0 (mlx5_0)");
    }
}
