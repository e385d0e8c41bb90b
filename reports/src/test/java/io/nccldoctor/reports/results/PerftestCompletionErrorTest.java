package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.gdr.PerftestRun;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A perftest completion error pasted alone (corpus/perftest/README.md cites it) fails the run, its status decoded. */
class PerftestCompletionErrorTest {

    @Test
    void aCompletionErrorAloneIsAFindingWithItsStatusName() throws IOException {
        String file = "perftest-completion-error-status4-alone.txt";
        PerftestOutput p = PerftestOutput.parse(Files.readAllLines(Path.of("../corpus/perftest", file)), file);
        Snapshot s = new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "not recorded", file, List.of("report", file), Map.of(),
                Map.of(PerftestRun.KEY, PerftestRun.of(p, file)));
        ResultSet set = new ResultSet(file, false, "not recorded", List.of(file), List.of(s), List.of(), List.of(), List.of());
        Outcome o = new PerftestFailed().check(set, RuleContext.defaults());
        assertThat(o.findings()).singleElement().satisfies((Finding f) -> {
            assertThat(f.code()).isEqualTo("PERFTEST_FAILED");
            assertThat(f.title()).contains("stopped: a work completion failed at the client").contains("IBV_WC_LOC_PROT_ERR");
            assertThat(f.evidence()).contains("error: Failed to complete run_iter_bw function successfully",
                    "result: no result: perftest printed an error");
        });
    }
}
