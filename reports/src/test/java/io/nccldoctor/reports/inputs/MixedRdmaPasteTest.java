package io.nccldoctor.reports.inputs;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.parsed.RdmaJudgement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An RDMA paste that holds a known tool's output beside more lines of a tool nccl-doctor does not read is still read
 * as RDMA state, the rest listed as not understood. The joined text is made here from two real outputs of the corpus,
 * for this test only.
 */
class MixedRdmaPasteTest {

    private static final Path RDMA = Path.of("../corpus/rdma");
    private final InputReader reader = new InputReader(() -> new RuleContext(RulesConfig.defaults(), NodeShape.none()));

    @TempDir
    Path tmp;

    @Test
    void mlxfwmanagerBlocksBeforeIbstatusAreReadWithoutACommandLine() {
        ParsedInput p = reader.read(RDMA.resolve("mlxfwmanager-ibstatus-cx3-vpi-ib-and-eth-port.txt"));
        assertThat(p.kind()).isEqualTo(InputKind.RDMA);
        assertThat(p.evidence()).isEqualTo("its mlxfwmanager, ibstatus output");
        assertThat(((RdmaJudgement) p.model()).paste().notUnderstood()).isEmpty();
    }

    /** ibstatus (16 lines) after 12 lines of `mlxlink` (13 with a blank one), no command line: the header line shows the kind. */
    @Test
    void aToolsOwnHeaderShowsTheKindWhateverElseThePasteHolds() throws IOException {
        List<String> mlxlink = Files.readAllLines(RDMA.resolve("mlxfwmanager-spectrum-switch-then-mlxlink.txt")).subList(23, 36);
        List<String> fw = Files.readAllLines(RDMA.resolve("mlxfwmanager-ibstatus-cx3-vpi-ib-and-eth-port.txt"));
        List<String> joined = new ArrayList<>(mlxlink);
        joined.addAll(fw.subList(34, fw.size()));
        Path file = Files.write(tmp.resolve("mlxlink-then-ibstatus.txt"), joined);
        ParsedInput p = reader.read(file);
        assertThat(p.kind()).isEqualTo(InputKind.RDMA);
        RdmaPaste paste = ((RdmaJudgement) p.model()).paste();
        assertThat(paste.lines().notUnderstood()).isEqualTo(12);
        assertThat(paste.lines().facts()).isEqualTo(14);
        assertThat(paste.notUnderstood().get(0).text()).isEqualTo("Operational Info");
    }
}
