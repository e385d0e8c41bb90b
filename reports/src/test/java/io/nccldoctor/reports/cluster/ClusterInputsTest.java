package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.PreflightReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `cluster` accepts as input, and the one-line refusals of what it does not. */
class ClusterInputsTest {

    @TempDir
    Path dir;

    static final ClusterInputs NO_CAPTURES = new ClusterInputs(d -> {
        throw new AssertionError("no capture expected: " + d);
    });

    static String preflight(Snapshot s) {
        return Json.write(PreflightReport.of(s, NodeShape.none(), new Evaluation(List.of(), List.of(), List.of())));
    }

    @Test
    void theStreamingReaderSeesWhatTheRecordsSay() throws Exception {
        for (int i = 1; i <= 9; i++) {
            Snapshot s = ClusterSample.node(i, ClusterSample.plan(9));
            Path f = dir.resolve("n" + i + ".json");
            Files.writeString(f, i % 2 == 0 ? preflight(s) : Json.write(s));
            NodeReading streamed = SnapshotFile.read(f);
            NodeReading inMemory = NodeReading.of(s, f.toString());
            Snapshot parsed = Json.mapper().readValue(Json.write(s), Snapshot.class); // sections as maps, converted by Snapshot.section
            assertThat(streamed).as("node %d: streamed PCI inventory and trees give the cells the records give", i).isEqualTo(inMemory);
            assertThat(NodeReading.of(parsed, f.toString())).isEqualTo(inMemory);
        }
    }

    @Test
    void aFolderHoldsSnapshotsCapturesAndBandwidthOneLevelDeep() throws Exception {
        ClusterSample.Plan plan = ClusterSample.plan(9);
        for (int i = 1; i <= 3; i++) {
            Files.writeString(dir.resolve(ClusterSample.host(i) + ".json"), preflight(ClusterSample.node(i, plan)));
        }
        Files.writeString(dir.resolve("bandwidth.csv"), "host,label,busbw_gbps\ngpu-node-0001,ar,190\n");
        Files.writeString(dir.resolve("README.md"), "how these were taken");
        Files.writeString(dir.resolve(".hidden.json"), "not read");
        Path capture = Files.createDirectories(dir.resolve("node-9-capture"));
        Files.writeString(capture.resolve("manifest.json"), "{}");
        Files.createDirectories(dir.resolve("deeper")).resolve("x.json");
        AtomicInteger replayed = new AtomicInteger();
        ClusterData d = new ClusterInputs(p -> {
            replayed.incrementAndGet();
            assertThat(p).isEqualTo(capture);
            return ClusterSample.node(9, plan);
        }).read(List.of(dir.toString()));
        assertThat(d.nodes()).extracting(NodeReading::host).containsExactly("gpu-node-0001", "gpu-node-0002", "gpu-node-0003", "gpu-node-0009");
        assertThat(replayed).hasValue(1);
        assertThat(d.bandwidth()).hasSize(1);
        assertThat(d.notes()).containsExactly(dir + ": left out 2 entries that are not .json, .csv or capture folders: README.md, deeper");
    }

    @Test
    void gdrAndTopoDocumentsAndBareSnapshotsAllCount() throws Exception {
        Snapshot s = ClusterSample.node(1, ClusterSample.plan(9));
        ObjectNode gdr = Json.mapper().createObjectNode().put("schemaVersion", 1).put("kind", "gdr");
        gdr.set("snapshot", Json.mapper().valueToTree(s));
        gdr.putArray("pairs").addObject().put("gpu", "GPU0");
        Files.writeString(dir.resolve("a.json"), Json.write(gdr));
        Files.writeString(dir.resolve("b.snapshot"), Json.write(ClusterSample.named(s, "other")));
        ClusterData d = NO_CAPTURES.read(List.of(dir.resolve("a.json").toString(), dir.resolve("b.snapshot").toString()));
        assertThat(d.nodes()).extracting(NodeReading::host).containsExactly("gpu-node-0001", "other");
    }

    @Test
    void aSectionOfANewerSchemaIsUnknownNotAFailedRun() throws Exception {
        JsonNode doc = Json.mapper().valueToTree(ClusterSample.node(1, ClusterSample.plan(9)));
        ((ObjectNode) doc.at("/sections/nvidiaDriver")).put("gspFirmware", "580.95.05");
        Path f = dir.resolve("n.json");
        Files.writeString(f, Json.write(doc));
        NodeReading r = SnapshotFile.read(f);
        Cell driver = r.facets().get(Facets.ALL.indexOf(Facets.ALL.stream().filter(x -> x.name().equals("NVIDIA driver")).findFirst()
                .orElseThrow())).get().get("");
        assertThat(driver.known()).isFalse();
        assertThat(driver.unknown()).startsWith("the nvidiaDriver section does not read as this version's NvidiaDriver: Unrecognized field \"gspFirmware\"");
    }

    @Test
    void badInputsAreOneLineNamingTheFile() throws Exception {
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\n  \"snapshot\": {\n    \"hostName\": \"n1\",\n    \"sections\": {\n  ]\n}");
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(broken.toString()))).isInstanceOf(InputException.class)
                .hasMessageStartingWith(broken + ":5: not valid JSON (");
        Path other = dir.resolve("run.json");
        Files.writeString(other, "{\"result\": {}, \"launch\": {}}");
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(other.toString()))).hasMessage(other
                + ": JSON that is neither the --json of preflight, gdr or topo nor a snapshot (an object with hostName and sections)");
        Path future = dir.resolve("future.json");
        Files.writeString(future, "{\"schemaVersion\": 2, \"hostName\": \"n1\", \"sections\": {}}");
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(future.toString()))).hasMessage(future
                + ": snapshot schema version 2; this nccl-doctor reads up to 1 (use the nccl-doctor that wrote it)");
        Path notes = dir.resolve("notes.txt");
        Files.writeString(notes, "some notes\n");
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(notes.toString()))).hasMessage(notes
                + ": neither a snapshot (JSON) nor a bandwidth file (header 'host,label,busbw_gbps')");
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(dir.resolve("none").toString()))).hasMessage(dir.resolve("none")
                + ": no such file or folder");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(empty.toString()))).hasMessage(empty
                + ": no input: no snapshot (.json), capture folder or bandwidth file (.csv)");
    }

    @Test
    void oneHostTwiceIsRefusedNamingBothFiles() throws Exception {
        Snapshot s = ClusterSample.node(1, ClusterSample.plan(9));
        Files.writeString(dir.resolve("a.json"), Json.write(s));
        Files.writeString(dir.resolve("b.json"), preflight(s));
        assertThatThrownBy(() -> NO_CAPTURES.read(List.of(dir.toString()))).hasMessage("host gpu-node-0001 appears twice: in "
                + dir.resolve("a.json") + " and " + dir.resolve("b.json") + "; give one snapshot per node");
    }
}
