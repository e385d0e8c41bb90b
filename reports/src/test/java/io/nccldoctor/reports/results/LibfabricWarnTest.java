package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** libfabric's warnings judged apart from NCCL's, on the real pastes of corpus/nccl-log (README.md names each). */
class LibfabricWarnTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-log");

    private static Report judge(String file) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(CORPUS.resolve(file).toString()), "2026-12-02T00:00:00Z");
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }

    @Test
    void anEmptyEfaProviderListIsAWarning() {
        Report r = judge("nccl-log-ofi-libfabric-efa-getinfo-empty-list-cloudwatch.txt");
        Finding f = r.findings().stream().filter(x -> x.code().equals("LIBFABRIC_WARN")).findFirst().orElseThrow();
        assertThat(f.title()).isEqualTo("1 libfabric warning: core fi_getinfo: provider efa output empty list");
        assertThat(f.evidence()).contains("core fi_getinfo_: fi_getinfo: provider efa output empty list, 1 line");
    }

    @Test
    void thePluginTurningSharedMemoryOffRaisesNothing() {
        Report r = judge("nccl-log-ofi-libfabric-efa-shm-permitted-warn-cloudwatch.txt");
        assertThat(r.findings()).noneMatch(x -> x.code().equals("LIBFABRIC_WARN"));
    }
}
