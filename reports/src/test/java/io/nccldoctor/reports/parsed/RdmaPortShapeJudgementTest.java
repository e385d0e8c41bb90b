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
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The port rules on the real pastes of corpus/rdma whose link layer only the rdma link line's shape tells, and whose
 * ports are physically Disabled: the rules agree on which ports are RoCE, and Disabled is told for what it is.
 */
class RdmaPortShapeJudgementTest {

    static final Path CORPUS = Path.of("../corpus/rdma");

    static RdmaJudgement judge(String file) throws IOException {
        RdmaPaste p = RdmaTextReader.parse(Files.readAllLines(CORPUS.resolve(file)), file);
        return RdmaJudgement.of(p, RuleContext.defaults());
    }

    static String waived(RdmaJudgement j, String code) {
        return j.evaluation().notChecked().stream().filter(n -> n.code().equals(code)).map(Evaluation.NotChecked::reason)
                .findFirst().orElse("(judged)");
    }

    /** mlx5_4 is an Ethernet port by its line's shape: the GID and MTU rules see it as RoCE, as the PFC rules do. */
    @Test
    void theRoceRulesAndTheNetDeviceRulesAgreeOnTheEthernetPortOfAnRdmaLinkPaste() throws IOException {
        RdmaJudgement j = judge("rdma-link-ib-sriov-pf-disabled-and-eth-port.txt");
        assertThat(waived(j, "ROCE_NO_V2_GID")).startsWith("no GID table").doesNotContain("no RoCE port");
        assertThat(waived(j, "ROCE_MTU_TOO_SMALL")).doesNotContain("no RoCE port");
        assertThat(waived(j, "ROCE_PFC_OFF")).contains("mlx5_4 port 1 (enp97s0f0)");
        assertThat(j.evaluation().findings()).extracting(f -> f.code() + ":" + f.subject()).containsExactly(
                "RDMA_PORT_NOT_ACTIVE:mlx5_1 port 1", "RDMA_PORT_NOT_ACTIVE:mlx5_3 port 1", "RDMA_PORT_NOT_ACTIVE:mlx5_5 port 1",
                "RDMA_PORT_NOT_ACTIVE:mlx5_7 port 1");
    }

    @Test
    void aDisabledInfinibandPortIsSwitchedOffNotUnplugged() throws IOException {
        for (String file : List.of("rdma-link-ib-sriov-pf-disabled-and-eth-port.txt", "ibportstate-ibstat-mlx4-port-disabled.txt")) {
            Finding f = judge(file).evaluation().findings().get(0);
            assertThat(f.title()).as(file).endsWith("is DOWN (Disabled): switched off by management (`ibportstate … disable`, "
                    + "the subnet manager or the switch), not a cable fault");
            assertThat(f.evidence()).as(file).contains("link layer InfiniBand");
        }
    }

    @Test
    void aDisabledEthernetPortHasItsNetDeviceDownOrWithoutCarrier() throws IOException {
        List<Finding> f = judge("ibdev2netdev-rdma-link-old-format-mixed-ib-eth.txt").evaluation().findings();
        assertThat(f).extracting(Finding::title).containsExactly(
                "mlx5_0 port 1 is DOWN (Disabled): its net device is down or has no carrier (an Ethernet RDMA driver reports Disabled then)",
                "mlx5_4 port 1 is DOWN (Disabled): its net device is down or has no carrier (an Ethernet RDMA driver reports Disabled then)");
    }

    @Test
    void withNoLinkLayerReadTheWaiverSaysHowManyPortsAndThatTheirNetDevicesAreStillChecked() throws IOException {
        RdmaPaste p = RdmaTextReader.parse(List.of("$ ibdev2netdev", "mlx5_0 port 1 ==> ens4f0 (Up)",
                "mlx5_1 port 1 ==> ib0 (Up)"), "ibdev2netdev-only");
        RdmaJudgement j = RdmaJudgement.of(p, RuleContext.defaults());
        assertThat(waived(j, "ROCE_NO_V2_GID")).isEqualTo("no RoCE port: 2 ports with no link layer read (their net devices, if any, are "
                + "still checked by the net device rules)");
        assertThat(waived(judge("ibportstate-ibstat-mlx4-port-disabled.txt"), "ROCE_NO_V2_GID"))
                .isEqualTo("no RoCE port: 1 InfiniBand port, 1 port with no link layer read (their net devices, if any, are still checked by the "
                        + "net device rules)");
    }

    @Test
    void theTextListsMlxfwmanagersAdaptersApartFromTheDevices() throws IOException {
        String t = RdmaText.render(judge("mlxfwmanager-ibstatus-cx3-vpi-ib-and-eth-port.txt"));
        assertThat(t).contains("Adapters (mlxfwmanager; they name no RDMA device)\n"
                + "  Device #1 (line 1)  PCI 42:00.0  ConnectX3  MCX354A-QCB_Ax  PSID MT_1090110018  fw 2.36.5150  available 2.36.5000  Up to date\n"
                + "  Device #1 (line 17)  PCI 42:00.0  ConnectX3  MCX354A-QCB_Ax  PSID MT_1090110018  fw 2.42.5000  available 2.42.5000  Up to date\n");
        assertThat(t).startsWith("RDMA state from mlxfwmanager-ibstatus-cx3-vpi-ib-and-eth-port.txt: mlxfwmanager, ibstatus (2 sections; "
                + "52 lines: 28 read, 17 known and not needed, 7 blank or commands, 0 not understood)");
    }

    @Test
    void anEfaPortIsNoInfinibandPort() throws IOException {
        RdmaJudgement j = judge("ibv-devinfo-efa-transport-unspecified.txt");
        assertThat(waived(j, "ROCE_NO_V2_GID")).isEqualTo("no RoCE port: 1 port of another link layer (Unknown)");
    }
}
