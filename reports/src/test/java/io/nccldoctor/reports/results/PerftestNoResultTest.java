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

/** PERFTEST_NO_RESULT on real perftest pastes of the corpus (corpus/perftest/README.md). */
class PerftestNoResultTest {

    private static ResultSet set(String file) throws IOException {
        PerftestOutput p = PerftestOutput.parse(Files.readAllLines(Path.of("../corpus/perftest", file)), file);
        Snapshot s = new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "not recorded", file, List.of("report", file), Map.of(),
                Map.of(PerftestRun.KEY, PerftestRun.of(p, file)));
        return new ResultSet(file, false, "not recorded", List.of(file), List.of(s), List.of(), List.of(), List.of());
    }

    @Test
    void aClientCutAfterItsGpuLinesIsSaidToMeasureNothing() throws IOException {
        String file = "perftest-write-bw-cuda-dmabuf-client-cut-after-gpu-lines.txt";
        Outcome o = new PerftestNoResult().check(set(file), RuleContext.defaults());
        assertThat(o.findings()).singleElement().satisfies((Finding f) -> {
            assertThat(f.code()).isEqualTo("PERFTEST_NO_RESULT");
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.title()).startsWith("perftest in " + file + " measured nothing: the text ends before perftest's header block");
            assertThat(f.evidence()).contains("side: client");
        });
        assertThat(new PerftestFailed().check(set(file), RuleContext.defaults()).waivedBecause()).contains("no error printed");
    }

    @Test
    void aServerThatWaitedMeasuredNothingToo() throws IOException {
        Outcome o = new PerftestNoResult().check(set("perftest-write-bw-cuda-server-waiting-interrupted.txt"), RuleContext.defaults());
        assertThat(o.findings()).singleElement().extracting(Finding::title).asString().contains("the server waited for a client")
                .contains("interrupted (^C)");
    }

    @Test
    void anErrorIsLeftToPerftestFailedAndRowsPass() throws IOException {
        Outcome error = new PerftestNoResult().check(set("perftest-write-bw-cuda-dmabuf-parser-error-option-order.txt"), RuleContext.defaults());
        assertThat(error.findings()).isEmpty();
        assertThat(error.waivedBecause()).isNull();
        Outcome rows = new PerftestNoResult().check(set("perftest-raw-ethernet-lat-server-markdown-collapsed.txt"), RuleContext.defaults());
        assertThat(rows.findings()).isEmpty();
        assertThat(rows.waivedBecause()).isNull();
    }

    @Test
    void noPerftestOutputIsNotChecked() {
        ResultSet none = new ResultSet("none", false, "not recorded", List.of(), List.of(), List.of(), List.of(), List.of());
        assertThat(new PerftestNoResult().check(none, RuleContext.defaults()).waivedBecause()).startsWith("no perftest output given");
    }
}
