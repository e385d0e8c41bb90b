package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inputs that once crashed a verb (exit 3, a stack trace), each a real file with the one damage that did it
 * (SYNTHETIC damage, real files), through the command line and held to the {@link BadInputContract}. /dev/zero and
 * nesting 2,000 deep are in TopoInputsCliTest; a sweep child writing bytes that are not UTF-8 and a last line without
 * its newline in SweepBadInputTest.
 */
class BadInputRegressionTest {

    @TempDir
    static Path tmp;

    private static Path snapshot;
    private static final Path BUNDLE = Seeds.exampleBundle();

    @BeforeAll
    static void aSnapshot() throws IOException {
        Path capture = Seeds.captures().get(0);
        BadInputContract.Run r = BadInputContract.run("preflight", "--from", capture.toString(), "--json");
        assertThat(r.code()).as(r.err()).isBetween(0, 1);
        snapshot = Files.writeString(tmp.resolve("node-a.json"), r.out());
    }

    @Test
    void anIbWarnWithAnErrorCodePastEveryRangeIsRead() throws IOException {
        Path log = Seeds.ROOT.resolve("collectives/src/test/resources/fixtures/public/nccl-log-ib-completion-error12-azure.txt");
        String text = Files.readString(log);
        assertThat(text).contains("with error 12,");
        Path f = Files.writeString(tmp.resolve("ib-error.txt"), text.replace("with error 12,", "with error 99999999999999999999999,"));
        assertThat(BadInputContract.holds(f.toString(), "parse", "nccl-log", f.toString()).code()).isBetween(0, 1);
        assertThat(BadInputContract.holds(f.toString(), "parse", "nccl-log", f.toString(), "--json").code()).isBetween(0, 1);
    }

    @Test
    void anOutOfBoundsFooterPastEveryRangeIsRead() throws IOException {
        String text = Files.readString(BUNDLE.resolve("alltoall-nccl-tests.txt"));
        assertThat(text).containsPattern("Out of bounds values : \\d+ OK");
        Path f = Files.writeString(tmp.resolve("footer.txt"), text.replaceFirst("Out of bounds values : \\d+ OK",
                "Out of bounds values : 99999999999999999999999 FAILED"));
        BadInputContract.holds(f.toString(), "parse", "nccl-tests", f.toString());
        BadInputContract.holds(f.toString(), "report", f.toString());
        BadInputContract.holds(f.toString(), "compare", BUNDLE.resolve("alltoall-nccl-tests.txt").toString(), f.toString());
    }

    @Test
    void deviceLinesWithARankOrDeviceIndexPastEveryRangeAreLinesOfAnotherShape() throws IOException {
        Path run = Seeds.ROOT.resolve("corpus/nccl-tests/nccl-tests-h200-16rank-2node-bare-metal-nccl-tests256.txt");
        String text = Files.readString(run);
        String huge = "9".repeat(400);
        assertThat(text).contains("#  Rank  1 Group  0 Pid").contains(" device  1 [0x2a]");
        for (String damaged : List.of(text.replace("#  Rank  1 Group  0 Pid", "#  Rank  " + huge + " Group  0 Pid"),
                text.replace(" device  1 [0x2a]", " device  " + huge + " [0x2a]"))) {
            Path f = Files.writeString(tmp.resolve("device-line.txt"), damaged);
            assertThat(BadInputContract.holds(f.toString(), "report", f.toString()).code()).isBetween(0, 1);
            assertThat(BadInputContract.holds(f.toString(), "compare", run.toString(), f.toString()).code()).isBetween(0, 1);
        }
    }

    /** Every list, object and fact of every section set to null in turn: one line naming the field, never a crash later. */
    @Test
    void aNullWhereASectionHoldsAFactAListOrARecordIsOneLineNamingIt() throws IOException {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(snapshot.toFile());
        List<String> paths = new ArrayList<>();
        doc.path("snapshot").path("sections").fields().forEachRemaining(e -> containers(e.getValue(), "sections." + e.getKey(), paths));
        assertThat(paths).as("the capture's sections hold facts, lists and records").hasSizeGreaterThan(20);
        List<String> refused = new ArrayList<>();
        for (String path : paths) {
            ObjectNode copy = doc.deepCopy();
            String[] parts = path.split("\\.");
            JsonNode parent = copy.path("snapshot");
            for (int i = 0; i < parts.length - 1; i++) {
                parent = parent.path(parts[i]);
            }
            ((ObjectNode) parent).putNull(parts[parts.length - 1]);
            Path f = Files.writeString(tmp.resolve("null.json"), Json.write(copy));
            BadInputContract.Run r = BadInputContract.holds(f.toString(), "report", f.toString());
            if (r.code() != 2) {
                continue; // a null the reading takes (an optional text): no crash is all the contract asks
            }
            refused.add(path);
            // the field's path, or (a fact whose value is null) the fact's own reading of it
            assertThat(r.err()).as(path).containsAnyOf(f + ": snapshot: " + path + ": null or missing where a value belongs",
                    f + ": snapshot: sections." + parts[1] + ": " + parts[parts.length - 2] + ": a fact is an object with exactly one of");
        }
        // each of these ended in a NullPointerException (exit 3) far from the file before the records were checked
        assertThat(refused).contains("sections.pci.devices", "sections.libraries.cudaRuntime", "sections.gdrHost.kernel",
                "sections.rdma.devices");
    }

