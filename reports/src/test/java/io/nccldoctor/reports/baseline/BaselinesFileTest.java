package io.nccldoctor.reports.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** configs/baselines.yaml as shipped: every entry cited and sound; the loader refuses one that is not. */
class BaselinesFileTest {

    static final Path SHIPPED = Path.of("../configs/baselines.yaml");

    @TempDir
    Path dir;

    @Test
    void theShippedFileLoadsAndEveryEntryCitesItsSourceAndSpread() {
        Baselines b = Baselines.load(SHIPPED);
        assertThat(b.baselines()).hasSizeGreaterThanOrEqualTo(15);
        assertThat(b.ceilings()).extracting(Baselines.LinkLimit::id).contains("nvlink3", "nvlink4", "nvlink5", "any-gpu");
        assertThat(b.mechanisms()).extracting(Baselines.Citation::id).containsExactlyInAnyOrderElementsOf(Mechanism.ids());
        for (Baselines.Baseline x : b.baselines()) {
            assertThat(x.source()).as("%s source", x.id()).isNotBlank();
            assertThat(x.quote()).as("%s quote", x.id()).isNotBlank();
            assertThat(x.spreadSource()).as("%s spread", x.id()).isNotBlank();
            assertThat(x.low()).as("%s low <= expected", x.id()).isLessThanOrEqualTo(x.expectedGBps() == null ? x.low() : x.expectedGBps());
        }
        assertThat(Baselines.problems(b)).as("the shipped file breaks no rule").isEmpty();
    }

    @Test
    void quotedFiguresAreTheFiguresTheEntriesUse() {
        Baselines b = Baselines.load(SHIPPED);
        for (Baselines.Baseline x : b.baselines()) {
            if (x.expectedGBps() != null && (x.kind().equals("measured") || x.kind().equals("derived"))) {
                String figure = String.valueOf(x.expectedGBps()).replaceFirst("\\.0$", "");
                assertThat(x.quote()).as("%s quotes the figure it uses", x.id()).contains(figure);
            }
        }
    }

    @Test
    void anEntryWithoutASourceIsRefused() throws IOException {
        String shipped = Files.readString(SHIPPED, StandardCharsets.UTF_8);
        String cut = shipped.replaceFirst("    source: \"https://github.com/NVIDIA/nccl/issues/812\"\n", "");
        assertThat(cut).isNotEqualTo(shipped);
        Path file = dir.resolve("baselines.yaml");
        Files.writeString(file, cut);
        assertThatThrownBy(() -> Baselines.load(file)).isInstanceOf(InputException.class)
                .hasMessageContaining("baseline dgxa100-multinode-8xhdr: no source");
    }

    @Test
    void anEntryWithoutAQuoteOrSpreadOrWithLowAboveExpectedIsRefused() throws IOException {
        Path file = dir.resolve("b.yaml");
        Files.writeString(file, """
                version: 1
                baselines:
                  - id: x
                    match: {gpuModel: "H100"}
                    collectives: [allreduce]
                    minBytes: 1073741824
                    expectedGBps: 100
                    low: 120
                    kind: measured
                    source: "somewhere"
                """);
        assertThatThrownBy(() -> Baselines.load(file)).hasMessageContaining("baseline x: no quote").hasMessageContaining("and 2 more");
        assertThat(Baselines.problems(Baselines.load(SHIPPED))).isEmpty();
    }

    @Test
    void aBaselineForAnyHardwareIsRefused() throws IOException {
        Path file = dir.resolve("b.yaml");
        Files.writeString(file, """
                version: 1
                baselines:
                  - id: anything
                    match: {nodes: 1}
                    collectives: [allreduce]
                    minBytes: 1
                    expectedGBps: 100
                    low: 90
                    kind: statement
                    source: "s"
                    quote: "q"
                    spreadSource: "s"
                """);
        assertThatThrownBy(() -> Baselines.load(file)).hasMessageContaining("names neither a GPU model nor a NIC rate");
    }

    @Test
    void anUnknownKeyNamesTheFileAndLine() throws IOException {
        Path file = dir.resolve("b.yaml");
        Files.writeString(file, "version: 1\nbaselines:\n  - id: x\n    expected: 3\n");
        assertThatThrownBy(() -> Baselines.load(file)).isInstanceOf(InputException.class).hasMessageStartingWith(file + ":")
                .hasMessageContaining("\"expected\"");
    }
}
