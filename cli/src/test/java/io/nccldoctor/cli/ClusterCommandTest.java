package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.cluster.Cluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `cluster` as a user meets it, on its own CommandLine (the root registers it separately): five copies of this
 * machine's real `preflight --json`, one on another kernel, and a bandwidth file with one slow node.
 */
class ClusterCommandTest {

    @TempDir
    Path tmp;

    Path snaps;

    record Run(int code, String out, String err) {
    }

    static Run cluster(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.commandLine(new ClusterCommand(), new PrintWriter(out, true), new PrintWriter(err, true), false).execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @BeforeEach
    void fiveNodes() throws Exception {
        CliTest.Run live = CliTest.run("preflight", "--json");
        assertThat(live.code()).as(live.err()).isIn(0, 1);
        snaps = Files.createDirectories(tmp.resolve("snaps"));
        StringBuilder csv = new StringBuilder("host,label,busbw_gbps\n");
        for (int i = 1; i <= 5; i++) {
            ObjectNode doc = (ObjectNode) Json.mapper().readTree(live.out());
            ObjectNode snapshot = (ObjectNode) doc.get("snapshot");
            snapshot.put("hostName", "node" + i);
            if (i == 4) {
                ((ObjectNode) snapshot.at("/sections/platform/kernel")).put("value", "5.15.0-old");
            }
            Files.writeString(snaps.resolve("node" + i + ".json"), Json.write(doc));
            csv.append("node").append(i).append(",allreduce 1GiB,").append(i == 2 ? "40.5" : "100." + i).append('\n');
        }
        Files.writeString(snaps.resolve("bandwidth.csv"), csv);
    }

    @Test
    void theVerdictComesFirstThenTheDriftTable() {
        Run r = cluster(snaps.toString());
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("nccl-doctor cluster: 5 nodes");
        assertThat(lines.get(2)).startsWith("WARN: 0 error, 2 warning, ");
        assertThat(r.out()).contains("CLUSTER_DRIFT              Kernel differs on 1 of 5 nodes: node4")
                .contains("CLUSTER_BANDWIDTH_OUTLIER  allreduce 1GiB: 1 of 5 nodes below median − 3 × MAD: node2 (40.50 GB/s)");
        assertThat(lines).anyMatch(l -> l.matches("  Kernel +\\S.* \\(4\\) +node4: 5\\.15\\.0-old"));
    }

    @Test
    void eachFormatByExtensionAndNeverOverwritingWithoutForce() throws Exception {
        for (String ext : List.of("txt", "md", "json", "html", "xml", "prom")) {
            Path f = tmp.resolve("cluster." + ext);
            Run r = cluster(snaps.toString(), "-o", f.toString());
            assertThat(r.code()).as(ext + ": " + r.err()).isZero();
            assertThat(r.out()).startsWith("wrote " + f + ": WARN: ");
            String text = Files.readString(f);
            switch (ext) {
                case "txt" -> assertThat(text).startsWith("# nccl-doctor generated this file").endsWith(cluster(snaps.toString()).out());
                case "md" -> assertThat(text).contains("\n# nccl-doctor cluster: 5 nodes").contains("## Drift");
                case "json" -> {
                    JsonNode doc = Json.mapper().readTree(text);
                    assertThat(doc.get("kind").asText()).isEqualTo("cluster");
                    assertThat(doc.get("exitCode").asInt()).isZero();
                    assertThat(doc.get("nodes")).hasSize(5);
                }
                case "xml" -> {
                    org.w3c.dom.Document doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f.toFile());
                    assertThat(doc.getDocumentElement().getAttribute("tests")).isEqualTo(
                            String.valueOf(Cluster.checks().size()));
                    assertThat(text).contains("CLUSTER_DRIFT");
                }
                case "prom" -> assertThat(text).contains("nccl_doctor_finding{code=\"CLUSTER_DRIFT\"")
                        .contains("nccl_doctor_verdict{verdict=\"warn\"} 1");
                default -> assertThat(text).startsWith("<!DOCTYPE html>").contains("Content-Security-Policy").doesNotContain("<script");
            }
        }
        Path html = tmp.resolve("cluster.html");
        assertThat(cluster(snaps.toString(), "-o", html.toString()).code()).as("its own earlier output is replaced").isZero();
        Files.writeString(html, "<p>mine</p>\n");
        Run again = cluster(snaps.toString(), "-o", html.toString());
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.err()).contains("exists and is not an earlier nccl-doctor output");
        assertThat(cluster(snaps.toString(), "-o", html.toString(), "--force").code()).isZero();
    }

    @Test
    void jsonOnStdoutAndASiteThatTreatsDriftAsAnError() throws Exception {
        Run json = cluster(snaps.toString(), "--json");
        assertThat(Json.mapper().readTree(json.out()).get("verdict").asText()).isEqualTo("WARN");
        Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "severity:\n  CLUSTER_DRIFT: error\n");
        Run strict = cluster(snaps.toString(), "--rules", rules.toString());
        assertThat(strict.code()).isEqualTo(1);
        assertThat(strict.out().lines().toList().get(2)).startsWith("FAIL: 1 error, 1 warning");
        Run k = cluster(snaps.toString(), "--outlier-k", "100");
        assertThat(k.out()).doesNotContain("CLUSTER_BANDWIDTH_OUTLIER");
    }

    @Test
    void badInputIsExit2AndOneLine() throws Exception {
        Run missing = cluster(tmp.resolve("nope").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip()).isEqualTo("nccl-doctor: " + tmp.resolve("nope") + ": no such file or folder");
        assertThat(cluster(snaps.toString(), "--outlier-k", "0").err().strip())
                .isEqualTo("nccl-doctor: --outlier-k 0.0: give a positive number of MADs, e.g. 3.0");
        Run format = cluster(snaps.toString(), "-o", tmp.resolve("c.docx").toString());
        assertThat(format.code()).isEqualTo(2);
        assertThat(format.err()).contains("unknown format; name the file .txt, .md, .json, .html, .xml (JUnit) or .prom");
        assertThat(cluster(snaps.toString(), "--json", "-o", tmp.resolve("c.json").toString()).code()).isEqualTo(2);
        Files.writeString(snaps.resolve("node9.json"), "{ \"snapshot\": ");
        Run broken = cluster(snaps.toString());
        assertThat(broken.code()).isEqualTo(2);
        assertThat(broken.err().strip()).doesNotContain("\n").startsWith("nccl-doctor: " + snaps.resolve("node9.json") + ":1: not valid JSON");
        Run rules = cluster(tmp.toString(), "--rules", tmp.resolve("none.yaml").toString());
        assertThat(rules.code()).isEqualTo(2);
    }

    @Test
    void aCaptureFolderIsReplayedIntoANode() {
        Path cap = tmp.resolve("capture");
        assertThat(CliTest.run("capture", "-o", cap.toString()).code()).isZero();
        Run r = cluster(snaps.toString(), cap.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode doc;
        try {
            doc = Json.mapper().readTree(r.out());
        } catch (Exception e) {
            throw new AssertionError(r.out(), e);
        }
        assertThat(doc.get("nodes")).hasSize(6);
        assertThat(doc.get("nodes").findValuesAsText("source")).anyMatch(s -> s.equals("capture " + cap));
    }
}
