package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real nccl-tests outputs from public issues (collectives' fixtures/public/README.md cites each): healthy runs
 * raise nothing above info; the one with corrupted elements raises exactly DATA_CORRUPTION.
 */
class PublishedRunsTest {

    static final Path FIXTURES = Path.of("../collectives/src/test/resources/fixtures/public");

    static Stream<Path> runs() throws IOException {
        try (Stream<Path> files = Files.list(FIXTURES)) {
            return files.filter(p -> p.getFileName().toString().startsWith("nccl-tests-") && !p.getFileName().toString().contains("-no-table"))
                    .sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void healthyRunsRaiseNothingButInfo(Path run) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(run.toString()), "2026-11-30T00:00:00Z");
        assertThat(set.sweeps()).hasSize(1);
        assertThat(set.sweeps().get(0).rows()).isNotEmpty();
        List<Finding> f = Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none())).findings();
        List<Finding> serious = f.stream().filter(x -> x.severity() != Severity.INFO).toList();
        if (run.getFileName().toString().contains("corrupted")) {
            assertThat(serious).extracting(Finding::code).containsExactly("DATA_CORRUPTION");
        } else {
            assertThat(serious).as("%s", f).isEmpty();
        }
        if (run.getFileName().toString().contains("single-rank")) {
            assertThat(f).extracting(Finding::code).contains("SINGLE_RANK");
        }
    }
}
