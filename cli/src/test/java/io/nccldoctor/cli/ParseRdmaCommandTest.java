package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `parse rdma` as a user runs it, on real pasted state text (gdr-probe fixtures/public). */
class ParseRdmaCommandTest {

    static final String PUBLIC = "../gdr-probe/src/test/resources/fixtures/public/";

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), false);
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void aPortNotActiveIsExitOne() {
        Run r = run("parse", "rdma", PUBLIC + "lsmod-ls-l-ibstat-cx4-ib-init-no-sm.txt");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("ls, ibstat (2 sections", "12 not understood", "ERROR  RDMA_PORT_NOT_ACTIVE  mlx5_0 port 1",
                "no subnet manager has configured it", "line 13: ib_core");
    }

    @Test
    void warningsAloneAreExitZeroAndJsonCarriesFactsAndFindings() throws Exception {
        Run r = run("parse", "rdma", PUBLIC + "ibv-devinfo-cx5-roce.txt", "--json");
        assertThat(r.code()).isEqualTo(0);
        JsonNode n = Json.mapper().readTree(r.out());
        assertThat(n.get("rdma").get("devices").get("value").get(0).get("ports").get("value").get(0).get("activeMtu").get("value").asInt())
                .isEqualTo(1024);
        assertThat(n.get("evaluation").get("findings").get(0).get("code").asText()).isEqualTo("ROCE_MTU_TOO_SMALL");
    }

    @Test
    void textOfNoRdmaKindIsExitTwoWithTheKindsTried() {
        Run r = run("parse", "rdma", PUBLIC + "perftest-write-bw-roce-cx5-client.txt");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("none of the RDMA state outputs (ibv_devinfo, ibstat, ibstatus, sysfs, ls, show_gids, "
                + "ibdev2netdev, rdma link, rdma dev, rdma res, show_counters, mlnx_qos, ethtool -S, mlxfwmanager, ethtool -i, ethtool IFACE, ibportstate, ibv_devices, mst status) was recognised");
        assertThat(r.err().lines().count()).as("one line, no stack trace").isEqualTo(1);
    }

    @Test
    void theFormatListAndHelpNameRdma() {
        Run bad = run("parse", "rdmaa", "x");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("known: nvidia-smi-topo, perftest, nccl-tests, nccl-log, rdma");
        assertThat(run("parse", "--help").out()).contains("rdma (pasted RDMA state", "nccl-doctor parse rdma");
    }
}
