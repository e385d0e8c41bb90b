package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.gdr.text.RdmaTextReader;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * ROCE_MTU_TOO_SMALL judges ACTIVE ports only, as NCCL opens only those (net_ib/init.cc), and lists the others as not
 * judged with the MTUs they print, on real ibv_devinfo outputs.
 */
class RoceMtuActivePortsTest {

    private static final Path CORPUS = Path.of("../corpus/rdma");

    private static RdmaJudgement judge(Path file) throws IOException {
        RdmaPaste p = RdmaTextReader.parse(Files.readAllLines(file), file.getFileName().toString());
        return RdmaJudgement.of(p, RuleContext.defaults());
    }

    private static String notChecked(RdmaJudgement j) {
        return j.evaluation().notChecked().stream().filter(n -> n.code().equals("ROCE_MTU_TOO_SMALL")).map(Evaluation.NotChecked::reason)
                .findFirst().orElse("(judged)");
    }

    /** luigifcruz/stelline's ASUS server: four CX-7 ports all PORT_DOWN, active_mtu 1024 on one card, 4096 on the other. */
    @Test
    void portsThatAreAllDownAreNotJudgedAndListedWithTheirMtus() throws IOException {
        RdmaJudgement j = judge(CORPUS.resolve("ibv-devinfo-cx7-4hca-eth-down-mixed-fw.txt"));
        assertThat(j.evaluation().findings()).noneMatch(f -> f.code().equals("ROCE_MTU_TOO_SMALL"));
        assertThat(notChecked(j)).startsWith("4 RoCE ports not ACTIVE, not judged (NCCL uses ACTIVE ports only; the MTUs printed will "
                + "hold once the link is up): mlx5_0 port 1 (DOWN; active_mtu 1024), mlx5_1 port 1 (DOWN; active_mtu 1024), "
                + "mlx5_2 port 1 (DOWN; active_mtu 4096)");
    }

    /** An ACTIVE port at 1024 is still flagged; the DOWN one beside it is said not judged, not flagged. */
    @Test
    void anActivePortIsJudgedAndTheDownOneBesideItIsSaidNotJudged() throws IOException {
        RdmaJudgement j = judge(RdmaJudgementTest.PUBLIC.resolve("ibv-devinfo-cx6dx-roce-mtu1024-cx6-ib.txt"));
        assertThat(j.evaluation().findings()).filteredOn(f -> f.code().equals("ROCE_MTU_TOO_SMALL")).extracting(Finding::subject)
                .containsExactly("mlx5_0 port 1");
        assertThat(notChecked(j)).isEqualTo("1 RoCE port not ACTIVE, not judged (NCCL uses ACTIVE ports only; the MTUs printed will "
                + "hold once the link is up): mlx5_1 port 1 (DOWN; active_mtu 1024)");
    }
}
