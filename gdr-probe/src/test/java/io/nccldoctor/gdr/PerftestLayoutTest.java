package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Table and file shapes no public output shows (fixtures/public/README.md says so), written with the format strings of
 * linux-rdma/perftest src/perftest_parameters.h and perftest_parameters.c at 26.04.17: synthetic text, real formats.
 */
class PerftestLayoutTest {

    private static final String LINE = "---------------------------------------------------------------------------------------";

    /** RESULT_FMT_LAT_DUR + RESULT_EXT_CPU_UTIL header; REPORT_FMT_LAT_DUR " %-7lu       %lu            %-7.2f        %-7.2f" + "\t    %-3.2f". */
    @Test
    void durationLatencyWithCpuUtilisation() {
        PerftestOutput p = PerftestOutput.parse(List.of("                    RDMA_Write Latency Test", LINE,
                " #bytes        #iterations       t_avg[usec]    tps average    CPU_Util[%]",
                String.format(Locale.ROOT, " %-7d       %d            %-7.2f        %-7.2f", 64, 3456789, 1.43, 349650.35) + String.format(Locale.ROOT, "\t    %-3.2f", 99.12),
                LINE), "duration.txt");
        assertThat(p.latencyRows()).singleElement().satisfies(r -> {
            assertThat(r.avgUs().get()).isEqualTo(1.43);
            assertThat(r.transactionsPerSecond().get()).isEqualTo(349650.35);
            assertThat(r.minUs().isAbsent()).isTrue();
            assertThat(r.extra()).containsEntry("CPU_Util[%]", 99.12);
        });
        assertThat(p.notUnderstood()).isEmpty();
    }

    /** RESULT_FMT_G_QOS and REPORT_FMT_QOS: the #sl column sits between #bytes and #iterations. */
    @Test
    void serviceLevelColumnIsNotReadAsIterations() {
        PerftestOutput p = PerftestOutput.parse(List.of("                    Send BW Test",
                " #bytes    #sl      #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]",
                String.format(Locale.ROOT, " %-7d    %d           %d           %-7.2f            %-7.2f                  %-7.6f", 1024, 3, 1000000, 92.10, 91.87, 11.214)),
                "qos.txt");
        assertThat(p.rows()).singleElement().satisfies(r -> {
            assertThat(r.iterations()).isEqualTo(1000000);
            assertThat(r.average()).isEqualTo(91.87);
            assertThat(r.extra()).containsEntry("#sl", 3.0);
        });
    }

    /** RESULT_FMT_G_PER_PORT and REPORT_FMT_PER_PORT (--report-per-port). */
    @Test
    void perPortColumnsAreKept() {
        PerftestOutput p = PerftestOutput.parse(List.of("                    RDMA_Write BW Test",
                " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]   BW Port1[Gb/sec]   MsgRate Port1[Mpps]   BW Port2[Gb/sec]   MsgRate Port2[Mpps]",
                String.format(Locale.ROOT, " %-7d    %-10d     %-7.2f            %-7.2f\t\t   %-7.6f        %-7.2f            %-7.6f              %-7.2f            %-7.6f",
                        65536, 5000, 190.10, 189.50, 0.361, 95.0, 0.181, 94.5, 0.180)), "ports.txt");
        assertThat(p.rows().get(0).average()).isEqualTo(189.50);
        assertThat(p.rows().get(0).extra()).containsEntry("BW Port2[Gb/sec]", 94.5).containsEntry("MsgRate Port1[Mpps]", 0.181);
    }

    @Test
    void aTableHeaderWithUnknownColumnsIsReportedAndItsRowsNotRead() {
        PerftestOutput p = PerftestOutput.parse(List.of("                    RDMA_Write BW Test",
                " #bytes     #iterations    BW peak[Gb/sec]    BW median[Gb/sec]   MsgRate[Mpps]",
                " 65536      5000             90.10              89.90                0.171"), "future.txt");
        assertThat(p.rows()).isEmpty();
        assertThat(p.notUnderstood()).hasSize(2);
        assertThat(p.notUnderstood().get(0)).endsWith("(a table header with columns perftest does not print)");
    }

