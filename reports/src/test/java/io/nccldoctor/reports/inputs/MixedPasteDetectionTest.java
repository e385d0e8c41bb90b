package io.nccldoctor.reports.inputs;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.parsed.RdmaJudgement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Real pastes of two tools (corpus/rdma cites them): the RDMA reader takes its part and is chosen, the evidence says
 * how much of the text was not its own, and the facts it read are judged.
 */
class MixedPasteDetectionTest {

    private static final Path RDMA = Path.of("../corpus/rdma");
    private final InputReader reader = new InputReader(() -> new RuleContext(RulesConfig.defaults(), NodeShape.none()));

    /** mlxfwmanager's 13 lines before mlxlink's unread ones: its command line shows the kind, the rest is counted. */
    @Test
    void mlxfwmanagerBeforeMlxlinkIsReadAfterItsCommandLine() {
        ParsedInput p = reader.read(RDMA.resolve("mlxfwmanager-spectrum-switch-then-mlxlink.txt"));
        assertThat(p.kind()).isEqualTo(InputKind.RDMA);
        RdmaPaste paste = ((RdmaJudgement) p.model()).paste();
        int took = paste.lines().facts() + paste.lines().known() + 1; // and the mlxfwmanager command line
        assertThat(p.evidence()).isEqualTo("its mlxfwmanager output after its command line; it took " + took + " of "
                + (took + paste.lines().notUnderstood()) + " lines, the others are listed as not understood");
        assertThat(paste.adapters()).singleElement().satisfies(a -> assertThat(a.fw().get()).isEqualTo("13.1703.0000"));
    }

    /** lspci, rdma link and ip addr: RDMA state reads the two latter, and the 1500-byte MTU of p1p1 and p1p2 is judged. */
    @Test
    void rdmaLinkWithIpAddrWinsOverTheLspciLines() {
        ParsedInput p = reader.read(RDMA.resolve("lspci-rdma-link-ip-addr-cx6dx-netdev-mtu1500.txt"));
        assertThat(p.kind()).isEqualTo(InputKind.RDMA);
        RdmaJudgement j = (RdmaJudgement) p.model();
        assertThat(j.evaluation().findings()).filteredOn(f -> f.code().equals("ROCE_MTU_TOO_SMALL")).extracting(Finding::subject)
                .containsExactly("mlx5_0 port 1", "mlx5_1 port 1");
        assertThat(j.evaluation().findings()).filteredOn(f -> f.code().equals("ROCE_MTU_TOO_SMALL")).flatExtracting(Finding::evidence)
                .anyMatch(e -> e.startsWith("p1p1 mtu 1500 < "));
    }
}
