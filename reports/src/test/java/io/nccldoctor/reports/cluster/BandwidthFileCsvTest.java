package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A bandwidth file with a label that holds a comma, quoted as a spreadsheet writes it. */
class BandwidthFileCsvTest {

    @Test
    void aQuotedLabelKeepsItsComma() {
        List<String> lines = List.of("\"host\",\"label\",\"busbw_gbps\"", "n1,\"allreduce 1 GiB, 2 nodes\",190.25",
                "\"n2\",\"allreduce 1 GiB, 2 nodes\",\"189\"");
        assertThat(BandwidthFile.looksLike(lines)).isTrue();
        assertThat(BandwidthFile.parse(lines, "bw.csv")).containsExactly(
                new Sample("n1", "allreduce 1 GiB, 2 nodes", 190.25, "bw.csv:2"),
                new Sample("n2", "allreduce 1 GiB, 2 nodes", 189, "bw.csv:3"));
    }

    @Test
    void jsonIsNotABandwidthFile() {
        assertThat(BandwidthFile.looksLike(List.of("{\"schemaVersion\": 1, \"kind\": \"preflight\"}"))).isFalse();
        assertThat(BandwidthFile.looksLike(List.of("# only a comment", ""))).isFalse();
    }
}
