package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * perftest pastes with a soft HCA's inline message, Markdown bold cells, two tables under no title and a peak perftest
 * did not measure: the real texts of corpus/perftest (its README cites each).
 */
class PerftestOddPasteTest {

    private static PerftestOutput parse(String file) throws IOException {
        return PerftestOutput.parse(Files.readAllLines(Path.of("../corpus/perftest", file)), file);
    }

    /** nminoru/pib#4: ctx_set_max_inline's message for an HCA perftest does not know is a warning, not an unread line. */
    @Test
    void anUnknownHcaTurnsInlineOffAsAWarning() throws IOException {
        PerftestOutput p = parse("perftest-atomic-bw-cmp-and-swap-pib-soft-hca-inline-disabled.txt");
        assertThat(p.warnings()).singleElement().asString().startsWith("Device not recognized to implement inline feature")
                .contains("inline size 0");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.rows()).singleElement().satisfies(r -> {
            assertThat(r.peak()).isEqualTo(1.70);
            assertThat(r.average()).isEqualTo(1.67);
        });
    }

    /** linux-rdma/perftest#65: the paster's '**' around a cell is no part of the figure; the rows are read and the marks said. */
    @Test
    void boldCellsAreReadWithoutTheirMarksAndSaid() throws IOException {
        PerftestOutput p = parse("perftest-send-bw-rows-markdown-bold-cells-two-cases.txt");
        assertThat(p.rows()).extracting(PerftestOutput.Row::average).containsExactly(5544.28, 920.13);
        assertThat(p.rows()).extracting(r -> r.msgRateMpps().get()).containsExactly(5.677340, 0.942218);
        assertThat(p.warnings()).anyMatch(w -> w.startsWith("2 result rows with cells set in Markdown bold"));
        assertThat(p.warnings()).as("two tables under no title are two runs, said so")
                .anyMatch(w -> w.startsWith("more than one result table") && w.contains("line 5"));
        assertThat(p.notUnderstood()).singleElement().asString().endsWith("Case2 perfermance data:");
    }

    /** linux-rdma/perftest#273: a 60 s run prints BW peak 0.00 beside a real average, with no WARNING line in the paste. */
    @Test
    void aZeroPeakBesideAnAverageIsSaidToBeUnmeasured() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-post-list-8b-duration-peak-zero.txt");
        assertThat(p.test().get()).isEqualTo("RDMA_Write Post List BW Test");
        assertThat(p.header()).containsEntry("Post List", "128");
        assertThat(p.rows()).singleElement().satisfies(r -> {
            assertThat(r.average()).isEqualTo(0.48);
            assertThat(r.iterations()).isEqualTo(224958464L);
        });
        assertThat(p.warnings()).singleElement().asString().startsWith("BW peak 0.00 in 1 row").contains("did not measure");
    }

    /** When perftest's own WARNING is in the text, the unmeasured peak is not said twice; the current header's fields are read. */
    @Test
    void theOwnPeakWarningIsNotRepeated() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-bidir-duration-cqe-poll-batch-cpufreq-in-table.txt");
        assertThat(p.warnings()).hasSize(2).anyMatch(w -> w.contains("BW peak won't be measured"))
                .anyMatch(w -> w.startsWith("Conflicting CPU frequency"));
        assertThat(p.header()).containsEntry("Lock-free", "OFF").containsEntry("Using Enhanced Reorder", "OFF")
                .containsEntry("CQE Poll Batch", "Dynamic");
        assertThat(p.rows()).singleElement().satisfies(r -> assertThat(r.average()).isEqualTo(98.02));
        assertThat(p.notUnderstood()).isEmpty();
    }

    /**
     * A guide's block framing the server's banner and the client's run with its own '*** Server Side ***' lines: those are
     * no perftest lines (listed), and the banner with a one-way test's TX depth line is two sides, not the server.
     */
    @Test
    void annotatedServerAndClientShowNoSingleSide() throws IOException {
        PerftestOutput p = parse("perftest-send-lat-rxe-rdma-cm-server-and-client-annotated.txt");
        assertThat(p.role().isValue()).as("banner and TX depth are two sides").isFalse();
        assertThat(p.role().reason()).contains("both sides");
        assertThat(p.notUnderstood()).hasSize(2).allMatch(l -> l.contains("Side - Server"));
        assertThat(p.latencyRows()).singleElement().satisfies(r -> {
            assertThat(r.avgUs().get()).isEqualTo(10.23);
            assertThat(r.p999Us().get()).isEqualTo(725.77);
        });
    }

    /** The same guide's latency server alone: banner, RX depth, the rdma_cm lines, and the tab-separated row. */
    @Test
    void aLatencyServerOnRdmaCmIsTheServer() throws IOException {
        PerftestOutput p = parse("perftest-send-lat-rxe-ipv6-rdma-cm-server-prompt.txt");
        assertThat(p.role().get()).isEqualTo("server");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.latencyRows()).singleElement().satisfies(r -> {
            assertThat(r.minUs().get()).isEqualTo(4.06);
            assertThat(r.stdevUs().get()).isEqualTo(0.88);
            assertThat(r.p99Us().get()).isEqualTo(11.58);
        });
    }
}