    private static void containers(JsonNode node, String path, List<String> into) {
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isContainerNode() && path.chars().filter(c -> c == '.').count() < 3) {
                into.add(path + "." + e.getKey());
                containers(e.getValue(), path + "." + e.getKey(), into);
            }
        });
    }

    @Test
    void aNcclTestsJsonRootPastTheLongRangeIsNoRank() throws IOException {
        Path json = Seeds.ROOT.resolve("collectives/src/test/resources/fixtures/public/nccl-tests-json-v2-allreduce-4gpu-nocheck-derived.json");
        String text = Files.readString(json);
        assertThat(text).contains("\"root\":\"    -1\"");
        Path f = Files.writeString(tmp.resolve("root.json"), text.replaceFirst("\"root\":\"    -1\"", "\"root\":\"    -9223372036854775809\""));
        assertThat(BadInputContract.holds(f.toString(), "report", f.toString()).code()).isBetween(0, 1);
    }

    @Test
    void aSnapshotFactOfTheWrongTypeIsOneLineNamingTheField() throws IOException {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(snapshot.toFile());
        String field = replaceFirstNumericFact(doc.path("snapshot").path("sections"), "");
        assertThat(field).as("the snapshot holds a numeric fact").isNotNull();
        Path f = Files.writeString(tmp.resolve("typed.json"), Json.write(doc));
        BadInputContract.Run r = BadInputContract.holds(f.toString(), "report", f.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(f + ": snapshot: sections.").contains("expected").contains("got a string \"x16\"");
    }

    @Test
    void aSchemaVersionOutOfIntRangeIsOneLine() throws IOException {
        String text = Files.readString(snapshot);
        assertThat(text).containsPattern("\"schemaVersion\" : \\d+");
        Path f = Files.writeString(tmp.resolve("version.json"), text.replaceAll("\"schemaVersion\" : \\d+", "\"schemaVersion\" : 99999999999999999999"));
        BadInputContract.Run report = BadInputContract.holds(f.toString(), "report", f.toString());
        assertThat(report.code()).isEqualTo(2);
        assertThat(report.err()).contains("schemaVersion");
        BadInputContract.Run cluster = BadInputContract.holds(f.toString(), "cluster", snapshot.toString(), f.toString());
        assertThat(cluster.code()).isEqualTo(2);
        assertThat(cluster.err()).contains("schemaVersion 99999999999999999999 is out of range");
    }

    @Test
    void aSectionThatIsNoObjectIsOneLineNamingTheFile() throws IOException {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(snapshot.toFile());
        ObjectNode sections = (ObjectNode) doc.path("snapshot").path("sections");
        sections.put("gpuHealth", "x16"); // the fuzz case: a section this version reads lazily, of the wrong type
        sections.put("someFutureSection", 7);
        Path f = Files.writeString(tmp.resolve("section.json"), Json.write(doc));
        BadInputContract.Run r = BadInputContract.holds(f.toString(), "report", f.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(f + ": snapshot: sections.");
    }

    @Test
    void runJsonRowsOfTheWrongTypeAreOneLine() throws IOException {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(BUNDLE.resolve("alltoall-harness.json").toFile());
        ((ObjectNode) doc.path("result").path("sizes").get(0)).put("row", "x16");
        Path f = Files.writeString(tmp.resolve("run.json"), Json.write(doc));
        BadInputContract.Run r = BadInputContract.holds(f.toString(), "report", f.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(f + ": result.sizes[0].row: expected an object, got a string \"x16\"");
    }

    @Test
    void aNullLineInASweepResultIsOneLineNamingIt() throws IOException {
        String text = Files.readString(BUNDLE.resolve("ab-nccl-2.28.3-vs-2.30.7.jsonl"));
        long lines = text.lines().count();
        Path f = Files.writeString(tmp.resolve("sweep.jsonl"), text + "null\n");
        for (String verb : new String[] {"report", "compare"}) {
            BadInputContract.Run r = BadInputContract.holds(f.toString(), verb, f.toString());
            assertThat(r.code()).as(verb).isEqualTo(2);
            assertThat(r.err()).as(verb).contains(f + ":" + (lines + 1) + ": null, not a sweep result record");
        }
    }

    @Test
    void nullSectionsInClusterInputsAreNoCrash() throws IOException {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(snapshot.toFile());
        ObjectNode sections = (ObjectNode) doc.path("snapshot").path("sections");
        assertThat(sections.size()).isPositive();
        for (Iterator<String> it = sections.fieldNames(); it.hasNext(); ) {
            sections.putNull(it.next());
        }
        ((ObjectNode) doc.get("snapshot")).put("hostName", "node-b");
        Path f = Files.writeString(tmp.resolve("node-b.json"), Json.write(doc));
        BadInputContract.Run r = BadInputContract.holds(f.toString(), "cluster", snapshot.toString(), f.toString());
        assertThat(r.code()).as(r.err()).isBetween(0, 2);
        BadInputContract.Run report = BadInputContract.holds(f.toString(), "report", f.toString());
        assertThat(report.code()).isEqualTo(2);
        assertThat(report.err()).contains("null where the");
    }

    @Test
    void oneByteThatIsNotUtf8IsReplacedAndCountedByEveryVerb() throws IOException {
        byte[] text = Files.readAllBytes(BUNDLE.resolve("alltoall-nccl-tests.txt"));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(text, 0, indexOf(text, (byte) '\n') + 1);
        b.write("# caf".getBytes(StandardCharsets.US_ASCII));
        b.write(0xE9); // Latin-1 'é': not UTF-8
        b.write('\n');
        b.write(text, indexOf(text, (byte) '\n') + 1, text.length - indexOf(text, (byte) '\n') - 1);
        Path f = Files.write(tmp.resolve("latin1.txt"), b.toByteArray());
        // before: report, compare and cluster refused the file (exit 2, MalformedInputException) that parse reads
        assertThat(BadInputContract.holds(f.toString(), "parse", "nccl-tests", f.toString()).code()).isBetween(0, 1);
        assertThat(BadInputContract.holds(f.toString(), "report", f.toString()).code()).isBetween(0, 1);
        assertThat(BadInputContract.holds(f.toString(), "compare", BUNDLE.resolve("alltoall-nccl-tests.txt").toString(), f.toString())
                .code()).isBetween(0, 1);

        byte[] json = Files.readString(snapshot).replace("\"hostName\" : \"", "\"hostName\" : \"caf\u0000").getBytes(StandardCharsets.UTF_8);
        json[indexOf(json, (byte) 0)] = (byte) 0xE9;
        Path node = Files.write(tmp.resolve("node-c.json"), json);
        BadInputContract.Run cluster = BadInputContract.holds(node.toString(), "cluster", snapshot.toString(), node.toString());
        assertThat(cluster.code()).as(cluster.err()).isBetween(0, 1);
    }

    @Test
    void aP2pMatrixGivenForComparisonNamesItsFile() {
        String p2p = "../corpus/nvidia-smi-topo/nvidia-smi-topo-p2p-r-h100-8gpu-not-topo-m.txt";
        BadInputContract.Run r = BadInputContract.holds(p2p, "topo", "--lspci-tree",
                "../pcie-inspect/src/test/resources/fixtures/public/lspci-tree-rccl547-epyc-mi100-cx6-fragment.txt",
                "--compare-nvidia-smi", p2p);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--compare-nvidia-smi " + p2p + ": `nvidia-smi topo -p2p` output");
    }

    /** Replaces the first {"value": NUMBER} under the node with {"value": "x16"}; returns its path, or null. */
    private static String replaceFirstNumericFact(JsonNode n, String path) {
        if (n instanceof ObjectNode o) {
            if (o.size() == 1 && o.path("value").isNumber()) {
                o.put("value", "x16");
                return path;
            }
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                String found = replaceFirstNumericFact(e.getValue(), path + "." + e.getKey());
                if (found != null) {
                    return found;
                }
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                String found = replaceFirstNumericFact(n.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static int indexOf(byte[] b, byte what) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == what) {
                return i;
            }
        }
        return -1;
    }
}
