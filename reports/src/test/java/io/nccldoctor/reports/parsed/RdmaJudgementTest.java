package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.gdr.text.RdmaTextReader;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RDMA rules on real pasted state text (gdr-probe's fixtures/public, whose README cites each source): the faults
 * those outputs show, and nothing else.
 */
class RdmaJudgementTest {

    static final Path PUBLIC = Path.of("../gdr-probe/src/test/resources/fixtures/public");

    static RdmaJudgement judge(String file) throws IOException {
        RdmaPaste p = RdmaTextReader.parse(Files.readAllLines(PUBLIC.resolve(file)), file);
        return RdmaJudgement.of(p, RuleContext.defaults());
    }

    static List<String> codes(RdmaJudgement j) {
        return j.evaluation().findings().stream().map(f -> f.code() + ":" + f.subject()).toList();
    }

    /** @param findings "CODE:subject" of every finding, in order */
    record Row(String file, List<String> findings, int exitCode) {
        @Override
        public String toString() {
            return file;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("lsmod-ls-l-ibstat-cx4-ib-init-no-sm.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx5_0 port 1"), 1),
                new Row("ibstat-vf-down-lid65535.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx5_7 port 1"), 1),
                new Row("ibv-devinfo-vf-port-init-retyped.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx5_7 port 1"), 1),
                new Row("ibv-devinfo-cx7-ib-down-lid65535.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx5_0 port 1"), 1),
                new Row("ibv-devinfo-mlx4-ib-two-hcas.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx4_1 port 2", "RDMA_PORT_NOT_ACTIVE:mlx4_0 port 2"), 1),
                new Row("ibv-devinfo-v-mlx4-port2-polling.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx4_1 port 2"), 1),
                new Row("rdma-link-dev-ibstat-bnxt-re-cut.txt", List.of("RDMA_PORT_NOT_ACTIVE:bnxt_re1 port 1"), 1),
                new Row("ibv-devinfo-cx5-roce.txt", List.of("ROCE_MTU_TOO_SMALL:mlx5_0 port 1"), 0),
                new Row("ibv-devinfo-cx6dx-roce-mtu1024-cx6-ib.txt", List.of("RDMA_PORT_NOT_ACTIVE:mlx5_1 port 1",
                        "ROCE_MTU_TOO_SMALL:mlx5_0 port 1"), 1),
                new Row("mlnx-qos-dscp-pfc3-shell-trace.txt", List.of("ROCE_PFC_OFF:eth4"), 0),
                new Row("ibv-devinfo-cx7-roce.txt", List.of(), 0),
                new Row("ibstat-cx7-roce.txt", List.of(), 0),
                new Row("ibstat-cx6dx-roce-log-heading.txt", List.of(), 0),
                new Row("sysfs-ib-ibstatus-roce-100g.txt", List.of(), 0),
                new Row("show-gids-cx6.txt", List.of(), 0),
                new Row("show-gids-k8s-macvlan-pod.txt", List.of(), 0),
                new Row("show-gids-indented-two-hcas.txt", List.of(), 0),
                new Row("rdma-link-cx6dx.txt", List.of(), 0));
    }

    @ParameterizedTest
    @MethodSource("rows")
    void eachRealOutputHasTheFindingsItShows(Row row) throws IOException {
        RdmaJudgement j = judge(row.file());
        assertThat(codes(j)).as("findings on %s", row.file()).isEqualTo(row.findings());
        assertThat(j.exitCode()).isEqualTo(row.exitCode());
    }

    @Test
    void aPortInInitWithLid65535AndNoSubnetManagerIsSaidSo() throws IOException {
        Finding f = judge("lsmod-ls-l-ibstat-cx4-ib-init-no-sm.txt").evaluation().findings().get(0);
        assertThat(f.title()).isEqualTo("mlx5_0 port 1 is INIT (LinkUp): link up, LID 65535 and SM LID 0, no subnet manager has "
                + "configured it");
        assertThat(f.evidence()).contains("LID 65535 (none assigned)", "SM LID 0 (no subnet manager has configured the port)");
        Finding vf = judge("ibstat-vf-down-lid65535.txt").evaluation().findings().get(0);
        assertThat(vf.title()).isEqualTo("mlx5_7 port 1 is DOWN (LinkUp): link up but LID 65535 (none assigned) while the subnet "
                + "manager at LID 1 is known");
    }

    @Test
    void anActiveMtuOf1024IsNamedWithTheHardwaresMaximum() throws IOException {
        Finding f = judge("ibv-devinfo-cx5-roce.txt").evaluation().findings().get(0);
        assertThat(f.evidence()).containsExactly("active_mtu 1024 < 4096 (max_mtu 4096)");
    }

    @Test
    void ncclsDefaultTrafficClassMissesThePfcPriority() throws IOException {
        Finding f = judge("mlnx-qos-dscp-pfc3-shell-trace.txt").evaluation().findings().get(0);
        assertThat(f.title()).isEqualTo("NCCL's RoCE traffic goes to priority 0, where PFC is off (PFC is on [3])");
        assertThat(f.evidence()).containsExactly("trust dscp; PFC enabled on priorities [3]",
                "traffic class 0 (NCCL_IB_TC unset: NCCL's default) → DSCP 0 → priority 0; per-port traffic class: none in the "
                        + "input (MLNX_OFED applies one to every QP when set: cat /sys/class/infiniband/DEV/tc/1/traffic_class)",
                "NCCL_IB_TC=106 would be DSCP 26, priority 3, where PFC is on");
        assertThat(judge("mlnx-qos-dscp-pfc3-shell-trace.txt").paste().notes()).as("the script's write is told, not taken as a value")
                .contains("line 37 writes traffic class 106 to mlx5_2 port 1 (tc/1/traffic_class): a command, whose result the input "
                        + "does not show");
    }

    @Test
    void jsonCarriesTheFactsTheLinesAndTheFindings() throws IOException {
        JsonNode n = Json.mapper().readTree(Json.write(judge("rdma-link-dev-ibstat-bnxt-re-cut.txt")));
        assertThat(n.get("sections").get(0).get("kind").asText()).isEqualTo("rdma link");
        assertThat(n.get("lines").get("notUnderstood").asInt()).isEqualTo(2);
        assertThat(n.get("notUnderstood").get(0).get("text").asText()).isEqualTo("RDMA");
        assertThat(n.get("rdma").get("devices").get("value").get(1).get("name").asText()).isEqualTo("bnxt_re1");
        assertThat(n.get("evaluation").get("findings").get(0).get("code").asText()).isEqualTo("RDMA_PORT_NOT_ACTIVE");
        assertThat(n.get("evaluation").get("notChecked").findValuesAsText("code")).contains("ROCE_PFC_OFF", "ARP_FLUX");
    }

    @Test
    void theTextSaysWhatWasReadAndListsWhatWasNot() throws IOException {
        String t = RdmaText.render(judge("mlnx-qos-dscp-pfc3-shell-trace.txt"));
        assertThat(t).startsWith("RDMA state from mlnx-qos-dscp-pfc3-shell-trace.txt: mlnx_qos (2 sections; 74 lines: 22 read, "
                + "40 known and not needed, 10 blank or commands, 2 not understood)\n");
        assertThat(t).contains("  net device eth4  trust dscp, PFC on priorities [3], DCBX OS controlled\n",
                "  WARN  ROCE_PFC_OFF  eth4: NCCL's RoCE traffic goes to priority 0", "Not understood (2 lines)\n  line 39: 106\n");
        String counters = RdmaText.render(judge("sysfs-counters-find-cat-cx7.txt"));
        assertThat(counters).contains("link_downed 255 (at its 8-bit maximum: it has stopped counting)",
                "port_xmit_wait 4294967295 (at its 32-bit maximum: it has stopped counting)", "port_xmit_data 205143497464492,");
    }
}
