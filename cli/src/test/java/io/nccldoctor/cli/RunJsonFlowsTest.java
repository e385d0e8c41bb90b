package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented flows on what `run --reference nccl-tests --json` writes: report, compare and rulezero --reference read
 * it (they once stopped with exit 3 on "Unrecognized field peakBusBw"), whatever members the run document gained.
 */
class RunJsonFlowsTest {

    @TempDir
    Path tmp;

    @Test
    void reportCompareAndRulezeroReadARunReferenceJson() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("build"));
        Path fake = bin.resolve("alltoall_perf");
        Files.writeString(fake, "#!/bin/sh\ncat '" + Path.of(CliTest.EXAMPLE, "alltoall-nccl-tests.txt").toAbsolutePath() + "'\n");
        assertThat(fake.toFile().setExecutable(true)).isTrue();
        CliTest.Run run = CliTest.run("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "--collective", "alltoall",
                "--log-dir", tmp.resolve("logs").toString(), "--json");
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode doc = Json.mapper().readTree(run.out());
        assertThat(doc.get("kind").asText()).isEqualTo("run");
        assertThat(doc.at("/reference/output/value/peakBusBw").isMissingNode()).as("the derived member that once broke readers")
                .isFalse();
        Path json = Files.writeString(tmp.resolve("run.json"), run.out());

        CliTest.Run report = CliTest.run("report", json.toString());
        assertThat(report.code()).as(report.err()).isZero();
        assertThat(Unwrapped.of(report.out())).contains("over 1 sweep");

        CliTest.Run compare = CliTest.run("compare", "--a", json.toString(), json.toString(), json.toString(), "--b", json.toString(),
                json.toString(), json.toString());
        assertThat(compare.code()).as(compare.err()).isZero();
        assertThat(compare.out()).contains("alltoall: no detectable change");

        CliTest.Run rz = CliTest.run("rulezero", CliTest.EXAMPLE + "/suspect-alltoall.csv", "--reference", json.toString());
        assertThat(rz.code()).as(rz.err()).isEqualTo(1);
        assertThat(rz.out()).startsWith("nccl-doctor rulezero: HARNESS_ARTIFACT");
    }
}
