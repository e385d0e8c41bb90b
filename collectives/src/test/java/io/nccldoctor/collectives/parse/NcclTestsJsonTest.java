package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.Fixtures;
import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests -J files. The fixtures are derived from the writer source, not published runs
 * (fixtures/public/README.md says how each was made and lists the facts asserted here).
 */
class NcclTestsJsonTest {

    static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsJson.parse(Files.readString(Fixtures.publicFixture(name), StandardCharsets.UTF_8), name);
    }

    static NcclTestsOutput.Row row(NcclTestsOutput out, long size) {
        return out.rows().stream().filter(r -> r.sizeBytes() == size).findFirst().orElseThrow();
    }

    @Test
    void formatOneAllReduceTwoRanksValidated() throws IOException {
        NcclTestsOutput out = read("nccl-tests-json-v1-allreduce-2rank-derived.json");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.27.3");
        assertThat(out.testsVersion().isAbsent()).isTrue();
        assertThat(out.testsVersion().reason()).contains("file format version 1");
        assertThat(out.ncclHeaders().isAbsent()).isTrue();
        assertThat(out.test().get()).isEqualTo("all_reduce_perf");
        assertThat(out.devices()).containsExactly(
                "Rank  0 Group  0 Pid  41237 on   node-a01 device  0 [0000:18:00] NVIDIA H100 80GB HBM3",
                "Rank  1 Group  0 Pid  41238 on   node-a01 device  1 [0000:2a:00] NVIDIA H100 80GB HBM3");
        assertThat(out.errorColumn()).isFalse();
        assertThat(out.rows()).hasSize(4);
        assertThat(out.rows().get(0).sizeBytes()).isEqualTo(1048576);
        NcclTestsOutput.Row r = row(out, 4194304);
        assertThat(r.count()).isEqualTo(1048576);
        assertThat(r.type()).isEqualTo("float");
        assertThat(r.redop().get()).isEqualTo("sum");
        assertThat(r.root().get()).isEqualTo(-1);
        assertThat(r.outOfPlace().timeUs()).isEqualTo(66.5184);
        assertThat(r.outOfPlace().algBwGBps()).isEqualTo(63.054794);
        assertThat(r.outOfPlace().busBwGBps()).isEqualTo(63.054794);
        assertThat(r.outOfPlace().wrong().get()).isZero();
        assertThat(r.outOfPlace().maxError().isAbsent()).isTrue();
        assertThat(r.inPlace().get().timeUs()).isEqualTo(66.9002);
        assertThat(r.inPlace().get().busBwGBps()).isEqualTo(62.69494);
        assertThat(r.inPlace().get().wrong().get()).isZero();
        assertThat(out.outOfBounds().get()).isZero();
        assertThat(out.outOfBoundsOk().get()).isTrue();
        assertThat(out.avgBusBwGBps().get()).isEqualTo(55.889963);
        assertThat(out.totalWrong().get()).isZero();
        assertThat(out.failures()).isEmpty();
        assertThat(out.peakBusBw().get().sizeBytes()).isEqualTo(8388608);
        assertThat(out.ncclInfoLines()).isZero();
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void formatTwoFourGpusOneProcessWithoutValidation() throws IOException {
        NcclTestsOutput out = read("nccl-tests-json-v2-allreduce-4gpu-nocheck-derived.json");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.28.7");
        assertThat(out.testsVersion().reason()).contains("file format version 2");
        assertThat(out.test().get()).isEqualTo("all_reduce_perf");
        assertThat(out.devices()).hasSize(1); // a non-MPI -g 4 run lists only its first device
        assertThat(out.devices().get(0)).contains("[0000:1b:00]").endsWith("NVIDIA A100-SXM4-80GB");
        assertThat(out.rows()).hasSize(2);
        NcclTestsOutput.Row big = row(out, 134217728);
        assertThat(big.count()).isEqualTo(33554432);
        assertThat(big.outOfPlace().timeUs()).isEqualTo(2301.4415);
        assertThat(big.outOfPlace().algBwGBps()).isEqualTo(58.318983);
        assertThat(big.outOfPlace().busBwGBps()).isEqualTo(87.478475);
        assertThat(big.outOfPlace().wrong().isAbsent()).isTrue();
        assertThat(big.outOfPlace().wrong().reason()).contains("-c 0");
        assertThat(big.inPlace().get().busBwGBps()).isEqualTo(87.230134);
        assertThat(out.totalWrong().isAbsent()).isTrue();
        assertThat(out.avgBusBwGBps().get()).isEqualTo(86.116246);
        assertThat(out.outOfBoundsOk().get()).isTrue();
        // NCCL_TESTS_MIN_BW=200: 86.1 is below 0.9 x 200, so the writer marked the average "false"
        assertThat(out.avgBusBwOk().get()).isFalse();
        assertThat(out.failures()).singleElement().asString().startsWith("the average bus bandwidth 86.116246 GB/s is below");
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void runStoppedMidRowLeavesNoFooter() {
        // format 2 closes whatever is open when the run fails: the last row has no measurements, no footer follows
        String json = "{\"version\":2,\"nccl_version\":22807,\"config\":{\"nthreads\":1},\"results\":["
                + "{\"size\":8,\"count\":2,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\","
                + "\"out_of_place\":{\"time\":12.5,\"alg_bw\":0.0,\"bus_bw\":0.0,\"nwrong\":3.000000},"
                + "\"in_place\":{\"cpu_time\":\"nan\",\"alg_bw\":0.0,\"bus_bw\":0.0,\"nwrong\":0.0},"
                + "\"actual_iterations\":20,\"experiment_name\":\"\"},"
                + "{\"size\":16,\"count\":4,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\"}]}";
        NcclTestsOutput out = NcclTestsJson.parse(json, "stopped.json");
        assertThat(out.rows()).hasSize(1);
        assertThat(out.rows().get(0).outOfPlace().wrong().get()).isEqualTo(3);
        assertThat(out.rows().get(0).inPlace().isError()).isTrue();
        assertThat(out.failures()).hasSize(1);
        assertThat(out.notUnderstood()).singleElement().asString()
                .startsWith("stopped.json: results[1]: size 16").contains("incomplete");
        assertThat(out.outOfBounds().isAbsent()).isTrue();
        assertThat(out.avgBusBwGBps().reason()).contains("stopped before its footer");
        assertThat(out.test().isAbsent()).isTrue();
    }

    @Test
    void bareInfAndNanFromPrintfAndEmptyRedop() {
        String json = "{\"nccl_version\":22703,\"results\":[{\"size\":0,\"count\":0,\"type\":\"float\",\"redop\":\"\",\"root\":\"    -1\","
                + "\"out_of_place\":{\"time\":0.000000,\"alg_bw\":inf,\"bus_bw\":-inf,\"nwrong\":null}},"
                + "{\"size\":4,\"count\":1,\"type\":\"float\",\"redop\":\"\",\"root\":\"     0\","
                + "\"out_of_place\":{\"time\":1.5,\"alg_bw\":0.0,\"bus_bw\":0.0,\"nwrong\":null}}],"
                + "\"out_of_bounds\":{\"count\":1,\"okay\":\"false\"},\"average_bus_bandwidth\":{\"bandwidth\":\"nan\",\"okay\":\"unchecked\"}}";
        NcclTestsOutput out = NcclTestsJson.parse(json, "inf.json");
        assertThat(out.rows()).hasSize(1);
        assertThat(out.rows().get(0).redop().isAbsent()).isTrue();
        assertThat(out.rows().get(0).root().get()).isZero();
        assertThat(out.rows().get(0).inPlace().isAbsent()).isTrue();
        assertThat(out.notUnderstood()).singleElement().asString().contains("results[0]").contains("out-of-place");
        assertThat(out.avgBusBwGBps().isError()).isTrue();
        assertThat(out.outOfBoundsOk().get()).isFalse();
        assertThat(out.failures()).singleElement().asString().contains("Out of bounds values : 1 FAILED");
    }

    @Test
    void notNcclTestsJson() {
        assertThatThrownBy(() -> NcclTestsJson.parse("{\"foo\":1}", "other.json"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("other.json: not nccl-tests -J JSON (no 'results' list, no 'config' object, no 'nccl_version' number)");
        assertThatThrownBy(() -> NcclTestsJson.parse("{\"results\":{}}", "r.json"))
                .hasMessageContaining("'results' is not a list");
        assertThatThrownBy(() -> NcclTestsJson.parse("[1,2]", "list.json")).hasMessageContaining("top level is not an object");
        assertThatThrownBy(() -> NcclTestsJson.parse("   ", "blank.json")).hasMessageContaining("empty");
    }

    @Test
    void badJsonIsOneLine() throws IOException {
        String killed = Files.readString(Fixtures.publicFixture("nccl-tests-json-v1-allreduce-2rank-derived.json")).substring(0, 700);
        assertThatThrownBy(() -> NcclTestsJson.parse(killed, "killed.json"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("killed.json: not nccl-tests -J JSON (the text ends early at line 1")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> NcclTestsJson.parse("{\"results\":[1,,]}", "bad.json"))
                .hasMessageStartingWith("bad.json: not nccl-tests -J JSON (not valid JSON: ")
                .hasMessageNotContaining("\n");
        String text = "# nccl-tests version 2.17.9 nccl-headers=22902 nccl-library=22902\n#  Rank  0 ...\n";
        assertThat(NcclTestsJson.looksLikeJson(text)).isFalse();
        assertThatThrownBy(() -> NcclTestsJson.parse(text, "out.txt"))
                .hasMessageContaining("does not start with '{'")
                .hasMessageNotContaining("\n");
    }

    @Test
    void looksLikeJson() {
        assertThat(NcclTestsJson.looksLikeJson("\n  {\"version\":1}")).isTrue();
        assertThat(NcclTestsJson.looksLikeJson("\uFEFF{}")).isTrue();
        assertThat(NcclTestsJson.looksLikeJson("")).isFalse();
        assertThat(NcclTestsJson.looksLikeJson("[{}]")).isFalse();
    }

    @Test
    void formatThreeListsDevicesAtTheTopLevel() {
        String json = "{\"version\":3,\"nccl_version\":23007,\"config\":{\"nthreads\":1},\"devices\":["
                + "{\"rank\":0,\"group\":0,\"pid\":11,\"hostname\":\"n1\",\"device\":0,\"device_hex\":\"0000:18:00\","
                + "\"device_info\":\"NVIDIA H200\"}],\"results\":[]}";
        NcclTestsOutput out = NcclTestsJson.parse(json, "v3.json");
        assertThat(out.devices()).containsExactly("Rank  0 Group  0 Pid     11 on         n1 device  0 [0000:18:00] NVIDIA H200");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.30.7");
    }
}
