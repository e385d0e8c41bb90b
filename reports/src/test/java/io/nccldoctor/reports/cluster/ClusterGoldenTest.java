package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks the four forms of one planted nine-node cluster (old firmware, MTU 1500, an old driver, slow nodes). Runs under a
 * German locale so that no decimal comma slips into any form. To accept an intended change, run with
 * -Dgolden.update=true and review the diff of src/test/resources/golden/cluster.
 */
@ExtendWith(GermanLocale.class)
class ClusterGoldenTest {

    static ClusterReport sample() {
        ClusterSample.Plan plan = ClusterSample.plan(9);
        List<Snapshot> nodes = new ArrayList<>();
        for (int i = 1; i <= plan.nodes(); i++) {
            nodes.add(ClusterSample.node(i, plan));
        }
        List<Sample> bw = BandwidthFile.parse(ClusterSample.csv(plan).lines().toList(), "bandwidth.csv");
        return Cluster.judge(ClusterData.of(nodes, bw), ClusterOptions.defaults(), "2026-11-30T12:00:00Z");
    }

    @Test
    void text() throws IOException {
        matches("cluster.txt", ClusterText.render(sample()));
    }

    @Test
    void markdown() throws IOException {
        matches("cluster.md", ClusterMarkdown.render(sample()));
    }

    @Test
    void html() throws IOException {
        matches("cluster.html", ClusterHtml.render(sample()));
    }

    @Test
    void json() throws IOException {
        String json = Json.write(sample());
        matches("cluster.json", json);
        var doc = Json.mapper().readTree(json);
        assertThat(doc.fieldNames()).toIterable().startsWith("schemaVersion", "kind", "verdict", "verdictLine", "exitCode");
        assertThat(doc.at("/bandwidth/0/medianGBps").isNumber()).as("numbers stay numbers").isTrue();
        assertThat(doc.at("/drift/0/status").asText()).isEqualTo("agrees");
    }

    @Test
    void sameClusterSameBytes() {
        for (ClusterFormat f : ClusterFormat.values()) {
            assertThat(f.render(sample())).as(f + " is deterministic").isEqualTo(f.render(sample()));
        }
    }

    private static void matches(String name, String actual) throws IOException {
        Path golden = Path.of("src/test/resources/golden/cluster", name);
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as(name + " (rerun with -Dgolden.update=true to accept a change)").isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
