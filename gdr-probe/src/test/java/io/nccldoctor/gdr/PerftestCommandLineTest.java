package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Command lines as perftest's getopt string and long options (perftest_parameters.c:3100-3295) read them. */
class PerftestCommandLineTest {

    private static String side(String line) {
        return PerftestCommandLine.of(line).side().fold(s -> s, why -> "unknown: " + why);
    }

    @Test
    void anAddressMakesTheClient() {
        assertThat(side("$ ./ib_write_bw --use_rocm=0 --use_rocm_dmabuf -x 3 -a -F -q 2 --report_gbits -d bnxt_re0 -i 1 <server>"))
                .isEqualTo("client");
        assertThat(side("$ ./ib_write_bw --use_rocm=0 --use_rocm_dmabuf -x 3 -a -F -q 2 --report_gbits -d bnxt_re0 -i 1")).isEqualTo("server");
        assertThat(side("./ib_write_bw -d mlx5_0 -S 0 --report_gbits -m 4096 -x 3 --qp 4 -a -F --tclass 224 -b --use_cuda_dmabuf "
                + "--ipv6-addr --use_data_direct --use_cuda=1 -p 50001")).isEqualTo("server");
        assertThat(side("sudo ib_read_bw -dmlx5_0 -s 65536 10.0.0.2")).as("-s is --size; -dmlx5_0 holds its value").isEqualTo("client");
        assertThat(side("user@node1:~$ ib_send_lat --reversed -d mlx5_0")).as("--reversed swaps the sides").isEqualTo("client");
    }

    @Test
    void rawEthernetNeedsServerOrClient() {
        assertThat(side("# raw_ethernet_lat -d mlx5_1 -E ec:0d:9a:65:dc:e5 -B ec:0d:9a:c1:ba:61 --server")).isEqualTo("server");
        assertThat(side("raw_ethernet_bw -d mlx5_1 -B ec:0d:9a:65:dc:e5 -E ec:0d:9a:c1:ba:61 -P")).isEqualTo("client");
        assertThat(side("raw_ethernet_lat -d mlx5_1 -E ec:0d:9a:65:dc:e5")).startsWith("unknown: raw_ethernet_lat takes its side");
    }

    @Test
    void wordsPerftestWouldNotTakeLeaveTheSideUnknown() {
        assertThat(side("ib_write_bw --no_such_option x 10.0.0.1")).contains("--no_such_option");
        assertThat(side("ib_write_bw 10.0.0.1 10.0.0.2")).contains("Invalid Command line");
        assertThat(PerftestCommandLine.of("run ib_write_bw on both hosts")).isNull();
        assertThat(PerftestCommandLine.of("# run server and client using -use_rocm_dmabuf --use_rocm=0:")).isNull();
    }
}