    /**
     * --out_json since 24.04 (write_test_info_to_file, REPORT_FMT_JSON, REPORT_EXT_JSON): one "key": value a line; the
     * WARNING1/WARNING2 keys of the header.
     */
    @Test
    void outJsonStandardForm() {
        PerftestOutput p = PerftestOutput.parse(List.of("{", "\"test_info\": {", "\"test\": \"RDMA_Write_BW_Test\",", "\"Dual_port\": \"OFF\",",
                "\"Device\": \"mlx5_0\",", "\"Number_of_qps\": 1,", "\"Transport_type\": \"IB\",", "\"Connection_type\": \"RC\",", "\"Using_SRQ\": \"OFF\",",
                "\"PCIe_relax_order\": \"ON\",", "\"WARNING1\": \"CPU is not PCIe relaxed ordering compliant\",",
                "\"WARNING2\": \"You should disable PCIe RO with --disable_pcie_relaxed for both server and client\",", "\"ibv_wr_API\": \"ON\",",
                "\"TX_depth\": 128,", "\"CQ_Moderation\": 100,", "\"Mtu\": 4096,", "\"Link_type\": \"IB\",", "\"Max_inline_data\": 0,",
                "\"rdma_cm_QPs\": \"OFF\",", "\"cuda_device\": 0,", "\"Data_ex_method\": \"Ethernet\"", "},", "\"results\": {",
                "\"MsgSize\": 8388608,", "\"n_iterations\": 5000,", "\"BW_peak\": 98.38,", "\"BW_average\": 98.38,", "\"MsgRate\": 0.001466", "}", "}"),
                "perftest_out.json");
        assertThat(p.test().get()).isEqualTo("RDMA_Write_BW_Test");
        assertThat(p.header()).containsEntry("Device", "mlx5_0").containsEntry("TX depth", "128").containsEntry("Mtu", "4096");
        assertThat(p.warnings()).containsExactly("WARNING: CPU is not PCIe relaxed ordering compliant",
                "WARNING: You should disable PCIe RO with --disable_pcie_relaxed for both server and client");
        assertThat(p.rows()).singleElement().satisfies(r -> {
            assertThat(r.bytes()).isEqualTo(8388608);
            assertThat(r.average()).isEqualTo(98.38);
            assertThat(r.msgRateMpps().get()).isEqualTo(0.001466);
        });
        assertThat(p.unit()).contains("does not record");
        assertThat(p.role().get()).isEqualTo("client");
        assertThat(p.gpu().get()).isEqualTo("CUDA device 0");
        assertThat(p.notUnderstood()).isEmpty();
    }

    /** --out_json from 4.5-0.11 to 24.01: unquoted keys, trailing commas (not JSON); a latency result, REPORT_FMT_LAT_JSON of then. */
    @Test
    void outJsonOlderUnquotedLatency() {
        PerftestOutput p = PerftestOutput.parse(List.of("{", "test_info: {", "test: Send_Latency_Test,", "Dual_port: OFF,", "Device: \"mlx5_2\",",
                "Number_of_qps: 1,", "Transport_type: IB,", "RX_depth: 512,", "Mtu: 1024,", "Link_type: Ethernet,", "GID_index: 3,",
                "Data_ex_method: Ethernet,", "},", "results: {", "MsgSize: 2,", "n_iterations: 1000,", "t_min: 1.61,", "t_max: 5.02,",
                "t_typical: 1.67,", "t_avg: 1.70,", "t_stdev: 0.17,", "percentile_99: 2.40,", "percentile_99.9: 5.02,", "},", "}"), "old.json");
        assertThat(p.latencyRows()).singleElement().satisfies(r -> {
            assertThat(r.typicalUs().get()).isEqualTo(1.67);
            assertThat(r.p999Us().get()).isEqualTo(5.02);
        });
        assertThat(p.header()).containsEntry("RX depth", "512").containsEntry("Device", "mlx5_2");
        assertThat(p.role().isAbsent()).isTrue();
        assertThat(p.notUnderstood()).isEmpty();
    }

    @Test
    void jsonThatIsNotPerftestsIsRefused() {
        assertThatThrownBy(() -> PerftestOutput.parse(List.of("{\"hello\": [1, 2]}"), "other.json"))
                .isInstanceOf(InputException.class).hasMessageStartingWith("other.json: not a perftest --out_json file");
    }
}
