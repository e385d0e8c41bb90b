package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.gdr.text.RdmaTextReader;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * RDMA_PORT_NOT_ACTIVE says only what the paste printed: no "(?)" for a physical state not printed, the Disabled
 * remedy only for a Disabled port, and SM LID 0 read as "no subnet manager" only where the port has a link. Real
 * `ibv_devinfo` pastes (corpus/rdma and gdr-probe's public fixtures cite them).
 */
class PortNotActiveWordingTest {

    private static Finding first(Path file) throws IOException {
        RdmaPaste p = RdmaTextReader.parse(Files.readAllLines(file), file.getFileName().toString());
        return RdmaJudgement.of(p, RuleContext.defaults()).evaluation().findings().stream()
                .filter(f -> f.code().equals("RDMA_PORT_NOT_ACTIVE")).findFirst().orElseThrow();
    }

    /** Plain ibv_devinfo prints no phys_state: the title says DOWN and nothing more, the remedy names both causes. */
    @Test
    void aPortWithoutPhysicalStateHasNoQuestionMarkAndNoDisabledClaim() throws IOException {
        Finding f = first(Path.of("../corpus/rdma/ibv-devinfo-cx6dx-eth-port-down-cx7-cut.txt"));
        assertThat(f.title()).isEqualTo("mlx5_12 port 1 is DOWN");
        assertThat(f.remedy()).startsWith("The physical state was not read").doesNotContain("Physical state Disabled is no cable fault");
        assertThat(f.evidence()).as("a RoCE port: no LID evidence").noneMatch(e -> e.startsWith("SM LID") || e.startsWith("LID"));
    }

    /** mlx4_1 port 2 is DOWN with port_lid 0 and sm_lid 0: no link, so no claim about the subnet manager. */
    @Test
    void smLidZeroOnAPortWithoutALinkIsNotABlameOnTheSubnetManager() throws IOException {
        Finding f = first(Path.of("../gdr-probe/src/test/resources/fixtures/public/ibv-devinfo-mlx4-ib-two-hcas.txt"));
        assertThat(f.subject()).isEqualTo("mlx4_1 port 2");
        assertThat(f.title()).isEqualTo("mlx4_1 port 2 is DOWN");
        assertThat(f.evidence()).contains("SM LID 0 (the port is DOWN, its physical state not read: a subnet manager configures a "
                + "port only once its link is up)").noneMatch(e -> e.contains("no subnet manager has configured"));
    }

    @Test
    void theDisabledRemedyStaysForADisabledPort() throws IOException {
        Finding f = first(Path.of("../corpus/rdma/ibportstate-ibstat-mlx4-port-disabled.txt"));
        assertThat(f.title()).contains("is DOWN (Disabled)");
        assertThat(f.remedy()).startsWith("Physical state Disabled is no cable fault");
    }
}
