package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PyTorch's hang messages in real pastes (corpus/nccl-log/README.md names each source) judged by the watchdog rule: a
 * collective's timeout after a prefix-less version banner, and the heartbeat monitor's stuck watchdog, in both wordings.
 */
class NcclWatchdogHangTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-log");

    private static List<Finding> findings(String name) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(CORPUS.resolve(name).toString()), "2026-12-02T00:00:00Z");
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none())).findings().stream()
                .filter(f -> f.code().equals("NCCL_WATCHDOG_TIMEOUT")).toList();
    }

    /** NVIDIA/nccl#1730: the timeout follows ncclras' "NCCL version 2.26.2 compiled with CUDA 12.4". */
    @Test
    void aTimeoutAfterAPrefixlessBannerIsAnError() {
        assertThat(findings("nccl-log-ncclras-2.26.2-then-pytorch-watchdog-timeout-nccl1730.txt")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.title()).isEqualTo("1 watchdog timeout");
            assertThat(f.evidence().get(0)).contains("SeqNum=2398459");
        });
    }

    /** hiyouga/LlamaFactory#6953 and NVIDIA/nccl#1684: the watchdog thread stuck, in PyTorch 2.3's and later wordings. */
    @Test
    void aStuckWatchdogIsAnError() {
        assertThat(findings("nccl-log-pytorch-heartbeat-monitor-timed-out-600s-llamafactory6953.txt")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.title()).isEqualTo("PyTorch's NCCL watchdog stuck: 2 heartbeat monitor lines");
            assertThat(f.evidence().get(0)).contains("Heartbeat monitor timed out!");
            assertThat(f.evidence().get(1)).contains("got stuck for 600 seconds");
        });
        assertThat(findings("nccl-log-pytorch-watchdog-stuck-300s-nccl1684.txt")).singleElement()
                .satisfies(f -> assertThat(f.title()).isEqualTo("PyTorch's NCCL watchdog stuck: 1 heartbeat monitor line"));
    }
}
