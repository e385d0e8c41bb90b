package io.nccldoctor.gdr;

import static io.nccldoctor.gdr.StandInEnv.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.StandInBuild;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NicPortCalls against the libibverbs stand-in (collectives/src/test/c/ibverbs.c, whose ibv_query_port fills rdma-core's
 * compat port attributes): the byte offsets of width, speed and link layer, and the rate they make.
 */
class NicPortCallsTest {

    private static String ibverbs() {
        return StandInBuild.make(Path.of("../collectives/src/test/c"), Path.of("target/standins")).resolve("ibverbs/libibverbs.so.1").toString();
    }

    @Test
    void eachHcaHasOneActivePortAtItsRate() {
        String lib = ibverbs();
        List<NicPorts.Port> ndr = with(Map.of("STANDIN_IBV_DEVICES", "3"), () -> NicPortCalls.query(lib)).get();
        assertThat(ndr).extracting(NicPorts.Port::describe).containsExactly("mlx5_0 port 1 (4X NDR, 400 Gb/s)",
                "mlx5_1 port 1 (4X NDR, 400 Gb/s)", "mlx5_2 port 1 (4X NDR, 400 Gb/s)");
        assertThat(ndr).allMatch(NicPorts.Port::active).allMatch(p -> p.linkLayer().equals("InfiniBand"));
        List<NicPorts.Port> fdr = with(Map.of("STANDIN_IBV_DEVICES", "1", "STANDIN_IBV_WIDTH", "8", "STANDIN_IBV_SPEED", "16"),
                () -> NicPortCalls.query(lib)).get();
        assertThat(fdr.get(0).rateGbps()).as("12X FDR: 12 lanes of 14 Gb/s").isEqualTo(168.0);
    }

    @Test
    void noDeviceAndNoLibraryAreFacts() {
        String lib = ibverbs();
        Fact<List<NicPorts.Port>> none = with(Map.of("STANDIN_IBV_DEVICES", "0"), () -> NicPortCalls.query(lib));
        assertThat(none.isAbsent()).isTrue();
        assertThat(NicPortCalls.query("/nonexistent/libibverbs.so.1").reason()).startsWith("cannot load /nonexistent/libibverbs.so.1");
    }
}
