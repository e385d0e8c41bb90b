package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * rccl-tests' --output_file JSON (its Reporter, src/common.cu): the real lines of ROCm/rccl-tests PR #93 (corpus
 * README), and the two later writers' shapes, which no public file shows: those texts below are written from the
 * writer's source (Reporter::addResult and Reporter::writeFile), synthetic, not found.
 */
class RcclTestsReporterJsonTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-tests");

    @Test
    void theLinesOfPr93AreReadAsRowsAndTheCutLineIsListed() throws IOException {
        String json = Files.readString(CORPUS.resolve("rccl-tests-output-file-json-lines-cut.jsonl"), StandardCharsets.UTF_8);
        assertThat(NcclTestsJson.looksLikeJson(json)).isTrue();
        NcclTestsOutput o = NcclTestsJson.parse(json, "pr93");
        assertThat(o.tool()).isEqualTo("rccl-tests");
        assertThat(o.test().get()).isEqualTo("all_reduce_perf");
        assertThat(o.rows()).extracting(NcclTestsOutput.Row::sizeBytes).containsExactly(1024L, 2048L, 4096L);
        NcclTestsOutput.Row first = o.rows().get(0);
        assertThat(first.count()).as("AllReduce: size = count x 4 bytes of float").isEqualTo(256);
        assertThat(first.outOfPlace().busBwGBps()).isEqualTo(0.08006609623048194);
        assertThat(first.outOfPlace().timeUs()).isEqualTo(19.184150000000002);
        assertThat(first.outOfPlace().wrong().get()).isZero();
        assertThat(first.inPlace().get().busBwGBps()).isEqualTo(0.07719504564609389);
        assertThat(o.rows().get(2).inPlace().isValue()).as("its in-place line is the cut one").isFalse();
        assertThat(o.notUnderstood()).singleElement().asString().contains("pr93:6", "not a whole JSON object");
        assertThat(o.avgBusBwGBps().reason()).contains("no footer");
        assertThat(o.warnings()).anyMatch(w -> w.contains("4 GPU(s) in the process"));
    }

    /** Reporter::writeFile (current develop): '[' ... ']' around objects led by numCycle, ", " between pairs. */
    private static final String ARRAY = """
            [
            {"numCycle":1, "name":"AllGather", "nodes":2, "ranks":16, "ranksPerNode":8, "gpusPerRank":1, "size":8388608, "type":"float", "redop":"none", "inPlace":0, "time":101.500000, "algBw":82.646000, "busBw":77.480000, "wrong":"0"},
            {"numCycle":1, "name":"AllGather", "nodes":2, "ranks":16, "ranksPerNode":8, "gpusPerRank":1, "size":8388608, "type":"float", "redop":"none", "inPlace":1, "time":99.250000, "algBw":84.520000, "busBw":79.240000, "wrong":"N/A"},
            {"numCycle":2, "name":"AllGather", "nodes":2, "ranks":16, "ranksPerNode":8, "gpusPerRank":1, "size":8388608, "type":"float", "redop":"none", "inPlace":0, "time":nan, "algBw":-nan, "busBw":nan, "wrong":"0"}
            ]
            """;

    @Test
    void theArrayOfTheCurrentWriterIsReadWithWhatTheModelLacksSaid() {
        assertThat(NcclTestsJson.looksLikeJson(ARRAY)).isTrue();
        NcclTestsOutput o = NcclTestsJson.parse(ARRAY, "array");
        assertThat(o.test().get()).isEqualTo("all_gather_perf");
        assertThat(o.rows()).singleElement().satisfies(r -> {
            assertThat(r.count()).as("AllGather's count depends on the ranks: not derived").isEqualTo(-1);
            assertThat(r.outOfPlace().busBwGBps()).isEqualTo(77.48);
            assertThat(r.inPlace().get().wrong().reason()).contains("N/A");
        });
        assertThat(o.notUnderstood()).singleElement().asString().contains("array:4", "'time' is no finite number");
        assertThat(o.warnings()).anyMatch(w -> w.contains("numCycle 1 to 2"))
                .anyMatch(w -> w.contains("2 node(s), 16 process(es), 8 per node, 1 GPU(s) per process"))
                .anyMatch(w -> w.startsWith("count -1"));
    }

    @Test
    void aFileWithNoWholeObjectIsRefused() {
        assertThatThrownBy(() -> NcclTestsJson.parse("[\n{\"numCycle\":1, \"name\":\"AllReduce\", \"inPlace\":0, \"busBw\n", "cut"))
                .isInstanceOf(InputException.class).hasMessageContaining("without one readable result object");
    }

    /** Synthetic: the -J file's shape (nccl-tests src/util.cu) with an AMD device: rccl-tests wrote it, not nccl-tests. */
    @Test
    void aDashJFileOfAnAmdGpuIsRcclTests() {
        String j = "{\"version\":2,\"args\":[\"./build/all_reduce_perf\"],\"nccl_version\":22803,\"config\":{\"devices\":"
                + "[{\"rank\":0,\"group\":0,\"pid\":1,\"hostname\":\"h\",\"device\":0,\"device_hex\":\"0000:05:00\","
                + "\"device_info\":\"AMD Instinct MI300X\"}]},\"results\":[]}";
        assertThat(NcclTestsJson.parse(j, "j").tool()).isEqualTo("rccl-tests");
        assertThat(NcclTestsJson.parse(j.replace("AMD Instinct MI300X", "NVIDIA H100 80GB HBM3"), "j").tool()).isEqualTo("nccl-tests");
    }
}
