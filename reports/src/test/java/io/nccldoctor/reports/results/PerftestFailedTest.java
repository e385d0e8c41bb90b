package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.gdr.PerftestRun;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PERFTEST_FAILED on real perftest pastes of the corpus (corpus/perftest/README.md). */
class PerftestFailedTest {

    private static Outcome judge(String file) throws IOException {
        PerftestOutput p = PerftestOutput.parse(Files.readAllLines(Path.of("../corpus/perftest", file)), file);
        Snapshot s = new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "not recorded", file, List.of("report", file), Map.of(),
                Map.of(PerftestRun.KEY, PerftestRun.of(p, file)));
        ResultSet set = new ResultSet(file, false, "not recorded", List.of(file), List.of(s), List.of(), List.of(), List.of());
        return new PerftestFailed().check(set, RuleContext.defaults());
    }

    @Test
    void aParserErrorIsAFindingThatNamesIt() throws IOException {
        Outcome o = judge("perftest-write-bw-cuda-dmabuf-parser-error-option-order.txt");
        assertThat(o.findings()).singleElement().satisfies((Finding f) -> {
            assertThat(f.code()).isEqualTo("PERFTEST_FAILED");
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.title()).contains("CUDA DMA-BUF cannot be used without CUDA");
            assertThat(f.evidence()).anyMatch(e -> e.startsWith("result: no result: perftest stopped at its parser error"));
        });
    }

    @Test
    void aServerThatWaitedIsNotCheckedAndSaysWhy() throws IOException {
        Outcome o = judge("perftest-write-bw-cuda-server-waiting-interrupted.txt");
        assertThat(o.findings()).isEmpty();
        assertThat(o.waivedBecause()).contains("waited for a client").contains("no error printed");
    }

    @Test
    void noPerftestOutputIsNotChecked() {
        ResultSet none = new ResultSet("none", false, "not recorded", List.of(), List.of(), List.of(), List.of(), List.of());
        assertThat(new PerftestFailed().check(none, RuleContext.defaults()).waivedBecause()).startsWith("no perftest output given");
    }

    @Test
    void aRunWithRowsAndNoErrorPasses() throws IOException {
        Outcome o = judge("perftest-raw-ethernet-lat-server-markdown-collapsed.txt");
        assertThat(o.findings()).isEmpty();
        assertThat(o.waivedBecause()).isNull();
    }
}
