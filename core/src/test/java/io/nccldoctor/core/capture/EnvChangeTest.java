package io.nccldoctor.core.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.TestHosts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --env VAR=VALUE on a replayed host: the what-if is applied, said in the source, and malformed names refused. */
class EnvChangeTest {

    @TempDir
    Path tmp;

    @Test
    void setsRemovesAndSaysSo() {
        Host h = TestHosts.at(tmp).host();
        Host base = new Host(h.files(), h.commands(), h.natives(), Map.of("NCCL_NET_GDR_LEVEL", "phb", "NCCL_IB_HCA", "mlx5_0"),
                "capture node17");
        Host what = EnvChange.parse(List.of("NCCL_NET_GDR_LEVEL=PHB", "NCCL_IB_HCA", "NCCL_DEBUG=")).applyTo(base);
        assertThat(what.env()).containsExactlyInAnyOrderEntriesOf(Map.of("NCCL_NET_GDR_LEVEL", "PHB", "NCCL_DEBUG", ""));
        assertThat(what.source()).isEqualTo("capture node17 with --env NCCL_NET_GDR_LEVEL=PHB, unset NCCL_IB_HCA, NCCL_DEBUG=");
        assertThat(EnvChange.parse(List.of()).applyTo(base)).isSameAs(base);
    }

    @Test
    void aMalformedNameIsOneLine() {
        assertThatThrownBy(() -> EnvChange.parse(List.of("=PHB"))).isInstanceOf(InputException.class)
                .hasMessage("--env =PHB: give VAR=VALUE to set a variable, or VAR to remove it (e.g. --env NCCL_NET_GDR_LEVEL=PHB)");
        assertThatThrownBy(() -> EnvChange.parse(List.of("NCCL NET=1"))).isInstanceOf(InputException.class);
    }
}
