package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.render.JUnitSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every verb that writes JUnit XML (-o FILE.xml) writes it valid against the Jenkins xunit plugin's junit-10.xsd. */
class JUnitOutputsSchemaTest {

    @TempDir
    Path tmp;

    @Test
    void preflight() throws Exception {
        Path xml = tmp.resolve("preflight.xml");
        CliTest.Run r = CliTest.run("preflight", "-o", xml.toString());
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        assertThat(JUnitSchema.problems(Files.readString(xml))).isEmpty();
    }

    @Test
    void report() throws Exception {
        Path xml = tmp.resolve("report.xml");
        CliTest.Run r = CliTest.run("report", CliTest.EXAMPLE, "-o", xml.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(JUnitSchema.problems(Files.readString(xml))).isEmpty();
    }

    @Test
    void clusterOfThreeNodesCountsThem() throws Exception {
        CliTest.Run live = CliTest.run("preflight", "--json");
        assertThat(live.code()).as(live.err()).isIn(0, 1);
        for (int i = 1; i <= 3; i++) {
            ObjectNode doc = (ObjectNode) Json.mapper().readTree(live.out());
            ((ObjectNode) doc.get("snapshot")).put("hostName", "node" + i);
            Files.writeString(tmp.resolve("node" + i + ".json"), Json.write(doc));
        }
        Path xml = tmp.resolve("out/cluster.xml");
        Files.createDirectories(xml.getParent());
        CliTest.Run r = CliTest.run("cluster", tmp.resolve("node1.json").toString(), tmp.resolve("node2.json").toString(),
                tmp.resolve("node3.json").toString(), "-o", xml.toString());
        assertThat(r.code()).as(r.err()).isIn(0, 1);
        String text = Files.readString(xml);
        assertThat(JUnitSchema.problems(text)).isEmpty();
        assertThat(text).contains(" over 3 nodes; ").doesNotContain("0 sweeps");
    }
}
